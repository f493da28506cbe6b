package workflows_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/temporalproto"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/autoscheduler/autoscheduler/activities"
	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/workflows"
	"github.com/autoscheduler/autoscheduler/workflows/workflowstest"
)

// historiesDir holds recorded workflow histories, one scenario a file, in
// the JSON format of `temporal workflow show --output json` and the Web UI's
// download. TestReplayHistories replays them against the current workflow
// code, so a change that is not replay-safe fails the build. Re-record them
// (after an intended, versioned change) with
//
//	RECORD_HISTORIES=1 GOTOOLCHAIN=local go test -run TestRecordHistories ./workflows/
//
// but keep the files recorded before a versioned change (git checkout them
// after re-recording): they are the only cover of the old branches that
// running dispatches still take. Histories of the new branches are added
// beside them (TestRecordVersionedHistory in devserver_test.go; with the
// same RECORD_VERSIONED_HISTORY=1, review_as_the_timer_fires there,
// TestReviewRoundsOnDevServer in rounds_devserver_test.go and
// TestCancelOnDevServer in cancel_devserver_test.go save theirs).
const historiesDir = "testdata/histories"

// minHistories is the number of scenarios TestRecordHistories records.
const minHistories = 7

// testLogger sends the SDK's warnings and errors to the test's output.
func testLogger(t *testing.T) sdklog.Logger {
	return sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn})))
}

func historyFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(historiesDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < minHistories {
		t.Fatalf("%s holds %d histories, want at least %d (record them with RECORD_HISTORIES=1)", historiesDir, len(files), minHistories)
	}
	return files
}

func newReplayer(*testing.T) worker.WorkflowReplayer { return worker.NewWorkflowReplayer() }

func TestReplayHistories(t *testing.T) {
	for _, path := range historyFiles(t) {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".json"), func(t *testing.T) {
			r := newReplayer(t)
			r.RegisterWorkflow(workflows.DispatchWorkflow)
			r.RegisterWorkflow(workflows.EditWorkflow)
			if err := r.ReplayWorkflowHistoryFromJSONFile(testLogger(t), path); err != nil {
				t.Fatalf("replaying %s: %v", path, err)
			}
		})
	}
}

// divergentDispatch stands in for a DispatchWorkflow changed in a way that
// is not replay-safe: it schedules an activity where the recorded history
// upserts search attributes.
func divergentDispatch(ctx workflow.Context, in workflows.DispatchInput) (*workflows.DispatchResult, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	var out any
	if err := workflow.ExecuteActivity(ctx, "Commit", activities.CommitInput{ScheduleID: in.ScheduleID}).Get(ctx, &out); err != nil {
		return nil, err
	}
	return &workflows.DispatchResult{Status: workflows.StatusAccepted}, nil
}

// TestReplayDetectsNonDeterminism proves TestReplayHistories can fail.
func TestReplayDetectsNonDeterminism(t *testing.T) {
	path := filepath.Join(historiesDir, "dispatch_accept.json")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("%v (record the histories with RECORD_HISTORIES=1)", err)
	}
	r := newReplayer(t)
	r.RegisterWorkflowWithOptions(divergentDispatch, workflow.RegisterOptions{Name: "DispatchWorkflow"})
	// Discard the SDK's own report of the divergence: it is expected.
	quiet := sdklog.NewStructuredLogger(slog.New(slog.DiscardHandler))
	err := r.ReplayWorkflowHistoryFromJSONFile(quiet, path)
	if err == nil {
		t.Fatal("replaying a divergent DispatchWorkflow succeeded, want a non-determinism error")
	}
	// TMPRL1100 is the SDK's code for all non-determinism errors.
	if !strings.Contains(err.Error(), "TMPRL1100") {
		t.Fatalf("error = %v, want a non-determinism error (TMPRL1100)", err)
	}
	t.Logf("replay failed as expected: %v", err)
}

// recorder runs scenarios on an in-process Temporal dev server and a worker
// on an embedded store, each on its own copy of examples/building.json.
type recorder struct {
	*live
	s *schedule.Schedule
}

func TestRecordHistories(t *testing.T) {
	if os.Getenv("RECORD_HISTORIES") != "1" {
		t.Skip("set RECORD_HISTORIES=1 to record the replay histories")
	}
	// A fixed identity keeps the host name out of the recorded histories.
	e := workflowstest.Start(t, workflowstest.Options{Identity: "history-recorder", Logger: testLogger(t), Planner: scope.Rules{}})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	s, err := interchange.ReadFile("../examples/building.json")
	if err != nil {
		t.Fatal(err)
	}

	if err := os.MkdirAll(historiesDir, 0o755); err != nil {
		t.Fatal(err)
	}
	r := &recorder{live: &live{t: t, ctx: ctx, c: e.Client, stores: e.Stores}, s: s}
	c := r.c

	t.Run("dispatch_accept", func(t *testing.T) {
		r.t = t
		run := r.dispatch("replay-accept", workflows.DispatchInput{Prompt: "delete activity Final inspection"})
		if p := r.proposal(run, 1); len(p.Changes) == 0 {
			t.Fatalf("proposal = %+v", p)
		}
		r.review(run, workflows.DecisionAccept, "")
		r.expect(run, workflows.StatusAccepted, 1)
		r.save("dispatch_accept", run)
	})
	t.Run("dispatch_reject_feedback_accept", func(t *testing.T) {
		r.t = t
		run := r.dispatch("replay-feedback", workflows.DispatchInput{Prompt: "delete activity Snagging inspection"})
		r.proposal(run, 1)
		r.review(run, workflows.DecisionReject, "delete activity Final cleaning")
		if p := r.proposal(run, 2); p.Round != 2 || len(p.Changes) == 0 {
			t.Fatalf("round 2 proposal = %+v", p)
		}
		r.review(run, workflows.DecisionAccept, "")
		r.expect(run, workflows.StatusAccepted, 2)
		r.save("dispatch_reject_feedback_accept", run)
	})
	t.Run("dispatch_reject", func(t *testing.T) {
		r.t = t
		run := r.dispatch("replay-reject", workflows.DispatchInput{Prompt: "delete activity Final inspection"})
		r.proposal(run, 1)
		r.review(run, workflows.DecisionReject, "")
		r.expect(run, workflows.StatusRejected, 1)
		r.save("dispatch_reject", run)
	})
	t.Run("dispatch_cancel", func(t *testing.T) {
		r.t = t
		run := r.dispatch("replay-cancel", workflows.DispatchInput{Prompt: "delete activity Final inspection"})
		r.proposal(run, 1)
		if err := c.CancelWorkflow(ctx, run.GetID(), run.GetRunID()); err != nil {
			t.Fatal(err)
		}
		r.expect(run, workflows.StatusCancelled, 1)
		r.save("dispatch_cancel", run)
	})
	t.Run("edit", func(t *testing.T) {
		r.t = t
		r.importSchedule("replay-edit")
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "edit-replay-edit", TaskQueue: workflows.TaskQueue},
			workflows.EditWorkflow, workflows.EditInput{ScheduleID: "replay-edit", Author: "recorder",
				Ops: []schedule.Op{schedule.RemoveActivity("A003"), schedule.RemoveActivity("A005")}})
		if err != nil {
			t.Fatal(err)
		}
		var res workflows.EditResult
		if err := run.Get(ctx, &res); err != nil {
			t.Fatal(err)
		}
		if len(res.Applied) != 2 || len(res.Inverses) == 0 {
			t.Fatalf("edit result = %+v", res)
		}
		r.save("edit", run)
	})
	t.Run("dispatch_clarify", func(t *testing.T) {
		r.t = t
		run := r.dispatch("replay-clarify", workflows.DispatchInput{Prompt: "delete the pour"})
		if p := r.proposal(run, 1); !p.AwaitingClarification || len(p.Changes) != 0 {
			t.Fatalf("proposal while asking = %+v", p)
		}
		var st workflows.Status
		if err := r.update(run, workflows.ClarifyUpdate, workflows.Clarification{Answer: "A041", Author: "pm"}, &st); err != nil {
			t.Fatal(err)
		}
		if p := r.proposal(run, 1); p.AwaitingClarification || len(p.Changes) != 1 {
			t.Fatalf("proposal after the answer = %+v", p)
		}
		r.review(run, workflows.DecisionAccept, "")
		r.expect(run, workflows.StatusAccepted, 1)
		r.save("dispatch_clarify", run)
	})
	t.Run("dispatch_auto_accept", func(t *testing.T) {
		r.t = t
		run := r.dispatch("replay-auto", workflows.DispatchInput{Prompt: "delete activity Final inspection", AutoAccept: true})
		r.expect(run, workflows.StatusAccepted, 1)
		r.save("dispatch_auto_accept", run)
	})
}

func (r *recorder) importSchedule(id string) {
	r.t.Helper()
	if err := r.stores.Import(r.ctx, id, r.s, false, nil); err != nil {
		r.t.Fatal(err)
	}
}

func (r *recorder) dispatch(id string, in workflows.DispatchInput) client.WorkflowRun {
	r.t.Helper()
	r.importSchedule(id)
	in.ScheduleID, in.Author = id, "recorder"
	run, err := r.c.ExecuteWorkflow(r.ctx, client.StartWorkflowOptions{
		ID: workflows.DispatchWorkflowID(id), TaskQueue: workflows.TaskQueue,
	}, workflows.DispatchWorkflow, in)
	if err != nil {
		r.t.Fatal(err)
	}
	return run
}

func (r *recorder) proposal(run client.WorkflowRun, round int) workflows.Proposal {
	r.t.Helper()
	var p workflows.Proposal
	if err := r.update(run, workflows.ProposalUpdate, workflows.ProposalRequest{Round: round}, &p); err != nil {
		r.t.Fatalf("proposal update: %v", err)
	}
	return p
}

func (r *recorder) review(run client.WorkflowRun, decision, feedback string) {
	r.t.Helper()
	var st workflows.Status
	err := r.update(run, workflows.ReviewUpdate, workflows.Review{Decision: decision, Feedback: feedback, Reviewer: "pm"}, &st)
	if err != nil {
		r.t.Fatalf("review update: %v", err)
	}
}

func (r *recorder) expect(run client.WorkflowRun, status string, rounds int) {
	r.t.Helper()
	var res workflows.DispatchResult
	if err := run.Get(r.ctx, &res); err != nil {
		r.t.Fatal(err)
	}
	if res.Status != status || res.Rounds != rounds || res.Error != "" {
		r.t.Fatalf("result = %+v, want status %s after %d rounds", res, status, rounds)
	}
}

// save writes the run's full history as historiesDir/<name>.json.
func (l *live) save(name string, run client.WorkflowRun) {
	l.t.Helper()
	hist := &historypb.History{}
	it := l.c.GetWorkflowHistory(l.ctx, run.GetID(), run.GetRunID(), false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			l.t.Fatal(err)
		}
		hist.Events = append(hist.Events, ev)
	}
	last := hist.Events[len(hist.Events)-1].GetEventType()
	if last != enums.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED {
		l.t.Fatalf("history ends with %v, want a completed workflow", last)
	}
	b, err := temporalproto.CustomJSONMarshalOptions{Indent: "  "}.Marshal(hist)
	if err != nil {
		l.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(historiesDir, name+".json"), append(b, '\n'), 0o644); err != nil {
		l.t.Fatal(err)
	}
}
