package activities

import (
	"github.com/autoscheduler/autoscheduler/internal/risk"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Review's Monte Carlo: enough iterations for a P80 steady to about a
// tenth of a day on the schedules we see, in milliseconds for a thousand
// activities. A fixed seed gives both versions the same random streams
// (common random numbers), so the difference is the change's, not noise.
const (
	ReviewRiskIterations = 2000
	ReviewRiskSeed       = 1
	// reviewRiskBudget caps activities × iterations per version, so a
	// review of a very large schedule stays quick: fewer iterations above
	// 20,000 activities (never under reviewRiskMin, else none at all).
	reviewRiskBudget = 40_000_000
	reviewRiskMin    = 200
	// A live programme (progress, calendars, constraints) runs the live
	// engine per iteration, some fifty times the plain lanes' cost: its
	// budget keeps a review of 10,000 activities to a few seconds, with a
	// P80 from at least reviewLiveMin iterations.
	reviewLiveBudget = 1_000_000
	reviewLiveMin    = 100
)

// riskImpact is the change's effect on the P80 finish when either version
// has duration distributions; nil when neither has (or a version cannot be
// simulated: the CPM impact says why).
func riskImpact(before, after *schedule.Schedule) *schedule.RiskChange {
	mb, err := risk.Compile(before)
	if err != nil {
		return nil
	}
	ma, err := risk.Compile(after)
	if err != nil || mb.Random()+ma.Random() == 0 {
		return nil
	}
	budget, least := reviewRiskBudget, reviewRiskMin
	if mb.Live() || ma.Live() {
		budget, least = reviewLiveBudget, reviewLiveMin
	}
	iterations := min(ReviewRiskIterations, budget/max(ma.Len(), mb.Len(), 1))
	if iterations < least {
		return nil
	}
	opt := risk.Options{Iterations: iterations, Seed: ReviewRiskSeed}
	rb, err := mb.Run(opt)
	if err != nil {
		return nil
	}
	ra, err := ma.Run(opt)
	if err != nil {
		return nil
	}
	return schedule.NewRiskChange(before, after, iterations, ReviewRiskSeed, rb.P50, rb.P80, ra.P50, ra.P80)
}
