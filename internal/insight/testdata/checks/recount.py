#!/usr/bin/env python3
"""Recount the check results of examples/building.json independently of the
Go code: its own CPM passes, and brute force where Go is clever (every chain
is enumerated for redundant links). checks_test.go's expected numbers for
building.json came from here and from reading the file; rerun with

    python3 internal/insight/testdata/checks/recount.py examples/building.json

It reads JSON schedule files only (the MSPDI cases are small enough to work
by hand; see checks_test.go)."""
import json
import re
import sys

EPS = 1e-6


def days(text):
    m = re.fullmatch(r"\s*(\w+)\s*\(([^)]*)\)\s*", text)
    if not m:
        return float(text)
    kind, args = m.group(1).lower(), [float(a) for a in m.group(2).split(",")]
    return {"triangular": args[1], "pert": args[1], "uniform": (args[0] + args[1]) / 2, "normal": args[0]}[kind]


def cpm(acts, rels):
    dur = {a["id"]: days(a["duration"]) for a in acts}
    preds = {a["id"]: [] for a in acts}
    succs = {a["id"]: [] for a in acts}
    for r in rels:
        preds[r["successor"]].append(r)
        succs[r["predecessor"]].append(r)
    order, pending = [], {i: len(preds[i]) for i in dur}
    queue = [i for i in dur if pending[i] == 0]
    while queue:
        x = queue.pop(0)
        order.append(x)
        for r in succs[x]:
            pending[r["successor"]] -= 1
            if pending[r["successor"]] == 0:
                queue.append(r["successor"])
    es, ef = {}, {}
    for x in order:
        d, s = dur[x], 0.0
        for r in preds[x]:
            p, t, lag = r["predecessor"], r["type"], r["lag"]
            s = max(s, {"FS": ef.get(p, 0) + lag, "SS": es.get(p, 0) + lag,
                        "FF": ef.get(p, 0) + lag - d, "SF": es.get(p, 0) + lag - d}[t])
        es[x], ef[x] = s, s + d
    T = max(ef.values(), default=0)
    ls, lf = {}, {}
    for x in reversed(order):
        d, late = dur[x], T
        for r in succs[x]:
            q, t, lag = r["successor"], r["type"], r["lag"]
            late = min(late, {"FS": ls[q] - lag, "SS": ls[q] - lag + d, "FF": lf[q] - lag, "SF": lf[q] - lag + d}[t])
        lf[x], ls[x] = late, late - d
    return dur, preds, succs, order, es, ef, ls, lf, T


def main(path):
    s = json.load(open(path))
    acts, rels = s["activities"], s["relationships"]
    ids = [a["id"] for a in acts]
    dur, preds, succs, order, es, ef, ls, lf, T = cpm(acts, rels)
    tf = {i: ls[i] - es[i] for i in ids}
    print(f"{len(acts)} activities, {len(rels)} relationships, project duration {T:g}")

    no_pred = [i for i in ids if not preds[i]]
    no_succ = [i for i in ids if not succs[i]]
    start = no_pred[0] if len(no_pred) == 1 else next((i for i in no_pred if dur[i] == 0), None)
    finish = (no_succ[0] if ef[no_succ[0]] >= T - EPS else None) if len(no_succ) == 1 else next((i for i in reversed(no_succ) if dur[i] == 0 and ef[i] >= T - EPS), None)
    print("without predecessor:", no_pred, "without successor:", no_succ, "start:", start, "finish:", finish)

    def show(name, offenders, of):
        print(f"{name}: {len(offenders)} of {of} ({100 * len(offenders) / max(of, 1):.1f}%) {offenders}")

    show("missing_logic", [i for i in ids if (not preds[i] and i != start) or (not succs[i] and i != finish)], len(ids))
    show("leads", [r["id"] for r in rels if r["lag"] < 0], len(rels))
    show("lags", [r["id"] for r in rels if r["lag"] > 0], len(rels))
    show("relationship_types (non-FS)", [r["id"] for r in rels if r["type"] != "FS"], len(rels))
    show("high_float (> 44)", [i for i in ids if tf[i] > 44 + EPS], len(ids))
    print("  total floats of those:", {i: tf[i] for i in ids if tf[i] > 44 + EPS})
    show("negative_float", [i for i in ids if tf[i] < -EPS], len(ids))
    show("high_duration (> 44)", [i for i in ids if dur[i] > 44 + EPS], len(ids))
    print("  longest durations:", sorted(dur.values())[-3:])

    # Critical path test: the first activity with a duration on a driving
    # chain from an undriven critical activity; extend it by 10 and recompute.
    crit = [i for i in order if tf[i] <= EPS]
    first = sorted(crit, key=lambda i: (es[i], order.index(i)))
    tested = next(i for i in first if dur[i] > 0)
    acts2 = [dict(a, duration=str(dur[a["id"]] + 10)) if a["id"] == tested else a for a in acts]
    T2 = cpm(acts2, rels)[8]
    print(f"critical path test: {tested} + 10 days moves the finish {T2 - T:g} days ({T:g} -> {T2:g})")

    # Redundant FS links, brute force: enumerate every chain of FS links with
    # lag >= 0 from A (two or more links) and keep the largest lag sum to C.
    chain = [r for r in rels if r["type"] == "FS" and r["lag"] >= 0]
    out = {i: [r for r in chain if r["predecessor"] == i] for i in ids}

    def sums(a, c):
        best = None
        stack = [(r["successor"], r["lag"], 1) for r in out[a]]
        while stack:
            x, total, n = stack.pop()
            if x == c and n >= 2:
                best = total if best is None else max(best, total)
            for r in out[x]:
                stack.append((r["successor"], total + r["lag"], n + 1))
        return best

    redundant = []
    for r in rels:
        if r["type"] != "FS":
            continue
        b = sums(r["predecessor"], r["successor"])
        if b is not None and b >= r["lag"] - EPS:
            redundant.append(r["id"])
    show("redundant_links", redundant, len(rels))
    kept = [r for r in rels if r["id"] not in redundant]
    after = cpm(acts, kept)
    same = all(abs(after[4][i] - es[i]) < EPS and abs(after[6][i] - ls[i]) < EPS for i in ids)
    print("  dates unchanged with every redundant link removed:", same)

    show("dangling_starts", [i for i in ids if preds[i] and dur[i] > 0 and i not in (start, finish)
                             and all(r["type"] in ("FF", "SF") for r in preds[i])], len(ids))
    show("dangling_finishes", [i for i in ids if succs[i] and dur[i] > 0 and i not in (start, finish)
                               and all(r["type"] in ("SS", "SF") for r in succs[i])], len(ids))


if __name__ == "__main__":
    main(sys.argv[1])
