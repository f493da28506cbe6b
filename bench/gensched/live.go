package main

import (
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// liveParams shape a progressed programme (gensched -live).
type liveParams struct {
	n          int
	links      int
	width      int     // activities per logic level
	complete   float64 // share of activities finished (actual start and finish)
	inProgress float64 // share started, not finished (actual start, remaining)
	constrain  float64 // share of activities with a date constraint (all unstarted)
	tool       string
	seed       uint64
}

// live builds a progressed programme on three calendars: activities in
// levels of p.width, each linked to about p.links activities of the level
// before (mostly FS, some SS, FF, SF, lags of 0-3 days, a few half days). A
// level's nominal start is one week after the one before; the first
// p.complete of the levels are finished, the next p.inProgress started, and
// the data date is the Monday after them. p.constrain of all activities
// (unstarted ones) carry a start-on-or-after or finish-on-or-before
// constraint near where the level falls. The project calendar
// is MS Project's Standard 5-day one (08:00-12:00, 13:00-17:00, Mon-Fri);
// "6d" works Saturdays too and "7d" every day; 5-day and 6-day keep the
// holidays. The same parameters always give the same file.
func live(p liveParams) *schedule.Schedule {
	rng := rand.New(rand.NewPCG(p.seed, 0x11fe))
	start := time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC) // a Monday
	levels := (p.n + p.width - 1) / p.width
	doneLevels := int(float64(levels) * p.complete)
	progLevels := int(float64(levels) * (p.complete + p.inProgress))
	monday := func(level int) time.Time { return start.AddDate(0, 0, 7*level) }
	date := func(t time.Time) string { return t.Format(time.DateOnly) }
	hours := []string{"08:00-12:00", "13:00-17:00"}
	var holidays []string
	for y := 2026; y <= 2032; y++ {
		holidays = append(holidays, strconv.Itoa(y)+"-12-25", strconv.Itoa(y)+"-12-26", strconv.Itoa(y+1)+"-01-01")
	}
	s := &schedule.Schedule{
		Name:      "Live programme " + strconv.Itoa(p.n),
		StartDate: date(start),
		DataDate:  date(monday(progLevels)),
		Calendar:  &schedule.Calendar{Name: "5-day", Workdays: []string{"Mon", "Tue", "Wed", "Thu", "Fri"}, Hours: hours, Holidays: holidays},
		Calendars: map[string]*schedule.Calendar{
			"6d": {Name: "6-day", Workdays: []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}, Hours: hours, Holidays: holidays},
			"7d": {Name: "7-day", Workdays: schedule.WeekdayNames[:], Hours: hours},
		},
		Options:       &schedule.Options{Tool: p.tool},
		Activities:    make([]schedule.Activity, p.n),
		Relationships: make([]schedule.Relationship, 0, p.n*p.links),
	}
	for i := range s.Activities {
		level := i / p.width
		days := 1 + rng.IntN(10)
		d := strconv.Itoa(days)
		half := rng.IntN(5) == 0
		if half {
			d += ".5"
		}
		a := schedule.Activity{ID: "A" + strconv.Itoa(i), Name: "Task " + strconv.Itoa(i), Duration: d}
		switch r := rng.IntN(100); {
		case r < 25:
			a.Calendar = "6d"
		case r < 40:
			a.Calendar = "7d"
		}
		// Actual starts fall Monday to Wednesday of the level's week: a
		// working day on every calendar.
		as := monday(level).AddDate(0, 0, rng.IntN(3))
		switch {
		case level < doneLevels:
			a.ActualStart = date(as)
			a.ActualFinish = date(as.AddDate(0, 0, days))
			a.PercentComplete = 100
		case level < progLevels:
			a.ActualStart = date(as)
			rem := float64(days) / 2
			if half {
				rem += 0.25
			}
			a.Remaining = strconv.FormatFloat(rem, 'f', -1, 64)
			a.PercentComplete = 50
		default:
			if rng.Float64() < p.constrain/(1-p.complete-p.inProgress) {
				// About where the level falls after the data date (the
				// remaining levels run about 12 calendar days apart).
				when := monday(progLevels).AddDate(0, 0, 12*(level-progLevels))
				if rng.IntN(2) == 0 {
					a.Constraint = &schedule.Constraint{Type: schedule.StartOnOrAfter, Date: date(when.AddDate(0, 0, rng.IntN(21)))}
				} else {
					a.Constraint = &schedule.Constraint{Type: schedule.FinishOnOrBefore, Date: date(when.AddDate(0, 0, 28+rng.IntN(56)))}
				}
			}
		}
		s.Activities[i] = a
	}
	types := [...]schedule.RelType{schedule.FS, schedule.FS, schedule.FS, schedule.FS, schedule.FS, schedule.FS, schedule.FS,
		schedule.SS, schedule.SS, schedule.FF, schedule.FF, schedule.SF}
	lags := [...]float64{0, 0, 0, 0, 0, 0, 1, 2, 3, 0.5}
	for i := p.width; i < p.n; i++ {
		prev := (i/p.width - 1) * p.width
		seen := map[int]bool{}
		for k := 0; k < p.links; k++ {
			pred := prev + rng.IntN(p.width)
			if seen[pred] {
				continue
			}
			seen[pred] = true
			s.Relationships = append(s.Relationships, schedule.Relationship{
				ID:          "R" + strconv.Itoa(len(s.Relationships)),
				Type:        types[rng.IntN(len(types))],
				Predecessor: s.Activities[pred].ID,
				Successor:   s.Activities[i].ID,
				Lag:         lags[rng.IntN(len(lags))],
			})
		}
	}
	return s
}
