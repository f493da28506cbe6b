package interchange

import (
	"maps"
	"slices"
	"testing"
)

// TestXERAssignmentsUnderP6Rules: a P6 file's TASKRSRC rows are kept on
// their activities, by resource name, none dating it (P6 dates an activity
// from its own duration): site.xer assigns the concrete gang and the crane
// to A1030, the gang to A1040 and A1090, the crane to A1070.
func TestXERAssignmentsUnderP6Rules(t *testing.T) {
	s, err := ReadFile("testdata/xerpatch/site.xer")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, a := range s.Activities {
		for _, as := range a.Assignments {
			if !as.NonDriving || as.Work != "" {
				t.Errorf("%s: %+v dates the activity", a.ID, as)
			}
			got[a.ID] = append(got[a.ID], as.Resource)
		}
	}
	want := map[string][]string{
		"A1030": {"Concrete gang", "Crane \u2014 50 t"},
		"A1040": {"Concrete gang"},
		"A1070": {"Crane \u2014 50 t"},
		"A1090": {"Concrete gang"},
	}
	if !maps.EqualFunc(got, want, slices.Equal) {
		t.Errorf("assignments %v, want %v", got, want)
	}
}
