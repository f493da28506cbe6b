package interchange

// Across formats (issue 29): a schedule read from one format, exported
// to the other by the whole-model writer and read back holds the same
// live programme, field by field, except the fields the test table says
// have no place in the other format.

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Fields with no place in the format exported to, and why. A field named
// here is not compared; every other field must come back equal.
var (
	noPlaceInMSPDI = map[string]string{
		"options":              "MSPDI has no place for P6's scheduling options (lag calendar, float, progress rules)",
		"type":                 "MSPDI has only a Milestone flag: a start milestone reads back as a task of no duration, level of effort and WBS summary as tasks",
		"secondary constraint": "MS Project has one constraint a task",
		"calendar day lengths": "MSPDI counts a day in the project's MinutesPerDay on every calendar; durations, lags and remaining work keep their time",
	}
	noPlaceInXER = map[string]string{
		"manual": "P6 has no manually scheduled tasks: Manual and its Start and Finish have no place",
	}
	// noPlaceInP6Rules: a file P6 schedules (with SCHEDOPTIONS) dates an
	// activity from its duration, so the reader leaves its TASKRSRC alone.
	noPlaceInP6Rules = map[string]string{
		"assignments": "under P6's rules assignments do not date an activity: the XER reader reads them only from our export of a schedule on MS Project's rules (no SCHEDOPTIONS)",
	}
)

// crossFiles are the real files compared, from the shared set.
func crossFiles(t *testing.T) []string {
	var paths []string
	for _, dir := range []string{realDataDir, mspdiData} {
		p, _ := filepath.Glob(filepath.Join(dir, "*"))
		paths = append(paths, p...)
	}
	if len(paths) == 0 {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true: no files in %s or %s", realDataDir, mspdiData)
		}
		t.Skipf("no real files in %s or %s", realDataDir, mspdiData)
	}
	slices.Sort(paths)
	return paths
}

const mspdiData = "../../../shared/data/mspdi"

// TestCrossFormatRealFiles: every real P6 file exported as MSPDI, and
// every real MS Project file exported as XER, reads back with every live
// field equal but those the other format has no place for.
func TestCrossFormatRealFiles(t *testing.T) {
	compared := map[string]int{}
	for _, path := range crossFiles(t) {
		from, err := FormatOf(path)
		if err != nil {
			continue
		}
		to, noPlace := XER, noPlaceInXER
		if from == XER {
			to, noPlace = MSPDI, noPlaceInMSPDI
		}
		t.Run(filepath.Base(path)+"/"+string(to), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			r, err := ParseWith(data, from, Options{})
			if err != nil {
				t.Skipf("not a schedule the reader takes: %v", err) // the shared set holds refused files too
			}
			for field, n := range crossRoundTrip(t, r.Schedule, to, noPlace) {
				compared[field] += n
			}
		})
	}
	t.Logf("values compared by field: %v", compared)
}

// TestCrossFormatLive: a live programme with every field, P6's and MS
// Project's, through both formats.
func TestCrossFormatLive(t *testing.T) {
	union := func(ms ...map[string]string) map[string]string {
		out := map[string]string{}
		for _, m := range ms {
			maps.Copy(out, m)
		}
		return out
	}
	// A schedule made here writes its dates as dates and its calendars
	// under any key; a file holds instants and numeric ids.
	asWritten := map[string]string{
		"data date":            "a date is written as the instant it stands for (files hold date-times)",
		"actual start":         "a date is written as the first working instant of its day",
		"actual finish":        "a date is written as the last working instant of its day",
		"constraint":           "a date is written as the working instant it stands for",
		"calendar":             "a key that is not a number (7d) becomes the file's numeric id",
		"calendars":            "a key that is not a number (7d) becomes the file's numeric id",
		"calendar day lengths": "a key that is not a number (7d) becomes the file's numeric id",
		"options":              "progress retained_logic, P6's default, reads back as the default (no value)",
		"type":                 "a finish milestone is a task of no duration in both formats (the engine dates them alike)",
	}
	live, err := ReadFile("testdata/live.json")
	if err != nil {
		t.Fatal(err)
	}
	compared := map[string]int{}
	for _, c := range []struct {
		name    string
		s       *schedule.Schedule
		to      Format
		noPlace map[string]string
		// sameDates: nothing that dates an activity is lost, so the
		// engine dates every activity alike before and after.
		sameDates bool
	}{
		{"P6 programme to XER", liveP6Schedule(), XER, noPlaceInP6Rules, true},
		{"P6 programme to MSPDI", liveP6Schedule(), MSPDI, noPlaceInMSPDI, false},
		{"MS Project programme to XER", liveMSProjectSchedule(), XER, noPlaceInXER, false},
		{"MS Project programme to MSPDI", liveMSProjectSchedule(), MSPDI, nil, true},
		{"testdata/live.json to XER", live, XER, union(asWritten), true},
		{"testdata/live.json to MSPDI", live, MSPDI, union(asWritten, noPlaceInMSPDI), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := schedule.Check(c.s); err != nil {
				t.Fatalf("the test schedule is not valid: %v", err)
			}
			back := crossExport(t, c.s, c.to)
			for _, d := range crossDiff(back, c.s, c.to, c.noPlace, compared) {
				t.Error(d)
			}
			if c.sameDates {
				for _, d := range engineDates(t, back, c.s) {
					t.Error(d)
				}
			}
		})
	}
	// Every field the test names was there to compare, somewhere.
	for _, f := range activityFields {
		if compared[f.name] == 0 {
			t.Errorf("field %s: no activity of the test schedules holds it (or every format was said to have no place for it)", f.name)
		}
	}
}

// TestCrossFormatPlain: a plain network exports to both formats and
// reads back unchanged, exactly.
func TestCrossFormatPlain(t *testing.T) {
	s, err := ReadFile("../../examples/building.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []Format{XER, MSPDI} {
		var buf bytes.Buffer
		if err := Write(&buf, s, f, nil); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		back, _, err := Parse(buf.Bytes(), f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !reflect.DeepEqual(back, s) {
			t.Errorf("%s: building.json comes back changed: %v", f, crossDiff(back, s, f, nil, map[string]int{}))
		}
	}
}

// crossRoundTrip exports s to format to, reads it back and reports every
// field that differs by name; it returns how many values of each field
// it compared.
func crossRoundTrip(t *testing.T, s *schedule.Schedule, to Format, noPlace map[string]string) map[string]int {
	t.Helper()
	compared := map[string]int{}
	for _, d := range crossDiff(crossExport(t, s, to), s, to, noPlace, compared) {
		t.Error(d)
	}
	return compared
}

// crossExport is s exported to format to and read back.
func crossExport(t *testing.T, s *schedule.Schedule, to Format) *schedule.Schedule {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, s, to, nil); err != nil {
		t.Fatalf("export to %s: %v", to, err)
	}
	back, err := ParseWith(buf.Bytes(), to, Options{})
	if err != nil {
		t.Fatalf("reading the %s export back: %v", to, err)
	}
	return back.Schedule
}

// engineDates lists the activities our engine dates differently in got
// than in want: early and late start and finish.
func engineDates(t *testing.T, got, want *schedule.Schedule) []string {
	t.Helper()
	dates := func(s *schedule.Schedule) [][4]string {
		n, err := schedule.Check(s)
		if err != nil {
			t.Fatal(err)
		}
		clock, err := schedule.NewClock(s.StartDate, s.Calendar)
		if err != nil {
			t.Fatal(err)
		}
		r := n.Compute()
		out := make([][4]string, len(s.Activities))
		for i := range s.Activities {
			for f := range 4 {
				out[i][f] = r.At(clock, i, schedule.DateField(f)).Format(time.DateTime)
			}
		}
		return out
	}
	g, w := dates(got), dates(want)
	var out []string
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			out = append(out, fmt.Sprintf("activity %s is dated differently: early start, finish, late start, finish %v, want %v", want.Activities[i].ID, g[i], w[i]))
		}
	}
	return out
}

// scheduleFields and activityFields are what is compared, each written
// as text in a form both formats express. Durations, remaining work and
// lags are compared as time on their calendar: MSPDI counts a day in the
// project's MinutesPerDay on every calendar, so a day of a 24-hour
// calendar reads back as three of eight hours, the same time.
var scheduleFields = []struct {
	name string
	get  func(s *schedule.Schedule) string
}{
	{"name", func(s *schedule.Schedule) string { return s.Name }},
	{"start date", func(s *schedule.Schedule) string { return s.StartDate }},
	{"data date", func(s *schedule.Schedule) string { return s.DataDate }},
	{"options", func(s *schedule.Schedule) string { return show(s.Options) }},
	{"project calendar", func(s *schedule.Schedule) string { return calendarText(s.Calendar) }},
	{"calendars", func(s *schedule.Schedule) string {
		var out []string
		for _, k := range slices.Sorted(maps.Keys(s.Calendars)) {
			out = append(out, k+"="+calendarText(s.Calendars[k]))
		}
		return strings.Join(out, "; ")
	}},
	{"calendar day lengths", func(s *schedule.Schedule) string {
		var out []string
		for _, k := range slices.Sorted(maps.Keys(s.Calendars)) {
			out = append(out, fmt.Sprintf("%s=%gh", k, hoursPerDay(s, k)))
		}
		return strings.Join(out, " ")
	}},
	{"activity ids", func(s *schedule.Schedule) string {
		var ids []string
		for _, a := range s.Activities {
			ids = append(ids, a.ID)
		}
		return strings.Join(ids, ",")
	}},
}

type crossActivityField struct {
	name string
	get  func(s *schedule.Schedule, a *schedule.Activity) string
}

var activityFields = []crossActivityField{
	{"name", func(_ *schedule.Schedule, a *schedule.Activity) string { return a.Name }},
	{"description", func(_ *schedule.Schedule, a *schedule.Activity) string { return a.Description }},
	{"duration", func(s *schedule.Schedule, a *schedule.Activity) string { return timeOn(s, a.Calendar, a.Duration) }},
	{"type", func(_ *schedule.Schedule, a *schedule.Activity) string { return string(a.Type) }},
	{"calendar", func(_ *schedule.Schedule, a *schedule.Activity) string { return a.Calendar }},
	{"constraint", func(_ *schedule.Schedule, a *schedule.Activity) string { return show(a.Constraint) }},
	{"secondary constraint", func(_ *schedule.Schedule, a *schedule.Activity) string { return show(a.SecondaryConstraint) }},
	{"actual start", func(_ *schedule.Schedule, a *schedule.Activity) string { return a.ActualStart }},
	{"actual finish", func(_ *schedule.Schedule, a *schedule.Activity) string { return a.ActualFinish }},
	{"remaining", func(s *schedule.Schedule, a *schedule.Activity) string { return timeOn(s, a.Calendar, a.Remaining) }},
	// MS Project holds whole percents.
	{"percent complete", func(_ *schedule.Schedule, a *schedule.Activity) string {
		return fmt.Sprint(math.Round(a.PercentComplete))
	}},
	{"manual", func(_ *schedule.Schedule, a *schedule.Activity) string {
		if !a.Manual {
			return ""
		}
		return a.Start + " to " + a.Finish
	}},
	{"wbs", func(_ *schedule.Schedule, a *schedule.Activity) string { return a.WBS }},
	{"codes", func(_ *schedule.Schedule, a *schedule.Activity) string { return show(a.Codes) }},
	// Only the assignments that date an activity are carried to the other
	// format; the rest are named by Uncarried.
	{"assignments", func(s *schedule.Schedule, a *schedule.Activity) string {
		var out []string
		for _, as := range a.DatingAssignments() {
			out = append(out, fmt.Sprintf("%s units %g work %s calendar %q", as.Resource, as.Units, as.Work, as.Calendar))
		}
		return strings.Join(out, "; ")
	}},
}

// crossDiff lists the fields of got that differ from want, but those
// noPlace names; compared counts the values compared (not empty in
// want) by field.
func crossDiff(got, want *schedule.Schedule, to Format, noPlace map[string]string, compared map[string]int) []string {
	var out []string
	for _, f := range scheduleFields {
		if noPlace[f.name] != "" {
			continue
		}
		g, w := f.get(got), f.get(want)
		if w != "" {
			compared[f.name]++
		}
		if g != w {
			out = append(out, fmt.Sprintf("to %s and back: %s differs:\n got %s\nwant %s", to, f.name, g, w))
		}
	}
	if len(got.Activities) != len(want.Activities) {
		return out
	}
	for i := range want.Activities {
		g, w := &got.Activities[i], &want.Activities[i]
		for _, f := range activityFields {
			if noPlace[f.name] != "" {
				continue
			}
			gv, wv := f.get(got, g), f.get(want, w)
			if wv != "" && wv != "0" {
				compared[f.name]++
			}
			if gv != wv {
				out = append(out, fmt.Sprintf("to %s and back: activity %s: %s differs: got %q, want %q", to, w.ID, f.name, gv, wv))
			}
		}
	}
	if len(got.Relationships) != len(want.Relationships) {
		return append(out, fmt.Sprintf("to %s and back: %d relationships, want %d", to, len(got.Relationships), len(want.Relationships)))
	}
	for i, w := range want.Relationships {
		g := got.Relationships[i]
		gs := fmt.Sprintf("%s %s %s->%s lag %s", g.ID, g.Type, g.Predecessor, g.Successor, lagOn(got, g))
		ws := fmt.Sprintf("%s %s %s->%s lag %s", w.ID, w.Type, w.Predecessor, w.Successor, lagOn(want, w))
		compared["relationship"]++
		if gs != ws {
			out = append(out, fmt.Sprintf("to %s and back: relationship %d differs: got %s, want %s", to, i, gs, ws))
		}
	}
	return out
}

func show(v any) string {
	if reflect.ValueOf(v).IsNil() {
		return ""
	}
	return fmt.Sprintf("%+v", reflect.Indirect(reflect.ValueOf(v)).Interface())
}

// hoursPerDay is the working hours in a day of a calendar key's
// calendar ("" the project's).
func hoursPerDay(s *schedule.Schedule, key string) float64 {
	cal := s.Calendar
	if key != "" {
		cal = s.Calendars[key]
	}
	w, err := cal.Compile()
	if err != nil {
		return math.NaN()
	}
	return w.MinutesPerDay() / 60
}

// timeOn is a duration as the time it takes on its calendar; one with a
// unit ("16h", "3ed") must come back as written.
func timeOn(s *schedule.Schedule, key, duration string) string {
	if duration == "" || hasDurationUnit(duration) {
		return duration
	}
	return fmt.Sprintf("%.4fh", durationHours(duration, hoursPerDay(s, key)))
}

func hasDurationUnit(d string) bool {
	p, err := schedule.ParseDuration(d)
	return err == nil && p.Unit != ""
}

func lagOn(s *schedule.Schedule, r schedule.Relationship) string {
	a, _ := s.Activity(r.Successor)
	return fmt.Sprintf("%.4fh", r.Lag*hoursPerDay(s, a.Calendar))
}

// calendarText is a calendar as both formats hold it: the week, and the
// exceptions as dates (XER has no ranges and no names), worked or not.
func calendarText(c *schedule.Calendar) string {
	if c == nil {
		return ""
	}
	_, week, _ := exportWeek(c)
	var b strings.Builder
	fmt.Fprintf(&b, "%q week %v;", c.Name, week)
	days := slices.Clone(c.Holidays)
	for _, e := range c.Exceptions {
		from, _ := schedule.ParseDate(e.From)
		to, _ := schedule.ParseDate(lastDay(e))
		for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
			if e.Working {
				days = append(days, d.Format("2006-01-02")+fmt.Sprint(" worked ", e.Hours))
			} else {
				days = append(days, d.Format("2006-01-02"))
			}
		}
	}
	slices.Sort(days)
	fmt.Fprintf(&b, " exceptions %v", days)
	return b.String()
}

// liveP6Schedule is a progressed P6 programme: P6's options, calendars
// of their own day lengths, every activity type, two constraints, codes
// and a WBS.
func liveP6Schedule() *schedule.Schedule {
	return &schedule.Schedule{
		Name: "Live P6", StartDate: "2026-03-02", DataDate: "2026-03-16T08:00",
		Options: &schedule.Options{Tool: schedule.P6, LagCalendar: schedule.LagPredecessor, Float: schedule.SmallestFloat, Progress: schedule.ProgressOverride},
		Calendars: map[string]*schedule.Calendar{
			"2": {Name: "6-day 10h", Workdays: []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}, Hours: []string{"07:00-12:00", "13:00-18:00"},
				Holidays: []string{"2026-04-03"}, Exceptions: []schedule.CalendarException{{From: "2026-03-29", Working: true, Hours: []string{"08:00-12:00"}}}},
			"3": {Name: "24-hour", Workdays: []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}, Hours: []string{"00:00-24:00"}},
		},
		Activities: []schedule.Activity{
			{ID: "A1", Name: "Mobilise", Duration: "5", Calendar: "2", ActualStart: "2026-03-02T07:00", ActualFinish: "2026-03-06T18:00",
				PercentComplete: 100, WBS: "Site.Enabling", Codes: map[string]string{"Area": "North", "Phase": "1"}},
			{ID: "A2", Name: "Excavate", Duration: "10", ActualStart: "2026-03-09T08:00", Remaining: "4", PercentComplete: 62.5,
				WBS: "Site.Enabling", Constraint: &schedule.Constraint{Type: schedule.StartOnOrAfter, Date: "2026-03-09T08:00"}, Codes: map[string]string{"Area": "South"}},
			{ID: "A3", Name: "Pour", Description: "Slab\nlevel 1", Duration: "16h", WBS: "Site.Structure",
				Constraint:          &schedule.Constraint{Type: schedule.FinishOnOrBefore, Date: "2026-04-30T17:00"},
				SecondaryConstraint: &schedule.Constraint{Type: schedule.StartOnOrAfter, Date: "2026-03-20T08:00"}},
			{ID: "A4", Name: "Cure", Duration: "3ed", Calendar: "3", WBS: "Site.Structure", Codes: map[string]string{"Phase": "2"}},
			{ID: "A5", Name: "Structure done", Duration: "0", Type: schedule.StartMilestone},
			{ID: "A6", Name: "Supervision", Duration: "20", Type: schedule.LevelOfEffort, WBS: "Site"},
			{ID: "A7", Name: "Crane", Duration: "2.5", Calendar: "3", Type: schedule.ResourceDependent, WBS: "Site.Enabling"},
		},
		Relationships: []schedule.Relationship{
			{ID: "R1", Type: schedule.FS, Predecessor: "A1", Successor: "A2", Lag: 1},
			{ID: "R2", Type: schedule.SS, Predecessor: "A2", Successor: "A3", Lag: 2},
			{ID: "R3", Type: schedule.FS, Predecessor: "A3", Successor: "A4"},
			{ID: "R4", Type: schedule.FS, Predecessor: "A4", Successor: "A5", Lag: 0.5},
			{ID: "R5", Type: schedule.SS, Predecessor: "A1", Successor: "A6"},
			{ID: "R6", Type: schedule.FF, Predecessor: "A5", Successor: "A6"},
			{ID: "R7", Type: schedule.FS, Predecessor: "A1", Successor: "A7", Lag: 0.25},
		},
	}
}

// liveMSProjectSchedule is a progressed MS Project programme: a manual
// task, assignments on resource calendars, an elapsed duration, an
// outline and text-field codes.
func liveMSProjectSchedule() *schedule.Schedule {
	return &schedule.Schedule{
		Name: "Live MS Project", StartDate: "2026-03-02", DataDate: "2026-03-10T17:00",
		Calendars: map[string]*schedule.Calendar{
			"4": {Name: "Night crew", Workdays: []string{"Mon", "Tue", "Wed", "Thu", "Fri"}, Hours: []string{"20:00-24:00"}, HoursPerDay: 8},
			"5": {Name: "Part time", Workdays: []string{"Mon", "Tue", "Wed"}, HoursPerDay: 8},
		},
		Activities: []schedule.Activity{
			{ID: "T1", Name: "Design", Duration: "5", ActualStart: "2026-03-02T08:00", ActualFinish: "2026-03-06T17:00", PercentComplete: 100,
				WBS: "1.1", Codes: map[string]string{"Discipline": "Civil"}},
			{ID: "T2", Name: "Approve", Duration: "3", ActualStart: "2026-03-09T08:00", Remaining: "1.5", PercentComplete: 50, WBS: "1.2",
				Constraint: &schedule.Constraint{Type: schedule.StartOnOrAfter, Date: "2026-03-09T08:00"}},
			{ID: "T3", Name: "Fabricate", Duration: "4", WBS: "2.1", Calendar: "5",
				Assignments: []schedule.Assignment{{Resource: "Welder", Units: 0.5, Work: "2", Calendar: "4"}, {Resource: "Fitter", Work: "4"}}},
			{ID: "T4", Name: "Deliver", Duration: "2ed", WBS: "2.2", Manual: true, Start: "2026-03-23T08:00", Finish: "2026-03-25T08:00",
				Codes: map[string]string{"Discipline": "Logistics", "Zone": "B"}},
			{ID: "T5", Name: "Install", Duration: "6", Constraint: &schedule.Constraint{Type: schedule.AsLateAsPossible}},
		},
		Relationships: []schedule.Relationship{
			{ID: "L1", Type: schedule.FS, Predecessor: "T1", Successor: "T2"},
			{ID: "L2", Type: schedule.FS, Predecessor: "T2", Successor: "T3", Lag: 1},
			{ID: "L3", Type: schedule.FS, Predecessor: "T3", Successor: "T4"},
			{ID: "L4", Type: schedule.SS, Predecessor: "T4", Successor: "T5", Lag: -0.5},
		},
	}
}

// TestXERAssignmentsOnlyFromOurExport: TASKRSRC dates a task only in our
// export of a schedule on MS Project's rules; a P6 file without
// SCHEDOPTIONS (P6 8 writes none) keeps P6's rule, the activity's own
// duration, and its assignments are kept, none dating.
func TestXERAssignmentsOnlyFromOurExport(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, liveMSProjectSchedule(), XER, nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name                string
		file                string
		assigned, nonDating int
	}{
		{"our export", buf.String(), 2, 0},
		{"a P6 file", strings.ReplaceAll(buf.String(), aliasRelIDs, "Notes"), 2, 2},
	} {
		s, _, err := Parse([]byte(c.file), XER)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		assigned, nonDating := 0, 0
		for _, a := range s.Activities {
			for _, as := range a.Assignments {
				assigned++
				if as.NonDriving {
					nonDating++
				}
			}
		}
		if assigned != c.assigned || nonDating != c.nonDating {
			t.Errorf("%s: %d assignments read, %d not dating; want %d, %d", c.name, assigned, nonDating, c.assigned, c.nonDating)
		}
	}
}

// TestMSPDICodeFields: codes go to Text4-Text30, as many as fit; a code
// type named as one of export's own fields is left out rather than
// taken for it.
func TestMSPDICodeFields(t *testing.T) {
	s := liveMSProjectSchedule()
	codes := map[string]string{aliasActivityID: "not the id"}
	for i := range 30 {
		codes[fmt.Sprintf("Code %02d", i)] = fmt.Sprint("value ", i)
	}
	s.Activities[0].Codes = codes
	back := crossExport(t, s, MSPDI)
	got := back.Activities[0]
	if got.ID != s.Activities[0].ID {
		t.Errorf("activity id %q, want %q", got.ID, s.Activities[0].ID)
	}
	if len(got.Codes) != len(codeFieldIDs) {
		t.Errorf("%d codes came back, want %d (Text4-Text30)", len(got.Codes), len(codeFieldIDs))
	}
	for k, v := range got.Codes {
		if codes[k] != v {
			t.Errorf("code %q = %q, want %q", k, v, codes[k])
		}
	}
}
