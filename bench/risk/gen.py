#!/usr/bin/env python3
"""Write a synthetic schedule with duration distributions for the risk benchmark.

    python3 bench/risk/gen.py -n 1000 -links 3000 -seed 1 -o bench/out/risk-1k.json

n activities and exactly `links` relationships, each from one of the previous
50 activities (as schedule.Synthetic: schedules are local), 60% FS, 20% SS,
10% FF, 10% SF, lags -2..5 days, no duplicate (predecessor, successor, type).
Durations: 30% pert(a,m,b), 25% triangular(a,m,b), 15% uniform(a,b),
15% normal(mean,sd) and 15% fixed, around a most likely 1..20 days.
Names repeat 12 trades over levels ("Drywall Level 7") so --correlate trade
has groups. The same arguments always give the same file.
"""
import argparse
import json
import random

TRADES = ["Formwork", "Rebar", "Concrete pour", "Blockwork", "Drywall", "Electrical rough-in",
          "Plumbing rough-in", "HVAC ductwork", "Plastering", "Painting", "Flooring", "Fit-out"]
TYPES = ["FS"] * 6 + ["SS"] * 2 + ["FF", "SF"]


def generate(n, links, seed, start="2026-01-05"):
    rng = random.Random(seed)
    acts = []
    for i in range(n):
        m = rng.randint(1, 20)
        k = rng.random()
        if k < 0.30:
            d = f"pert({m * 0.8:g},{m},{m * 1.6:g})"
        elif k < 0.55:
            d = f"triangular({m * 0.75:g},{m},{m * 1.5:g})"
        elif k < 0.70:
            d = f"uniform({m * 0.8:g},{m * 1.3:g})"
        elif k < 0.85:
            d = f"normal({m},{m * 0.15:g})"
        else:
            d = str(m)
        name = f"{TRADES[i % len(TRADES)]} Level {i // len(TRADES) + 1}"
        acts.append({"id": f"A{i}", "name": name, "duration": d})
    rels, seen = [], set()
    if n > 1:
        per = links / (n - 1)
        while len(rels) < links:
            i = rng.randint(1, n - 1)
            pred = i - 1 - rng.randrange(min(i, 50))
            t = rng.choice(TYPES)
            if (pred, i, t) in seen:
                continue
            seen.add((pred, i, t))
            rels.append((i, pred, t, rng.randint(-2, 5)))
    rels.sort(key=lambda r: (r[0], r[1], r[2]))  # grouped by successor, as files list them
    out = [{"id": f"R{k}", "type": t, "predecessor": f"A{p}", "successor": f"A{s}", "lag": lag}
           for k, (s, p, t, lag) in enumerate(rels)]
    doc = {"name": f"Risk synthetic {n}", "activities": acts, "relationships": out}
    if start:
        doc["start_date"] = start
    return doc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=1000)
    ap.add_argument("-links", type=int, default=3000)
    ap.add_argument("-seed", type=int, default=1)
    ap.add_argument("-start", default="2026-01-05", help='start date; "" for none (a 100k-activity chain runs past the calendar range)')
    ap.add_argument("-o", required=True)
    a = ap.parse_args()
    with open(a.o, "w") as f:
        json.dump(generate(a.n, a.links, a.seed, a.start), f, indent=0)


if __name__ == "__main__":
    main()
