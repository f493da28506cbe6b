package schedule

// Hard reports whether a constraint of type t fixes a date against the
// logic, as DCMA counts hard constraints: start or finish on, on or
// before, and P6's mandatory start and finish. On or after only holds work
// back, and as late as possible sets no date: both are soft.
func (t ConstraintType) Hard() bool {
	switch t {
	case StartOn, FinishOn, StartOnOrBefore, FinishOnOrBefore, MandatoryStart, MandatoryFinish:
		return true
	}
	return false
}
