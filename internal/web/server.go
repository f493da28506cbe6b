// Package web is the review web app: server-rendered pages (html/template,
// assets embedded) where planners import schedules, submit prompts, and
// review, answer and accept dispatches. It talks to Temporal through the
// same calls as the CLI (internal/dispatches) and to the configured stores.
package web

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/autoscheduler/autoscheduler/internal/store"
)

// DefaultListen is the app's address: loopback, so nobody else reaches it
// without a token.
const DefaultListen = "127.0.0.1:8090"

// DefaultMaxUpload bounds an imported file (the 200,000-activity XER
// benchmark file is about 60 MB).
const DefaultMaxUpload = 64 << 20

// Config is how the app is reached and what it links to.
type Config struct {
	// Listen is the address to serve on (DefaultListen when empty). Any
	// address that is not loopback requires Token.
	Listen string
	// Token, when set, is required on every request (Authorization: Bearer,
	// or ?token= once, which sets a cookie).
	Token string
	// TemporalUI is the Temporal Web UI's base URL, for links to a
	// dispatch's execution ("" : no links); Namespace its namespace.
	TemporalUI string
	Namespace  string
	// Reviewer is the name a form starts with when the browser has not
	// given one (the OS user of the process, or --as).
	Reviewer string
	// MaxUpload bounds an imported file in bytes (DefaultMaxUpload when 0).
	MaxUpload int64
	// Logger gets one line per failed request (nil: slog.Default).
	Logger *slog.Logger
}

// Server serves the app. Its handlers are safe for concurrent use.
type Server struct {
	cfg      Config
	stores   *store.Coordinator
	temporal client.Client
	pages    map[string]*template.Template
	secret   []byte // signs CSRF tokens
	watches  *watchHub
	// snapshots are the Gantt pages drawn with schedule pages.
	snapshots snapshots
	ganttCSP  string // the Content-Security-Policy of Gantt pages (their inline script's hash)
	log       *slog.Logger
}

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// New checks cfg and builds the app over stores and a Temporal client,
// which stay the caller's to close.
func New(cfg Config, stores *store.Coordinator, temporal client.Client) (*Server, error) {
	if cfg.Listen == "" {
		cfg.Listen = DefaultListen
	}
	if cfg.MaxUpload <= 0 {
		cfg.MaxUpload = DefaultMaxUpload
	}
	if cfg.Namespace == "" {
		cfg.Namespace = "default"
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	cfg.TemporalUI = strings.TrimRight(cfg.TemporalUI, "/")
	if err := checkListen(cfg.Listen, cfg.Token); err != nil {
		return nil, err
	}
	secret, err := randomBytes(32)
	if err != nil {
		return nil, err
	}
	pages, err := parsePages()
	if err != nil {
		return nil, err
	}
	csp, err := ganttPolicy()
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, stores: stores, temporal: temporal, pages: pages, secret: secret, ganttCSP: csp, log: cfg.Logger}
	s.watches = newWatchHub(temporal, s.log)
	return s, nil
}

// checkListen refuses an address others can reach unless a token guards it.
func checkListen(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--listen %q: %w", addr, err)
	}
	if isLoopback(host) || token != "" {
		return nil
	}
	return fmt.Errorf("--listen %q is not a loopback address: set a token (--token or AUTOSCHEDULER_WEB_TOKEN) so only people who have it can review changes", addr)
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// parsePages parses each page template with the shared layout.
func parsePages() (map[string]*template.Template, error) {
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		return nil, err
	}
	pages := map[string]*template.Template{}
	for _, name := range names {
		base := strings.TrimSuffix(strings.TrimPrefix(name, "templates/"), ".html")
		if base == "layout" {
			continue
		}
		t, err := template.New(base).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", name)
		if err != nil {
			return nil, fmt.Errorf("template %s: %w", name, err)
		}
		pages[base] = t
	}
	return pages, nil
}

// Handler is the app's routes behind its security checks.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	static, _ := fs.Sub(staticFS, "static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", cacheFor(time.Hour, http.FileServerFS(static))))
	mux.HandleFunc("GET /{$}", s.schedulesPage)
	mux.HandleFunc("POST /import", s.importFile)
	mux.HandleFunc("GET /prompt", s.promptPage)
	mux.HandleFunc("POST /prompt", s.submitPrompt)
	mux.HandleFunc("GET /s/{id}", s.schedulePage)
	mux.HandleFunc("GET /s/{id}/gantt", s.ganttPage)
	mux.HandleFunc("GET /s/{id}/export/{format}", s.export)
	mux.HandleFunc("POST /s/{id}/undo", s.undo)
	mux.HandleFunc("POST /s/{id}/delete", s.deleteSchedule)
	mux.HandleFunc("GET /d/{id}", s.reviewPage)
	mux.HandleFunc("GET /d/{id}/events", s.events)
	mux.HandleFunc("GET /d/{id}/gantt", s.diffGanttPage)
	mux.HandleFunc("POST /d/{id}/review", s.review)
	mux.HandleFunc("POST /d/{id}/clarify", s.clarify)
	mux.HandleFunc("POST /name", s.setName)
	return s.secure(mux)
}

// Serve listens on cfg.Listen until ctx ends; ready, when set, is told the
// app's URL once it listens.
func (s *Server) Serve(ctx context.Context, ready func(url string)) error {
	ln, err := net.Listen("tcp", s.cfg.Listen)
	if err != nil {
		return fmt.Errorf("web app: %w", err)
	}
	// Requests live in ctx: ending it ends the event streams too.
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	go func() {
		<-ctx.Done()
		s.watches.stop()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown) //nolint:errcheck // best effort on the way out
	}()
	if ready != nil {
		ready(URL(ln.Addr().String()))
	}
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// URL is the app's address as a link.
func URL(addr string) string { return "http://" + addr }

func cacheFor(d time.Duration, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", fmt.Sprintf("private, max-age=%d", int(d.Seconds())))
		h.ServeHTTP(w, r)
	})
}
