#!/usr/bin/env python3
"""The MPXJ peer of TestRealDates (realdates_test.go): MPXJ's own CPM
schedulers on the files of ../shared/data/real.

For every file it reads the project with MPXJ, schedules it again with
org.mpxj.cpm.MicrosoftScheduler (MSPDI) or PrimaveraScheduler (XER, from the
project's planned start; the data date is the file's), and writes each
task's early start, early finish, late start, late finish and total float
(working minutes) as JSON, keyed by the id TestRealDates matches on (MSPDI
UID, XER task_code). TestRealDates compares these with the tool's stored
dates the same way it compares ours, as a peer column. Test-only: MPXJ is
never a dependency of the product.

    python3 -m venv /tmp/mpxjenv && /tmp/mpxjenv/bin/pip install mpxj JPype1
    /tmp/mpxjenv/bin/python internal/interchange/testdata/mpxj_realdates.py \\
        ../shared/data/real > internal/interchange/testdata/realdates_mpxj.json
"""

import importlib.metadata
import json
import os
import sys

import jpype
import mpxj  # noqa: F401  (puts the bundled jar on the class path)


def main(folder):
    jpype.startJVM()
    from org.mpxj import TimeUnit
    from org.mpxj.cpm import MicrosoftScheduler, PrimaveraScheduler
    from org.mpxj.reader import UniversalProjectReader

    out = {"mpxj": importlib.metadata.version("mpxj"), "files": {}}
    for name in sorted(os.listdir(folder)):
        xer = name.lower().endswith(".xer")
        try:
            f = UniversalProjectReader().read(os.path.join(folder, name))
            props = f.getProjectProperties()
            if xer:
                PrimaveraScheduler().schedule(f, props.getPlannedStart() or props.getStartDate())
            else:
                MicrosoftScheduler().schedule(f, props.getStartDate())
        except Exception as e:  # a file MPXJ cannot read or schedule
            out["files"][name] = {"error": str(e)}
            continue
        tasks = {}
        for t in f.getTasks():
            tid = t.getActivityID() if xer else t.getUniqueID()
            if tid is None:
                continue
            tf = t.getTotalSlack()
            tasks[str(tid)] = {
                "es": date(t.getEarlyStart()),
                "ef": date(t.getEarlyFinish()),
                "ls": date(t.getLateStart()),
                "lf": date(t.getLateFinish()),
                "tf": None if tf is None else round(float(tf.convertUnits(TimeUnit.MINUTES, props).getDuration()), 3),
            }
        out["files"][name] = {"tasks": tasks}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


def date(v):
    return None if v is None else str(v.toString())


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/data/real")
