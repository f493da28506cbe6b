package schedule

import "time"

// DateField names one of an activity's four CPM dates.
type DateField int

// The four CPM dates.
const (
	EarlyStart DateField = iota
	EarlyFinish
	LateStart
	LateFinish
)

// When dates one of activity i's CPM dates: the live engine's own instant
// when it computed the schedule (each activity on its own calendar), else
// the working-day offset on the project's clock c, a start moved to the
// next working period except for a milestone, which sits where the work it
// follows ends (Fri 17:00, as MS Project and P6 show it). Past the
// calendar's range it is a *DateRangeError.
func (r *Result) When(c *Clock, i int, f DateField) (time.Time, error) {
	if t := r.Times; t != nil {
		return [4][]time.Time{t.ES, t.EF, t.LS, t.LF}[f][i], nil
	}
	offset := [4][]float64{r.ES, r.EF, r.LS, r.LF}[f][i]
	if f == EarlyFinish || f == LateFinish || r.EF[i] == r.ES[i] {
		return c.Finish(offset)
	}
	return c.Start(offset)
}

// At is When without the error (see Clock.StartAt).
func (r *Result) At(c *Clock, i int, f DateField) time.Time {
	t, _ := r.When(c, i, f)
	return t
}

// Finish is the project's finish instant: the latest early finish.
func (r *Result) Finish(c *Clock) (time.Time, error) {
	if r.Times != nil {
		return r.Times.Finish, nil
	}
	return c.Finish(r.ProjectDuration)
}

// FinishAt is Finish without the error.
func (r *Result) FinishAt(c *Clock) time.Time {
	t, _ := r.Finish(c)
	return t
}
