package render

import (
	"strconv"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// The live programme on the Gantt chart: each activity's baseline as a
// thin bar under its bar, the data date as a vertical line, and date
// constraints as markers at their dates. All are placed on the project's
// clock (working days from the start, like the bars), so a chart without
// a start date has none of them.

// ganttBaselineH is the baseline bar's height; it sits under the bar.
const ganttBaselineH = 3

// offsetOf is instant t's working-day offset on the row's project clock.
func offsetOf(rep *Report, t time.Time) (float64, bool) {
	if rep.Clock == nil || t.IsZero() {
		return 0, false
	}
	return rep.Clock.Offset(t), true
}

// dataDate is the shown schedule's data date as an offset.
func (g *gantt) dataDate() (float64, bool) {
	if g.r.Schedule.DataDate == "" {
		return 0, false
	}
	t, err := schedule.ParseStart(g.r.Schedule.DataDate)
	if err != nil {
		return 0, false
	}
	return offsetOf(g.r, t)
}

// baselineSpan is row n's baseline as offsets, when it has a start and a
// finish and the chart has dates.
func (g *gantt) baselineSpan(n int) (from, to float64, ok bool) {
	row := &g.rows[n]
	a := row.act()
	start, ok1 := a.BaselineStartAt()
	finish, ok2 := a.BaselineFinishAt()
	if !ok1 || !ok2 || row.change == "removed" {
		return 0, 0, false
	}
	from, ok1 = offsetOf(row.rep, start)
	to, ok2 = offsetOf(row.rep, finish)
	return from, max(to, from), ok1 && ok2
}

// baselines writes each baseline bar: class "baseline", data-i its row,
// data-bs and data-bf its offsets (the script lays it out on zoom).
func (g *gantt) baselines() {
	opened := false
	for n := range g.rows {
		from, to, ok := g.baselineSpan(n)
		if !ok {
			continue
		}
		if !opened {
			g.s(`<g class="baselines">`)
			opened = true
		}
		a := g.rows[n].act()
		g.s(`<rect class="baseline" data-i="`, strconv.Itoa(n), `" data-bs="`)
		g.day(from)
		g.s(`" data-bf="`)
		g.day(to)
		g.s(`" x="`)
		g.px(g.x(from))
		g.s(`" y="`)
		g.px(float64(n*ganttRowH) + ganttRowH/2.0 + ganttBarH/2.0 + 1)
		g.s(`" width="`)
		g.px(max((to-from)*g.k, 1))
		g.s(`" height="`, strconv.Itoa(ganttBaselineH), `"><title>`)
		g.esc("Baseline of " + a.Name + ": " + a.BaselineStart + " to " + a.BaselineFinish)
		if a.BaselineDuration != "" {
			g.esc(", " + a.BaselineDuration + " d")
		}
		g.s("</title></rect>\n")
		g.flush()
	}
	if opened {
		g.s("</g>\n")
	}
}

// constraintAt is a constraint's date as an offset: a date alone is the
// day's start for a start constraint, its end for a finish one.
func constraintAt(rep *Report, c *schedule.Constraint) (float64, bool) {
	if c == nil || c.Date == "" {
		return 0, false
	}
	t, err := schedule.ParseStart(c.Date)
	if err != nil {
		return 0, false
	}
	switch c.Type {
	case schedule.StartOn, schedule.StartOnOrAfter, schedule.StartOnOrBefore, schedule.MandatoryStart:
	default:
		if len(c.Date) == len(time.DateOnly) {
			t = t.AddDate(0, 0, 1).Add(-time.Minute)
		}
	}
	return offsetOf(rep, t)
}

// constraintMarkers writes a triangle above each dated constraint's date
// on its row: class "constraint", "hard" too for one that fixes a date
// against the logic (on, on or before, mandatory), data-at its offset.
func (g *gantt) constraintMarkers() {
	opened := false
	for n := range g.rows {
		row := &g.rows[n]
		if row.change == "removed" {
			continue
		}
		a := row.act()
		for _, c := range []*schedule.Constraint{a.Constraint, a.SecondaryConstraint} {
			at, ok := constraintAt(row.rep, c)
			if !ok {
				continue
			}
			if !opened {
				g.s(`<g class="constraints">`)
				opened = true
			}
			cls := "constraint"
			if c.Type.Hard() {
				cls += " hard"
			}
			g.s(`<path class="`, cls, `" data-i="`, strconv.Itoa(n), `" data-at="`)
			g.day(at)
			g.s(`" transform="translate(`)
			g.px(g.x(at))
			g.s(` 0)" d="M0 `)
			g.px(float64(n*ganttRowH) + ganttRowH/2.0 - ganttBarH/2.0)
			g.s(`l-4 -4.5h8z"><title>`)
			g.esc(a.Name + ": " + c.String())
			g.s("</title></path>\n")
			g.flush()
		}
	}
	if opened {
		g.s("</g>\n")
	}
}

// liveExtent is the latest offset a baseline, constraint marker or the
// data date reaches, so the axis covers them as well as the finish.
func (g *gantt) liveExtent() float64 {
	latest, _ := g.dataDate()
	for n := range g.rows {
		if _, to, ok := g.baselineSpan(n); ok {
			latest = max(latest, to)
		}
		a := g.rows[n].act()
		for _, c := range []*schedule.Constraint{a.Constraint, a.SecondaryConstraint} {
			if at, ok := constraintAt(g.rows[n].rep, c); ok {
				latest = max(latest, at)
			}
		}
	}
	return latest
}

// liveLegend adds the legend's entries for what the chart shows of a live
// programme.
func (g *gantt) liveLegend() {
	baselined, constrained := false, false
	for n := range g.rows {
		if _, _, ok := g.baselineSpan(n); ok {
			baselined = true
		}
		a := g.rows[n].act()
		for _, c := range []*schedule.Constraint{a.Constraint, a.SecondaryConstraint} {
			if _, ok := constraintAt(g.rows[n].rep, c); ok {
				constrained = true
			}
		}
	}
	if baselined {
		g.s(`<li><svg width="28" height="14"><rect class="sw-baseline" x="1" y="5.5" width="26" height="3"/></svg>baseline</li>`)
	}
	if _, ok := g.dataDate(); ok {
		g.s(`<li><svg width="10" height="14"><line class="datadate" x1="5" x2="5" y1="0" y2="14"/></svg>data date</li>`)
	}
	if constrained {
		g.s(`<li><svg width="22" height="14"><path class="sw-constraint soft" d="M6 11l-4 -4.5h8z"/><path class="sw-constraint" d="M16 11l-4 -4.5h8z"/></svg>date constraint (soft, hard)</li>`)
	}
}
