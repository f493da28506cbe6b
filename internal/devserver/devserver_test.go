package devserver_test

import (
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/autoscheduler/autoscheduler/internal/devserver"
)

const (
	taskQueue  = "devserver-test"
	workflowID = "devserver-test-greet"
)

func Greet(ctx workflow.Context, name string) (string, error) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: 10 * time.Second})
	var greeting string
	err := workflow.ExecuteActivity(ctx, Greeting, name).Get(ctx, &greeting)
	return greeting, err
}

func Greeting(_ context.Context, name string) (string, error) {
	return "hello " + name, nil
}

func TestDevServerPersistsAcrossRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dbPath := filepath.Join(t.TempDir(), "temporal.db")
	opts := devserver.Options{
		DBPath:    dbPath,
		Address:   "127.0.0.1:0",
		UIAddress: "127.0.0.1:0",
		SearchAttributes: map[string]enums.IndexedValueType{
			"ScheduleID":    enums.INDEXED_VALUE_TYPE_KEYWORD,
			"DispatchStage": enums.INDEXED_VALUE_TYPE_KEYWORD,
		},
	}

	srv, err := devserver.Start(ctx, opts)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	defer srv.Stop()
	c := dial(t, srv)

	w := worker.New(c, taskQueue, worker.Options{})
	w.RegisterWorkflow(Greet)
	w.RegisterActivity(Greeting)
	if err := w.Start(); err != nil {
		t.Fatalf("start worker: %v", err)
	}
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
		ID:        workflowID,
		TaskQueue: taskQueue,
		TypedSearchAttributes: temporal.NewSearchAttributes(
			temporal.NewSearchAttributeKeyKeyword("ScheduleID").ValueSet("x")),
	}, Greet, "dev")
	if err != nil {
		t.Fatalf("start workflow: %v", err)
	}
	var got string
	if err := run.Get(ctx, &got); err != nil || got != "hello dev" {
		t.Fatalf("workflow result = %q, %v; want %q", got, err, "hello dev")
	}
	waitListed(ctx, t, c, `ScheduleID = "x"`, workflowID)

	resp, err := http.Get(srv.UIURL())
	if err != nil {
		t.Fatalf("GET UI: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(strings.ToLower(string(body)), "<html") {
		t.Fatalf("GET %s = %d, body %.200q; want 200 with HTML", srv.UIURL(), resp.StatusCode, body)
	}

	assertLoopbackListeners(t, 6) // frontend gRPC and HTTP, history, matching, worker, UI

	w.Stop()
	c.Close()
	if err := srv.Stop(); err != nil {
		t.Fatalf("stop: %v", err)
	}

	// Same file again: the schema and namespace exist, the history is kept, and a search
	// attribute the file lacks is added.
	opts.UIAddress = "-"
	opts.SearchAttributes["Extra"] = enums.INDEXED_VALUE_TYPE_KEYWORD
	srv, err = devserver.Start(ctx, opts)
	if err != nil {
		t.Fatalf("restart: %v", err)
	}
	defer srv.Stop()
	if srv.UIURL() != "" {
		t.Errorf("UIURL() = %q with the UI disabled", srv.UIURL())
	}
	c = dial(t, srv)
	desc, err := c.DescribeWorkflowExecution(ctx, workflowID, "")
	if err != nil {
		t.Fatalf("describe after restart: %v", err)
	}
	if st := desc.GetWorkflowExecutionInfo().GetStatus(); st != enums.WORKFLOW_EXECUTION_STATUS_COMPLETED {
		t.Fatalf("status after restart = %v, want completed", st)
	}
	sas, err := c.OperatorService().ListSearchAttributes(ctx,
		&operatorservice.ListSearchAttributesRequest{Namespace: "default"})
	if err != nil {
		t.Fatalf("list search attributes: %v", err)
	}
	for name := range opts.SearchAttributes {
		if _, ok := sas.GetCustomAttributes()[name]; !ok {
			t.Errorf("search attribute %s missing after restart; have %v", name, sas.GetCustomAttributes())
		}
	}
	c.Close()
	if err := srv.Stop(); err != nil {
		t.Fatalf("stop after restart: %v", err)
	}
}

func dial(t *testing.T, srv *devserver.Server) client.Client {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	c, err := client.Dial(client.Options{
		HostPort: srv.FrontendAddress(),
		Logger:   sdklog.NewStructuredLogger(quiet),
	})
	if err != nil {
		t.Fatalf("dial %s: %v", srv.FrontendAddress(), err)
	}
	return c
}

// waitListed polls visibility, which is updated asynchronously, until query finds id.
func waitListed(ctx context.Context, t *testing.T, c client.Client, query, id string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Query: query})
		if err == nil {
			for _, e := range resp.GetExecutions() {
				if e.GetExecution().GetWorkflowId() == id {
					return
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not list %s within 10s (last error: %v)", query, id, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// assertLoopbackListeners checks that every TCP socket this process listens on is bound to a
// loopback address, and that there are at least want of them.
func assertLoopbackListeners(t *testing.T, want int) {
	t.Helper()
	inodes := socketInodes(t)
	n := 0
	for _, file := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Skipf("no %s: %v", file, err)
		}
		for _, line := range strings.Split(string(data), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) < 10 || f[3] != "0A" || !inodes[f[9]] { // 0A = LISTEN
				continue
			}
			ip, err := procIP(strings.Split(f[1], ":")[0])
			if err != nil {
				t.Fatalf("parse %s: %v", f[1], err)
			}
			if !ip.IsLoopback() {
				t.Errorf("listening on %s (%s), not loopback", ip, f[1])
			}
			n++
		}
	}
	if n < want {
		t.Errorf("found %d listening sockets, want at least %d", n, want)
	}
}

// socketInodes lists the inodes of this process's open sockets.
func socketInodes(t *testing.T) map[string]bool {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	inodes := map[string]bool{}
	for _, fd := range fds {
		link, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if inode, ok := strings.CutPrefix(link, "socket:["); err == nil && ok {
			inodes[strings.TrimSuffix(inode, "]")] = true
		}
	}
	return inodes
}

// procIP decodes a /proc/net/tcp{,6} address: 32-bit words in host (little-endian) order.
func procIP(s string) (net.IP, error) {
	b, err := hex.DecodeString(s)
	if err != nil || (len(b) != 4 && len(b) != 16) {
		return nil, fmt.Errorf("bad address %q", s)
	}
	for i := 0; i < len(b); i += 4 {
		b[i], b[i+1], b[i+2], b[i+3] = b[i+3], b[i+2], b[i+1], b[i]
	}
	return net.IP(b), nil
}
