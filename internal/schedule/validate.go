package schedule

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// maxReported caps how many problems Validate lists at once.
const maxReported = 20

// Validate checks a whole schedule and reports every problem it finds (up to
// 20), each naming its field and index: ids present and unique across
// activities and relationships, names present, durations parsable, link
// types known, link ends known, no self-links, no duplicate links (same
// predecessor, successor and type), finite lags, a valid start date and
// calendar, and no circular logic.
func Validate(s *Schedule) error {
	var errs []error
	report := func(path, format string, args ...any) {
		if len(errs) < maxReported {
			errs = append(errs, fieldErr(path, format, args...))
		}
	}
	if s.StartDate != "" {
		if _, err := time.Parse(time.DateOnly, s.StartDate); err != nil {
			report("start_date", "%q is not a date like 2026-01-05", s.StartDate)
		}
	}
	if s.Calendar != nil {
		if _, err := s.Calendar.compile(); err != nil {
			errs = append(errs, err)
		}
	}

	seen := make(map[string]string, len(s.Activities)+len(s.Relationships))
	claim := func(path, id string) {
		if id == "" {
			report(path, "missing id")
			return
		}
		if first, dup := seen[id]; dup {
			report(path, "duplicate id %q (also %s)", id, first)
			return
		}
		seen[id] = path
	}
	for i, a := range s.Activities {
		at := fmt.Sprintf("activities[%d]", i)
		claim(at+".id", a.ID)
		if a.Name == "" {
			report(at+".name", "missing name")
		}
		if _, err := ParseDuration(a.Duration); err != nil {
			report(at+".duration", "%v", err)
		}
	}
	activities := make(map[string]bool, len(s.Activities))
	for _, a := range s.Activities {
		activities[a.ID] = true
	}
	type triple struct {
		pred, succ string
		typ        RelType
	}
	links := make(map[triple]int, len(s.Relationships))
	for i, r := range s.Relationships {
		at := fmt.Sprintf("relationships[%d]", i)
		claim(at+".id", r.ID)
		if !r.Type.Valid() {
			report(at+".type", "%q must be one of FS, SS, FF, SF", r.Type)
		}
		if !activities[r.Predecessor] {
			report(at+".predecessor", "unknown activity %q", r.Predecessor)
		}
		if !activities[r.Successor] {
			report(at+".successor", "unknown activity %q", r.Successor)
		}
		if r.Predecessor == r.Successor && r.Predecessor != "" {
			report(at, "self-link: activity %q cannot precede itself", r.Predecessor)
		}
		if math.IsNaN(r.Lag) || math.IsInf(r.Lag, 0) {
			report(at+".lag", "must be a finite number of working days")
		}
		key := triple{r.Predecessor, r.Successor, r.Type}
		if first, dup := links[key]; dup {
			report(at, "duplicate %s link %q -> %q (also relationships[%d])", r.Type, r.Predecessor, r.Successor, first)
		} else {
			links[key] = i
		}
	}
	if len(errs) == 0 {
		// Only now is the network sound enough to look for cycles.
		if _, err := Compile(s); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
