package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/autoscheduler/autoscheduler/internal/devserver"
	"github.com/autoscheduler/autoscheduler/internal/embed"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/store/embedded"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// A worker process is SIGKILLed right after the dispatch's first write
// reached the stores; a new worker finishes the dispatch. No write is
// duplicated and none is lost: the stores end exactly as the ops engine
// says, and agree with each other.
func TestWorkerCrashMidDispatch(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	ctx := context.Background()
	dir := t.TempDir()
	bin := filepath.Join(dir, "worker")
	build := exec.Command("go", "build", "-o", bin, "../worker")
	build.Env = append(os.Environ(), "GOTOOLCHAIN=local")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the worker: %v\n%s", err, out)
	}
	db := filepath.Join(dir, "store.db")
	if code, _, errOut := runCLI(t, "import", "../examples/building.json", "--schedule", "building", "--db", db, "--neo4j-uri=", "--weaviate-url="); code != 0 {
		t.Fatalf("import: %s", errOut)
	}
	srv, err := devserver.Start(ctx, devserver.Options{
		DBPath: filepath.Join(dir, "temporal.db"), Address: "127.0.0.1:0", UIAddress: "-",
		SearchAttributes: workflows.SearchAttributes(),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()

	var logs bytes.Buffer
	startWorker := func() *exec.Cmd {
		cmd := exec.Command(bin, "--temporal-address", srv.FrontendAddress(), "--db", db, "--neo4j-uri=", "--weaviate-url=")
		cmd.Stdout, cmd.Stderr = &logs, &logs
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		return cmd
	}
	defer func() {
		if t.Failed() {
			t.Logf("worker logs:\n%s", logs.String())
		}
	}()

	// The test reads the same store file the workers write.
	reader, err := embedded.Open(ctx, db, embedded.Options{Tokenize: embed.Normalize})
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close(ctx)
	stores := &store.Coordinator{Graph: reader.Graph(), Vectors: reader.Vectors(), Embedder: embed.NewLocal(0)}
	original, err := stores.Load(ctx, "building")
	if err != nil {
		t.Fatal(err)
	}

	first := startWorker()
	tc, err := client.Dial(client.Options{HostPort: srv.FrontendAddress(), Logger: quietSDKLogger(newTestStreams())})
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	id := workflows.DispatchWorkflowID("building")
	run, err := tc.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: workflows.TaskQueue},
		workflows.DispatchWorkflow, workflows.DispatchInput{ScheduleID: "building", Prompt: "delete activity Final cleaning"})
	if err != nil {
		t.Fatal(err)
	}
	// Kill the worker the moment the first write shows in the graph store.
	deadline := time.Now().Add(time.Minute)
	for {
		s, err := stores.Load(ctx, "building")
		if err == nil {
			if _, still := s.Activity("A143"); !still {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the first write never reached the store")
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := first.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()

	startWorker()
	updateCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	handle, err := tc.UpdateWorkflow(updateCtx, client.UpdateWorkflowOptions{WorkflowID: id, RunID: run.GetRunID(),
		UpdateName: workflows.ProposalUpdate, WaitForStage: client.WorkflowUpdateStageCompleted,
		Args: []any{workflows.ProposalRequest{Round: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	var proposal workflows.Proposal
	if err := handle.Get(updateCtx, &proposal); err != nil {
		t.Fatal(err)
	}
	if err := workflows.SendReview(updateCtx, tc, id, workflows.Review{Decision: "accept"}); err != nil {
		t.Fatal(err)
	}
	var res workflows.DispatchResult
	if err := run.Get(updateCtx, &res); err != nil {
		t.Fatal(err)
	}
	if res.Status != workflows.StatusAccepted || len(res.Changes) != 1 {
		t.Fatalf("result: %+v", res)
	}

	want := original.Clone()
	op := res.Changes[0].Op
	if _, err := schedule.Apply(want, &op); err != nil {
		t.Fatal(err)
	}
	got, err := stores.Load(ctx, "building")
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, _ := json.Marshal(want)
	gotJSON, _ := json.Marshal(got)
	if !bytes.Equal(wantJSON, gotJSON) {
		t.Fatal("after the crash the stored schedule is not the original with the one change applied once")
	}
	drift, err := stores.Verify(ctx, "building")
	if err != nil || len(drift) > 0 {
		t.Fatalf("the stores disagree after the crash: %v %v", drift, err)
	}
}
