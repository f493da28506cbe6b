// Package web is the review web app: server-rendered pages (html/template,
// assets embedded) where planners import schedules, submit prompts, and
// review, answer and accept dispatches. It talks to Temporal through the
// same calls as the CLI (the workflows package's client*.go) and to the configured stores.
package web

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
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

// The defaults of the app's timeouts and connection caps (Config). A
// connection that sends nothing, stops sending a body, idles after its
// answer or stops reading one is closed; one client address cannot hold
// more than DefaultMaxConnsPerClient connections, nor everyone together
// more than DefaultMaxConns (far below the process's file descriptor
// limit: the stores, Temporal and uploads keep theirs).
const (
	DefaultHeaderTimeout     = 10 * time.Second
	DefaultBodyTimeout       = 30 * time.Second
	DefaultMaxBodyTime       = 15 * time.Minute
	DefaultIdleTimeout       = 60 * time.Second
	DefaultWriteTimeout      = 60 * time.Second
	DefaultMaxConnsPerClient = 100
	DefaultMaxConns          = 1000
)

// Config is how the app is reached and what it links to.
type Config struct {
	// Listen is the address to serve on (DefaultListen when empty). Any
	// address that is not loopback requires Token.
	Listen string
	// Token, when set, is required on every request (Authorization: Bearer,
	// or ?token= once, which sets a cookie). It must be strong (CheckToken).
	Token string
	// AllowedHosts are the host names (or addresses), each with an
	// optional :port, that requests may name in their Host header besides
	// loopback ones (localhost, 127.0.0.0/8, [::1]) and the Listen
	// address's own host. Any other Host is refused (421), so a page on
	// another site whose name was re-pointed at this machine (DNS
	// rebinding) reads nothing. Only with a Token: without one only
	// loopback names are served.
	AllowedHosts []string
	// TemporalUI is the Temporal Web UI's base URL, for links to a
	// dispatch's execution ("" : no links); Namespace its namespace.
	TemporalUI string
	Namespace  string
	// Reviewer is the name a form starts with when the browser has not
	// given one: only a name the operator chose (--as). Empty, the app
	// asks each browser for its person's name, once (remembered in a
	// cookie): it never records the OS user of the process.
	Reviewer string
	// MaxUpload bounds an imported file in bytes (DefaultMaxUpload when 0).
	MaxUpload int64
	// Logger gets one line per failed request (nil: slog.Default).
	Logger *slog.Logger

	// HeaderTimeout bounds the time a request's line and headers take to
	// arrive (from the connection or the end of the previous answer);
	// BodyTimeout the wait for the next piece of a request's body (a body
	// promised and not sent); MaxBodyTime a whole body (the slowest
	// upload); IdleTimeout a kept-alive connection waiting for its next
	// request; WriteTimeout the wait for the client to take each write
	// (an event stream lives as long as its client reads it). Zero: the
	// Default... values.
	HeaderTimeout, BodyTimeout, MaxBodyTime, IdleTimeout, WriteTimeout time.Duration
	// MaxConnsPerClient caps the open connections of one client address
	// (IPv6: of its /64), MaxConns all of them; a connection beyond a cap
	// is answered 503 and closed at once. Zero: the defaults.
	MaxConnsPerClient, MaxConns int
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
	// hosts are the Host header names served besides loopback ones
	// (lower case, no trailing dot), each with its port or "" for any.
	hosts []hostPort
}

//go:embed templates/*.html templates/parts/*.html
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
	cfg.HeaderTimeout = orDefault(cfg.HeaderTimeout, DefaultHeaderTimeout)
	cfg.BodyTimeout = orDefault(cfg.BodyTimeout, DefaultBodyTimeout)
	cfg.MaxBodyTime = orDefault(cfg.MaxBodyTime, DefaultMaxBodyTime)
	cfg.IdleTimeout = orDefault(cfg.IdleTimeout, DefaultIdleTimeout)
	cfg.WriteTimeout = orDefault(cfg.WriteTimeout, DefaultWriteTimeout)
	cfg.MaxConnsPerClient = orDefault(cfg.MaxConnsPerClient, DefaultMaxConnsPerClient)
	cfg.MaxConns = orDefault(cfg.MaxConns, DefaultMaxConns)
	cfg.TemporalUI = strings.TrimRight(cfg.TemporalUI, "/")
	hosts, err := cfg.check()
	if err != nil {
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
	s := &Server{cfg: cfg, stores: stores, temporal: temporal, pages: pages, secret: secret, ganttCSP: csp, log: cfg.Logger, hosts: hosts}
	s.watches = newWatchHub(temporal, s.log)
	return s, nil
}

// Check says what is wrong with how the app would be reached (the listen
// address, the token, the allowed hosts) before anything starts; New
// checks the same.
func (cfg Config) Check() error {
	if cfg.Listen == "" {
		cfg.Listen = DefaultListen
	}
	_, err := cfg.check()
	return err
}

func (cfg Config) check() ([]hostPort, error) {
	if err := checkListen(cfg.Listen, cfg.Token); err != nil {
		return nil, err
	}
	if cfg.Token != "" {
		if err := CheckToken(cfg.Token); err != nil {
			return nil, err
		}
	}
	return allowedHosts(cfg)
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

func orDefault[T time.Duration | int](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// hostPort is a Host header name the app serves: a lower-case host
// without brackets or trailing dot, and a port ("": any).
type hostPort struct{ host, port string }

// allowedHosts checks cfg.AllowedHosts and adds the listen address's host.
func allowedHosts(cfg Config) ([]hostPort, error) {
	if len(cfg.AllowedHosts) > 0 && cfg.Token == "" {
		return nil, fmt.Errorf("--allowed-host %s: a name other than loopback lets people on other machines in: set a token (--token or AUTOSCHEDULER_WEB_TOKEN) too", strings.Join(cfg.AllowedHosts, ", "))
	}
	var hosts []hostPort
	for _, h := range cfg.AllowedHosts {
		hp, ok := parseHost(strings.TrimSpace(h))
		if !ok {
			return nil, fmt.Errorf("--allowed-host %q is not a host name or address (with an optional :port), such as scheduler.example.com or 192.168.1.5:8090", h)
		}
		hosts = append(hosts, hp)
	}
	if host, _, err := net.SplitHostPort(cfg.Listen); err == nil && host != "" {
		if hp, ok := parseHost(host); ok {
			hosts = append(hosts, hostPort{host: hp.host})
		}
	}
	return hosts, nil
}

// parseHost reads a Host header (or an --allowed-host): a name or an IP
// address, IPv6 in brackets, an optional numeric port. Names are compared
// without case and without one trailing dot.
func parseHost(h string) (hostPort, bool) {
	host, port := h, ""
	switch {
	case strings.HasPrefix(h, "["):
		end := strings.IndexByte(h, ']')
		if end < 0 {
			return hostPort{}, false
		}
		host, port = h[1:end], h[end+1:]
		if port != "" && port[0] != ':' || net.ParseIP(host) == nil {
			return hostPort{}, false
		}
		port = strings.TrimPrefix(port, ":")
	case strings.Count(h, ":") == 1:
		host, port, _ = strings.Cut(h, ":")
	}
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 || len(port) > 5 || strings.TrimLeft(port, "0123456789") != "" {
			return hostPort{}, false
		}
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "" {
		return hostPort{}, false
	}
	if ip := net.ParseIP(host); ip != nil {
		return hostPort{host: ip.String(), port: port}, true
	}
	for _, label := range strings.Split(host, ".") {
		if label == "" || len(label) > 63 {
			return hostPort{}, false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return hostPort{}, false
			}
		}
	}
	return hostPort{host: host, port: port}, true
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
		// parts/ are named templates any page may include (the risk card).
		t, err := template.New(base).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/parts/*.html", name)
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
	mux.HandleFunc("GET /compare", s.comparePage)
	mux.HandleFunc("POST /s/{id}/undo", s.undo)
	mux.HandleFunc("POST /s/{id}/delete", s.deleteSchedule)
	mux.HandleFunc("GET /d/{id}", s.reviewPage)
	mux.HandleFunc("GET /d/{id}/events", s.events)
	mux.HandleFunc("GET /d/{id}/gantt", s.diffGanttPage)
	mux.HandleFunc("GET /d/{id}/summary", s.summaryPage)
	mux.HandleFunc("POST /d/{id}/review", s.review)
	mux.HandleFunc("POST /d/{id}/clarify", s.clarify)
	mux.HandleFunc("POST /d/{id}/cancel", s.cancel)
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
	ln = s.limitListener(ln)
	// Requests live in ctx: ending it ends the event streams too. There
	// is no WriteTimeout for the whole answer: secure gives each write
	// its own deadline, so an event stream lives while its client reads.
	// ReadTimeout is a backstop: secure sets each request's read deadline
	// (none once the body is read: the connection is then only watched
	// for its close, and a deadline would end an event stream).
	srv := &http.Server{Handler: s.Handler(),
		ReadHeaderTimeout: s.cfg.HeaderTimeout,
		ReadTimeout:       s.cfg.HeaderTimeout + s.cfg.MaxBodyTime,
		IdleTimeout:       s.cfg.IdleTimeout,
		MaxHeaderBytes:    128 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return ctx }}
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

// limitListener caps open connections: per client address and in all.
func (s *Server) limitListener(ln net.Listener) net.Listener {
	return &connLimiter{Listener: ln, perClient: s.cfg.MaxConnsPerClient, total: s.cfg.MaxConns,
		byClient: map[string]int{}, refusing: make(chan struct{}, 32), log: s.log}
}

// connLimiter is a listener that refuses a connection beyond its caps: a
// short 503 and a close, never a file descriptor held. The refusals
// themselves are bounded: beyond 32 at once a connection is just closed.
type connLimiter struct {
	net.Listener
	perClient, total int
	log              *slog.Logger

	mu       sync.Mutex
	open     int
	byClient map[string]int
	logged   time.Time // the last refusal logged (one a minute)
	refusing chan struct{}
}

func (l *connLimiter) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		key := clientKey(c.RemoteAddr())
		why := ""
		l.mu.Lock()
		switch {
		case l.byClient[key] >= l.perClient:
			why = fmt.Sprintf("too many open connections from your address (%d at most): close some and try again", l.perClient)
		case l.open >= l.total:
			why = fmt.Sprintf("the app has too many open connections (%d at most): try again in a moment", l.total)
		default:
			l.open++
			l.byClient[key]++
		}
		logIt := why != "" && time.Since(l.logged) > time.Minute
		if logIt {
			l.logged = time.Now()
		}
		l.mu.Unlock()
		if why == "" {
			return &limitedConn{Conn: c, release: func() { l.release(key) }}, nil
		}
		if logIt {
			l.log.Warn("Refusing connections", "Client", key, "Reason", why)
		}
		l.refuse(c, why)
	}
}

func (l *connLimiter) release(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open--
	if l.byClient[key]--; l.byClient[key] <= 0 {
		delete(l.byClient, key)
	}
}

// refuse answers 503 and closes c, giving the client a second to read the
// answer (closing with its request unread would reset the connection
// before it does).
func (l *connLimiter) refuse(c net.Conn, why string) {
	select {
	case l.refusing <- struct{}{}:
	default:
		c.Close()
		return
	}
	go func() {
		defer func() { <-l.refusing }()
		defer c.Close()
		c.SetDeadline(time.Now().Add(time.Second)) //nolint:errcheck // closed below either way
		body := "503 service unavailable: " + why + "\n"
		fmt.Fprintf(c, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: 5\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
		if tc, ok := c.(interface{ CloseWrite() error }); ok && tc.CloseWrite() == nil {
			io.Copy(io.Discard, io.LimitReader(c, 64<<10)) //nolint:errcheck // until the client closes or the deadline
		}
	}()
}

// clientKey is who a connection counts against: its IP address; an IPv6
// address's /64 (one host's usual share).
func clientKey(a net.Addr) string {
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	ip := net.ParseIP(host)
	if ip == nil || ip.To4() != nil || ip.IsLoopback() {
		return host
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// limitedConn gives its place back when it closes.
type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
