// Command dispatchbench measures the overhead of a dispatch as a planner
// feels it, with the offline planner and the embedded store on the example
// building, on the in-process Temporal dev server: submit -> proposal
// awaiting review, and accept -> committed. It prints one JSON object.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"time"

	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/workflows"
	"github.com/autoscheduler/autoscheduler/workflows/workflowstest"
)

func main() {
	n := flag.Int("n", 50, "dispatches")
	file := flag.String("file", "examples/building.json", "schedule")
	flag.Parse()
	if err := run(*n, *file); err != nil {
		fmt.Fprintln(os.Stderr, "dispatchbench:", err)
		os.Exit(1)
	}
}

func run(n int, file string) error {
	ctx := context.Background()
	quiet := sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	e, err := workflowstest.Open(ctx, workflowstest.Options{ServerOnDisk: true, Logger: quiet,
		Import: map[string]string{"building": file}, Planner: scope.Rules{}})
	if err != nil {
		return err
	}
	defer e.Close()
	c := e.Client

	var toReview, toCommit []float64
	id := workflows.DispatchWorkflowID("building")
	for i := range n {
		// Alternate two prompts so every dispatch changes something real.
		prompt := "delete activity Final cleaning"
		if i%2 == 1 {
			prompt = `add activity "Final cleaning" 4 days after "Defect rectification"`
		}
		start := time.Now()
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: workflows.TaskQueue},
			workflows.DispatchWorkflow, workflows.DispatchInput{ScheduleID: "building", Prompt: prompt})
		if err != nil {
			return err
		}
		h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: id, RunID: run.GetRunID(), UpdateName: workflows.ProposalUpdate,
			WaitForStage: client.WorkflowUpdateStageCompleted, Args: []any{workflows.ProposalRequest{Round: 1}}})
		if err != nil {
			return err
		}
		var p workflows.Proposal
		if err := h.Get(ctx, &p); err != nil {
			return err
		}
		if len(p.Changes) == 0 {
			return fmt.Errorf("dispatch %d proposed nothing: %v %s", i, p.Notes, p.Question)
		}
		toReview = append(toReview, time.Since(start).Seconds())
		start = time.Now()
		h, err = c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: id, RunID: run.GetRunID(), UpdateName: workflows.ReviewUpdate,
			WaitForStage: client.WorkflowUpdateStageCompleted, Args: []any{workflows.Review{Decision: "accept"}}})
		if err != nil {
			return err
		}
		if err := h.Get(ctx, nil); err != nil {
			return err
		}
		var res workflows.DispatchResult
		if err := run.Get(ctx, &res); err != nil {
			return err
		}
		if res.Status != workflows.StatusAccepted {
			return fmt.Errorf("dispatch %d: %s %s", i, res.Status, res.Error)
		}
		toCommit = append(toCommit, time.Since(start).Seconds())
	}
	pct := func(xs []float64, p int) float64 {
		ys := slices.Clone(xs)
		slices.Sort(ys)
		return ys[min(len(ys)-1, len(ys)*p/100)]
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]any{
		"dispatches":           n,
		"to_review_p50_s":      pct(toReview, 50),
		"to_review_p95_s":      pct(toReview, 95),
		"accept_to_done_p50_s": pct(toCommit, 50),
		"accept_to_done_p95_s": pct(toCommit, 95),
	})
}
