// Package insight holds the read tools over a computed schedule: finding
// activities, their details and what drives them, driving and
// near-critical paths, float by level and trade, what-if, and schedule
// quality checks. It is pure — no I/O — and every number it reports comes
// from the CPM engine: the CLI's `ask` and `check`, the planners and the
// web app all answer from here.
package insight

import (
	"fmt"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// View is a schedule with its CPM result and the indexes the tools share.
// Build it once with New and ask it many things; it is read-only, and safe
// for concurrent use as long as nothing changes S or R (Clock may be read
// for any CPM time; asking it for dates past the finish changes it).
type View struct {
	S *schedule.Schedule
	R *schedule.Result
	// Clock dates working-day offsets; nil without a start date.
	Clock *schedule.Clock
	// in and out are each activity's relationships (schedule indexes of
	// S.Relationships), by the activity's index in R.Net.
	in, out [][]int
	// pos is each activity's index in S.Activities, by its index in R.Net.
	pos []int
}

// New computes CPM on s and indexes it.
func New(s *schedule.Schedule) (*View, error) {
	r, err := schedule.Analyze(s)
	if err != nil {
		return nil, err
	}
	return NewOf(s, r)
}

// NewOf indexes s with its CPM result r (computed on s).
func NewOf(s *schedule.Schedule, r *schedule.Result) (*View, error) {
	n := r.Net.Len()
	v := &View{S: s, R: r, in: make([][]int, n), out: make([][]int, n), pos: make([]int, n)}
	if s.StartDate != "" {
		c, err := schedule.NewClock(s.StartDate, s.Calendar)
		if err != nil {
			return nil, err
		}
		// A Clock learns the calendar lazily, appending to itself as later
		// dates are asked for. Walk it to the project finish now, so that
		// dating any CPM time (all are within 0..finish) only reads it and
		// the View is safe to share between goroutines. (A finish past the
		// calendar's range walks it to the range's end.)
		_, _ = c.Finish(r.ProjectDuration)
		v.Clock = c
	}
	for i := range s.Activities {
		j, ok := r.Net.Index(s.Activities[i].ID)
		if !ok {
			return nil, fmt.Errorf("activity %q is not in the computed network", s.Activities[i].ID)
		}
		v.pos[j] = i
	}
	for k, rel := range s.Relationships {
		p, ok1 := r.Net.Index(rel.Predecessor)
		q, ok2 := r.Net.Index(rel.Successor)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("relationship %q joins activities not in the network", rel.ID)
		}
		v.out[p] = append(v.out[p], k)
		v.in[q] = append(v.in[q], k)
	}
	return v, nil
}

// Index is the network index of activity id.
func (v *View) Index(id string) (int, bool) { return v.R.Net.Index(id) }

// Activity is activity i (a network index).
func (v *View) Activity(i int) *schedule.Activity { return &v.S.Activities[v.pos[i]] }

// Preds and Succs are the relationships into and out of activity i, as
// indexes into S.Relationships.
func (v *View) Preds(i int) []int { return v.in[i] }
func (v *View) Succs(i int) []int { return v.out[i] }

// Slack is relationship k's relationship free float: how far its
// constraint is from binding on the successor (0: the link drives it).
func (v *View) Slack(k int) float64 {
	rel := &v.S.Relationships[k]
	p, _ := v.R.Net.Index(rel.Predecessor)
	q, _ := v.R.Net.Index(rel.Successor)
	r := v.R
	switch rel.Type {
	case schedule.FS:
		return r.ES[q] - rel.Lag - r.EF[p]
	case schedule.SS:
		return r.ES[q] - rel.Lag - r.ES[p]
	case schedule.FF:
		return r.EF[q] - rel.Lag - r.EF[p]
	default: // SF
		return r.EF[q] - rel.Lag - r.ES[p]
	}
}

// Drives reports whether relationship k drives its successor (no slack).
func (v *View) Drives(k int) bool { return v.Slack(k) <= schedule.Epsilon }
