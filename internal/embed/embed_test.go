package embed_test

import (
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/embed"
)

func TestActivityText(t *testing.T) {
	tests := []struct {
		name, description, duration string
		want                        string
	}{
		{"Pour slab Level 2", "Concrete pour and curing of the slab on Level 2 by the concrete subcontractor.", "1",
			"Pour slab Level 2. Concrete pour and curing of the slab on Level 2 by the concrete subcontractor. Duration: 1 working day."},
		{"Drywall framing Level 3", "Metal stud framing for partitions", "5",
			"Drywall framing Level 3. Metal stud framing for partitions. Duration: 5 working days."},
		{"Piling", "Bored piling.", "pert(10,12,18)",
			"Piling. Bored piling. Duration: pert(10,12,18) working days."},
		{"Handover", "", "0", "Handover. Duration: 0 working days."},
		{" Is it done? ", "  ", "", "Is it done?"},
		{"", "", "", ""},
	}
	for _, tt := range tests {
		if got := embed.ActivityText(tt.name, tt.description, tt.duration); got != tt.want {
			t.Errorf("ActivityText(%q, %q, %q)\n got %q\nwant %q", tt.name, tt.description, tt.duration, got, tt.want)
		}
	}
}

func TestRelationshipText(t *testing.T) {
	tests := []struct {
		relType string
		lag     float64
		want    string
	}{
		{"FS", 2, `FS (finish-to-start) relationship, lag 2 working days: from "Pour slab Level 2. Concrete pour. Duration: 1 working day." to "Strip formwork Level 2. Duration: 2 working days."`},
		{"ss", 1, `SS (start-to-start) relationship, lag 1 working day: from "Pour slab Level 2. Concrete pour. Duration: 1 working day." to "Strip formwork Level 2. Duration: 2 working days."`},
		{"FF", 0, `FF (finish-to-finish) relationship, no lag: from "Pour slab Level 2. Concrete pour. Duration: 1 working day." to "Strip formwork Level 2. Duration: 2 working days."`},
		{"SF", -1.5, `SF (start-to-finish) relationship, lead 1.5 working days: from "Pour slab Level 2. Concrete pour. Duration: 1 working day." to "Strip formwork Level 2. Duration: 2 working days."`},
		{"", 0, `relationship, no lag: from "Pour slab Level 2. Concrete pour. Duration: 1 working day." to "Strip formwork Level 2. Duration: 2 working days."`},
		{"XX", 0, `XX relationship, no lag: from "Pour slab Level 2. Concrete pour. Duration: 1 working day." to "Strip formwork Level 2. Duration: 2 working days."`},
	}
	for _, tt := range tests {
		got := embed.RelationshipText(tt.relType, tt.lag,
			"Pour slab Level 2", "Concrete pour", "1",
			"Strip formwork Level 2", "", "2")
		if got != tt.want {
			t.Errorf("RelationshipText(%q, %v)\n got %s\nwant %s", tt.relType, tt.lag, got, tt.want)
		}
	}
}

// Without WBS or codes the filed text is ActivityText byte for byte (so
// stored vectors stay valid); with them, sentences follow in a fixed order.
func TestFiledActivityText(t *testing.T) {
	tests := []struct {
		wbs   string
		codes map[string]string
		want  string
	}{
		{"", nil, "Pour slab. Duration: 1 working day."},
		{"  ", map[string]string{}, "Pour slab. Duration: 1 working day."},
		{"Site/Block A", nil, "Pour slab. Duration: 1 working day. WBS: Site/Block A."},
		{"", map[string]string{"Phase": "2", "Area": "North"}, "Pour slab. Duration: 1 working day. Codes: Area North; Phase 2."},
		{"1.2.3", map[string]string{"Trade": "Concrete"}, "Pour slab. Duration: 1 working day. WBS: 1.2.3. Codes: Trade Concrete."},
	}
	for _, tt := range tests {
		if got := embed.FiledActivityText("Pour slab", "", "1", tt.wbs, tt.codes); got != tt.want {
			t.Errorf("FiledActivityText(wbs %q, codes %v)\n got %q\nwant %q", tt.wbs, tt.codes, got, tt.want)
		}
	}
	for _, name := range []string{"Pour slab Level 2", " Is it done? ", ""} {
		if got, want := embed.FiledActivityText(name, "Bored piling.", "pert(10,12,18)", "", nil), embed.ActivityText(name, "Bored piling.", "pert(10,12,18)"); got != want {
			t.Errorf("%q: filed text %q, activity text %q", name, got, want)
		}
	}
}
