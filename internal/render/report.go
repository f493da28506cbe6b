// Package render turns CPM results into what people and scripts read: the
// JSON report of DESIGN.md and a plain-text table (later: Gantt HTML, DOT).
package render

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/autoscheduler/autoscheduler/internal/parallel"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Report pairs a schedule with its CPM result and, when the schedule has a
// start date, the calendar clock that dates it.
type Report struct {
	Schedule *schedule.Schedule
	Result   *schedule.Result
	Clock    *schedule.Clock // nil when the schedule has no start date
}

// NewReport computes CPM for s.
func NewReport(s *schedule.Schedule) (*Report, error) {
	n, err := schedule.Compile(s)
	if err != nil {
		return nil, err
	}
	return NewReportOf(s, n)
}

// NewReportOf computes CPM on n, the compiled network of s. A schedule with
// a start date whose finish is past the calendar's range (see
// schedule.MaxCalendarDays) is a *schedule.DateRangeError: its dates would
// otherwise all stop at the range's end.
func NewReportOf(s *schedule.Schedule, n *schedule.Network) (*Report, error) {
	rep := &Report{Schedule: s, Result: n.Compute()}
	var err error
	if s.StartDate != "" {
		if rep.Clock, err = schedule.NewClock(s.StartDate, s.Calendar); err != nil {
			return nil, err
		}
	}
	if err := rep.check(); err != nil {
		return nil, err
	}
	return rep, nil
}

// check refuses what the report cannot write truthfully: a time that is
// not a finite number (JSON has no Inf or NaN; schedule limits keep CPM
// finite, but a Report can be built by hand) and a finish past the
// calendar's range, where dates would stop at the range's end.
func (r *Report) check() error {
	res := r.Result
	if !finite(res.ProjectDuration) {
		return fmt.Errorf("project duration %v is not a finite number of working days", res.ProjectDuration)
	}
	for i := range r.Schedule.Activities {
		for _, v := range [...]float64{res.ES[i], res.EF[i], res.LS[i], res.LF[i], res.TotalFloat[i], res.FreeFloat[i]} {
			if !finite(v) {
				return fmt.Errorf("activity %q: a CPM time of %v is not a finite number of working days", r.Schedule.Activities[i].ID, v)
			}
		}
	}
	if r.Clock != nil {
		if err := r.Clock.Check(res.ProjectDuration); err != nil {
			return fmt.Errorf("dating the schedule: %w", err)
		}
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// round trims binary noise (0.30000000000000004) from reported times.
// Beyond 2^53 millionths a float holds no digit to trim (and v*1e6 could
// overflow): such a value is kept as it is.
func round(v float64) float64 { return schedule.RoundDays(v) }

func appendNumber(b []byte, v float64) []byte {
	r := round(v)
	// Most schedule times are whole days: integer formatting is several
	// times faster than the shortest-float algorithm, with the same text.
	if i := int64(r); float64(i) == r && i > -1<<53 && i < 1<<53 {
		return strconv.AppendInt(b, i, 10)
	}
	// The rest are millionths (round): below 1e8 a double's spacing is
	// under 1e-8, so the shortest text that reads back as r is its
	// millionths with the trailing zeros cut — what AppendFloat finds,
	// written without its search.
	if math.Abs(r) < 1e8 {
		m := int64(math.Round(r * 1e6))
		if m < 0 {
			b = append(b, '-')
			m = -m
		}
		b = strconv.AppendInt(b, m/1e6, 10)
		frac := m % 1e6
		if frac == 0 { // not reached: r is not whole
			return b
		}
		digits := 6
		for frac%10 == 0 {
			frac /= 10
			digits--
		}
		b = append(b, '.')
		for p := digits - 1; p >= 0; p-- {
			b = append(b, byte('0'+frac/pow10[p]%10))
		}
		return b
	}
	return strconv.AppendFloat(b, r, 'f', -1, 64)
}

// pow10 are the powers of ten below a million.
var pow10 = [6]int64{1, 10, 100, 1000, 10000, 100000}

// WriteJSON writes the CPM report of DESIGN.md. It is hand-encoded: for a
// 100k-activity schedule it is several times faster than encoding/json, and
// the key order is part of the contract.
//
// Nothing is written when a time is not finite or the schedule's finish is
// past the calendar's range (see NewReportOf): the report is always JSON and
// its dates are never silently clamped.
func (r *Report) WriteJSON(w io.Writer) error {
	if err := r.check(); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	res := r.Result
	b := make([]byte, 0, 1024)
	b = append(b, `{"project_duration": `...)
	b = appendNumber(b, res.ProjectDuration)
	b = append(b, `, "critical_path": [`...)
	for i, id := range res.CriticalPath() {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendString(b, id)
	}
	b = append(b, "],\n \"activities\": ["...)
	if _, err := bw.Write(b); err != nil {
		return err
	}
	// Each row's dates come from the clock check extended to the
	// project's finish, so formatting rows only reads it (rows are
	// formatted on several goroutines).
	if err := writeRows(bw, len(r.Schedule.Activities), r.appendRow); err != nil {
		return err
	}
	b = append(b[:0], "\n]}\n"...)
	if _, err := bw.Write(b); err != nil {
		return err
	}
	return bw.Flush()
}

// appendRow writes activity i's object of the report's activities list.
func (r *Report) appendRow(b []byte, i int) []byte {
	res := r.Result
	a := &r.Schedule.Activities[i]
	if i > 0 {
		b = append(b, ',')
	}
	b = append(b, "\n  {\"id\": "...)
	b = appendString(b, a.ID)
	b = append(b, `, "name": `...)
	b = appendString(b, a.Name)
	b = append(b, `, "duration": `...)
	b = appendNumber(b, res.EF[i]-res.ES[i])
	for _, f := range []struct {
		key string
		v   float64
	}{
		{"early_start", res.ES[i]}, {"early_finish", res.EF[i]},
		{"late_start", res.LS[i]}, {"late_finish", res.LF[i]},
		{"total_float", res.TotalFloat[i]}, {"free_float", res.FreeFloat[i]},
	} {
		b = append(b, `, "`...)
		b = append(b, f.key...)
		b = append(b, `": `...)
		b = appendNumber(b, f.v)
	}
	b = append(b, `, "critical": `...)
	b = strconv.AppendBool(b, res.Critical(i))
	if c := r.Clock; c != nil {
		b = appendDate(b, "early_start_date", res.At(c, i, schedule.EarlyStart))
		b = appendDate(b, "early_finish_date", res.At(c, i, schedule.EarlyFinish))
		b = appendDate(b, "late_start_date", res.At(c, i, schedule.LateStart))
		b = appendDate(b, "late_finish_date", res.At(c, i, schedule.LateFinish))
	}
	b = appendLive(b, a, res.TotalFloat[i])
	return append(b, '}')
}

// appendLive writes the live programme's fields an activity has (issue
// 28), after the CPM figures: none for a plain logic network, so its
// report is unchanged. negative_float marks a constraint the logic cannot
// meet.
func appendLive(b []byte, a *schedule.Activity, totalFloat float64) []byte {
	text := func(key, v string) {
		if v != "" {
			b = append(b, `, "`...)
			b = append(b, key...)
			b = append(b, `": `...)
			b = appendString(b, v)
		}
	}
	constraint := func(key string, c *schedule.Constraint) {
		if c != nil {
			b = append(b, `, "`...)
			b = append(b, key...)
			b = append(b, `": {"type": `...)
			b = appendString(b, string(c.Type))
			if c.Date != "" {
				b = append(b, `, "date": `...)
				b = appendString(b, c.Date)
			}
			b = append(b, '}')
		}
	}
	text("type", string(a.Type))
	text("calendar", a.Calendar)
	constraint("constraint", a.Constraint)
	constraint("secondary_constraint", a.SecondaryConstraint)
	text("actual_start", a.ActualStart)
	text("actual_finish", a.ActualFinish)
	text("remaining", a.Remaining)
	if a.PercentComplete != 0 {
		b = append(b, `, "percent_complete": `...)
		b = appendNumber(b, a.PercentComplete)
	}
	text("wbs", a.WBS)
	if totalFloat < -schedule.Epsilon {
		b = append(b, `, "negative_float": true`...)
	}
	return b
}

func appendDate(b []byte, key string, t time.Time) []byte {
	b = append(b, `, "`...)
	b = append(b, key...)
	b = append(b, `": "`...)
	b = appendDateTime(b, t)
	return append(b, '"')
}

// appendDateTime writes t as schedule.DateTimeLayout (2006-01-02T15:04:05)
// by hand: a report writes four dates per activity, and time.Format's
// layout interpretation costs more than the rest of the line.
func appendDateTime(b []byte, t time.Time) []byte {
	y, mo, d := t.Date()
	h, mi, s := t.Clock()
	if y < 0 || y > 9999 {
		return t.AppendFormat(b, schedule.DateTimeLayout)
	}
	two := func(v int) { b = append(b, byte('0'+v/10), byte('0'+v%10)) }
	two(y / 100)
	two(y % 100)
	b = append(b, '-')
	two(int(mo))
	b = append(b, '-')
	two(d)
	b = append(b, 'T')
	two(h)
	b = append(b, ':')
	two(mi)
	b = append(b, ':')
	two(s)
	return b
}

// appendString writes s as a JSON string; invalid UTF-8 becomes U+FFFD.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			b = append(b, c)
			i++
			continue
		}
		if c < utf8.RuneSelf {
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// WriteTable writes a summary line and one row per activity, aligned.
func (r *Report) WriteTable(w io.Writer) error {
	if err := r.check(); err != nil {
		return err
	}
	res := r.Result
	bw := bufio.NewWriter(w)
	crit := res.CriticalPath()
	fmt.Fprintf(bw, "%s\n", r.title())
	fmt.Fprintf(bw, "Project duration: %s working days", Days(res.ProjectDuration))
	if r.Clock != nil {
		fmt.Fprintf(bw, " (%s to %s)", r.Clock.StartAt(0).Format("Mon 2006-01-02"), res.FinishAt(r.Clock).Format("Mon 2006-01-02"))
	}
	fmt.Fprintf(bw, "; %d of %d activities critical\n\n", len(crit), len(r.Schedule.Activities))

	header := []string{"ID", "Name", "Dur", "ES", "EF", "LS", "LF", "TF", "FF", "Crit"}
	if r.Clock != nil {
		header = append(header, "Start", "Finish")
	}
	// A live programme's table says where each activity stands, and its
	// WBS when the file has one.
	live := res.Times != nil
	wbs := slices.ContainsFunc(r.Schedule.Activities, func(a schedule.Activity) bool { return a.WBS != "" })
	if live {
		header = append(header, "Status")
	}
	if wbs {
		header = append(header, "WBS")
	}
	lines := make([][]string, len(r.Schedule.Activities)+1)
	lines[0] = header
	// Each row's dates come from the clock check extended to the
	// project's finish, so the rows are made on several goroutines.
	parallel.Ranges(len(r.Schedule.Activities), rowsPerChunk, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			lines[i+1] = r.tableRow(i, live, wbs)
		}
	})
	if err := writeColumns(bw, lines); err != nil {
		return err
	}
	return bw.Flush()
}

// tableRow is activity i's cells in the table.
func (r *Report) tableRow(i int, live, wbs bool) []string {
	res := r.Result
	a := &r.Schedule.Activities[i]
	mark := ""
	if res.Critical(i) {
		mark = "*"
	}
	dur := Days(res.EF[i] - res.ES[i])
	if live {
		dur = a.Duration // as written: offsets on the project's calendar are not its length
	}
	row := []string{a.ID, clip(a.Name, 40), dur,
		Days(res.ES[i]), Days(res.EF[i]), Days(res.LS[i]), Days(res.LF[i]),
		Days(res.TotalFloat[i]), Days(res.FreeFloat[i]), mark}
	if r.Clock != nil {
		start := res.At(r.Clock, i, schedule.EarlyStart).Format("2006-01-02 15:04")
		finish := res.At(r.Clock, i, schedule.EarlyFinish).Format("2006-01-02 15:04")
		// As P6 and MS Project show them: an actual date where there
		// is one, marked A.
		if a.ActualStart != "" {
			start = actualText(a.ActualStart)
		}
		if a.ActualFinish != "" {
			finish = actualText(a.ActualFinish)
		}
		row = append(row, start, finish)
	}
	if live {
		row = append(row, status(a))
	}
	if wbs {
		row = append(row, a.WBS)
	}
	return row
}

// actualText writes an actual date as the table's dates, marked A.
func actualText(v string) string {
	if t, err := schedule.ParseStart(v); err == nil {
		if len(v) == len(time.DateOnly) {
			return t.Format(time.DateOnly) + " A"
		}
		return t.Format("2006-01-02 15:04") + " A"
	}
	return v + " A"
}

// status is where an activity stands: done, started (with its percent
// complete), or its constraint.
func status(a *schedule.Activity) string {
	switch {
	case a.ActualFinish != "":
		return "done"
	case a.ActualStart != "" && a.PercentComplete > 0:
		return "started, " + Days(a.PercentComplete) + "%"
	case a.ActualStart != "":
		return "started"
	case a.Constraint != nil:
		return a.Constraint.String()
	}
	return ""
}

func (r *Report) title() string {
	if r.Schedule.Name != "" {
		return r.Schedule.Name
	}
	return "Schedule"
}

// Days formats working days as reports do: rounded to 1e-6, no trailing zeros.
func Days(v float64) string { return strconv.FormatFloat(round(v), 'f', -1, 64) }

// clip shortens s to n runes so one long name cannot widen the whole table.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
