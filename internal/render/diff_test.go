package render_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/render"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/schedule/scheduletest"
)

// diffBase is the diamond A -> B -> C, A -> D -> C (scheduletest.Diamond).
func diffBase() *schedule.Schedule { return scheduletest.Diamond("Diff") }

func TestChangeDiff(t *testing.T) {
	tests := []struct {
		name   string
		change func(s *schedule.Schedule)
		want   []string // lines (or parts of lines) of the text, in order
		absent []string
		check  func(t *testing.T, d *schedule.Comparison)
	}{
		{
			name:   "no change",
			change: func(s *schedule.Schedule) {},
			want: []string{"No changes to activities or relationships.\n", "CPM impact\n",
				"  Project finish: 10 -> 10 working days: finish unchanged\n", "  Total float unchanged on every activity in both versions\n"},
			absent: []string{"Activities\n", "Relationships\n", "critical ("},
		},
		{
			name:   "longer critical activity",
			change: func(s *schedule.Schedule) { s.Activities[1].Duration = "5" },
			want: []string{"Activities\n", "  ~ Pour slab (B): duration 3 -> 5 d\n",
				"  Project finish: 10 -> 12 working days: finish moves later by 2 working days\n", "  Total float changed on 1 activity\n"},
			absent: []string{"Became critical", "No longer critical", "Relationships\n"},
			check: func(t *testing.T, d *schedule.Comparison) {
				if im := d.Impact; im.FinishChange != 2 || im.FloatChanged != 1 || len(d.Changed) != 1 || d.Changed[0].Changes[0] != (schedule.FieldChange{Field: "duration", Before: "3", After: "5"}) {
					t.Errorf("impact %+v, changed %+v", im, d.Changed)
				}
			},
		},
		{
			name:   "side branch becomes critical",
			change: func(s *schedule.Schedule) { s.Activities[3].Duration = "6" },
			want: []string{"  ~ Survey (D): duration 1 -> 6 d\n", "finish moves later by 3 working days\n",
				"  Became critical (1): Survey (D)\n", "  No longer critical (1): Pour slab (B)\n", "  Total float changed on 2 activities\n"},
		},
		{
			name: "remove a critical activity",
			change: func(s *schedule.Schedule) {
				s.Activities = append(s.Activities[:1], s.Activities[2:]...)
				s.Relationships = s.Relationships[2:]
			},
			want: []string{"Activities\n", "  - Pour slab (B, 3 d, critical)\n", "Relationships\n",
				"  - Excavate -FS-> Pour slab\n", "  - Pour slab -FS-> Cure\n",
				"  Project finish: 10 -> 8 working days: finish moves earlier by 2 working days\n",
				"  Became critical (1): Survey (D)\n", "  Total float changed on 1 activity\n"},
			absent: []string{"No longer critical", "  + "},
			check: func(t *testing.T, d *schedule.Comparison) {
				if len(d.Removed) != 1 || !d.Removed[0].Critical || len(d.RelationshipsRemoved) != 2 || d.RelationshipsRemoved[0].ID != "R1" ||
					d.Impact.FinishChange != -2 || len(d.Impact.BecameCritical) != 1 {
					t.Errorf("diff %+v, impact %+v", d, d.Impact)
				}
			},
		},
		{
			name: "add an activity with a lagged link",
			change: func(s *schedule.Schedule) {
				s.Activities = append(s.Activities, schedule.Activity{ID: "E", Name: "Tile", Duration: "4"})
				s.Relationships = append(s.Relationships, schedule.Relationship{ID: "R9", Type: schedule.FS, Predecessor: "C", Successor: "E", Lag: 2})
			},
			want: []string{"  + Tile (E, 4 d, critical)\n", "Relationships\n", "  + Cure -FS+2-> Tile\n",
				"  Project finish: 10 -> 16 working days: finish moves later by 6 working days\n", "  Total float unchanged on every activity in both versions\n"},
		},
		{
			name:   "lag changed on the same relationship",
			change: func(s *schedule.Schedule) { s.Relationships[2].Lag = 3 },
			want: []string{"Relationships\n", "  + Excavate -FS+3-> Survey\n", "  - Excavate -FS-> Survey\n",
				"finish moves later by 1 working day\n", "  Became critical (1): Survey (D)\n", "  No longer critical (1): Pour slab (B)\n"},
			absent: []string{"Activities\n"},
		},
		{
			name: "relationship re-created with a new id is no change",
			change: func(s *schedule.Schedule) {
				s.Relationships[3].ID = "R4-new"
				s.Relationships[0], s.Relationships[3] = s.Relationships[3], s.Relationships[0]
			},
			want: []string{"No changes to activities or relationships.\n", "finish unchanged\n"},
		},
		{
			name: "type change, rename, negative lag",
			change: func(s *schedule.Schedule) {
				s.Activities[2].Name = "Cure slab"
				s.Activities[2].Description = "Wet cure"
				s.Relationships[1].Type = schedule.SS
				s.Relationships[1].Lag = -1.5
			},
			want: []string{`  ~ Cure slab (C): name "Cure" -> "Cure slab"; description "" -> "Wet cure"` + "\n",
				"  + Pour slab -SS-1.5-> Cure slab\n", "  - Pour slab -FS-> Cure\n", "finish moves earlier by 2 working days\n"},
		},
		{
			name: "a cycle after the change",
			change: func(s *schedule.Schedule) {
				s.Relationships = append(s.Relationships, schedule.Relationship{ID: "R9", Type: schedule.FS, Predecessor: "C", Successor: "A"})
			},
			want:   []string{"  + Cure -FS-> Excavate\n", "CPM impact\n", "  CPM after the change: circular logic: "},
			absent: []string{"Project finish"},
			check: func(t *testing.T, d *schedule.Comparison) {
				if d.Impact != nil || !strings.HasPrefix(d.ImpactError, "CPM after the change: circular logic") {
					t.Errorf("impact %+v, error %q", d.Impact, d.ImpactError)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := diffBase()
			after := before.Clone()
			tc.change(after)
			snapshot, _ := json.Marshal(before)
			var buf bytes.Buffer
			if err := render.WriteChangeDiff(&buf, before, after, render.DiffOptions{}); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			rest := out
			for _, w := range tc.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("text lacks (in order) %q:\n%s", w, out)
				}
				rest = rest[i+len(w):]
			}
			for _, a := range tc.absent {
				if strings.Contains(out, a) {
					t.Errorf("text has %q:\n%s", a, out)
				}
			}
			if strings.Contains(out, "\x1b") {
				t.Errorf("colour without DiffOptions.Color:\n%q", out)
			}
			if again, _ := json.Marshal(before); !bytes.Equal(again, snapshot) {
				t.Error("the diff modified the before schedule")
			}
			if tc.check != nil {
				tc.check(t, schedule.Compare(before, after))
			}
		})
	}
}

func TestChangeDiffDatesAndColour(t *testing.T) {
	before := diffBase()
	before.StartDate = "2026-01-05"
	after := before.Clone()
	after.Activities[1].Duration = "5"
	after.Activities = append(after.Activities, schedule.Activity{ID: "E", Name: "Snag", Duration: "1"})
	after.Relationships = append(after.Relationships, schedule.Relationship{ID: "R9", Type: schedule.SS, Predecessor: "A", Successor: "E"})

	var plain, colour bytes.Buffer
	if err := render.WriteChangeDiff(&plain, before, after, render.DiffOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := render.WriteChangeDiff(&colour, before, after, render.DiffOptions{Color: true}); err != nil {
		t.Fatal(err)
	}
	// Day 10 ends on Friday 16 January, day 12 on Tuesday 20 January.
	want := "  Project finish: 10 -> 12 working days (Fri 2026-01-16 -> Tue 2026-01-20): finish moves later by 2 working days\n"
	if !strings.Contains(plain.String(), want) {
		t.Errorf("text lacks %q:\n%s", want, plain.String())
	}
	for _, w := range []string{"\x1b[1mActivities\x1b[0m\n", "\x1b[32m  + Snag (E, 1 d)\x1b[0m\n", "\x1b[33m  ~ Pour slab (B): duration 3 -> 5 d\x1b[0m\n",
		"\x1b[32m  + Excavate -SS-> Snag\x1b[0m\n", "\x1b[31mfinish moves later by 2 working days\x1b[0m\n"} {
		if !strings.Contains(colour.String(), w) {
			t.Errorf("coloured text lacks %q:\n%q", w, colour.String())
		}
	}
	if stripped := strings.NewReplacer("\x1b[0m", "", "\x1b[1m", "", "\x1b[31m", "", "\x1b[32m", "", "\x1b[33m", "").Replace(colour.String()); stripped != plain.String() {
		t.Errorf("colour changes the text:\n%s\nvs\n%s", stripped, plain.String())
	}

	// The JSON form: stable keys, dates, [] for empty lists.
	b, err := json.Marshal(schedule.Compare(before, after))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	im := got["impact"].(map[string]any)
	if im["finish_before"] != 10.0 || im["finish_after"] != 12.0 || im["finish_change"] != 2.0 ||
		im["finish_date_before"] != "2026-01-16T17:00:00" || im["finish_date_after"] != "2026-01-20T17:00:00" || im["float_changed"] != 1.0 {
		t.Errorf("impact JSON %v", im)
	}
	for _, key := range []string{"removed", "relationships_removed"} {
		if l, ok := got[key].([]any); !ok || len(l) != 0 {
			t.Errorf("%s = %v, want []", key, got[key])
		}
	}
	if rel := got["relationships_added"].([]any)[0].(map[string]any); rel["text"] != "Excavate -SS-> Snag" || rel["predecessor_name"] != "Excavate" || rel["type"] != "SS" {
		t.Errorf("relationship JSON %v", rel)
	}
	// A diff that travelled as JSON (a workflow's history) prints the same,
	// dates included; Limit shortens the lists.
	var back schedule.Comparison
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	var again, limited bytes.Buffer
	if err := render.WriteComparison(&again, &back, render.DiffOptions{}); err != nil {
		t.Fatal(err)
	}
	if again.String() != plain.String() {
		t.Errorf("after JSON:\n%s\nbefore:\n%s", again.String(), plain.String())
	}
	more := after.Clone()
	more.Activities = append(more.Activities, schedule.Activity{ID: "F", Name: "Snag 2", Duration: "1"}, schedule.Activity{ID: "G", Name: "Snag 3", Duration: "1"})
	if err := render.WriteChangeDiff(&limited, before, more, render.DiffOptions{Limit: 1}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(limited.String(), "  + Snag (E, 1 d)\n    … and 2 more\n") || strings.Contains(limited.String(), "Snag 2") {
		t.Errorf("limited:\n%s", limited.String())
	}
	// Cap cuts the lists themselves (for a workflow history) and the text
	// still counts what was cut.
	capped := schedule.Compare(before, more)
	capped.Cap(1)
	if len(capped.Added) != 1 || capped.Omitted["added"] != 2 {
		t.Fatalf("capped: %d added, omitted %v", len(capped.Added), capped.Omitted)
	}
	var cappedText bytes.Buffer
	if err := render.WriteComparison(&cappedText, capped, render.DiffOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(cappedText.String(), "  + Snag (E, 1 d)\n    … and 2 more\n") {
		t.Errorf("capped text:\n%s", cappedText.String())
	}
}

// A name cannot steer the terminal: control characters come out quoted.
func TestChangeDiffQuotesControlCharacters(t *testing.T) {
	before := diffBase()
	after := before.Clone()
	after.Activities = append(after.Activities, schedule.Activity{ID: "X", Name: "evil\x1b[2J\nname", Duration: "1"})
	var buf bytes.Buffer
	if err := render.WriteChangeDiff(&buf, before, after, render.DiffOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "\x1b") || !strings.Contains(buf.String(), `  + "evil\x1b[2J\nname" (X, 1 d)`) {
		t.Errorf("text:\n%q", buf.String())
	}
}

func TestChangeDiffNilSchedules(t *testing.T) {
	d := schedule.Compare(nil, diffBase())
	if len(d.Added) != 4 || len(d.RelationshipsAdded) != 4 || d.Impact == nil || d.Impact.FinishBefore != 0 || d.Impact.FinishAfter != 10 {
		t.Errorf("diff from nothing: %+v", d)
	}
}
