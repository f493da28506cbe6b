package insight

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// liveP6 is a statused P6 programme on the default calendar (Monday to
// Friday, 08:00-17:00, 8 hours a day), started Monday 2 March 2026, data
// date Monday 16 March (08:00, the first working instant). P6 dates:
//
//	A Dig        5 d, finished 2-6 Mar                   ES = EF = data date
//	B Pour slab 10 d, started 9 Mar, 6 d left, FS A       16 Mar - Mon 23 Mar
//	C Cure       5 d, FS B                                24 Mar - Mon 30 Mar
//	D Fit-out   50 d, FS C                                31 Mar - Mon 8 Jun
//	              (4 d to Fri 3 Apr, 9 weeks to Fri 5 Jun, 1 more)
//	E Landscape  3 d, FS A                                16 Mar - Wed 18 Mar
//	F Handover  finish milestone, FS D and E,
//	            finish on or before Fri 29 May            Mon 8 Jun 17:00
//
// Backward from F's late finish, 29 May 17:00: F, D, C and B have -6 days
// of float (Mon 1 - Mon 8 Jun is 6 working days); E's late finish is 29
// May, so its float is 19-20 Mar plus 23 Mar - 29 May (10 weeks): 52.
// Assignments on A, C and E; none on B, D or F.
func liveP6() *schedule.Schedule {
	work := func(res, days string) []schedule.Assignment {
		return []schedule.Assignment{{Resource: res, Work: days}}
	}
	return &schedule.Schedule{
		Name: "Live P6", StartDate: "2026-03-02", DataDate: "2026-03-16",
		Options: &schedule.Options{Tool: schedule.P6},
		Activities: []schedule.Activity{
			{ID: "A", Name: "Dig", Duration: "5", ActualStart: "2026-03-02", ActualFinish: "2026-03-06", Assignments: work("Excavator", "5")},
			{ID: "B", Name: "Pour slab", Duration: "10", ActualStart: "2026-03-09", Remaining: "6"},
			{ID: "C", Name: "Cure", Duration: "5", Assignments: work("Crew", "5")},
			{ID: "D", Name: "Fit-out", Duration: "50"},
			{ID: "E", Name: "Landscape", Duration: "3", Assignments: []schedule.Assignment{{Resource: "Gardener", NonDriving: true}}}, // assigned all the same
			{ID: "F", Name: "Handover", Duration: "0", Type: schedule.FinishMilestone,
				Constraint: &schedule.Constraint{Type: schedule.FinishOnOrBefore, Date: "2026-05-29"}},
		},
		Relationships: []schedule.Relationship{
			{ID: "R1", Type: schedule.FS, Predecessor: "A", Successor: "B"},
			{ID: "R2", Type: schedule.FS, Predecessor: "B", Successor: "C"},
			{ID: "R3", Type: schedule.FS, Predecessor: "C", Successor: "D"},
			{ID: "R4", Type: schedule.FS, Predecessor: "A", Successor: "E"},
			{ID: "R5", Type: schedule.FS, Predecessor: "D", Successor: "F"},
			{ID: "R6", Type: schedule.FS, Predecessor: "E", Successor: "F"},
		},
	}
}

// byID indexes results by check id.
func byID(res []CheckResult) map[string]CheckResult {
	out := map[string]CheckResult{}
	for _, r := range res {
		out[r.ID] = r
	}
	return out
}

// naReasons maps the points NotApplicableTo lists to their reasons.
func naReasons(v *View) map[int]string {
	out := map[int]string{}
	for _, p := range NotApplicableTo(v) {
		out[p.Point] = p.Reason
	}
	return out
}

func TestLiveChecksP6(t *testing.T) {
	v, err := New(liveP6())
	if err != nil {
		t.Fatal(err)
	}
	res, err := RunChecks(v, DefaultThresholds())
	if err != nil {
		t.Fatal(err)
	}
	expect(t, res, map[string]want{
		// Incomplete tasks: B, C, D, E, F (A is finished): 5. E's 52 days
		// of float is over 44: 1 of 5, 5% of 5 allows none.
		CheckHighFloat: fail("E"),
		// B, C, D and F have -6 days.
		CheckNegativeFloat: fail("B", "C", "D", "F"),
		// D's 50 days.
		CheckHighDuration: fail("D"),
		// F's finish on or before: 1 of 6 activities, 5% allows none.
		CheckHardConstraints: fail("F"),
		// Actuals are before the data date and P6 dates nothing before it.
		CheckInvalidDates: pass(),
		// Incomplete tasks with a duration: B, C, D, E; no assignment: B, D.
		CheckResources: fail("B", "D"),
		// The driving path is B -> C -> D -> F (A is finished, on no
		// path); B, in progress, gets 10 more days of remaining work: 16
		// from 16 Mar, and everything after it moves 10 working days, F
		// to Mon 22 Jun.
		CheckCriticalPathTest: pass(),
		// Critical path length: 16 Mar - 5 Jun (12 weeks) + Mon 8 Jun =
		// 61 working days; F's float -6: CPLI 55/61 = 0.90 < 0.95. D
		// finishes with F at the same float; F, last in schedule order,
		// is the finish.
		CheckCPLI: fail("F"),
	})
	got := byID(res)
	if d := got[CheckCriticalPathTest].Detail; d != "B made 10 days longer: the finish moved 10 days (2026-06-08T17:00:00 to 2026-06-22T17:00:00)" {
		t.Errorf("critical path test: %q", d)
	}
	if d := got[CheckCPLI].Detail; d != "CPLI 0.90: 61 working days from the data date to the finish, F with -6 days of total float" {
		t.Errorf("cpli: %q", d)
	}
	if r := got[CheckHighFloat]; r.Of != 5 || r.Threshold != "<= 5% of activities (0 of 5)" {
		t.Errorf("high float counts %d: %s", r.Of, r.Threshold)
	}
	if r := got[CheckResources]; r.Of != 4 || !slices.Equal(r.OffenderNames, []string{"Pour slab", "Fit-out"}) {
		t.Errorf("resources of %d, names %v", r.Of, r.OffenderNames)
	}
	// No baseline: missed activities and BEI do not apply, and say why.
	if _, ok := got[CheckMissedActivities]; ok {
		t.Errorf("missed activities checked without a baseline")
	}
	if na := naReasons(v); len(na) != 2 || na[11] != "no baseline" || na[14] != "no baseline" {
		t.Errorf("not applicable: %v", na)
	}

	// A deadline a week after the forecast finish: F's float is +5
	// (Tue 9 - Mon 15 Jun), CPLI 66/61 = 1.08, no negative float.
	late := liveP6()
	late.Activities[5].Constraint.Date = "2026-06-15"
	expect(t, runChecks(t, late, DefaultThresholds()), map[string]want{CheckCPLI: pass(), CheckNegativeFloat: pass()})

	// DCMA's own delay, 600 days, moves the finish as far.
	th := DefaultThresholds()
	th.CriticalPathDelay = 600
	far := byID(runChecks(t, liveP6(), th))[CheckCriticalPathTest]
	if !far.Passed || !strings.HasPrefix(far.Detail, "B made 600 days longer: the finish moved 600 days (2026-06-08T17:00:00 to ") {
		t.Errorf("600 days: %+v", far)
	}

	// B planned at 50 days with 6 left spans 6 days from the data date,
	// but its duration, 50, is high: B and D.
	long := liveP6()
	long.Activities[1].Duration = "50"
	expect(t, runChecks(t, long, DefaultThresholds()), map[string]want{CheckHighDuration: fail("B", "D")})

	// The finish constraint made soft (on or after): no deadline gives the
	// finish float, so CPLI would always be 1 - not applicable - and no
	// constraint is hard.
	soft := liveP6()
	soft.Activities[5].Constraint = &schedule.Constraint{Type: schedule.FinishOnOrAfter, Date: "2026-05-29"}
	sv, err := New(soft)
	if err != nil {
		t.Fatal(err)
	}
	if na := naReasons(sv); na[13] != reasonNoDeadline {
		t.Errorf("CPLI without a deadline: %v", na)
	}
	expect(t, runChecks(t, soft, DefaultThresholds()), map[string]want{CheckHardConstraints: pass()})
}

// TestLiveChecksBaseline gives liveP6 baseline finishes through the one
// function the checks read them from, replaced:
// A Thu 5 Mar, E Wed 11 Mar, B Fri 13 Mar (all before the 16 Mar data
// date: due), C Fri 20 Mar and D, F later (not due).
func TestLiveChecksBaseline(t *testing.T) {
	v, err := New(liveP6())
	if err != nil {
		t.Fatal(err)
	}
	base := map[string]string{"A": "2026-03-05T17:00", "B": "2026-03-13T17:00", "C": "2026-03-20T17:00",
		"D": "2026-06-01T17:00", "E": "2026-03-11T17:00", "F": "2026-06-01T17:00"}
	c := newChecker(v)
	c.baseline = func(a *schedule.Activity) (time.Time, bool) {
		at, err := schedule.ParseStart(base[a.ID])
		return at, err == nil
	}
	if na := c.notApplicable(); na[11] != "" || na[14] != "" {
		t.Fatalf("with a baseline, not applicable: %v", na)
	}
	res, err := c.run(DefaultThresholds())
	if err != nil {
		t.Fatal(err)
	}
	expect(t, res, map[string]want{
		// Due: A, B, E. A finished on 6 Mar, a day after its baseline
		// finish; B and E have not finished: 3 of 3 missed.
		CheckMissedActivities: fail("A", "B", "E"),
		// Finished: A, 1; due: 3. BEI 0.33; B and E are due, not done.
		CheckBEI: fail("B", "E"),
	})
	if d := byID(res)[CheckBEI].Detail; d != "BEI 0.33: 1 tasks finished, 3 due by the data date; the offenders are due and not finished" {
		t.Errorf("bei: %q", d)
	}

	// A's baseline on the day it finished (6 Mar, a date alone: some time
	// that day) is met: 2 of 3 missed. With C finished too (actual
	// finish 13 Mar) BEI is 2/3.
	base["A"] = "2026-03-06T17:00"
	s := liveP6()
	s.Activities[2].ActualStart, s.Activities[2].ActualFinish = "2026-03-09", "2026-03-13"
	v2, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	c2 := newChecker(v2)
	c2.baseline = c.baseline
	res, err = c2.run(DefaultThresholds())
	if err != nil {
		t.Fatal(err)
	}
	expect(t, res, map[string]want{CheckMissedActivities: fail("B", "E"), CheckBEI: fail("B", "E")})
	if d := byID(res)[CheckBEI].Detail; d != "BEI 0.67: 2 tasks finished, 3 due by the data date; the offenders are due and not finished" {
		t.Errorf("bei: %q", d)
	}

	// A baseline with nothing due by the data date: both say so.
	c.baseline = func(*schedule.Activity) (time.Time, bool) { return time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), true }
	if na := c.notApplicable(); na[11] != reasonNothingDue || na[14] != reasonNothingDue {
		t.Errorf("nothing due: %v", na)
	}
}

// TestLiveChecksReadTheModelsBaseline: the same points from baselines the
// activities carry (as a file or `baseline set` gives them). Data date
// Mon 16 Mar. Baseline finishes: A Fri 6 Mar (a date alone: any time that
// day), B Fri 13 Mar 17:00, E Wed 11 Mar 17:00 - due; C Fri 20 Mar, D and
// F 1 Jun - not due. A finished on 6 Mar, by its baseline; B and E have
// not finished. Missed: B and E, 2 of 3 (67% > 5%). BEI: 1 finished (A)
// over 3 due, 0.33 < 0.95; offenders B and E.
func TestLiveChecksReadTheModelsBaseline(t *testing.T) {
	s := liveP6()
	finish := map[string]string{"A": "2026-03-06", "B": "2026-03-13T17:00", "C": "2026-03-20T17:00",
		"D": "2026-06-01T17:00", "E": "2026-03-11T17:00", "F": "2026-06-01T17:00"}
	for i := range s.Activities {
		s.Activities[i].BaselineFinish = finish[s.Activities[i].ID]
	}
	v, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	if na := naReasons(v); na[11] != "" || na[14] != "" {
		t.Fatalf("with baselines in the model, not applicable: %v", na)
	}
	res := runChecks(t, s, DefaultThresholds())
	expect(t, res, map[string]want{CheckMissedActivities: fail("B", "E"), CheckBEI: fail("B", "E")})
	got := byID(res)
	if m := got[CheckMissedActivities]; m.Count != 2 || m.Of != 3 {
		t.Errorf("missed activities %d of %d, want 2 of 3", m.Count, m.Of)
	}
	if d := got[CheckBEI].Detail; d != "BEI 0.33: 1 tasks finished, 3 due by the data date; the offenders are due and not finished" {
		t.Errorf("bei: %q", d)
	}
	// Without baselines the points say why they do not apply.
	if na := naReasons(mustView(t, liveP6())); na[11] != reasonNoBaseline || na[14] != reasonNoBaseline {
		t.Errorf("no baseline: %v", na)
	}
}

func mustView(t *testing.T, s *schedule.Schedule) *View {
	t.Helper()
	v, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestLiveInvalidDates: MS Project's rules date work not started from the
// project start and work in progress from its actual start, so forecasts
// can fall before the data date. Start Monday 2 March 2026, data date
// Monday 16 March 00:00: work resumes at 08:00, the first instant after it.
//
//	P Prep     5 d, started 2 Mar 08:00: forecast finish Fri 6 Mar   before: invalid
//	Q Order    3 d, not started, no logic: forecast start Mon 2 Mar  before: invalid
//	R Erect    5 d, started 16 Mar 08:00                            the next working instant: valid
//	T Clad     2 d, started 17 Mar (a date alone)                   after: invalid
//	U Roof     4 d, FS R: 23 - 26 Mar                               valid
//	V Paint    1 d, 10 Mar - finished 16 Mar 10:00                   after: invalid
func TestLiveInvalidDates(t *testing.T) {
	s := &schedule.Schedule{
		Name: "Live MSP", StartDate: "2026-03-02", DataDate: "2026-03-16T00:00",
		Activities: []schedule.Activity{
			{ID: "P", Name: "Prep", Duration: "5", ActualStart: "2026-03-02T08:00"},
			{ID: "Q", Name: "Order", Duration: "3"},
			{ID: "R", Name: "Erect", Duration: "5", ActualStart: "2026-03-16T08:00"},
			{ID: "T", Name: "Clad", Duration: "2", ActualStart: "2026-03-17"},
			{ID: "U", Name: "Roof", Duration: "4"},
			{ID: "V", Name: "Paint", Duration: "1", ActualStart: "2026-03-10", ActualFinish: "2026-03-16T10:00"},
		},
		Relationships: []schedule.Relationship{{ID: "R1", Type: schedule.FS, Predecessor: "R", Successor: "U"}},
	}
	res := runChecks(t, s, DefaultThresholds())
	expect(t, res, map[string]want{CheckInvalidDates: fail("P", "Q", "T", "V")})
	if names := byID(res)[CheckInvalidDates].OffenderNames; !slices.Equal(names, []string{"Prep", "Order", "Clad", "Paint"}) {
		t.Errorf("names %v", names)
	}
}

// TestLiveChecksRealFiles: the shared P6 and MS Project files, worked by
// hand from the files (read with the numbers the import gives).
func TestLiveChecksRealFiles(t *testing.T) {
	load := func(t *testing.T, name string) (*View, []CheckResult) {
		t.Helper()
		s, err := interchange.ReadFile("../../../shared/data/real/" + name)
		if err != nil {
			t.Skipf("reference data: %v", err)
		}
		v, err := New(s)
		if err != nil {
			t.Fatal(err)
		}
		res, err := RunChecks(v, DefaultThresholds())
		if err != nil {
			t.Fatal(err)
		}
		return v, res
	}
	t.Run("percent-complete-8.4.xer", func(t *testing.T) {
		// 12 activities of 100 days, no links, no constraints, no
		// resources; data date 24 Feb 2015 00:00 (a Tuesday). Not
		// started: A1000, A1040, A1080 (early start 24 Feb 08:00, not
		// before the data date). Started on 24 Feb at 08:00 (A1010-A1100:
		// the first working instant after the data date, not after it)
		// or 00:00 (A1110). None finished, not even A1030 (0 days left
		// but no actual finish).
		v, res := load(t, "percent-complete-8.4.xer")
		all := []string{"A1000", "A1010", "A1020", "A1030", "A1040", "A1050", "A1060", "A1070", "A1080", "A1090", "A1100", "A1110"}
		expect(t, res, map[string]want{
			CheckInvalidDates: pass(),
			// Every activity is its own path, all with 0 float.
			CheckHighFloat:     pass(),
			CheckNegativeFloat: pass(),
			// 100 days each: 12 of 12 incomplete tasks.
			CheckHighDuration: fail(all...),
			// A1000 (first of the paths, not started) made 110 days: the
			// finish, 13 Jul, moves 10 working days to 27 Jul.
			CheckCriticalPathTest: pass(),
		})
		if d := byID(res)[CheckCriticalPathTest].Detail; d != "A1000 made 10 days longer: the finish moved 10 days (2015-07-13T16:00:00 to 2015-07-27T16:00:00)" {
			t.Errorf("critical path test: %q", d)
		}
		// The planned dates are the baseline: every task 24 Feb 08:00 to
		// 13 Jul 16:00, none due by the data date.
		want := map[int]string{5: reasonNoConstraints, 10: reasonNoAssignments, 11: reasonNothingDue, 13: reasonNoDeadline, 14: reasonNothingDue}
		if na := naReasons(v); !mapsEqual(na, want) {
			t.Errorf("not applicable %v, want %v", na, want)
		}
	})
	t.Run("PredecessorCalendar.xer", func(t *testing.T) {
		// One activity, A1000 "Test", 3 days, started 10 Jun 2019 08:00
		// and finished 12 Jun 17:00, before the data date of 2 Oct 2019;
		// start on or after 10 Jun (soft). Planned (the baseline) 10 Jun
		// 08:00 to 12 Jun 17:00: due, and finished by it - 0 of 1
		// missed; BEI 1 finished / 1 due = 1.
		v, res := load(t, "PredecessorCalendar.xer")
		expect(t, res, map[string]want{
			CheckHardConstraints: pass(),
			CheckInvalidDates:    pass(),
			// Finished: no incomplete task to count, no critical path.
			CheckHighFloat:        pass(),
			CheckCriticalPathTest: pass(),
			CheckMissedActivities: pass(),
			CheckBEI:              pass(),
		})
		if r := byID(res)[CheckHighFloat]; r.Of != 0 {
			t.Errorf("high float counts %d", r.Of)
		}
		if r := byID(res)[CheckMissedActivities]; r.Count != 0 || r.Of != 1 {
			t.Errorf("missed activities %d of %d, want 0 of 1", r.Count, r.Of)
		}
		if d := byID(res)[CheckBEI].Detail; d != "BEI 1.00: 1 tasks finished, 1 due by the data date; the offenders are due and not finished" {
			t.Errorf("bei: %q", d)
		}
		want := map[int]string{10: reasonNoAssignments, 13: reasonFinished}
		if na := naReasons(v); !mapsEqual(na, want) {
			t.Errorf("not applicable %v, want %v", na, want)
		}
	})
	t.Run("mspditimephasedsegments.xml", func(t *testing.T) {
		// 20 tasks (UIDs 2-21), none finished (3 and 4 half done), every
		// duration above 0, no status date. Each has one assignment in the
		// file; those of UIDs 10-18 are contoured (WorkContour 1-8), which
		// do not date their task but are assignments all the same: 0 of 20
		// lack a resource.
		v, res := load(t, "mspditimephasedsegments.xml")
		expect(t, res, map[string]want{CheckResources: pass()})
		if r := byID(res)[CheckResources]; r.Of != 20 || r.Count != 0 {
			t.Errorf("resources: %d of %d, want 0 of 20", r.Count, r.Of)
		}
		want := map[int]string{5: reasonNoConstraints, 9: reasonNoDataDate, 11: reasonNoDataDate, 13: reasonNoDataDate, 14: reasonNoDataDate}
		if na := naReasons(v); !mapsEqual(na, want) {
			t.Errorf("not applicable %v, want %v", na, want)
		}
	})
	t.Run("task-links-project2016-mspdi.xml", func(t *testing.T) {
		// As task-links-project2007 (see TestCheckMSPDI), but every task
		// manually scheduled: 9 -FS+10d-> 10 is the critical path, 10
		// sits on 23 Feb 2016 whatever 9 does, so 9 made 10 days longer
		// moves no finish - the manual task breaks the path.
		_, res := load(t, "task-links-project2016-mspdi.xml")
		expect(t, res, map[string]want{CheckCriticalPathTest: fail("9")})
	})
	t.Run("mspdiresource.xml", func(t *testing.T) {
		// UID 2 "Task A" (6 d, three flat assignments), 3 "Contoured
		// Task" (7.14 d, one contoured assignment: it does not date the
		// task, but the task is resourced), 4 "Completed Task" (finished:
		// not counted). 0 of 2 unresourced.
		_, res := load(t, "mspdiresource.xml")
		expect(t, res, map[string]want{CheckResources: pass()})
	})
	t.Run("assignment-assignments-project2019-mspdi.xml", func(t *testing.T) {
		// Three manually scheduled tasks, two in progress (25%, 50%), no
		// status date, each with one work resource. MS Project does not
		// date a manual task from its assignments, but they are assigned:
		// resources applies and passes, 0 of 3; the points that need a data
		// date do not apply.
		v, res := load(t, "assignment-assignments-project2019-mspdi.xml")
		expect(t, res, map[string]want{CheckResources: pass()})
		if r := byID(res)[CheckResources]; r.Of != 3 || r.Count != 0 {
			t.Errorf("resources: %d of %d, want 0 of 3", r.Count, r.Of)
		}
		// The three are parallel, 4-15 Jan 2016, each its own path; task
		// 1 (manual: it stays at its dates) gets a finish 10 working days
		// later, Fri 29 Jan, and the finish moves with it.
		expect(t, res, map[string]want{CheckCriticalPathTest: pass()})
		if d := byID(res)[CheckCriticalPathTest].Detail; d != "1 made 10 days longer: the finish moved 10 days (2016-01-15T17:00:00 to 2016-01-29T17:00:00)" {
			t.Errorf("critical path test: %q", d)
		}
		want := map[int]string{5: reasonNoConstraints, 9: reasonNoDataDate, 11: reasonNoDataDate, 13: reasonNoDataDate, 14: reasonNoDataDate}
		if na := naReasons(v); !mapsEqual(na, want) {
			t.Errorf("not applicable %v, want %v", na, want)
		}
	})
}

func mapsEqual(a, b map[int]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestLiveCriticalPathTestCalendars: P6, from Monday 2 March 2026 (also
// the data date), default calendar but for X on a 7-day one.
func TestLiveCriticalPathTestCalendars(t *testing.T) {
	seven := map[string]*schedule.Calendar{"7d": {Name: "7-day", Workdays: schedule.WeekdayNames[:]}}
	run := func(acts []schedule.Activity, rels ...schedule.Relationship) CheckResult {
		s := &schedule.Schedule{StartDate: "2026-03-02", DataDate: "2026-03-02", Calendars: seven,
			Options: &schedule.Options{Tool: schedule.P6}, Activities: acts, Relationships: rels}
		return byID(runChecks(t, s, DefaultThresholds()))[CheckCriticalPathTest]
	}
	fs := func(id, p, s string) schedule.Relationship {
		return schedule.Relationship{ID: id, Type: schedule.FS, Predecessor: p, Successor: s}
	}
	// X 4 days Mon 2 - Thu 5; Y 2 days Fri 6 - Mon 9; Z at Mon 9 17:00.
	// X made 14 days (4 + 10 of its 7-day calendar) ends Sun 15: Y Mon
	// 16 - Tue 17. On the project calendar X's finish moved from day 4
	// to day 10 (Sunday counts as Friday's end), 6 days, and the finish
	// from day 6 to 12, as far: the path is whole.
	got := run([]schedule.Activity{
		{ID: "X", Name: "Cure", Duration: "4", Calendar: "7d"},
		{ID: "Y", Name: "Strip", Duration: "2"},
		{ID: "Z", Name: "Done", Duration: "0", Type: schedule.FinishMilestone},
	}, fs("R1", "X", "Y"), fs("R2", "Y", "Z"))
	if !got.Passed || got.Detail != "X made 10 days longer (its finish 6 working days later): the finish moved 6 days (2026-03-09T17:00:00 to 2026-03-17T17:00:00)" {
		t.Errorf("7-day calendar: %+v", got)
	}
	// Only a finish milestone, typed: nothing to lengthen, nothing failed.
	got = run([]schedule.Activity{{ID: "M", Name: "Done", Duration: "0", Type: schedule.FinishMilestone}})
	if !got.Passed || got.Threshold != "no incomplete task on the critical path to test" {
		t.Errorf("milestone only: %+v", got)
	}
	// A 5 days Mon 2 - Fri 6, B SS+1 10 days Tue 3 - Mon 16: the path
	// runs through A's start. A made 15 days ends Fri 20: its finish moved
	// 10 days, the project finish 4 (Mon 16 to Fri 20).
	got = run([]schedule.Activity{{ID: "A", Name: "Dig", Duration: "5"}, {ID: "B", Name: "Pour", Duration: "10"}},
		schedule.Relationship{ID: "R1", Type: schedule.SS, Predecessor: "A", Successor: "B", Lag: 1})
	if got.Passed || !slices.Equal(got.Offenders, []string{"A"}) || got.Detail != "A made 10 days longer: the finish moved 4 days (2026-03-16T17:00:00 to 2026-03-20T17:00:00)" {
		t.Errorf("SS path: %+v", got)
	}
}

// TestHardConstraintTypes: DCMA's hard constraints are must start/finish
// on and start/finish no later than; P6's mandatory start and finish are
// hard too. As soon/late as possible and on or after are soft.
func TestHardConstraintTypes(t *testing.T) {
	hard := map[schedule.ConstraintType]bool{
		schedule.StartOn: true, schedule.FinishOn: true, schedule.MandatoryStart: true, schedule.MandatoryFinish: true,
		schedule.StartOnOrBefore: true, schedule.FinishOnOrBefore: true,
		schedule.StartOnOrAfter: false, schedule.FinishOnOrAfter: false, schedule.AsLateAsPossible: false,
	}
	for typ, want := range hard {
		if got := hardConstraint(&schedule.Constraint{Type: typ, Date: "2026-03-02"}); got != want {
			t.Errorf("%s: hard %v, want %v", typ, got, want)
		}
	}
	if hardConstraint(nil) {
		t.Errorf("no constraint is hard")
	}
}

// TestChecksEveryRealFile: every check runs on every shared file (and the
// store's statused programme) without an error, each result naming each
// offender, and no point both checked and listed as not applicable.
func TestChecksEveryRealFile(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/data/real/*.x*")
	more, _ := filepath.Glob("../../../shared/data/mspdi/*.xml")
	if len(files) == 0 {
		t.Skip("reference data missing")
	}
	scheds := map[string]*schedule.Schedule{"storetest.LiveSchedule": storetest.LiveSchedule(), "liveP6": liveP6()}
	for _, f := range append(files, more...) {
		if s, err := interchange.ReadFile(f); err == nil {
			scheds[filepath.Base(f)] = s
		}
	}
	point := map[string]int{CheckHardConstraints: 5, CheckInvalidDates: 9, CheckResources: 10, CheckMissedActivities: 11, CheckCPLI: 13, CheckBEI: 14}
	for name, s := range scheds {
		v, err := New(s)
		if err != nil {
			continue // a file the engine refuses is not the checks' to judge
		}
		res, err := RunChecks(v, DefaultThresholds())
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		na := naReasons(v)
		for _, r := range res {
			if len(r.OffenderNames) != len(r.Offenders) || r.Count != len(r.Offenders) {
				t.Errorf("%s %s: %d offenders, %d names, count %d", name, r.ID, len(r.Offenders), len(r.OffenderNames), r.Count)
			}
			if p, ok := point[r.ID]; ok && na[p] != "" {
				t.Errorf("%s: %s checked and not applicable (%s)", name, r.ID, na[p])
			}
		}
		if len(res)+len(na) != 11+len(point) {
			t.Errorf("%s: %d checks and %d not applicable, want %d in all", name, len(res), len(na), 11+len(point))
		}
	}
}
