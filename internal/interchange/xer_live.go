package interchange

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// The live programme in an XER file (issue 28): the data date and
// scheduling options, every activity's calendar and type, its primary and
// secondary constraints, actuals and remaining duration, its WBS path and
// activity codes. A value the reader cannot use is a warning naming the
// line, table, row and field; the activity is read without it.

// xerTaskTypes are TASK task_type's codes. A finish milestone is a task
// of no duration (the engine dates both alike, and export writes such a
// task as TT_FinMile), so it reads back as the task it was.
var xerTaskTypes = map[string]schedule.ActivityType{
	"": schedule.TaskType, "TT_Task": schedule.TaskType, "TT_Rsrc": schedule.ResourceDependent,
	"TT_Mile": schedule.StartMilestone, "TT_FinMile": schedule.TaskType,
	"TT_LOE": schedule.LevelOfEffort, "TT_WBS": schedule.WBSSummary,
}

// xerConstraints are TASK cstr_type's codes.
var xerConstraints = map[string]schedule.ConstraintType{
	"CS_MSO": schedule.StartOn, "CS_MSOA": schedule.StartOnOrAfter, "CS_MSOB": schedule.StartOnOrBefore,
	"CS_MEO": schedule.FinishOn, "CS_MEOA": schedule.FinishOnOrAfter, "CS_MEOB": schedule.FinishOnOrBefore,
	"CS_MANDSTART": schedule.MandatoryStart, "CS_MANDFIN": schedule.MandatoryFinish, "CS_ALAP": schedule.AsLateAsPossible,
}

// xerLagCalendars are SCHEDOPTIONS sched_calendar_on_relationship_lag's.
var xerLagCalendars = map[string]string{
	"rcal_Predecessor": schedule.LagPredecessor, "rcal_Successor": schedule.LagSuccessor,
	"rcal_24Hour": schedule.Lag24Hour, "rcal_ProjDefault": schedule.LagProject,
}

// xerFloatTypes are SCHEDOPTIONS sched_float_type's.
var xerFloatTypes = map[string]string{
	"FT_FF": schedule.FinishFloat, "FT_SF": schedule.StartFloat, "FT_SmallestFloat": schedule.SmallestFloat,
}

type xerLive struct {
	tables    map[string]*xerTable
	rs        *readState
	projCal   string
	wbsPath   map[string]string    // wbs_id -> path of short names
	codes     map[string][2]string // actv_code_id -> (code type, value)
	taskCodes map[string]map[string]string
	// taskRsrc are the TASKRSRC rows by task_id. Their labour assignments
	// date a task only in our export of a schedule on MS Project's rules
	// (no SCHEDOPTIONS: assignmentsDate); P6 dates an activity from its own
	// duration (and P6 8 writes no SCHEDOPTIONS), so elsewhere every
	// assignment is kept NonDriving.
	taskRsrc        map[string][]xerRow
	rsrc            map[string]xerRow // RSRC rows by rsrc_id
	assignmentsDate bool
}

// newXERLive reads the project-wide parts: data date, options, WBS, codes.
func newXERLive(tables map[string]*xerTable, rs *readState, s *schedule.Schedule, projID, projCal string) *xerLive {
	l := &xerLive{tables: tables, rs: rs, projCal: projCal, wbsPath: map[string]string{}, codes: map[string][2]string{}, taskCodes: map[string]map[string]string{}}
	if tables["SCHEDOPTIONS"] != nil {
		// A file P6 wrote (our export writes no options): P6's rules.
		s.Options = &schedule.Options{Tool: schedule.P6}
	}
	proj := tables["PROJECT"]
	pr := proj.rows[0]
	// projectDate is a PROJECT date as a schedule writes it, "" when the
	// field is empty or damaged (a warning says what is lost).
	projectDate := func(field, lost string) string {
		v := proj.get(pr, field)
		if v == "" {
			return ""
		}
		t, err := parseXERDate(v)
		if err != nil {
			rs.warnf("line %d: PROJECT %s: %v; %s", pr.line, field, err, lost)
			return ""
		}
		return t.Format(liveLayout)
	}
	for _, f := range []string{"last_recalc_date", "next_data_date"} {
		if s.DataDate = projectDate(f, "the schedule has no data date"); s.DataDate != "" {
			break
		}
	}
	if s.Options != nil {
		s.Options.MustFinishBy = projectDate("plan_end_date", "the project has no must-finish-by date")
	}
	if so := tables["SCHEDOPTIONS"]; so != nil && s.Options != nil {
		for _, r := range so.rows {
			if id := so.get(r, "proj_id"); id != projID && id != "" {
				continue
			}
			o := s.Options
			if v := so.get(r, "sched_calendar_on_relationship_lag"); v != "" {
				if o.LagCalendar = xerLagCalendars[v]; o.LagCalendar == "" {
					rs.warnf("line %d: SCHEDOPTIONS sched_calendar_on_relationship_lag %q is not known; lags are counted on the predecessor's calendar", r.line, v)
				}
			}
			if so.get(r, "sched_progress_override") == "Y" {
				o.Progress = schedule.ProgressOverride
			} else if so.get(r, "sched_retained_logic") == "N" {
				o.Progress = schedule.ActualDates
			}
			if v := so.get(r, "sched_float_type"); v != "" {
				if o.Float = xerFloatTypes[v]; o.Float == "" {
					rs.warnf("line %d: SCHEDOPTIONS sched_float_type %q is not known; total float is finish float", r.line, v)
				}
			}
			o.OpenEndsCritical = so.get(r, "sched_open_critical_flag") == "Y"
			break
		}
	}
	if wbs := tables["PROJWBS"]; wbs != nil {
		parent, name := map[string]string{}, map[string]string{}
		for _, r := range wbs.rows {
			if wbs.get(r, "proj_id") != projID || wbs.get(r, "proj_node_flag") == "Y" {
				continue
			}
			id := wbs.get(r, "wbs_id")
			parent[id], name[id] = wbs.get(r, "parent_wbs_id"), wbs.text(r, "wbs_short_name")
		}
		for id := range name {
			var parts []string
			for at, n := id, 0; name[at] != "" && n < 100; at, n = parent[at], n+1 {
				parts = append([]string{name[at]}, parts...)
			}
			l.wbsPath[id] = strings.Join(parts, ".")
		}
	}
	types := map[string]string{}
	if at := tables["ACTVTYPE"]; at != nil {
		for _, r := range at.rows {
			types[at.get(r, "actv_code_type_id")] = at.text(r, "actv_code_type")
		}
	}
	if ac := tables["ACTVCODE"]; ac != nil {
		for _, r := range ac.rows {
			value := ac.text(r, "short_name")
			if value == "" {
				value = ac.text(r, "actv_code_name")
			}
			l.codes[ac.get(r, "actv_code_id")] = [2]string{types[ac.get(r, "actv_code_type_id")], value}
		}
	}
	if ta := tables["TASKACTV"]; ta != nil {
		for _, r := range ta.rows {
			c, ok := l.codes[ta.get(r, "actv_code_id")]
			if !ok || c[0] == "" {
				continue
			}
			task := ta.get(r, "task_id")
			if l.taskCodes[task] == nil {
				l.taskCodes[task] = map[string]string{}
			}
			l.taskCodes[task][c[0]] = c[1]
		}
	}
	if tables["TASKRSRC"] != nil {
		l.taskRsrc, l.rsrc = map[string][]xerRow{}, map[string]xerRow{}
		if rt := tables["RSRC"]; rt != nil {
			for _, r := range rt.rows {
				l.rsrc[rt.get(r, "rsrc_id")] = r
			}
		}
		l.assignmentsDate = tables["SCHEDOPTIONS"] == nil && tables["RSRC"] != nil && ourXER(tables)
		tr := tables["TASKRSRC"]
		for _, r := range tr.rows {
			l.taskRsrc[tr.get(r, "task_id")] = append(l.taskRsrc[tr.get(r, "task_id")], r)
		}
	}
	return l
}

// ourXER reports whether our export wrote the file: it carries our
// "Relationship IDs" field on TASK.
func ourXER(tables map[string]*xerTable) bool {
	if ut := tables["UDFTYPE"]; ut != nil {
		for _, r := range ut.rows {
			if ut.get(r, "table_name") == "TASK" && ut.get(r, "udf_type_label") == aliasRelIDs {
				return true
			}
		}
	}
	return false
}

// assignments reads a task's TASKRSRC rows: labour resources' date the
// task (units per hour, target_qty hours of the task's calendar of hpd
// hours a day), the others are kept NonDriving.
func (l *xerLive) assignments(taskID, who string, hpd float64, calendars map[string]*xerCalendar) []schedule.Assignment {
	rows := l.taskRsrc[taskID]
	if len(rows) == 0 {
		return nil
	}
	tr, rt := l.tables["TASKRSRC"], l.tables["RSRC"]
	if rt == nil {
		rt = &xerTable{}
	}
	var out []schedule.Assignment
	for _, r := range rows {
		id := tr.get(r, "rsrc_id")
		if v := tr.get(r, "rsrc_type"); !l.assignmentsDate || v != "" && v != "RT_Labor" {
			// Nonlabor and material resources do not date the task here,
			// nor does any under P6's rules; they are assigned all the
			// same (DCMA 10 counts them).
			out = append(out, schedule.Assignment{Resource: l.resourceName(id), NonDriving: true})
			continue
		}
		units, err1 := strconv.ParseFloat(tr.get(r, "target_qty_per_hr"), 64)
		hours, err2 := strconv.ParseFloat(tr.get(r, "target_qty"), 64)
		if err1 != nil || err2 != nil || !(units > 0) || !(hours > 0 && hours/hpd <= schedule.MaxDays) {
			l.rs.warnf("line %d: TASKRSRC taskrsrc_id %s (task_code %q): target_qty_per_hr %q or target_qty %q is not a positive number; kept as assigned, not dating the task",
				r.line, tr.get(r, "taskrsrc_id"), who, tr.get(r, "target_qty_per_hr"), tr.get(r, "target_qty"))
			out = append(out, schedule.Assignment{Resource: l.resourceName(id), NonDriving: true})
			continue
		}
		as := schedule.Assignment{Resource: l.resourceName(id), Units: units, Work: formatDays(roundDays(hours / hpd))}
		if units == 1 {
			as.Units = 0
		}
		if rr, ok := l.rsrc[id]; ok {
			if c := rt.get(rr, "clndr_id"); c != "" && c != l.projCal && calendars[c] != nil {
				as.Calendar = c
			}
		}
		out = append(out, as)
	}
	return out
}

// resourceName is the RSRC row's rsrc_name, else "Resource <rsrc_id>".
func (l *xerLive) resourceName(id string) string {
	if rr, ok := l.rsrc[id]; ok {
		if name := l.tables["RSRC"].text(rr, "rsrc_name"); name != "" {
			return name
		}
	}
	return "Resource " + id
}

// task reads one TASK row's live fields into a; hpd is the hours in a day
// of the task's calendar.
func (l *xerLive) task(tt *xerTable, r xerRow, a *schedule.Activity, hpd float64, calendars map[string]*xerCalendar) {
	where := rowAt{r.line, "TASK task_id", tt.get(r, "task_id")}
	warn := func(field string, err error) {
		l.rs.warnf("%s (task_code %q): %s: %v; read without it", where, a.ID, field, err)
	}
	a.Type = xerTaskTypes[tt.get(r, "task_type")]
	if id := tt.get(r, "clndr_id"); id != "" && id != l.projCal && calendars[id] != nil {
		a.Calendar = id
	}
	for k, f := range [2][2]string{{"cstr_type", "cstr_date"}, {"cstr_type2", "cstr_date2"}} {
		v := tt.get(r, f[0])
		if v == "" {
			continue
		}
		typ, ok := xerConstraints[v]
		if !ok {
			warn(f[0], fmt.Errorf("unknown constraint %q", v))
			continue
		}
		c := &schedule.Constraint{Type: typ}
		if typ != schedule.AsLateAsPossible {
			at, err := parseXERDate(tt.get(r, f[1]))
			if err != nil {
				warn(f[1], err)
				continue
			}
			c.Date = at.Format(liveLayout)
		}
		if k == 0 {
			a.Constraint = c
		} else {
			a.SecondaryConstraint = c
		}
	}
	date := func(field string) string {
		v := tt.get(r, field)
		if v == "" {
			return ""
		}
		at, err := parseXERDate(v)
		if err != nil {
			warn(field, err)
			return ""
		}
		return at.Format(liveLayout)
	}
	status := tt.get(r, "status_code")
	if status != "TK_NotStart" {
		a.ActualStart = date("act_start_date")
		if a.ActualStart != "" && status != "TK_Active" {
			a.ActualFinish = date("act_end_date")
			if a.ActualFinish != "" && a.ActualFinish < a.ActualStart { // one layout: text order is time order
				warn("act_end_date", fmt.Errorf("%s is before act_start_date %s", a.ActualFinish, a.ActualStart))
				a.ActualFinish = ""
			}
		}
	}
	if v := tt.get(r, "remain_drtn_hr_cnt"); v != "" && a.ActualFinish == "" {
		h, err := strconv.ParseFloat(v, 64)
		if err != nil || !(h >= 0 && h/hpd <= schedule.MaxDays) {
			warn("remain_drtn_hr_cnt", fmt.Errorf("%q is not a number of hours", v))
		} else if rem := roundDays(h / hpd); a.ActualStart != "" || !sameTime(rem, hpd, a.Duration) {
			a.Remaining = formatDays(rem)
		}
	}
	if v := tt.get(r, "phys_complete_pct"); v != "" && v != "0" {
		if pc, err := strconv.ParseFloat(v, 64); err != nil || !(pc >= 0 && pc <= 100) {
			warn("phys_complete_pct", fmt.Errorf("%q is not a percentage", v))
		} else {
			a.PercentComplete = pc
		}
	}
	l.baseline(tt, r, a, date, warn)
	a.WBS = l.wbsPath[tt.get(r, "wbs_id")]
	a.Codes = l.taskCodes[tt.get(r, "task_id")]
	a.Assignments = l.assignments(tt.get(r, "task_id"), a.ID, hpd, calendars)
}

// baseline reads the task's planned dates, target_start_date and
// target_end_date, as its baseline start and finish (MPXJ's reading of an
// XER: P6 keeps the dates an activity was planned with there; a baseline
// project is a project of its own). The planned duration,
// target_drtn_hr_cnt, is the activity's own duration in P6, not a
// baseline's: the baseline duration is left to the dates (see
// schedule.Variances).
func (l *xerLive) baseline(tt *xerTable, r xerRow, a *schedule.Activity, date func(string) string, warn func(string, error)) {
	a.BaselineStart, a.BaselineFinish = date("target_start_date"), date("target_end_date")
	if a.BaselineStart != "" && a.BaselineFinish != "" && a.BaselineFinish < a.BaselineStart { // one layout: text order is time order
		warn("target_end_date", fmt.Errorf("%s is before target_start_date %s", a.BaselineFinish, a.BaselineStart))
		a.BaselineFinish = ""
	}
}

// namedCalendars are every calendar an activity or an assignment uses
// other than the project's, by clndr_id.
func namedCalendars(s *schedule.Schedule, cals map[string]*xerCalendar) {
	add := func(id string) {
		if id == "" || s.Calendars[id] != nil {
			return
		}
		if s.Calendars == nil {
			s.Calendars = map[string]*schedule.Calendar{}
		}
		c := cals[id]
		cal := c.cal.Clone()
		if cal == nil {
			cal = &schedule.Calendar{}
		}
		cal.Name = c.name
		s.Calendars[id] = cal
	}
	for _, a := range s.Activities {
		add(a.Calendar)
		for _, as := range a.Assignments {
			add(as.Calendar)
		}
	}
}
