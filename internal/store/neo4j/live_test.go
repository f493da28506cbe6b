package neo4j

import (
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// Every live field has a property: an activity with all of them set
// writes and reads back its intra node's Live text, and a property list
// missing one is refused rather than losing it. No server needed.
func TestLivePropertiesCoverEveryField(t *testing.T) {
	a := storetest.LiveSchedule().Activities[0] // every live field set
	nodes, _ := schedule.ActivityNodes(a)
	row := map[string]any{}
	if err := writeLive(row, a, nodes[1].Live); err != nil {
		t.Fatal(err)
	}
	for _, p := range liveProperties {
		if row[p.name] == nil {
			t.Errorf("property %s is not set for an activity that has it", p.name)
		}
		if !strings.Contains(cypherPutActivities, "i."+p.name+" = row."+p.name) || !strings.Contains(cypherNodes, "."+p.name) {
			t.Errorf("property %s is not written or not read by the Cypher", p.name)
		}
	}

	all := liveProperties
	defer func() { liveProperties = all }()
	liveProperties = all[1:]
	if err := writeLive(map[string]any{}, a, nodes[1].Live); err == nil {
		t.Fatalf("without the %s property the activity was written", all[0].name)
	}

	plain := schedule.Activity{ID: "P", Name: "Plain", Duration: "1"}
	row = map[string]any{}
	if err := writeLive(row, plain, ""); err != nil {
		t.Fatal(err)
	}
	for name, v := range row {
		if v != nil {
			t.Errorf("a plain activity has property %s = %v", name, v)
		}
	}
}
