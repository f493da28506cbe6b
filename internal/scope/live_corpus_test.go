package scope

import (
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// The second schedule of the live corpus: a bridge (abutments, piers,
// spans, decks), other vocabulary than the building's, with a data date.
const bridgeFile = "testdata/bridge.json"

// The third: a hospital refurbishment by wing (lettered) and theatre
// (numbered), places no lexicon lists, to show they are learned.
const hospitalFile = "testdata/hospital.json"

// The fourth: an office fit-out by level and lettered zone, two kinds of
// place in one name ("Level 2 Zone A drywall").
const officeFile = "testdata/office.json"

// The fifth: a clinic by wings named by compass points ("North wing").
const clinicFile = "testdata/clinic.json"

// TestLivePromptCorpus runs the prompts of the live programme — duration
// changes, delays, constraints, progress — on the building and the
// bridge, the hospital, the office, the clinic, and on a statused programme with constraints and actuals
// (storetest.LiveSchedule): no wrong change, and at least 90% correct.
func TestLivePromptCorpus(t *testing.T) {
	bridge, _, err := interchange.Load(bridgeFile)
	if err != nil {
		t.Fatal(err)
	}
	hospital, _, err := interchange.Load(hospitalFile)
	if err != nil {
		t.Fatal(err)
	}
	office, _, err := interchange.Load(officeFile)
	if err != nil {
		t.Fatal(err)
	}
	clinic, _, err := interchange.Load(clinicFile)
	if err != nil {
		t.Fatal(err)
	}
	runCorpus(t, "testdata/live_prompts.json", map[string]*schedule.Schedule{"": storetest.Building(t), "bridge": bridge, "hospital": hospital, "office": office,
		"clinic": clinic, "live": storetest.LiveSchedule()}, 80, 90)
}
