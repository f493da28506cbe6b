package devserver

import (
	"context"
	"log/slog"
	"os"
	"sync/atomic"

	"go.temporal.io/server/common/log"
	"go.temporal.io/server/common/log/tag"
)

// slogLogger adapts a *slog.Logger to the Temporal server's log.Logger.
type slogLogger struct {
	l *slog.Logger
	// muted silences the warnings and errors every service logs while the server shuts
	// down (pollers losing their connection, cancelled persistence calls).
	muted *atomic.Bool
}

var _ log.Logger = slogLogger{}

func (s slogLogger) Debug(msg string, tags ...tag.Tag) { s.log(slog.LevelDebug, msg, tags) }
func (s slogLogger) Info(msg string, tags ...tag.Tag)  { s.log(slog.LevelInfo, msg, tags) }
func (s slogLogger) Warn(msg string, tags ...tag.Tag)  { s.log(slog.LevelWarn, msg, tags) }
func (s slogLogger) Error(msg string, tags ...tag.Tag) { s.log(slog.LevelError, msg, tags) }

// DPanic only panics in development builds of the server; here it is an error.
func (s slogLogger) DPanic(msg string, tags ...tag.Tag) { s.log(slog.LevelError, msg, tags) }

func (s slogLogger) Panic(msg string, tags ...tag.Tag) {
	s.log(slog.LevelError, msg, tags)
	panic(msg)
}

// Fatal keeps the server's contract: the process does not continue after it.
func (s slogLogger) Fatal(msg string, tags ...tag.Tag) {
	s.log(slog.LevelError, msg, tags)
	os.Exit(1)
}

// With lets the server pre-tag loggers per service without re-walking tags.
func (s slogLogger) With(tags ...tag.Tag) log.Logger {
	return slogLogger{l: s.l.With(attrs(tags)...), muted: s.muted}
}

// notices are server warnings that report no fault: they are logged at
// debug level. A workflow update (every accept, reject and proposal
// request) answers only once the workflow has handled it, seconds later
// by design, and the frontend warns of every call that takes over a
// second as "Slow gRPC call".
var notices = map[string]bool{"Slow gRPC call": true}

func (s slogLogger) log(level slog.Level, msg string, tags []tag.Tag) {
	if level == slog.LevelWarn && notices[msg] {
		level = slog.LevelDebug
	}
	ctx := context.Background()
	if s.muted.Load() || !s.l.Enabled(ctx, level) {
		return // tag values are costly to render
	}
	s.l.Log(ctx, level, msg, attrs(tags)...)
}

func attrs(tags []tag.Tag) []any {
	out := make([]any, len(tags))
	for i, t := range tags {
		out[i] = slog.Any(t.Key(), t.Value())
	}
	return out
}

// quietLogger logs warnings and errors to stderr.
func quietLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}
