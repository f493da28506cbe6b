package interchange

import "github.com/autoscheduler/autoscheduler/internal/schedule"

// diffSchedules is diffNetworks for tests, which hold schedules: each is
// checked (compiled) here.
func diffSchedules(base, cur *schedule.Schedule) (*edits, error) {
	baseNet, err := schedule.Check(base)
	if err != nil {
		return nil, err
	}
	curNet, err := schedule.Check(cur)
	if err != nil {
		return nil, err
	}
	return diffNetworks(base, baseNet, cur, curNet)
}

// sourceSchedule is the schedule a source reads as, and the file's bytes.
func sourceSchedule(src *schedule.Source) (*schedule.Schedule, []byte, error) {
	r, data, err := readSource(src)
	if err != nil {
		return nil, nil, err
	}
	return r.Schedule, data, nil
}
