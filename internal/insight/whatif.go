package insight

import (
	"fmt"
	"math"
	"strconv"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// WhatIfResult is the CPM difference a change would make. Nothing is
// written anywhere: the ops are applied to a copy of the schedule.
type WhatIfResult struct {
	// Ops are the ops as applied to the copy (ids and calls filled).
	Ops []schedule.Op `json:"ops"`
	schedule.Finishes
	// BecameCritical and NoLongerCritical are activities in both versions,
	// in the schedule's order.
	BecameCritical   []string `json:"became_critical"`
	NoLongerCritical []string `json:"no_longer_critical"`
	// Changed are the activities in both versions whose early dates, total
	// float or criticality changed, in the schedule's order.
	Changed []ActivityImpact `json:"changed"`
	// Synthetic are activities the scenario added to model a change (the
	// what-if milestone of a delay), not work: they are left out of the
	// lists above.
	Synthetic []string `json:"synthetic,omitempty"`
	// Diff is the review screen's comparison of the two versions (what
	// changed in the schedule, and its CPM impact).
	Diff *schedule.Comparison `json:"diff"`
	// After is the changed copy's view, for asking it more; not JSON.
	After *View `json:"-"`
}

// ActivityImpact is how one activity's CPM figures change.
type ActivityImpact struct {
	ID                string  `json:"id"`
	Name              string  `json:"name"`
	EarlyStartBefore  float64 `json:"early_start_before"`
	EarlyStartAfter   float64 `json:"early_start_after"`
	EarlyFinishBefore float64 `json:"early_finish_before"`
	EarlyFinishAfter  float64 `json:"early_finish_after"`
	TotalFloatBefore  float64 `json:"total_float_before"`
	TotalFloatAfter   float64 `json:"total_float_after"`
	CriticalBefore    bool    `json:"critical_before"`
	CriticalAfter     bool    `json:"critical_after"`
}

// WhatIf applies ops to a copy of the schedule (schedule.ApplyAll on a
// Clone) and reports the CPM difference. The view and its schedule are not
// changed.
func (v *View) WhatIf(ops []schedule.Op) (*WhatIfResult, error) {
	return v.whatIf(ops, nil)
}

func (v *View) whatIf(ops []schedule.Op, synthetic []string) (*WhatIfResult, error) {
	after := v.S.Clone()
	applied, _, err := schedule.ApplyAll(after, ops)
	if err != nil {
		return nil, err
	}
	va, err := New(after)
	if err != nil {
		return nil, fmt.Errorf("CPM after the change: %w", err)
	}
	res := &WhatIfResult{
		Ops:            applied,
		Finishes:       schedule.FinishesOf(v.R.ProjectDuration, va.R.ProjectDuration, v.finishDate(), va.finishDate()),
		BecameCritical: []string{}, NoLongerCritical: []string{}, Changed: []ActivityImpact{},
		Synthetic: synthetic,
		Diff:      schedule.CompareResults(v.S, after, v.R, va.R),
		After:     va,
	}
	for _, j := range va.scheduleOrder() {
		a := va.Activity(j)
		i, ok := v.Index(a.ID)
		if !ok {
			continue
		}
		b, c := v.R, va.R
		im := ActivityImpact{
			ID: a.ID, Name: a.Name,
			EarlyStartBefore: schedule.RoundDays(b.ES[i]), EarlyStartAfter: schedule.RoundDays(c.ES[j]),
			EarlyFinishBefore: schedule.RoundDays(b.EF[i]), EarlyFinishAfter: schedule.RoundDays(c.EF[j]),
			TotalFloatBefore: schedule.RoundDays(b.TotalFloat[i]), TotalFloatAfter: schedule.RoundDays(c.TotalFloat[j]),
			CriticalBefore: b.Critical(i), CriticalAfter: c.Critical(j),
		}
		if im.CriticalAfter && !im.CriticalBefore {
			res.BecameCritical = append(res.BecameCritical, a.ID)
		}
		if im.CriticalBefore && !im.CriticalAfter {
			res.NoLongerCritical = append(res.NoLongerCritical, a.ID)
		}
		if im.EarlyStartBefore != im.EarlyStartAfter || im.EarlyFinishBefore != im.EarlyFinishAfter ||
			im.TotalFloatBefore != im.TotalFloatAfter || im.CriticalBefore != im.CriticalAfter {
			res.Changed = append(res.Changed, im)
		}
	}
	return res, nil
}

// Scenario is a what-if said the way people ask it, for callers (and
// models) that should not build ops: durations, delays and links removed.
type Scenario struct {
	Durations   []DurationChange `json:"durations,omitempty"`
	Delays      []Delay          `json:"delays,omitempty"`
	RemoveLinks []LinkEnds       `json:"remove_links,omitempty"`
}

// DurationChange sets an activity's duration to Days working days, or
// changes it by Days (Delta, negative to shorten).
type DurationChange struct {
	Activity string  `json:"activity"`
	Days     float64 `json:"days"`
	Delta    bool    `json:"delta,omitempty"`
}

// Delay makes an activity start Days working days after its early start
// (see DelayOps).
type Delay struct {
	Activity string  `json:"activity"`
	Days     float64 `json:"days"`
}

// LinkEnds names the relationships between two activities, either way
// round.
type LinkEnds struct {
	A string `json:"a"`
	B string `json:"b"`
}

// WhatIfScenario builds the scenario's ops (DurationOps, DelayOps,
// UnlinkOps, in that order, each against this view) and reports WhatIf.
func (v *View) WhatIfScenario(sc Scenario) (*WhatIfResult, error) {
	var ops []schedule.Op
	var synthetic []string
	for _, d := range sc.Durations {
		o, err := v.DurationOps(d.Activity, d.Days, d.Delta)
		if err != nil {
			return nil, err
		}
		ops = append(ops, o...)
	}
	for n, d := range sc.Delays {
		o, err := v.delayOps(d.Activity, d.Days, n)
		if err != nil {
			return nil, err
		}
		ops = append(ops, o...)
		synthetic = append(synthetic, o[0].ActivityID)
	}
	for _, l := range sc.RemoveLinks {
		o, err := v.UnlinkOps(l.A, l.B)
		if err != nil {
			return nil, err
		}
		ops = append(ops, o...)
	}
	if len(ops) == 0 {
		return nil, fmt.Errorf("the scenario changes nothing")
	}
	return v.whatIf(ops, synthetic)
}

// DurationOps is the op that sets activity id's duration to days working
// days, or (delta) changes its duration — the value CPM uses, the mode or
// mean of a distribution — by days. A distribution becomes a fixed number.
func (v *View) DurationOps(id string, days float64, delta bool) ([]schedule.Op, error) {
	i, ok := v.Index(id)
	if !ok {
		return nil, fmt.Errorf("no activity %q", id)
	}
	d := days
	if delta {
		d = v.R.EF[i] - v.R.ES[i] + days
	}
	d = schedule.RoundDays(d)
	if d < 0 || math.IsNaN(d) {
		return nil, fmt.Errorf("%s would take %s working days: a duration cannot be negative", v.Activity(i).Name, strconv.FormatFloat(d, 'f', -1, 64))
	}
	a := *v.Activity(i)
	a.Duration = strconv.FormatFloat(d, 'f', -1, 64)
	return []schedule.Op{schedule.UpdateActivity(a)}, nil
}

// DelayOps models "activity id starts days working days later" as a start
// no earlier than its early start plus days: a zero-duration what-if
// milestone with no predecessors (so at day 0, the project start) linked to
// the activity finish-to-start with a lag of its early start plus days. The
// activity's early start becomes exactly that (its logic allowed it no
// earlier); its predecessors and their floats are untouched, as with a
// date constraint; what follows moves as the logic says. The milestone is
// no work: WhatIfResult.Synthetic names it.
func (v *View) DelayOps(id string, days float64) ([]schedule.Op, error) {
	return v.delayOps(id, days, 0)
}

func (v *View) delayOps(id string, days float64, n int) ([]schedule.Op, error) {
	i, ok := v.Index(id)
	if !ok {
		return nil, fmt.Errorf("no activity %q", id)
	}
	if !(days > 0) {
		return nil, fmt.Errorf("a delay must be a positive number of working days, not %v: %s already starts as early as its logic allows (early start %s)",
			days, v.Activity(i).Name, strconv.FormatFloat(schedule.RoundDays(v.R.ES[i]), 'f', -1, 64))
	}
	lag := schedule.RoundDays(v.R.ES[i] + days)
	if err := schedule.CheckLag(lag); err != nil {
		return nil, err
	}
	a := v.Activity(i)
	m := schedule.Activity{
		ID:       schedule.DerivedID("what-if", "delay", a.ID, strconv.Itoa(n)),
		Name:     "What-if: " + a.Name + " starts later",
		Duration: "0",
	}
	rel := schedule.Relationship{
		ID: schedule.DerivedID("what-if", "delay-link", a.ID, strconv.Itoa(n)), Type: schedule.FS,
		Predecessor: m.ID, Successor: a.ID, Lag: lag,
	}
	return []schedule.Op{schedule.AddActivity(m), schedule.AddRelationship(rel)}, nil
}

// UnlinkOps removes every relationship between activities a and b, either
// way round (an SS and an FF pair are both removed).
func (v *View) UnlinkOps(a, b string) ([]schedule.Op, error) {
	for _, id := range []string{a, b} {
		if _, ok := v.Index(id); !ok {
			return nil, fmt.Errorf("no activity %q", id)
		}
	}
	var ops []schedule.Op
	for _, r := range v.S.Relationships {
		if r.Predecessor == a && r.Successor == b || r.Predecessor == b && r.Successor == a {
			ops = append(ops, schedule.RemoveRelationship(r.ID))
		}
	}
	if len(ops) == 0 {
		return nil, fmt.Errorf("no relationship links %s and %s", a, b)
	}
	return ops, nil
}
