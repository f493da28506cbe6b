package interchange

// Real schedules: dates against the tools (issue 28, deliverable 5).
//
// TestRealDates reads every file in ../shared/data/real (MS Project MSPDI
// and P6 XER files, each saved with the dates the tool computed) with the
// product's reader, computes CPM (schedule.Network.Compute, dated with
// schedule.NewClock on the schedule's start date and calendar), and
// compares each task's early start, early finish, late start, late finish
// and total float with the values the tool stored in the same file. Those
// stored values are read here, independently of the product's reader: the
// MSPDI Task EarlyStart/EarlyFinish/LateStart/LateFinish/TotalSlack with
// encoding/xml, the XER TASK early_start_date/early_end_date/
// late_start_date/late_end_date/total_float_hr_cnt with a small table
// reader (readStoredXER).
//
// Which tasks: MSPDI tasks other than the project summary (UID 0), summary
// tasks, null and inactive tasks, matched by UID (the reader's activity
// id); XER TASK rows of the first project, matched by task_code (else
// task_id), level-of-effort and WBS-summary activities included (the reader
// skips them today, so they count as wrong). A task with none of the five
// values stored is not compared; a field not stored is not compared. A file
// the reader refuses counts every task it holds as wrong (stored values or
// not) and is named.
//
// Dates are compared to the minute as instants. Two different instants are
// the same when both are edges of the same non-working gap of the
// schedule's calendar as read: no working minute lies between them and
// each is the end or the start of a working period (a finish at Fri 17:00
// equals Mon 08:00, a lunch-break 12:00 equals 13:00; Sat 10:00 equals
// neither). REAL_DATES_EXACT=1 compares the minutes as written instead:
// the tools write the same working instant one way or the other, and the
// issue asks for the tool's way (measured 2026-11-27 on the shared set: 62
// tasks match exactly, as with the edges equal; MPXJ 49). Total float is
// compared in working minutes (MSPDI TotalSlack
// is tenths of a minute; XER total_float_hr_cnt hours; ours days of the
// calendar's MinutesPerDay).
//
// Every difference is named with t.Log (file, task id and name, field, want
// vs got), then a per-file and total table. Its "mpxj" column is the peer:
// the tasks MPXJ 16.10's own CPM (MicrosoftScheduler, PrimaveraScheduler)
// matches fully, compared the same way, from testdata/realdates_mpxj.json
// (written by testdata/mpxj_realdates.py; "-" without it). The ratchet
// (realBaseline and realBaselineTotal) holds the fully matching tasks
// measured when the test was written; the test fails below them, so CI
// stays green and cannot regress. Each later session that improves CPM
// raises them to what it measures.
//
// Baseline measured 2026-11-26, before any issue 28 CPM work: 45 of 100
// tasks match fully (88 compared plus the 12 of the refused file); by
// field, early start 78/88, early finish 71/88, late start 48/88, late
// finish 45/88, total float 59/86. Per file (tasks, matching): the
// task-links 2010 16/16, task-dates 2019 10/10, caltest 3/3; task-links
// 2016 14/16 (manually scheduled tasks' late dates); mspditimephasedsegments
// 2/20 (no links; MS Project stored late finishes of 2011-03-04 for most
// tasks, not the project finish 2012-07-20 we compute; progressed tasks, one
// early finish a day off); mspdiduration 0/10 (elapsed and month durations, the late dates follow a
// wrong project finish); mspdinulltasks 0/3 (the project starts at 09:00,
// read as 08:00); mspdiresource 0/3 and assignment-assignments 0/3 (actual
// dates, resource-driven durations, tasks before the project start);
// mspdisplittask 0/2 (split tasks); PredecessorCalendar.xer and
// TwentyFourHourCalendar.xer 0/1 each (a completed activity: P6 writes its
// early dates at the data date, its late dates at the project finish);
// invalid-8.4.xer 0/12, refused for one truncated calendar;
// percent-complete-8.4.xer stores no early/late dates (0 compared).
//
// Raised the same day to 48 of 88, no file refused: the project's start
// time of day is kept (mspdinulltasks 3/3: a 09:00 start on a calendar
// worked from 08:00), and a damaged XER calendar is a warning (invalid-8.4.xer
// is read; it stores no early/late dates, so 0 compared).
// Raised 2026-11-27 to 62 of 88 by the live engine (issue 28: each
// activity on its own calendar, constraints, actuals and remaining work,
// manual tasks, elapsed durations, resource assignments on their
// calendars, MS Project's and P6's rules): assignment-assignments 3/3,
// mspdiduration 6/10, mspdiresource 3/3, task-links 2016 16/16. Left:
// mspditimephasedsegments 2/20 (its late dates were not recalculated when
// it was saved: unlinked tasks end 2011-03-04 or 2013-05-24, past the
// project finish), mspdiduration 4/10 (MS Project's finish of the elapsed
// tasks), mspdisplittask 0/2 (splits are not modelled), and the two P6
// files' completed activity, whose late dates P6 puts at the project's
// scheduled finish (2020-12-30) that no activity reaches. On 47 other
// MPXJ test files (REAL_DATES_DIR) 619 of 645 tasks match.
//
// MPXJ, on the same measure: 55 of 100 (mspdinulltasks 3, mspdiresource 2,
// assignment-assignments 3, mspdiduration 1, task-links 2016 15; it too
// misses mspditimephasedsegments' stored late dates - 2011-03-04 for tasks
// without links where both of us give the project finish, 2012-07-20 - and
// P6's late dates of a completed activity).

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

const realDataDir = "../../../shared/data/real"

// realBaseline is, per file, the tasks whose five stored values all match
// today. RAISE these (never lower them) when a later session matches more.
var realBaseline = map[string]int{
	"PredecessorCalendar.xer":                      0,
	"TwentyFourHourCalendar.xer":                   0,
	"assignment-assignments-project2019-mspdi.xml": 3,
	"caltest.xml":                                  3,
	"invalid-8.4.xer":                              0,
	"mspdiduration.xml":                            6,
	"mspdinulltasks.xml":                           3,
	"mspdiresource.xml":                            3,
	"mspdisplittask.xml":                           0,
	"mspditimephasedsegments.xml":                  2,
	"percent-complete-8.4.xer":                     0,
	"task-dates-project2019-mspdi.xml":             10,
	"task-links-project2010-mspdi.xml":             16,
	"task-links-project2016-mspdi.xml":             16,
}

// realBaselineTotal is the fully matching tasks over all files today.
const realBaselineTotal = 62

// The compared fields, in table order.
const (
	fieldES = iota
	fieldEF
	fieldLS
	fieldLF
	fieldTF
	nFields
)

var fieldNames = [nFields]string{"early start", "early finish", "late start", "late finish", "total float"}

// storedTask is what the tool wrote for one task: zero times and hasTF
// false where the file stores nothing.
type storedTask struct {
	id, name string
	dates    [4]time.Time // ES, EF, LS, LF
	tf       int64        // working minutes
	hasTF    bool
}

func (s storedTask) stored(f int) bool {
	if f == fieldTF {
		return s.hasTF
	}
	return !s.dates[f].IsZero()
}

func (s storedTask) any() bool {
	for f := 0; f < nFields; f++ {
		if s.stored(f) {
			return true
		}
	}
	return false
}

// fileTally counts one file's comparison.
type fileTally struct {
	tasks, matching int
	field, stored   [nFields]int // matches and values stored, per field
	note            string       // why a file counts as all wrong
	peer            int          // tasks MPXJ's scheduler matches fully; -1 unknown
}

func TestRealDates(t *testing.T) {
	dir := realDataDir
	if other := os.Getenv("REAL_DATES_DIR"); other != "" {
		// Other real files, to measure before a change lands: the ratchet
		// holds only for the shared set.
		dir = other
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(paths) == 0 {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true: no files in %s", realDataDir)
		}
		t.Skipf("no real files in %s", realDataDir)
	}
	sort.Strings(paths)
	peer := readPeer(t)
	tallies := map[string]*fileTally{}
	var names []string
	for _, p := range paths {
		base := filepath.Base(p)
		var stored []storedTask
		var err error
		switch strings.ToLower(filepath.Ext(p)) {
		case ".xml":
			stored, err = readStoredMSPDI(p)
		case ".xer":
			stored, err = readStoredXER(p)
		default:
			continue
		}
		if err != nil {
			t.Fatalf("%s: reading the stored dates: %v", base, err)
		}
		names = append(names, base)
		tallies[base] = compareRealFile(t, p, stored, peer[base])
	}

	// The table.
	var total fileTally
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-46s %6s %6s %6s", "file", "tasks", "match", "mpxj")
	for _, n := range fieldNames {
		fmt.Fprintf(&b, " %13s", n)
	}
	b.WriteString("\n")
	row := func(name string, ft *fileTally) {
		mp := "-"
		if ft.peer >= 0 {
			mp = strconv.Itoa(ft.peer)
		}
		fmt.Fprintf(&b, "%-46s %6d %6d %6s", name, ft.tasks, ft.matching, mp)
		for f := 0; f < nFields; f++ {
			fmt.Fprintf(&b, " %13s", fmt.Sprintf("%d/%d", ft.field[f], ft.stored[f]))
		}
		if ft.note != "" {
			b.WriteString("  " + ft.note)
		}
		b.WriteString("\n")
	}
	for _, n := range names {
		ft := tallies[n]
		row(n, ft)
		total.tasks += ft.tasks
		total.matching += ft.matching
		total.peer += max(ft.peer, 0)
		for f := 0; f < nFields; f++ {
			total.field[f] += ft.field[f]
			total.stored[f] += ft.stored[f]
		}
	}
	row("TOTAL", &total)
	t.Log(b.String())

	if dir != realDataDir {
		return
	}
	// The ratchet.
	for _, n := range names {
		want, ok := realBaseline[n]
		if !ok {
			t.Logf("%s is not in realBaseline: add it with its %d matching tasks", n, tallies[n].matching)
			continue
		}
		if got := tallies[n].matching; got < want {
			t.Errorf("%s: %d tasks match the tool, fewer than the baseline %d", n, got, want)
		}
	}
	for n := range realBaseline {
		if tallies[n] == nil {
			t.Errorf("%s is in realBaseline but not in %s", n, realDataDir)
		}
	}
	if total.matching < realBaselineTotal {
		t.Errorf("%d tasks match the tool in all, fewer than the baseline %d", total.matching, realBaselineTotal)
	}
}

// compareRealFile reads and schedules one file and compares it with what
// the tool stored, naming every difference.
func compareRealFile(t *testing.T, path string, stored []storedTask, peer *peerFile) *fileTally {
	base := filepath.Base(path)
	ft := &fileTally{peer: -1}
	var cmpTasks []storedTask
	for _, s := range stored {
		if s.any() {
			cmpTasks = append(cmpTasks, s)
		}
	}
	count := func(tasks []storedTask) {
		ft.tasks = len(tasks)
		ft.stored = [nFields]int{}
		for _, s := range tasks {
			for f := 0; f < nFields; f++ {
				if s.stored(f) {
					ft.stored[f]++
				}
			}
		}
	}
	count(cmpTasks)
	// A file the reader refuses counts every task it holds as wrong, even
	// one with no stored values: refusing a file is the worst result.
	allWrong := func(why string) *fileTally {
		count(stored)
		ft.note = why
		t.Logf("%s: all %d tasks count as wrong: %s", base, len(stored), why)
		return ft
	}
	r, err := LoadWith(path, Options{})
	var clock *schedule.Clock
	if err == nil {
		clock, err = schedule.NewClock(r.Schedule.StartDate, r.Schedule.Calendar)
	}
	if peer != nil {
		ft.peer = peer.matching(clock, cmpTasks)
	}
	if r == nil {
		// No file is refused since a damaged calendar became a warning:
		// one refused again is a regression, whatever its tasks.
		t.Errorf("%s is refused by the reader: %v", base, err)
		return allWrong("refused by the reader: " + err.Error())
	}
	if err != nil {
		return allWrong("no clock: " + err.Error())
	}
	res := r.Network.Compute()
	mpd := clock.MinutesPerDay()
	for _, s := range cmpTasks {
		i, ok := r.Network.Index(s.id)
		if !ok {
			t.Logf("%s: task %s %q: not in the schedule read (all %d stored values wrong)", base, s.id, s.name, countStored(s))
			continue
		}
		got := [4]time.Time{clock.StartAt(res.ES[i]), clock.FinishAt(res.EF[i]), clock.StartAt(res.LS[i]), clock.FinishAt(res.LF[i])}
		if tm := res.Times; tm != nil { // the live engine's own dates
			got = [4]time.Time{tm.ES[i], tm.EF[i], tm.LS[i], tm.LF[i]}
		}
		all := true
		for f := 0; f < nFields; f++ {
			if !s.stored(f) {
				continue
			}
			var same bool
			var want, have string
			if f == fieldTF {
				tf := int64(math.Round(res.TotalFloat[i] * mpd))
				if res.Times != nil {
					tf = res.Times.FloatMinutes[i]
				}
				same = tf == s.tf
				want, have = minutesText(s.tf), minutesText(tf)
			} else {
				same = sameInstant(clock, s.dates[f], got[f])
				want, have = s.dates[f].Format("Mon 2006-01-02 15:04"), got[f].Format("Mon 2006-01-02 15:04")
			}
			if same {
				ft.field[f]++
				continue
			}
			all = false
			t.Logf("%s: task %s %q: %s: want %s, got %s", base, s.id, s.name, fieldNames[f], want, have)
		}
		if all {
			ft.matching++
		}
	}
	return ft
}

func countStored(s storedTask) int {
	n := 0
	for f := 0; f < nFields; f++ {
		if s.stored(f) {
			n++
		}
	}
	return n
}

func minutesText(m int64) string {
	return fmt.Sprintf("%d min (%.4g h)", m, float64(m)/60)
}

// exactDates compares dates as written (see the top of the file).
var exactDates = os.Getenv("REAL_DATES_EXACT") != ""

// sameInstant reports whether a and b are the same instant, or both edges
// of the same non-working gap of the clock's calendar: no working minute
// between them, and each the end or the start of a working period. Seconds
// are dropped: the comparison is to the minute. With no clock (the reader
// refused the file) only the same minute is the same.
func sameInstant(c *schedule.Clock, a, b time.Time) bool {
	a, b = a.Truncate(time.Minute), b.Truncate(time.Minute)
	if a.Equal(b) {
		return true
	}
	if c == nil || exactDates { // no calendar read, or asked: only the same minute is the same
		return false
	}
	ma, mb := workMinute(c, a), workMinute(c, b)
	return ma == mb && periodEdge(c, a, ma) && periodEdge(c, b, mb)
}

// workMinute is the working minutes from the project start to t.
func workMinute(c *schedule.Clock, t time.Time) int64 {
	return int64(math.Round(c.Offset(t) * c.MinutesPerDay()))
}

// periodEdge reports whether t, at working minute m, is where a working
// period starts or ends.
func periodEdge(c *schedule.Clock, t time.Time, m int64) bool {
	off := float64(m) / c.MinutesPerDay()
	return t.Equal(c.StartAt(off)) || t.Equal(c.FinishAt(off))
}

// readStoredMSPDI reads the dates MS Project stored for each task.
func readStoredMSPDI(path string) ([]storedTask, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var p struct {
		Tasks []struct {
			UID, Name, IsNull, Summary, Active             string
			EarlyStart, EarlyFinish, LateStart, LateFinish string
			TotalSlack                                     string
		} `xml:"Tasks>Task"`
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.CharsetReader = charsetReader
	if err := d.Decode(&p); err != nil {
		return nil, err
	}
	var out []storedTask
	for _, tk := range p.Tasks {
		uid := strings.TrimSpace(tk.UID)
		if uid == "0" || isTrue(tk.IsNull) || isTrue(tk.Summary) || strings.TrimSpace(tk.Active) == "0" {
			continue
		}
		s := storedTask{id: uid, name: tk.Name}
		for f, v := range [4]string{tk.EarlyStart, tk.EarlyFinish, tk.LateStart, tk.LateFinish} {
			if v = strings.TrimSpace(v); v == "" {
				continue
			}
			if s.dates[f], err = time.Parse("2006-01-02T15:04:05", v); err != nil {
				return nil, fmt.Errorf("Task UID %s: %s: %v", uid, fieldNames[f], err)
			}
		}
		if v := strings.TrimSpace(tk.TotalSlack); v != "" {
			tenths, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, fmt.Errorf("Task UID %s: TotalSlack %q: %v", uid, v, err)
			}
			s.tf, s.hasTF = int64(math.Round(tenths/10)), true
		}
		out = append(out, s)
	}
	return out, nil
}

// readStoredXER reads the dates P6 stored for each TASK row of the file's
// first project.
func readStoredXER(path string) ([]storedTask, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	type table struct {
		fields map[string]int
		rows   [][]string
	}
	tables := map[string]*table{}
	var cur *table
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		parts := strings.Split(strings.TrimRight(sc.Text(), "\r"), "\t")
		switch parts[0] {
		case "%T":
			if len(parts) > 1 {
				cur = &table{fields: map[string]int{}}
				tables[parts[1]] = cur
			}
		case "%F":
			if cur != nil {
				for i, f := range parts[1:] {
					cur.fields[f] = i
				}
			}
		case "%R":
			if cur != nil {
				cur.rows = append(cur.rows, parts[1:])
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	get := func(tb *table, row []string, field string) string {
		if i, ok := tb.fields[field]; ok && i < len(row) {
			return strings.TrimSpace(row[i])
		}
		return ""
	}
	proj := ""
	if pt := tables["PROJECT"]; pt != nil && len(pt.rows) > 0 {
		proj = get(pt, pt.rows[0], "proj_id")
	}
	tt := tables["TASK"]
	if tt == nil {
		return nil, nil
	}
	var out []storedTask
	for _, row := range tt.rows {
		if p := get(tt, row, "proj_id"); proj != "" && p != "" && p != proj {
			continue
		}
		id := get(tt, row, "task_code")
		if id == "" {
			id = get(tt, row, "task_id")
		}
		s := storedTask{id: id, name: get(tt, row, "task_name")}
		for f, field := range [4]string{"early_start_date", "early_end_date", "late_start_date", "late_end_date"} {
			v := get(tt, row, field)
			if v == "" {
				continue
			}
			if s.dates[f], err = time.Parse("2006-01-02 15:04", v); err != nil {
				return nil, fmt.Errorf("TASK %s: %s: %v", id, field, err)
			}
		}
		if v := get(tt, row, "total_float_hr_cnt"); v != "" {
			h, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, fmt.Errorf("TASK %s: total_float_hr_cnt %q: %v", id, v, err)
			}
			s.tf, s.hasTF = int64(math.Round(h*60)), true
		}
		out = append(out, s)
	}
	return out, nil
}

// TestSameInstant pins the date comparison: only edges of one non-working
// gap are the same instant.
func TestSameInstant(t *testing.T) {
	defer func(exact bool) { exactDates = exact }(exactDates)
	exactDates = false                             // the rule itself, whatever REAL_DATES_EXACT asks
	c, err := schedule.NewClock("2026-01-05", nil) // a Monday, Standard calendar
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) time.Time {
		v, err := time.Parse("2006-01-02 15:04", s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"2026-01-09 17:00", "2026-01-12 08:00", true},  // Fri evening, Mon morning
		{"2026-01-06 12:00", "2026-01-06 13:00", true},  // lunch
		{"2026-01-06 12:00", "2026-01-06 12:00", true},  // identical
		{"2026-01-10 10:00", "2026-01-12 08:00", false}, // Saturday is no edge
		{"2026-01-09 16:59", "2026-01-09 17:00", false}, // a working minute apart
		{"2026-01-06 13:00", "2026-01-06 13:01", false},
		{"2026-01-02 08:00", "2026-01-05 08:00", false}, // before the start
	} {
		if got := sameInstant(c, at(tc.a), at(tc.b)); got != tc.same {
			t.Errorf("sameInstant(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.same)
		}
		if got := sameInstant(c, at(tc.b), at(tc.a)); got != tc.same {
			t.Errorf("sameInstant(%s, %s) = %v, want %v", tc.b, tc.a, got, tc.same)
		}
	}
}

// The MPXJ peer: testdata/realdates_mpxj.json, written by
// testdata/mpxj_realdates.py (MPXJ's MicrosoftScheduler and
// PrimaveraScheduler on the same files). Without it the column shows "-".
const peerPath = "testdata/realdates_mpxj.json"

type peerFile struct {
	Error string               `json:"error"`
	Tasks map[string]*peerTask `json:"tasks"`
}

type peerTask struct {
	ES, EF, LS, LF *string
	TF             *float64
}

func readPeer(t *testing.T) map[string]*peerFile {
	data, err := os.ReadFile(peerPath)
	if err != nil {
		t.Logf("no MPXJ peer: %v", err)
		return nil
	}
	var v struct {
		Files map[string]*peerFile `json:"files"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", peerPath, err)
	}
	return v.Files
}

// matching counts the tasks whose stored values MPXJ's schedule matches
// fully, compared as ours are (on our reading of the calendar; exact
// minutes when c is nil).
func (p *peerFile) matching(c *schedule.Clock, tasks []storedTask) int {
	n := 0
	for _, s := range tasks {
		pt := p.Tasks[s.id]
		if pt == nil {
			continue
		}
		ok := true
		for f, v := range [4]*string{pt.ES, pt.EF, pt.LS, pt.LF} {
			if !s.stored(f) {
				continue
			}
			if v == nil {
				ok = false
				break
			}
			got, err := time.Parse("2006-01-02T15:04", (*v)[:min(len(*v), 16)])
			if err != nil || !sameInstant(c, s.dates[f], got) {
				ok = false
				break
			}
		}
		if ok && s.hasTF {
			ok = pt.TF != nil && int64(math.Round(*pt.TF)) == s.tf
		}
		if ok {
			n++
		}
	}
	return n
}
