package risk

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// liveCases are progressed programmes: P6's rules and MS Project's, a real
// P6 file with in-progress work and real MSPDI files with progress.
func liveCases(t *testing.T) map[string]*schedule.Schedule {
	t.Helper()
	msp := storetest.LiveSchedule()
	msp.Options = nil // MS Project's rules
	cases := map[string]*schedule.Schedule{"storetest P6": storetest.LiveSchedule(), "storetest MS Project": msp, "two calendars": twoCalendars()}
	for name, path := range map[string]string{
		"percent-complete-8.4.xer":    "../../../shared/data/real/percent-complete-8.4.xer",
		"mspditimephasedsegments.xml": "../../../shared/data/real/mspditimephasedsegments.xml",
		"mspdiresource.xml":           "../../../shared/data/real/mspdiresource.xml",
	} {
		s, _, err := interchange.Load(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cases[name] = s
	}
	return cases
}

// twoCalendars is a small P6 programme with a finished activity, one in
// progress with an explicit remaining, constraints and a 7-day calendar.
func twoCalendars() *schedule.Schedule {
	return &schedule.Schedule{
		Name: "two calendars", StartDate: "2026-03-02", DataDate: "2026-03-11",
		Options:   &schedule.Options{Tool: schedule.P6},
		Calendars: map[string]*schedule.Calendar{"7d": {Workdays: schedule.WeekdayNames[:]}},
		Activities: []schedule.Activity{
			{ID: "A", Duration: "5", ActualStart: "2026-03-02", ActualFinish: "2026-03-06", PercentComplete: 100},
			{ID: "B", Duration: "6", ActualStart: "2026-03-09", Remaining: "4", PercentComplete: 33},
			{ID: "C", Duration: "4", Calendar: "7d", Constraint: &schedule.Constraint{Type: schedule.StartOnOrAfter, Date: "2026-03-20"}},
			{ID: "D", Duration: "3", Constraint: &schedule.Constraint{Type: schedule.FinishOnOrBefore, Date: "2026-04-30"}},
			{ID: "E", Duration: "0", Type: schedule.FinishMilestone},
		},
		Relationships: []schedule.Relationship{
			{ID: "1", Type: schedule.FS, Predecessor: "A", Successor: "B"},
			{ID: "2", Type: schedule.FS, Predecessor: "B", Successor: "C"},
			{ID: "3", Type: schedule.SS, Predecessor: "B", Successor: "D", Lag: 1},
			{ID: "4", Type: schedule.FS, Predecessor: "C", Successor: "E"},
			{ID: "5", Type: schedule.FF, Predecessor: "D", Successor: "E"},
		},
	}
}

// spread gives every plain working-day duration d > 0 the distribution
// triangular(lo·d, d, hi·d): its mode, what the engine uses, stays d.
func spread(s *schedule.Schedule, lo, hi float64) *schedule.Schedule {
	c := s.Clone()
	for i := range c.Activities {
		a := &c.Activities[i]
		d, err := strconv.ParseFloat(a.Duration, 64)
		if err != nil || d <= 0 {
			continue
		}
		a.Duration = fmt.Sprintf("triangular(%g,%g,%g)", lo*d, d, hi*d)
	}
	return c
}

func engine(t *testing.T, s *schedule.Schedule) *schedule.Result {
	t.Helper()
	r, err := schedule.Analyze(s)
	if err != nil {
		t.Fatal(err)
	}
	if r.Times == nil {
		t.Fatal("not a live programme")
	}
	return r
}

// TestLiveDeterministic: with the deterministic durations the simulation is
// the live engine: the same project finish (working days, bit for bit, and
// date) and the same critical activities, through the path that writes
// sampled durations and scaled remaining work into the schedule; with every
// duration fixed, every iteration is that finish.
func TestLiveDeterministic(t *testing.T) {
	for name, s := range liveCases(t) {
		t.Run(name, func(t *testing.T) {
			want := engine(t, s)
			// Fixed durations: nothing to sample.
			m, err := Compile(s)
			if err != nil {
				t.Fatal(err)
			}
			if !m.Live() || m.Deterministic != want.ProjectDuration {
				t.Fatalf("live %v, deterministic %v, want the engine's %v", m.Live(), m.Deterministic, want.ProjectDuration)
			}
			res, err := m.Run(Options{Iterations: 3, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			for i, f := range res.Finish {
				if f != want.ProjectDuration || !res.Live.FinishDates[i].Equal(want.Times.Finish) {
					t.Fatalf("iteration %d: %v %v, want %v %v", i, f, res.Live.FinishDates[i], want.ProjectDuration, want.Times.Finish)
				}
			}
			for v, c := range res.Criticality {
				if (c == 1) != want.Critical(v) || c != 0 && c != 1 {
					t.Fatalf("activity %s: criticality %v, the engine says critical %v", m.IDs[v], c, want.Critical(v))
				}
			}
			rep := &Report{Result: res}
			for _, p := range []float64{res.P50, res.P80, res.P90, res.Deterministic} {
				if d, err := rep.date(p); err != nil || !d.Equal(want.Times.Finish) {
					t.Fatalf("date of %v: %v %v, want %v", p, d, err, want.Times.Finish)
				}
			}

			// Distributions whose mode is the duration: the sampled path
			// with the deterministic values is the engine.
			sp := spread(s, 0.8, 1.5)
			m, err = Compile(sp)
			if err != nil {
				t.Fatal(err)
			}
			if m.Random() == 0 {
				t.Fatal("nothing sampled")
			}
			got := engine(t, sp)
			if got.ProjectDuration != want.ProjectDuration || m.Deterministic != want.ProjectDuration {
				t.Fatalf("spread: engine %v, model %v, want %v", got.ProjectDuration, m.Deterministic, want.ProjectDuration)
			}
			finish, critical := m.Pass(m.DeterministicDurations())
			if finish != want.ProjectDuration {
				t.Fatalf("pass with the deterministic durations: %v, want %v", finish, want.ProjectDuration)
			}
			for v := range critical {
				if critical[v] != want.Critical(v) {
					t.Fatalf("activity %s: critical %v, the engine says %v", m.IDs[v], critical[v], want.Critical(v))
				}
			}
		})
	}
}

// TestLiveActualsFixed: over sampled iterations, finished activities keep
// the dates the deterministic engine gives them and are never sampled;
// started ones keep their actual start (MS Project dates their start there;
// P6 runs their remaining work from the data date), and under P6's rules
// no unfinished work is dated before the data date.
func TestLiveActualsFixed(t *testing.T) {
	for name, s := range liveCases(t) {
		t.Run(name, func(t *testing.T) {
			sp := spread(s, 0.5, 3)
			det := engine(t, sp)
			m, err := Compile(sp)
			if err != nil {
				t.Fatal(err)
			}
			lm := m.live
			w := lm.newWorker()
			smp := m.newSampler(&Options{Seed: 3}, 0, make([]*qtable, m.Len()))
			dur := make([]float64, m.Len())
			p6 := sp.Options.IsP6()
			var data time.Time
			if sp.DataDate != "" {
				data, _ = schedule.ParseStart(sp.DataDate)
			}
			for iter := range 40 {
				smp.sample(iter, dur)
				if _, err := lm.run(w, dur, make([]int32, m.Len())); err != nil {
					t.Fatal(err)
				}
				r := engine(t, &w.s)
				for v, a := range sp.Activities {
					got := w.s.Activities[v]
					if got.ActualStart != a.ActualStart || got.ActualFinish != a.ActualFinish {
						t.Fatalf("iteration %d, %s: actuals rewritten", iter, a.ID)
					}
					if a.ActualFinish != "" {
						if m.dists[v].kind != kFixed || got.Duration != a.Duration {
							t.Fatalf("iteration %d, %s: a finished activity was sampled (%q)", iter, a.ID, got.Duration)
						}
						if !r.Times.ES[v].Equal(det.Times.ES[v]) || !r.Times.EF[v].Equal(det.Times.EF[v]) {
							t.Fatalf("iteration %d, finished %s moved: %v-%v, deterministic %v-%v", iter, a.ID, r.Times.ES[v], r.Times.EF[v], det.Times.ES[v], det.Times.EF[v])
						}
						continue
					}
					if a.ActualStart != "" && !p6 && !r.Times.ES[v].Equal(det.Times.ES[v]) {
						t.Fatalf("iteration %d, started %s: start %v, its actual start is %v", iter, a.ID, r.Times.ES[v], det.Times.ES[v])
					}
					if p6 && !data.IsZero() && a.Type != schedule.LevelOfEffort && a.Type != schedule.WBSSummary && r.Times.ES[v].Before(data) {
						t.Fatalf("iteration %d, %s: starts %v, before the data date %v", iter, a.ID, r.Times.ES[v], data)
					}
				}
			}
		})
	}
}

// TestLiveRemainingScaled: an in-progress activity's remaining work scales
// with its sampled duration over the deterministic one (P6: the remaining
// runs from the data date).
func TestLiveRemainingScaled(t *testing.T) {
	s := &schedule.Schedule{
		StartDate: "2026-03-02", DataDate: "2026-03-09", Options: &schedule.Options{Tool: schedule.P6},
		Activities: []schedule.Activity{{ID: "A", Duration: "triangular(8,10,30)", ActualStart: "2026-03-02", Remaining: "5"}},
	}
	m, err := Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	// The data date is working day 5; the remaining work follows it.
	for _, c := range []struct{ dur, finish float64 }{{10, 10}, {20, 15}, {8, 9}, {30, 20}} {
		if got, _ := m.Pass([]float64{c.dur}); got != c.finish {
			t.Errorf("duration %v: finish %v, want %v", c.dur, got, c.finish)
		}
	}
}

// TestLiveRightSkewed: with right-skewed distributions (mode at or near
// the low end) P50 and P80 are at or after the deterministic finish, and
// their dates are too.
func TestLiveRightSkewed(t *testing.T) {
	for name, s := range liveCases(t) {
		t.Run(name, func(t *testing.T) {
			sp := spread(s, 0.95, 2.5)
			m, err := Compile(sp)
			if err != nil {
				t.Fatal(err)
			}
			r, err := m.Run(Options{Iterations: 200, Seed: 5})
			if err != nil {
				t.Fatal(err)
			}
			rep := &Report{Result: r}
			det, _ := rep.date(r.Deterministic)
			p80, _ := rep.date(r.P80)
			if r.P80 < r.Deterministic || r.P50 < r.Deterministic || p80.Before(det) {
				t.Fatalf("deterministic %v (%v), P50 %v, P80 %v (%v)", r.Deterministic, det, r.P50, r.P80, p80)
			}
		})
	}
}

// TestLiveSeed: the same seed gives the same iterations whatever the
// workers; another seed other ones.
func TestLiveSeed(t *testing.T) {
	sp := spread(twoCalendars(), 0.7, 2)
	m, err := Compile(sp)
	if err != nil {
		t.Fatal(err)
	}
	run := func(seed uint64, workers int) *Result {
		r, err := m.Run(Options{Iterations: 200, Seed: seed, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b, c := run(9, 1), run(9, 2), run(10, 2)
	if !slices.Equal(a.Finish, b.Finish) || !slices.EqualFunc(a.Live.FinishDates, b.Live.FinishDates, time.Time.Equal) || !slices.Equal(a.Criticality, b.Criticality) {
		t.Fatal("seed 9: one worker and two differ")
	}
	if slices.Equal(a.Finish, c.Finish) {
		t.Fatal("seeds 9 and 10 gave the same finishes")
	}
	if a.Max == a.Min {
		t.Fatal("no spread: nothing was sampled")
	}
}

// TestLiveReport: a live programme's report dates its percentiles from the
// engine's finishes, without a clock, and says how it was simulated.
func TestLiveReport(t *testing.T) {
	s := spread(twoCalendars(), 0.9, 1.6)
	m, err := Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.Run(Options{Iterations: 101, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	rep := &Report{Result: r, Name: s.Name}
	var js strings.Builder
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(js.String()), &got); err != nil {
		t.Fatalf("%v\n%s", err, js.String())
	}
	det := engine(t, s)
	if got["deterministic_finish_date"] != det.Times.Finish.Format(schedule.DateTimeLayout) {
		t.Errorf("deterministic_finish_date %v, want %v", got["deterministic_finish_date"], det.Times.Finish)
	}
	// 101 iterations: P80 is the 81st finish exactly.
	at := slices.Index(r.Finish, r.Sorted[80])
	if want := r.Live.FinishDates[at].Format(schedule.DateTimeLayout); got["p80_date"] != want {
		t.Errorf("p80_date %v, want the 81st finish's %v", got["p80_date"], want)
	}
	live, _ := got["live"].(map[string]any)
	if live["data_date"] != "2026-03-11" || live["finished"] != 1.0 || live["in_progress"] != 1.0 {
		t.Errorf("live %v", got["live"])
	}
	var table strings.Builder
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"as of its data date 2026-03-11", "1 finished activities keep their actual dates", det.Times.Finish.Format("Mon 2006-01-02")} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
	if math.IsNaN(r.P80) {
		t.Fatal("no P80")
	}
}
