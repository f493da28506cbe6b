package interchange

// P6 XER export (the format and what is written: see xer.go).

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// WriteXER writes s as a P6 XER file (version 19.12 layout). s must be
// valid.
//
// The file is UTF-8, without a byte order mark, as it always was. P6 itself
// writes its machine's Windows code page, but Windows-1252 cannot hold most
// of what a name may (二階, ≥, emoji), so writing it would lose text, while
// UTF-8 comes back exactly through ParseXER (valid UTF-8 is read as UTF-8).
// ASCII text, most schedules, is the same bytes in both.
func WriteXER(w io.Writer, s *schedule.Schedule) error { return writeXER(w, s, nil) }

// xerText makes a value safe for a tab-separated line.
func xerText(v string) string {
	if !strings.ContainsAny(v, "\t\r\n") {
		return v // most values: no copy
	}
	return xerLineBreaks.Replace(v)
}

// xerLineBreaks is built once: a Replacer costs more to build than to use.
var xerLineBreaks = strings.NewReplacer("\t", " ", "\r\n", " ", "\n", " ", "\r", " ")

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func writeXER(w io.Writer, s *schedule.Schedule, progress func(done, total int)) error {
	if _, err := schedule.Check(s); err != nil {
		return err
	}
	// P6 keeps durations and lags in hours of the activity's own calendar.
	wc, err := compileCalendars(s)
	if err != nil {
		return err
	}
	num := xerNumber
	bw := bufio.NewWriterSize(w, 1<<16)
	table := func(name string, fields ...string) {
		bw.WriteString("%T\t" + name + "\n%F\t" + strings.Join(fields, "\t") + "\n")
	}
	row := func(values ...string) {
		for i, v := range values {
			values[i] = xerText(v)
		}
		bw.WriteString("%R\t" + strings.Join(values, "\t") + "\n")
	}
	start := ""
	if s.StartDate != "" {
		if t, err := schedule.ParseStart(s.StartDate); err == nil { // checked above
			start = t.Format("2006-01-02 15:04")
		}
	}
	short := s.Name
	if short == "" {
		short = "Autoscheduler"
	}
	bw.WriteString("ERMHDR\t19.12\t" + time.Now().UTC().Format(time.DateOnly) + "\tProject\tadmin\tAutoscheduler\tdbxDatabaseNoName\tProject Management\tUSD\n")

	live := isLive(s)
	cals := calendarFileIDs(s)
	projCal := strconv.Itoa(cals.project)
	table("CALENDAR", "clndr_id", "default_flag", "clndr_name", "proj_id", "base_clndr_id", "clndr_type", "day_hr_cnt", "week_hr_cnt", "month_hr_cnt", "year_hr_cnt", "clndr_data")
	calRow := func(id, flag, name string, cal *schedule.Calendar, w *schedule.WorkTime) {
		h := w.MinutesPerDay() / 60
		days := float64(workdayCount(w))
		row(id, flag, name, "", "", "CA_Base", num(h), num(h*days), num(h*days*52/12), num(h*days*52), xerClndrData(cal))
	}
	calName := "Project calendar"
	if s.Calendar == nil {
		calName = "Standard"
	}
	calRow(projCal, "Y", calName, s.Calendar, wc[""])
	for _, key := range cals.keys {
		calRow(strconv.Itoa(cals.id[key]), "N", s.Calendars[key].Name, s.Calendars[key], wc[key])
	}

	projFields := []string{"proj_id", "proj_short_name", "clndr_id", "plan_start_date", "def_duration_type", "sum_base_proj_id"}
	projValues := []string{"1", short, projCal, start, "DT_FixedDUR2", ""}
	if live {
		projFields = append(projFields, "last_recalc_date")
		projValues = append(projValues, wc.dateText("", s.DataDate, false, xerDateLayout))
	}
	if o := s.Options; o != nil && o.MustFinishBy != "" {
		projFields = append(projFields, "plan_end_date")
		projValues = append(projValues, wc.dateText("", o.MustFinishBy, true, xerDateLayout))
	}
	table("PROJECT", projFields...)
	row(projValues...)
	if o := s.Options; o != nil && o.Tool == schedule.P6 {
		table("SCHEDOPTIONS", "schedoptions_id", "proj_id", "sched_calendar_on_relationship_lag", "sched_progress_override",
			"sched_retained_logic", "sched_float_type", "sched_open_critical_flag")
		row("1", "1", keyOf(xerLagCalendars, o.LagCalendar), yn(o.Progress == schedule.ProgressOverride),
			yn(o.Progress != schedule.ActualDates), keyOf(xerFloatTypes, o.Float), yn(o.OpenEndsCritical))
	}

	table("PROJWBS", "wbs_id", "proj_id", "obs_id", "seq_num", "proj_node_flag", "sum_data_flag", "status_code", "wbs_short_name", "wbs_name", "parent_wbs_id")
	row("1", "1", "", "0", "Y", "N", "WS_Open", short, s.Name, "")
	wbsID := xerWBSTree(s, row)

	taskFields := []string{"task_id", "proj_id", "wbs_id", "clndr_id", "task_type", "duration_type", "status_code", "task_code", "task_name", "target_drtn_hr_cnt", "remain_drtn_hr_cnt"}
	if live {
		taskFields = append(taskFields, "act_start_date", "act_end_date", "phys_complete_pct", "cstr_type", "cstr_date", "cstr_type2", "cstr_date2")
	}
	// The baseline goes in the planned dates, where the reader reads it
	// (XER's planned duration is the activity's own: a baseline duration
	// has no place).
	baselined := slices.ContainsFunc(s.Activities, func(a schedule.Activity) bool { return a.BaselineStart != "" || a.BaselineFinish != "" })
	if baselined {
		taskFields = append(taskFields, "target_start_date", "target_end_date")
	}
	baseline := func(a *schedule.Activity) []string {
		if !baselined {
			return nil
		}
		return []string{wc.dateText(a.Calendar, a.BaselineStart, false, xerDateLayout), wc.dateText(a.Calendar, a.BaselineFinish, true, xerDateLayout)}
	}
	table("TASK", taskFields...)
	index := make(map[string]int, len(s.Activities))
	for i, a := range s.Activities {
		if progress != nil && i%1000 == 0 {
			progress(i, len(s.Activities))
		}
		index[a.ID] = i + 1
		h := wc.hoursPerDay(a.Calendar)
		d, _ := schedule.DurationDays(a.Duration)
		typ := xerTaskType(a.Type, d, "")
		hours := num(durationHours(a.Duration, h))
		clndr := projCal
		if a.Calendar != "" {
			clndr = strconv.Itoa(cals.id[a.Calendar])
		}
		wbs := "1"
		if a.WBS != "" {
			wbs = strconv.Itoa(wbsID[a.WBS])
		}
		if !live {
			row(append([]string{strconv.Itoa(i + 1), "1", wbs, clndr, typ, "DT_FixedDUR2", "TK_NotStart", a.ID, a.Name, hours, hours}, baseline(&a)...)...)
			continue
		}
		status, remain := "TK_NotStart", hours
		switch {
		case a.ActualFinish != "":
			status, remain = "TK_Complete", "0"
		case a.ActualStart != "":
			status = "TK_Active"
		}
		if a.Remaining != "" && a.ActualFinish == "" {
			remain = num(durationHours(a.Remaining, h))
		}
		values := []string{strconv.Itoa(i + 1), "1", wbs, clndr, typ, "DT_FixedDUR2", status, a.ID, a.Name, hours, remain,
			wc.dateText(a.Calendar, a.ActualStart, false, xerDateLayout), wc.dateText(a.Calendar, a.ActualFinish, true, xerDateLayout), num(a.PercentComplete)}
		for _, c := range []*schedule.Constraint{a.Constraint, a.SecondaryConstraint} {
			if c == nil {
				values = append(values, "", "")
				continue
			}
			values = append(values, keyOf(xerConstraints, c.Type), wc.dateText(a.Calendar, c.Date, finishConstraint(c.Type), xerDateLayout))
		}
		row(append(values, baseline(&a)...)...)
	}

	table("TASKPRED", "task_pred_id", "task_id", "pred_task_id", "proj_id", "pred_proj_id", "pred_type", "lag_hr_cnt")
	relIDs := map[int]map[string]string{}
	for i, r := range s.Relationships {
		succ := index[r.Successor]
		// The lag is in hours of the successor's calendar, as the reader
		// counts it.
		row(strconv.Itoa(i+1), strconv.Itoa(succ), strconv.Itoa(index[r.Predecessor]), "1", "1", "PR_"+string(r.Type), num(r.Lag*wc.hoursPerDay(s.Activities[succ-1].Calendar)))
		if relIDs[succ] == nil {
			relIDs[succ] = map[string]string{}
		}
		relIDs[succ][r.Predecessor+"|"+string(r.Type)] = r.ID
	}
	writeXERCodes(s, table, row)
	writeXERResources(s, cals, projCal, wc, table, row)

	table("UDFTYPE", "udf_type_id", "table_name", "udf_type_name", "udf_type_label", "logical_data_type", "super_flag")
	labels := []string{"Description", aliasDuration, aliasRelIDs}
	for i, l := range labels {
		row(strconv.Itoa(i+1), "TASK", "user_field_"+strconv.Itoa(i+1), l, "FT_TEXT", "N")
	}
	table("UDFVALUE", "udf_type_id", "fk_id", "proj_id", "udf_text")
	for i, a := range s.Activities {
		id := strconv.Itoa(i + 1)
		if a.Description != "" {
			row("1", id, "1", jsonText(a.Description))
		}
		if xerReadBack(a.Duration, wc.hoursPerDay(a.Calendar)) != a.Duration {
			row("2", id, "1", jsonText(a.Duration))
		}
		if ids := relIDs[i+1]; ids != nil {
			row("3", id, "1", jsonText(ids))
		}
	}
	bw.WriteString("%E\n")
	if progress != nil {
		progress(len(s.Activities), len(s.Activities))
	}
	return bw.Flush()
}

// xerNumber writes a number of hours or units as P6 does, without binary
// noise.
func xerNumber(v float64) string { return strconv.FormatFloat(math.Round(v*1e6)/1e6, 'f', -1, 64) }

// durationHours is how long a duration takes on a calendar of hpd hours
// a day: P6 keeps durations in hours, and "16h" or "3ed" is that time
// whatever the day's length.
func durationHours(duration string, hpd float64) float64 {
	d, err := schedule.ParseDuration(duration)
	if err != nil {
		return 0 // checked valid before writing
	}
	return d.Minutes(hpd*60) / 60
}

// xerReadBack is the duration the reader makes of a duration written as
// hours of a calendar of hpd hours a day: where that is not the duration
// as written (a distribution, a unit, or hours that lose digits: a minute
// is 0.016667 hours) the duration as written is kept beside it.
func xerReadBack(duration string, hpd float64) string {
	hours, _ := strconv.ParseFloat(xerNumber(durationHours(duration, hpd)), 64)
	return formatDays(roundDays(hours / hpd))
}

func yn(b bool) string {
	if b {
		return "Y"
	}
	return "N"
}

// xerDateLayout is how P6 writes a date, 2026-03-02 08:00.
const xerDateLayout = "2006-01-02 15:04"

// xerWBSTree writes a PROJWBS node under the project's (wbs_id 1) for
// every level of the activities' WBS paths, and returns each path's
// node id.
func xerWBSTree(s *schedule.Schedule, row func(...string)) map[string]int {
	leaf := map[string]int{}
	node := map[string]int{} // path prefix, levels joined by NUL -> wbs_id
	next := 2
	for i := range s.Activities {
		path := s.Activities[i].WBS
		if path == "" || leaf[path] != 0 {
			continue
		}
		parent, prefix := 1, ""
		for k, name := range wbsSegments(path) {
			if k > 0 {
				prefix += "\x00"
			}
			prefix += name
			id := node[prefix]
			if id == 0 {
				id, node[prefix] = next, next
				row(strconv.Itoa(id), "1", "", strconv.Itoa(next), "N", "N", "WS_Open", name, name, strconv.Itoa(parent))
				next++
			}
			parent = id
		}
		leaf[path] = parent
	}
	return leaf
}

// writeXERCodes writes the activities' codes as ACTVTYPE (one project
// code type each), ACTVCODE (each value) and TASKACTV (who has which).
func writeXERCodes(s *schedule.Schedule, table func(string, ...string), row func(...string)) {
	types := sortedCodeTypes(s)
	if len(types) == 0 {
		return
	}
	typeID := map[string]int{}
	table("ACTVTYPE", "actv_code_type_id", "actv_short_len", "seq_num", "actv_code_type", "proj_id", "actv_code_type_scope")
	for i, t := range types {
		typeID[t] = i + 1
		row(strconv.Itoa(i+1), "60", strconv.Itoa(i+1), t, "1", "AS_Project")
	}
	table("ACTVCODE", "actv_code_id", "parent_actv_code_id", "actv_code_type_id", "actv_code_name", "short_name", "seq_num")
	codeID := map[[2]string]int{}
	for i := range s.Activities {
		a := &s.Activities[i]
		for _, t := range types {
			v, ok := a.Codes[t]
			if !ok || codeID[[2]string{t, v}] != 0 {
				continue
			}
			id := len(codeID) + 1
			codeID[[2]string{t, v}] = id
			row(strconv.Itoa(id), "", strconv.Itoa(typeID[t]), v, v, strconv.Itoa(id))
		}
	}
	table("TASKACTV", "task_id", "actv_code_type_id", "actv_code_id", "proj_id")
	for i := range s.Activities {
		a := &s.Activities[i]
		for _, t := range types {
			if v, ok := a.Codes[t]; ok {
				row(strconv.Itoa(i+1), strconv.Itoa(typeID[t]), strconv.Itoa(codeID[[2]string{t, v}]), "1")
			}
		}
	}
}

// writeXERResources writes the resources the assignments name (RSRC,
// with the calendar an assignment gives them) and the assignments
// (TASKRSRC: units per hour and the work in hours of the activity's
// calendar).
func writeXERResources(s *schedule.Schedule, cals fileIDs, projCal string, wc workCalendars, table func(string, ...string), row func(...string)) {
	names, calendarOf := resourceNames(s)
	if len(names) == 0 {
		return
	}
	rsrcID := map[string]int{}
	table("RSRC", "rsrc_id", "rsrc_name", "rsrc_short_name", "clndr_id", "rsrc_type")
	for i, name := range names {
		rsrcID[name] = i + 1
		clndr := projCal
		if key := calendarOf[name]; key != "" {
			clndr = strconv.Itoa(cals.id[key])
		}
		row(strconv.Itoa(i+1), name, name, clndr, "RT_Labor")
	}
	table("TASKRSRC", "taskrsrc_id", "task_id", "proj_id", "rsrc_id", "rsrc_type", "target_qty_per_hr", "remain_qty_per_hr", "target_qty", "remain_qty")
	n := 0
	for i := range s.Activities {
		a := &s.Activities[i]
		for _, as := range a.DatingAssignments() {
			n++
			units := as.Units
			if units == 0 {
				units = 1
			}
			work, _ := schedule.DurationDays(as.Work)
			// Every digit: the work reads back as the days it was (no
			// "as written" field keeps it, as for a duration).
			hours := strconv.FormatFloat(work*wc.hoursPerDay(a.Calendar), 'f', -1, 64)
			row(strconv.Itoa(n), strconv.Itoa(i+1), "1", strconv.Itoa(rsrcID[as.Resource]), "RT_Labor", xerNumber(units), xerNumber(units), hours, hours)
		}
	}
}

// xerClndrData writes a calendar in P6's clndr_data notation.
func xerClndrData(cal *schedule.Calendar) string {
	c, week, hours := exportWeek(cal)
	periods := func(b *strings.Builder, hs []string) {
		for i, h := range hs {
			p, _ := schedule.ParsePeriod(h)
			fmt.Fprintf(b, "(0||%d(s|%s|f|%s)())", i, clockTime(p.From), clockTime(p.To%(24*60)))
		}
	}
	var b strings.Builder
	b.WriteString("(0||CalendarData()((0||DaysOfWeek()(")
	for d := time.Sunday; d <= time.Saturday; d++ {
		fmt.Fprintf(&b, "(0||%d()(", int(d)+1)
		periods(&b, week[d])
		b.WriteString("))")
	}
	b.WriteString("))(0||VIEW(ShowTotal|Y)())(0||Exceptions()(")
	n := 0
	serial := func(day time.Time) int { return int(day.Sub(xerEpoch).Hours() / 24) }
	for _, h := range c.Holidays {
		day, _ := schedule.ParseDate(h)
		fmt.Fprintf(&b, "(0||%d(d|%d)())", n, serial(day))
		n++
	}
	for _, e := range c.Exceptions {
		from, _ := schedule.ParseDate(e.From)
		to := from
		if e.To != "" {
			to, _ = schedule.ParseDate(e.To)
		}
		for day := from; !day.After(to); day = day.AddDate(0, 0, 1) {
			fmt.Fprintf(&b, "(0||%d(d|%d)(", n, serial(day))
			if e.Working {
				h := e.Hours
				if h == nil {
					h = hours
				}
				periods(&b, h)
			}
			b.WriteString("))")
			n++
		}
	}
	b.WriteString("))))")
	return b.String()
}

func clockTime(m int) string { return fmt.Sprintf("%02d:%02d", m/60, m%60) }
