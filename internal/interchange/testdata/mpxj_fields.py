#!/usr/bin/env python3
"""The reference reader's view of schedule files, for TestRoundTripLosesNothing
(mpxj_roundtrip_test.go): MPXJ reads each file and this prints every field it
exposes, so that a file and our export of it can be compared field by field.

Usage: python3 mpxj_fields.py FILE... > fields.json

One JVM start for all the files. Output: {"mpxj": version, "files": {path:
{"objects": {object: {field: value}}} or {"error": text}}}. Objects are named
"<kind> <key>":

  task <key>        every TaskField and task UDF; XER activities keyed by
                    activity ID (task_code), XER WBS nodes as "wbs <code>",
                    MSPDI tasks by UniqueID
  relation <pred> -> <succ>   type, lag (always, even a zero lag), and for
                    XER its unique id (task_pred_id; MPXJ numbers MSPDI links
                    as it reads them, so theirs is left out)
  resource <key>    every ResourceField and resource UDF; XER by resource ID
                    (rsrc_short_name), MSPDI by UniqueID
  assignment <task>/<resource>   every AssignmentField and assignment UDF
  calendar <name>   parent, type, minutes per day/week/month/year, each day's
                    type and hours, each exception, each work week
  code <name>       an activity code type; "code <name> = <value>" its values
  project           every ProjectField

A custom field with an alias is named with it: "Text1 (Activity ID)".
Values are strings: dates ISO (2026-01-05T08:00), durations "value unit",
enums by name, other objects by the key above. A field that is null, empty,
false, zero or a zero duration is left out (on both sides alike, so a value
lost to a default still shows as a difference). Left out too: what changes on
every read or names the file read (the project's Current Date and Project File
Path) and what is listed elsewhere (a task's predecessors and successors are
the relations; its child tasks are the children's parents). Objects with the
same name take " #2", " #3" in the order MPXJ lists them.

Test-only: MPXJ is never a dependency of the product.
"""

import importlib.metadata
import json
import re
import sys

import jpype
import mpxj  # noqa: F401  (puts the bundled jar on the class path)

# Fields that change on every read or name the file, and fields listed as
# objects of their own.
SKIP_PROJECT = {"Current Date", "Project File Path"}
SKIP_TASK = {"Predecessors", "Successors", "Unique ID Predecessors", "Unique ID Successors",
             "ID Predecessors", "ID Successors", "Children", "Resource Assignments"}
IDENTITY_HASH = re.compile(r"@[0-9a-f]{4,}")


class Dumper:
    def __init__(self, project, xer):
        from java.lang import Boolean, Enum, Number
        from java.util import Collection, Map
        from org.mpxj import Duration, ProjectCalendar, Relation, Resource, Task
        self.types = (Task, Resource, ProjectCalendar, Relation)
        self.java = (Boolean, Enum, Number, Collection, Map, Duration)
        self.project, self.xer = project, xer
        self.objects = {}
        # A custom field's name says what the file calls it: "Text1 (Activity ID)".
        self.aliases = {c.getFieldType(): str(c.getAlias()) for c in project.getCustomFields()
                        if c.getFieldType() is not None and c.getAlias()}

    def add(self, name, fields):
        name = str(name)
        key, n = name, 1
        while key in self.objects:
            n += 1
            key = f"{name} #{n}"
        self.objects[key] = {str(k): str(v) for k, v in fields.items()}

    def task_key(self, t):
        if t is None:
            return None
        if self.xer:
            if t.getActivityType() is None:  # a WBS node MPXJ made a summary task
                return f"wbs {t.getWBS()}"
            return f"task {t.getActivityID()}"
        return f"task {t.getUniqueID()}"

    def resource_key(self, r):
        if r is None:
            return "resource none"
        if self.xer and r.getResourceID() is not None:
            return f"resource {r.getResourceID()}"
        return f"resource {r.getUniqueID()}"

    def text(self, v):
        """v as a string, or None for a value left out."""
        if v is None:
            return None
        Boolean, Enum, Number, Collection, Map, Duration = self.java
        Task, Resource, ProjectCalendar, Relation = self.types
        if isinstance(v, (bool, Boolean)):
            return "true" if bool(v) else None
        if isinstance(v, (int, float, Number)):
            return None if float(v) == 0 else str(v)
        if isinstance(v, Duration):
            return None if v.getDuration() == 0 else f"{v.getDuration()} {v.getUnits().name()}"
        if isinstance(v, Enum):
            return str(v.name())
        if isinstance(v, Task):
            return self.task_key(v)
        if isinstance(v, Resource):
            return self.resource_key(v)
        if isinstance(v, ProjectCalendar):
            return f"calendar {v.getName()}"
        if isinstance(v, Relation):
            return f"{self.task_key(v.getPredecessorTask())} -> {self.task_key(v.getSuccessorTask())} {v.getType().name()}"
        if isinstance(v, Map):
            items = sorted(f"{self.named(e.getKey())}={self.named(e.getValue())}" for e in v.entrySet())
            return "; ".join(items) or None
        if isinstance(v, Collection):
            return "; ".join(self.named(x) for x in v) or None
        s = str(v)
        if IDENTITY_HASH.search(s):  # an object without a toString: name it by class
            s = self.named(v)
        return s or None

    def named(self, v):
        """An element of a list or map: its name when it has one."""
        s = self.text(v)
        if s is not None and not IDENTITY_HASH.search(s):
            return s
        if v is None:
            return ""
        for getter in ("getName", "getDescription", "getUniqueID"):
            if hasattr(v, getter):
                got = getattr(v, getter)()
                if got is not None:
                    return str(got)
        return str(v.getClass().getSimpleName())

    def field_names(self, field_types, skip=()):
        """field_types with the names they are dumped under, once per kind:
        asking a field its name costs a call into Java."""
        out = []
        for f in field_types:
            name = str(f.getName())
            if f in self.aliases:
                name = f"{name} ({self.aliases[f]})"
            if name not in skip:
                out.append((f, name))
        return out

    def fields(self, container, named_fields):
        out = {}
        get = container.get
        for f, name in named_fields:
            try:
                v = get(f)
                if v is None:
                    continue
                v = self.text(v)
            except Exception as e:  # a getter MPXJ cannot compute for this file
                v = f"error: {e.__class__.__name__}"
            if v is not None:
                out[name] = v
        return out

    def dump(self):
        from org.mpxj import AssignmentField, FieldTypeClass, ProjectField, ResourceField, TaskField
        from java.time import DayOfWeek
        p = self.project
        udfs = list(p.getUserDefinedFields())

        def udf(kind):
            return [u for u in udfs if u.getFieldTypeClass() == kind]

        task_fields = self.field_names(list(TaskField.values()) + udf(FieldTypeClass.TASK), SKIP_TASK)
        for t in p.getTasks():
            self.add(self.task_key(t), self.fields(t, task_fields))
        for r in p.getRelations():
            rel = {"type": r.getType().name(), "lag": f"{r.getLag().getDuration()} {r.getLag().getUnits().name()}"}
            if self.xer and r.getUniqueID() is not None:  # task_pred_id; MPXJ numbers MSPDI links itself
                rel["unique id"] = str(r.getUniqueID())
            self.add(f"relation {self.task_key(r.getPredecessorTask())} -> {self.task_key(r.getSuccessorTask())}", rel)
        resource_fields = self.field_names(list(ResourceField.values()) + udf(FieldTypeClass.RESOURCE))
        for r in p.getResources():
            self.add(self.resource_key(r), self.fields(r, resource_fields))
        assignment_fields = self.field_names(list(AssignmentField.values()) + udf(FieldTypeClass.ASSIGNMENT))
        for a in p.getResourceAssignments():
            task = self.task_key(a.getTask()) or "task none"
            self.add(f"assignment {task.split(' ', 1)[1]}/{self.resource_key(a.getResource()).split(' ', 1)[1]}",
                     self.fields(a, assignment_fields))
        for c in p.getCalendars():
            cal = {"unique id": str(c.getUniqueID())}
            for label, v in (("parent", c.getParent()), ("type", c.getType()), ("personal", c.getPersonal()),
                             ("minutes per day", c.getCalendarMinutesPerDay()),
                             ("minutes per week", c.getCalendarMinutesPerWeek()),
                             ("minutes per month", c.getCalendarMinutesPerMonth()),
                             ("minutes per year", c.getCalendarMinutesPerYear())):
                s = self.text(v)
                if s is not None:
                    cal[label] = s
            for d in DayOfWeek.values():
                hours = c.getCalendarHours(d)
                ranges = ",".join(f"{r.getStart()}-{r.getEnd()}" for r in hours) if hours is not None else ""
                cal[str(d.name())] = f"{c.getCalendarDayType(d).name()} {ranges}".strip()
            for e in c.getCalendarExceptions():
                ranges = ",".join(f"{r.getStart()}-{r.getEnd()}" for r in e)
                cal[f"exception {e.getFromDate()}..{e.getToDate()}"] = f"{e.getName() or ''}|{ranges}"
            for w in c.getWorkWeeks():
                days = " ".join(f"{d.name()}:{w.getCalendarDayType(d).name()}" for d in DayOfWeek.values())
                cal[f"work week {w.getDateRange()}"] = f"{w.getName() or ''}|{days}"
            self.add(f"calendar {c.getName()}", cal)
        for code in p.getActivityCodes():
            fields = {}
            for label, v in (("unique id", code.getUniqueID()), ("scope", code.getScope()),
                             ("sequence", code.getSequenceNumber()), ("secure", code.getSecure()),
                             ("max length", code.getMaxLength())):
                s = self.text(v)
                if s is not None:
                    fields[label] = s
            self.add(f"code {code.getName()}", fields)
            for value in code.getValues():
                vf = {}
                for label, v in (("unique id", value.getUniqueID()), ("description", value.getDescription()),
                                 ("sequence", value.getSequenceNumber()), ("color", value.getColor()),
                                 ("parent", value.getParentValue() and value.getParentValue().getName())):
                    s = self.text(v)
                    if s is not None:
                        vf[label] = s
                self.add(f"code {code.getName()} = {value.getName()}", vf)
        self.add("project", self.fields(p.getProjectProperties(), self.field_names(ProjectField.values(), SKIP_PROJECT)))
        return self.objects


def main(paths):
    jpype.startJVM()
    from org.mpxj.reader import UniversalProjectReader
    out = {"mpxj": importlib.metadata.version("mpxj"), "files": {}}
    for path in paths:
        try:
            project = UniversalProjectReader().read(path)
            if project is None:
                raise ValueError("not a schedule file MPXJ knows")
            fileType = str(project.getProjectProperties().getFileType() or "")
            out["files"][path] = {"objects": Dumper(project, fileType == "XER").dump()}
        except Exception as e:  # a file MPXJ cannot read: named, the others go on
            out["files"][path] = {"error": f"{e.__class__.__name__}: {e}"}
    json.dump(out, sys.stdout, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
