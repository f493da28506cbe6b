package schedule

import (
	"math"
	"testing"
	"time"
)

// The live engine computes a plain logic network exactly as the
// working-day engine does, under either tool's rules: the same offsets and
// floats for every activity of random networks with every link type, leads
// and lags.
func TestLiveEngineAgreesOnPlainNetworks(t *testing.T) {
	for _, tool := range []string{MSProject, P6} {
		for seed := uint64(1); seed <= 5; seed++ {
			s := Synthetic(300, 3, seed)
			s.StartDate = "2026-01-05"
			plain, err := Analyze(s)
			if err != nil {
				t.Fatal(err)
			}
			live := s.Clone()
			live.Options = &Options{Tool: tool, LagCalendar: LagSuccessor}
			got, err := Analyze(live)
			if err != nil {
				t.Fatal(err)
			}
			if got.Times == nil {
				t.Fatal("the options did not select the live engine")
			}
			same := func(a, b float64) bool { return math.Abs(a-b) < 1.0/480 }
			for i := range s.Activities {
				for _, f := range []struct {
					name       string
					want, have float64
				}{
					{"ES", plain.ES[i], got.ES[i]}, {"EF", plain.EF[i], got.EF[i]},
					{"LS", plain.LS[i], got.LS[i]}, {"LF", plain.LF[i], got.LF[i]},
					{"TF", plain.TotalFloat[i], got.TotalFloat[i]},
				} {
					if !same(f.want, f.have) {
						t.Fatalf("%s seed %d: activity %s %s: plain %g, live %g", tool, seed, s.Activities[i].ID, f.name, f.want, f.have)
					}
				}
			}
			if !same(plain.ProjectDuration, got.ProjectDuration) {
				t.Errorf("%s seed %d: project duration plain %g, live %g", tool, seed, plain.ProjectDuration, got.ProjectDuration)
			}
		}
	}
}

// liveCase is a small programme and the dates the tool gives it.
type liveCase struct {
	name string
	s    *Schedule
	// want: activity id -> ES, EF, LS, LF ("2006-01-02 15:04"; "" not
	// checked) and total float in working minutes (nil not checked).
	want map[string]liveWant
}

type liveWant struct {
	es, ef, ls, lf string
	float          *int64
}

func minutes(m int64) *int64 { return &m }

func liveSchedule(opts *Options, acts []Activity, rels ...Relationship) *Schedule {
	s := &Schedule{Name: "live", StartDate: "2026-03-02", Options: opts, Activities: acts, Relationships: rels}
	for i := range s.Relationships {
		s.Relationships[i].ID = "R" + s.Relationships[i].Predecessor + s.Relationships[i].Successor
	}
	return s
}

func TestLiveEngine(t *testing.T) {
	sevenDay := &Calendar{Name: "7-day", Workdays: WeekdayNames[:]}
	p6 := &Options{Tool: P6}
	cases := []liveCase{
		{
			name: "a 7-day calendar works the weekend; its successor waits for Monday",
			s: func() *Schedule {
				s := liveSchedule(nil, []Activity{
					{ID: "A", Name: "Pour", Duration: "4"},
					{ID: "B", Name: "Cure", Duration: "3", Calendar: "7d"},
					{ID: "C", Name: "Strip", Duration: "1"},
				}, Relationship{Type: FS, Predecessor: "A", Successor: "B"}, Relationship{Type: FS, Predecessor: "B", Successor: "C"})
				s.Calendars = map[string]*Calendar{"7d": sevenDay}
				return s
			}(),
			want: map[string]liveWant{
				"B": {es: "2026-03-06 08:00", ef: "2026-03-08 17:00"},
				"C": {es: "2026-03-09 08:00", ef: "2026-03-09 17:00", float: minutes(0)},
			},
		},
		{
			name: "P6 writes a finish a start-to-finish link gives as that start (Thu 08:00, not Wed 17:00)",
			s: liveSchedule(p6, []Activity{
				{ID: "X", Name: "Design", Duration: "3"},
				{ID: "A", Name: "Excavate", Duration: "2"},
				{ID: "B", Name: "Mobilise", Duration: "1"},
			}, Relationship{Type: FS, Predecessor: "X", Successor: "A"}, Relationship{Type: SF, Predecessor: "A", Successor: "B"}),
			want: map[string]liveWant{
				"A": {es: "2026-03-05 08:00"},
				"B": {es: "2026-03-04 08:00", ef: "2026-03-05 08:00"},
			},
		},
		{
			name: "P6 writes a late start a start-to-finish link gives as that finish (Fri 17:00, not Mon 08:00)",
			s: liveSchedule(p6, []Activity{
				{ID: "P", Name: "Order", Duration: "1"},
				{ID: "Q", Name: "Deliver", Duration: "2", Constraint: &Constraint{Type: FinishOnOrBefore, Date: "2026-03-06T17:00"}},
				{ID: "Z", Name: "Long lead", Duration: "10"},
			}, Relationship{Type: SF, Predecessor: "P", Successor: "Q"}),
			want: map[string]liveWant{
				"Q": {lf: "2026-03-06 17:00"},
				"P": {ls: "2026-03-06 17:00", lf: "2026-03-09 17:00"},
			},
		},
		{
			name: "elapsed days run on the clock, nights and weekends too",
			s: liveSchedule(nil, []Activity{
				{ID: "A", Name: "Prep", Duration: "4"},
				{ID: "B", Name: "Dry", Duration: "3ed"},
			}, Relationship{Type: FS, Predecessor: "A", Successor: "B"}),
			want: map[string]liveWant{
				"B": {es: "2026-03-05 17:00", ef: "2026-03-08 17:00"},
			},
		},
		{
			// MS Project honours constraint dates over logic: B finishes by
			// its date, before A lets it start, and A shows the conflict.
			name: "MS Project: start-no-earlier-than delays, finish-no-later-than gives negative float",
			s: liveSchedule(nil, []Activity{
				{ID: "A", Name: "Design", Duration: "5", Constraint: &Constraint{Type: StartOnOrAfter, Date: "2026-03-04"}},
				{ID: "B", Name: "Approve", Duration: "2", Constraint: &Constraint{Type: FinishOnOrBefore, Date: "2026-03-10"}},
			}, Relationship{Type: FS, Predecessor: "A", Successor: "B"}),
			want: map[string]liveWant{
				"A": {es: "2026-03-04 08:00", ef: "2026-03-10 17:00", lf: "2026-03-06 17:00", float: minutes(-2 * 480)},
				"B": {es: "2026-03-09 08:00", ef: "2026-03-10 17:00", lf: "2026-03-10 17:00", float: minutes(0)},
			},
		},
		{
			name: "P6: done work at the data date, remaining work from it, the rest after its logic",
			s: func() *Schedule {
				s := liveSchedule(p6, []Activity{
					{ID: "A", Name: "Excavate", Duration: "5", ActualStart: "2026-03-02", ActualFinish: "2026-03-06"},
					{ID: "B", Name: "Pour", Duration: "4", ActualStart: "2026-03-09", Remaining: "2"},
					{ID: "C", Name: "Cure", Duration: "3"},
				}, Relationship{Type: FS, Predecessor: "A", Successor: "B"}, Relationship{Type: FS, Predecessor: "B", Successor: "C"})
				s.DataDate = "2026-03-11"
				return s
			}(),
			want: map[string]liveWant{
				"A": {es: "2026-03-11 08:00", ef: "2026-03-11 08:00", float: minutes(0)},
				"B": {es: "2026-03-11 08:00", ef: "2026-03-12 17:00"},
				"C": {es: "2026-03-13 08:00", ef: "2026-03-17 17:00", lf: "2026-03-17 17:00", float: minutes(0)},
			},
		},
		{
			// The tool's own files (real P6 exports) date finished work's
			// late dates this way: a lag already run by the data date is
			// not taken off the successor's late start again.
			name: "P6: a finished predecessor's lag spent by the data date is not removed again",
			s: func() *Schedule {
				s := liveSchedule(p6, []Activity{
					{ID: "A", Name: "Excavate", Duration: "3", ActualStart: "2026-03-02", ActualFinish: "2026-03-04"},
					{ID: "B", Name: "Pour", Duration: "2"},
				}, Relationship{Type: FS, Predecessor: "A", Successor: "B", Lag: 3})
				s.DataDate = "2026-03-11"
				return s
			}(),
			want: map[string]liveWant{
				// P6 writes the successor's late start as it is (Wed 08:00).
				"A": {ls: "2026-03-11 08:00", lf: "2026-03-11 08:00"},
				"B": {es: "2026-03-11 08:00", ef: "2026-03-12 17:00", ls: "2026-03-11 08:00", float: minutes(0)},
			},
		},
		{
			name: "P6: the part of a finished predecessor's lag still to run holds both passes",
			s: func() *Schedule {
				s := liveSchedule(p6, []Activity{
					{ID: "A", Name: "Excavate", Duration: "3", ActualStart: "2026-03-05", ActualFinish: "2026-03-09"},
					{ID: "B", Name: "Pour", Duration: "2"},
				}, Relationship{Type: FS, Predecessor: "A", Successor: "B", Lag: 3})
				s.DataDate = "2026-03-11"
				return s
			}(),
			want: map[string]liveWant{
				// One of the three days (Tue 10th) has run: two remain.
				"A": {lf: "2026-03-11 08:00"},
				"B": {es: "2026-03-13 08:00", ef: "2026-03-16 17:00", ls: "2026-03-13 08:00"},
			},
		},
		{
			name: "P6: no start-finish lag between two finished activities",
			s: func() *Schedule {
				s := liveSchedule(p6, []Activity{
					{ID: "A", Name: "Set out", Duration: "2", ActualStart: "2026-03-02", ActualFinish: "2026-03-03"},
					{ID: "B", Name: "Excavate", Duration: "2", ActualStart: "2026-03-04", ActualFinish: "2026-03-05"},
					{ID: "C", Name: "Pour", Duration: "2"},
				}, Relationship{Type: SF, Predecessor: "A", Successor: "B", Lag: 2}, Relationship{Type: FS, Predecessor: "B", Successor: "C"})
				s.DataDate = "2026-03-11"
				return s
			}(),
			want: map[string]liveWant{
				"B": {lf: "2026-03-11 08:00"},
				"A": {lf: "2026-03-11 08:00"},
			},
		},
		{
			name: "P6: no lag from finished work into a successor already under way",
			s: func() *Schedule {
				s := liveSchedule(p6, []Activity{
					{ID: "A", Name: "Excavate", Duration: "3", ActualStart: "2026-03-02", ActualFinish: "2026-03-04"},
					{ID: "B", Name: "Pour", Duration: "4", ActualStart: "2026-03-09", Remaining: "2"},
					{ID: "C", Name: "Cure", Duration: "1"},
				}, Relationship{Type: FS, Predecessor: "A", Successor: "B", Lag: 2}, Relationship{Type: FS, Predecessor: "B", Successor: "C"})
				s.DataDate = "2026-03-11"
				return s
			}(),
			want: map[string]liveWant{
				"B": {ls: "2026-03-11 08:00", lf: "2026-03-12 17:00"},
				"A": {lf: "2026-03-11 08:00"},
			},
		},
		{
			// As a real P6 export has it: the milestone at 00:00, the work
			// after it at the calendar's first hour.
			name: "P6: a start milestone nothing drives sits at the data date, working time or not",
			s: func() *Schedule {
				s := liveSchedule(p6, []Activity{
					{ID: "M", Name: "Project start", Duration: "0", Type: StartMilestone},
					{ID: "A", Name: "Mobilise", Duration: "2"},
				}, Relationship{Type: FS, Predecessor: "M", Successor: "A"})
				s.DataDate = "2026-03-02T00:00"
				return s
			}(),
			want: map[string]liveWant{
				"M": {es: "2026-03-02 00:00", ef: "2026-03-02 00:00"},
				"A": {es: "2026-03-02 08:00", ef: "2026-03-03 17:00"},
			},
		},
		{
			name: "P6: a start milestone nothing drives moves from a data date on a day off to the next working start",
			s: func() *Schedule {
				s := liveSchedule(p6, []Activity{
					{ID: "M", Name: "Project start", Duration: "0", Type: StartMilestone},
					{ID: "A", Name: "Mobilise", Duration: "2"},
				}, Relationship{Type: FS, Predecessor: "M", Successor: "A"})
				s.DataDate = "2026-03-07T00:00" // a Saturday
				return s
			}(),
			want: map[string]liveWant{
				"M": {es: "2026-03-09 08:00", ef: "2026-03-09 08:00"},
			},
		},
		{
			name: "P6 mandatory start holds against logic; start-on-or-after only moves later",
			s: liveSchedule(p6, []Activity{
				{ID: "A", Name: "Long lead", Duration: "10"},
				{ID: "B", Name: "Install", Duration: "2", Constraint: &Constraint{Type: MandatoryStart, Date: "2026-03-09"}},
				{ID: "C", Name: "Test", Duration: "1", Constraint: &Constraint{Type: StartOnOrAfter, Date: "2026-03-03"}},
			}, Relationship{Type: FS, Predecessor: "A", Successor: "B"}, Relationship{Type: FS, Predecessor: "B", Successor: "C"}),
			want: map[string]liveWant{
				"B": {es: "2026-03-09 08:00", ef: "2026-03-10 17:00"},
				"C": {es: "2026-03-11 08:00", ef: "2026-03-11 17:00"},
			},
		},
		{
			name: "P6 lag on the 24-hour calendar counts the weekend",
			s: liveSchedule(&Options{Tool: P6, LagCalendar: Lag24Hour}, []Activity{
				{ID: "A", Name: "Pour", Duration: "5"},
				{ID: "B", Name: "Load", Duration: "1"},
			}, Relationship{Type: FS, Predecessor: "A", Successor: "B", Lag: 2}),
			want: map[string]liveWant{
				// 2 days of 8 hours = 16 hours of the clock from Fri 17:00.
				"B": {es: "2026-03-09 08:00", ef: "2026-03-09 17:00"},
			},
		},
		{
			name: "level of effort spans its predecessors to its successors; a WBS summary its branch",
			s: liveSchedule(p6, []Activity{
				{ID: "A", Name: "Dig", Duration: "3", WBS: "1.1"},
				{ID: "B", Name: "Build", Duration: "4", WBS: "1.2"},
				{ID: "M", Name: "Supervision", Duration: "0", Type: LevelOfEffort},
				{ID: "W", Name: "Works", Duration: "0", Type: WBSSummary, WBS: "1"},
			}, Relationship{Type: FS, Predecessor: "A", Successor: "B"},
				Relationship{Type: SS, Predecessor: "A", Successor: "M"}, Relationship{Type: FF, Predecessor: "M", Successor: "B"}),
			want: map[string]liveWant{
				"M": {es: "2026-03-02 08:00", ef: "2026-03-10 17:00"},
				"W": {es: "2026-03-02 08:00", ef: "2026-03-10 17:00"},
			},
		},
		{
			name: "P6: as late as possible moves the early dates up to the successor's, here its late dates",
			s: liveSchedule(p6, []Activity{
				{ID: "A", Name: "Frame", Duration: "5"},
				{ID: "B", Name: "Order paint", Duration: "1", Constraint: &Constraint{Type: AsLateAsPossible}},
				{ID: "C", Name: "Paint", Duration: "2"},
			}, Relationship{Type: FS, Predecessor: "A", Successor: "C"}, Relationship{Type: FS, Predecessor: "B", Successor: "C"}),
			want: map[string]liveWant{
				"B": {es: "2026-03-06 08:00", ef: "2026-03-06 17:00", ls: "2026-03-06 08:00", lf: "2026-03-06 17:00", float: minutes(0)},
			},
		},
		{
			// As real P6 exports have it (and MPXJ's PrimaveraScheduler):
			// as late as the successors' early dates allow, not the late
			// dates, and the float left is the activity's own.
			name: "P6: as late as possible stops at a successor's early start and keeps its total float",
			s: liveSchedule(p6, []Activity{
				{ID: "A", Name: "Frame", Duration: "5"},
				{ID: "B", Name: "Order paint", Duration: "1", Constraint: &Constraint{Type: AsLateAsPossible}},
				{ID: "C", Name: "Paint", Duration: "2"},
				{ID: "E", Name: "Sample", Duration: "1"},
			}, Relationship{Type: FS, Predecessor: "A", Successor: "C"}, Relationship{Type: FS, Predecessor: "B", Successor: "C"},
				Relationship{Type: FS, Predecessor: "B", Successor: "E"}),
			want: map[string]liveWant{
				"B": {es: "2026-03-02 08:00", ef: "2026-03-02 17:00", ls: "2026-03-06 08:00", float: minutes(4 * 480)},
			},
		},
		{
			name: "P6: the late dates count back from the project's must-finish-by date, float negative past it",
			s: liveSchedule(&Options{Tool: P6, MustFinishBy: "2026-03-04"}, []Activity{
				{ID: "A", Name: "Frame", Duration: "3"},
				{ID: "B", Name: "Paint", Duration: "2"},
			}, Relationship{Type: FS, Predecessor: "A", Successor: "B"}),
			want: map[string]liveWant{
				"B": {ef: "2026-03-06 17:00", lf: "2026-03-04 17:00", ls: "2026-03-03 08:00", float: minutes(-2 * 480)},
				"A": {lf: "2026-03-02 17:00", float: minutes(-2 * 480)},
			},
		},
		{
			// As a real P6 export has it: work reported finished while the
			// work before it has not started sits where its logic puts it
			// (the lag counted), and what follows it from there.
			name: "P6: finished work out of sequence sits where its logic puts it; its successor follows it",
			s: func() *Schedule {
				s := liveSchedule(p6, []Activity{
					{ID: "A", Name: "Survey", Duration: "5"},
					{ID: "B", Name: "Method statement", Duration: "3", ActualStart: "2026-02-16", ActualFinish: "2026-02-18"},
					{ID: "C", Name: "Approve", Duration: "2"},
				}, Relationship{Type: SS, Predecessor: "A", Successor: "B", Lag: 2}, Relationship{Type: SS, Predecessor: "B", Successor: "C", Lag: 1})
				s.DataDate = "2026-03-02"
				return s
			}(),
			want: map[string]liveWant{
				"B": {es: "2026-03-03 17:00", ef: "2026-03-03 17:00"},
				"C": {es: "2026-03-04 08:00", ef: "2026-03-05 17:00"},
			},
		},
		{
			name: "P6: the late dates of work under way take an SS lag its work done has covered as run",
			s: func() *Schedule {
				s := liveSchedule(p6, []Activity{
					{ID: "A", Name: "Excavate", Duration: "6", ActualStart: "2026-02-23", Remaining: "1"},
					{ID: "B", Name: "Blind", Duration: "5"},
				}, Relationship{Type: SS, Predecessor: "A", Successor: "B", Lag: 2})
				s.StartDate = "2026-02-23"
				s.DataDate = "2026-03-02"
				return s
			}(),
			want: map[string]liveWant{
				"B": {es: "2026-03-02 08:00", ls: "2026-03-02 08:00"},
				"A": {lf: "2026-03-02 17:00", float: minutes(0)},
			},
		},
		{
			name: "P6: a finish link from work under way into finished work counts its lag",
			s: func() *Schedule {
				s := liveSchedule(p6, []Activity{
					{ID: "A", Name: "Design", Duration: "10", ActualStart: "2026-03-02", Remaining: "3"},
					{ID: "B", Name: "Survey", Duration: "2", ActualStart: "2026-03-02", ActualFinish: "2026-03-03"},
				}, Relationship{Type: FS, Predecessor: "A", Successor: "B", Lag: -2})
				s.DataDate = "2026-03-11"
				return s
			}(),
			want: map[string]liveWant{
				"A": {ef: "2026-03-13 17:00"},
				"B": {es: "2026-03-12 08:00", ef: "2026-03-12 08:00"},
			},
		},
		{
			name: "P6 with progress override: finished work stays at the data date, whatever its logic",
			s: func() *Schedule {
				s := liveSchedule(&Options{Tool: P6, Progress: ProgressOverride}, []Activity{
					{ID: "A", Name: "Survey", Duration: "5"},
					{ID: "B", Name: "Method statement", Duration: "3", ActualStart: "2026-02-16", ActualFinish: "2026-02-18"},
					{ID: "C", Name: "Approve", Duration: "2"},
				}, Relationship{Type: SS, Predecessor: "A", Successor: "B", Lag: 2}, Relationship{Type: FS, Predecessor: "B", Successor: "C"})
				s.DataDate = "2026-03-02"
				return s
			}(),
			want: map[string]liveWant{
				"B": {es: "2026-03-02 08:00", ef: "2026-03-02 08:00"},
				"C": {es: "2026-03-02 08:00", ef: "2026-03-03 17:00"},
			},
		},
		{
			// As a real P6 export has it: the successor on a 7-day
			// calendar may start late on a Sunday; the milestone on a
			// 5-day one takes the Friday's finish.
			name: "P6: a start milestone's late date off its own working time moves back to its last finish",
			s: func() *Schedule {
				s := liveSchedule(&Options{Tool: P6, MustFinishBy: "2026-03-08T17:00"}, []Activity{
					{ID: "M", Name: "Access granted", Duration: "0", Type: StartMilestone},
					{ID: "S", Name: "Weekend survey", Duration: "1", Calendar: "7d"},
				}, Relationship{Type: FS, Predecessor: "M", Successor: "S"})
				s.Calendars = map[string]*Calendar{"7d": sevenDay}
				return s
			}(),
			want: map[string]liveWant{
				"S": {ls: "2026-03-08 08:00"},
				"M": {ls: "2026-03-06 17:00", lf: "2026-03-06 17:00"},
			},
		},
		{
			name: "P6: an SS successor of work under way follows its remaining work, the lag covered by the work done",
			s: func() *Schedule {
				s := liveSchedule(p6, []Activity{
					{ID: "P", Name: "Permit", Duration: "3"},
					{ID: "A", Name: "Excavate", Duration: "10", ActualStart: "2026-02-23", Remaining: "5"},
					{ID: "B", Name: "Blind", Duration: "2"},
				}, Relationship{Type: FS, Predecessor: "P", Successor: "A"}, Relationship{Type: SS, Predecessor: "A", Successor: "B", Lag: 2})
				s.StartDate = "2026-02-23"
				s.DataDate = "2026-03-02"
				return s
			}(),
			want: map[string]liveWant{
				"A": {es: "2026-03-05 08:00"},
				"B": {es: "2026-03-05 08:00", ef: "2026-03-06 17:00"},
			},
		},
		{
			name: "a manually scheduled task stays where the planner put it",
			s: liveSchedule(nil, []Activity{
				{ID: "A", Name: "Survey", Duration: "2"},
				{ID: "B", Name: "Fixed visit", Duration: "1", Manual: true, Start: "2026-03-02T08:00", Finish: "2026-03-02T17:00"},
			}, Relationship{Type: FS, Predecessor: "A", Successor: "B"}),
			want: map[string]liveWant{
				"B": {es: "2026-03-02 08:00", ef: "2026-03-02 17:00"},
			},
		},
		{
			// As MS Project 2016 and 2019 save it (MPXJ's task-links files).
			name: "MS Project: a manually scheduled task's late finish is written as its successor's late start",
			s: liveSchedule(nil, []Activity{
				{ID: "A", Name: "Fixed visit", Duration: "1", Manual: true, Start: "2026-03-02T08:00", Finish: "2026-03-02T17:00"},
				{ID: "B", Name: "Report", Duration: "1"},
				{ID: "C", Name: "Long lead", Duration: "3"},
			}, Relationship{Type: FS, Predecessor: "A", Successor: "B"}),
			want: map[string]liveWant{
				"B": {ls: "2026-03-04 08:00"},
				"A": {ls: "2026-03-03 08:00", lf: "2026-03-04 08:00"},
			},
		},
		{
			name: "MS Project: a half-time resource takes twice the time; a night shift moves the finish",
			s: func() *Schedule {
				s := liveSchedule(nil, []Activity{
					{ID: "A", Name: "Paint", Duration: "2", Assignments: []Assignment{{Resource: "Painter", Units: 0.5, Work: "2"}}},
					{ID: "B", Name: "Guard", Duration: "1", Assignments: []Assignment{{Resource: "Night guard", Work: "1", Calendar: "night"}}},
				})
				s.Calendars = map[string]*Calendar{"night": {Name: "Night", Hours: []string{"22:00-24:00"}, HoursPerDay: 8}}
				return s
			}(),
			want: map[string]liveWant{
				"A": {es: "2026-03-02 08:00", ef: "2026-03-05 17:00"},
				// Eight hours of 22:00-24:00 nights: Mon to Thu.
				"B": {es: "2026-03-02 22:00", ef: "2026-03-06 00:00"},
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Analyze(c.s)
			if err != nil {
				t.Fatal(err)
			}
			if r.Times == nil {
				t.Fatal("not computed by the live engine")
			}
			const layout = "2006-01-02 15:04"
			for id, w := range c.want {
				i, ok := r.Net.Index(id)
				if !ok {
					t.Fatalf("no activity %s", id)
				}
				tm := r.Times
				for _, f := range []struct {
					name string
					want string
					have time.Time
				}{{"early start", w.es, tm.ES[i]}, {"early finish", w.ef, tm.EF[i]}, {"late start", w.ls, tm.LS[i]}, {"late finish", w.lf, tm.LF[i]}} {
					if f.want != "" && f.have.Format(layout) != f.want {
						t.Errorf("%s %s: got %s, want %s", id, f.name, f.have.Format(layout), f.want)
					}
				}
				if w.float != nil && tm.FloatMinutes[i] != *w.float {
					t.Errorf("%s total float: got %d min, want %d", id, tm.FloatMinutes[i], *w.float)
				}
			}
		})
	}
}
