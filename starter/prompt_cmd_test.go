package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/api/enums/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// fakeTemporal is the part of client.Client the CLI's dispatch commands
// use, scripted; any other method panics (the embedded nil interface).
type fakeTemporal struct {
	client.Client
	inputs    []workflows.DispatchInput
	proposals []workflows.Proposal
	reviews   []workflows.Review
	answers   []workflows.Clarification
	result    workflows.DispatchResult
	results   map[string]workflows.DispatchResult // by run ID, for GetWorkflow
	pages     [][]*workflowpb.WorkflowExecutionInfo
	listCalls int
}

func (f *fakeTemporal) dial() (client.Client, error) { return f, nil }
func (f *fakeTemporal) Close()                       {}

func (f *fakeTemporal) ExecuteWorkflow(_ context.Context, opts client.StartWorkflowOptions, _ any, args ...any) (client.WorkflowRun, error) {
	f.inputs = append(f.inputs, args[0].(workflows.DispatchInput))
	return &fakeRun{id: opts.ID, runID: "run-1", res: f.result}, nil
}

func (f *fakeTemporal) GetWorkflow(_ context.Context, id, runID string) client.WorkflowRun {
	if res, ok := f.results[runID]; ok {
		return &fakeRun{id: id, runID: runID, res: res}
	}
	return &fakeRun{id: id, runID: "run-1", res: f.result}
}

func (f *fakeTemporal) UpdateWorkflow(_ context.Context, opts client.UpdateWorkflowOptions) (client.WorkflowUpdateHandle, error) {
	switch opts.UpdateName {
	case workflows.ProposalUpdate:
		if len(f.proposals) == 0 {
			return nil, errors.New("the dispatch ended")
		}
		p := f.proposals[0]
		f.proposals = f.proposals[1:]
		return fakeHandle{p}, nil
	case workflows.ReviewUpdate:
		f.reviews = append(f.reviews, opts.Args[0].(workflows.Review))
	case workflows.ClarifyUpdate:
		f.answers = append(f.answers, opts.Args[0].(workflows.Clarification))
	}
	return fakeHandle{}, nil
}

func (f *fakeTemporal) ListWorkflow(_ context.Context, req *workflowservice.ListWorkflowExecutionsRequest) (*workflowservice.ListWorkflowExecutionsResponse, error) {
	f.listCalls++
	page := 0
	if len(req.NextPageToken) > 0 {
		fmt.Sscan(string(req.NextPageToken), &page)
	}
	resp := &workflowservice.ListWorkflowExecutionsResponse{Executions: f.pages[page]}
	if page+1 < len(f.pages) {
		resp.NextPageToken = []byte(fmt.Sprint(page + 1))
	}
	return resp, nil
}

type fakeRun struct {
	id, runID string
	res       workflows.DispatchResult
}

func (r *fakeRun) GetID() string                  { return r.id }
func (r *fakeRun) GetRunID() string               { return r.runID }
func (r *fakeRun) GetFirstExecutionRunID() string { return r.runID }
func (r *fakeRun) Get(_ context.Context, v any) error {
	return roundTrip(r.res, v)
}
func (r *fakeRun) GetWithOptions(ctx context.Context, v any, _ client.WorkflowRunGetOptions) error {
	return r.Get(ctx, v)
}

type fakeHandle struct{ v any }

func (h fakeHandle) WorkflowID() string { return "" }
func (h fakeHandle) RunID() string      { return "" }
func (h fakeHandle) UpdateID() string   { return "" }
func (h fakeHandle) Get(_ context.Context, v any) error {
	if v == nil || h.v == nil {
		return nil
	}
	return roundTrip(h.v, v)
}

func roundTrip(from, to any) error {
	b, err := json.Marshal(from)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, to)
}

// runFake runs the CLI against f, on a fresh embedded store holding the
// example building, with stdin.
func runFake(t *testing.T, f *fakeTemporal, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = runWith(append(args, storeArgs(t)...), &cmdutil.IOStreams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut}, f.dial)
	return code, out.String(), errOut.String()
}

// storeArgs is an embedded store with the example building as "building",
// one per test.
func storeArgs(t *testing.T) []string {
	t.Helper()
	if args, ok := buildingStores[t.Name()]; ok {
		return args
	}
	t.Setenv("OPENAI_API_KEY", "")
	args := embeddedArgs(t)
	if code, _, errOut := runCLI(t, append([]string{"import", "../examples/building.json", "--schedule", "building"}, args...)...); code != 0 {
		t.Fatalf("import: %s", errOut)
	}
	buildingStores[t.Name()] = args
	return args
}

var buildingStores = map[string][]string{}

func proposal(round int) workflows.Proposal {
	return workflows.Proposal{Round: round, Changes: []workflows.ChangeRecord{{Round: round, Call: `delete_activity(name="Handover")`, Status: workflows.ChangeApplied}}}
}

// Nothing starts for an empty prompt or a schedule the stores do not
// hold: before, both started a dispatch bound to fail (issue 12, item 8).
func TestPromptRefusesBeforeStarting(t *testing.T) {
	f := &fakeTemporal{}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"prompt", "", "-s", "building"}, exitUsage, "prompt: the prompt is empty"},
		{[]string{"prompt", "  \t ", "-s", "building"}, exitUsage, "prompt: the prompt is empty"},
		{[]string{"prompt", "delete activity Handover", "-s", "nosuch"}, exitError, `schedule not found: "nosuch"`},
		{[]string{"prompt", "delete activity Handover", "-s", "nosuch", "--no-wait"}, exitError, `schedule not found: "nosuch"`},
	} {
		code, out, errOut := runFake(t, f, "", tc.args...)
		if code != tc.code || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, out, errOut, tc.code, tc.want)
		}
	}
	if len(f.inputs) != 0 {
		t.Errorf("%d dispatches started", len(f.inputs))
	}
}

// The outcome decides the exit status: accepted and rejected are a
// person's choices (0), failed, timed_out and cancelled are not (1), with
// the error on stderr and the result still on stdout.
func TestPromptExitStatusByOutcome(t *testing.T) {
	for _, tc := range []struct {
		status, errText string
		code            int
	}{
		{workflows.StatusAccepted, "", exitOK},
		{workflows.StatusRejected, "", exitOK},
		{workflows.StatusFailed, "applying the changes: disk full", exitError},
		{workflows.StatusTimedOut, "", exitError},
		{workflows.StatusCancelled, "", exitError},
	} {
		for _, asJSON := range []bool{false, true} {
			f := &fakeTemporal{proposals: []workflows.Proposal{proposal(1)}, result: workflows.DispatchResult{Status: tc.status, Rounds: 1, Error: tc.errText}}
			args := []string{"prompt", "delete activity Handover", "-s", "building", "--as", "alice"}
			if asJSON {
				args = append(args, "--json")
			}
			code, out, errOut := runFake(t, f, "a\n", args...)
			if code != tc.code {
				t.Errorf("%s (json %v): exit %d, want %d\n%s%s", tc.status, asJSON, code, tc.code, out, errOut)
			}
			if asJSON {
				lines := strings.Split(strings.TrimSpace(out), "\n")
				var res workflows.DispatchResult
				if err := json.Unmarshal([]byte(lines[len(lines)-1]), &res); err != nil || res.Status != tc.status {
					t.Errorf("%s: the last JSON line is not the result: %q (%v)", tc.status, lines[len(lines)-1], err)
				}
			} else if want := fmt.Sprintf("dispatch-building: %s after 1 round(s)\n", tc.status); !strings.HasSuffix(out, want) {
				t.Errorf("%s: stdout does not end with %q:\n%s", tc.status, want, out)
			}
			if tc.errText != "" && ((!asJSON && strings.Contains(out, tc.errText)) || !strings.Contains(errOut, "autoscheduler: dispatch dispatch-building failed after 1 round(s): "+tc.errText)) {
				t.Errorf("%s: the error belongs on stderr only:\nstdout %s\nstderr %s", tc.status, out, errOut)
			}
			if tc.code == exitOK && strings.Contains(errOut, "autoscheduler:") {
				t.Errorf("%s: an error on stderr: %s", tc.status, errOut)
			}
			if len(f.inputs) != 1 || f.inputs[0].Author != "alice" || len(f.reviews) != 1 || f.reviews[0].Reviewer != "alice" {
				t.Errorf("%s: author and reviewer not recorded as alice: %+v %+v", tc.status, f.inputs, f.reviews)
			}
		}
	}
}

// A bad answer at the review question asks again; nothing is sent until a
// real answer comes (before, "x" exited 1 with the change left applied).
func TestPromptAsksAgainOnABadAnswer(t *testing.T) {
	f := &fakeTemporal{proposals: []workflows.Proposal{proposal(1)}, result: workflows.DispatchResult{Status: workflows.StatusRejected, Rounds: 1}}
	code, out, errOut := runFake(t, f, "x\nmaybe\n\nf\n\nr\n", "prompt", "delete activity Handover", "-s", "building")
	if code != exitOK || len(f.reviews) != 1 || f.reviews[0].Decision != "reject" || f.reviews[0].Feedback != "" {
		t.Fatalf("exit %d, reviews %+v\n%s%s", code, f.reviews, out, errOut)
	}
	if strings.Count(errOut, "[a/r/f]") != 5 || !strings.Contains(errOut, `"x" is not an answer`) || !strings.Contains(errOut, "No feedback given") {
		t.Errorf("the question was not asked again:\n%s", errOut)
	}
	if f.reviews[0].Reviewer == "" || f.inputs[0].Author == "" || f.inputs[0].Author == "cli" {
		t.Errorf("without --as, the OS user is recorded: author %q reviewer %q", f.inputs[0].Author, f.reviews[0].Reviewer)
	}

	// The input ends after a bad answer: an error, no review sent.
	f = &fakeTemporal{proposals: []workflows.Proposal{proposal(1)}}
	code, _, errOut = runFake(t, f, "x\n", "prompt", "delete activity Handover", "-s", "building")
	if code != exitError || len(f.reviews) != 0 || !strings.Contains(errOut, "no answer on standard input") {
		t.Errorf("EOF after a bad answer: exit %d, reviews %+v, %s", code, f.reviews, errOut)
	}
}

// review and clarify record --as; status lines go to stderr, the result to
// stdout; a timed-out dispatch exits 1.
func TestReviewAndClarify(t *testing.T) {
	f := &fakeTemporal{result: workflows.DispatchResult{Status: workflows.StatusRejected, Rounds: 1}}
	code, out, errOut := runFake(t, f, "", "review", "dispatch-building", "reject", "--as", "bob")
	if code != exitOK || out != "dispatch-building: rejected after 1 round(s)\n" || !strings.Contains(errOut, "reject sent as bob") {
		t.Errorf("review: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if len(f.reviews) != 1 || f.reviews[0].Reviewer != "bob" {
		t.Errorf("reviews: %+v", f.reviews)
	}
	f.result.Status = workflows.StatusTimedOut
	if code, _, errOut := runFake(t, f, "", "review", "dispatch-building", "accept", "--json"); code != exitError || !strings.Contains(errOut, "dispatch dispatch-building timed out") {
		t.Errorf("review of a dispatch that timed out: exit %d, %s", code, errOut)
	}
	code, out, errOut = runFake(t, f, "", "clarify", "dispatch-building", "Pour slab Level 2", "--as", "carol")
	if code != exitOK || out != "" || !strings.Contains(errOut, "answer sent") || len(f.answers) != 1 || f.answers[0].Author != "carol" {
		t.Errorf("clarify: exit %d, stdout %q, stderr %q, answers %+v", code, out, errOut, f.answers)
	}
}

func TestWho(t *testing.T) {
	cfg := &temporalConfig{As: "dana"}
	if cfg.who() != "dana" {
		t.Errorf("--as: %q", cfg.who())
	}
	cfg.As = ""
	if got := cfg.who(); got == "" || got == "cli" {
		t.Errorf("OS user: %q", got)
	}
}

func execution(id, runID string, status enums.WorkflowExecutionStatus, attrs, memo map[string]string) *workflowpb.WorkflowExecutionInfo {
	payloads := func(m map[string]string) map[string]*commonpb.Payload {
		out := map[string]*commonpb.Payload{}
		for k, v := range m {
			p, _ := converter.GetDefaultDataConverter().ToPayload(v)
			out[k] = p
		}
		return out
	}
	start := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	return &workflowpb.WorkflowExecutionInfo{
		Execution: &commonpb.WorkflowExecution{WorkflowId: id, RunId: runID}, Status: status,
		StartTime:        timestamppb.New(start),
		SearchAttributes: &commonpb.SearchAttributes{IndexedFields: payloads(attrs)},
		Memo:             &commonpb.Memo{Fields: payloads(memo)},
	}
}

// dispatch list reads every page and shows outcomes, not "completed": from
// DispatchOutcome, or for older dispatches from the result or the
// execution status (issue 12, item 14).
func TestDispatchListOutcomesAndPages(t *testing.T) {
	completed := enums.WORKFLOW_EXECUTION_STATUS_COMPLETED
	f := &fakeTemporal{
		pages: [][]*workflowpb.WorkflowExecutionInfo{
			{
				execution("dispatch-a", "r1", enums.WORKFLOW_EXECUTION_STATUS_RUNNING, map[string]string{"ScheduleID": "a", "DispatchStage": "awaiting_review"}, map[string]string{"author": "alice"}),
				execution("dispatch-a", "r2", completed, map[string]string{"ScheduleID": "a", "DispatchOutcome": "rejected"}, map[string]string{"author": "bob"}),
			},
			{
				execution("dispatch-b", "r3", completed, map[string]string{"ScheduleID": "b"}, nil),
				execution("dispatch-c", "r4", enums.WORKFLOW_EXECUTION_STATUS_FAILED, map[string]string{"ScheduleID": "c"}, nil),
			},
			{
				execution("dispatch-d", "r5", completed, map[string]string{"ScheduleID": "d", "DispatchOutcome": "timed_out"}, map[string]string{"author": "erin"}),
			},
		},
		results: map[string]workflows.DispatchResult{"r3": {Status: workflows.StatusCancelled}},
	}
	code, out, errOut := runFake(t, f, "", "dispatch", "list")
	if code != exitOK || f.listCalls != 3 {
		t.Fatalf("exit %d, %d list calls: %s", code, f.listCalls, errOut)
	}
	for _, want := range []string{
		"dispatch-a  open: awaiting_review  alice",
		"dispatch-a  rejected               bob",
		"dispatch-b  cancelled",
		"dispatch-c  failed",
		"dispatch-d  timed_out              erin",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("dispatch list lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "completed") {
		t.Errorf("an outcome shown as completed:\n%s", out)
	}
	f.listCalls = 0
	code, out, _ = runFake(t, f, "", "dispatch", "list", "--json")
	var list struct {
		Dispatches []workflows.Summary `json:"dispatches"`
	}
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || len(list.Dispatches) != 5 {
		t.Fatalf("--json: exit %d, %v\n%s", code, err, out)
	}
	if d := list.Dispatches[1]; d.Outcome != "rejected" || d.Author != "bob" || d.Schedule != "a" || d.RunID != "r2" || d.Open {
		t.Errorf("--json row: %+v", d)
	}
}

// The Temporal API key reaches no output, whatever fails (issue 12,
// item 17); a Temporal error chain is cut to its cause.
func TestAPIKeyNeverPrinted(t *testing.T) {
	const key = "tk-cli-sekrit-9f8e7d"
	t.Setenv("TEMPORAL_API_KEY", key)
	for _, args := range [][]string{
		{"dispatch", "list", "--temporal-address", "127.0.0.1:1"},
		{"review", "dispatch-x", "accept", "--temporal-tls-ca", "/nonexistent/" + key},
		{"dispatch", "list", "--help"},
	} {
		code, out, errOut := runCLI(t, args...)
		if strings.Contains(out+errOut, key) {
			t.Errorf("%v printed the API key (exit %d):\n%s%s", args, code, out, errOut)
		}
		if args[len(args)-1] != "--help" && (code != exitError || !strings.Contains(errOut, "API key")) {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

func TestRootCause(t *testing.T) {
	app := temporal.NewApplicationError(`schedule not found: "x"`, "NotFound")
	wrapped := fmt.Errorf("workflow execution error (type: DispatchWorkflow): %w", fmt.Errorf("activity error: %w", app))
	if got := workflows.RootCause(wrapped); got != `schedule not found: "x"` {
		t.Errorf("rootCause = %q", got)
	}
}
