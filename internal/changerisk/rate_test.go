package changerisk_test

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/changerisk"
	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// chain is A(2) -> B(3) -> C(4) -> D(0), the critical path, with a side
// branch A -> E(1) -> D that has 6 days of float.
func chain() *schedule.Schedule {
	act := func(id, dur string) schedule.Activity {
		return schedule.Activity{ID: id, Name: "Task " + id, Duration: dur}
	}
	fs := func(id, p, s string) schedule.Relationship {
		return schedule.Relationship{ID: id, Type: schedule.FS, Predecessor: p, Successor: s}
	}
	return &schedule.Schedule{
		Name:          "chain",
		StartDate:     "2026-01-05",
		Activities:    []schedule.Activity{act("A", "2"), act("B", "3"), act("C", "4"), act("D", "0"), act("E", "1")},
		Relationships: []schedule.Relationship{fs("AB", "A", "B"), fs("BC", "B", "C"), fs("CD", "C", "D"), fs("AE", "A", "E"), fs("ED", "E", "D")},
	}
}

// rate applies ops to a copy of before and rates the change.
func rate(t *testing.T, before *schedule.Schedule, ops ...schedule.Op) *schedule.RiskRating {
	t.Helper()
	after := before.Clone()
	if _, _, err := schedule.ApplyAll(after, ops); err != nil {
		t.Fatalf("applying the change: %v", err)
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
	return r
}

// reasonsOf is kind:level for every reason, with the check for a check's.
func reasonsOf(r *schedule.RiskRating) []string {
	var out []string
	for _, x := range r.Reasons {
		s := x.Kind + ":" + string(x.Level)
		if x.Check != "" {
			s = x.Kind + "(" + x.Check + "):" + string(x.Level)
		}
		out = append(out, s)
	}
	return out
}

func ids(items []schedule.RiskItem) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.ID)
	}
	return out
}

func reasonOf(r *schedule.RiskRating, kind string) *schedule.RiskReason {
	for i := range r.Reasons {
		if r.Reasons[i].Kind == kind {
			return &r.Reasons[i]
		}
	}
	return nil
}

func TestRate(t *testing.T) {
	withDuration := func(id, dur string) schedule.Op {
		a, _ := chain().Activity(id)
		a.Duration = dur
		return schedule.UpdateActivity(a)
	}
	for _, tc := range []struct {
		name  string
		ops   []schedule.Op
		level schedule.RiskLevel
		// reasons are kind:level, all of them (checks that get worse too).
		reasons []string
		check   func(t *testing.T, r *schedule.RiskRating)
	}{{
		// Deleting B cuts A -> B -> C: C loses its driving predecessor, so
		// the finish moves earlier by more than B's 3 days of work.
		name: "delete_critical_cuts_logic", ops: []schedule.Op{schedule.RemoveActivity("B")}, level: schedule.RiskCritical,
		reasons: []string{"logic_cut:critical", "critical_work_deleted:high", "open_ends:medium", "check_worse(missing_logic):medium", "float_consumed:low"},
		check: func(t *testing.T, r *schedule.RiskRating) {
			if !r.FinishFromCutLogic {
				t.Error("FinishFromCutLogic is false: the finish moves earlier because A no longer drives C")
			}
			cut := reasonOf(r, schedule.RiskLogicCut)
			if len(cut.Chains) != 1 || cut.Chains[0].From.ID != "A" || cut.Chains[0].To.ID != "C" || !slices.Equal(ids(cut.Chains[0].Via), []string{"B"}) || !cut.Chains[0].Critical {
				t.Errorf("chains: %+v, want A -> B (deleted) -> C, critical", cut.Chains)
			}
			if !strings.Contains(cut.Text, "Logic cut: Task A (A) no longer drives Task C (C) (through Task B (B), deleted).") || !strings.Contains(cut.Text, "only because logic was cut") {
				t.Errorf("logic cut text: %q", cut.Text)
			}
			if !slices.Equal(ids(r.DissolveInstead), []string{"B"}) || r.DissolveFeedback != changerisk.DissolveFeedback {
				t.Errorf("dissolve instead: %v %q", r.DissolveInstead, r.DissolveFeedback)
			}
			if got := ids(reasonOf(r, schedule.RiskOpenEnds).Items); !slices.Equal(got, []string{"C"}) {
				t.Errorf("open ends: %v, want C (no predecessor now)", got)
			}
			if !strings.HasPrefix(r.Summary, "Critical risk: Logic cut:") || !strings.Contains(r.Summary, `reject with feedback "dissolve instead"`) {
				t.Errorf("summary: %q", r.Summary)
			}
		},
	}, {
		// The dissolve keeps A -> C: critical work is gone, no logic is.
		name: "dissolve_critical", ops: []schedule.Op{schedule.DissolveActivity("B")}, level: schedule.RiskHigh,
		// E's branch comes nearer the critical path: 6 days of float, 3 now.
		reasons: []string{"critical_work_deleted:high", "float_consumed:low"},
		check: func(t *testing.T, r *schedule.RiskRating) {
			if r.FinishFromCutLogic || len(r.DissolveInstead) > 0 {
				t.Errorf("a dissolve cut no logic: %+v", r)
			}
		},
	}, {
		// Removing the link B -> C: the same cut with no activity deleted,
		// so nothing to dissolve.
		name: "remove_driving_link", ops: []schedule.Op{schedule.RemoveRelationship("BC")}, level: schedule.RiskCritical,
		reasons: []string{"logic_cut:critical", "open_ends:medium", "open_ends:medium", "check_worse(missing_logic):medium", "float_consumed:low"},
		check: func(t *testing.T, r *schedule.RiskRating) {
			cut := reasonOf(r, schedule.RiskLogicCut)
			if len(cut.Chains) != 1 || cut.Chains[0].From.ID != "B" || cut.Chains[0].To.ID != "C" || len(cut.Chains[0].Via) != 0 {
				t.Errorf("chains: %+v, want B -> C", cut.Chains)
			}
			if len(r.DissolveInstead) > 0 {
				t.Errorf("nothing deleted, yet dissolve offered: %v", r.DissolveInstead)
			}
		},
	}, {
		// A link with slack is logic too, but cutting it moves nothing.
		name: "remove_link_with_slack", ops: []schedule.Op{schedule.RemoveRelationship("ED")}, level: schedule.RiskMedium,
		reasons: []string{"open_ends:medium", "check_worse(missing_logic):medium"},
	}, {
		// Added work with no successor: an open end, named.
		name: "add_open_ended", ops: []schedule.Op{
			schedule.AddActivity(schedule.Activity{ID: "X", Name: "Scaffold inspection", Duration: "3"}),
			schedule.AddRelationship(schedule.Relationship{ID: "AX", Type: schedule.FS, Predecessor: "A", Successor: "X"}),
		}, level: schedule.RiskMedium,
		reasons: []string{"open_ends:medium", "check_worse(missing_logic):medium"},
		check: func(t *testing.T, r *schedule.RiskRating) {
			open := reasonOf(r, schedule.RiskOpenEnds)
			if !slices.Equal(ids(open.Items), []string{"X"}) || !strings.Contains(open.Text, "Scaffold inspection (X) has no successor") {
				t.Errorf("open ends: %v %q", ids(open.Items), open.Text)
			}
		},
	}, {
		// Added work tied in both ways: nothing open, float eroded on E's
		// branch, and E -> D now says what E -> X -> D says.
		name: "add_tied_in", ops: []schedule.Op{
			schedule.AddActivity(schedule.Activity{ID: "X", Name: "Scaffold inspection", Duration: "3"}),
			schedule.AddRelationship(schedule.Relationship{ID: "EX", Type: schedule.FS, Predecessor: "E", Successor: "X"}),
			schedule.AddRelationship(schedule.Relationship{ID: "XD", Type: schedule.FS, Predecessor: "X", Successor: "D"}),
		}, level: schedule.RiskMedium,
		reasons: []string{"check_worse(redundant_links):medium", "float_consumed:low"},
	}, {
		// The harmless change: a day more on work with 6 days of float.
		name: "harmless_duration", ops: []schedule.Op{withDuration("E", "2")}, level: schedule.RiskLow,
		reasons: []string{"float_consumed:low"},
		check: func(t *testing.T, r *schedule.RiskRating) {
			if got := reasonOf(r, schedule.RiskFloatConsumed).Text; !strings.Contains(got, "Task E (E) 6 -> 5") {
				t.Errorf("float text: %q", got)
			}
		},
	}, {
		// Deleting work that drives nothing: no risk found.
		name: "delete_non_driving", ops: []schedule.Op{schedule.RemoveActivity("E")}, level: schedule.RiskLow,
		check: func(t *testing.T, r *schedule.RiskRating) {
			if len(r.Reasons) != 0 || !strings.HasPrefix(r.Summary, "Low risk: no critical or driving work deleted") {
				t.Errorf("reasons %v, summary %q", reasonsOf(r), r.Summary)
			}
		},
	}, {
		name: "finish_later", ops: []schedule.Op{withDuration("C", "6")}, level: schedule.RiskHigh,
		reasons: []string{"float_consumed:high"},
		check: func(t *testing.T, r *schedule.RiskRating) {
			if got := reasonOf(r, schedule.RiskFloatConsumed).Text; !strings.Contains(got, "the finish moves later by 2 working days") {
				t.Errorf("float text: %q", got)
			}
		},
	}, {
		name: "critical_path_grows", ops: []schedule.Op{withDuration("E", "7")}, level: schedule.RiskMedium,
		reasons: []string{"float_consumed:medium"},
		check: func(t *testing.T, r *schedule.RiskRating) {
			if got := ids(reasonOf(r, schedule.RiskFloatConsumed).Items); !slices.Equal(got, []string{"E"}) {
				t.Errorf("float items: %v", got)
			}
		},
	}, {
		name: "constraint_added", ops: []schedule.Op{func() schedule.Op {
			a, _ := chain().Activity("E")
			a.Constraint = &schedule.Constraint{Type: schedule.StartOnOrAfter, Date: "2026-01-07"}
			return schedule.UpdateActivity(a)
		}()}, level: schedule.RiskMedium,
		reasons: []string{"constraints_added:medium"},
		check: func(t *testing.T, r *schedule.RiskRating) {
			if got := reasonOf(r, schedule.RiskConstraintsAdded).Text; !strings.Contains(got, "Task E (E) start on or after 2026-01-07") {
				t.Errorf("constraint text: %q", got)
			}
		},
	}, {
		// A lead where the checks allow none: a check that now fails.
		name: "check_now_fails", ops: []schedule.Op{
			schedule.AddRelationship(schedule.Relationship{ID: "EC", Type: schedule.SS, Predecessor: "E", Successor: "C", Lag: -1}),
		}, level: schedule.RiskMedium,
		reasons: []string{"check_worse(leads):medium", "check_worse(relationship_types):medium", "float_consumed:low"},
		check: func(t *testing.T, r *schedule.RiskRating) {
			if got := r.Reasons[0]; !slices.Equal(ids(got.Items), []string{"EC"}) || !strings.Contains(got.Text, "now fails, 0 -> 1") {
				t.Errorf("leads reason: %+v", got)
			}
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			r := rate(t, chain(), tc.ops...)
			if r.Level != tc.level {
				t.Errorf("level %s, want %s (reasons %v)", r.Level, tc.level, reasonsOf(r))
			}
			if got := reasonsOf(r); !slices.Equal(got, tc.reasons) {
				t.Errorf("reasons:\n got %v\nwant %v", got, tc.reasons)
			}
			for _, x := range r.Reasons {
				if x.Level.Rank() > r.Level.Rank() {
					t.Errorf("reason %s is %s, above the rating's %s", x.Kind, x.Level, r.Level)
				}
			}
			if tc.check != nil {
				tc.check(t, r)
			}
			if t.Failed() {
				for _, x := range r.Reasons {
					t.Logf("%s %s: %s", x.Level, x.Kind, x.Text)
				}
			}
		})
	}
}

// TestRateBuilding is issue 31's case on the example building: deleting
// "Pour slab Level 3" makes its successors lose their driving predecessor
// and the finish move earlier; the rating says so and offers the dissolve.
func TestRateBuilding(t *testing.T) {
	s, _, err := interchange.Load("../../examples/building.json")
	if err != nil {
		t.Fatal(err)
	}
	r := rate(t, s, schedule.RemoveActivity("A066"))
	if r.Level != schedule.RiskCritical || !r.FinishFromCutLogic {
		t.Errorf("level %s, finish from cut logic %v; want critical, true", r.Level, r.FinishFromCutLogic)
	}
	cut := reasonOf(r, schedule.RiskLogicCut)
	if cut == nil {
		t.Fatalf("no logic cut: %v", reasonsOf(r))
	}
	var chains []string
	for _, ch := range cut.Chains {
		chains = append(chains, ch.From.ID+">"+strings.Join(ids(ch.Via), ",")+">"+ch.To.ID)
	}
	if !slices.Contains(chains, "A065>A066>A067") {
		t.Errorf("chains %v, want Slab reinforcement Level 3 (A065) -> Pour slab (A066) -> Column and wall formwork Level 3 (A067)", chains)
	}
	if !slices.Equal(ids(r.DissolveInstead), []string{"A066"}) {
		t.Errorf("dissolve instead: %v", r.DissolveInstead)
	}
	// The dissolve the rating offers: no logic cut left.
	d := rate(t, s, schedule.DissolveActivity("A066"))
	if d.FinishFromCutLogic || reasonOf(d, schedule.RiskLogicCut) != nil || d.Level.Rank() >= schedule.RiskCritical.Rank() {
		t.Errorf("dissolve: level %s, reasons %v", d.Level, reasonsOf(d))
	}
}

// TestRateRefusesMissingInput: no panic, a clear error.
func TestRateRefusesMissingInput(t *testing.T) {
	s := chain()
	r, err := schedule.Analyze(s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := changerisk.Rate(s, nil, r, r); err == nil {
		t.Error("no error without the version after")
	}
	if _, err := changerisk.Rate(s, s, r, nil); err == nil {
		t.Error("no error without a CPM result")
	}
	other := chain()
	other.Activities = append(other.Activities, schedule.Activity{ID: "Z", Name: "Not in the result", Duration: "1"})
	_, err = changerisk.Rate(s, other, r, r)
	if err == nil || !strings.Contains(err.Error(), "after") {
		t.Fatalf("a result that is not of its schedule: %v", err)
	}
	if u := changerisk.Unrated(err); u.Level != schedule.RiskHigh || !strings.Contains(u.Summary, "could not be rated") || !strings.Contains(u.Summary, `"Z"`) {
		t.Errorf("unrated: %+v", u)
	}
}

// TestRateLongDeletedChain: deleting the middle of a long chain names one
// chain, its deleted run capped (a rating stays small enough for a
// workflow's history), and a whole-schedule change rates quickly.
func TestRateLongDeletedChain(t *testing.T) {
	s := &schedule.Schedule{Name: "line"}
	const n = 3000
	id := func(i int) string { return "L" + strconv.Itoa(i) }
	for i := range n {
		s.Activities = append(s.Activities, schedule.Activity{ID: id(i), Name: "Step " + strconv.Itoa(i), Duration: "1"})
		if i > 0 {
			s.Relationships = append(s.Relationships, schedule.Relationship{ID: "R" + strconv.Itoa(i), Type: schedule.FS, Predecessor: id(i - 1), Successor: id(i)})
		}
	}
	// The middle deleted: the ends kept, without their links to it.
	after := s.Clone()
	after.Activities = append(after.Activities[:10:10], after.Activities[n-10:]...)
	after.Relationships = append(after.Relationships[:9:9], after.Relationships[n-10:]...)
	rb, err := schedule.Analyze(s)
	if err != nil {
		t.Fatal(err)
	}
	ra, err := schedule.Analyze(after)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	r, err := changerisk.Rate(s, after, rb, ra)
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	cut := reasonOf(r, schedule.RiskLogicCut)
	if cut == nil || len(cut.Chains) != 1 {
		t.Fatalf("logic cut %+v", cut)
	}
	ch := cut.Chains[0]
	if ch.From.ID != "L9" || ch.To.ID != id(n-10) || len(ch.Via) != 8 || ch.Via[0].ID != "L10" || ch.ViaOmitted != n-20-8 {
		t.Errorf("chain %s -> %d via (first %s) + %d more -> %s", ch.From.ID, len(ch.Via), ch.Via[0].ID, ch.ViaOmitted, ch.To.ID)
	}
	if r.Level != schedule.RiskCritical || len(r.DissolveInstead) != 8 {
		t.Errorf("level %s, dissolve %d", r.Level, len(r.DissolveInstead))
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 64<<10 {
		t.Errorf("the rating is %d bytes", len(b))
	}
	if took > 2*time.Second {
		t.Errorf("rating took %v", took)
	}
	t.Logf("rated deleting %d of %d chained activities in %v, %d bytes of JSON", n-20, n, took, len(b))
}
