#!/usr/bin/env python3
"""Reads MS Project files with MPXJ (the field's reference reader; PyPI
`mpxj` with JPype, Java 17) and prints, per file, what the MSPDI patch test
(mspdi_patch_test.go, TestPatchMSPDIWithMPXJ) compares: tasks by UID (name,
duration, predecessor links), resources, assignments and calendars.

Usage: python3 mpxj_read.py FILE.xml... > report.json
"""

import json
import sys

import jpype
import mpxj  # noqa: F401  (puts the bundled jar on the class path)


def text(v):
    return None if v is None else str(v)


def read(path, reader):
    project = reader.read(path)
    tasks = {}
    for t in project.getTasks():
        uid = t.getUniqueID()
        if uid is None:
            continue
        links = []
        for r in t.getPredecessors():
            links.append([text(r.getPredecessorTask().getUniqueID()), text(r.getType()), text(r.getLag())])
        tasks[text(uid)] = {"name": text(t.getName()), "duration": text(t.getDuration()),
                            "summary": bool(t.getSummary()), "links": sorted(links)}
    resources = sorted([text(r.getUniqueID()), text(r.getName())] for r in project.getResources())
    assignments = sorted([text(a.getTask().getUniqueID()) if a.getTask() else None, text(a.getResourceUniqueID()),
                          text(a.getWork())] for a in project.getResourceAssignments())
    calendars = sorted(text(c.getName()) or "" for c in project.getCalendars())
    return {"tasks": tasks, "resources": resources, "assignments": assignments, "calendars": calendars}


def main():
    jpype.startJVM()
    from org.mpxj.reader import UniversalProjectReader
    reader = UniversalProjectReader()
    json.dump({path: read(path, reader) for path in sys.argv[1:]}, sys.stdout)


if __name__ == "__main__":
    main()
