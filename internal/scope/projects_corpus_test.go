package scope

import (
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// The schedules of the projects corpus, each in its own trade's words:
// a road by section and junction, a pipeline by spread and block valve
// station, a data centre by lettered data hall, numbered generator and
// compass plant yard, a station by platform and compass entrance, a wind
// farm by zero-padded turbine, a refinery turnaround by unit, train and
// equipment tag, a tunnel by cross passage and shaft, a housing site by
// plot; with the hospital and the clinic for the places written before
// their work.
var projectFiles = map[string]string{
	"highway":    "testdata/highway.json",
	"pipeline":   "testdata/pipeline.json",
	"datacentre": "testdata/datacentre.json",
	"station":    "testdata/station.json",
	"hospital":   hospitalFile,
	"clinic":     clinicFile,
	"windfarm":   "testdata/windfarm.json",
	"shutdown":   "testdata/shutdown.json",
	"tunnel":     "testdata/tunnel.json",
	"housing":    "testdata/housing.json",
}

// TestProjectPromptCorpus runs prompts written as planners of other kinds
// of project write them — constraints, progress and the data date,
// durations and delays, copies of a place, lists and ranges of places,
// re-sequencing — on those projects' schedules: no wrong change, and at
// least 90% correct.
func TestProjectPromptCorpus(t *testing.T) {
	schedules := map[string]*schedule.Schedule{}
	for name, file := range projectFiles {
		s, _, err := interchange.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		schedules[name] = s
	}
	runCorpus(t, "testdata/projects_prompts.json", schedules, 150, 90)
}
