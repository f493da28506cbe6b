package scheduletest

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// ReadPSPLIB reads a PSPLIB single-mode (.sm) file into a schedule
// (finish-to-start links, zero lag) and returns the file's MPM-Time (its
// critical path length).
func ReadPSPLIB(path string) (*schedule.Schedule, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	s := &schedule.Schedule{Name: filepath.Base(path)}
	durations := map[string]string{}
	var order []string
	mpm := -1
	section := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		fields := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, "PROJECT INFORMATION"), strings.HasPrefix(line, "PRECEDENCE RELATIONS"),
			strings.HasPrefix(line, "REQUESTS/DURATIONS"), strings.HasPrefix(line, "RESOURCEAVAILABILITIES"):
			section = strings.Fields(line)[0]
			continue
		case strings.HasPrefix(line, "*"), len(fields) == 0 || fields[0] == "jobnr." || fields[0] == "pronr." || strings.HasPrefix(line, "-"):
			continue
		}
		nums := make([]int, len(fields))
		numeric := true
		for i, fl := range fields {
			if nums[i], err = strconv.Atoi(fl); err != nil {
				numeric = false
			}
		}
		if !numeric {
			continue
		}
		switch section {
		case "PROJECT":
			mpm = nums[len(nums)-1]
		case "PRECEDENCE":
			job := fields[0]
			order = append(order, job)
			for _, succ := range fields[3 : 3+nums[2]] {
				s.Relationships = append(s.Relationships, schedule.Relationship{
					ID: fmt.Sprintf("R%d", len(s.Relationships)+1), Type: schedule.FS, Predecessor: job, Successor: succ,
				})
			}
		case "REQUESTS/DURATIONS:":
			durations[fields[0]] = fields[2]
		}
	}
	if err := sc.Err(); err != nil {
		return nil, 0, err
	}
	for _, job := range order {
		s.Activities = append(s.Activities, schedule.Activity{ID: job, Name: "job " + job, Duration: durations[job]})
	}
	if mpm < 0 || len(order) == 0 {
		return nil, 0, fmt.Errorf("%s: no MPM-Time or no jobs", path)
	}
	return s, mpm, nil
}
