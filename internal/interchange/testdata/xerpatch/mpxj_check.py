#!/usr/bin/env python3
"""MPXJ, the field's reference reader, on the XER patch writer's exports.

TestPatchXERWritesTheChanges writes each case's export (NAME.xer) and the
file it was made from (NAME.orig.xer) into $XERPATCH_OUT. This reads both
with MPXJ (the PyPI `mpxj` package and JPype1; test-only, never a
dependency of the product) and prints, per case, what each holds: tasks,
relations, resources, assignments, calendars, activity codes and values,
and whether MPXJ read the export without an error; and which activities
(by activity id) MPXJ sees differently in the export, with the fields.

    mkdir -p /tmp/xerpatch && XERPATCH_OUT=/tmp/xerpatch go test ./internal/interchange/ -run TestPatchXER -count=1
    python3 internal/interchange/testdata/xerpatch/mpxj_check.py /tmp/xerpatch
"""
import glob
import json
import os
import sys

import jpype
import mpxj  # noqa: F401  (puts the bundled jar on the class path)


def counts(project):
    tasks = [t for t in project.getTasks() if t.getUniqueID() is not None and t.getUniqueID() != 0]
    relations = sum(len(list(t.getPredecessors())) for t in tasks)
    codes = project.getActivityCodes()
    return {
        "tasks": len([t for t in tasks if not t.getSummary()]),
        "relations": relations,
        "resources": len([r for r in project.getResources() if r.getUniqueID() is not None and r.getUniqueID() != 0]),
        "assignments": len(list(project.getResourceAssignments())),
        "calendars": len(list(project.getCalendars())),
        "code values": sum(len(list(c.getValues())) for c in codes),
        "task codes": sum(len(dict(t.getActivityCodeValues())) if hasattr(t, "getActivityCodeValues") else 0 for t in tasks),
    }


FIELDS = ["Name", "Duration", "RemainingDuration", "ActualStart", "ActualFinish", "PercentageComplete",
          "PhysicalPercentComplete", "ConstraintType", "ConstraintDate", "SecondaryConstraintType", "WBS",
          "Calendar", "ActivityType", "GUID", "Notes"]


def task_fields(project):
    out = {}
    for t in project.getTasks():
        if t.getUniqueID() is None or t.getUniqueID() == 0 or t.getSummary():
            continue
        row = {}
        for f in FIELDS:
            v = getattr(t, "get" + f)()
            if f == "Calendar" and v is not None:
                v = v.getName()
            row[f] = None if v is None else str(v)
        row["Assignments"] = len(list(t.getResourceAssignments()))
        row["Predecessors"] = sorted(str(r.getPredecessorTask().getActivityID()) + " " + str(r.getType()) + " " + str(r.getLag())
                                     for r in t.getPredecessors())
        out[str(t.getActivityID())] = row
    return out


def differences(a, b):
    out = {}
    for code in sorted(set(a) | set(b)):
        if code not in a or code not in b:
            out[code] = "only in the " + ("export" if code in b else "original")
            continue
        d = [f for f in a[code] if a[code][f] != b[code].get(f)]
        if d:
            out[code] = d
    return out


def main(folder):
    jpype.startJVM()
    from org.mpxj.reader import UniversalProjectReader
    report = {}
    for out in sorted(glob.glob(os.path.join(folder, "*.xer"))):
        if out.endswith(".orig.xer"):
            continue
        orig = out[:-4] + ".orig.xer"
        row, fields = {}, {}
        for name, path in (("original", orig), ("export", out)):
            try:
                project = UniversalProjectReader().read(path)
            except Exception as e:  # noqa: BLE001 - a reader error is the finding
                row[name] = {"error": str(e)}
                continue
            row[name], fields[name] = counts(project), task_fields(project)
        if len(fields) == 2:
            row["activities differing"] = differences(fields["original"], fields["export"])
        report[os.path.basename(out)[:-4]] = row
    json.dump(report, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main(sys.argv[1])
