package risk

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// A live programme (one the schedule package computes with its live
// engine: a data date, progress, constraints, calendars; Result.Times set)
// is simulated by the live engine itself, once per iteration: each
// iteration writes its sampled durations into a copy of the schedule and
// computes it (schedule.Compile, Network.Compute), so actuals, the data
// date, constraints, every activity's own calendar and the tool's rules
// (MS Project or P6) are honoured exactly as the engine honours them, with
// no second engine to drift from it. The plain working-day passes of
// sim.go are for plain networks only.
//
// What is sampled:
//   - finished activities (an actual finish) keep their actual dates: their
//     durations are fixed, whatever distribution they were planned with;
//   - milestones, level-of-effort and WBS-summary activities and manually
//     scheduled tasks are fixed too: the engine gives them no duration of
//     their own to sample (zero, spanned by others, or typed-in dates);
//   - every other activity's distribution describes its whole duration, and
//     an iteration's sample s scales the work still to do by s/d (d the
//     distribution's deterministic value): the remaining duration and the
//     assignments' work are multiplied by s/d. That is what the engine
//     itself does with a remaining derived from percent complete
//     (remaining = duration × (1 − pct)), and it keeps the planner's own
//     estimate of what is left as the deterministic value, where sampling
//     "total minus work done" would discard it (and go negative when the
//     activity has run longer than the sample). With d = 0 the remaining
//     and the work are left as given.
//
// The finish of an iteration is the engine's: Result.ProjectDuration in
// working days of the project calendar from the project start (what every
// report and the review read), and Times.Finish as the date.

// liveModel is what a live programme's iterations need.
type liveModel struct {
	s *schedule.Schedule
	// acts are the sampled activities, in schedule order.
	acts []liveAct
	// finish is the engine's deterministic project finish (offset
	// days, date) and critical its critical activities: every iteration's
	// when nothing is sampled.
	days     float64
	finish   time.Time
	critical []bool
	// finished and started count the activities with actuals (for the
	// report); dataDate is the schedule's.
	finished, started int
	dataDate          string
}

// liveAct is one sampled activity and the work its sample scales.
type liveAct struct {
	v   int32
	det float64 // the distribution's deterministic value, working days
	// remaining is the explicit remaining work (nil: none; the engine
	// derives it from the duration); work the dating assignments' work.
	remaining *amount
	work      []assignedWork
}

// assignedWork is one dating assignment's work: k is its index in the
// activity's Assignments.
type assignedWork struct {
	k int
	amount
}

// amount is a duration's deterministic value in its unit (see
// schedule.Duration.Unit).
type amount struct {
	value float64
	unit  string
}

// liveResult is one iteration of a live programme.
type liveResult struct {
	finish float64
	date   time.Time
}

// liveSampled reports whether an activity of a live programme has a
// duration to sample (see the top of this file): not finished, not a
// milestone, level of effort, WBS summary or manually scheduled task.
func liveSampled(a *schedule.Activity) bool {
	switch a.Type {
	case schedule.StartMilestone, schedule.FinishMilestone, schedule.LevelOfEffort, schedule.WBSSummary:
		return false
	}
	return a.ActualFinish == "" && !a.Manual
}

// compileLive builds the live model of s, whose deterministic computation
// by the engine is r (m.dists already fixed where liveSampled says so).
func (m *Model) compileLive(s *schedule.Schedule, r *schedule.Result) error {
	lm := &liveModel{s: s, days: r.ProjectDuration, finish: r.Times.Finish, dataDate: s.DataDate, critical: make([]bool, len(s.Activities))}
	for i := range s.Activities {
		a := &s.Activities[i]
		lm.critical[i] = r.Critical(i)
		if a.ActualFinish != "" {
			lm.finished++
		} else if a.ActualStart != "" {
			lm.started++
		}
		if m.dists[i].kind == kFixed {
			continue
		}
		la := liveAct{v: int32(i), det: m.detDur[i]}
		if a.Remaining != "" {
			d, err := schedule.ParseDuration(a.Remaining)
			if err != nil {
				return fmt.Errorf("activity %q: remaining: %w", a.ID, err)
			}
			la.remaining = &amount{d.Days(), d.Unit}
		}
		for k, as := range a.DatingAssignments() {
			d, err := schedule.ParseDuration(as.Work)
			if err != nil {
				return fmt.Errorf("activity %q: assignments[%d].work: %w", a.ID, k, err)
			}
			la.work = append(la.work, assignedWork{k, amount{d.Days(), d.Unit}})
		}
		lm.acts = append(lm.acts, la)
	}
	m.live = lm
	return nil
}

// liveWorker is one worker's copy of the schedule, which its iterations
// write their durations into.
type liveWorker struct {
	s   schedule.Schedule
	buf []byte
}

func (lm *liveModel) newWorker() *liveWorker {
	w := &liveWorker{s: *lm.s}
	w.s.Activities = append([]schedule.Activity(nil), lm.s.Activities...)
	for _, la := range lm.acts {
		if la.work != nil {
			a := &w.s.Activities[la.v]
			a.Assignments = append([]schedule.Assignment(nil), a.Assignments...)
		}
	}
	return w
}

// text writes x days (or units) as a duration ParseDuration reads back to
// the same float, clamped to schedule.MaxDays (a normal's far tail).
func (w *liveWorker) text(x float64, unit string) string {
	w.buf = strconv.AppendFloat(w.buf[:0], min(x, schedule.MaxDays), 'g', -1, 64)
	w.buf = append(w.buf, unit...)
	return string(w.buf)
}

// run computes one iteration with sampled durations dur (working days,
// schedule order) and adds 1 to crit[v] for every activity critical in it.
func (lm *liveModel) run(w *liveWorker, dur []float64, crit []int32) (liveResult, error) {
	for _, la := range lm.acts {
		a := &w.s.Activities[la.v]
		d := dur[la.v]
		a.Duration = w.text(d, "")
		ratio := 1.0
		if la.det > 0 {
			ratio = d / la.det // exactly 1 at the deterministic value
		}
		if la.remaining != nil {
			a.Remaining = w.text(la.remaining.value*ratio, la.remaining.unit)
		}
		for _, wk := range la.work {
			a.Assignments[wk.k].Work = w.text(wk.value*ratio, wk.unit)
		}
	}
	net, err := schedule.Compile(&w.s)
	if err != nil {
		return liveResult{}, err
	}
	r := net.Compute()
	if r.Times == nil {
		return liveResult{}, fmt.Errorf("risk: the programme stopped being live") // cannot happen: only durations change
	}
	for v := range crit {
		if r.Critical(v) {
			crit[v]++
		}
	}
	return liveResult{finish: r.ProjectDuration, date: r.Times.Finish}, nil
}

// liveRun is one Run's iterations of a live programme: each worker's copy
// of the schedule (made when it first runs), every iteration's finish
// date, and the first error (by iteration) if any.
type liveRun struct {
	lm      *liveModel
	workers []*liveWorker
	durs    [][]float64
	dates   []time.Time
	mu      sync.Mutex
	err     error
	errAt   int
	failed  atomic.Bool
}

func (lm *liveModel) newRun(iters, workers int) *liveRun {
	return &liveRun{lm: lm, workers: make([]*liveWorker, workers), durs: make([][]float64, workers), dates: make([]time.Time, iters)}
}

// batch runs the nb iterations of b from first on worker w's copy,
// setting their finishes and dates and counting the critical activities.
func (lr *liveRun) batch(w int, b *batch, first, nb int, crit []int32, finish []float64) {
	if lr.failed.Load() {
		return
	}
	if len(lr.lm.acts) == 0 {
		// Nothing sampled: every iteration is the deterministic schedule,
		// computed once (a file with fixed durations, as most are).
		for v, c := range lr.lm.critical {
			if c {
				crit[v] += int32(nb)
			}
		}
		for i := first; i < first+nb; i++ {
			finish[i], lr.dates[i] = lr.lm.days, lr.lm.finish
		}
		return
	}
	if lr.workers[w] == nil {
		lr.workers[w] = lr.lm.newWorker()
		lr.durs[w] = make([]float64, len(b.one))
	}
	lw, dur := lr.workers[w], lr.durs[w]
	for j := range nb {
		for _, la := range lr.lm.acts {
			dur[la.v] = b.dur[int(la.v)*lanes+j]
		}
		res, err := lr.lm.run(lw, dur, crit)
		if err != nil {
			lr.fail(first+j, err)
			return
		}
		finish[first+j], lr.dates[first+j] = res.finish, res.date
	}
}

func (lr *liveRun) fail(iter int, err error) {
	lr.mu.Lock()
	defer lr.mu.Unlock()
	if lr.err == nil || iter < lr.errAt {
		lr.err, lr.errAt = fmt.Errorf("risk: iteration %d: %w", iter, err), iter
	}
	lr.failed.Store(true)
}

// describe is the Result's Live part for finish dates dates.
func (lm *liveModel) describe(dates []time.Time) *Live {
	return &Live{DataDate: lm.dataDate, Finished: lm.finished, InProgress: lm.started, DeterministicDate: lm.finish, FinishDates: dates}
}

// sortDates orders the finish dates like the sorted finishes (order is
// the iterations by finish), ties by date.
func (l *Live) sortDates(finish []float64) {
	order := make([]int32, len(finish))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := cmp.Compare(finish[a], finish[b]); c != 0 {
			return c
		}
		return l.FinishDates[a].Compare(l.FinishDates[b])
	})
	l.sorted = make([]time.Time, len(order))
	for k, i := range order {
		l.sorted[k] = l.FinishDates[i]
	}
}

// dateOf dates a finish statistic v (working days: a percentile, the
// mean) on a live programme: the date of the first finish, in finish
// order, at or after v (within schedule.Epsilon), the latest date among
// iterations finishing at that same working time. A percentile that is an
// iteration's finish (every iteration's, when no duration is random) so
// gets that iteration's own date, which the live engine gave on its
// activity's calendar (possibly a day the project calendar does not work);
// one between two iterations' gets the later one's: a date by which at
// least that share of iterations have finished. sorted are the finishes
// ascending.
func (l *Live) dateOf(sorted []float64, v float64) time.Time {
	k, _ := slices.BinarySearch(sorted, v-schedule.Epsilon)
	k = min(k, len(sorted)-1)
	for k+1 < len(sorted) && sorted[k+1] == sorted[k] {
		k++
	}
	return l.sorted[k]
}

// note is the report's sentence on how the live programme was simulated;
// sampled says whether any duration was.
func (l *Live) note(sampled bool) string {
	at := "as of its data date " + l.DataDate
	if l.DataDate == "" {
		at = "with progress"
	}
	left := ""
	if sampled {
		left = " and sample the work left (scaled by the sampled duration over the deterministic one)"
	}
	return fmt.Sprintf("A live programme %s: every iteration is the live engine's schedule (each activity on its own calendar, constraints and the data date honoured by the engine's rules); %d finished activities keep their actual dates, %d in progress keep their actual starts%s.",
		at, l.Finished, l.InProgress, left)
}
