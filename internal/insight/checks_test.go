package insight

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// checkSchedule builds a schedule from "ID:duration" activities and
// "RID PRED TYPE SUCC LAG" relationships.
func checkSchedule(t *testing.T, acts string, rels ...string) *schedule.Schedule {
	t.Helper()
	s := &schedule.Schedule{}
	for _, f := range strings.Fields(acts) {
		id, d, _ := strings.Cut(f, ":")
		s.Activities = append(s.Activities, schedule.Activity{ID: id, Name: "Task " + id, Duration: d})
	}
	for _, r := range rels {
		f := strings.Fields(r)
		if len(f) != 5 {
			t.Fatalf("relationship %q: want RID PRED TYPE SUCC LAG", r)
		}
		lag, err := strconv.ParseFloat(f[4], 64)
		if err != nil {
			t.Fatal(err)
		}
		s.Relationships = append(s.Relationships, schedule.Relationship{ID: f[0], Predecessor: f[1], Type: schedule.RelType(f[2]), Successor: f[3], Lag: lag})
	}
	return s
}

func runChecks(t *testing.T, s *schedule.Schedule, th Thresholds) []CheckResult {
	t.Helper()
	v, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	res, err := RunChecks(v, th)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// want is one check's expected outcome; nil offenders means none.
type want struct {
	passed    bool
	offenders []string
}

func pass(offenders ...string) want { return want{true, offenders} }
func fail(offenders ...string) want { return want{false, offenders} }

// expect compares the checks named in w (others are not looked at).
func expect(t *testing.T, res []CheckResult, w map[string]want) {
	t.Helper()
	seen := map[string]bool{}
	for _, r := range res {
		e, ok := w[r.ID]
		if !ok {
			continue
		}
		seen[r.ID] = true
		if e.offenders == nil {
			e.offenders = []string{}
		}
		if r.Passed != e.passed || r.Count != len(e.offenders) || !slices.Equal(r.Offenders, e.offenders) {
			t.Errorf("%s: passed %v, count %d, offenders %v (threshold %s; %s); want passed %v, offenders %v",
				r.ID, r.Passed, r.Count, r.Offenders, r.Threshold, r.Detail, e.passed, e.offenders)
		}
	}
	for id := range w {
		if !seen[id] {
			t.Errorf("no %s check in the results", id)
		}
	}
}

func TestCheckHandBuilt(t *testing.T) {
	with := func(change func(*Thresholds)) Thresholds {
		th := DefaultThresholds()
		if change != nil {
			change(&th)
		}
		return th
	}
	cases := []struct {
		name string
		acts string
		rels []string
		th   func(*Thresholds)
		want map[string]want
	}{
		// S 0-0, A 0-5, B 5-8, D 5-7, C 0-2 (no links), F 8-8; T = 8.
		// Without a predecessor: S and C; two, so the start is the first
		// milestone of them, S. Without a successor: C, D and F; the finish
		// is the last milestone of them finishing at 8, F. Offenders: C
		// (neither predecessor nor successor: counted once) and D (no
		// successor): 2 of 6 activities; 5% of 6 is 0.3, so 0 are allowed.
		{
			name: "missing logic: open ends besides the project start and finish",
			acts: "S:0 A:5 B:3 C:2 D:2 F:0",
			rels: []string{"R1 S FS A 0", "R2 A FS B 0", "R3 B FS F 0", "R4 A FS D 0"},
			want: map[string]want{CheckMissingLogic: fail("C", "D")},
		},
		// The same with 34%: 34% of 6 is 2.04, so 2 are allowed.
		{
			name: "missing logic: a looser threshold",
			acts: "S:0 A:5 B:3 C:2 D:2 F:0",
			rels: []string{"R1 S FS A 0", "R2 A FS B 0", "R3 B FS F 0", "R4 A FS D 0"},
			th:   func(th *Thresholds) { th.MissingLogicPct = 34 },
			want: map[string]want{CheckMissingLogic: pass("C", "D")},
		},
		// A and B lack a predecessor and neither is a milestone, so no
		// project start is recognised and both count; C is the only
		// activity without a successor and finishes at T = 6: the finish.
		{
			name: "missing logic: two task starts are both open",
			acts: "A:5 B:2 C:1",
			rels: []string{"R1 A FS C 0", "R2 B FS C 0"},
			want: map[string]want{CheckMissingLogic: fail("A", "B")},
		},
		// A chain's ends are the project start and finish.
		{
			name: "missing logic: a chain has none",
			acts: "A:5 B:3",
			rels: []string{"R1 A FS B 0"},
			want: map[string]want{CheckMissingLogic: pass(), CheckDanglingStarts: pass(), CheckDanglingFinishes: pass()},
		},
		// A 0-5; B hangs off A's start by SF: EF_B >= ES_A = 0, so B 0-2.
		// T = 5. B is the only activity without a successor but finishes
		// at 2, before the project finish: it is no project finish, so it
		// counts as missing a successor, and its start (only an SF link
		// into it) dangles. A is the project start: its finish drives
		// nothing, but the project start is left out of dangling.
		{
			name: "missing logic: an open end finishing early is no project finish",
			acts: "A:5 B:2",
			rels: []string{"R1 A SF B 0"},
			want: map[string]want{CheckMissingLogic: fail("B"), CheckDanglingStarts: fail("B"), CheckDanglingFinishes: pass()},
		},
		// Leads: R2 (lag -1), 1 > 0 allowed. Lags: R3 (+2) and R5 (+3), 2 of
		// 5 = 40%, 5% of 5 is 0.25: 0 allowed. Types: R3 (SS) and R4 (FF)
		// are not FS: 2 of 5, FS is 60% < 90% (10% of 5 is 0.5: 0 allowed).
		{
			name: "leads, lags, relationship types",
			acts: "A:2 B:2 C:2 D:2 E:2",
			rels: []string{"R1 A FS B 0", "R2 B FS C -1", "R3 A SS D 2", "R4 D FF C 0", "R5 C FS E 3"},
			want: map[string]want{
				CheckLeads: fail("R2"), CheckLags: fail("R3", "R5"), CheckRelationshipTypes: fail("R3", "R4"),
			},
		},
		// Thresholds are inclusive: 1 lead allowed; 40% of 5 = 2 lags
		// allowed; FS >= 60% allows 40% of 5 = 2 others.
		{
			name: "leads, lags, relationship types at their thresholds",
			acts: "A:2 B:2 C:2 D:2 E:2",
			rels: []string{"R1 A FS B 0", "R2 B FS C -1", "R3 A SS D 2", "R4 D FF C 0", "R5 C FS E 3"},
			th:   func(th *Thresholds) { th.MaxLeads, th.LagsPct, th.MinFSPct = 1, 40, 60 },
			want: map[string]want{
				CheckLeads: pass("R2"), CheckLags: pass("R3", "R5"), CheckRelationshipTypes: pass("R3", "R4"),
			},
		},
		// Four parallel tasks between milestones S and F, all FS+0: T = 50
		// (A). Total floats: A 0, B 50-5 = 45, C 50-6 = 44, D 50-44 = 6.
		// High float (> 44): B only, C is at the limit. High duration
		// (> 44): A (50); D (44) is at the limit. 1 of 6 each, 0 allowed.
		// Negative float: none (never, without constraints).
		{
			name: "high float, high duration, negative float",
			acts: "S:0 A:50 B:5 C:6 D:44 F:0",
			rels: []string{"R1 S FS A 0", "R2 A FS F 0", "R3 S FS B 0", "R4 B FS F 0",
				"R5 S FS C 0", "R6 C FS F 0", "R7 S FS D 0", "R8 D FS F 0"},
			want: map[string]want{CheckHighFloat: fail("B"), CheckHighDuration: fail("A"), CheckNegativeFloat: pass()},
		},
		// 20% of 6 is 1.2: one allowed.
		{
			name: "high float and duration within a looser share",
			acts: "S:0 A:50 B:5 C:6 D:44 F:0",
			rels: []string{"R1 S FS A 0", "R2 A FS F 0", "R3 S FS B 0", "R4 B FS F 0",
				"R5 S FS C 0", "R6 C FS F 0", "R7 S FS D 0", "R8 D FS F 0"},
			th:   func(th *Thresholds) { th.HighFloatPct, th.HighDurationPct = 20, 20 },
			want: map[string]want{CheckHighFloat: pass("B"), CheckHighDuration: pass("A")},
		},
		// Raising the day limits: B's 45 is not over 45, A's 50 not over 50.
		{
			name: "high float and duration with higher day limits",
			acts: "S:0 A:50 B:5 C:6 D:44 F:0",
			rels: []string{"R1 S FS A 0", "R2 A FS F 0", "R3 S FS B 0", "R4 B FS F 0",
				"R5 S FS C 0", "R6 C FS F 0", "R7 S FS D 0", "R8 D FS F 0"},
			th:   func(th *Thresholds) { th.HighFloatDays, th.HighDurationDays = 45, 50 },
			want: map[string]want{CheckHighFloat: pass(), CheckHighDuration: pass()},
		},
		// Critical path M -> A -> B; M is a milestone, so A is tested:
		// 15 days instead of 5 moves B to 15-18, T from 8 to 18: by 10.
		{
			name: "critical path test passes, the milestone skipped",
			acts: "M:0 A:5 B:3",
			rels: []string{"R1 M FS A 0", "R2 A FS B 0"},
			want: map[string]want{CheckCriticalPathTest: pass()},
		},
		// A 0-5, B SS+1 from A: 1-11, T = 11. A's late finish is
		// min(11, LS_B - 1 + 5 = 5) = 5: critical, and the driving path is
		// A -> B. A made 15 days long finishes at 15 while B still ends at
		// 11: T moves 4 days, not 10. The path runs through A's start
		// only, and A's finish dangles (but A is the project start, which
		// dangling leaves out).
		{
			name: "critical path test fails when the path runs through a start",
			acts: "A:5 B:10",
			rels: []string{"R1 A SS B 1"},
			want: map[string]want{CheckCriticalPathTest: fail("A"), CheckDanglingFinishes: pass()},
		},
		{
			name: "an empty schedule passes everything",
			want: map[string]want{
				CheckMissingLogic: pass(), CheckLeads: pass(), CheckLags: pass(), CheckRelationshipTypes: pass(),
				CheckHighFloat: pass(), CheckNegativeFloat: pass(), CheckHighDuration: pass(), CheckCriticalPathTest: pass(),
				CheckRedundantLinks: pass(), CheckDanglingStarts: pass(), CheckDanglingFinishes: pass(),
			},
		},
		// Redundant links. A:2 B:3 C:1 in each; a chain is two or more FS
		// links with lags >= 0 whose lags sum to at least the link's lag.
		{
			name: "redundant: the triangle's shortcut",
			acts: "A:2 B:3 C:1",
			rels: []string{"R1 A FS B 0", "R2 B FS C 0", "R3 A FS C 0"},
			want: map[string]want{CheckRedundantLinks: fail("R3")},
		},
		// Chain lags 2 + 1 = 3 >= 3.
		{
			name: "redundant: the chain's lags cover the link's",
			acts: "A:2 B:3 C:1",
			rels: []string{"R1 A FS B 2", "R2 B FS C 1", "R3 A FS C 3"},
			want: map[string]want{CheckRedundantLinks: fail("R3")},
		},
		// Chain lags 3 < 4. With B's 3 days the chain holds C 6 days after
		// A finishes, more than 4, but durations change: not flagged.
		{
			name: "redundant: not when only durations cover the lag",
			acts: "A:2 B:3 C:1",
			rels: []string{"R1 A FS B 2", "R2 B FS C 1", "R3 A FS C 4"},
			want: map[string]want{CheckRedundantLinks: pass()},
		},
		// A lead on the shortcut: the chain's 0 >= -1.
		{
			name: "redundant: a shortcut with a lead",
			acts: "A:2 B:3 C:1",
			rels: []string{"R1 A FS B 0", "R2 B FS C 0", "R3 A FS C -1"},
			want: map[string]want{CheckRedundantLinks: fail("R3")},
		},
		// A lead in the chain: the chain is not counted, nothing flagged
		// (the leads check reports R2).
		{
			name: "redundant: not through a lead",
			acts: "A:2 B:3 C:1",
			rels: []string{"R1 A FS B 0", "R2 B FS C -1", "R3 A FS C 0"},
			want: map[string]want{CheckRedundantLinks: pass(), CheckLeads: fail("R2")},
		},
		{
			name: "redundant: not through an SS link",
			acts: "A:2 B:3 C:1",
			rels: []string{"R1 A SS B 0", "R2 B FS C 0", "R3 A FS C 0"},
			want: map[string]want{CheckRedundantLinks: pass()},
		},
		{
			name: "redundant: an SS shortcut is never flagged",
			acts: "A:2 B:3 C:1",
			rels: []string{"R1 A FS B 0", "R2 B FS C 0", "R3 A SS C 0"},
			want: map[string]want{CheckRedundantLinks: pass()},
		},
		{
			name: "redundant: a diamond needs every link",
			acts: "A:1 B:1 C:1 D:1",
			rels: []string{"R1 A FS B 0", "R2 A FS C 0", "R3 B FS D 0", "R4 C FS D 0"},
			want: map[string]want{CheckRedundantLinks: pass()},
		},
		// A -> B -> C -> D with shortcuts A->D (via B, C), B->D (via C) and
		// A->C (via B): all three flagged, the chain's links not.
		{
			name: "redundant: every shortcut of a chain",
			acts: "A:1 B:1 C:1 D:1",
			rels: []string{"R1 A FS B 0", "R2 B FS C 0", "R3 C FS D 0", "R4 A FS D 0", "R5 B FS D 0", "R6 A FS C 0"},
			want: map[string]want{CheckRedundantLinks: fail("R4", "R5", "R6")},
		},
		// S 0, A 0-5, B FF from A: 2-5, C 0-4, D SS from C: 0-2, E SF from
		// A: EF_E >= 0, so 0-2, G 0-3, H (milestone) FF from A: 5-5, F:
		// max(B 5, D 2, E 2, H's SS 5) = 5; T = 5, S the start, F the
		// finish. Starts reached only by FF/SF: B (FF), E (SF); H is a
		// milestone. Finishes driving only SS/SF: C (SS), G (SF); A drives
		// B and H by FF, so its finish does not dangle. 2 of 9 each, 0
		// allowed at 5% (0.45).
		{
			name: "dangling starts and finishes",
			acts: "S:0 A:5 B:3 C:4 D:2 E:2 G:3 H:0 F:0",
			rels: []string{"R1 S FS A 0", "R2 A FF B 0", "R3 B FS F 0", "R4 S FS C 0", "R5 C SS D 0", "R6 D FS F 0",
				"R7 A SF E 0", "R8 E FS F 0", "R9 S FS G 0", "R10 G SF F 0", "R11 A FF H 0", "R12 H SS F 0"},
			want: map[string]want{CheckDanglingStarts: fail("B", "E"), CheckDanglingFinishes: fail("C", "G"), CheckMissingLogic: pass()},
		},
		// 25% of 9 is 2.25: two allowed.
		{
			name: "dangling within a looser share",
			acts: "S:0 A:5 B:3 C:4 D:2 E:2 G:3 H:0 F:0",
			rels: []string{"R1 S FS A 0", "R2 A FF B 0", "R3 B FS F 0", "R4 S FS C 0", "R5 C SS D 0", "R6 D FS F 0",
				"R7 A SF E 0", "R8 E FS F 0", "R9 S FS G 0", "R10 G SF F 0", "R11 A FF H 0", "R12 H SS F 0"},
			th:   func(th *Thresholds) { th.MaxDanglingPct = 25 },
			want: map[string]want{CheckDanglingStarts: pass("B", "E"), CheckDanglingFinishes: pass("C", "G")},
		},
		// A 0-5, B FF: 2-5, T = 5: B is the project finish and its start
		// dangles, but the project ends are left out.
		{
			name: "dangling: the project finish is left out",
			acts: "A:5 B:3",
			rels: []string{"R1 A FF B 0"},
			want: map[string]want{CheckDanglingStarts: pass(), CheckMissingLogic: pass()},
		},
		// A 0-3, B SS: 0-5, T = 5: A is the project start and its finish
		// dangles: left out.
		{
			name: "dangling: the project start is left out",
			acts: "A:3 B:5",
			rels: []string{"R1 A SS B 0"},
			want: map[string]want{CheckDanglingFinishes: pass(), CheckMissingLogic: pass()},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			expect(t, runChecks(t, checkSchedule(t, c.acts, c.rels...), with(c.th)), c.want)
		})
	}
}

func TestCheckCriticalPathTestDetail(t *testing.T) {
	for _, c := range []struct {
		acts, rel, threshold, detail string
	}{
		{"M:0 A:5 B:3", "R2 A FS B 0", "finish moves 10 days when A takes 10 days longer",
			"A made 10 days longer: the finish moved 10 days (8 to 18)"},
		{"A:5 B:10", "R1 A SS B 1", "finish moves 10 days when A takes 10 days longer",
			"A made 10 days longer: the finish moved 4 days (11 to 15)"},
	} {
		rels := []string{c.rel}
		if strings.HasPrefix(c.acts, "M") {
			rels = append(rels, "R1 M FS A 0")
		}
		for _, r := range runChecks(t, checkSchedule(t, c.acts, rels...), DefaultThresholds()) {
			if r.ID == CheckCriticalPathTest && (r.Threshold != c.threshold || r.Detail != c.detail) {
				t.Errorf("%s: threshold %q, detail %q; want %q, %q", c.acts, r.Threshold, r.Detail, c.threshold, c.detail)
			}
		}
	}
	empty := runChecks(t, &schedule.Schedule{}, DefaultThresholds())
	if r := empty[7]; r.ID != CheckCriticalPathTest || r.Threshold != "no critical path to test" {
		t.Errorf("empty schedule: %+v", r)
	}
}

// TestCheckBuilding: examples/building.json, 147 activities and 262
// relationships, T = 167. The numbers were read off the file and
// recounted by testdata/checks/recount.py, which has its own CPM passes
// and enumerates every chain for redundant links.
func TestCheckBuilding(t *testing.T) {
	s, err := interchange.ReadFile("../../examples/building.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Activities) != 147 || len(s.Relationships) != 262 {
		t.Fatalf("%d activities, %d relationships", len(s.Activities), len(s.Relationships))
	}
	v, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	// A001 "Notice to proceed" (0 days) is the only activity without a
	// predecessor, A147 "Handover" (0 days, finishing at 167) the only one
	// without a successor.
	if start, finish := ProjectEnds(v); start != "A001" || finish != "A147" {
		t.Errorf("project ends %s, %s; want A001, A147", start, finish)
	}
	res := runChecks(t, s, DefaultThresholds())
	expect(t, res, map[string]want{
		// Every activity but A001 and A147 has both.
		CheckMissingLogic: pass(),
		// Lags in the file: -2 nine times (the FS-2 overlaps: piling ->
		// tower crane, windows -> waterproofing and drywall taping ->
		// joinery on each of four levels) and -1 once (R253, final
		// cleaning -> final inspection).
		CheckLeads: fail("R017", "R059", "R076", "R100", "R118", "R143", "R161", "R186", "R204", "R253"),
		// No negative float without constraints.
		CheckNegativeFloat: pass(),
		// The longest duration is 12 (pert(10,12,18)'s mode).
		CheckHighDuration: pass(),
		// A001 is a milestone, so A002 "Mobilisation" (5 days, FS+0 after
		// A001 and first on the critical path) is tested: 167 -> 177.
		CheckCriticalPathTest: pass(),
		// A133 "Electrical testing" -> A141 "Snagging inspection" (R241)
		// is also A133 -> A137 "Fire alarm test" (R234) -> A141 (R245),
		// all FS+0; likewise A136 "Fire sprinkler testing" -> A141 (R244)
		// through R235 and R245. 2 > 0 allowed.
		CheckRedundantLinks: fail("R241", "R244"),
		// No activity with predecessors lacks an FS or SS one.
		CheckDanglingStarts: pass(),
		// "Drywall framing" on each level drives only "Drywall board" by
		// SS+3: 4 of 147 = 2.7%, within 5% (7 allowed).
		CheckDanglingFinishes: pass("A029", "A054", "A079", "A104"),
		// Total float over 44: A023 82, A036 53, A037 47, A038 47, A048
		// 66.5, A073 51, A125 78, A126 78, A127 95, A128 83, A129 99 —
		// 11 of 147 = 7.5% > 5% (7 allowed).
		CheckHighFloat: fail("A023", "A036", "A037", "A038", "A048", "A073", "A125", "A126", "A127", "A128", "A129"),
	})
	counts := map[string]int{}
	for _, r := range res {
		counts[r.ID] = r.Count
		switch r.ID {
		case CheckLags:
			// Positive lags: +2 x39, +3 x25, +1 x23, +5 x10, +4 x5, +7 x4 =
			// 106 of 262 = 40.5%; 5% of 262 is 13.1, so 13 are allowed.
			if r.Passed || r.Count != 106 || r.Threshold != "<= 5% of relationships (13 of 262)" {
				t.Errorf("lags: %+v", r)
			}
		case CheckRelationshipTypes:
			// FS 172, SS 58, FF 29, SF 3: 90 not FS, FS is 65.6% < 90%.
			if r.Passed || r.Count != 90 || r.Threshold != "FS >= 90%: non-FS <= 10% of relationships (26 of 262)" {
				t.Errorf("relationship types: %+v", r)
			}
		case CheckCriticalPathTest:
			if r.Detail != "A002 made 10 days longer: the finish moved 10 days (167 to 177)" {
				t.Errorf("critical path test: %q", r.Detail)
			}
		}
	}
	if n := Failed(res); n != 5 {
		t.Errorf("%d checks failed, want 5 (leads, lags, relationship_types, high_float, redundant_links): %v", n, counts)
	}
}

// TestCheckRedundantRemovalKeepsDates: removing every flagged link at
// once changes no date, on building.json and on a chain with shortcuts.
func TestCheckRedundantRemovalKeepsDates(t *testing.T) {
	building, err := interchange.ReadFile("../../examples/building.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*schedule.Schedule{
		building,
		checkSchedule(t, "A:1 B:2 C:3 D:1", "R1 A FS B 1", "R2 B FS C 0", "R3 C FS D 2", "R4 A FS D 3", "R5 B FS D 1", "R6 A FS C -1"),
	} {
		v, err := New(s)
		if err != nil {
			t.Fatal(err)
		}
		redundant := newChecker(v).redundant()
		if len(redundant) == 0 {
			t.Fatalf("%s: nothing flagged", s.Name)
		}
		trimmed := s.Clone()
		trimmed.Relationships = slices.DeleteFunc(trimmed.Relationships, func(r schedule.Relationship) bool {
			return slices.Contains(redundant, r.ID)
		})
		after, err := schedule.Analyze(trimmed)
		if err != nil {
			t.Fatal(err)
		}
		for i := range after.ES {
			if after.ES[i] != v.R.ES[i] || after.LS[i] != v.R.LS[i] {
				t.Errorf("%s: without %v, %s moved: ES %g -> %g, LS %g -> %g", s.Name, redundant, after.Net.ID(i), v.R.ES[i], after.ES[i], v.R.LS[i], after.LS[i])
			}
		}
	}
}

// TestCheckMSPDI: the MPXJ test files (../shared/data/README.md), worked
// by hand.
func TestCheckMSPDI(t *testing.T) {
	load := func(name string) *schedule.Schedule {
		s, err := interchange.ReadFile("../../../shared/data/mspdi/" + name)
		if err != nil {
			t.Skipf("reference data: %v", err)
		}
		return s
	}
	t.Run("task-links", func(t *testing.T) {
		// Eight pairs of 1-day tasks (UIDs 1-16), one link each: 1-FS-2,
		// 3-FS+1-4, 5-FS+2-6, 7-FS+5-8 (1w), 9-FS+10-10 (2w), 11-SF+2-12,
		// 13-SS+2-14, 15-FF+2-16. T = 12 (9 0-1, 10 11-12).
		s := load("task-links-project2007-mspdi.xml")
		res := runChecks(t, s, DefaultThresholds())
		expect(t, res, map[string]want{
			// Eight tasks lack a predecessor and eight a successor, none a
			// milestone: no project start or finish, all 16 count.
			CheckMissingLogic: fail("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16"),
			CheckLeads:        pass(),
			// Every link but the first has a lag: 7 of 8.
			CheckLags: fail("3-FS-4", "5-FS-6", "7-FS-8", "9-FS-10", "11-SF-12", "13-SS-14", "15-FF-16"),
			// 5 FS of 8 = 62.5%.
			CheckRelationshipTypes: fail("11-SF-12", "13-SS-14", "15-FF-16"),
			// The largest total float is 10 days (tasks 1, 2, 11, 12).
			CheckHighFloat:     pass(),
			CheckNegativeFloat: pass(),
			CheckHighDuration:  pass(),
			// Task 9 (first on the critical path 9 -> 10) made 11 days:
			// task 10 starts at 11 + 10 = 21 and T = 22, 10 later.
			CheckCriticalPathTest: pass(),
			CheckRedundantLinks:   pass(),
			// 12's only predecessor is SF, 16's FF: 2 of 16 = 12.5% > 5%.
			CheckDanglingStarts: fail("12", "16"),
			// 11's only successor is SF, 13's SS.
			CheckDanglingFinishes: fail("11", "13"),
		})
	})
	t.Run("relations", func(t *testing.T) {
		// Five 1-day tasks: 1-FS-2, 2-SS+1d-3, 3-FF-4, 4-SF-5. CPM: 1 0-1,
		// 2 1-2, 3 2-3 (SS+1 from 2), 4 2-3 (FF: EF_4 >= 3), 5 1-2 (SF:
		// EF_5 >= ES_4 = 2); T = 3.
		s := load("mspdirelations.xml")
		v, err := New(s)
		if err != nil {
			t.Fatal(err)
		}
		// 1 is the only task without a predecessor: the start. 5 is the
		// only one without a successor but finishes at 2, before T = 3:
		// no project finish.
		if start, finish := ProjectEnds(v); start != "1" || finish != "" {
			t.Errorf("project ends %q, %q; want 1 and none", start, finish)
		}
		res := runChecks(t, s, DefaultThresholds())
		expect(t, res, map[string]want{
			CheckMissingLogic: fail("5"),
			CheckLeads:        pass(),
			CheckLags:         fail("2-SS-3"),
			// 1 FS of 4 = 25%.
			CheckRelationshipTypes: fail("2-SS-3", "3-FF-4", "4-SF-5"),
			CheckHighFloat:         pass(),
			CheckNegativeFloat:     pass(),
			CheckHighDuration:      pass(),
			// The critical path is 1 -> 2 -> 3 -> 4. Task 1 made 11 days:
			// 2 11-12, 3 12-13, 4 12-13, T = 13, 10 later.
			CheckCriticalPathTest: pass(),
			CheckRedundantLinks:   pass(),
			// 4 is reached only by FF, 5 only by SF.
			CheckDanglingStarts: fail("4", "5"),
			// 2 drives only by SS, 4 only by SF.
			CheckDanglingFinishes: fail("2", "4"),
		})
	})
}

func TestCheckWorse(t *testing.T) {
	r := func(id string, passed bool, offenders ...string) CheckResult {
		if offenders == nil {
			offenders = []string{}
		}
		return CheckResult{ID: id, Passed: passed, Count: len(offenders), Offenders: offenders}
	}
	ids := func(rs []CheckResult) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return out
	}
	before := []CheckResult{
		r("a", true), r("b", false, "X", "Y"), r("c", true), r("d", false, "X", "Y"), r("e", true, "X"),
	}
	for _, c := range []struct {
		name  string
		after []CheckResult
		want  []string
	}{
		{"nothing changed", before, nil},
		{"passed to failed", []CheckResult{r("a", false, "X"), r("b", false, "X", "Y"), r("c", true), r("d", false, "X", "Y"), r("e", true, "X")}, []string{"a"}},
		{"more offenders, still failing", []CheckResult{r("a", true), r("b", false, "X", "Y", "Z"), r("c", true), r("d", false, "X", "Y"), r("e", true, "X")}, []string{"b"}},
		{"more offenders, still passing", []CheckResult{r("a", true), r("b", false, "X", "Y"), r("c", true), r("d", false, "X", "Y"), r("e", true, "X", "Z")}, []string{"e"}},
		{"fewer offenders and failed to passed are better", []CheckResult{r("a", true), r("b", false, "X"), r("c", true), r("d", true), r("e", true)}, nil},
		{"other offenders, as many", []CheckResult{r("a", true), r("b", false, "Y", "Z"), r("c", true), r("d", false, "X", "Y"), r("e", true, "X")}, nil},
		{"a new check failing is worse, passing is not", []CheckResult{r("a", true), r("f", false, "X"), r("g", true, "X")}, []string{"f"}},
	} {
		if got := ids(Worse(before, c.after)); !slices.Equal(got, c.want) {
			t.Errorf("%s: worse %v, want %v", c.name, got, c.want)
		}
	}
	if got := NewOffenders(r("b", false, "X", "Y"), r("b", false, "Z", "Y", "W")); !slices.Equal(got, []string{"Z", "W"}) {
		t.Errorf("new offenders %v", got)
	}

	// A change on building.json. Removing R245 (A137 "Fire alarm test" ->
	// A141 "Snagging inspection"; A137 keeps its link to A145) breaks the
	// chains that made R241 and R244 redundant: no redundant link is left,
	// which is better. A new link A002 -> A147 FS-5 is a lead: worse. It
	// is not redundant itself: from A002 FS links with lags >= 0 reach only
	// two activities (its other links are SS).
	s, err := interchange.ReadFile("../../examples/building.json")
	if err != nil {
		t.Fatal(err)
	}
	b := runChecks(t, s, DefaultThresholds())
	changed := s.Clone()
	changed.Relationships = slices.DeleteFunc(changed.Relationships, func(r schedule.Relationship) bool { return r.ID == "R245" })
	changed.Relationships = append(changed.Relationships, schedule.Relationship{ID: "RX", Type: schedule.FS, Predecessor: "A002", Successor: "A147", Lag: -5})
	a := runChecks(t, changed, DefaultThresholds())
	worse := Worse(b, a)
	if got := ids(worse); !slices.Equal(got, []string{CheckLeads}) {
		t.Fatalf("worse %v, want [leads]", got)
	}
	if got := NewOffenders(b[1], worse[0]); !slices.Equal(got, []string{"RX"}) {
		t.Errorf("new leads %v", got)
	}
	if a[8].ID != CheckRedundantLinks || a[8].Count != 0 {
		t.Errorf("without R245: %+v", a[8])
	}
}

func TestCheckThresholdsValidate(t *testing.T) {
	if err := DefaultThresholds().Validate(); err != nil {
		t.Fatal(err)
	}
	for name, change := range map[string]func(*Thresholds){
		"negative percentage":   func(th *Thresholds) { th.LagsPct = -1 },
		"percentage over 100":   func(th *Thresholds) { th.MinFSPct = 101 },
		"negative days":         func(th *Thresholds) { th.HighFloatDays = -1 },
		"zero delay":            func(th *Thresholds) { th.CriticalPathDelay = 0 },
		"delay beyond MaxDays":  func(th *Thresholds) { th.CriticalPathDelay = schedule.MaxDays + 1 },
		"negative count":        func(th *Thresholds) { th.MaxLeads = -1 },
		"no resources over 100": func(th *Thresholds) { th.NoResourcesPct = 101 },
		"negative missed":       func(th *Thresholds) { th.MissedPct = -5 },
		"negative CPLI":         func(th *Thresholds) { th.MinCPLI = -0.95 },
		"BEI not a number":      func(th *Thresholds) { th.MinBEI = math.NaN() },
	} {
		th := DefaultThresholds()
		change(&th)
		if err := th.Validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
		v, _ := New(&schedule.Schedule{})
		if _, err := RunChecks(v, th); err == nil {
			t.Errorf("%s: RunChecks accepted", name)
		}
	}
}

// TestCheckJSON: the --json shape, offenders [] when none, a link named by
// its ends.
func TestCheckJSON(t *testing.T) {
	res := runChecks(t, checkSchedule(t, "A:5 B:3", "R1 A FS B 2"), DefaultThresholds())
	data, err := json.Marshal(res[:3])
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"id":"missing_logic","name":"Missing logic: activities without a predecessor or a successor, the project start and finish excused (DCMA 1)","passed":true,"count":0,"threshold":"\u003c= 5% of activities (0 of 2)","offenders":[],"offender_names":[]},` +
		`{"id":"leads","name":"Leads: relationships with a negative lag (DCMA 2)","passed":true,"count":0,"threshold":"\u003c= 0 relationships","offenders":[],"offender_names":[]},` +
		`{"id":"lags","name":"Lags: relationships with a positive lag (DCMA 3)","passed":false,"count":1,"threshold":"\u003c= 5% of relationships (0 of 1)","offenders":["R1"],"offender_names":["Task A -\u003e Task B"]}]`
	if string(data) != want {
		t.Errorf("JSON\n%s\nwant\n%s", data, want)
	}
}

// A live programme is checked for DCMA 5 and 9 as its data allows: hard
// constraints when it has constraints, invalid dates when it has a data
// date; a plain plan gets neither, and both stay listed as not applicable.
func TestLiveProgrammeChecks(t *testing.T) {
	s := &schedule.Schedule{
		Name: "Live", StartDate: "2026-03-02", DataDate: "2026-03-09",
		Options: &schedule.Options{Tool: schedule.P6},
		Activities: []schedule.Activity{
			{ID: "A", Name: "Dig", Duration: "5", ActualStart: "2026-03-02", ActualFinish: "2026-03-06"},
			{ID: "B", Name: "Pour", Duration: "3", ActualStart: "2026-03-11"}, // after the data date
			{ID: "C", Name: "Cure", Duration: "3", Constraint: &schedule.Constraint{Type: schedule.StartOnOrAfter, Date: "2026-03-16"}},
			{ID: "M", Name: "Handover", Duration: "0", Constraint: &schedule.Constraint{Type: schedule.FinishOnOrBefore, Date: "2026-03-31"}},
		},
		Relationships: []schedule.Relationship{
			{ID: "R1", Type: schedule.FS, Predecessor: "A", Successor: "B"},
			{ID: "R2", Type: schedule.FS, Predecessor: "B", Successor: "C"},
			{ID: "R3", Type: schedule.FS, Predecessor: "C", Successor: "M"},
		},
	}
	v, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	results, err := RunChecks(v, DefaultThresholds())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, r := range results {
		got[r.ID] = r.Offenders
	}
	if !slices.Equal(got[CheckHardConstraints], []string{"M"}) {
		t.Errorf("hard constraints: %v, want [M] (start on or after is soft)", got[CheckHardConstraints])
	}
	if !slices.Equal(got[CheckInvalidDates], []string{"B"}) {
		t.Errorf("invalid dates: %v, want [B]", got[CheckInvalidDates])
	}
	if na := NotApplicableTo(v); slices.ContainsFunc(na, func(p NotApplicablePoint) bool { return p.Point == 5 || p.Point == 9 }) {
		t.Errorf("not applicable still lists 5 or 9: %+v", na)
	}

	plain := s.Clone()
	plain.DataDate, plain.Options = "", nil
	for i := range plain.Activities {
		plain.Activities[i] = schedule.Activity{ID: s.Activities[i].ID, Name: s.Activities[i].Name, Duration: s.Activities[i].Duration}
	}
	pv, err := New(plain)
	if err != nil {
		t.Fatal(err)
	}
	if results, _ := RunChecks(pv, DefaultThresholds()); slices.ContainsFunc(results, func(r CheckResult) bool {
		return r.ID == CheckHardConstraints || r.ID == CheckInvalidDates
	}) || len(NotApplicableTo(pv)) != len(NotApplicable) {
		t.Errorf("a plain plan is checked for the live points")
	}
}

func TestCheckResultLabels(t *testing.T) {
	for _, tc := range []struct {
		ids, names []string
		want       string
	}{
		{[]string{"A1", "R2"}, []string{"Piling", "Piling -> Caps"}, "Piling (A1)|Piling -> Caps (R2)"},
		{[]string{"A1", "A2"}, []string{"", "A2"}, "A1|A2"}, // no name, or the name is the id
		{[]string{"A1", "A2"}, []string{"Piling"}, "Piling (A1)|A2"},
		{nil, nil, ""},
	} {
		if got := strings.Join(CheckResult{Offenders: tc.ids, OffenderNames: tc.names}.Labels(), "|"); got != tc.want {
			t.Errorf("Labels(%v, %v) = %q, want %q", tc.ids, tc.names, got, tc.want)
		}
	}
}
