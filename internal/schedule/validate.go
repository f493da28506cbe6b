package schedule

import (
	"errors"
	"fmt"
)

// Validate checks a whole schedule and reports every problem it finds (up to
// 20), each naming its field and index: ids present and unique across
// activities and relationships, names present, durations parsable and
// within MaxDays, link types known, link ends known, no self-links, no
// duplicate links (same predecessor, successor and type), lags within
// ±MaxDays, a valid start date and calendar, no circular logic, and text
// as CheckID, CheckName and CheckDescription allow (ids, the schedule's,
// activities' and calendar exceptions' names, descriptions).
func Validate(s *Schedule) error {
	_, err := Check(s)
	return err
}

// Check is Validate that also returns the compiled network, so a caller that
// goes on to compute CPM does not compile twice.
func Check(s *Schedule) (*Network, error) {
	var errs []error
	if s.StartDate != "" {
		if _, err := ParseStart(s.StartDate); err != nil {
			errs = append(errs, fieldErr("start_date", "%q is not a date like 2026-01-05 (or with a time of day, 2026-01-05T09:00)", s.StartDate))
		}
	}
	if err := CheckName(s.Name); err != nil {
		errs = append(errs, fieldErr("name", "%v", err))
	}
	if s.Calendar != nil {
		if _, err := s.Calendar.compile(); err != nil {
			errs = append(errs, err)
		}
		for i, e := range s.Calendar.Exceptions {
			if err := CheckName(e.Name); err != nil {
				errs = append(errs, fieldErr(fmt.Sprintf("calendar.exceptions[%d].name", i), "%v", err))
			}
		}
	}
	errs = append(errs, checkBaselines(s)...)
	n, problems := compile(s, true)
	if errs = append(errs, problems...); len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return n, nil
}
