#!/usr/bin/env python3
"""Benchmark peer: CPM with NetworkX over the node graph (the seed design's approach).

Usage: python3 bench/networkx_cpm.py SCHEDULE.json [--out report.json]

Node graph: for each activity X the nodes s-X (weight 0), i-X (weight = duration)
and e-X (weight 0) with edges s-X -> i-X -> e-X; for each relationship R a node R
(weight = lag) wired as
    FS: e-pred -> R -> s-succ    SS: s-pred -> R -> s-succ
    FF: e-pred -> R -> e-succ    SF: s-pred -> R -> e-succ
A forward longest-path pass over nx.topological_sort gives earliest times, a
backward pass in reverse order gives latest times. Activity values are read off
the i-X nodes. Timings go to stderr as one JSON line.
"""

import argparse
import json
import re
import sys
import time

import networkx as nx

_DIST = re.compile(r"^\s*(triangular|pert|uniform|normal)\s*\((.*)\)\s*$")


def parse_duration(value):
    """Deterministic duration: number as given, mode for triangular/pert, mean for uniform/normal."""
    if isinstance(value, (int, float)):
        return float(value)
    m = _DIST.match(value)
    if not m:
        return float(value)
    kind = m.group(1)
    args = [float(x) for x in m.group(2).split(",")]
    if kind in ("triangular", "pert"):
        return args[1]
    if kind == "uniform":
        return (args[0] + args[1]) / 2.0
    return args[0]  # normal(mean, sd)


def build_graph(schedule):
    G = nx.DiGraph()
    nodes = []
    edges = []
    for a in schedule["activities"]:
        x = a["id"]
        s, i, e = "s-" + x, "i-" + x, "e-" + x
        nodes.append((s, {"weight": 0.0}))
        nodes.append((i, {"weight": parse_duration(a["duration"])}))
        nodes.append((e, {"weight": 0.0}))
        edges.append((s, i))
        edges.append((i, e))
    for r in schedule["relationships"]:
        rid, p, q, t = r["id"], r["predecessor"], r["successor"], r["type"]
        nodes.append((rid, {"weight": float(r.get("lag", 0) or 0)}))
        src = ("e-" if t in ("FS", "FF") else "s-") + p
        dst = ("s-" if t in ("FS", "SS") else "e-") + q
        edges.append((src, rid))
        edges.append((rid, dst))
    G.add_nodes_from(nodes)
    G.add_edges_from(edges)
    return G


def cpm(G, schedule):
    weight = nx.get_node_attributes(G, "weight")
    order = list(nx.topological_sort(G))  # raises NetworkXUnfeasible on a cycle

    # Forward pass: earliest start/finish of every node.
    est, eft = {}, {}
    for n in order:
        start = max((eft[p] for p in G.predecessors(n)), default=0.0)
        if start < 0.0:
            start = 0.0
        est[n] = start
        eft[n] = start + weight[n]
    T = max(eft.values(), default=0.0)

    # Backward pass: latest finish/start of every node.
    lst, lft = {}, {}
    for n in reversed(order):
        finish = min((lst[s] for s in G.successors(n)), default=T)
        lft[n] = finish
        lst[n] = finish - weight[n]

    acts = []
    for a in schedule["activities"]:
        x = a["id"]
        i, e = "i-" + x, "e-" + x
        d = weight[i]
        es = est[i]
        ef = es + d
        ls = lst[i]
        lf = ls + d
        tf = ls - es
        ff = min((est[s] for s in G.successors(e)), default=T) - ef
        acts.append({
            "id": x,
            "name": a.get("name", ""),
            "duration": d,
            "early_start": es,
            "early_finish": ef,
            "late_start": ls,
            "late_finish": lf,
            "total_float": tf,
            "free_float": ff,
            "critical": tf <= 1e-9,
        })
    critical = [a for a in acts if a["critical"]]
    critical.sort(key=lambda a: (a["early_start"], a["early_finish"]))
    return {
        "project_duration": T,
        "critical_path": [a["id"] for a in critical],
        "activities": acts,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("schedule")
    ap.add_argument("--out", help="write the report here instead of stdout")
    args = ap.parse_args()

    t0 = time.perf_counter()
    with open(args.schedule) as f:
        schedule = json.load(f)
    t1 = time.perf_counter()
    G = build_graph(schedule)
    t2 = time.perf_counter()
    report = cpm(G, schedule)
    t3 = time.perf_counter()
    # json.dumps without indent uses the C encoder: the peer's fastest output.
    text = json.dumps(report)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    else:
        sys.stdout.write(text + "\n")
    t4 = time.perf_counter()
    print(json.dumps({
        "load_s": t1 - t0,
        "build_s": t2 - t1,
        "cpm_s": t3 - t2,
        "write_s": t4 - t3,
        "total_s": t4 - t0,
    }), file=sys.stderr)


if __name__ == "__main__":
    main()
