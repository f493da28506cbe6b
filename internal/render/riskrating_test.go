package render_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/changerisk"
	"github.com/autoscheduler/autoscheduler/internal/render"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// ratedChange is the diamond with op applied: its comparison and rating.
func ratedChange(t *testing.T, before *schedule.Schedule, op schedule.Op) (*schedule.Comparison, *schedule.RiskRating) {
	t.Helper()
	after := before.Clone()
	if _, err := schedule.Apply(after, &op); err != nil {
		t.Fatal(err)
	}
	rb, err := schedule.Analyze(before)
	if err != nil {
		t.Fatal(err)
	}
	ra, err := schedule.Analyze(after)
	if err != nil {
		t.Fatal(err)
	}
	r, err := changerisk.Rate(before, after, rb, ra)
	if err != nil {
		t.Fatal(err)
	}
	return schedule.CompareResults(before, after, rb, ra), r
}

// chainBase is the diamond without Survey -> Cure: Excavate -> Pour slab
// -> Cure is the only chain to Cure.
func chainBase() *schedule.Schedule {
	s := diffBase()
	s.Relationships = s.Relationships[:3]
	return s
}

// TestRiskRatingText: the rating comes first with every reason, names the
// dissolve, and the finish a cut moved earlier is a warning, not green.
func TestRiskRatingText(t *testing.T) {
	for _, tc := range []struct {
		name       string
		op         schedule.Op
		want       []string // in order, rating then diff
		absent     []string
		colourWant string
	}{{
		name: "delete_cuts_logic", op: schedule.RemoveActivity("B"),
		want: []string{"Risk: CRITICAL\n", "  critical  Logic cut: Excavate (A) no longer drives Cure (C) (through Pour slab (B), deleted).",
			"  high      Critical work deleted: Pour slab (B).\n",
			"  Instead: dissolve Pour slab (B), keeping the logic through it — reject with feedback \"dissolve instead\".\n",
			"finish earlier only because logic was cut (by 4 working days)"},
		absent:     []string{": finish moves earlier"},
		colourWant: "\x1b[31mfinish earlier only because logic was cut",
	}, {
		name: "dissolve_keeps_logic", op: schedule.DissolveActivity("B"),
		want:       []string{"Risk: HIGH\n", "  high      Critical work deleted: Pour slab (B).\n", "finish moves earlier by 3 working days\n"},
		absent:     []string{"Instead:", "Logic cut", "only because logic was cut"},
		colourWant: "\x1b[32mfinish moves earlier by 3 working days",
	}, {
		name: "harmless", op: func() schedule.Op {
			a, _ := chainBase().Activity("D")
			a.Duration = "2"
			return schedule.UpdateActivity(a)
		}(),
		want:   []string{"Risk: LOW\n", "  low       Float consumed: total float eroded on 1 activity, most on Survey (D)"},
		absent: []string{"Instead:"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			d, r := ratedChange(t, chainBase(), tc.op)
			var plain, colour bytes.Buffer
			for _, out := range []struct {
				buf   *bytes.Buffer
				color bool
			}{{&plain, false}, {&colour, true}} {
				opts := render.DiffOptions{Color: out.color, Rating: r}
				if err := render.WriteRiskRating(out.buf, r, opts); err != nil {
					t.Fatal(err)
				}
				if err := render.WriteComparison(out.buf, d, opts); err != nil {
					t.Fatal(err)
				}
			}
			text := plain.String()
			at := 0
			for _, w := range tc.want {
				i := strings.Index(text[at:], w)
				if i < 0 {
					t.Errorf("text lacks %q after byte %d:\n%s", w, at, text)
					continue
				}
				at += i + len(w)
			}
			for _, a := range tc.absent {
				if strings.Contains(text, a) {
					t.Errorf("text has %q:\n%s", a, text)
				}
			}
			if tc.colourWant != "" && !strings.Contains(colour.String(), tc.colourWant) {
				t.Errorf("coloured text lacks %q:\n%q", tc.colourWant, colour.String())
			}
		})
	}
	var none bytes.Buffer
	if err := render.WriteRiskRating(&none, nil, render.DiffOptions{}); err != nil || none.Len() != 0 {
		t.Errorf("a change recorded before ratings: %q, %v", none.String(), err)
	}
}

// TestRiskRatingQuotesControlCharacters: a name in a reason cannot steer
// the terminal.
func TestRiskRatingQuotesControlCharacters(t *testing.T) {
	before := diffBase()
	before.Activities[1].Name = "evil\x1b[2J"
	_, r := ratedChange(t, before, schedule.RemoveActivity("B"))
	var buf bytes.Buffer
	if err := render.WriteRiskRating(&buf, r, render.DiffOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "\x1b") || !strings.Contains(buf.String(), `evil\x1b[2J`) {
		t.Errorf("text:\n%q", buf.String())
	}
}
