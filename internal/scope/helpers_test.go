package scope

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// building is examples/building.json (read directly: the JSON file format
// is plain schedule.Schedule JSON).
func building(t testing.TB) *schedule.Schedule {
	t.Helper()
	b, err := os.ReadFile("../../examples/building.json")
	if err != nil {
		t.Fatal(err)
	}
	var s schedule.Schedule
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return &s
}
