package main

import (
	"context"
	"errors"
	"fmt"
	stdio "io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"

	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// demoStep is one prompt of the demo and how the demo reviews it.
type demoStep struct {
	prompt   string
	answers  []string           // to the planner's questions, in order
	reviews  []workflows.Review // one per round
	headline string
}

// demoSteps are the seed design's four example prompts (its "<uuid>" is
// the example building's A007), and one ambiguous prompt that makes the
// planner ask.
var demoSteps = []demoStep{
	{
		headline: "Re-sequence: the planner removes the floor 3 -> floor 4 fit-out link and adds floor 2 -> floor 4. Accept.",
		prompt:   "Make fitouts on floor 4 come after fitouts on floor 2 instead of floor 3",
		reviews:  []workflows.Review{{Decision: "accept", Reviewer: "demo"}},
	},
	{
		headline: "Too much: reject with feedback, accept the narrower second round.",
		prompt:   "Delete all activities on the second floor",
		reviews: []workflows.Review{
			{Decision: "reject", Feedback: "delete all drywall activities on the second floor", Reviewer: "demo"},
			{Decision: "accept", Reviewer: "demo"},
		},
	},
	{
		headline: "New scope nobody wants after all: reject; both stores go back as they were.",
		prompt:   "Add activities for excavation on floor 1",
		reviews:  []workflows.Review{{Decision: "reject", Reviewer: "demo"}},
	},
	{
		headline: "One activity by id: accept.",
		prompt:   "Delete activity A007",
		reviews:  []workflows.Review{{Decision: "accept", Reviewer: "demo"}},
	},
	{
		headline: "Ambiguous: the planner asks which pour instead of guessing; answer, then reject.",
		prompt:   "delete the pour",
		answers:  []string{"Pour slab Level 3"},
		reviews:  []workflows.Review{{Decision: "reject", Reviewer: "demo"}},
	},
}

const demoSchedule = "building"

// demoOptions are the flags of `autoscheduler demo`: dev's, the schedule
// file and whether to stop when done.
type demoOptions struct {
	devOptions
	File string
	Exit bool
}

func newDemoCmd(f *Factory, runF func(context.Context, *demoOptions) error) *cobra.Command {
	opts := &demoOptions{devOptions: devOptions{io: f.IOStreams, stores: f.Stores, planning: f.Planning}, File: "examples/building.json"}
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run the durable dispatch end to end on the example building, then keep the Web UI up",
		Long: "Start the dev server and a worker in process on a fresh demo store, import\n" +
			"examples/building.json, submit the seed design's example prompts — accepting,\n" +
			"rejecting with feedback, rejecting, answering the planner's question — and print\n" +
			"the Web UI link.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if liteBuild {
				return handOff()
			}
			warnOldAddress(cmd, opts.io)
			return cmdutil.RunOr(cmd, opts, runF, demoRun)
		},
	}
	cmd.Flags().StringVar(&opts.File, "file", opts.File, "the schedule the demo works on")
	bindServerFlags(cmd, &opts.devOptions)
	cmd.Flags().BoolVar(&opts.Exit, "exit", false, "stop when the demo is done instead of keeping the Web UI up")
	return cmd
}

func demoRun(ctx context.Context, demo *demoOptions) error {
	opts, file, exit := &demo.devOptions, demo.File, demo.Exit
	dir := filepath.Dir(opts.stores.DBPath)
	if opts.stores.DBPath == "" {
		data, err := opts.stores.DataPath()
		if err != nil {
			return err
		}
		dir = filepath.Join(filepath.Dir(data), "demo")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// A fresh demo store each run; Temporal's history is kept, so earlier
	// runs stay visible in the Web UI.
	demoStores := *opts.stores
	demoStores.DBPath = filepath.Join(dir, "demo.db")
	demoStores.Neo4jURI, demoStores.WeaviateURL = "", ""
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(demoStores.DBPath + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	if opts.TemporalDB == "" {
		opts.TemporalDB = filepath.Join(dir, "temporal.db")
	}
	out := opts.io.Out
	fmt.Fprintf(out, "== Importing %s\n", file)
	if err := importRun(ctx, &importOptions{io: &cmdutil.IOStreams{Out: out, ErrOut: out}, stores: &demoStores, File: file, Schedule: demoSchedule}); err != nil {
		return err
	}
	if err := scheduleTable(ctx, headOnly(out, 2), &demoStores, demoSchedule); err != nil {
		return err
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	var scenarioErr error
	opts.stores = &demoStores
	opts.ready = func(c client.Client, frontend, ui, webURL string) {
		scenarioErr = demoScenario(runCtx, opts.io, c)
		if scenarioErr == nil {
			fmt.Fprintln(out, "\n== After the demo")
			scenarioErr = scheduleTable(runCtx, headOnly(out, 2), &demoStores, demoSchedule)
		}
		if ui != "" {
			fmt.Fprintf(out, "\nEvery dispatch is in the Temporal Web UI: %s/namespaces/default/workflows\n", ui)
		}
		if webURL != "" {
			fmt.Fprintf(out, "Review, prompt and undo in the browser: %s/s/%s\n", webURL, demoSchedule)
		}
		if exit || scenarioErr != nil {
			stop()
		}
	}
	if err := devRun(runCtx, opts); err != nil {
		return err
	}
	return scenarioErr
}

// demoScenario runs the demo steps through the same calls `prompt` uses.
func demoScenario(ctx context.Context, io *cmdutil.IOStreams, c client.Client) error {
	id := workflows.DispatchWorkflowID(demoSchedule)
	show := &promptOptions{io: io, DiffLimit: 6}
	for i, step := range demoSteps {
		fmt.Fprintf(io.Out, "\n== Prompt %d: %q\n   %s\n", i+1, step.prompt, step.headline)
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: workflows.TaskQueue},
			workflows.DispatchWorkflow, workflows.DispatchInput{ScheduleID: demoSchedule, Prompt: step.prompt, Author: "demo"})
		if err != nil {
			return err
		}
		answers := step.answers
		for round, review := range step.reviews {
			proposal, err := workflows.AwaitProposal(ctx, c, id, run.GetRunID(), round+1)
			if err != nil {
				return err
			}
			for proposal.AwaitingClarification && len(answers) > 0 {
				if err := printProposal(show, id, proposal); err != nil {
					return err
				}
				fmt.Fprintf(io.Out, "  -> answer %q\n", answers[0])
				if err := workflows.SendAnswer(ctx, c, id, answers[0], "demo"); err != nil {
					return err
				}
				answers = answers[1:]
				if proposal, err = workflows.AwaitProposal(ctx, c, id, run.GetRunID(), round+1); err != nil {
					return err
				}
			}
			if err := printProposal(show, id, proposal); err != nil {
				return err
			}
			verdict := review.Decision
			if review.Feedback != "" {
				verdict += fmt.Sprintf(" with feedback %q", review.Feedback)
			}
			fmt.Fprintf(io.Out, "  -> %s\n", verdict)
			review.Round = proposal.Round
			if err := workflows.SendReview(ctx, c, id, review); err != nil {
				return err
			}
		}
		if err := printResult(ctx, show, run); err != nil {
			return err
		}
	}
	return nil
}

// headOnly passes through the first n lines written to w: the report's
// summary, not its 147 rows.
func headOnly(w stdio.Writer, n int) *lineLimiter {
	return &lineLimiter{w: w, left: n}
}

type lineLimiter struct {
	w    stdio.Writer
	left int
}

func (l *lineLimiter) Write(p []byte) (int, error) {
	for i, c := range p {
		if l.left <= 0 {
			return len(p), nil
		}
		if c == '\n' {
			l.left--
			if l.left == 0 {
				if _, err := l.w.Write(p[:i+1]); err != nil {
					return 0, err
				}
				return len(p), nil
			}
		}
	}
	if l.left > 0 {
		if _, err := l.w.Write(p); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}
