#!/usr/bin/env python3
"""Benchmark peer: the live programme's CPM in Python with NetworkX.

Usage: python3 bench/networkx_live.py SCHEDULE.json [--out report.json]

The same work as `autoscheduler schedule` on a progressed programme with
P6's rules (options.tool = "p6", the rules bench/gensched -live writes): each
calendar laid out once as arrays of working periods (start minute, working
minutes before it), working-minute arithmetic by bisect over them; actual
dates fixed, remaining work scheduled from the data date, start-on-or-after
and finish-on-or-before constraints; a forward and a backward pass over
nx.topological_sort of the activity graph (one node per activity, one edge
per relationship with its type and lag); total float (finish float, P6's
default) and free float in working minutes of the activity's calendar; the
report as `schedule --format json` writes it (offsets in working days of the
project calendar from the project start, and the four dates), with the C
JSON encoder. Timings go to stderr as one JSON line.

It follows the rules of internal/schedule/live_pass.go for what the file
holds and refuses what it does not implement (other tools, activity types,
manual tasks, other constraints, calendar exceptions), rather than computing
something else.
"""

import argparse
import bisect
import datetime as dt
import json
import sys
import time

import networkx as nx

DAY = 1440
WEEKDAYS = {"sun": 6, "mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5}
DEFAULT_HOURS = ["08:00-12:00", "13:00-17:00"]
SPAN_DAYS = 40 * 366  # calendars are laid out this far from the origin


def hm(s):
    h, m = s.split(":")
    return int(h) * 60 + int(m)


class Clock:
    """One calendar's working periods from the origin, as minute arrays."""

    def __init__(self, cal, origin):
        cal = cal or {}
        for key in ("exceptions", "day_hours"):
            if cal.get(key):
                raise NotImplementedError(f"calendar {key}")
        days = {WEEKDAYS[d[:3].lower()] for d in cal.get("workdays") or ["Mon", "Tue", "Wed", "Thu", "Fri"]}
        hours = [tuple(hm(x) for x in h.split("-")) for h in cal.get("hours") or DEFAULT_HOURS]
        per_day = sum(t - f for f, t in hours)
        self.day = cal.get("hours_per_day", 0) * 60 or per_day
        holidays = {dt.date.fromisoformat(h) for h in cal.get("holidays") or []}
        S, B, E = [], [], []
        worked = 0
        for k in range(SPAN_DAYS):
            d = origin + dt.timedelta(days=k)
            if d.weekday() not in days or d in holidays:
                continue
            for f, t in hours:
                S.append(k * DAY + f)
                B.append(worked)
                worked += t - f
                E.append(worked)
        self.S, self.B, self.E = S, B, E

    def work_before(self, t):
        i = bisect.bisect_right(self.S, t)
        if i == 0:
            return 0
        i -= 1
        return self.B[i] + min(t - self.S[i], self.E[i] - self.B[i])

    def at(self, m, finish):
        if finish and m == 0:
            return self.S[0]
        i = bisect.bisect_left(self.E, m) if finish else bisect.bisect_right(self.E, m)
        if i == len(self.E):
            return self.S[-1] + self.E[-1] - self.B[-1]
        return self.S[i] + m - self.B[i]

    def next_start(self, t):
        s = self.at(self.work_before(t), False)
        return t if s < t else s

    def prev_finish(self, t):
        m = self.work_before(t)
        return t if m == 0 else self.at(m, True)

    def add(self, t, w):
        if w == 0:
            return t
        if w > 0:
            return self.at(self.work_before(t) + w, True)
        return self.at(max(self.work_before(t) + w, 0), False)

    def between(self, a, b):
        return self.work_before(b) - self.work_before(a)


def minute_of(s, origin):
    """Minutes from the origin of a date or date-time; (minute, date_only)."""
    if len(s) == 10:
        d = dt.date.fromisoformat(s)
        return (d - origin).days * DAY, True
    t = dt.datetime.fromisoformat(s)
    return (t.date() - origin).days * DAY + t.hour * 60 + t.minute, False


def live_date(s, c, origin, finish):
    m, date_only = minute_of(s, origin)
    if date_only:
        return c.prev_finish(m + DAY) if finish else c.next_start(m)
    return m


def parse_days(s):
    s = str(s).strip()
    if s[-1:].isalpha():
        raise NotImplementedError(f"duration with a unit: {s}")
    return float(s)


def round_half_away(x):
    return -int(-x + 0.5) if x < 0 else int(x + 0.5)


def load(schedule):
    """The activity graph and each activity's calendar, durations, actuals and constraint."""
    opts = schedule.get("options") or {}
    if opts.get("tool") != "p6" or opts.get("lag_calendar") not in (None, "", "predecessor") \
            or opts.get("progress") not in (None, "", "retained_logic") or opts.get("float") not in (None, "", "finish"):
        raise NotImplementedError(f"options {opts}: this peer implements P6's default rules")
    start_d = dt.date.fromisoformat(schedule["start_date"][:10])
    origin = start_d - dt.timedelta(days=2 * 366)
    clocks = {"": Clock(schedule.get("calendar"), origin)}
    for cid, cal in (schedule.get("calendars") or {}).items():
        clocks[cid] = Clock(cal, origin)
    project = clocks[""]
    start = project.next_start(minute_of(schedule["start_date"], origin)[0])
    data = live_date(schedule["data_date"], project, origin, False) if schedule.get("data_date") else None

    G = nx.DiGraph()
    index = {}
    acts = schedule["activities"]
    for i, a in enumerate(acts):
        if a.get("type") or a.get("manual") or a.get("secondary_constraint"):
            raise NotImplementedError(f"activity {a['id']}: type, manual or secondary constraint")
        c = clocks[a.get("calendar", "")]
        dur = round_half_away(parse_days(a["duration"]) * c.day)
        rem = dur
        if a.get("remaining"):
            rem = round_half_away(parse_days(a["remaining"]) * c.day)
        elif a.get("percent_complete", 0) > 0 and a.get("actual_start"):
            rem = round_half_away(dur * (1 - min(a["percent_complete"], 100) / 100))
        act_start = live_date(a["actual_start"], c, origin, False) if a.get("actual_start") else None
        act_end = None
        if a.get("actual_finish"):
            act_end = live_date(a["actual_finish"], c, origin, True)
            rem = 0
        cons = None
        if a.get("constraint"):
            typ = a["constraint"]["type"]
            if typ not in ("start_on_or_after", "finish_on_or_before"):
                raise NotImplementedError(f"constraint {typ}")
            cons = (typ, live_date(a["constraint"]["date"], c, origin, typ == "finish_on_or_before"))
        index[a["id"]] = i
        G.add_node(i, clock=c, dur=dur, rem=rem, act_start=act_start, act_end=act_end, cons=cons)
    lag_day = project.day
    for r in schedule["relationships"]:
        p, s = index[r["predecessor"]], index[r["successor"]]
        if G.has_edge(p, s):
            raise NotImplementedError("two relationships between the same activities")
        G.add_edge(p, s, typ=r["type"], lag=round_half_away(float(r.get("lag", 0) or 0) * lag_day))
    return G, origin, project, start, data


def lag_back(a, b, typ, lag, c, data):
    """The lag P6's backward pass counts from a to b where progress spends it."""
    if typ == "SF":
        return 0 if a["act_end"] is not None and b["act_end"] is not None else lag
    running = b["act_start"] is not None and b["act_end"] is None
    if a["act_end"] is not None:
        if running:
            return lag if typ == "FS" and data is not None and b["act_start"] >= data else 0
        if lag <= 0:
            return 0
        if data is None:
            return lag
        frm = a["act_start"] if typ == "SS" else a["act_end"]
        return max(lag - max(c.between(frm, data), 0), 0)
    if b["act_end"] is not None and typ == "FS":
        return 0
    if typ == "SS" and a["act_start"] is not None and data is not None:
        return max(lag - max(c.between(a["act_start"], data), 0), 0)  # covered by the work done
    return lag


def cpm(G, schedule, origin, project, start, data):
    node = G.nodes
    order = list(nx.topological_sort(G))  # raises NetworkXUnfeasible on a cycle
    floor = data if data is not None and data > start else start
    ES, EF = {}, {}

    # Forward pass (P6): the latest start the links allow, then progress and constraints.
    for v in order:
        a = node[v]
        c, rem = a["clock"], a["rem"]
        es, linked, finish_by = None, False, None
        for p, link in G.pred[v].items():
            b = node[p]
            lc, lag, typ = b["clock"], link["lag"], link["typ"]  # P6: the lag on the predecessor's calendar
            p_start = b["act_start"] if b["act_start"] is not None else ES[p]
            if a["act_end"] is not None:
                # P6: finished work sits at the data date or where its logic puts it: a link from work
                # not started counts with its lag, and so does a finish link from work under way.
                frm = EF[p] if typ in ("FS", "FF") else ES[p]
                if b["act_end"] is not None or (b["act_start"] is not None and typ in ("SS", "SF")):
                    cand = frm
                else:
                    cand = lc.add(frm, lag)
                    if lag < 0 and data is not None and cand < data:
                        cand = data
            elif typ == "FS" and b["act_end"] is not None and lag > 0 and data is not None:
                left = lag - max(lc.between(b["act_end"], data), 0)  # lag spent before the data date
                cand = lc.add(EF[p], left) if left > 0 else EF[p]
            elif typ == "SS" and b["act_end"] is not None and data is not None:
                at = lc.add(p_start, lag)  # from finished work: the lag from its actual start, if not yet spent
                cand = ES[p] if at < data or (lag < 0 and at == data) else at
            elif typ == "SS" and b["act_start"] is not None and data is not None:
                left = max(lag - max(lc.between(p_start, data), 0), 0)  # the lag the work done has not covered
                cand = lc.add(ES[p], left)
            else:
                at = lc.add(EF[p] if typ in ("FS", "FF") else p_start, lag)
                if lag < 0 and data is not None and at < data:
                    at = data
                cand = at if typ in ("FS", "SS") else c.add(at, -rem)
            if not linked or cand > es:
                es, linked = cand, True
                finish_by = at if typ in ("FF", "SF") and a["act_end"] is None else None
        if a["act_end"] is not None:
            ES[v] = EF[v] = max(es, floor) if linked else floor
            continue
        if a["act_start"] is not None:
            ES[v] = c.next_start(max(es, floor) if linked else floor)
            EF[v] = c.add(ES[v], rem)
            continue
        cons = a["cons"]
        snet = cons is not None and cons[0] == "start_on_or_after"
        if not linked:
            es = max(cons[1], floor) if snet else floor
        else:
            es = max(es, floor)
        if snet:
            es = max(es, cons[1])
        d = a["dur"]
        if not (d == 0 and c.prev_finish(es) == es):
            es = c.next_start(es)
        ef = c.add(es, d)
        if finish_by is not None:
            # P6 writes a finish its finish link gives as the link gives it, or, off this
            # activity's working time, as its next start.
            if c.prev_finish(finish_by) != finish_by:
                finish_by = c.next_start(finish_by)
            if c.between(ef, finish_by) == 0:
                ef = finish_by
        ES[v], EF[v] = es, ef
    finish = max(EF.values(), default=floor)

    # Backward pass (P6).
    LS, LF, TF = {}, {}, {}
    for v in reversed(order):
        a = node[v]
        c, rem = a["clock"], a["rem"]
        lf, start_by = finish, None
        for s, link in G.succ[v].items():
            lag, typ = link["lag"], link["typ"]  # lag on this activity's (the predecessor's) calendar
            lag = lag_back(a, node[s], typ, lag, c, data)
            if typ == "FS":
                cand = c.add(LS[s], -lag)
            elif typ == "FF":
                cand = c.add(LF[s], -lag)
            elif typ == "SS":
                cand = c.add(c.add(LS[s], -lag), rem)
            else:
                cand = c.add(c.add(LF[s], -lag), rem)
            if cand < lf:
                lf = cand
                start_by = c.add(LS[s] if typ == "SS" else LF[s], -lag) if typ in ("SS", "SF") else None
        cons = a["cons"]
        if a["act_end"] is None and cons is not None and cons[0] == "finish_on_or_before" and cons[1] < lf:
            lf = cons[1]
        if a["act_end"] is None:
            lf = c.prev_finish(lf)  # P6 writes finished work's late dates as its successors give them
        ls = c.add(lf, -rem)
        if rem > 0:
            ls = c.next_start(ls)
        if start_by is not None and a["act_end"] is None:
            # P6 writes a start its start link gives as the link gives it, or, off this
            # activity's working time, as its last finish.
            if c.next_start(start_by) != start_by:
                start_by = c.prev_finish(start_by)
            if c.between(ls, start_by) == 0:
                ls = start_by
        LF[v], LS[v] = lf, ls
        TF[v] = 0 if a["act_end"] is not None else c.between(EF[v], lf)

    # The report: working-day offsets of the project calendar and the dates.
    day = project.day
    base = project.work_before(start)
    offsets = {}
    dates = {}

    def off(m):
        o = offsets.get(m)
        if o is None:
            o = offsets[m] = (project.work_before(m) - base) / day
        return o

    def date(m):
        s = dates.get(m)
        if s is None:
            s = dates[m] = (dt.datetime.combine(origin, dt.time()) + dt.timedelta(minutes=m)).isoformat()
        return s

    acts = []
    for i, a in enumerate(schedule["activities"]):
        n = node[i]
        c = n["clock"]
        tf = TF[i] / day
        free = TF[i]
        for s, link in G.succ[i].items():
            if node[s]["act_end"] is not None:
                continue
            typ = link["typ"]
            frm = EF[i] if typ in ("FS", "FF") else ES[i]
            to = ES[s] if typ in ("FS", "SS") else EF[s]
            free = min(free, c.between(c.add(frm, link["lag"]), to))
        es, ef, ls, lf = off(ES[i]), off(EF[i]), off(LS[i]), off(LF[i])
        acts.append({
            "id": a["id"], "name": a.get("name", ""), "duration": ef - es,
            "early_start": es, "early_finish": ef, "late_start": ls, "late_finish": lf,
            "total_float": tf, "free_float": max(0.0, min(tf, free / day)), "critical": tf <= 1e-6,
            "early_start_date": date(ES[i]), "early_finish_date": date(EF[i]),
            "late_start_date": date(LS[i]), "late_finish_date": date(LF[i]),
        })
    critical = [v for v in order if acts[v]["critical"]]
    critical.sort(key=lambda v: acts[v]["early_start"])
    return {
        "project_duration": off(finish),
        "project_finish": date(finish),
        "critical_path": [acts[v]["id"] for v in critical],
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
    G, origin, project, start, data = load(schedule)
    t2 = time.perf_counter()
    report = cpm(G, schedule, origin, project, start, data)
    t3 = time.perf_counter()
    text = json.dumps(report)  # the C encoder: the peer's fastest output
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    else:
        sys.stdout.write(text + "\n")
    t4 = time.perf_counter()
    print(json.dumps({"load_s": t1 - t0, "build_s": t2 - t1, "cpm_s": t3 - t2, "write_s": t4 - t3,
                      "total_s": t4 - t0}), file=sys.stderr)


if __name__ == "__main__":
    main()
