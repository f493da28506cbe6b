package workflows_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/worker"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
	"github.com/autoscheduler/autoscheduler/workflows"
	"github.com/autoscheduler/autoscheduler/workflows/workflowstest"
)

// live is a dev server, an embedded store and a client: the edges that
// only a real server shows (its 2 MB payload limit, a timer and an Update
// in one workflow task).
type live struct {
	t      *testing.T
	ctx    context.Context
	c      client.Client
	stores *store.Coordinator
}

func startLive(t *testing.T) *live { t.Helper(); return startLiveWith(t, nil) }

// startLiveWith is startLive with dynamic config overrides for the server.
func startLiveWith(t *testing.T, dynamic map[string]any) *live {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a Temporal dev server")
	}
	e := workflowstest.Start(t, workflowstest.Options{DynamicConfig: dynamic, Identity: "history-recorder", Logger: testLogger(t)})
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	t.Cleanup(cancel)
	return &live{t: t, ctx: ctx, c: e.Client, stores: e.Stores}
}

// worker starts a worker whose activities plan with p.
func (l *live) worker(p scope.Planner) worker.Worker {
	l.t.Helper()
	w, err := workflowstest.StartWorker(l.c, l.stores, p)
	if err != nil {
		l.t.Fatal(err)
	}
	return w
}

// importBuilding stores examples/building.json under id and returns it.
func (l *live) importBuilding(id string) *schedule.Schedule {
	l.t.Helper()
	s, err := readBuilding()
	if err != nil {
		l.t.Fatal(err)
	}
	if err := l.stores.Import(l.ctx, id, s, false, nil); err != nil {
		l.t.Fatal(err)
	}
	return s
}

// saveIfRecording saves run's history as testdata/histories/<name>.json
// when RECORD_VERSIONED_HISTORY=1, for the replay test.
func (l *live) saveIfRecording(name string, run client.WorkflowRun) {
	l.t.Helper()
	if os.Getenv("RECORD_VERSIONED_HISTORY") == "1" {
		l.save(name, run)
	}
}

// dump is both stores' canonical views of id, for before/after equality.
func (l *live) dump(id string) string { l.t.Helper(); return storetest.Dumps(l.t, l.stores, id) }

func (l *live) start(in workflows.DispatchInput) client.WorkflowRun {
	l.t.Helper()
	run, err := l.c.ExecuteWorkflow(l.ctx, client.StartWorkflowOptions{ID: workflows.DispatchWorkflowID(in.ScheduleID), TaskQueue: workflows.TaskQueue}, workflows.DispatchWorkflow, in)
	if err != nil {
		l.t.Fatal(err)
	}
	return run
}

func (l *live) update(run client.WorkflowRun, name string, arg, out any) error {
	h, err := l.c.UpdateWorkflow(l.ctx, client.UpdateWorkflowOptions{
		WorkflowID: run.GetID(), RunID: run.GetRunID(), UpdateName: name,
		WaitForStage: client.WorkflowUpdateStageCompleted, Args: []any{arg},
	})
	if err != nil {
		return err
	}
	return h.Get(l.ctx, out)
}

func (l *live) result(run client.WorkflowRun) workflows.DispatchResult {
	l.t.Helper()
	var res workflows.DispatchResult
	if err := run.Get(l.ctx, &res); err != nil {
		l.t.Fatal(err)
	}
	return res
}

// outcome is the run's DispatchOutcome search attribute and memo.
func (l *live) outcome(run client.WorkflowRun) (string, map[string]string) {
	l.t.Helper()
	d, err := l.c.DescribeWorkflowExecution(l.ctx, run.GetID(), run.GetRunID())
	if err != nil {
		l.t.Fatal(err)
	}
	var outcome string
	if p := d.GetWorkflowExecutionInfo().GetSearchAttributes().GetIndexedFields()[workflows.DispatchOutcomeAttribute.GetName()]; p != nil {
		_ = converter.GetDefaultDataConverter().FromPayload(p, &outcome)
	}
	memo := map[string]string{}
	for k, p := range d.GetWorkflowExecutionInfo().GetMemo().GetFields() {
		var s string
		_ = converter.GetDefaultDataConverter().FromPayload(p, &s)
		memo[k] = s
	}
	return outcome, memo
}

// deleteAll plans the removal of every activity: "delete everything", which
// the rules planner refuses to guess.
type deleteAll struct{ scope.Rules }

func (deleteAll) Separate(_ context.Context, prompt string) (scope.Separation, error) {
	return scope.Separation{Removals: prompt}, nil
}

func (deleteAll) PlanRemovals(_ context.Context, snap scope.Snapshot, _ scope.PlanInput) (scope.Plan, error) {
	var p scope.Plan
	for _, a := range snap.Schedule.Activities {
		p.Ops = append(p.Ops, schedule.RemoveActivity(a.ID))
	}
	return p, nil
}

func (deleteAll) PlanAdditions(context.Context, scope.Snapshot, scope.PlanInput) (scope.Plan, error) {
	return scope.Plan{}, nil
}

// TestDispatchOnDevServer: the edges a real server shows.
func TestDispatchOnDevServer(t *testing.T) {
	l := startLive(t)

	// Deleting 2,000 activities (and their 4,000 links) stays under
	// Temporal's 2 MB payload limit: inverses stay in the ledger, change
	// records are capped. Rejected, the stores are as before; accepted, the
	// schedule is empty.
	t.Run("delete_2000_activities", func(t *testing.T) {
		l.t = t
		const id = "synthetic"
		if err := l.stores.Import(l.ctx, id, schedule.Synthetic(2000, 2, 1), false, nil); err != nil {
			t.Fatal(err)
		}
		w := l.worker(deleteAll{})
		defer w.Stop()
		before := l.dump(id)

		run := l.start(workflows.DispatchInput{ScheduleID: id, Prompt: "delete everything", Author: "ann"})
		var p workflows.Proposal
		if err := l.update(run, workflows.ProposalUpdate, workflows.ProposalRequest{Round: 1}, &p); err != nil {
			t.Fatal(err)
		}
		if len(p.Changes)+p.ChangesOmitted != 2000 || p.Impact == nil {
			t.Fatalf("proposal: %d changes + %d omitted, impact %v", len(p.Changes), p.ChangesOmitted, p.Impact)
		}
		if err := l.update(run, workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionReject, Reviewer: "pm"}, nil); err != nil {
			t.Fatal(err)
		}
		res := l.result(run)
		if res.Status != workflows.StatusRejected || len(res.Changes) != workflows.MaxResultChanges || res.ChangesOmitted != 1000 || res.Changes[0].Status != workflows.ChangeCompensated {
			t.Fatalf("rejected: status %s, %d changes + %d omitted, error %q", res.Status, len(res.Changes), res.ChangesOmitted, res.Error)
		}
		if l.dump(id) != before {
			t.Error("the stores differ from before the rejected deletion")
		}
		if outcome, memo := l.outcome(run); outcome != workflows.StatusRejected || memo["reviewer"] != "pm" || memo["author"] != "ann" {
			t.Errorf("outcome %q, memo %v", outcome, memo)
		}
		// The dispatch has ended: a proposal Update is refused, not left hanging.
		err := l.update(run, workflows.ProposalUpdate, workflows.ProposalRequest{}, nil)
		if err == nil || !strings.Contains(err.Error(), "complete") {
			t.Errorf("proposal update after the end: %v", err)
		}

		run = l.start(workflows.DispatchInput{ScheduleID: id, Prompt: "delete everything", Author: "ann", AutoAccept: true})
		res = l.result(run)
		if res.Status != workflows.StatusAccepted || res.ChangesOmitted != 1000 {
			t.Fatalf("accepted: status %s, %d changes + %d omitted, error %q", res.Status, len(res.Changes), res.ChangesOmitted, res.Error)
		}
		s, err := l.stores.Load(l.ctx, id)
		if err != nil || len(s.Activities) != 0 || len(s.Relationships) != 0 {
			t.Errorf("after the accepted deletion: %v, %v", s, err)
		}
		if outcome, _ := l.outcome(run); outcome != workflows.StatusAccepted {
			t.Errorf("outcome %q", outcome)
		}
	})

	// A review Update and the review timer in one workflow task: the
	// review was told "taken", so it is the verdict. The worker is stopped
	// while the timer fires and the Update arrives, so the next workflow
	// task carries both.
	t.Run("review_as_the_timer_fires", func(t *testing.T) {
		l.t = t
		const id = "building"
		l.importBuilding(id)
		w := l.worker(scope.Rules{})
		const timeout = 3 * time.Second
		run := l.start(workflows.DispatchInput{ScheduleID: id, Prompt: "delete activity Final inspection", Author: "ann", ReviewTimeout: timeout})
		begun := time.Now()
		if err := l.update(run, workflows.ProposalUpdate, workflows.ProposalRequest{Round: 1}, &workflows.Proposal{}); err != nil {
			t.Fatal(err)
		}
		w.Stop()
		time.Sleep(time.Until(begun.Add(timeout + 2*time.Second)))
		reviewed := make(chan error, 1)
		go func() {
			reviewed <- l.update(run, workflows.ReviewUpdate, workflows.Review{Decision: workflows.DecisionAccept, Reviewer: "pm"}, nil)
		}()
		time.Sleep(time.Second)
		w = l.worker(scope.Rules{})
		defer w.Stop()
		res := l.result(run)
		if err := <-reviewed; err != nil {
			t.Fatalf("the review was refused (%v); the race was not produced", err)
		}
		if res.Status != workflows.StatusAccepted {
			t.Fatalf("the review was taken, yet the dispatch ended %s", res.Status)
		}
		l.saveIfRecording("dispatch_review_at_timeout", run)
	})
}

// TestRecordVersionedHistory records a history of the versioned branches
// (one separation, inverses by reference, a compensation, the outcome
// attribute) next to the histories recorded before them, which are kept:
//
//	RECORD_VERSIONED_HISTORY=1 GOTOOLCHAIN=local go test -run TestRecordVersionedHistory ./workflows/
func TestRecordVersionedHistory(t *testing.T) {
	if os.Getenv("RECORD_VERSIONED_HISTORY") != "1" {
		t.Skip("set RECORD_VERSIONED_HISTORY=1 to record it")
	}
	l := startLive(t)
	l.importBuilding("replay-v2")
	w := l.worker(scope.Rules{})
	defer w.Stop()
	run := l.start(workflows.DispatchInput{ScheduleID: "replay-v2", Prompt: "delete activity Snagging inspection", Author: "recorder"})
	for round, review := range []workflows.Review{
		{Decision: workflows.DecisionReject, Feedback: "delete activity Final cleaning", Reviewer: "pm"},
		{Decision: workflows.DecisionAccept, Reviewer: "pm"},
	} {
		if err := l.update(run, workflows.ProposalUpdate, workflows.ProposalRequest{Round: round + 1}, &workflows.Proposal{}); err != nil {
			t.Fatal(err)
		}
		if err := l.update(run, workflows.ReviewUpdate, review, nil); err != nil {
			t.Fatal(err)
		}
	}
	if res := l.result(run); res.Status != workflows.StatusAccepted || res.Rounds != 2 {
		t.Fatalf("result = %+v", res)
	}
	l.save("dispatch_v2_reject_feedback_accept", run)
}

func readBuilding() (*schedule.Schedule, error) {
	b, err := os.ReadFile("../examples/building.json")
	if err != nil {
		return nil, err
	}
	var s schedule.Schedule
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	if len(s.Activities) == 0 {
		return nil, errors.New("no activities in building.json")
	}
	return &s, nil
}
