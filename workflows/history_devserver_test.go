package workflows_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// historyLimit is the forced "suggest continue-as-new" threshold (events)
// of TestLongHistoriesStayBounded; Temporal's default is 4 Ki events,
// its hard limit 50 Ki.
const historyLimit = 150

// TestLongHistoriesStayBounded: with the server suggesting continue-as-new
// after historyLimit events, a dispatch of many rounds continues as new
// between rounds, no run's history grows much past the threshold (at most
// one round past it: the dispatch checks between rounds), and the outcome
// carries every round's decision. Many direct edits of one schedule are
// each their own short EditWorkflow. Both leave the stores consistent.
func TestLongHistoriesStayBounded(t *testing.T) {
	l := startLiveWith(t, map[string]any{"limit.historyCount.suggestContinueAsNew": historyLimit})
	w := l.worker(scope.Rules{})
	defer w.Stop()

	t.Run("dispatch_of_many_rounds", func(t *testing.T) {
		l.t = t
		const id, rounds = "long-dispatch", 9
		l.importBuilding(id)
		run := l.start(workflows.DispatchInput{ScheduleID: id, Prompt: "delete activity Site hoarding", Author: "ann", MaxRounds: rounds})
		feedback := []string{"delete activity Setting-out survey", "delete activity Site hoarding"}
		for round := 1; round <= rounds; round++ {
			var p workflows.Proposal
			// The proposal Update goes to the workflow ID: a run that
			// continued as new answers "ask again".
			for {
				err := l.update(run, workflows.ProposalUpdate, workflows.ProposalRequest{Round: round}, &p)
				if err == nil {
					break
				}
				run = l.c.GetWorkflow(l.ctx, run.GetID(), "")
				if !isContinued(err) {
					t.Fatalf("proposal of round %d: %v", round, err)
				}
			}
			review := workflows.Review{Decision: workflows.DecisionReject, Feedback: feedback[round%2], Reviewer: "bob", Round: round}
			if round == rounds {
				review = workflows.Review{Decision: workflows.DecisionAccept, Reviewer: "bob", Round: round}
			}
			if err := l.update(l.c.GetWorkflow(l.ctx, run.GetID(), ""), workflows.ReviewUpdate, review, nil); err != nil {
				t.Fatalf("review of round %d: %v", round, err)
			}
		}
		var res workflows.DispatchResult
		if err := l.c.GetWorkflow(l.ctx, run.GetID(), "").Get(l.ctx, &res); err != nil {
			t.Fatal(err)
		}
		if res.Status != workflows.StatusAccepted || res.Rounds != rounds || len(res.Decisions) != rounds {
			t.Fatalf("result = %s after %d rounds, %d decisions", res.Status, res.Rounds, len(res.Decisions))
		}
		lengths := l.runHistoryLengths(run.GetID())
		if len(lengths) < 3 {
			t.Errorf("%d runs (%v): want the dispatch to continue as new more than once", len(lengths), lengths)
		}
		// A run continues at the first round boundary past the threshold:
		// it holds at most one round more (a round is well under 100 events).
		if m := slices.Max(lengths); m > historyLimit+100 {
			t.Errorf("a run's history reached %d events (runs %v), threshold %d", m, lengths, historyLimit)
		}
		t.Logf("runs' history lengths: %v", lengths)
		// Round 9 planned "delete activity Setting-out survey" (round 8's
		// feedback) and was accepted; every other round was compensated.
		after, err := l.stores.Load(l.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		has := func(name string) bool {
			return slices.ContainsFunc(after.Activities, func(a schedule.Activity) bool { return a.Name == name })
		}
		if has("Setting-out survey") || !has("Site hoarding") {
			t.Errorf("after the accepted round 9: Setting-out survey present %v, Site hoarding present %v", has("Setting-out survey"), has("Site hoarding"))
		}
		if drift, err := l.stores.Verify(l.ctx, id); err != nil || len(drift) > 0 {
			t.Errorf("verify: %v %v", drift, err)
		}
	})

	t.Run("many_edits", func(t *testing.T) {
		l.t = t
		const id, edits = "many-edits", 40
		s := l.importBuilding(id)
		for i := range edits {
			a := schedule.Activity{ID: fmt.Sprintf("E%02d", i), Name: fmt.Sprintf("Extra %02d", i), Duration: "1"}
			run, err := l.c.ExecuteWorkflow(l.ctx, client.StartWorkflowOptions{ID: fmt.Sprintf("edit-%s-%d", id, i), TaskQueue: workflows.TaskQueue},
				workflows.EditWorkflow, workflows.EditInput{ScheduleID: id, Ops: []schedule.Op{schedule.AddActivity(a)}, Author: "ann"})
			if err != nil {
				t.Fatal(err)
			}
			if err := run.Get(l.ctx, nil); err != nil {
				t.Fatal(err)
			}
			if n := l.historyLength(run.GetID(), run.GetRunID()); n > 30 {
				t.Errorf("edit %d's history holds %d events", i, n)
			}
		}
		after, err := l.stores.Load(l.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(after.Activities) != len(s.Activities)+edits {
			t.Errorf("%d activities, want %d", len(after.Activities), len(s.Activities)+edits)
		}
		if drift, err := l.stores.Verify(l.ctx, id); err != nil || len(drift) > 0 {
			t.Errorf("verify: %v %v", drift, err)
		}
	})
}

// isContinued reports whether a proposal Update was told the dispatch
// continued as a new run (ask again).
func isContinued(err error) bool {
	return strings.Contains(err.Error(), workflows.ErrTypeContinuedAsNew) || strings.Contains(err.Error(), "continued as a new run")
}

// runHistoryLengths are the history lengths of every run of a workflow ID,
// oldest first.
func (l *live) runHistoryLengths(id string) []int {
	l.t.Helper()
	var runs []string
	var token []byte
	for {
		resp, err := l.c.ListWorkflow(l.ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Query: fmt.Sprintf("WorkflowId = '%s'", id), NextPageToken: token,
		})
		if err != nil {
			l.t.Fatal(err)
		}
		for _, e := range resp.Executions {
			runs = append(runs, e.Execution.RunId)
		}
		if token = resp.NextPageToken; len(token) == 0 {
			break
		}
	}
	var out []int
	for i := len(runs) - 1; i >= 0; i-- {
		out = append(out, l.historyLength(id, runs[i]))
	}
	return out
}

// historyLength counts a run's history events.
func (l *live) historyLength(id, runID string) int {
	l.t.Helper()
	it := l.c.GetWorkflowHistory(l.ctx, id, runID, false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	n := 0
	for it.HasNext() {
		if _, err := it.Next(); err != nil {
			l.t.Fatal(err)
		}
		n++
	}
	return n
}
