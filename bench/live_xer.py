#!/usr/bin/env python3
"""Write a live programme (bench/gensched -live JSON) as a P6 XER file.

Usage: python3 bench/live_xer.py SCHEDULE.json OUT.xer [REPORT.json] [--resources]

`autoscheduler export --format xer` writes the plain logic network only (one
calendar, no progress), so the MPXJ benchmark's file is written here: the
three calendars (with their holidays as exceptions), SCHEDOPTIONS (P6's
defaults: retained logic, lags on the predecessor's calendar, finish float),
the data date (PROJECT last_recalc_date), each activity's calendar, status,
actual start and finish, remaining duration, physical % complete and
primary constraint, and the relationships with their lags in hours. Dates
given as days in the JSON are written at the instant the live engine reads
them as (a start at the day's first working minute on the activity's
calendar, a finish at its last), so both readers see the same programme.

A file P6 writes also holds the dates of its last scheduling run (planned,
early and remaining early dates); MPXJ's reader needs them (it derives an
in-progress activity's duration from its start and finish). With REPORT.json
(`schedule --format json` of the same programme) they are written from it,
as P6 would write its own; autoscheduler's XER reader does not read them.

With --resources the file also holds what a real P6 export carries besides
the logic (issue 29's round trip): 200 resources (RSRC) with rates
(RSRCRATE), one or two assignments per task (TASKRSRC), an activity code
(ACTVTYPE, ACTVCODE, TASKACTV) and a user-defined field (UDFTYPE,
UDFVALUE) on every task.
"""

import datetime as dt
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from networkx_live import DEFAULT_HOURS, Clock, live_date  # noqa: E402

EXCEL_EPOCH = dt.date(1899, 12, 30)
DAYNUM = {"sun": 1, "mon": 2, "tue": 3, "wed": 4, "thu": 5, "fri": 6, "sat": 7}


def clndr_data(cal):
    days = {DAYNUM[d[:3].lower()] for d in cal.get("workdays") or ["Mon", "Tue", "Wed", "Thu", "Fri"]}
    hours = cal.get("hours") or DEFAULT_HOURS
    periods = "".join(f"(0||{k}(s|{h.split('-')[0]}|f|{h.split('-')[1]})())" for k, h in enumerate(hours))
    week = "".join(f"(0||{d}()({periods if d in days else ''}))" for d in range(1, 8))
    exc = "".join(f"(0||{k}(d|{(dt.date.fromisoformat(h) - EXCEL_EPOCH).days})())"
                  for k, h in enumerate(cal.get("holidays") or []))
    return (f"(0||CalendarData()((0||DaysOfWeek()({week}))(0||VIEW(ShowTotal|Y)())"
            f"(0||Exceptions()({exc}))))")


def main(src, dst, report=None, resources=False):
    import json
    with open(src) as f:
        s = json.load(f)
    last = {}
    if report:
        with open(report) as f:
            for a in json.load(f)["activities"]:
                last[a["id"]] = [a[k].replace("T", " ")[:16] for k in ("early_start_date", "early_finish_date")]
    origin = dt.date.fromisoformat(s["start_date"][:10]) - dt.timedelta(days=2 * 366)
    base = dt.datetime.combine(origin, dt.time())

    def stamp(m):
        return (base + dt.timedelta(minutes=m)).strftime("%Y-%m-%d %H:%M")

    cals = {"": s.get("calendar") or {}}
    cals.update(s.get("calendars") or {})
    ids = {cid: str(k + 1) for k, cid in enumerate(cals)}
    clocks = {cid: Clock(cal, origin) for cid, cal in cals.items()}
    out = ["ERMHDR\t19.12\t2026-01-01\tProject\tadmin\tbench\tdbxDatabaseNoName\tProject Management\tUSD"]

    def table(name, fields, rows):
        out.append("%T\t" + name)
        out.append("%F\t" + "\t".join(fields))
        for r in rows:
            out.append("%R\t" + "\t".join(r))

    def hpd(cal):
        return cal.get("hours_per_day") or sum(
            (lambda f, t: (int(t[:2]) * 60 + int(t[3:]) - int(f[:2]) * 60 - int(f[3:])) / 60)(*h.split("-"))
            for h in (cal.get("hours") or DEFAULT_HOURS))

    table("CALENDAR", ["clndr_id", "default_flag", "clndr_name", "proj_id", "base_clndr_id", "clndr_type",
                       "day_hr_cnt", "week_hr_cnt", "month_hr_cnt", "year_hr_cnt", "clndr_data"],
          [[ids[cid], "Y" if cid == "" else "N", cal.get("name") or cid or "Project calendar", "", "", "CA_Base",
            f"{hpd(cal):g}", f"{hpd(cal) * len(cal.get('workdays') or '12345'):g}", "173.333333", "2080", clndr_data(cal)]
           for cid, cal in cals.items()])
    project = clocks[""]
    data = stamp(live_date(s["data_date"], project, origin, False))
    table("PROJECT", ["proj_id", "proj_short_name", "clndr_id", "plan_start_date", "last_recalc_date",
                      "def_duration_type", "sum_base_proj_id"],
          [["1", s.get("name", "Live"), ids[""], s["start_date"][:10] + " 00:00", data, "DT_FixedDUR2", ""]])
    table("SCHEDOPTIONS", ["schedoptions_id", "proj_id", "sched_outer_depend_type", "sched_open_critical_flag",
                           "sched_lag_early_start_flag", "sched_retained_logic", "sched_setplantoforecast",
                           "sched_float_type", "sched_calendar_on_relationship_lag", "sched_use_expect_end_flag",
                           "sched_progress_override"],
          [["1", "1", "SD_Both", "N", "Y", "Y", "N", "FT_FF", "rcal_Predecessor", "Y", "N"]])
    table("PROJWBS", ["wbs_id", "proj_id", "obs_id", "seq_num", "proj_node_flag", "sum_data_flag", "status_code",
                      "wbs_short_name", "wbs_name", "parent_wbs_id"],
          [["1", "1", "", "0", "Y", "N", "WS_Open", s.get("name", "Live"), s.get("name", "Live"), ""]])
    rows = []
    task = {}
    cstr = {"start_on_or_after": "CS_MSOA", "finish_on_or_before": "CS_MEOB"}
    for i, a in enumerate(s["activities"]):
        cid = a.get("calendar", "")
        c, h = clocks[cid], hpd(cals[cid])
        task[a["id"]] = str(i + 1)
        target = float(a["duration"]) * h
        status, act_s, act_e, remain = "TK_NotStart", "", "", target
        if a.get("actual_start"):
            status, act_s = "TK_Active", stamp(live_date(a["actual_start"], c, origin, False))
            remain = float(a["remaining"]) * h if a.get("remaining") else target
        if a.get("actual_finish"):
            status, act_e, remain = "TK_Complete", stamp(live_date(a["actual_finish"], c, origin, True)), 0
        ctype = cdate = ""
        if a.get("constraint"):
            t = a["constraint"]["type"]
            ctype = cstr[t]
            cdate = stamp(live_date(a["constraint"]["date"], c, origin, t == "finish_on_or_before"))
        es, ef = last.get(a["id"], ("", ""))
        rows.append([str(i + 1), "1", "1", ids[cid], f"{a.get('percent_complete', 0):g}", "CP_Phys", "TT_Task",
                     "DT_FixedDUR2", status, a["id"], a["name"], f"{target:g}", f"{remain:g}", act_s, act_e,
                     ctype, cdate, act_s or es, act_e or ef, es, ef, es if not act_e else "", ef if not act_e else ""])
    table("TASK", ["task_id", "proj_id", "wbs_id", "clndr_id", "phys_complete_pct", "complete_pct_type", "task_type",
                   "duration_type", "status_code", "task_code", "task_name", "target_drtn_hr_cnt",
                   "remain_drtn_hr_cnt", "act_start_date", "act_end_date", "cstr_type", "cstr_date", "target_start_date",
                   "target_end_date", "early_start_date", "early_end_date", "restart_date", "reend_date"], rows)
    hours = hpd(cals[""])  # lags: days of the project calendar
    table("TASKPRED", ["task_pred_id", "task_id", "pred_task_id", "proj_id", "pred_proj_id", "pred_type",
                       "lag_hr_cnt"],
          [[str(k + 1), task[r["successor"]], task[r["predecessor"]], "1", "1", "PR_" + r["type"],
            f"{float(r.get('lag', 0) or 0) * hours:g}"] for k, r in enumerate(s["relationships"])])
    if resources:
        add_resources(table, s, task)
    out.append("%E")
    with open(dst, "w", newline="") as f:
        f.write("\r\n".join(out) + "\r\n")


def add_resources(table, s, task):
    """RSRC, RSRCRATE, TASKRSRC, an activity code and a UDF, deterministic."""
    n_rsrc = 200
    table("RSRC", ["rsrc_id", "parent_rsrc_id", "clndr_id", "rsrc_seq_num", "rsrc_name", "rsrc_short_name",
                   "def_qty_per_hr", "cost_qty_type", "active_flag", "rsrc_type", "guid"],
          [[str(k + 1), "", "1", str(k), f"Crew {k + 1}", f"CR{k + 1:03d}", "1", "QT_Hour", "Y",
            "RT_Labor" if k % 4 else "RT_Equip", f"R{k:020d}"] for k in range(n_rsrc)])
    table("RSRCRATE", ["rsrc_rate_id", "rsrc_id", "max_qty_per_hr", "cost_per_qty", "start_date"],
          [[str(k + 1), str(k + 1), "1", f"{40 + k % 60}.00", "2020-01-01 00:00"] for k in range(n_rsrc)])
    rows, k = [], 0
    for i, a in enumerate(s["activities"]):
        for j in range(1 + i % 2):
            k += 1
            hours = float(a["duration"]) * 8
            rows.append([str(k), task[a["id"]], "1", str(1 + (i * 7 + j * 13) % n_rsrc), f"{hours:g}", f"{hours:g}",
                         "1", f"{hours * 55:.2f}", f"T{k:021d}"])
    table("TASKRSRC", ["taskrsrc_id", "task_id", "proj_id", "rsrc_id", "remain_qty", "target_qty",
                       "target_qty_per_hr", "target_cost", "guid"], rows)
    table("ACTVTYPE", ["actv_code_type_id", "actv_short_len", "seq_num", "actv_code_type", "proj_id",
                       "actv_code_type_scope"], [["1", "10", "0", "Area", "1", "AS_Project"]])
    table("ACTVCODE", ["actv_code_id", "parent_actv_code_id", "actv_code_type_id", "actv_code_name",
                       "short_name", "seq_num"],
          [[str(z + 1), "", "1", f"Zone {z + 1}", f"Z{z + 1}", str(z)] for z in range(20)])
    table("TASKACTV", ["task_id", "actv_code_type_id", "actv_code_id", "proj_id"],
          [[task[a["id"]], "1", str(1 + i % 20), "1"] for i, a in enumerate(s["activities"])])
    table("UDFTYPE", ["udf_type_id", "table_name", "udf_type_name", "udf_type_label", "logical_data_type"],
          [["1", "TASK", "user_field_1", "Package", "FT_TEXT"]])
    table("UDFVALUE", ["udf_type_id", "fk_id", "proj_id", "udf_text"],
          [["1", task[a["id"]], "1", f"Package {i % 37}"] for i, a in enumerate(s["activities"])])


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--resources"]
    main(*args[:3], resources="--resources" in sys.argv[1:])
