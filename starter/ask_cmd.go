package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/insight"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/internal/versions/since"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

// askOptions are the flags of `autoscheduler ask`.
type askOptions struct {
	io       *cmdutil.IOStreams
	stores   *config.Stores
	planning *config.Planning
	Question string
	File     string
	Schedule string
	JSON     bool
	// Full prints every activity of a long path or list (else the first
	// askKeep and how many more).
	Full bool
}

// askKeep is how many activities of a long path or list an answer shows
// without --full.
const askKeep = 8

// askHelp lists the question forms the offline reader answers.
const askHelp = `Answer a question about a schedule from its critical path (CPM) computation, without
changing anything. The question is read offline by the same language layer as the
planner: typos are corrected against the schedule's own names, synonyms are understood,
and names are resolved as the planner resolves them. A name that matches several
activities is answered with the matches, asking which one; a question none of the forms
reads is answered with the forms. Every number in an answer comes from the CPM engine.

Question forms (X and Y are activities, by name or id; N is working days, or weeks):
  what drives X / what is X waiting for / driving path to X
      the chain of links with no relationship free float leading to X, in path order
  why is X critical                 X's floats, the path driving it and what it drives
  why is X so late / why does X start so late
  what's critical on level 3 / critical activities in drywall
  float of X / how much float does X have / is X critical
  what is the critical path         every critical activity, by early start
  path to finish / what drives the finish
  near critical [within N days] / activities with float under N days
      near critical: total float above 0 and at most N days (default 5); "float
      under N days" counts critical activities too
  float by level / float by trade   count, critical count, least and mean total float
  tell me about X / when does X start
  when does the project finish
  what if X takes N days / what if X takes N more days
  what if X starts N days later     modelled as a start no earlier than its early
                                    start plus N (a what-if milestone at the project
                                    start, linked FS with that lag); the logic into X
                                    and its predecessors' floats are unchanged
  what if X loses its link to Y     every relationship between X and Y, either way
  what slipped since the last update / what changed since last month
                                    (--schedule) the previous version kept (see versions)
                                    against now: the finish's move and why, what
                                    finishes later, what was added, removed, changed
What-ifs run on a copy; nothing is written anywhere.

With an LLM configured (--llm openai, or auto with OPENAI_API_KEY or OPENAI_BASE_URL set,
as for plan), the model answers instead, with the read tools only: it cannot change
anything (a call to any other tool is refused, never run). Its answer must be grounded:
every number and date in it copied from a tool result (or the question), every activity
it cites one a tool returned. An answer that is not goes back to the model to correct;
if it still is not, the offline answer is given, with a note saying so. Token usage goes
to standard error. --llm rules answers offline.

A path or list longer than 8 activities is shortened: a path to its first 7, "… 42 more …"
and its last; a list to its first 8 and "… and 42 more". --full prints them whole.

--json prints {"answer": "...", "activities": ["A009", ...]} (the answer whole): the ids the answer rests
on (for a path, in path order; for the critical path, every critical activity in the
CPM report's critical_path order).

Exit status: 0 when answered (including "which one do you mean?" and the list of forms),
1 on an error (an unknown schedule, a file that cannot be read), 2 on a usage error.`

func newAskCmd(f *Factory, runF func(context.Context, *askOptions) error) *cobra.Command {
	opts := &askOptions{io: f.IOStreams, stores: f.Stores, planning: f.Planning}
	cmd := &cobra.Command{
		Use:   `ask "QUESTION" (--file FILE | --schedule ID) [--json]`,
		Short: "Ask a question about a schedule (critical path, drivers, float, what-if)",
		Long:  askHelp,
		Example: `  autoscheduler ask "what drives Painting Level 4" --file examples/building.json
  autoscheduler ask "what's critical on level 3" --schedule building --json
  autoscheduler ask "what if piling takes 5 more days" --file examples/building.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Question = args[0]
			if strings.TrimSpace(opts.Question) == "" {
				return usagef("ask: the question is empty")
			}
			if (opts.File == "") == (opts.Schedule == "") {
				return usagef("ask: give one of --file and --schedule")
			}
			return cmdutil.RunOr(cmd, opts, runF, askRun)
		},
	}
	cmd.Flags().StringVarP(&opts.File, "file", "f", "", "schedule file (.json, .xml MSPDI, .xer P6)")
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "stored schedule id (see import)")
	cmdutil.AddJSONFlag(cmd.Flags(), &opts.JSON, `print {"answer": "...", "activities": [...]}`)
	cmd.Flags().BoolVar(&opts.Full, "full", false, "print long paths and lists whole")
	return cmd
}

func askRun(ctx context.Context, opts *askOptions) error {
	// "What slipped since the last update" is answered from the stored
	// schedule's previous version (versions), before any other reader.
	if opts.Schedule != "" && since.Asked(opts.Question) {
		ans, err := answerSinceUpdate(ctx, opts.stores, opts.Schedule)
		if err != nil {
			return err
		}
		return writeAnswer(opts.io, opts.JSON, opts.Full, ans)
	}
	v, err := loadView(ctx, opts.stores, opts.io.ErrOut, opts.File, opts.Schedule)
	if err != nil {
		return err
	}
	asker, err := askerFor(opts.planning)
	if err != nil {
		return err
	}
	if asker == nil {
		return writeAnswer(opts.io, opts.JSON, opts.Full, insight.Ask(v, opts.Question))
	}
	res, err := asker.AskDetailed(ctx, v, opts.Question)
	u := res.Usage
	fmt.Fprintf(opts.io.ErrOut, "token usage: %d prompt + %d completion = %d tokens in %d model call(s)\n", u.PromptTokens, u.CompletionTokens, u.TotalTokens(), u.Calls)
	if err != nil {
		return err
	}
	return writeAnswer(opts.io, opts.JSON, opts.Full, res.Answer)
}

// askerFor is the LLM asker when planning configures an LLM (the same
// rules as the planners: --llm auto|rules|openai, OPENAI_API_KEY,
// OPENAI_BASE_URL), else nil: the offline answerer.
func askerFor(planning *config.Planning) (*scope.Asker, error) {
	if planning == nil {
		return nil, nil
	}
	p, _, err := planning.Planner()
	if err != nil {
		return nil, err
	}
	if m, ok := p.(*scope.Manager); ok {
		return &scope.Asker{LLM: m.LLM}, nil
	}
	return nil, nil
}

// printAnswer prints an answer as writeAnswer does, long paths and lists
// shortened.
func printAnswer(io *cmdutil.IOStreams, asJSON bool, ans insight.Answer) error {
	return writeAnswer(io, asJSON, false, ans)
}

// writeAnswer prints an offline answer: its words (long paths and lists
// shortened unless full), or with asJSON exactly {"answer": "...",
// "activities": [...]}, whole.
func writeAnswer(io *cmdutil.IOStreams, asJSON, full bool, ans insight.Answer) error {
	if asJSON {
		return cmdutil.WriteJSON(io.Out, ans)
	}
	text := ans.Answer
	if !full {
		text = ans.Collapsed(askKeep)
	}
	_, err := fmt.Fprintln(io.Out, text)
	return err
}
