package interchange

// The XER patch writer: the file a schedule was imported from (s.Source)
// written back with the schedule's changes applied and every other byte as
// it was. Each change is the reader's mapping (xer.go, xer_live.go)
// inverted: a changed activity has only the TASK columns of its changed
// fields rewritten; a removed one loses its TASK row and every row that
// hangs off it; an added one gets a TASK row copied from a neighbour's;
// links are removed, changed and added in TASKPRED; the CPM dates our
// engine moved are written in the columns P6 computes. Rows are edited in
// the file's own code page and line endings.

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// patchXER writes the XER file s was imported from (s.Source) with only
// s's changes applied (see edits): every other byte as it was.
func patchXER(w io.Writer, s *schedule.Schedule, e *edits, data []byte, progress Progress) error {
	p, err := newXERPatch(data, e)
	if err != nil {
		return fmt.Errorf("the kept XER file %q: %w", s.Source.Name, err)
	}
	for _, step := range []func() error{p.calendars, p.removeActivities, p.changeActivities, p.addActivities, p.rehour, p.relationships, p.computed, p.meta} {
		if err := step(); err != nil {
			return fmt.Errorf("writing the changes into %q: %w", s.Source.Name, err)
		}
	}
	return p.write(w, progress)
}

// xerPatch is an XER file being edited: its lines as they are, and the
// rows dropped, edited and added.
type xerPatch struct {
	e      *edits
	tables map[string]*xerTable
	// lines are the file's lines in its own encoding (UTF-16 files are
	// edited as UTF-8 and encoded back by write), each with its "\r".
	lines   [][]byte
	bom     []byte
	utf16   string // "UTF-16LE" or "UTF-16BE" when the file is
	encode  func(string) ([]byte, error)
	dropped map[int]bool      // by line
	edited  map[int]*patchRow // by line
	// after and before are the new lines written after and before an
	// existing line; tails the last row of each table the patch adds.
	after, before map[int]*patchLines
	tails         map[*xerTable]*patchRow
	// The project and what the reader made of it.
	projID, projCal string
	live            *xerLive
	// taskRow is each base activity's TASK row by activity id, newTask
	// each added one's; taskID its task_id.
	taskRow map[string]xerRow
	newTask map[string]*patchRow
	taskID  map[string]string
	hours   map[string]float64 // clndr_id -> hours in a day, as exported
	nextID  map[string]int     // table.field -> the next free number
	// udfTypes are TASK's user-defined fields, udf_type_id -> label, and
	// newUDF the UDFVALUE rows added, by udf_type_id and task_id.
	udfTypes map[string]string
	newUDF   map[[2]string]*patchRow
	// wbsAt are the project's WBS nodes by path ("": the root), wbsRow
	// their rows by wbs_id (the file's and those added).
	wbsAt  map[string]string
	wbsRow map[string]*patchRow
	// codeTypes are ACTVTYPE's ids by name, typeOfCode ACTVCODE's type
	// ids by actv_code_id.
	codeTypes, typeOfCode map[string]string
	// linkAt are TASKPRED's rows by successor, predecessor and type.
	linkAt map[string]xerRow
	// newCalendar are the clndr_ids given to new calendars, by key;
	// rehoured the calendars whose hours a day changed.
	newCalendar map[string]string
	rehoured    map[string]bool
}

// patchRow is a row being written: an existing one (line > 0) with some
// values replaced, or a new one in the list of lines written together.
type patchRow struct {
	table  *xerTable
	line   int         // an existing row's; 0 for a new one
	list   *patchLines // a new one's
	values [][]byte    // in the file's encoding
	cr     bool        // the line ends in "\r\n"
	raw    []byte      // a new line that is not a row (%T, %F)
}

// patchLines are new lines written together, in order.
type patchLines struct{ rows []*patchRow }

func newXERPatch(data []byte, e *edits) (*xerPatch, error) {
	rs := &readState{opts: Options{AllowTruncated: true}}
	tables, err := splitXER(data, rs)
	if err != nil {
		return nil, err
	}
	p := &xerPatch{e: e, tables: tables, dropped: map[int]bool{}, edited: map[int]*patchRow{},
		after: map[int]*patchLines{}, before: map[int]*patchLines{}, tails: map[*xerTable]*patchRow{},
		taskRow: map[string]xerRow{}, newTask: map[string]*patchRow{}, taskID: map[string]string{}, hours: map[string]float64{}, nextID: map[string]int{},
		newUDF: map[[2]string]*patchRow{}, wbsRow: map[string]*patchRow{},
		newCalendar: map[string]string{}, rehoured: map[string]bool{}}
	text, encoding, _, _ := decodeWindowsText(data) // splitXER decoded it
	body := data
	switch encoding {
	case "Windows-1252":
		p.encode = encodeWindows1252
	case "UTF-16LE", "UTF-16BE":
		body, p.utf16 = text, encoding
	default:
		if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
			p.bom, body = data[:3], data[3:]
		}
	}
	if p.encode == nil {
		p.encode = func(s string) ([]byte, error) { return []byte(s), nil }
	}
	p.lines = bytes.Split(body, []byte("\n"))
	proj := tables["PROJECT"]
	if proj == nil || len(proj.rows) == 0 || tables["TASK"] == nil {
		return nil, fmt.Errorf("the file has no PROJECT or TASK table")
	}
	pr := proj.rows[0]
	p.projID = proj.get(pr, "proj_id")
	cals, projCal := xerCalendars(tables, rs, proj.get(pr, "clndr_id"))
	p.projCal = projCal
	p.live = newXERLive(tables, rs, &schedule.Schedule{}, p.projID, p.projCal)
	tt := tables["TASK"]
	for _, r := range tt.rows {
		if !p.ofProject(tt, r) {
			continue
		}
		id := tt.text(r, "task_code")
		if id == "" {
			id = tt.get(r, "task_id")
		}
		if _, ok := p.taskRow[id]; !ok {
			p.taskRow[id] = r
			p.taskID[id] = tt.get(r, "task_id")
		}
	}
	for id, c := range cals {
		p.hours[id] = c.hoursPerDay
	}
	return p, nil
}

// rowOf is an activity's TASK row, ready to be edited; nil when it has
// none.
func (p *xerPatch) rowOf(id string) *patchRow {
	if pr := p.newTask[id]; pr != nil {
		return pr
	}
	if r, ok := p.taskRow[id]; ok {
		return p.row(p.tables["TASK"], r)
	}
	return nil
}

// ofProject reports whether a row is the read project's, as the reader
// decides for TASK.
func (p *xerPatch) ofProject(t *xerTable, r xerRow) bool {
	id := t.get(r, "proj_id")
	return id == p.projID || p.projID == "" || id == ""
}

// row is an existing row, ready to have values replaced.
func (p *xerPatch) row(t *xerTable, r xerRow) *patchRow {
	if pr := p.edited[r.line]; pr != nil {
		return pr
	}
	raw := p.lines[r.line-1]
	cr := bytes.HasSuffix(raw, []byte("\r"))
	raw = bytes.TrimSuffix(raw, []byte("\r"))
	parts := bytes.Split(raw, []byte("\t"))
	pr := &patchRow{table: t, line: r.line, values: parts[1:], cr: cr}
	p.edited[r.line] = pr
	return pr
}

// get is a row's id or code in field ("" when the table has none): ASCII,
// the same bytes in every code page the file may be in.
func (p *xerPatch) get(pr *patchRow, field string) string {
	i, ok := pr.table.fields[field]
	if !ok || i >= len(pr.values) {
		return ""
	}
	return strings.TrimSpace(string(pr.values[i]))
}

// set writes text in a row's field; a field the table does not have is
// left out (P6 versions differ in their columns).
func (p *xerPatch) set(pr *patchRow, field, text string) error {
	i, ok := pr.table.fields[field]
	if !ok {
		return nil
	}
	if strings.ContainsAny(text, "\t\r\n") { // most values have none: skip xerText's replacer
		text = xerText(text)
	}
	v, err := p.encode(text)
	if err != nil {
		return fmt.Errorf("%s %s: %w", pr.table.name, field, err)
	}
	for len(pr.values) <= i {
		pr.values = append(pr.values, nil)
	}
	pr.values[i] = v
	return nil
}

// setAll sets fields and values in turn.
func (p *xerPatch) setAll(pr *patchRow, fieldValues ...string) error {
	for i := 0; i+1 < len(fieldValues); i += 2 {
		if err := p.set(pr, fieldValues[i], fieldValues[i+1]); err != nil {
			return err
		}
	}
	return nil
}

// newRow is a row of t copied from template (nil: all values empty),
// inserted after the row after (an existing or a new one).
func (p *xerPatch) newRow(t *xerTable, template, after *patchRow) *patchRow {
	pr := &patchRow{table: t, values: make([][]byte, len(t.names)), cr: after.cr}
	if template != nil {
		copy(pr.values, template.values)
	}
	p.insertAfter(after, pr)
	if p.tails[t] == after {
		p.tails[t] = pr
	}
	return pr
}

// insertAfter places a new line after another: right after a new one;
// after an existing one and the lines added there before.
func (p *xerPatch) insertAfter(after, pr *patchRow) {
	if after.line > 0 {
		pr.list = linesAt(p.after, after.line)
		pr.list.rows = append(pr.list.rows, pr)
		return
	}
	pr.list = after.list
	i := slices.Index(pr.list.rows, after)
	pr.list.rows = slices.Insert(pr.list.rows, i+1, pr)
}

func linesAt(m map[int]*patchLines, line int) *patchLines {
	l := m[line]
	if l == nil {
		l = &patchLines{}
		m[line] = l
	}
	return l
}

// lastRow is the row new rows of t go after: its last, else its %F line.
func (p *xerPatch) lastRow(t *xerTable) *patchRow {
	if n := len(t.rows); n > 0 {
		return p.row(t, t.rows[n-1])
	}
	if tail := p.tails[t]; tail != nil {
		return tail
	}
	for i := t.line; i < len(p.lines) && !bytes.HasPrefix(p.lines[i], []byte("%T")); i++ {
		if bytes.HasPrefix(p.lines[i], []byte("%F")) {
			return &patchRow{table: t, line: i + 1, cr: bytes.HasSuffix(p.lines[i], []byte("\r"))}
		}
	}
	return &patchRow{table: t, line: t.line, cr: bytes.HasSuffix(p.lines[t.line-1], []byte("\r"))}
}

// table is the file's table name, or one added with fields before the
// table that follows after in the file (the end marker when after is
// not in the file or the last), as P6 orders its tables.
func (p *xerPatch) table(name string, fields []string, after string) *xerTable {
	if t := p.tables[name]; t != nil {
		return t
	}
	end := len(p.lines) // the %E line, else the end
	for i, line := range p.lines {
		if bytes.HasPrefix(line, []byte("%E")) {
			end = i + 1
			break
		}
	}
	at := end
	if prev := p.tables[after]; prev != nil {
		for _, t := range p.tables {
			if t.line > prev.line && t.line < at && t.line > 0 {
				at = t.line
			}
		}
	}
	cr := at <= len(p.lines) && bytes.HasSuffix(p.lines[at-1], []byte("\r"))
	t := &xerTable{name: name, fields: map[string]int{}, names: fields}
	for i, f := range fields {
		t.fields[f] = i
	}
	list := linesAt(p.before, at)
	head := &patchRow{table: t, raw: []byte("%T\t" + name), cr: cr, list: list}
	tail := &patchRow{table: t, raw: []byte("%F\t" + strings.Join(fields, "\t")), cr: cr, list: list}
	list.rows = append(list.rows, head, tail)
	p.tables[name], p.tails[t] = t, tail
	return t
}

// next is the next free number of a table's id field: one more than the
// largest in the file or given out.
func (p *xerPatch) next(table, field string) string {
	key := table + "." + field
	n, ok := p.nextID[key]
	if !ok {
		if t := p.tables[table]; t != nil {
			for _, r := range t.rows {
				if v, err := strconv.Atoi(t.get(r, field)); err == nil && v >= n {
					n = v + 1
				}
			}
		}
		n = max(n, 1)
	}
	p.nextID[key] = n + 1
	return strconv.Itoa(n)
}

// reserve marks number n of a table's id field as taken.
func (p *xerPatch) reserve(table, field string, n int) {
	key := table + "." + field
	if _, ok := p.nextID[key]; !ok {
		next, _ := strconv.Atoi(p.next(table, field))
		p.nextID[key] = next
	}
	p.nextID[key] = max(p.nextID[key], n+1)
}

// hoursPerDay is the hours in a day of an activity's calendar as the
// reader divides by (the project's when it names none or one left out).
func (p *xerPatch) hoursPerDay(clndrID string) float64 {
	if h, ok := p.hours[clndrID]; ok {
		return h
	}
	if h, ok := p.hours[p.projCal]; ok {
		return h
	}
	return 8
}

// xerDate writes one of the schedule's dates (2026-01-05 or
// 2026-01-05T08:00) as P6 does.
func xerDate(v string) (string, error) {
	if v == "" {
		return "", nil
	}
	t, err := schedule.ParseStart(v)
	if err != nil {
		return "", err
	}
	return t.Format(xerDateLayout), nil
}

// --- activities ---

// removeActivities drops the removed activities' TASK rows and every row
// hanging off them: any row of a table with a task_id column naming one,
// links from them (pred_task_id), and their user-defined field values.
func (p *xerPatch) removeActivities() error {
	if len(p.e.removed) == 0 {
		return nil
	}
	gone := map[string]bool{}
	for id := range p.e.removed {
		if tid, ok := p.taskID[id]; ok {
			gone[tid] = true
		}
	}
	taskUDF := p.taskUDFTypes()
	for _, t := range p.tables {
		_, byTask := t.fields["task_id"]
		_, byPred := t.fields["pred_task_id"]
		isUDF := t.name == "UDFVALUE"
		if !byTask && !byPred && !isUDF {
			continue
		}
		for _, r := range t.rows {
			if byTask && gone[t.get(r, "task_id")] || byPred && gone[t.get(r, "pred_task_id")] ||
				isUDF && isTaskUDF(taskUDF, t.get(r, "udf_type_id")) && gone[t.get(r, "fk_id")] {
				p.dropped[r.line] = true
			}
		}
	}
	return nil
}

func isTaskUDF(types map[string]string, id string) bool {
	_, ok := types[id]
	return ok
}

// taskUDFTypes are the user-defined fields of TASK: udf_type_id -> label.
func (p *xerPatch) taskUDFTypes() map[string]string {
	if p.udfTypes == nil {
		p.udfTypes = map[string]string{}
		if ut := p.tables["UDFTYPE"]; ut != nil {
			for _, r := range ut.rows {
				if ut.get(r, "table_name") == "TASK" {
					p.udfTypes[ut.get(r, "udf_type_id")] = ut.get(r, "udf_type_label")
				}
			}
		}
	}
	return p.udfTypes
}

func (p *xerPatch) changeActivities() error {
	for _, i := range p.e.changed {
		a := &p.e.cur.Activities[i]
		b := &p.e.base.Activities[p.e.baseAt[a.ID]]
		pr := p.rowOf(a.ID)
		if pr == nil {
			return fmt.Errorf("activity %q has no TASK row in the file", a.ID)
		}
		if err := p.writeTask(pr, a, b); err != nil {
			return fmt.Errorf("activity %q: %w", a.ID, err)
		}
	}
	return nil
}

// writeTask writes the fields of a that differ from b (nil: a new row,
// every field) in its TASK row.
func (p *xerPatch) writeTask(pr *patchRow, a, b *schedule.Activity) error {
	isNew := b == nil
	if isNew {
		b = &schedule.Activity{}
	}
	id := p.get(pr, "task_id")
	if isNew || a.Name != b.Name {
		if _, ok := pr.table.fields["task_name"]; !ok {
			// A damaged file's TASK table (the reader named its
			// activities by their codes): the name has nowhere to go.
			return errors.New("the file's TASK table has no task_name field for the activity's name")
		}
		if err := p.set(pr, "task_name", a.Name); err != nil {
			return err
		}
	}
	if isNew || a.Calendar != b.Calendar {
		if clndr := p.calendarID(a.Calendar); clndr != "" {
			if err := p.set(pr, "clndr_id", clndr); err != nil {
				return err
			}
		}
	}
	if isNew || a.Type != b.Type || a.Duration != b.Duration {
		days, err := schedule.DurationDays(a.Duration)
		if err != nil {
			return fmt.Errorf("duration %q: %w", a.Duration, err)
		}
		if err := p.set(pr, "task_type", xerTaskType(a.Type, days, p.get(pr, "task_type"))); err != nil {
			return err
		}
	}
	if isNew || a.Duration != b.Duration || a.Remaining != b.Remaining || a.Calendar != b.Calendar || a.Type != b.Type ||
		a.ActualStart != b.ActualStart || a.ActualFinish != b.ActualFinish {
		if err := p.writeDurations(pr, a); err != nil {
			return err
		}
	}
	for k, c := range [2][2]*schedule.Constraint{{a.Constraint, b.Constraint}, {a.SecondaryConstraint, b.SecondaryConstraint}} {
		if !isNew && (c[0] == c[1] || c[0] != nil && c[1] != nil && *c[0] == *c[1]) {
			continue
		}
		typ, date, err := xerConstraint(c[0])
		if err != nil {
			return err
		}
		fields := [2][2]string{{"cstr_type", "cstr_date"}, {"cstr_type2", "cstr_date2"}}[k]
		if err := p.setAll(pr, fields[0], typ, fields[1], date); err != nil {
			return err
		}
	}
	if isNew || a.ActualStart != b.ActualStart || a.ActualFinish != b.ActualFinish {
		start, err := xerDate(a.ActualStart)
		if err != nil {
			return fmt.Errorf("actual start %q: %w", a.ActualStart, err)
		}
		finish, err := xerDate(a.ActualFinish)
		if err != nil {
			return fmt.Errorf("actual finish %q: %w", a.ActualFinish, err)
		}
		status := "TK_NotStart"
		switch {
		case start != "" && finish != "":
			status = "TK_Complete"
		case start != "":
			status, finish = "TK_Active", ""
		default:
			finish = ""
		}
		if err := p.setAll(pr, "status_code", status, "act_start_date", start, "act_end_date", finish); err != nil {
			return err
		}
	}
	if isNew || a.BaselineStart != b.BaselineStart || a.BaselineFinish != b.BaselineFinish {
		// The planned dates are the baseline the reader reads (a new
		// activity without one has none: P6 plans it when it schedules).
		start, err := xerDate(a.BaselineStart)
		if err != nil {
			return fmt.Errorf("baseline start %q: %w", a.BaselineStart, err)
		}
		finish, err := xerDate(a.BaselineFinish)
		if err != nil {
			return fmt.Errorf("baseline finish %q: %w", a.BaselineFinish, err)
		}
		if err := p.setAll(pr, "target_start_date", start, "target_end_date", finish); err != nil {
			return err
		}
	}
	if isNew || a.PercentComplete != b.PercentComplete {
		if err := p.set(pr, "phys_complete_pct", xerNumber(a.PercentComplete)); err != nil {
			return err
		}
	}
	if a.WBS != b.WBS && (a.WBS != "" || !isNew) {
		wbs, err := p.wbsID(a.WBS)
		if err != nil {
			return err
		}
		if err := p.set(pr, "wbs_id", wbs); err != nil {
			return err
		}
	}
	if !maps.Equal(a.Codes, b.Codes) {
		if err := p.writeCodes(pr, a.Codes); err != nil {
			return err
		}
	}
	if a.Description != b.Description {
		d := ""
		if a.Description != "" {
			d = jsonText(a.Description)
		}
		if err := p.setTaskUDF(id, "Description", d); err != nil {
			return err
		}
	}
	return nil
}

// writeDurations writes an activity's planned and remaining durations in
// hours of its calendar, and its duration as written when hours cannot
// say it (a distribution).
func (p *xerPatch) writeDurations(pr *patchRow, a *schedule.Activity) error {
	days, err := schedule.DurationDays(a.Duration)
	if err != nil {
		return fmt.Errorf("duration %q: %w", a.Duration, err)
	}
	milestone := false
	if typ := p.get(pr, "task_type"); typ == "TT_Mile" || typ == "TT_FinMile" {
		days, milestone = 0, true
	}
	remain := days
	if a.Remaining != "" {
		if remain, err = schedule.DurationDays(a.Remaining); err != nil {
			return fmt.Errorf("remaining duration %q: %w", a.Remaining, err)
		}
	}
	if a.ActualFinish != "" {
		remain = 0
	}
	hpd := p.activityHours(a.ID)
	if err := p.setAll(pr, "target_drtn_hr_cnt", xerNumber(days*hpd), "remain_drtn_hr_cnt", xerNumber(remain*hpd)); err != nil {
		return err
	}
	written := ""
	if formatDays(roundDays(days)) != a.Duration && !milestone {
		written = jsonText(a.Duration)
	}
	return p.setTaskUDF(p.get(pr, "task_id"), aliasDuration, written)
}

// xerTaskType is task_type for an activity of type t and days: the file's
// own code when it reads back as t, else the code the reader reads as t.
func xerTaskType(t schedule.ActivityType, days float64, current string) string {
	if known, ok := xerTaskTypes[current]; ok && current != "" && known == t && !(current == "TT_FinMile" && days != 0) {
		return current
	}
	switch t {
	case schedule.StartMilestone:
		return "TT_Mile"
	case schedule.FinishMilestone:
		return "TT_FinMile"
	case schedule.LevelOfEffort:
		return "TT_LOE"
	case schedule.WBSSummary:
		return "TT_WBS"
	case schedule.ResourceDependent:
		return "TT_Rsrc"
	}
	if days == 0 {
		return "TT_FinMile"
	}
	return "TT_Task"
}

// xerConstraint is a constraint's cstr_type and cstr_date ("" for none).
func xerConstraint(c *schedule.Constraint) (typ, date string, err error) {
	if c == nil {
		return "", "", nil
	}
	for code, t := range xerConstraints {
		if t == c.Type {
			typ = code
		}
	}
	if typ == "" {
		return "", "", fmt.Errorf("constraint %q has no P6 code", c.Type)
	}
	if date, err = xerDate(c.Date); err != nil {
		return "", "", fmt.Errorf("constraint date %q: %w", c.Date, err)
	}
	return typ, date, nil
}

// wbsID is the PROJWBS wbs_id of a WBS path as the reader builds it
// (wbs_short_names from the root down, joined by "."); "" is the
// project's root node. The nodes of a path the file does not have are
// added under the longest part of it that it has.
func (p *xerPatch) wbsID(path string) (string, error) {
	wt := p.tables["PROJWBS"]
	if wt == nil {
		if path == "" {
			return "", nil
		}
		return "", fmt.Errorf("WBS %q: the file has no PROJWBS table to add it to", path)
	}
	if p.wbsAt == nil {
		p.wbsAt = map[string]string{}
		for _, r := range wt.rows {
			if wt.get(r, "proj_id") != p.projID {
				continue
			}
			id := wt.get(r, "wbs_id")
			at := p.live.wbsPath[id]
			if wt.get(r, "proj_node_flag") == "Y" {
				at = ""
			}
			if _, ok := p.wbsAt[at]; !ok {
				p.wbsAt[at], p.wbsRow[id] = id, p.row(wt, r)
			}
		}
	}
	if id, ok := p.wbsAt[path]; ok {
		return id, nil
	}
	root, ok := p.wbsAt[""]
	if !ok {
		return "", fmt.Errorf("WBS %q: the project has no root PROJWBS node to add it under", path)
	}
	parts := strings.Split(path, ".")
	parent, have := root, 0
	for k := len(parts) - 1; k > 0; k-- {
		if id, ok := p.wbsAt[strings.Join(parts[:k], ".")]; ok {
			parent, have = id, k
			break
		}
	}
	template := p.wbsRow[parent]
	for k := have; k < len(parts); k++ {
		id := p.next("PROJWBS", "wbs_id")
		pr := p.newRow(wt, template, p.lastRow(wt))
		if err := p.setAll(pr, "wbs_id", id, "parent_wbs_id", parent, "proj_node_flag", "N", "wbs_short_name", parts[k],
			"wbs_name", parts[k], "guid", newP6GUID(), "tmpl_guid", ""); err != nil {
			return "", fmt.Errorf("WBS %q: %w", path, err)
		}
		p.wbsAt[strings.Join(parts[:k+1], ".")], p.wbsRow[id] = id, pr
		parent, template = id, pr
	}
	return parent, nil
}

// writeCodes makes a task's TASKACTV rows say codes: rows of code types
// whose value changed or went are dropped, rows for new values added.
func (p *xerPatch) writeCodes(task *patchRow, codes map[string]string) error {
	tid := p.get(task, "task_id")
	have := map[string]string{}
	ta := p.tables["TASKACTV"]
	if ta != nil {
		for _, r := range ta.rows {
			if ta.get(r, "task_id") != tid || p.dropped[r.line] {
				continue
			}
			c, ok := p.live.codes[ta.get(r, "actv_code_id")]
			if !ok || c[0] == "" {
				continue
			}
			if v, want := codes[c[0]]; want && v == c[1] && have[c[0]] == "" {
				have[c[0]] = c[1]
				continue
			}
			p.dropped[r.line] = true
		}
	}
	for _, typ := range slices.Sorted(maps.Keys(codes)) {
		if have[typ] != "" {
			continue
		}
		typeID, codeID, err := p.codeIDs(typ, codes[typ])
		if err != nil {
			return err
		}
		ta := p.table("TASKACTV", []string{"task_id", "actv_code_type_id", "actv_code_id", "proj_id"}, "TASK")
		pr := p.newRow(ta, nil, p.lastRow(ta))
		if err := p.setAll(pr, "task_id", tid, "actv_code_type_id", typeID, "actv_code_id", codeID, "proj_id", p.get(task, "proj_id")); err != nil {
			return err
		}
	}
	return nil
}

// codeIDs finds an activity code value's type and code ids, as the reader
// names them (ACTVTYPE actv_code_type; ACTVCODE short_name, else
// actv_code_name), adding the type and the value when the file has not
// got them.
func (p *xerPatch) codeIDs(typ, value string) (typeID, codeID string, err error) {
	if p.codeTypes == nil {
		p.codeTypes, p.typeOfCode = map[string]string{}, map[string]string{}
		if at := p.tables["ACTVTYPE"]; at != nil {
			for _, r := range at.rows {
				if name := at.text(r, "actv_code_type"); p.codeTypes[name] == "" {
					p.codeTypes[name] = at.get(r, "actv_code_type_id")
				}
			}
		}
		if ac := p.tables["ACTVCODE"]; ac != nil {
			for _, r := range ac.rows {
				p.typeOfCode[ac.get(r, "actv_code_id")] = ac.get(r, "actv_code_type_id")
			}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(p.live.codes)) {
		if c := p.live.codes[id]; c[0] == typ && c[1] == value {
			return p.typeOfCode[id], id, nil
		}
	}
	if typeID = p.codeTypes[typ]; typeID == "" {
		at := p.table("ACTVTYPE", []string{"actv_code_type_id", "actv_short_len", "seq_num", "actv_code_type", "proj_id", "wbs_id", "actv_code_type_scope"}, "PROJWBS")
		typeID = p.next("ACTVTYPE", "actv_code_type_id")
		pr := p.newRow(at, nil, p.lastRow(at))
		if err := p.setAll(pr, "actv_code_type_id", typeID, "actv_short_len", "20", "seq_num", "0", "actv_code_type", typ,
			"proj_id", p.projID, "actv_code_type_scope", "AS_Project"); err != nil {
			return "", "", fmt.Errorf("activity code type %q: %w", typ, err)
		}
		p.codeTypes[typ] = typeID
	}
	ac := p.table("ACTVCODE", []string{"actv_code_id", "parent_actv_code_id", "actv_code_type_id", "actv_code_name", "short_name", "seq_num", "color"}, "TASK")
	codeID = p.next("ACTVCODE", "actv_code_id")
	pr := p.newRow(ac, nil, p.lastRow(ac))
	if err := p.setAll(pr, "actv_code_id", codeID, "actv_code_type_id", typeID, "actv_code_name", value, "short_name", value, "seq_num", "0"); err != nil {
		return "", "", fmt.Errorf("activity code %s = %q: %w", typ, value, err)
	}
	p.live.codes[codeID] = [2]string{typ, value}
	p.typeOfCode[codeID] = typeID
	return typeID, codeID, nil
}

// setTaskUDF sets (or with "" removes) a task's user-defined text field
// with the given label, as the reader reads Description and the duration
// as written. A label the file has no UDFTYPE for is added to it only
// when there is a value to hold.
func (p *xerPatch) setTaskUDF(taskID, label, text string) error {
	typeID := ""
	for id, l := range p.taskUDFTypes() {
		if l == label && (typeID == "" || id < typeID) {
			typeID = id
		}
	}
	if pr := p.newUDF[[2]string{typeID, taskID}]; pr != nil {
		return p.set(pr, "udf_text", text)
	}
	uv := p.tables["UDFVALUE"]
	if typeID != "" && uv != nil {
		for _, r := range uv.rows {
			if uv.get(r, "udf_type_id") == typeID && uv.get(r, "fk_id") == taskID && !p.dropped[r.line] {
				if text == "" {
					p.dropped[r.line] = true
					return nil
				}
				return p.set(p.row(uv, r), "udf_text", text)
			}
		}
	}
	if text == "" {
		return nil
	}
	ut := p.table("UDFTYPE", []string{"udf_type_id", "table_name", "udf_type_name", "udf_type_label", "logical_data_type", "super_flag",
		"indicator_expression", "summary_indicator_expression", "export_flag"}, "")
	uv = p.table("UDFVALUE", []string{"udf_type_id", "fk_id", "proj_id", "udf_date", "udf_number", "udf_text", "udf_code_id"}, "")
	if typeID == "" {
		typeID = p.next("UDFTYPE", "udf_type_id")
		pr := p.newRow(ut, nil, p.lastRow(ut))
		if err := p.setAll(pr, "udf_type_id", typeID, "table_name", "TASK", "udf_type_name", "user_field_"+typeID,
			"udf_type_label", label, "logical_data_type", "FT_TEXT", "super_flag", "N"); err != nil {
			return err
		}
		p.udfTypes[typeID] = label
	}
	pr := p.newRow(uv, nil, p.lastRow(uv))
	p.newUDF[[2]string{typeID, taskID}] = pr
	return p.setAll(pr, "udf_type_id", typeID, "fk_id", taskID, "proj_id", p.projID, "udf_text", text)
}

// --- added activities ---

// xerGeneratedID is an activity id made here (schedule.DerivedID): not a code
// a planner would see in P6, so the new row gets one in the file's style.
var xerGeneratedID = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// xerTaskDefaults are the TASK columns a new row keeps from the row it is
// copied from: the project's settings, not the copied activity's own
// data. Every other column starts empty (quantities 0).
var xerTaskDefaults = map[string]bool{
	"proj_id": true, "wbs_id": true, "clndr_id": true, "est_wt": true, "rev_fdbk_flag": true, "lock_plan_flag": true,
	"auto_compute_act_flag": true, "complete_pct_type": true, "task_type": true, "duration_type": true,
	"priority_type": true, "create_user": true, "update_user": true, "location_id": true,
}

// addActivities writes a TASK row for each added activity, copied from
// its template (see template) and placed after it.
func (p *xerPatch) addActivities() error {
	if len(p.e.added) == 0 {
		return nil
	}
	tt := p.tables["TASK"]
	taken := map[string]bool{}
	for _, r := range tt.rows {
		taken[tt.text(r, "task_code")] = true
	}
	for _, a := range p.e.cur.Activities {
		taken[a.ID] = true
	}
	preds := map[string][]string{}
	for _, r := range p.e.cur.Relationships {
		preds[r.Successor] = append(preds[r.Successor], r.Predecessor)
	}
	now := time.Now().UTC().Format(xerDateLayout)
	for _, i := range p.e.added {
		a := &p.e.cur.Activities[i]
		template := p.template(i, preds[a.ID])
		if template == nil {
			return fmt.Errorf("new activity %q: the file has no TASK row to copy its project's settings from", a.ID)
		}
		pr := p.newRow(tt, template, template)
		for f, j := range tt.fields {
			switch {
			case j >= len(pr.values) || xerTaskDefaults[f]:
			case strings.HasSuffix(f, "_qty") || strings.HasSuffix(f, "_cost"):
				pr.values[j] = []byte("0")
			default:
				pr.values[j] = nil
			}
		}
		code := a.ID
		if xerGeneratedID.MatchString(code) {
			code = p.nextCode(p.get(template, "task_code"), taken)
		}
		taken[code] = true
		tid := p.next("TASK", "task_id")
		p.newTask[a.ID], p.taskID[a.ID] = pr, tid
		if err := p.setAll(pr, "task_id", tid, "task_code", code, "guid", newP6GUID(), "status_code", "TK_NotStart",
			"driving_path_flag", "N", "rev_fdbk_flag", "N", "create_date", now, "update_date", now); err != nil {
			return fmt.Errorf("new activity %q: %w", a.ID, err)
		}
		if err := p.writeTask(pr, a, nil); err != nil {
			return fmt.Errorf("new activity %q: %w", a.ID, err)
		}
	}
	return nil
}

// template is the TASK row a new activity (cur's i-th) is copied from and
// placed after: its first predecessor's, else its nearest neighbour's in
// cur's order, else the project's first.
func (p *xerPatch) template(i int, preds []string) *patchRow {
	for _, id := range preds {
		if pr := p.rowOf(id); pr != nil && !p.e.removed[id] {
			return pr
		}
	}
	acts := p.e.cur.Activities
	for d := 1; d < len(acts); d++ {
		for _, j := range [2]int{i - d, i + d} {
			if j >= 0 && j < len(acts) {
				if pr := p.rowOf(acts[j].ID); pr != nil {
					return pr
				}
			}
		}
	}
	tt := p.tables["TASK"]
	for _, r := range tt.rows {
		if p.ofProject(tt, r) && !p.dropped[r.line] {
			return p.row(tt, r)
		}
	}
	return nil
}

var codeNumber = regexp.MustCompile(`^(.*?)([0-9]{1,9})$`)

// nextCode is a free task_code in from's pattern: its number plus the
// project's code step (PROJECT task_code_step, P6's own numbering; 10 when
// the file has none), else the first free number after it.
func (p *xerPatch) nextCode(from string, taken map[string]bool) string {
	prefix, digits := from, ""
	if m := codeNumber.FindStringSubmatch(from); m != nil {
		prefix, digits = m[1], m[2]
	}
	n, _ := strconv.Atoi(digits)
	step := 10
	if proj := p.tables["PROJECT"]; proj != nil {
		if v, err := strconv.Atoi(proj.get(proj.rows[0], "task_code_step")); err == nil && v > 0 {
			step = v
		}
	}
	code := func(v int) string { return fmt.Sprintf("%s%0*d", prefix, len(digits), v) }
	if c := code(n + step); !taken[c] {
		return c
	}
	for v := n + 1; ; v++ {
		if c := code(v); !taken[c] {
			return c
		}
	}
}

// newP6GUID is a fresh guid as P6 writes them: 16 random bytes in base64,
// without padding.
func newP6GUID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return base64.RawStdEncoding.EncodeToString(b[:])
}

// activityHours is the hours in a day of an activity's calendar in cur.
func (p *xerPatch) activityHours(id string) float64 {
	clndr := ""
	if i, ok := p.e.curAt[id]; ok {
		clndr = p.e.cur.Activities[i].Calendar
	}
	return p.hoursPerDay(p.calendarID(clndr))
}

// calendarID is the clndr_id of a calendar of the schedule ("": the
// project's): its key, or the id of the row added for it.
func (p *xerPatch) calendarID(key string) string {
	if key == "" {
		return p.projCal
	}
	if id, ok := p.newCalendar[key]; ok {
		return id
	}
	return key
}

// --- relationships ---

// relationships removes, changes and adds TASKPRED rows. A base
// relationship's row is the one linking its two tasks with its type (the
// reader refuses a file with two).
func (p *xerPatch) relationships() error {
	e := p.e
	if len(e.relRemoved)+len(e.relAdded)+len(e.relChanged) == 0 {
		return nil
	}
	pt := p.tables["TASKPRED"]
	for id := range e.relRemoved {
		if pr := p.linkRow(e.base.Relationships[e.baseRelAt[id]]); pr != nil {
			p.dropped[pr.line] = true
		}
	}
	for _, i := range e.relChanged {
		c := e.cur.Relationships[i]
		b := e.base.Relationships[e.baseRelAt[c.ID]]
		pr := p.linkRow(b)
		if pr == nil {
			return fmt.Errorf("relationship %s: no TASKPRED row links %s to %s", c.ID, b.Predecessor, b.Successor)
		}
		if err := p.writeLink(pr, c); err != nil {
			return err
		}
	}
	if len(e.relAdded) == 0 {
		return nil
	}
	var template, last *patchRow
	if pt == nil {
		pt = p.table("TASKPRED", []string{"task_pred_id", "task_id", "pred_task_id", "proj_id", "pred_proj_id", "pred_type", "lag_hr_cnt"}, "TASK")
	} else if len(pt.rows) > 0 {
		template = p.row(pt, pt.rows[0])
	}
	last = p.lastRow(pt)
	for _, i := range e.relAdded {
		c := e.cur.Relationships[i]
		pr := p.newRow(pt, template, last)
		last = pr
		for _, f := range []string{"float_path", "aref", "arls", "comments"} {
			if j, ok := pt.fields[f]; ok && j < len(pr.values) {
				pr.values[j] = nil
			}
		}
		if err := p.setAll(pr, "task_pred_id", p.next("TASKPRED", "task_pred_id"), "proj_id", p.projectOf(c.Successor),
			"pred_proj_id", p.projectOf(c.Predecessor)); err != nil {
			return err
		}
		if err := p.writeLink(pr, c); err != nil {
			return err
		}
	}
	return nil
}

// linkRow is the TASKPRED row of a base relationship, ready to be edited;
// nil when there is none (or it is dropped). It is the row linking its
// two tasks with its type: the reader refuses a file with two.
func (p *xerPatch) linkRow(r schedule.Relationship) *patchRow {
	pt := p.tables["TASKPRED"]
	if pt == nil {
		return nil
	}
	if p.linkAt == nil {
		p.linkAt = map[string]xerRow{}
		for _, r := range pt.rows {
			key := pt.get(r, "task_id") + "|" + pt.get(r, "pred_task_id") + "|" + xerLinkType(pt.get(r, "pred_type"))
			if _, ok := p.linkAt[key]; !ok {
				p.linkAt[key] = r
			}
		}
	}
	row, ok := p.linkAt[p.taskID[r.Successor]+"|"+p.taskID[r.Predecessor]+"|"+string(r.Type)]
	if !ok || p.dropped[row.line] {
		return nil
	}
	return p.row(pt, row)
}

// projectOf is an activity's proj_id.
func (p *xerPatch) projectOf(id string) string {
	if pr := p.rowOf(id); pr != nil {
		if v := p.get(pr, "proj_id"); v != "" {
			return v
		}
	}
	return p.projID
}

// writeLink writes a relationship's ends, type and lag in its row.
func (p *xerPatch) writeLink(pr *patchRow, r schedule.Relationship) error {
	succ, pred := p.taskID[r.Successor], p.taskID[r.Predecessor]
	if succ == "" || pred == "" {
		return fmt.Errorf("relationship %s: %s or %s has no TASK row", r.ID, r.Predecessor, r.Successor)
	}
	return p.setAll(pr, "task_id", succ, "pred_task_id", pred, "pred_type", "PR_"+string(r.Type),
		"lag_hr_cnt", xerNumber(r.Lag*p.activityHours(r.Successor)))
}

// xerLinkType is the type pred_type reads as (see xerSchedule).
func xerLinkType(v string) string {
	if v == "" {
		return string(schedule.FS)
	}
	return strings.TrimPrefix(v, "PR_")
}

// --- computed columns ---

// computed writes the dates and floats our CPM moved in the columns P6
// computes: early and late dates, floats, and an unfinished activity's
// remaining dates.
func (p *xerPatch) computed() error {
	added := map[string]bool{}
	for _, i := range p.e.added {
		added[p.e.cur.Activities[i].ID] = true
	}
	for id, d := range p.e.dates {
		pr := p.rowOf(id)
		i, ok := p.e.curAt[id]
		if pr == nil || !ok {
			continue
		}
		date := func(t time.Time) string {
			if t.IsZero() {
				return ""
			}
			return t.Format(xerDateLayout)
		}
		es, ef, ls, lf := date(d.ES), date(d.EF), date(d.LS), date(d.LF)
		hpd := p.activityHours(id)
		unfinished := p.e.cur.Activities[i].ActualFinish == ""
		// Only the fields the changes moved: P6's other values stay as
		// P6 computed them (or left them empty).
		for _, f := range []struct {
			moved           dateMask
			column, value   string
			remainingColumn string
		}{
			{movedES, "early_start_date", es, "restart_date"},
			{movedEF, "early_end_date", ef, "reend_date"},
			{movedLS, "late_start_date", ls, "rem_late_start_date"},
			{movedLF, "late_end_date", lf, "rem_late_end_date"},
			{movedTotalFloat, "total_float_hr_cnt", xerNumber(d.TotalFloat * hpd), ""},
			{movedFreeFloat, "free_float_hr_cnt", xerNumber(d.FreeFloat * hpd), ""},
		} {
			if !d.Moved.has(f.moved) {
				continue
			}
			if err := p.set(pr, f.column, f.value); err != nil {
				return err
			}
			if unfinished && f.remainingColumn != "" {
				if err := p.set(pr, f.remainingColumn, f.value); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// --- the project ---

// meta writes the project's name, start, data date, calendars and
// scheduling options where the reader reads them.
func (p *xerPatch) meta() error {
	base, cur := p.e.base, p.e.cur
	proj := p.tables["PROJECT"]
	pr := p.row(proj, proj.rows[0])
	if base.Name != cur.Name {
		if err := p.writeName(pr, cur.Name); err != nil {
			return err
		}
	}
	if base.StartDate != cur.StartDate {
		v, err := xerDate(cur.StartDate)
		if err != nil {
			return fmt.Errorf("start date %q: %w", cur.StartDate, err)
		}
		if err := p.set(pr, "plan_start_date", v); err != nil {
			return err
		}
	}
	if base.DataDate != cur.DataDate {
		v, err := xerDate(cur.DataDate)
		if err != nil {
			return fmt.Errorf("data date %q: %w", cur.DataDate, err)
		}
		fields := []string{"last_recalc_date"}
		if p.get(pr, "next_data_date") != "" {
			if v == "" || p.get(pr, "last_recalc_date") == "" {
				fields = append(fields, "next_data_date")
			}
		}
		for _, f := range fields {
			if err := p.set(pr, f, v); err != nil {
				return err
			}
		}
	}
	return p.options()
}

// writeName writes the schedule's name where the reader reads it: the
// project's root PROJWBS node's wbs_name, else proj_short_name.
func (p *xerPatch) writeName(proj *patchRow, name string) error {
	if wt := p.tables["PROJWBS"]; wt != nil {
		for _, r := range wt.rows {
			if wt.get(r, "proj_id") == p.projID && wt.get(r, "proj_node_flag") == "Y" && wt.get(r, "wbs_name") != "" {
				return p.set(p.row(wt, r), "wbs_name", name)
			}
		}
	}
	return p.set(proj, "proj_short_name", name)
}

// calendars rewrites the clndr_data, name and hours a day of each
// calendar that changed, and adds a CALENDAR row for each new one (copied
// from the project's, with the next clndr_id unless its key is a free
// one). A calendar whose hours a day changed has every duration and lag
// counted in it written again (see rehour): P6 keeps them in hours.
func (p *xerPatch) calendars() error {
	base, cur := p.e.base, p.e.cur
	ct := p.tables["CALENDAR"]
	rowOf := map[string]xerRow{}
	if ct != nil {
		for _, r := range ct.rows {
			if id := ct.get(r, "clndr_id"); id != "" {
				if _, ok := rowOf[id]; !ok {
					rowOf[id] = r
				}
			}
		}
	}
	for key := range cur.Calendars {
		if n, err := strconv.Atoi(key); err == nil && n > 0 {
			p.reserve("CALENDAR", "clndr_id", n) // a new calendar may take its key as its id
		}
	}
	write := func(key string, c *schedule.Calendar) error {
		work, err := c.Compile()
		if err != nil {
			return fmt.Errorf("calendar %q: %w", key, err)
		}
		hpd := work.MinutesPerDay() / 60
		var pr *patchRow
		id := p.calendarID(key)
		if r, ok := rowOf[id]; ok {
			pr = p.row(ct, r)
		} else {
			if ct == nil || len(ct.rows) == 0 {
				return fmt.Errorf("calendar %q: the file has no CALENDAR row to copy", key)
			}
			template := p.row(ct, ct.rows[0])
			if r, ok := rowOf[p.projCal]; ok {
				template = p.row(ct, r)
			}
			if _, err := strconv.Atoi(key); err != nil || key == "" {
				id = p.next("CALENDAR", "clndr_id")
				p.newCalendar[key] = id
			}
			pr = p.newRow(ct, template, p.lastRow(ct))
			if err := p.setAll(pr, "clndr_id", id, "default_flag", "N"); err != nil {
				return err
			}
		}
		if err := p.set(pr, "clndr_data", xerClndrData(c)); err != nil {
			return fmt.Errorf("calendar %q: %w", key, err)
		}
		if c != nil && c.Name != "" && key != "" {
			if err := p.set(pr, "clndr_name", c.Name); err != nil {
				return fmt.Errorf("calendar %q: %w", key, err)
			}
		}
		if old, ok := p.hours[id]; !ok || math.Abs(old-hpd) > 1e-9 {
			p.hours[id] = hpd
			p.rehoured[id] = true
			return p.setAll(pr, "day_hr_cnt", xerNumber(hpd), "week_hr_cnt", xerNumber(hpd*float64(workdayCount(work))))
		}
		return nil
	}
	if !jsonEqual(base.Calendar, cur.Calendar) && p.projCal != "" {
		if err := write("", cur.Calendar); err != nil {
			return err
		}
	}
	for _, key := range slices.Sorted(maps.Keys(cur.Calendars)) {
		if c := cur.Calendars[key]; !jsonEqual(base.Calendars[key], c) {
			if err := write(key, c); err != nil {
				return err
			}
		}
	}
	return nil
}

// rehour writes again the durations of the activities whose calendar's
// hours a day changed, and the lags of the links into them and into the
// activities moved to another calendar: P6 keeps them in hours, which the
// reader divides by the successor's hours a day.
func (p *xerPatch) rehour() error {
	e := p.e
	relag := map[string]bool{}
	for _, i := range e.changed {
		a := &e.cur.Activities[i]
		if a.Calendar != e.base.Activities[e.baseAt[a.ID]].Calendar {
			relag[a.ID] = true
		}
	}
	for i := range e.cur.Activities {
		a := &e.cur.Activities[i]
		if !p.rehoured[p.calendarID(a.Calendar)] {
			continue
		}
		relag[a.ID] = true
		if pr := p.rowOf(a.ID); pr != nil {
			if err := p.writeDurations(pr, a); err != nil {
				return fmt.Errorf("activity %q: %w", a.ID, err)
			}
		}
	}
	if len(relag) == 0 {
		return nil
	}
	for _, r := range e.cur.Relationships {
		j, ok := e.baseRelAt[r.ID]
		if !relag[r.Successor] || !ok {
			continue // an added link is written with the new hours
		}
		if pr := p.linkRow(e.base.Relationships[j]); pr != nil {
			if err := p.writeLink(pr, r); err != nil {
				return err
			}
		}
	}
	return nil
}

// options writes the scheduling options in the project's SCHEDOPTIONS row
// (see newXERLive).
func (p *xerPatch) options() error {
	b, c := p.e.base.Options, p.e.cur.Options
	so := p.tables["SCHEDOPTIONS"]
	if jsonEqual(b, c) || c == nil || so == nil {
		return nil
	}
	for _, r := range so.rows {
		if id := so.get(r, "proj_id"); id != p.projID && id != "" {
			continue
		}
		pr := p.row(so, r)
		code := func(m map[string]string, v string) string {
			for k, x := range m {
				if x == v {
					return k
				}
			}
			return ""
		}
		override, retained := "N", "Y"
		switch c.Progress {
		case schedule.ProgressOverride:
			override = "Y"
		case schedule.ActualDates:
			retained = "N"
		}
		open := "N"
		if c.OpenEndsCritical {
			open = "Y"
		}
		return p.setAll(pr, "sched_calendar_on_relationship_lag", code(xerLagCalendars, c.LagCalendar),
			"sched_progress_override", override, "sched_retained_logic", retained,
			"sched_float_type", code(xerFloatTypes, c.Float), "sched_open_critical_flag", open)
	}
	return nil
}

// --- output ---

// write writes the file: every line as it was but those dropped or
// edited, with the new rows after theirs, in the file's encoding.
func (p *xerPatch) write(w io.Writer, progress Progress) error {
	var out bytes.Buffer
	out.Grow(len(p.bom) + len(p.lines)*64)
	out.Write(p.bom)
	tt := p.tables["TASK"]
	firstTask, lastTask := 0, -1
	if len(tt.rows) > 0 {
		firstTask, lastTask = tt.rows[0].line, tt.rows[len(tt.rows)-1].line
	}
	total, done := len(p.e.cur.Activities), 0
	tick := func(t *xerTable) {
		if t == tt && progress != nil {
			if done%1000 == 0 {
				progress(min(done, total), total)
			}
			done++
		}
	}
	row := func(pr *patchRow) {
		if pr.raw != nil {
			out.Write(pr.raw)
		} else {
			out.WriteString("%R")
			for _, v := range pr.values {
				out.WriteByte('\t')
				out.Write(v)
			}
		}
		if pr.cr {
			out.WriteByte('\r')
		}
	}
	lines := func(l *patchLines) {
		if l == nil {
			return
		}
		for _, pr := range l.rows {
			tick(pr.table)
			row(pr)
			out.WriteByte('\n')
		}
	}
	for i, line := range p.lines {
		n := i + 1
		lines(p.before[n])
		if !p.dropped[n] {
			if n >= firstTask && n <= lastTask {
				tick(tt)
			}
			if pr := p.edited[n]; pr != nil {
				row(pr)
			} else {
				out.Write(line)
			}
			if i < len(p.lines)-1 || p.after[n] != nil { // rows after a last line need its break
				out.WriteByte('\n')
			}
		}
		lines(p.after[n])
	}
	if progress != nil {
		progress(total, total)
	}
	data := out.Bytes()
	if p.utf16 != "" {
		data = encodeUTF16(data, p.utf16 == "UTF-16BE")
	}
	_, err := w.Write(data)
	return err
}
