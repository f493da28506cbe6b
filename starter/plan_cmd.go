package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/changerisk"
	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/insight"
	"github.com/autoscheduler/autoscheduler/internal/prefs"
	"github.com/autoscheduler/autoscheduler/internal/render"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

// planOptions are the flags of `autoscheduler plan`.
type planOptions struct {
	io       *cmdutil.IOStreams
	planning *config.Planning
	Prompt   string
	File     string
	Format   string
	Answers  []string
	Feedback string
	Previous string
}

func newPlanCmd(f *Factory, runF func(context.Context, *planOptions) error) *cobra.Command {
	opts := &planOptions{io: f.IOStreams, planning: f.Planning}
	cmd := &cobra.Command{
		Use:   `plan "PROMPT" --file FILE [--json] [--answer TEXT ...] [--feedback TEXT --previous PLAN.json]`,
		Short: "Show the changes a prompt would make to a schedule file (no server)",
		Long: "Plan a prompt as a dispatch round would — separate, removals, additions — against a schedule\n" +
			"file in memory, and print the ops with the CPM impact. Nothing is stored. When the planner asks\n" +
			"a question, --answer answers it (repeat the flag for later questions). --feedback previews the\n" +
			"next round after a rejection with feedback: --previous is the rejected round, as written by\n" +
			"`plan --json`. A prompt that is only a question (\"what drives X\") is answered\n" +
			"as `autoscheduler ask` answers it.",
		Example: `  autoscheduler plan "Delete all activities on the second floor" --file examples/building.json
  autoscheduler plan "delete the pour" --file examples/building.json --answer A041 --json
  autoscheduler plan "Delete all drywall on level 2" --file examples/building.json --json > round1.json
  autoscheduler plan "Delete all drywall on level 2" --file examples/building.json --previous round1.json --feedback "only the drywall board"`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Prompt = args[0]
			if opts.File == "" {
				return usagef("plan: --file is required")
			}
			if err := cmdutil.CheckFormat(cmd, "plan"); err != nil {
				return err
			}
			if (opts.Previous != "") != (opts.Feedback != "") {
				return usagef("plan: --feedback and --previous go together: the feedback is on the previous round")
			}
			if err := checkPlanText(opts); err != nil {
				return err
			}
			return cmdutil.RunOr(cmd, opts, runF, planRun)
		},
	}
	cmd.Flags().StringVar(&opts.File, "file", "", "schedule file (.json, .xml MSPDI, .xer)")
	// One human format: --json is the flag; --format table|json stays, hidden, for scripts.
	cmdutil.AddFormatFlags(cmd, &opts.Format, "table", []string{"table", "json"}, "output: table or json (--json)", `print {"ops", "question", "notes", "token_usage"} (answers to a question: {"answer", "activities"})`, true)
	cmd.Flags().StringArrayVar(&opts.Answers, "answer", nil, "answer to the planner's question (repeatable, in order)")
	cmd.Flags().StringVar(&opts.Feedback, "feedback", "", "the reviewer's feedback on the previous round")
	cmd.Flags().StringVar(&opts.Previous, "previous", "", "the previous round, as `plan --json` wrote it")
	return cmd
}

// planOutput is the stable JSON of `plan --format json` (DESIGN).
type planOutput struct {
	Ops      []schedule.Op    `json:"ops"`
	Question string           `json:"question,omitempty"`
	Notes    []string         `json:"notes,omitempty"`
	Usage    scope.TokenUsage `json:"token_usage"`
	// Risk is the round's risk rating, when it changes something.
	Risk *schedule.RiskRating `json:"risk,omitempty"`
	// Answer and Activities answer a prompt that is only a question (as
	// `ask --json` does); Ops is then empty.
	Answer     string   `json:"answer,omitempty"`
	Activities []string `json:"activities,omitempty"`
}

// checkPlanText refuses a prompt, feedback or answer over
// scope.MaxPrompt, as the dispatch would (a usage error: nothing ran).
func checkPlanText(opts *planOptions) error {
	if err := scope.CheckPrompt("prompt", opts.Prompt); err != nil {
		return usagef("plan: %v", err)
	}
	if err := scope.CheckPrompt("feedback", opts.Feedback); err != nil {
		return usagef("plan: --feedback: %v", err)
	}
	for _, a := range opts.Answers {
		if err := scope.CheckPrompt("answer", a); err != nil {
			return usagef("plan: --answer: %v", err)
		}
	}
	return nil
}

// planRun plans as `plan` does. SIGINT or SIGTERM (which cancel ctx, the
// root command's signal.NotifyContext) stop the planning part way: the
// planners check their context as they go, and nothing is printed.
func planRun(ctx context.Context, opts *planOptions) (err error) {
	if err := checkPlanText(opts); err != nil {
		return err
	}
	defer func() {
		if err != nil && ctx.Err() != nil {
			err = errors.New("plan: interrupted: nothing was planned")
		}
	}()
	s, net, err := cmdutil.LoadFile(opts.io.ErrOut, opts.File)
	if err != nil {
		return err
	}
	// A prompt that is only a question is answered offline, as `ask`
	// answers it: nothing to plan.
	if opts.Previous == "" && len(opts.Answers) == 0 {
		v, err := insight.NewOf(s, net.Compute())
		if err != nil {
			return err
		}
		if ans, ok := insight.AnswerIfQuestion(v, opts.Prompt); ok {
			if opts.Format == "json" {
				enc := json.NewEncoder(opts.io.Out)
				enc.SetIndent("", "  ")
				return enc.Encode(planOutput{Ops: []schedule.Op{}, Answer: ans.Answer, Activities: ans.Activities})
			}
			_, err := fmt.Fprintln(opts.io.Out, ans.Answer)
			return err
		}
	}
	planner, _, err := opts.planning.Planner()
	if err != nil {
		return err
	}
	in := scope.PlanInput{Prompt: opts.Prompt, Round: 1}
	var remembered []string
	if opts.Previous != "" {
		prev, err := readPreviousRound(opts.Previous)
		if err != nil {
			return err
		}
		in.Round, in.Feedback, in.Previous = 2, opts.Feedback, prev
		// As a dispatch does: what the feedback asks to remember is a
		// preference the round is planned with (nothing is saved here),
		// and the rest is the feedback; only preferences plan afresh.
		if stmts, rest, notes := prefs.Remember(opts.Feedback); len(stmts) > 0 {
			var p prefs.Preferences
			for _, st := range stmts {
				if err := prefs.Set(&p, st.Key, st.Value); err != nil {
					notes = append(notes, fmt.Sprintf("%q: not used: %v", st.Sentence, err))
					continue
				}
				remembered = append(remembered, "preference for this round (a dispatch would save it for the schedule): "+st.Summary)
			}
			remembered = append(remembered, notes...)
			in.Preferences, in.Feedback = &p, rest
			if rest == "" {
				in.Previous = nil
			}
		}
	}
	answers := opts.Answers
	var round *scope.Round
	for {
		if round, err = scope.PlanRound(ctx, planner, s, in); err != nil {
			return err
		}
		if round.Question == "" || len(answers) == 0 {
			break
		}
		in.Clarifications = append(in.Clarifications, scope.Clarification{About: round.About, Question: round.Question, Answer: answers[0]})
		answers = answers[1:]
	}
	round.Notes = append(remembered, round.Notes...)
	var rating *schedule.RiskRating
	if len(round.Ops) > 0 && round.After != nil {
		rating = rateRound(s, round.After)
	}
	if opts.Format == "json" {
		out := planOutput{Ops: round.Ops, Question: round.Question, Notes: round.Notes, Usage: round.Usage, Risk: rating}
		if out.Ops == nil {
			out.Ops = []schedule.Op{}
		}
		enc := json.NewEncoder(opts.io.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	w := opts.io.Out
	if round.Question != "" {
		fmt.Fprintf(w, "The planner asks: %s\n(answer with --answer %q)\n", round.Question, "…")
		return nil
	}
	for _, n := range round.Notes {
		if feedbackNoteRank(n) == 0 {
			fmt.Fprintf(w, "Note: %s\n", strings.TrimSpace(n))
		}
	}
	// The risk before the changes: only what became of the feedback
	// comes first.
	if err := render.WriteRiskRating(w, rating, render.DiffOptions{Color: opts.io.OutIsTTY}); err != nil {
		return err
	}
	if len(round.Ops) == 0 {
		fmt.Fprintln(w, "No changes.")
	} else {
		fmt.Fprintf(w, "%d change(s):\n", len(round.Ops))
		for _, op := range round.Ops {
			fmt.Fprintf(w, "  %s\n", op.Call)
			if op.Source != "" {
				fmt.Fprintf(w, "      from %q\n", op.Source)
			}
		}
		fmt.Fprintln(w)
		if err := render.WriteChangeDiff(w, s, round.After, render.DiffOptions{Color: opts.io.OutIsTTY, Rating: rating}); err != nil {
			return err
		}
	}
	for _, n := range round.Notes {
		if feedbackNoteRank(n) != 0 {
			fmt.Fprintf(w, "Note: %s\n", strings.TrimSpace(n))
		}
	}
	return nil
}

// readPreviousRound reads the ops of a round from `plan --format json`
// output (or a bare JSON list of ops).
func readPreviousRound(path string) ([]schedule.Op, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("plan: --previous: %w", err)
	}
	var out planOutput
	if err := json.Unmarshal(raw, &out); err != nil {
		var ops []schedule.Op
		if err2 := json.Unmarshal(raw, &ops); err2 != nil {
			return nil, fmt.Errorf("plan: --previous %s: not the JSON of `plan --format json`: %v", path, err)
		}
		return ops, nil
	}
	for i, op := range out.Ops {
		if op.Kind == "" {
			return nil, fmt.Errorf("plan: --previous %s: ops[%d] has no \"op\"", path, i)
		}
	}
	return out.Ops, nil
}

// rateRound is the risk rating of going from before to after, as a
// dispatch's impact carries it; nil when CPM refuses either version (the
// diff then says why).
func rateRound(before, after *schedule.Schedule) *schedule.RiskRating {
	rb, err := schedule.Analyze(before)
	if err != nil {
		return nil
	}
	ra, err := schedule.Analyze(after)
	if err != nil {
		return nil
	}
	r, err := changerisk.Rate(before, after, rb, ra)
	if err != nil {
		return changerisk.Unrated(err)
	}
	return r
}
