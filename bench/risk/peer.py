#!/usr/bin/env python3
"""The numpy peer of `autoscheduler risk`: Monte Carlo CPM vectorised over
iterations (each activity's durations, starts and finishes are arrays of one
value per iteration; the network is walked once in topological order).

    python3 bench/risk/peer.py SCHEDULE.json --iterations 10000 --seed 1
    python3 bench/risk/peer.py SCHEDULE.json --samples samples.npy

With --samples it reads the very durations the Go command sampled
(`autoscheduler risk --dump-samples F`, shape iterations x activities in the
file's activity order) instead of drawing its own, so both compute the
percentiles of identical finishes. It prints JSON with the keys of
`risk --format json` (no dates) on stdout and its phase times on stderr.

Semantics as the Go engine: ES = max(0, FS: EF_p+lag, SS: ES_p+lag,
FF: EF_p+lag-d, SF: ES_p+lag-d), EF = ES+d, finish = max EF; the backward
pass LF = min(T, FS: LS_s-lag, SS: LS_s-lag+d, FF: LF_s-lag, SF: LF_s-lag+d);
critical = LF-d-ES <= 1e-6. Sampling: pert(a,m,b) = a+(b-a)Beta(1+4(m-a)/(b-a),
1+4(b-m)/(b-a)); triangular and uniform numpy's; normal truncated at 0 by
redrawing. Percentiles: np.percentile's default (linear). sd: ddof=1.
Sensitivity: Spearman (Pearson of ranks; ties averaged) of the float32
durations (as the Go side stores them) with the finish; 0 for fixed durations
and for activities never critical (independent durations cannot move the
finish). No --correlate: the peer samples independently.
"""
import argparse
import json
import re
import sys
import time
from collections import deque

import numpy as np

DIST = re.compile(r"^\s*([a-zA-Z]+)\s*\((.*)\)\s*$")


def parse(d):
    m = DIST.match(d)
    if not m:
        return "fixed", [float(d)]
    return m.group(1).lower(), [float(x) for x in m.group(2).split(",")]


def sample(kind, p, n, rng):
    if kind == "fixed":
        return np.full(n, p[0])
    if kind == "uniform":
        return rng.uniform(p[0], p[1], n) if p[1] > p[0] else np.full(n, p[0])
    if kind == "triangular":
        return rng.triangular(p[0], p[1], p[2], n) if p[2] > p[0] else np.full(n, p[0])
    if kind == "pert":
        a, m, b = p
        if b <= a:
            return np.full(n, a)
        return a + (b - a) * rng.beta(1 + 4 * (m - a) / (b - a), 1 + 4 * (b - m) / (b - a), n)
    if kind == "normal":
        mu, sd = p
        x = rng.normal(mu, sd, n)
        while True:
            bad = x < 0
            if not bad.any():
                return x
            x[bad] = rng.normal(mu, sd, int(bad.sum()))
    raise ValueError(kind)


def ranks(x):
    """Ranks 1..n, ties averaged (scipy.stats.rankdata 'average')."""
    order = np.argsort(x, kind="stable")
    xs = x[order]
    n = len(x)
    starts = np.concatenate(([True], xs[1:] != xs[:-1]))
    idx = np.flatnonzero(starts)
    ends = np.append(idx[1:], n)
    avg = (idx + ends + 1) / 2.0
    r = np.empty(n)
    r[order] = np.repeat(avg, ends - idx)
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("schedule")
    ap.add_argument("--iterations", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--samples")
    a = ap.parse_args()
    t0 = time.perf_counter()
    with open(a.schedule) as f:
        doc = json.load(f)
    acts = doc["activities"]
    n = len(acts)
    index = {x["id"]: i for i, x in enumerate(acts)}
    ins = [[] for _ in range(n)]
    outs = [[] for _ in range(n)]
    code = {"FS": 0, "SS": 1, "FF": 2, "SF": 3}
    for r in doc["relationships"]:
        p, s, t, lag = index[r["predecessor"]], index[r["successor"]], code[r["type"]], float(r.get("lag", 0))
        ins[s].append((p, t, lag))
        outs[p].append((s, t, lag))
    pending = [len(x) for x in ins]
    order = deque(i for i in range(n) if pending[i] == 0)
    topo = []
    while order:
        v = order.popleft()
        topo.append(v)
        for s, _, _ in outs[v]:
            pending[s] -= 1
            if pending[s] == 0:
                order.append(s)
    t1 = time.perf_counter()

    if a.samples:
        dur = np.load(a.samples).T.copy()  # activities x iterations
        iters = dur.shape[1]
    else:
        iters = a.iterations
        rng = np.random.default_rng(a.seed)
        dur = np.empty((n, iters))
        for i, x in enumerate(acts):
            kind, p = parse(x["duration"])
            dur[i] = sample(kind, p, iters, rng)
    random = [parse(x["duration"])[0] != "fixed" for x in acts]
    t2 = time.perf_counter()

    es = np.empty((n, iters))
    ef = np.empty((n, iters))
    for v in topo:
        d = dur[v]
        start = np.zeros(iters)
        for p, t, lag in ins[v]:
            if t == 0:
                c = ef[p] + lag
            elif t == 1:
                c = es[p] + lag
            elif t == 2:
                c = ef[p] + (lag - d)
            else:
                c = es[p] + (lag - d)
            np.maximum(start, c, out=start)
        es[v] = start
        ef[v] = start + d
    finish = ef.max(axis=0)
    lf = np.empty((n, iters))
    crit = np.zeros(n)
    for v in reversed(topo):
        d = dur[v]
        late = finish.copy()
        for s, t, lag in outs[v]:
            if t == 0:
                c = lf[s] - dur[s] - lag
            elif t == 1:
                c = lf[s] - dur[s] - lag + d
            elif t == 2:
                c = lf[s] - lag
            else:
                c = lf[s] - lag + d
            np.minimum(late, c, out=late)
        lf[v] = late
        crit[v] = np.count_nonzero(late - d - es[v] <= 1e-6) / iters
    t3 = time.perf_counter()

    rf = ranks(finish)
    rf -= rf.mean()
    sff = (rf * rf).sum()
    sens = {}
    for i, x in enumerate(acts):
        if not random[i] or crit[i] == 0:
            # Fixed, or never critical: independent durations cannot move
            # the finish (the Go side reports 0 without ranking too).
            sens[x["id"]] = 0.0
            continue
        rd = ranks(dur[i].astype(np.float32))  # the Go side ranks float32 durations
        rd -= rd.mean()
        sdd = (rd * rd).sum()
        sens[x["id"]] = round(float((rd * rf).sum() / np.sqrt(sdd * sff)), 4) if sdd > 0 and sff > 0 else 0.0
    t4 = time.perf_counter()
    det = None
    out = {
        "iterations": iters, "seed": a.seed,
        "mean": float(finish.mean()), "sd": float(finish.std(ddof=1)) if iters > 1 else 0.0,
        "p10": float(np.percentile(finish, 10)), "p50": float(np.percentile(finish, 50)),
        "p80": float(np.percentile(finish, 80)), "p90": float(np.percentile(finish, 90)),
        "criticality": {x["id"]: round(float(crit[i]), 4) for i, x in enumerate(acts)},
        "sensitivity": sens,
    }
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    print(json.dumps({"load_s": t1 - t0, "sample_s": t2 - t1, "cpm_s": t3 - t2, "stats_s": t4 - t3}), file=sys.stderr)


if __name__ == "__main__":
    main()
