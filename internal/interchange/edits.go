package interchange

import (
	"time"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// edits is what changed between the schedule a kept source file reads as
// (base) and the schedule being exported (cur): the patch writers
// (xer_patch.go, mspdi_patch.go) apply exactly these to the file and
// leave every other byte as it was.
type edits struct {
	base, cur *schedule.Schedule
	// baseAt and curAt find an activity's index by id.
	baseAt, curAt map[string]int
	// removed are the base's activities cur no longer has, by id.
	removed map[string]bool
	// added are cur's activities the base does not have, and changed
	// those in both whose fields differ (see Activity.Equal), as indexes
	// into cur.Activities in cur's order.
	added, changed []int
	// relRemoved are the base's relationship ids cur no longer has;
	// relAdded and relChanged index cur.Relationships (changed: the same
	// id with another type, lag or ends).
	relRemoved      map[string]bool
	relAdded        []int
	relChanged      []int
	baseRelAt       map[string]int
	meta            bool // name, start date, data date, calendars or options differ
	dates           map[string]cpmDates
	baseRes, curRes *schedule.Result
}

// cpmDates are the dates and floats the tools store with each activity,
// as our CPM computes them.
type cpmDates struct {
	ES, EF, LS, LF time.Time
	// TotalFloat and FreeFloat are in working days of the activity's
	// calendar (see Result.TotalFloat).
	TotalFloat, FreeFloat float64
	// Moved says which of them the changes moved (all for an added
	// activity): only those are written, so a change that moves only the
	// project finish rewrites late dates and floats, not early dates the
	// tool stored (or left empty).
	Moved dateMask
}

// dateMask is a set of cpmDates fields.
type dateMask uint8

// The fields of cpmDates a dateMask names.
const (
	movedES dateMask = 1 << iota
	movedEF
	movedLS
	movedLF
	movedTotalFloat
	movedFreeFloat
	movedAll = movedES | movedEF | movedLS | movedLF | movedTotalFloat | movedFreeFloat
)

// has reports whether the mask holds every field of f.
func (m dateMask) has(f dateMask) bool { return m&f == f }

// movedFrom says which fields of d differ from b's.
func (d cpmDates) movedFrom(b cpmDates) dateMask {
	var m dateMask
	for _, f := range []struct {
		moved bool
		bit   dateMask
	}{
		{!d.ES.Equal(b.ES), movedES}, {!d.EF.Equal(b.EF), movedEF}, {!d.LS.Equal(b.LS), movedLS}, {!d.LF.Equal(b.LF), movedLF},
		{d.TotalFloat != b.TotalFloat, movedTotalFloat}, {d.FreeFloat != b.FreeFloat, movedFreeFloat},
	} {
		if f.moved {
			m |= f.bit
		}
	}
	return m
}

// none reports whether nothing changed: the file is written back as it was.
func (e *edits) none() bool {
	return len(e.removed)+len(e.added)+len(e.changed)+len(e.relRemoved)+len(e.relAdded)+len(e.relChanged) == 0 && !e.meta
}

// diffNetworks compares base and cur, each with the network its check
// compiled (so neither is compiled again). The dates of an activity are
// in dates only where our CPM dates it differently in cur than in base:
// an activity the changes do not move keeps the dates the tool stored.
func diffNetworks(base *schedule.Schedule, baseNet *schedule.Network, cur *schedule.Schedule, curNet *schedule.Network) (*edits, error) {
	e := &edits{base: base, cur: cur, removed: map[string]bool{}, relRemoved: map[string]bool{},
		baseAt: indexByID(base), curAt: indexByID(cur), baseRelAt: map[string]int{}, dates: map[string]cpmDates{}}
	for i := range cur.Activities {
		a := &cur.Activities[i]
		if j, ok := e.baseAt[a.ID]; !ok {
			e.added = append(e.added, i)
		} else if !a.Equal(base.Activities[j]) {
			e.changed = append(e.changed, i)
		}
	}
	for id := range e.baseAt {
		if _, ok := e.curAt[id]; !ok {
			e.removed[id] = true
		}
	}
	for i, r := range base.Relationships {
		e.baseRelAt[r.ID] = i
	}
	curRel := make(map[string]bool, len(cur.Relationships))
	for i, r := range cur.Relationships {
		curRel[r.ID] = true
		if j, ok := e.baseRelAt[r.ID]; !ok {
			e.relAdded = append(e.relAdded, i)
		} else if base.Relationships[j] != r {
			e.relChanged = append(e.relChanged, i)
		}
	}
	for _, r := range base.Relationships {
		if !curRel[r.ID] {
			e.relRemoved[r.ID] = true
		}
	}
	e.meta = !sameMeta(base, cur)
	if e.none() {
		return e, nil
	}
	e.baseRes, e.curRes = baseNet.Compute(), curNet.Compute()
	baseDates, err := datesOf(base, e.baseRes)
	if err != nil {
		return nil, err
	}
	curDates, err := datesOf(cur, e.curRes)
	if err != nil {
		return nil, err
	}
	for id, d := range curDates {
		if b, ok := baseDates[id]; !ok {
			d.Moved = movedAll
			e.dates[id] = d
		} else if d.Moved = d.movedFrom(b); d.Moved != 0 {
			e.dates[id] = d
		}
	}
	return e, nil
}

func indexByID(s *schedule.Schedule) map[string]int {
	at := make(map[string]int, len(s.Activities))
	for i := range s.Activities {
		at[s.Activities[i].ID] = i
	}
	return at
}

// datesOf dates every activity of s from its CPM result. A plain network
// without a start date has no dates: nothing to write (a tool's file
// always has one; a schedule made here may not).
func datesOf(s *schedule.Schedule, res *schedule.Result) (map[string]cpmDates, error) {
	var clock *schedule.Clock
	if res.Times == nil && s.StartDate == "" {
		return nil, nil
	}
	if res.Times == nil {
		var err error
		if clock, err = schedule.NewClock(s.StartDate, s.Calendar); err != nil {
			return nil, err
		}
	}
	out := make(map[string]cpmDates, res.Net.Len())
	for i := 0; i < res.Net.Len(); i++ {
		var d cpmDates
		for f, t := range []*time.Time{&d.ES, &d.EF, &d.LS, &d.LF} {
			v, err := res.When(clock, i, schedule.DateField(f))
			if err != nil {
				return nil, err
			}
			*t = v
		}
		d.TotalFloat, d.FreeFloat = res.TotalFloat[i], res.FreeFloat[i]
		out[res.Net.ID(i)] = d
	}
	return out, nil
}

// sameMeta reports whether two schedules agree on everything but their
// activities and relationships.
func sameMeta(a, b *schedule.Schedule) bool {
	return a.Name == b.Name && a.StartDate == b.StartDate && a.DataDate == b.DataDate &&
		jsonEqual(a.Calendar, b.Calendar) && jsonEqual(a.Calendars, b.Calendars) && jsonEqual(a.Options, b.Options)
}

// jsonEqual compares two values by their JSON: calendars hold maps and
// slices, which == cannot compare.
func jsonEqual(a, b any) bool { return jsonText(a) == jsonText(b) }
