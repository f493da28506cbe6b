package workflows_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// taskPrompt is three requests: the third refers to what the second
// creates, and the prompt sequences it after the second.
const taskPrompt = "delete the level 4 ceilings, add a 2 day fire-stopping after drywall board on each level, " +
	"then make the roofing membrane start after the new level 4 fire-stopping"

// taskCalls are round's calls by task.
func taskCalls(changes []workflows.ChangeRecord, round int) map[string][]string {
	out := map[string][]string{}
	for _, c := range changes {
		if c.Round == round {
			out[c.Op.Task] = append(out[c.Op.Task], c.Call)
		}
	}
	return out
}

func taskStatuses(tasks []workflows.TaskReport) string {
	var out []string
	for _, t := range tasks {
		out = append(out, t.ID+":"+t.Status)
	}
	return strings.Join(out, " ")
}

// TestTaskGraphFeedbackNamesOneTask: a multi-part prompt is planned as
// three tasks in one round; feedback naming task 2 plans task 2 again with
// it and task 3 (which depends on it) afresh, while task 1 keeps its ops.
func TestTaskGraphFeedbackNamesOneTask(t *testing.T) {
	f := newFixture(t)
	var p1, p2 workflows.Proposal
	var reject, accept func() error
	f.env.RegisterDelayedCallback(func() {
		f.query(workflows.ProposalQuery, &p1)
		reject = f.update(workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionReject, Round: 1, Reviewer: "pm", Feedback: "task 2: 3 days, not 2"}, nil)
	}, time.Hour)
	f.env.RegisterDelayedCallback(func() {
		f.query(workflows.ProposalQuery, &p2)
		accept = f.update(workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionAccept, Round: 2, Reviewer: "pm"}, nil)
	}, 2*time.Hour)
	res := f.run(workflows.DispatchInput{Prompt: taskPrompt, Author: "ann"})
	if err := reject(); err != nil {
		t.Fatal(err)
	}
	if err := accept(); err != nil {
		t.Fatal(err)
	}
	if res.Status != workflows.StatusAccepted || res.Rounds != 2 {
		t.Fatalf("result = %+v", res)
	}

	if got := taskStatuses(p1.Tasks); got != "1:planned 2:planned 3:planned" {
		t.Errorf("round 1 tasks = %s", got)
	}
	if len(p1.Tasks) == 3 && !slices.Equal(p1.Tasks[2].DependsOn, []string{"2"}) {
		t.Errorf("task 3 depends on %v, want [2]", p1.Tasks[2].DependsOn)
	}
	if got := taskStatuses(p2.Tasks); got != "1:kept 2:planned 3:planned" {
		t.Errorf("round 2 tasks = %s", got)
	}
	if len(p2.Tasks) == 3 && (p2.Tasks[1].Feedback != "3 days, not 2" || p2.Tasks[2].Feedback != "") {
		t.Errorf("round 2 feedback: task 2 %q, task 3 %q", p2.Tasks[1].Feedback, p2.Tasks[2].Feedback)
	}
	r1, r2 := taskCalls(res.Changes, 1), taskCalls(res.Changes, 2)
	if len(r1["1"]) != 1 || !slices.Equal(r1["1"], r2["1"]) {
		t.Errorf("task 1: round 1 %v, round 2 %v: want the same one deletion", r1["1"], r2["1"])
	}
	if len(r1["2"]) != 8 || len(r2["2"]) != 8 {
		t.Errorf("task 2: %d and %d calls, want 8 (4 activities, 4 links)", len(r1["2"]), len(r2["2"]))
	}
	if got := strings.Join(r2["3"], ";"); !strings.Contains(got, `predecessor="Fire-stopping Level 4", successor="Roofing membrane"`) {
		t.Errorf("task 3 in round 2: %s", got)
	}

	s := f.load()
	if f.hasName("Suspended ceilings Level 4") {
		t.Error("Suspended ceilings Level 4 is still there")
	}
	var fire4 string
	for _, a := range s.Activities {
		if strings.HasPrefix(a.Name, "Fire-stopping Level ") {
			if a.Duration != "3" {
				t.Errorf("%s lasts %s, want 3", a.Name, a.Duration)
			}
			if a.Name == "Fire-stopping Level 4" {
				fire4 = a.ID
			}
		}
	}
	if fire4 == "" {
		t.Fatal("Fire-stopping Level 4 is not in the schedule")
	}
	if !slices.ContainsFunc(s.Relationships, func(r schedule.Relationship) bool {
		return r.Predecessor == fire4 && strings.Contains(nameOf(s, r.Successor), "Roofing membrane")
	}) {
		t.Error("no link from Fire-stopping Level 4 to Roofing membrane")
	}
}

func nameOf(s *schedule.Schedule, id string) string {
	a, _ := s.Activity(id)
	return a.Name
}

// failingPlanner fails the additions steps whose prompt contains word.
type failingPlanner struct {
	scope.Rules
	word string
}

func (p failingPlanner) fail(in scope.PlanInput) error {
	if strings.Contains(strings.ToLower(in.Prompt), p.word) {
		return temporal.NewNonRetryableApplicationError("the planner cannot plan "+p.word, "PlannerDown", errors.New("down"))
	}
	return nil
}

func (p failingPlanner) PlanAdditions(ctx context.Context, snap scope.Snapshot, in scope.PlanInput) (scope.Plan, error) {
	if err := p.fail(in); err != nil {
		return scope.Plan{}, err
	}
	return p.Rules.PlanAdditions(ctx, snap, in)
}

// TestTaskGraphFailedTaskBlocksItsDependents: a task whose planning fails
// leaves nothing behind; the task that depends on it is blocked; the
// independent task is proposed and can be accepted alone.
func TestTaskGraphFailedTaskBlocksItsDependents(t *testing.T) {
	// Task 2 re-sequences: its removals step takes out the link from the
	// level 3 ceilings (applied), then its additions step fails, so the
	// removal must be compensated with the task.
	const prompt = "delete the level 4 ceilings; make painting on level 3 follow drywall taping level 3 instead of suspended ceilings level 3, " +
		"then shorten painting level 3 by 1 day"
	f := newFixtureWith(t, failingPlanner{word: "instead of"})
	before := f.load()
	var p1 workflows.Proposal
	var accept func() error
	f.env.RegisterDelayedCallback(func() {
		f.query(workflows.ProposalQuery, &p1)
		accept = f.update(workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionAccept, Round: 1, Reviewer: "pm"}, nil)
	}, time.Hour)
	res := f.run(workflows.DispatchInput{Prompt: prompt, Author: "ann"})
	if err := accept(); err != nil {
		t.Fatal(err)
	}
	if res.Status != workflows.StatusAccepted {
		t.Fatalf("result = %+v", res)
	}
	if got := taskStatuses(p1.Tasks); got != "1:planned 2:failed 3:blocked" {
		t.Fatalf("tasks = %s (%+v)", got, p1.Tasks)
	}
	if !strings.Contains(p1.Tasks[1].Error, "the planner cannot plan") || !slices.Equal(p1.Tasks[2].BlockedBy, []string{"2"}) {
		t.Errorf("task 2 error %q, task 3 blocked by %v", p1.Tasks[1].Error, p1.Tasks[2].BlockedBy)
	}
	if !slices.ContainsFunc(p1.Notes, func(n string) bool { return strings.Contains(n, "task 2") && strings.Contains(n, "blocks task 3") }) {
		t.Errorf("notes = %q", p1.Notes)
	}
	for _, c := range res.Changes {
		want := workflows.ChangeCommitted
		if c.Op.Task != "1" {
			want = workflows.ChangeCompensated
		}
		if c.Status != want {
			t.Errorf("task %s %s: %s, want %s", c.Op.Task, c.Call, c.Status, want)
		}
	}
	after := f.load()
	if len(after.Activities) != len(before.Activities)-1 || f.hasName("Suspended ceilings Level 4") {
		t.Errorf("activities %d -> %d: want only the level 4 ceilings gone", len(before.Activities), len(after.Activities))
	}
	// Task 2's removal was compensated: every link that did not touch the
	// deleted activity is as it was.
	gone := map[string]bool{}
	for _, r := range before.Relationships {
		if nameOf(before, r.Predecessor) != "Suspended ceilings Level 4" && nameOf(before, r.Successor) != "Suspended ceilings Level 4" {
			gone[r.ID] = true
		}
	}
	for _, r := range after.Relationships {
		delete(gone, r.ID)
	}
	if len(gone) > 0 {
		t.Errorf("links lost: %v", gone)
	}
	if !slices.ContainsFunc(res.Changes, func(c workflows.ChangeRecord) bool {
		return c.Op.Task == "2" && c.Op.Kind == schedule.RemoveRelationshipOp && c.Status == workflows.ChangeCompensated
	}) {
		t.Errorf("task 2's removal was not applied and compensated:\n%s", calls(res.Changes))
	}
}

// TestTaskGraphAcrossContinueAsNew: the tasks and the ops of each survive
// continue-as-new between rounds, so feedback naming task 2 still keeps
// task 1 in the new run.
func TestTaskGraphAcrossContinueAsNew(t *testing.T) {
	f := newFixture(t)
	f.env.SetContinueAsNewSuggested(true)
	f.env.RegisterDelayedCallback(func() {
		f.update(workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionReject, Feedback: "task 2: 3 days, not 2", Reviewer: "pm", Round: 1}, nil)
	}, time.Hour)
	next := f.continued(workflows.DispatchInput{ScheduleID: scheduleID, Prompt: taskPrompt, Author: "ann"})
	c := next.Continued
	if c == nil || c.Separation == nil || len(c.Separation.Tasks) != 3 {
		t.Fatalf("continued state = %+v", c)
	}
	if !slices.ContainsFunc(c.Previous, func(op schedule.Op) bool { return op.Task == "1" }) {
		t.Fatalf("the previous ops lost their tasks: %+v", c.Previous)
	}
	g := f.again()
	var p2 workflows.Proposal
	var accept func() error
	g.env.RegisterDelayedCallback(func() {
		g.query(workflows.ProposalQuery, &p2)
		accept = g.update(workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionAccept, Reviewer: "pm", Round: 2}, nil)
	}, time.Hour)
	res := g.run(next)
	if err := accept(); err != nil {
		t.Fatal(err)
	}
	if res.Status != workflows.StatusAccepted {
		t.Fatalf("result = %+v", res)
	}
	if got := taskStatuses(p2.Tasks); got != "1:kept 2:planned 3:planned" {
		t.Errorf("round 2 tasks in the new run = %s", got)
	}
}
