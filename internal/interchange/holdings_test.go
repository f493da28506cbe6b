package interchange

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDescribe reads real files with their source kept and checks what
// import says they hold: counts the file has, and the kept parts.
func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		file              string
		resources, assign int
		kept              string // one part Kept must name
		fact              string // a line Facts must hold
	}{
		{file: "../../../shared/data/real/assignment-assignments-project2019-mspdi.xml", kept: "Views", fact: "4 resources, 3 assignments"},
		{file: "../../../shared/data/real/percent-complete-8.4.xer", fact: "progress:"},
		{file: "../../../shared/data/real/PredecessorCalendar.xer", kept: "OBS", fact: "1 date constraint"},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			data, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			f, _ := FormatOf(tc.file)
			r, err := ParseWith(data, f, Options{KeepSource: true, Name: tc.file})
			if err != nil {
				t.Fatal(err)
			}
			if r.Schedule.Source == nil || r.Schedule.Source.Name != filepath.Base(tc.file) {
				t.Fatalf("source not kept: %+v", r.Schedule.Source)
			}
			back, err := SourceBytes(r.Schedule.Source)
			if err != nil || string(back) != string(data) {
				t.Fatalf("the kept file differs from the file (%v)", err)
			}
			h := Describe(r.Schedule)
			if h.Activities != len(r.Schedule.Activities) || h.Relationships != len(r.Schedule.Relationships) {
				t.Errorf("counts %d/%d, want %d/%d", h.Activities, h.Relationships, len(r.Schedule.Activities), len(r.Schedule.Relationships))
			}
			if tc.kept != "" && !slices.ContainsFunc(h.Kept, func(p Part) bool { return p.Name == tc.kept && p.Count > 0 }) {
				t.Errorf("kept %+v names no %s", h.Kept, tc.kept)
			}
			facts := strings.Join(h.Facts(), "\n")
			if !strings.Contains(facts, tc.fact) {
				t.Errorf("facts say nothing of %q:\n%s", tc.fact, facts)
			}
			t.Logf("%s", facts)
		})
	}
}

// TestKeepSourceOnlyWhenAsked: a command that only reads a file does not
// pay for keeping it, and a JSON file has no source.
func TestKeepSourceOnlyWhenAsked(t *testing.T) {
	data, err := os.ReadFile("../../../shared/data/real/PredecessorCalendar.xer")
	if err != nil {
		t.Fatal(err)
	}
	r, err := ParseWith(data, XER, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Schedule.Source != nil {
		t.Error("a source kept without KeepSource")
	}
	if KeepSource([]byte(`{}`), JSON, "x.json") != nil {
		t.Error("a JSON file kept as a source")
	}
}

// TestSourceMovesThroughJSON: a schedule exported as JSON and imported
// again (a move between stores) keeps its P6 file byte for byte.
func TestSourceMovesThroughJSON(t *testing.T) {
	data, err := os.ReadFile("../../../shared/data/real/PredecessorCalendar.xer")
	if err != nil {
		t.Fatal(err)
	}
	r, err := ParseWith(data, XER, Options{KeepSource: true, Name: "p.xer"})
	if err != nil {
		t.Fatal(err)
	}
	var js strings.Builder
	if err := Write(&js, r.Schedule, JSON, nil); err != nil {
		t.Fatal(err)
	}
	back, err := ParseWith([]byte(js.String()), JSON, Options{KeepSource: true})
	if err != nil {
		t.Fatal(err)
	}
	if back.Schedule.Source == nil {
		t.Fatal("the source was lost on the way through JSON")
	}
	kept, err := SourceBytes(back.Schedule.Source)
	if err != nil || string(kept) != string(data) || back.Schedule.Source.Name != "p.xer" {
		t.Fatalf("the source came back different (%v, name %q)", err, back.Schedule.Source.Name)
	}
}
