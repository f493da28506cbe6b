package devserver

import (
	"bytes"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"

	"go.temporal.io/server/common/log/tag"
)

// TestSlowCallsAreNoWarnings: the frontend's "Slow gRPC call" (every
// workflow update waits for the workflow) is a debug notice, so a normal
// dev run logs no warnings; other warnings and errors still show.
func TestSlowCallsAreNoWarnings(t *testing.T) {
	var out bytes.Buffer
	l := slogLogger{l: slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelWarn})), muted: &atomic.Bool{}}
	l.Warn("Slow gRPC call", tag.NewStringTag("method", "/temporal.api.workflowservice.v1.WorkflowService/UpdateWorkflowExecution"))
	if out.Len() != 0 {
		t.Errorf("a slow update call was logged as a warning: %s", out.String())
	}
	l.Warn("Fail to process task")
	l.Error("Slow gRPC call")
	if got := out.String(); !strings.Contains(got, "level=WARN msg=\"Fail to process task\"") || !strings.Contains(got, "level=ERROR msg=\"Slow gRPC call\"") {
		t.Errorf("other warnings and errors must still show, got:\n%s", got)
	}
}
