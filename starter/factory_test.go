package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
	"github.com/autoscheduler/autoscheduler/starter/riskcmd"
	"github.com/autoscheduler/autoscheduler/starter/schedulecmd"
)

// errParsed stops a command after runF has seen its options.
var errParsed = errors.New("parsed")

// parse runs cmd with args under a root holding the global flags, as
// newRoot does; runF, given to cmd, records the options.
func parse(t *testing.T, f *Factory, cmd *cobra.Command, args ...string) (stderr string, err error) {
	t.Helper()
	root := cmdutil.NewRoot(f.IOStreams.In, f.IOStreams.Out, f.IOStreams.ErrOut)
	f.bindFlags(root)
	root.AddCommand(cmd)
	root.SetArgs(args)
	err = root.ExecuteContext(context.Background())
	return f.IOStreams.ErrOut.(*bytes.Buffer).String(), err
}

func testFactory() *Factory {
	return newFactory(&cmdutil.IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, nil)
}

// TestFlagsReachOptions: each command's flags, its parent's persistent
// ones and the global ones land in its options before runF — no store or
// Temporal is touched.
func TestFlagsReachOptions(t *testing.T) {
	f := testFactory()
	parent := &cobra.Command{Use: "activity"}
	fl := bindEditFlags(parent, "print JSON")
	var add *activityAddOptions
	parent.AddCommand(newActivityAddCmd(f, fl, func(_ context.Context, o *activityAddOptions) error { add = o; return errParsed }))
	if _, err := parse(t, f, parent, "activity", "add", "-s", "building", "--name", "Scaffold", "--duration", "pert(1,2,4)", "--json", "--as", "dana"); err != errParsed {
		t.Fatalf("activity add: %v", err)
	}
	if add.Schedule != "building" || !add.JSON || add.Activity.Name != "Scaffold" || add.Activity.Duration != "pert(1,2,4)" || add.temporal.who() != "dana" {
		t.Errorf("activity add options: %+v", add)
	}
	// A usage error is refused before runF.
	f = testFactory()
	parent = &cobra.Command{Use: "activity"}
	fl = bindEditFlags(parent, "print JSON")
	parent.AddCommand(newActivityAddCmd(f, fl, func(context.Context, *activityAddOptions) error { t.Error("runF ran"); return nil }))
	if _, err := parse(t, f, parent, "activity", "add", "--name", "x", "--duration", "1"); err == nil || err.Error() != "activity: --schedule is required" {
		t.Errorf("activity add without --schedule: %v", err)
	}

	f = testFactory()
	var review *portfolioReviewOptions
	cmd := newPortfolioReviewCmd(f, func(_ context.Context, o *portfolioReviewOptions) error { review = o; return errParsed })
	if _, err := parse(t, f, cmd, "review", "portfolio-1", "reject", "--schedule", "a,b", "--feedback", "not level 3", "--json"); err != errParsed {
		t.Fatalf("portfolio review: %v", err)
	}
	if review.ID != "portfolio-1" || review.Decision != "reject" || strings.Join(review.Schedules, ",") != "a,b" || review.Feedback != "not level 3" || !review.JSON {
		t.Errorf("portfolio review options: %+v", review)
	}

	f = testFactory()
	var undo *dispatchUndoOptions
	cmd = newDispatchUndoCmd(f, func(_ context.Context, o *dispatchUndoOptions) error { undo = o; return errParsed })
	if _, err := parse(t, f, cmd, "undo", "dispatch-building", "--run", "r1", "--json", "--db", "/tmp/x.db"); err != errParsed {
		t.Fatalf("dispatch undo: %v", err)
	}
	if undo.ID != "dispatch-building" || undo.RunID != "r1" || !undo.JSON || undo.stores.DBPath != "/tmp/x.db" {
		t.Errorf("dispatch undo options: %+v", undo)
	}
}

// TestOutputFlags: --json and --format json are the same for plan,
// schedule and risk; plan's --format is hidden.
func TestOutputFlags(t *testing.T) {
	for _, args := range [][]string{{"--json"}, {"--format", "json"}} {
		f := testFactory()
		var plan *planOptions
		cmd := newPlanCmd(f, func(_ context.Context, o *planOptions) error { plan = o; return errParsed })
		if _, err := parse(t, f, cmd, append([]string{"plan", "delete the pour", "--file", "x.json"}, args...)...); err != errParsed || plan.Format != "json" {
			t.Errorf("plan %q: %v %+v", args, err, plan)
		}
		f = testFactory()
		var sched *schedulecmd.Options
		cmd = newScheduleCmd(f, func(_ context.Context, o *schedulecmd.Options) error { sched = o; return errParsed })
		if _, err := parse(t, f, cmd, append([]string{"schedule", "--file", "x.json"}, args...)...); err != errParsed || sched.Format != "json" {
			t.Errorf("schedule %q: %v %+v", args, err, sched)
		}
		f = testFactory()
		var risk *riskcmd.Options
		cmd = riskcmd.New(f.IOStreams.Out, f.IOStreams.ErrOut, nil, func(_ context.Context, o *riskcmd.Options) error { risk = o; return errParsed })
		if _, err := parse(t, f, cmd, append([]string{"risk", "--file", "x.json"}, args...)...); err != errParsed || risk.Format != "json" {
			t.Errorf("risk %q: %v %+v", args, err, risk)
		}
	}
	if flag := newPlanCmd(testFactory(), nil).Flags().Lookup("format"); flag == nil || !flag.Hidden {
		t.Errorf("plan --format: %+v", flag)
	}
}

// TestDevListen: dev's --listen is what its server binds; the old --address
// still sets it (hidden; a warning on stderr points to --listen), and the
// global --temporal-address, where clients dial, is apart.
func TestDevListen(t *testing.T) {
	if liteBuild {
		t.Skip("the lite build hands dev over to the full binary")
	}
	for _, tc := range []struct {
		args []string
		want string
		warn bool
	}{
		{nil, config.DefaultTemporalAddress, false},
		{[]string{"--listen", "127.0.0.1:7301"}, "127.0.0.1:7301", false},
		{[]string{"--address", "127.0.0.1:7302"}, "127.0.0.1:7302", true},
	} {
		f := testFactory()
		var dev *devOptions
		cmd := newDevCmd(f, func(_ context.Context, o *devOptions) error { dev = o; return errParsed })
		stderr, err := parse(t, f, cmd, append([]string{"dev", "--temporal-address", "10.0.0.1:7233"}, tc.args...)...)
		if err != errParsed || dev.Listen != tc.want || f.Temporal.Address != "10.0.0.1:7233" {
			t.Errorf("dev %q: %v, listen %q, temporal %q", tc.args, err, dev.Listen, f.Temporal.Address)
		}
		if warned := strings.Contains(stderr, "--address is deprecated: use --listen"); warned != tc.warn {
			t.Errorf("dev %q: stderr %q", tc.args, stderr)
		}
		if flag := cmd.Flags().Lookup("address"); !flag.Hidden {
			t.Errorf("dev --address shows in the help")
		}
	}
}
