package interchange

// Primavera P6 XER import and export.
//
// An XER file is tab-separated tables: "%T NAME" starts a table, "%F" lists
// its fields, each "%R" is a row, "%E" ends the file. A file without its %E,
// or whose last row stops short, is refused with the line (see splitXER): it
// was cut short. A row elsewhere may leave out its last values (P6 writes
// some rows so); one that leaves out a value the reader needs is refused
// with its line. What is read:
//
//   - PROJECT: the first project in the file; plan_start_date is start_date,
//     the root PROJWBS node's wbs_name (else proj_short_name) the name, and
//     clndr_id the calendar (else the CALENDAR with default_flag Y).
//   - CALENDAR: clndr_data's DaysOfWeek (1 = Sunday) with their hours, and
//     its Exceptions (d|N: N days after 1899-12-30; with hours a worked
//     date, without a date off - a holiday); day_hr_cnt is hours_per_day.
//   - TASK: activity id = task_code, name = task_name, duration =
//     target_drtn_hr_cnt / day_hr_cnt of the task's calendar (P6 keeps
//     hours; a day is a day of the task's own calendar). TT_Mile is a start
//     milestone, TT_FinMile a task of 0 days; level-of-effort and WBS
//     summary activities (TT_LOE, TT_WBS) are kept with their links and
//     dated from them. The live programme (xer_live.go): clndr_id, the
//     constraints, actuals, remain_drtn_hr_cnt, phys_complete_pct, the
//     PROJWBS path and activity codes; PROJECT last_recalc_date is the data
//     date and SCHEDOPTIONS the scheduling options (P6's rules apply).
//     The planned dates (target_start_date, target_end_date) are the
//     activity's baseline, as MPXJ reads them.
//   - TASKPRED: pred_type PR_FS/PR_SS/PR_FF/PR_SF, lag_hr_cnt / day_hr_cnt
//     of the successor's calendar. Links to other projects are skipped.
//
// Not read: costs, memos, baseline projects; resources and their assignments
// (RSRC, TASKRSRC) only in our export of a schedule on MS Project's rules
// (no SCHEDOPTIONS): under P6's they do not date an activity.
//
// Export writes PROJECT, CALENDAR, PROJWBS, TASK and TASKPRED, plus three
// user-defined text fields (UDFTYPE/UDFVALUE) for what XER has no column
// for, so import(export(s)) gives s back: "Description", "Duration as
// written" and "Relationship IDs" (JSON, on the successor). Calendar
// exceptions are per date in XER and have no names: a range exception
// comes back as its dates, a non-working one as holidays. A live
// programme also gets every calendar, SCHEDOPTIONS (P6's rules), the
// PROJWBS tree of its WBS paths, progress and constraints in TASK, its
// codes (ACTVTYPE, ACTVCODE, TASKACTV) and assignments (RSRC, TASKRSRC);
// see xer_write.go.
import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// xerTable is one %T table: its fields and rows, each row with its line.
type xerTable struct {
	name   string
	line   int // of its %T
	fields map[string]int
	names  []string // the fields in %F order
	rows   []xerRow
	// short and long are the lines of rows with fewer or more values than
	// %F declares: read as far as they go (see warnRowShapes).
	short, long []int
	// again is the first table of the name when this one repeats it.
	again *xerTable
}

// asFirst is a row of a repeated table in the fields of the first.
func (t *xerTable) asFirst(values []string) []string {
	out := make([]string, len(t.again.names))
	for f, i := range t.fields {
		if j, ok := t.again.fields[f]; ok && i < len(values) {
			out[j] = values[i]
		}
	}
	return out
}

type xerRow struct {
	line   int
	values []string
}

// get is a row's value of field ("" when the table has no such field),
// spaces trimmed: for numbers, codes and flags.
func (t *xerTable) get(r xerRow, field string) string {
	return strings.TrimSpace(t.text(r, field))
}

// text is a row's value of field as written: names and ids keep their
// spaces, so what a schedule holds comes back from the file the same.
func (t *xerTable) text(r xerRow, field string) string {
	if i, ok := t.fields[field]; ok && i < len(r.values) {
		return r.values[i]
	}
	return ""
}

// warnRowShapes says which rows of each table hold fewer or more values
// than its %F line declares: a damaged row is read as far as it goes (the
// values it lacks are empty, the extra ones left out), and the rest of the
// file with it.
func warnRowShapes(rs *readState, order []*xerTable) {
	rows := func(at []int) string {
		list := make([]string, 0, 5)
		for _, n := range at[:min(len(at), 5)] {
			list = append(list, strconv.Itoa(n))
		}
		if len(at) > 5 {
			list = append(list, fmt.Sprintf("and %d more", len(at)-5))
		}
		if len(at) == 1 {
			return "the row at line " + list[0] + " has"
		}
		return fmt.Sprintf("%d rows (lines %s) have", len(at), strings.Join(list, ", "))
	}
	for _, t := range order {
		if len(t.short) > 0 {
			rs.warnf("table %s: %s fewer values than its %%F line declares (%d): the values they lack are read as empty", t.name, rows(t.short), len(t.names))
		}
		if len(t.long) > 0 {
			rs.warnf("table %s: %s more values than its %%F line declares (%d): the values past its fields are left out", t.name, rows(t.long), len(t.names))
		}
	}
}

// ParseXER parses and validates an XER file held in memory. Errors name the
// line, table and row, e.g. "line 40: TASKPRED task_pred_id 12: pred_type
// "PR_XX": want PR_FS, PR_SS, PR_FF or PR_SF".
func ParseXER(data []byte) (*schedule.Schedule, error) {
	s, _, err := Parse(data, XER)
	return s, err
}

// readXER decodes an XER file into a schedule, unvalidated.
func readXER(data []byte, rs *readState) (*schedule.Schedule, error) {
	tables, err := splitXER(data, rs)
	if err != nil {
		return nil, err
	}
	return xerSchedule(tables, rs)
}

// splitXER cuts the file into tables. P6 writes the Windows code page of
// its machine, usually Windows-1252; a byte order mark or valid UTF-8 says
// otherwise (see decodeWindowsText).
//
// P6 ends every export with "%E". A file without its %E, or whose last row
// stops short, was cut short - a download, an upload or a
// copy interrupted - and reads as a smaller valid schedule: the tables
// after the cut (and the rest of the one cut) are simply missing, typically
// relationships, so the logic silently goes. Such a file is refused with
// the line where it ends, unless rs.opts.AllowTruncated says to read it as
// far as it goes, with a warning naming what may be missing. A row with
// fewer values than its %F declares elsewhere is kept: files saved by P6
// leave out trailing empty values of some rows (PROJECT's last five in
// ../shared/data/real). Its missing values read as empty, and reading one
// refuses the file (shortRead).
func splitXER(data []byte, rs *readState) (map[string]*xerTable, error) {
	data, _, undefinedOn, err := decodeWindowsText(data)
	if err != nil {
		return nil, err
	}
	if len(undefinedOn) > 0 {
		rs.warnf("%s", undefinedWarning(undefinedOn))
	}
	lines := strings.Split(string(data), "\n")
	last := -1 // the last line with anything on it
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.TrimRight(lines[i], "\r") != "" {
			last = i
			break
		}
	}
	tables := map[string]*xerTable{}
	var order []*xerTable
	var cur *xerTable
	sawHeader := false
	for i, line := range lines {
		n := i + 1
		line = strings.TrimRight(line, "\r")
		if line == "" {
			continue
		}
		tag, rest, _ := strings.Cut(line, "\t")
		switch tag {
		case "ERMHDR":
			sawHeader = true
		case "%T":
			name := strings.TrimSpace(rest)
			cur = &xerTable{name: name, line: n}
			if first := tables[name]; first != nil {
				// Its rows join the first's (see %R), field by field.
				rs.warnf("line %d: table %s appears again (first at line %d); its rows are read into the first", n, name, first.line)
				cur.again = first
			} else {
				tables[name] = cur
				order = append(order, cur)
			}
		case "%F":
			if cur == nil || cur.fields != nil {
				rs.warnf("line %d: %%F without a %%T table before it; the line is left out", n)
				continue
			}
			cur.fields = map[string]int{}
			for j, f := range strings.Split(rest, "\t") {
				f = strings.TrimSpace(f)
				cur.fields[f] = j
				cur.names = append(cur.names, f)
			}
		case "%R":
			if cur == nil || cur.fields == nil {
				rs.warnf("line %d: %%R without %%T and %%F before it; the row is left out", n)
				continue
			}
			values := strings.Split(rest, "\t")
			if first := cur.again; first != nil {
				first.rows = append(first.rows, xerRow{line: n, values: cur.asFirst(values)})
				continue
			}
			if len(values) > len(cur.names) {
				cur.long = append(cur.long, n)
				values = values[:len(cur.names)]
			}
			if len(values) < len(cur.names) {
				missing := strings.Join(cur.names[len(values):], ", ")
				if i != last {
					cur.short = append(cur.short, n)
					cur.rows = append(cur.rows, xerRow{line: n, values: values})
					continue
				}
				// The file ends in this row: cut short mid-line.
				if !rs.opts.AllowTruncated {
					return nil, fmt.Errorf("line %d: the file ends in the middle of a %s row (%d of its %d values; no %s) without its %%E end marker: it looks truncated; export it from P6 again",
						n, cur.name, len(values), len(cur.names), missing)
				}
				rs.warnf("line %d: the file ends in the middle of a %s row (%d of its %d values; no %s): the row is left out", n, cur.name, len(values), len(cur.names), missing)
				warnRowShapes(rs, order)
				return tables, truncatedXER(rs, order, n)
			}
			cur.rows = append(cur.rows, xerRow{line: n, values: values})
		case "%E":
			warnRowShapes(rs, order)
			return tables, nil
		default:
			if !sawHeader && i == 0 {
				return nil, fmt.Errorf("line 1: not an XER file: it does not start with ERMHDR")
			}
			if i == last && strings.HasPrefix("%E", tag) {
				// "%": the end marker itself cut short.
				return nil, fmt.Errorf("line %d: the file ends in the middle of its %%E end marker: it looks truncated; export it from P6 again", n)
			}
			rs.warnf("line %d: %q is not an XER line (they start with %%T, %%F, %%R or %%E); the line is left out", n, truncate(tag, 20))
			continue
		}
		if !sawHeader {
			return nil, fmt.Errorf("line 1: not an XER file: it does not start with ERMHDR")
		}
	}
	if !sawHeader {
		return nil, errors.New("not an XER file: it is empty")
	}
	end := last + 1
	if !rs.opts.AllowTruncated {
		where := ""
		if len(order) > 0 {
			t := order[len(order)-1]
			where = fmt.Sprintf(" (its last table, %s, stops after %s)", t.name, plural(len(t.rows), "row"))
		}
		if tables["TASK"] == nil {
			where += "; no TASK table: the file holds no activities"
		}
		return nil, fmt.Errorf("the file ends at line %d without its %%E end marker: it looks truncated%s; export it from P6 again", end, where)
	}
	warnRowShapes(rs, order)
	return tables, truncatedXER(rs, order, end)
}

// truncatedXER warns that a file read as far as it goes ended at line end
// without its %E: which table was cut and which were read whole.
func truncatedXER(rs *readState, order []*xerTable, end int) error {
	rs.truncated = true
	if len(order) == 0 {
		rs.warnf("the file ends at line %d without its %%E end marker, before its first table", end)
		return nil
	}
	t := order[len(order)-1]
	rs.warnf("the file ends at line %d without its %%E end marker: it was read as far as it goes; table %s (from line %d) may be cut short after its %s, and any tables P6 writes after it are missing",
		end, t.name, t.line, plural(len(t.rows), "row"))
	return nil
}

// plural is "1 row", "2 rows", "2 activities".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if stem, ok := strings.CutSuffix(what, "y"); ok && stem != "" && !strings.ContainsRune("aeiou", rune(stem[len(stem)-1])) {
		return strconv.Itoa(n) + " " + stem + "ies"
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func xerSchedule(tables map[string]*xerTable, rs *readState) (*schedule.Schedule, error) {
	proj := tables["PROJECT"]
	if proj == nil || len(proj.rows) == 0 {
		return nil, errors.New("no PROJECT table: not a P6 project export")
	}
	pr := proj.rows[0]
	projID := proj.get(pr, "proj_id")
	s := &schedule.Schedule{Name: proj.text(pr, "proj_short_name"), Activities: []schedule.Activity{}, Relationships: []schedule.Relationship{}}
	nameFrom := fmt.Sprintf("line %d: PROJECT proj_short_name", pr.line)
	if wbs := tables["PROJWBS"]; wbs != nil {
		for _, r := range wbs.rows {
			if wbs.get(r, "proj_id") == projID && wbs.get(r, "proj_node_flag") == "Y" && wbs.get(r, "wbs_name") != "" {
				s.Name = wbs.text(r, "wbs_name")
				nameFrom = fmt.Sprintf("line %d: PROJWBS wbs_name", r.line)
				break
			}
		}
	}
	s.Name = rs.scheduleName(s.Name, nameFrom)
	var start time.Time // the project's start instant, dated once the calendar is read
	if v := proj.get(pr, "plan_start_date"); v != "" {
		if t, err := parseXERDate(v); err != nil {
			rs.warnf("line %d: PROJECT plan_start_date: %v; the project starts at its earliest activity's start instead", pr.line, err)
		} else {
			start = t
		}
	}
	if start.IsZero() {
		start = earliestTaskStart(tables["TASK"], projID)
	}

	cals, projCal := xerCalendars(tables, rs, proj.get(pr, "clndr_id"))
	hoursPerDay := 8.0
	if c := cals[projCal]; c != nil {
		s.Calendar = c.cal
		hoursPerDay = c.hoursPerDay
		// Our export names a schedule's default calendar "Standard".
		def := &schedule.Calendar{Workdays: schedule.DefaultWorkdays}
		if c.name == "Standard" && equalCalendars(c.cal, def) {
			s.Calendar = nil
		}
	}
	if !start.IsZero() {
		work, err := s.Calendar.Compile()
		if err != nil {
			return nil, fmt.Errorf("project calendar: %w", err)
		}
		s.StartDate = schedule.StartDateOf(start, work)
	}
	live := newXERLive(tables, rs, s, projID, projCal)
	taskHours := func(clndr string) float64 {
		if c := cals[clndr]; c != nil {
			return c.hoursPerDay
		}
		return hoursPerDay
	}

	// User-defined text fields written by our export.
	udf := map[string]string{} // udf_type_id -> label
	if ut := tables["UDFTYPE"]; ut != nil {
		for _, r := range ut.rows {
			if ut.get(r, "table_name") == "TASK" {
				udf[ut.get(r, "udf_type_id")] = ut.get(r, "udf_type_label")
			}
		}
	}
	custom := map[[2]string]string{} // (task_id, label) -> text
	if uv := tables["UDFVALUE"]; uv != nil {
		for _, r := range uv.rows {
			if label, ok := udf[uv.get(r, "udf_type_id")]; ok {
				custom[[2]string{uv.get(r, "fk_id"), label}] = uv.get(r, "udf_text")
			}
		}
	}
	// Our export writes JSON in these fields: tabs and line breaks cannot
	// stand in an XER value.
	text := func(taskID, label string) (string, bool) {
		v, ok := custom[[2]string{taskID, label}]
		if !ok {
			return "", false
		}
		var out string
		err := json.Unmarshal([]byte(v), &out)
		return out, err == nil
	}

	tt := tables["TASK"]
	if tt == nil {
		// Without it the file holds no activities at all: a project
		// exported without its activities, or a file cut short.
		return nil, errors.New("no TASK table: the file holds no activities; export the project from P6 with its activities")
	}
	allTasks := map[string]bool{}
	for _, r := range tt.rows {
		allTasks[tt.get(r, "task_id")] = true
	}
	n := len(tt.rows)                         // sizes the lists and maps once, not by growing them
	code := make(map[string]string, n)        // task_id -> activity id
	lineOf := make(map[string]int, n)         // activity id -> its TASK line
	clndrOf := make(map[string]float64, n)    // task_id -> hours per day
	durationOf := make(map[string]float64, n) // task_id -> days
	s.Activities = make([]schedule.Activity, 0, n)
	for _, r := range tt.rows {
		if tt.get(r, "proj_id") != projID && projID != "" && tt.get(r, "proj_id") != "" {
			continue
		}
		id := tt.get(r, "task_id")
		where := rowAt{r.line, "TASK task_id", id}
		if id == "" {
			rs.warnf("line %d: TASK row without task_id; the activity is left out", r.line)
			continue
		}
		if _, dup := code[id]; dup {
			rs.warnf("%s: task_id is used twice; this row is left out", where)
			continue
		}
		typ := tt.get(r, "task_type")
		if _, known := xerTaskTypes[typ]; !known {
			rs.warnf("%s: task_type %q is not TT_Task, TT_Rsrc, TT_Mile, TT_FinMile, TT_LOE or TT_WBS; read as a task (TT_Task)", where, typ)
			typ = "TT_Task"
		}
		hpd := taskHours(tt.get(r, "clndr_id"))
		days := 0.0
		if typ != "TT_Mile" && typ != "TT_FinMile" {
			hours := func(field string) (float64, bool) {
				h, err := strconv.ParseFloat(tt.get(r, field), 64)
				return h, err == nil && h >= 0 && h/hpd <= schedule.MaxDays // NaN too
			}
			if v := tt.get(r, "target_drtn_hr_cnt"); v != "" {
				h, ok := hours("target_drtn_hr_cnt")
				if !ok {
					// A damaged duration (real exports hold some far beyond any
					// calendar): the rest of the file is good. P6 schedules
					// progressed work on its remaining duration anyway.
					h, ok = hours("remain_drtn_hr_cnt")
					instead := "its remaining duration (remain_drtn_hr_cnt)"
					if !ok {
						h, instead = 0, "0"
					}
					rs.warnf("%s (task_code %q): target_drtn_hr_cnt %q is not a number of hours from 0 to %d working days of %g hours; its duration is read as %s", where, tt.text(r, "task_code"), v, schedule.MaxDays, hpd, instead)
				}
				days = roundDays(h / hpd)
			}
		}
		a := schedule.Activity{ID: tt.text(r, "task_code"), Name: tt.text(r, "task_name"), Duration: formatDays(days)}
		field := "task_code"
		if a.ID == "" {
			a.ID, field = id, "task_id"
		}
		// Lengths and duplicates here, with the line; Validate checks the
		// characters.
		if long := schedule.TooLong(a.ID, schedule.MaxID); long != "" {
			if field == "task_id" {
				rs.warnf("%s: task_id %s; the activity is left out", where, long)
				continue
			}
			rs.warnf("%s: task_code %s; the activity's task_id %s is its id instead", where, long, id)
			a.ID, field = id, "task_id"
		}
		if first, dup := lineOf[a.ID]; dup && field == "task_code" {
			rs.warnf("%s: task_code %q is the TASK row's at line %d too (activity ids are unique); the activity's task_id %s is its id instead", where, a.ID, first, id)
			a.ID, field = id, "task_id"
		}
		if first, dup := lineOf[a.ID]; dup {
			rs.warnf("%s: its id %q is the TASK row's at line %d too (activity ids are unique); the activity is left out", where, a.ID, first)
			continue
		}
		lineOf[a.ID] = r.line
		if strings.TrimSpace(a.Name) == "" {
			rs.warnf("%s: task_name is empty; the activity is named by its %s, %q", where, field, a.ID)
			a.Name = a.ID
		}
		if long := schedule.TooLong(a.Name, schedule.MaxName); long != "" {
			return nil, fmt.Errorf("%s (task_code %q): task_name %s", where, a.ID, long)
		}
		if d, ok := text(id, "Description"); ok {
			if long := schedule.TooLong(d, schedule.MaxDescription); long != "" {
				return nil, fmt.Errorf("%s (task_code %q): its Description (UDFVALUE) %s", where, a.ID, long)
			}
			a.Description = d
		}
		if d, ok := text(id, aliasDuration); ok {
			if sameTime(days, hpd, d) {
				a.Duration = d
			}
		}
		live.task(tt, r, &a, hpd, cals)
		code[id], clndrOf[id], durationOf[id] = a.ID, hpd, days
		s.Activities = append(s.Activities, a)
	}

	if pt := tables["TASKPRED"]; pt != nil {
		relIDs := map[string]map[string]string{}       // successor task_id -> "pred|type" -> id
		linkLine := make(map[string]int, len(pt.rows)) // predecessor, type, successor -> its TASKPRED line
		s.Relationships = make([]schedule.Relationship, 0, len(pt.rows))
		for _, r := range pt.rows {
			succ, pred := pt.get(r, "task_id"), pt.get(r, "pred_task_id")
			where := rowAt{r.line, "TASKPRED task_pred_id", pt.get(r, "task_pred_id")}
			// A damaged link is left out with a warning naming it (or, a
			// damaged lag, read as none): the rest of the file is good.
			damaged := ""
			for _, f := range [...]struct{ name, v string }{{"task_id", succ}, {"pred_task_id", pred}} {
				if f.v == "" && damaged == "" {
					damaged = "the row has no " + f.name
				}
			}
			if damaged != "" {
				rs.warnf("%s: %s; the link is left out", where, damaged)
				continue
			}
			if code[succ] == "" || code[pred] == "" {
				missing := pred
				if !allTasks[succ] {
					missing = succ
				}
				if allTasks[succ] && allTasks[pred] || pt.get(r, "pred_proj_id") != pt.get(r, "proj_id") {
					continue // a skipped LOE or WBS activity, or another project's
				}
				rs.warnf("%s: task_id %s is not in TASK; the link is left out", where, missing)
				continue
			}
			var typ schedule.RelType
			switch v := pt.get(r, "pred_type"); v {
			case "PR_FS", "":
				typ = schedule.FS
			case "PR_SS":
				typ = schedule.SS
			case "PR_FF":
				typ = schedule.FF
			case "PR_SF":
				typ = schedule.SF
			default:
				rs.warnf("%s (%s to %s): pred_type %q is not PR_FS, PR_SS, PR_FF or PR_SF; the link is left out", where, code[pred], code[succ], v)
				continue
			}
			lag := 0.0
			if v := pt.get(r, "lag_hr_cnt"); v != "" {
				h, err := strconv.ParseFloat(v, 64)
				if err != nil || !(math.Abs(h/clndrOf[succ]) <= schedule.MaxDays) { // NaN too
					rs.warnf("%s (%s to %s): lag_hr_cnt %q is not a number of hours within ±%d working days of %g hours; the link is read without a lag", where, code[pred], code[succ], v, schedule.MaxDays, clndrOf[succ])
				} else {
					lag = roundDays(h / clndrOf[succ])
				}
			}
			if relIDs[succ] == nil {
				ids := map[string]string{}
				if v, ok := custom[[2]string{succ, aliasRelIDs}]; ok {
					_ = json.Unmarshal([]byte(v), &ids) // edited by hand: new ids
				}
				relIDs[succ] = ids
			}
			id := code[pred] + "-" + string(typ) + "-" + code[succ]
			if v := relIDs[succ][code[pred]+"|"+string(typ)]; v != "" {
				id = v
			}
			link := code[pred] + "\x00" + string(typ) + "\x00" + code[succ]
			if first, dup := linkLine[link]; dup {
				rs.warnf("%s: a second %s link from %s to %s (the first is at line %d) is left out", where, typ, code[pred], code[succ], first)
				continue
			}
			linkLine[link] = r.line
			s.Relationships = append(s.Relationships, schedule.Relationship{ID: id, Type: typ, Predecessor: code[pred], Successor: code[succ], Lag: lag})
		}
	}
	namedCalendars(s, cals)
	return s, nil
}

// xerCalendars reads the CALENDAR table: the calendars by clndr_id and
// the project's, projCal (PROJECT clndr_id) if it is one, else the first
// with default_flag Y. A damaged calendar is left out with a warning, not
// the file: its activities are scheduled on the project's calendar.
func xerCalendars(tables map[string]*xerTable, rs *readState, projCal string) (map[string]*xerCalendar, string) {
	cals := map[string]*xerCalendar{}
	defaultCal := ""
	if ct := tables["CALENDAR"]; ct != nil {
		for _, r := range ct.rows {
			id := ct.get(r, "clndr_id")
			c, err := parseXERCalendar(ct.get(r, "clndr_data"), ct.get(r, "day_hr_cnt"))
			if err == nil {
				_, err = c.cal.Compile() // e.g. a week with no working day
			}
			if err != nil {
				rs.warnf("line %d: CALENDAR clndr_id %s: %v (calendar %q left out: its activities are scheduled on the project's calendar)", r.line, id, err, ct.get(r, "clndr_name"))
				continue
			}
			c.name = ct.get(r, "clndr_name")
			cals[id] = c
			if ct.get(r, "default_flag") == "Y" && defaultCal == "" {
				defaultCal = id
			}
		}
	}
	if cals[projCal] == nil {
		projCal = defaultCal
	}
	return cals, projCal
}

// sameTime reports whether a duration as written (from our export's
// "Duration as written") takes days of hpd hours, the task's duration in
// the file: "16h" is 1.6 days of a 10-hour calendar. On an 8-hour
// calendar it is sameDays.
func sameTime(days, hpd float64, duration string) bool {
	d, err := schedule.ParseDuration(duration)
	return err == nil && math.Abs(d.Minutes(hpd*60)/(hpd*60)-days) < 1e-6
}

// rowAt names a row in a message, "line 12: TASK task_id 7", formatted
// only when a message is written (a large file has many rows).
type rowAt struct {
	line       int
	table, key string
}

func (w rowAt) String() string { return fmt.Sprintf("line %d: %s %s", w.line, w.table, w.key) }

// parseXERDate reads P6's "2026-01-05 08:00" (date alone accepted).
func parseXERDate(v string) (time.Time, error) {
	if len(v) == 16 && v[10] == ' ' { // P6's own form, read as a schedule date without time.Parse's cost
		if t, err := schedule.ParseStart(v[:10] + "T" + v[11:]); err == nil {
			return t, nil
		}
	}
	for _, layout := range []string{"2006-01-02 15:04", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a date like 2026-01-05 08:00", v)
}

// earliestTaskStart is the earliest planned or actual start of a project's
// TASK rows: its start when PROJECT does not say it (zero when none does).
func earliestTaskStart(tt *xerTable, projID string) time.Time {
	var first time.Time
	if tt == nil {
		return first
	}
	for _, r := range tt.rows {
		if id := tt.get(r, "proj_id"); id != projID && projID != "" && id != "" {
			continue
		}
		for _, f := range []string{"target_start_date", "act_start_date", "early_start_date"} {
			if t, err := parseXERDate(tt.get(r, f)); err == nil && (first.IsZero() || t.Before(first)) {
				first = t
			}
		}
	}
	return first
}
