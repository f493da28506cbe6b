#!/usr/bin/env python3
"""Benchmark peer: MPXJ reads a P6 XER file and schedules it with its
PrimaveraScheduler (org.mpxj.cpm), through JPype (PyPI `mpxj`, which bundles
the MPXJ jar; bench/requirements.txt pins it).

Usage: python3 bench/mpxj_p6.py FILE.xer [--out report.json]

As internal/interchange/testdata/mpxj_realdates.py drives it: the project is
scheduled from its planned start; the data date is the file's. The report
holds each task's early and late dates and total float (as MPXJ gives them)
and the project finish (the latest early finish). Timings go to stderr as
one JSON line: jvm_s (starting the JVM and loading MPXJ), read_s, schedule_s,
write_s.
"""

import argparse
import importlib.metadata
import json
import sys
import time

t_start = time.perf_counter()
import jpype  # noqa: E402
import mpxj  # noqa: E402,F401  (puts the bundled jar on the class path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("xer")
    ap.add_argument("--out")
    args = ap.parse_args()
    jpype.startJVM()
    from org.mpxj.cpm import PrimaveraScheduler
    from org.mpxj.reader import UniversalProjectReader
    t0 = time.perf_counter()
    project = UniversalProjectReader().read(args.xer)
    t1 = time.perf_counter()
    props = project.getProjectProperties()
    PrimaveraScheduler().schedule(project, props.getPlannedStart() or props.getStartDate())
    t2 = time.perf_counter()
    tasks = []
    finish = None
    for t in project.getTasks():
        if t.getActivityID() is None:
            continue
        ef = t.getEarlyFinish()
        if ef is not None and (finish is None or ef.isAfter(finish)):
            finish = ef
        tf = t.getTotalSlack()
        tasks.append({
            "id": str(t.getActivityID()),
            "early_start_date": str(t.getEarlyStart()), "early_finish_date": str(ef),
            "late_start_date": str(t.getLateStart()), "late_finish_date": str(t.getLateFinish()),
            "total_float": None if tf is None else str(tf),
            "critical": bool(t.getCritical()),
        })
    report = {"mpxj": importlib.metadata.version("mpxj"), "project_finish": str(finish), "activities": tasks}
    text = json.dumps(report)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    else:
        sys.stdout.write(text + "\n")
    t3 = time.perf_counter()
    print(json.dumps({"jvm_s": t0 - t_start, "read_s": t1 - t0, "schedule_s": t2 - t1, "write_s": t3 - t2,
                      "total_s": t3 - t_start}), file=sys.stderr)


if __name__ == "__main__":
    main()
