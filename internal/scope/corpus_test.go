package scope

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// corpusCase is one labelled prompt of testdata/prompts.json: the prompt,
// the person's answers to the planner's questions in order, the reviewer's
// feedback on the first round (the expectation is then the second round's),
// and the expected ops in shorthand, or "ask" (a question, no ops) or
// "refuse" (notes, no ops, no question).
type corpusCase struct {
	Cat      string          `json:"cat"`
	File     string          `json:"file"`
	Prompt   string          `json:"prompt"`
	Answers  []string        `json:"answers"`
	Feedback string          `json:"feedback"`
	Expect   json.RawMessage `json:"expect"`
	Note     string          `json:"note"`
}

// The MSPDI file the corpus also plans against: five tasks linked
// 1-FS->2, 2-SS+1->3, 3-FF->4, 4-SF->5 (see ../shared/data/README.md).
const corpusMSPDI = "../../../shared/data/mspdi/mspdirelations.xml"

// TestPromptCorpus runs the labelled prompts through the rules planner as
// a dispatch does (answers to questions, a feedback round) and counts
// correct, asked or refused instead, and wrong — proposed ops that differ
// from the expected ones. Wrong must be 0 and correct at least 80%.
func TestPromptCorpus(t *testing.T) {
	file := "testdata/prompts.json"
	if f := os.Getenv("AUTOSCHEDULER_CORPUS"); f != "" {
		file = f // another labelled set of the same shape
	}
	mspdi, _, err := interchange.Load(corpusMSPDI)
	if err != nil {
		t.Fatalf("the corpus's MSPDI schedule: %v", err)
	}
	min := 0
	if file == "testdata/prompts.json" {
		min = 150
	}
	runCorpus(t, file, map[string]*schedule.Schedule{"": storetest.Building(t), "mspdi": mspdi}, min, 80)
}

// runCorpus plans each case of a labelled prompt file against the
// schedule its File names ("" is the default) and fails on any wrong
// change, on fewer than minTotal prompts or under minPct correct.
func runCorpus(t *testing.T, file string, schedules map[string]*schedule.Schedule, minTotal int, minPct float64) {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var cases []corpusCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	type tally struct{ total, correct, held, wrong int }
	byCat := map[string]*tally{}
	all := &tally{}
	for _, tc := range cases {
		s, ok := schedules[tc.File]
		if !ok {
			t.Fatalf("%q: no schedule %q", tc.Prompt, tc.File)
		}
		got, round := runCase(t, s, tc)
		want, kind := expectation(t, s, tc.Expect)
		outcome := judge(got, round, want, kind, tc.Note)
		tl := byCat[tc.Cat]
		if tl == nil {
			tl = &tally{}
			byCat[tc.Cat] = tl
		}
		for _, x := range []*tally{tl, all} {
			x.total++
			switch outcome {
			case "correct":
				x.correct++
			case "held":
				x.held++
			default:
				x.wrong++
			}
		}
		if outcome != "correct" {
			msg := fmt.Sprintf("%s [%s] %q answers %q feedback %q:\n  got  %q question %q notes %q\n  want %q %s", outcome, tc.Cat, tc.Prompt, tc.Answers, tc.Feedback, got, round.Question, round.Notes, want, kind)
			if outcome == "wrong" {
				t.Error(msg)
			} else {
				t.Log(msg)
			}
		}
	}
	cats := make([]string, 0, len(byCat))
	for c := range byCat {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	var b strings.Builder
	pct := func(n, d int) float64 { return 100 * float64(n) / float64(d) }
	fmt.Fprintf(&b, "| category | prompts | correct | asked or refused instead | wrong |\n|---|---|---|---|---|\n")
	for _, c := range append(cats, "all") {
		x := byCat[c]
		if c == "all" {
			x = all
		}
		fmt.Fprintf(&b, "| %s | %d | %.0f%% | %.0f%% | %d |\n", c, x.total, pct(x.correct, x.total), pct(x.held, x.total), x.wrong)
	}
	t.Logf("prompt corpus (%d prompts):\n%s", all.total, b.String())
	if out := os.Getenv("AUTOSCHEDULER_CORPUS_TABLE"); out != "" {
		if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
	if all.total < minTotal {
		t.Errorf("the corpus has %d prompts, want at least %d", all.total, minTotal)
	}
	if all.wrong > 0 {
		t.Errorf("%d wrong changes, want 0", all.wrong)
	}
	if pct(all.correct, all.total) < minPct {
		t.Errorf("%.1f%% correct, want at least %g%%", pct(all.correct, all.total), minPct)
	}
}

// runCase plans the case's round (answering questions in order) and, with
// feedback, the round after it; it returns the last round's ops in
// shorthand.
func runCase(t *testing.T, s *schedule.Schedule, tc corpusCase) ([]string, *Round) {
	t.Helper()
	ctx := context.Background()
	answers := tc.Answers
	in := PlanInput{Prompt: tc.Prompt, Round: 1}
	plan := func() *Round {
		for {
			r, err := PlanRound(ctx, Rules{}, s, in)
			if err != nil {
				t.Fatalf("%q: %v", tc.Prompt, err)
			}
			if r.Question == "" || len(answers) == 0 {
				return r
			}
			in.Clarifications = append(in.Clarifications, Clarification{About: r.About, Question: r.Question, Answer: answers[0]})
			answers = answers[1:]
		}
	}
	r := plan()
	if tc.Feedback != "" {
		in = PlanInput{Prompt: tc.Prompt, Round: 2, Feedback: tc.Feedback, Previous: r.Ops}
		r = plan()
	}
	return shorthand(s, r.Ops), r
}

// shorthand writes ops as the corpus does: "del NAME", "dis NAME",
// "add DAYS NAME", "link FS+0 PRED > SUCC", "unlink …", "dur NAME = DAYS",
// "rel PRED > SUCC = SS+3", "rename OLD = NEW", "datadate DATE"; each against the schedule
// as it is when the op applies.
func shorthand(s *schedule.Schedule, ops []schedule.Op) []string {
	cur := s.Clone()
	name := func(id string) string {
		if a, ok := cur.Activity(id); ok {
			return a.Name
		}
		return id
	}
	var out []string
	for _, op := range ops {
		switch op.Kind {
		case schedule.RemoveActivityOp:
			out = append(out, "del "+name(op.ActivityID))
		case schedule.DissolveActivityOp:
			out = append(out, "dis "+name(op.ActivityID))
		case schedule.AddActivityOp:
			out = append(out, fmt.Sprintf("add %s %s", op.Activity.Duration, op.Activity.Name))
		case schedule.AddRelationshipOp:
			r := op.Relationship
			out = append(out, fmt.Sprintf("link %s%+g %s > %s", r.Type, r.Lag, name(r.Predecessor), name(r.Successor)))
		case schedule.RemoveRelationshipOp:
			r, _ := cur.Relationship(op.RelationshipID)
			out = append(out, fmt.Sprintf("unlink %s%+g %s > %s", r.Type, r.Lag, name(r.Predecessor), name(r.Successor)))
		case schedule.UpdateActivityOp:
			old, _ := cur.Activity(op.Activity.ID)
			if old.Name != op.Activity.Name {
				out = append(out, fmt.Sprintf("rename %s = %s", old.Name, op.Activity.Name))
			}
			if old.Duration != op.Activity.Duration {
				out = append(out, fmt.Sprintf("dur %s = %s", old.Name, op.Activity.Duration))
			}
			if con := op.Activity.Constraint; !equalCon(old.Constraint, con) {
				out = append(out, fmt.Sprintf("con %s = %s", old.Name, conText(con)))
			}
			if con := op.Activity.SecondaryConstraint; !equalCon(old.SecondaryConstraint, con) {
				out = append(out, fmt.Sprintf("con2 %s = %s", old.Name, conText(con)))
			}
			if n := op.Activity; old.ActualStart != n.ActualStart || old.ActualFinish != n.ActualFinish || old.PercentComplete != n.PercentComplete || old.Remaining != n.Remaining {
				out = append(out, fmt.Sprintf("prog %s = start %q finish %q pct %g rem %q", old.Name, n.ActualStart, n.ActualFinish, n.PercentComplete, n.Remaining))
			}
		case schedule.UpdateRelationshipOp:
			r := op.Relationship
			out = append(out, fmt.Sprintf("rel %s > %s = %s%+g", name(r.Predecessor), name(r.Successor), r.Type, r.Lag))
		case schedule.SetDataDateOp:
			out = append(out, "datadate "+op.DataDate)
		}
		op := op
		if _, err := schedule.Apply(cur, &op); err != nil {
			out = append(out, "REFUSED "+err.Error())
		}
	}
	return out
}

func equalCon(a, b *schedule.Constraint) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

func conText(c *schedule.Constraint) string {
	if c == nil {
		return "none"
	}
	return c.String()
}

// expectation reads a case's expected ops ("del *Level 4" is every
// activity whose name ends so) or its "ask" / "refuse".
func expectation(t *testing.T, s *schedule.Schedule, raw json.RawMessage) ([]string, string) {
	var kind string
	if json.Unmarshal(raw, &kind) == nil {
		return nil, kind
	}
	var want []string
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatalf("expect %s: %v", raw, err)
	}
	var out []string
	for _, w := range want {
		if suffix, ok := strings.CutPrefix(w, "del *"); ok {
			for _, a := range s.Activities {
				if strings.HasSuffix(a.Name, suffix) {
					out = append(out, "del "+a.Name)
				}
			}
			continue
		}
		out = append(out, w)
	}
	return out, "ops"
}

// judge: correct when the ops (in any order) or the ask/refuse match;
// held when no ops were proposed but ops were expected (asked or refused
// instead: safe, not correct); wrong when ops were proposed that are not
// the expected ones.
func judge(got []string, r *Round, want []string, kind, note string) string {
	if note != "" && !slices.ContainsFunc(r.Notes, func(n string) bool { return strings.Contains(n, note) }) {
		if len(got) > 0 && kind == "ops" && sameSet(got, want) {
			return "held" // right ops, but the note the person needs is missing
		}
	}
	switch kind {
	case "ask":
		if len(got) == 0 && r.Question != "" {
			return "correct"
		}
	case "refuse":
		if len(got) == 0 && r.Question == "" && len(r.Notes) > 0 {
			return "correct"
		}
	default:
		if sameSet(got, want) {
			return "correct"
		}
	}
	if len(got) == 0 {
		return "held"
	}
	return "wrong"
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
