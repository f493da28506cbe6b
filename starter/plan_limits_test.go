package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// TestPlanAndPromptRefuseTooLongText: a prompt, feedback or answer over
// scope.MaxPrompt characters is a usage error (exit 2) saying why, before
// anything is planned or a dispatch starts.
func TestPlanAndPromptRefuseTooLongText(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	long := strings.Repeat("delete Painting Level 2. ", scope.MaxPrompt/25+1)
	prev := filepath.Join(t.TempDir(), "round1.json")
	if err := os.WriteFile(prev, []byte(`{"ops": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"plan", long, "--file", "../examples/building.json"},
		{"plan", "delete Painting Level 2", "--file", "../examples/building.json", "--previous", prev, "--feedback", long},
		{"plan", "delete the pour", "--file", "../examples/building.json", "--answer", long},
		{"prompt", long, "--schedule", "building"},
		{"prompt", "delete the pour", "--schedule", "building", "--answer", long},
	} {
		code, _, errOut := runCLI(t, args...)
		if code != 2 || !strings.Contains(errOut, "too long to plan") || !strings.Contains(errOut, "at most 16384") {
			t.Errorf("%s … %s: exit %d, %s", args[0], args[len(args)-2], code, errOut)
		}
	}
	// Up to the cap is planned.
	code, _, errOut := runCLI(t, "plan", strings.Repeat("delete Painting Level 2. ", scope.MaxPrompt/25-1), "--file", "../examples/building.json")
	if code != 0 {
		t.Errorf("a prompt under the cap: exit %d, %s", code, errOut)
	}
}

// TestPlanInterrupted: `plan` whose context is cancelled (SIGINT or
// SIGTERM: the root command's signal.NotifyContext) stops with an error
// saying so, and prints no plan.
func TestPlanInterrupted(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	var out, errOut bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var sb strings.Builder
	for i := 0; sb.Len() < 10<<10; i++ {
		sb.WriteString("extend Painting Level 2 by 1 day; link Tiling Level 3 to Flooring Level 3 SS; ")
	}
	opts := &planOptions{io: &cmdutil.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}, planning: &config.Planning{}, Prompt: sb.String(), File: "../examples/building.json", Format: "json"}
	err := planRun(ctx, opts)
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("err = %v", err)
	}
	if out.Len() > 0 {
		t.Errorf("an interrupted plan printed:\n%s", out.String())
	}
}

// TestPromptReadsStopWhenInterrupted: waiting at the review prompt (or
// for an answer) on a terminal that says nothing, Ctrl-C ends the wait:
// a read of standard input alone would block on after the signal.
func TestPromptReadsStopWhenInterrupted(t *testing.T) {
	r, w := io.Pipe() // a terminal nobody types into
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var errOut bytes.Buffer
	opts := &promptOptions{io: &cmdutil.IOStreams{In: r, Out: io.Discard, ErrOut: &errOut}, ctx: ctx}
	in := bufio.NewReader(r)
	done := make(chan error, 2)
	go func() {
		_, err := decide(opts, in, 1)
		done <- err
	}()
	time.Sleep(20 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("decide: err = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the review prompt did not stop when interrupted")
	}
	go func() {
		_, err := askAnswer(opts, in, "dispatch-building", workflows.Proposal{Question: "which pour?"})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("askAnswer: err = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the answer prompt did not stop when interrupted")
	}
	if msg := interrupted("dispatch-building").Error(); !strings.Contains(msg, "autoscheduler dispatch cancel dispatch-building") {
		t.Errorf("interrupted: %s", msg)
	}
}
