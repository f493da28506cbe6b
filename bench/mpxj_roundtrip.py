#!/usr/bin/env python3
"""Benchmark peer of the round trip (issue 29): MPXJ reads a P6 XER file and
writes it back as XER (org.mpxj.primavera.PrimaveraXERFileWriter through
UniversalProjectWriter), through JPype (PyPI `mpxj`, bench/requirements.txt).

Usage: python3 bench/mpxj_roundtrip.py IN.xer OUT.xer

Timings go to stderr as one JSON line: jvm_s (starting the JVM and loading
MPXJ), read_s, write_s; and the counts MPXJ read (tasks, resources,
assignments), so the report can say both tools carried the same file.
"""

import importlib.metadata
import json
import sys
import time

t_start = time.perf_counter()
import jpype  # noqa: E402
import mpxj  # noqa: E402,F401  (puts the bundled jar on the class path)


def main(src, dst):
    jpype.startJVM()
    from org.mpxj.reader import UniversalProjectReader
    from org.mpxj.writer import FileFormat, UniversalProjectWriter
    t0 = time.perf_counter()
    project = UniversalProjectReader().read(src)
    t1 = time.perf_counter()
    UniversalProjectWriter(FileFormat.XER).write(project, dst)
    t2 = time.perf_counter()
    print(json.dumps({"mpxj": importlib.metadata.version("mpxj"), "jvm_s": t0 - t_start, "read_s": t1 - t0, "write_s": t2 - t1,
                      "tasks": int(project.getTasks().size()), "resources": int(project.getResources().size()),
                      "assignments": int(project.getResourceAssignments().size())}), file=sys.stderr)


if __name__ == "__main__":
    main(*sys.argv[1:3])
