package schedule_test

import (
	"path/filepath"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/schedule/scheduletest"
)

// psplibDir holds the shared PSPLIB instances (../shared beside the repo).
const psplibDir = "../../../shared/data/psplib"

func TestPSPLIBCriticalPathLength(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(psplibDir, "*", "*.sm"))
	if err != nil || len(files) < 80 {
		t.Fatalf("want the 80 PSPLIB instances under %s, found %d (%v)", psplibDir, len(files), err)
	}
	for _, path := range files {
		s, mpm, err := scheduletest.ReadPSPLIB(path)
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
