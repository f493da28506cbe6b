package schedule_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// psplibDir holds the shared PSPLIB instances (../shared beside the repo).
const psplibDir = "../../../shared/data/psplib"

// readSM reads a PSPLIB single-mode file into a schedule (finish-to-start
// links, zero lag) and returns the file's MPM-Time (critical path length).
func readSM(path string) (*schedule.Schedule, int, error) {
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

func TestPSPLIBCriticalPathLength(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(psplibDir, "*", "*.sm"))
	if err != nil || len(files) < 80 {
		t.Fatalf("want the 80 PSPLIB instances under %s, found %d (%v)", psplibDir, len(files), err)
	}
	for _, path := range files {
		s, mpm, err := readSM(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := schedule.Validate(s); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		r, err := schedule.Analyze(s)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if r.ProjectDuration != float64(mpm) {
			t.Errorf("%s: project duration %g, MPM-Time %d", filepath.Base(path), r.ProjectDuration, mpm)
		}
	}
}
