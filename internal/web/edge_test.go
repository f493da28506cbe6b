package web_test

// Hostile use of the web app (issue 26): other sites' names (DNS
// rebinding), connections that never finish, control characters in names,
// weak tokens, open redirects, oversized uploads, and cancelling a
// dispatch at any stage.

import (
	"bufio"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/scope"
	"github.com/autoscheduler/autoscheduler/internal/usertext"
	"github.com/autoscheduler/autoscheduler/internal/web"
	"github.com/autoscheduler/autoscheduler/workflows"
)

// strongToken passes web.CheckToken: 43 random base64url characters.
const strongToken = "q7Vb2Xk9LmR4tZ8wNc1HsJ6dYe3FgP0aUo5iKx_-TrE"

// do sends one request with the given Host header and headers (name,
// value pairs) and returns the status and body.
func do(t *testing.T, method, base, path, host string, body io.Reader, header ...string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(method, base+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := (&http.Client{CheckRedirect: noRedirect}).Do(req)
	if err != nil {
		t.Fatalf("%s %s (Host %q): %v", method, path, host, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

func TestHostHeaderIsCheckedWithoutAToken(t *testing.T) {
	srv := offline(t, web.Config{})
	refused := []string{
		"attacker.example:8090", "attacker.example", "ATTACKER.example", "localhost.attacker.example:8090",
		"127.0.0.1.nip.io:8090", "evil.localhost:8090", "localhost..", "10.0.0.1:8090", "192.168.1.5",
		"0.0.0.0:8090", "[::2]:8090", "[fe80::1]:8090", "0x7f.0.0.1:8090", "2130706433:8090", "127.1:8090",
		"localhost:notaport", "[::1:8090", "attacker.example.:80",
	}
	for _, host := range refused {
		for _, path := range []string{"/", "/s/x", "/static/app.css", "/d/dispatch-x/events"} {
			code, h, body := do(t, http.MethodGet, srv.URL, path, host, nil)
			if code != http.StatusMisdirectedRequest || !strings.Contains(body, "does not answer to the host name") {
				t.Errorf("GET %s with Host %q: %d %q, want 421 saying so", path, host, code, body)
			}
			if strings.Contains(body, `name="csrf"`) || h.Get("Set-Cookie") != "" {
				t.Errorf("GET %s with Host %q: the refusal gives a CSRF token or a cookie", path, host)
			}
		}
		if code, _, _ := do(t, http.MethodPost, srv.URL, "/prompt", host, strings.NewReader("prompt=x"), "Content-Type", "application/x-www-form-urlencoded"); code != http.StatusMisdirectedRequest {
			t.Errorf("POST /prompt with Host %q: %d, want 421", host, code)
		}
	}
	allowed := []string{
		"localhost", "localhost:8090", "LocalHost:8090", "localhost.:8090", "127.0.0.1", "127.0.0.1:8090",
		"127.5.6.7:1", "127.0.0.1.:80", "[::1]", "[::1]:8090", "[::ffff:127.0.0.1]:8090",
	}
	for _, host := range allowed {
		if code, _, body := do(t, http.MethodGet, srv.URL, "/static/app.css", host, nil); code != http.StatusOK {
			t.Errorf("GET /static/app.css with Host %q: %d %q, want 200", host, code, body)
		}
	}
}

func TestHostHeaderIsCheckedWithAToken(t *testing.T) {
	srv := offline(t, web.Config{Listen: "0.0.0.0:0", Token: strongToken,
		AllowedHosts: []string{"Scheduler.Example.com", "192.168.1.5:8090", "[2001:db8::5]"}})
	bearer := []string{"Authorization", "Bearer " + strongToken}
	for _, host := range []string{"scheduler.example.com", "SCHEDULER.example.com.:443", "192.168.1.5:8090",
		"[2001:db8::5]:8090", "0.0.0.0:8090", "localhost:8090", "127.0.0.1"} {
		if code, _, body := do(t, http.MethodGet, srv.URL, "/static/app.css", host, nil, bearer...); code != http.StatusOK {
			t.Errorf("Host %q with the token: %d %q, want 200", host, code, body)
		}
	}
	for _, host := range []string{"attacker.example", "192.168.1.5:9999", "192.168.1.6:8090", "x.scheduler.example.com",
		"scheduler.example.com.attacker.example", "scheduler.example.co"} {
		// Even with the token: the name is checked first.
		code, _, body := do(t, http.MethodGet, srv.URL, "/static/app.css", host, nil, bearer...)
		if code != http.StatusMisdirectedRequest || !strings.Contains(body, "--allowed-host") {
			t.Errorf("Host %q with the token: %d %q, want 421 naming --allowed-host", host, code, body)
		}
	}
	// The names are checked when the app starts.
	for _, cfg := range []web.Config{
		{AllowedHosts: []string{"scheduler.example.com"}}, // no token
		{Token: strongToken, AllowedHosts: []string{"http://scheduler.example.com/"}},
		{Token: strongToken, AllowedHosts: []string{"scheduler.example.com:http"}},
		{Token: strongToken, AllowedHosts: []string{""}},
	} {
		cfg.Logger = quietLogger()
		if _, err := web.New(cfg, nil, nil); err == nil || !strings.Contains(err.Error(), "--allowed-host") {
			t.Errorf("AllowedHosts %q token %v: err = %v, want one naming --allowed-host", cfg.AllowedHosts, cfg.Token != "", err)
		}
	}
}

func TestWeakTokensAreRefused(t *testing.T) {
	weak := []string{
		"a", " ", "  ", "s3cret", "s3cret-token", "password", "correcthorse", "12345678901234567890",
		strings.Repeat("a", 64), strings.Repeat("ab", 32), strings.Repeat("Aa1!", 12), strings.Repeat("Zx9#Qw2$", 6),
		"abcdefghijklmnopqrstuvwxyz0123456789", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
		"0000000000000000000000000000000000000000000000", "aZ09aZ09aZ09aZ09aZ09aZ09aZ09aZ09aZ09aZ09",
	}
	for _, tok := range weak {
		err := web.CheckToken(tok)
		if err == nil || !strings.Contains(err.Error(), "weak") && !strings.Contains(err.Error(), "U+") && !strings.Contains(err.Error(), "empty") {
			t.Errorf("token %q: err = %v, want too weak", tok, err)
		}
	}
	// Whitespace and control characters, however long.
	for _, bad := range []string{" ", "\t", "\n", "\r", "\x1b", "\x00", "\x7f", "\u0085", "\u00a0", "\u200b", "\u202e", "\u2028", "\u3000"} {
		for _, tok := range []string{strongToken + bad, bad + strongToken, strongToken[:20] + bad + strongToken[20:]} {
			if err := web.CheckToken(tok); err == nil || !strings.Contains(err.Error(), "U+") {
				t.Errorf("token %q: err = %v, want one naming the character", tok, err)
			}
		}
	}
	// The error says why and offers a strong one.
	err := web.CheckToken("a")
	if err == nil || !strings.Contains(err.Error(), "--generate-token") || !strings.Contains(err.Error(), "bits") {
		t.Fatalf("err = %v", err)
	}
	offered := strings.Fields(err.Error()[strings.Index(err.Error(), "such as ")+len("such as "):])[0]
	if web.CheckToken(offered) != nil {
		t.Errorf("the offered token %q is refused", offered)
	}
	// Random tokens of the usual shapes pass, every time.
	for i := 0; i < 200; i++ {
		g, err := web.GenerateToken()
		if err != nil {
			t.Fatal(err)
		}
		if err := web.CheckToken(g); err != nil {
			t.Fatalf("generated %q: %v", g, err)
		}
		raw := make([]byte, 16)
		rand.Read(raw)
		hex := fmt.Sprintf("%x", raw) // 32 hex digits
		alnum := strings.NewReplacer("-", "x", "_", "Q").Replace(g[:24])
		for _, tok := range []string{hex, strings.ToUpper(hex), alnum} {
			if err := web.CheckToken(tok); err != nil {
				t.Fatalf("random %q: %v", tok, err)
			}
		}
	}
	// The app checks the token wherever it listens.
	for _, listen := range []string{"127.0.0.1:0", "0.0.0.0:0"} {
		for _, tok := range []string{"a", " ", "s3cret"} {
			if _, err := web.New(web.Config{Listen: listen, Token: tok, Logger: quietLogger()}, nil, nil); err == nil {
				t.Errorf("listen %s with token %q started", listen, tok)
			}
		}
		if _, err := web.New(web.Config{Listen: listen, Token: strongToken, Logger: quietLogger()}, nil, nil); err != nil {
			t.Errorf("listen %s with a strong token: %v", listen, err)
		}
	}
}

// rawRequest sends request bytes as they are on a new connection and
// reads the response.
func rawRequest(t *testing.T, addr, request string) *http.Response {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := io.WriteString(c, request); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("%q: %v", request, err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// offSite says whether a browser at base following location leaves base's
// host: it reads backslashes as slashes and drops tabs and newlines.
func offSite(base, location string) bool {
	loc := strings.NewReplacer("\\", "/", "\t", "", "\n", "", "\r", "").Replace(location)
	b, _ := url.Parse(base)
	u, err := url.Parse(loc)
	if err != nil {
		return true
	}
	to := b.ResolveReference(u)
	if to.Host != b.Host || to.Scheme != b.Scheme {
		return true
	}
	// Decoded once more (a proxy), it must still be a path here.
	if p, err := url.PathUnescape(to.EscapedPath()); err != nil || strings.HasPrefix(strings.ReplaceAll(p, "\\", "/"), "//") {
		return true
	}
	return false
}

func TestTokenRedirectStaysOnTheApp(t *testing.T) {
	srv := offline(t, web.Config{Listen: "0.0.0.0:0", Token: strongToken})
	addr := strings.TrimPrefix(srv.URL, "http://")
	paths := []string{
		"//evil.example/x", "///evil.example/x", "////evil.example", "/\\evil.example/x", "/\\/evil.example",
		"\\\\evil.example", "/%2F%2Fevil.example/x", "/%2f/evil.example", "/%2Fevil.example", "/%5C%5Cevil.example",
		"/%5cevil.example", "/%09/evil.example", "/%0a/evil.example", "/%252F%252Fevil.example", "/.//evil.example",
		"/./\\evil.example", "/s/..//evil.example", "//evil.example/%2e%2e", "/%E2%81%84evil.example",
	}
	for _, p := range paths {
		sep := "?"
		if strings.Contains(p, "?") {
			sep = "&"
		}
		resp := rawRequest(t, addr, "GET "+p+sep+"token="+strongToken+" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
		loc := resp.Header.Get("Location")
		if resp.StatusCode == http.StatusSeeOther && offSite(srv.URL, loc) {
			t.Errorf("GET %s?token=: 303 to %q, off the app", p, loc)
		}
		if strings.Contains(loc, strongToken) {
			t.Errorf("GET %s?token=: the redirect keeps the token", p)
		}
	}
	// An ordinary path keeps its path and query.
	resp := rawRequest(t, addr, "GET /s/b-1?token="+strongToken+"&v=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/s/b-1?v=1" {
		t.Errorf("GET /s/b-1?token=&v=1: %d to %q, want 303 to /s/b-1?v=1", resp.StatusCode, resp.Header.Get("Location"))
	}
}

// session is a session cookie and its CSRF token on srv.
func session(t *testing.T, base string) (cookie, csrf string) {
	t.Helper()
	resp, err := http.Get(base + "/static/app.css")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for _, ck := range resp.Cookies() {
		if ck.Name == "as_session" {
			cookie = ck.Value
		}
	}
	return cookie, csrfOf(t, &http.Client{}, base, cookie)
}

func TestNamesWithControlCharactersAreRefused(t *testing.T) {
	srv := offline(t, web.Config{Reviewer: "default-reviewer"})
	cookie, csrf := session(t, srv.URL)
	post := func(path, name string) (int, http.Header, string) {
		t.Helper()
		form := url.Values{"csrf": {csrf}, "name": {name}, "round": {"1"}, "decision": {"reject"}, "answer": {"x"}, "schedule": {"s"}, "prompt": {"p"}}
		return do(t, http.MethodPost, srv.URL, path, "", strings.NewReader(form.Encode()),
			"Content-Type", "application/x-www-form-urlencoded", "Cookie", "as_session="+cookie)
	}
	bad := map[string]string{
		"\x1b[31mred":                           "U+001B",
		"bob\x07":                               "U+0007",
		"\x1b]0;owned\x07":                      "U+001B",
		"a\u202eb":                              "U+202E",
		"zero\u200bwidth":                       "U+200B",
		"x\x00y":                                "U+0000",
		"line\nbreak":                           "U+000A",
		"cr\rhere":                              "U+000D",
		"tab\there":                             "U+0009",
		"csi\u009b31m":                          "U+009B",
		"del\x7f":                               "U+007F",
		"sep\u2028":                             "U+2028",
		"bad\xffutf8":                           "UTF-8",
		strings.Repeat("n", usertext.MaxName+1): fmt.Sprint(usertext.MaxName+1, " characters"),
	}
	for name, want := range bad {
		for _, path := range []string{"/name", "/d/dispatch-x/review", "/d/dispatch-x/clarify", "/d/dispatch-x/cancel", "/prompt"} {
			code, h, body := post(path, name)
			if body = html.UnescapeString(body); code != http.StatusBadRequest || !strings.Contains(body, "Your name") || !strings.Contains(body, want) {
				t.Errorf("POST %s name %q: %d, want 400 saying %q:\n%s", path, name, code, want, errorOf(body))
			}
			if strings.Contains(h.Get("Set-Cookie"), "as_name") {
				t.Errorf("POST %s name %q: the name was remembered", path, name)
			}
		}
	}
	// A good name, with letters from anywhere, is taken.
	code, h, _ := post("/name", "Zoë O'Brien-Łukasz 李")
	if code != http.StatusSeeOther || !strings.Contains(h.Get("Set-Cookie"), "as_name=") {
		t.Errorf("a good name: %d %q", code, h.Get("Set-Cookie"))
	}
	// A stored name with control characters is ignored: the default reviewer.
	for _, stored := range []string{"%1B%5B31mevil", "a%E2%80%AEb", "%07", "x%0Ay", url.QueryEscape(strings.Repeat("n", usertext.MaxName+50))} {
		_, _, body := do(t, http.MethodGet, srv.URL, "/d/not-a-dispatch", "", nil, "Cookie", "as_session="+cookie+"; as_name="+stored)
		if !strings.Contains(body, `value="default-reviewer"`) {
			t.Errorf("stored name %q: the page does not fall back to the default reviewer", stored)
		}
	}
	_, _, body := do(t, http.MethodGet, srv.URL, "/d/not-a-dispatch", "", nil, "Cookie", "as_session="+cookie+"; as_name="+url.QueryEscape(`<b>"x"</b>`))
	if !strings.Contains(body, `value="&lt;b&gt;&#34;x&#34;&lt;/b&gt;"`) {
		t.Errorf("a name with markup is not escaped")
	}
}

func TestOversizedUploadsSayTooLarge(t *testing.T) {
	for _, tc := range []struct {
		max  int64
		want string
	}{{0, "64 MB at most"}, {1 << 20, "1 MB at most"}} {
		srv := offline(t, web.Config{MaxUpload: tc.max})
		cookie, csrf := session(t, srv.URL)
		addr := strings.TrimPrefix(srv.URL, "http://")
		limit := tc.max
		if limit == 0 {
			limit = web.DefaultMaxUpload
		}
		// Declared too large: refused before the body is read.
		head := "POST /import HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: as_session=" + cookie + "\r\nX-CSRF-Token: " + csrf +
			"\r\nContent-Type: multipart/form-data; boundary=XX\r\nContent-Length: " + fmt.Sprint(limit+6<<20) + "\r\n\r\n--XX\r\n"
		resp := rawRequest(t, addr, head)
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("limit %d, declared %d bytes: %d, want 413", limit, limit+6<<20, resp.StatusCode)
		}
		// Sent (chunked, no length): refused when the limit is reached,
		// saying the file is too large, not that the form expired.
		if tc.max == 0 {
			continue // 64 MB through a pipe: the 1 MB case shows it
		}
		pr, pw := io.Pipe()
		go func() {
			fmt.Fprintf(pw, "--XX\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n%s\r\n--XX\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.json\"\r\n\r\n", csrf)
			chunk := []byte(strings.Repeat("x", 64<<10))
			for i := 0; i < int(limit*3)/len(chunk); i++ {
				if _, err := pw.Write(chunk); err != nil {
					return
				}
			}
			pw.Close()
		}()
		code, _, body := do(t, http.MethodPost, srv.URL, "/import", "", pr, "Content-Type", "multipart/form-data; boundary=XX", "Cookie", "as_session="+cookie)
		pr.CloseWithError(errors.New("done"))
		if code != http.StatusRequestEntityTooLarge || !strings.Contains(body, "the file is too large ("+tc.want+")") || strings.Contains(body, "CSRF") {
			t.Errorf("limit %d, a chunked upload of 3x: %d\n%.400s", limit, code, body)
		}
	}
	// The real client, the real size: 70 MB against 64 MB.
	srv := offline(t, web.Config{})
	cookie, csrf := session(t, srv.URL)
	big := strings.NewReader(strings.Repeat("y", 70<<20))
	code, _, body := do(t, http.MethodPost, srv.URL, "/import", "", big, "Content-Type", "multipart/form-data; boundary=XX",
		"Cookie", "as_session="+cookie, "X-CSRF-Token", csrf)
	if code != http.StatusRequestEntityTooLarge || !strings.Contains(body, "the file is too large (64 MB at most)") {
		t.Errorf("70 MB: %d\n%.400s", code, body)
	}
}

// serving is an app served on its own loopback port with cfg (no stores
// and no Temporal unless given): its host:port.
func serving(t *testing.T, cfg web.Config, a *app) string {
	t.Helper()
	cfg.Logger = quietLogger()
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
	}
	var s *web.Server
	var err error
	if a != nil {
		s, err = web.New(cfg, a.Stores, a.C)
	} else {
		s, err = web.New(cfg, nil, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, func(u string) { ready <- u }) }()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case u := <-ready:
		return strings.TrimPrefix(u, "http://")
	case err := <-done:
		t.Fatal(err)
	}
	return ""
}

// closedWithin says whether the server closes c within d (reading and
// dropping whatever it answers first).
func closedWithin(c net.Conn, d time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}

func TestIdleAndStalledConnectionsAreClosed(t *testing.T) {
	const timeout = 300 * time.Millisecond
	cfg := web.Config{HeaderTimeout: timeout, BodyTimeout: timeout, IdleTimeout: timeout, WriteTimeout: timeout}
	addr := serving(t, cfg, nil)
	cfg.Token, cfg.Listen = strongToken, "127.0.0.1:0"
	tokenAddr := serving(t, cfg, nil)
	cookie, _ := session(t, "http://"+addr)

	kinds := map[string]func(c net.Conn){
		"silent":                 func(net.Conn) {},
		"half a request line":    func(c net.Conn) { io.WriteString(c, "GET / HT") },
		"headers never finished": func(c net.Conn) { io.WriteString(c, "GET / HTTP/1.1\r\nHost: localhost\r\nX-A: b\r\n") },
		"idle after an answer":   func(c net.Conn) { io.WriteString(c, "GET /static/app.css HTTP/1.1\r\nHost: localhost\r\n\r\n") },
		"body promised, not sent": func(c net.Conn) {
			io.WriteString(c, "POST /name HTTP/1.1\r\nHost: localhost\r\nCookie: as_session="+cookie+"\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nname=")
		},
		"body chunked, stalled": func(c net.Conn) {
			io.WriteString(c, "POST /name HTTP/1.1\r\nHost: localhost\r\nCookie: as_session="+cookie+"\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nname=\r\n")
		},
	}
	tokenKinds := map[string]func(c net.Conn){
		"a 401 then idle": func(c net.Conn) { io.WriteString(c, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n") },
		"401, body promised": func(c net.Conn) {
			io.WriteString(c, "POST /prompt HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5000\r\n\r\n")
		},
		"421 then idle": func(c net.Conn) { io.WriteString(c, "GET / HTTP/1.1\r\nHost: attacker.example\r\n\r\n") },
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	open := map[string]int{}
	start := func(addr, kind string, send func(net.Conn)) {
		defer wg.Done()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Close()
		send(c)
		if !closedWithin(c, 20*timeout) {
			mu.Lock()
			open[kind]++
			mu.Unlock()
		}
	}
	for i := 0; i < 20; i++ {
		for kind, send := range kinds {
			wg.Add(1)
			go start(addr, kind, send)
		}
		for kind, send := range tokenKinds {
			wg.Add(1)
			go start(tokenAddr, kind, send)
		}
	}
	wg.Wait()
	for kind, n := range open {
		t.Errorf("%d of 20 connections %q still open after %s", n, kind, 20*timeout)
	}
	// A valid request is served all along.
	resp, err := http.Get("http://" + addr + "/static/app.css")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("a valid request: %v %v", resp, err)
	}
	resp.Body.Close()
}

// dialFrom connects to addr from the local address ip (127.0.0.2, ...).
func dialFrom(t *testing.T, ip, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but cannot connect from %s: %v", ip, err)
		}
		t.Skipf("cannot connect from %s: %v", ip, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// served sends a GET on c (kept alive) and says whether it was answered 200.
func served(c net.Conn) (int, error) {
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, "GET /static/app.css HTTP/1.1\r\nHost: localhost\r\n\r\n"); err != nil {
		return 0, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}

func TestConnectionsAreCappedPerClientAndInAll(t *testing.T) {
	addr := serving(t, web.Config{MaxConnsPerClient: 5, MaxConns: 12, IdleTimeout: time.Minute, HeaderTimeout: time.Minute}, nil)
	var held []net.Conn
	for i := 0; i < 5; i++ {
		c := dialFrom(t, "127.0.0.2", addr)
		if code, err := served(c); code != http.StatusOK {
			t.Fatalf("connection %d from 127.0.0.2: %d %v", i+1, code, err)
		}
		held = append(held, c)
	}
	// The sixth from the same address is refused, at once.
	for i := 0; i < 3; i++ {
		c := dialFrom(t, "127.0.0.2", addr)
		code, err := served(c)
		if code != http.StatusServiceUnavailable && err == nil {
			t.Errorf("connection %d from 127.0.0.2 over the cap: %d, want 503 or closed", 6+i, code)
		}
	}
	// Another client is served meanwhile.
	if code, err := served(dialFrom(t, "127.0.0.1", addr)); code != http.StatusOK {
		t.Errorf("127.0.0.1 while 127.0.0.2 is at its cap: %d %v", code, err)
	}
	// A closed connection gives its place back.
	held[0].Close()
	ok := false
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && !ok; time.Sleep(50 * time.Millisecond) {
		code, _ := served(dialFrom(t, "127.0.0.2", addr))
		ok = code == http.StatusOK
	}
	if !ok {
		t.Error("after one of its connections closed, 127.0.0.2 is still refused")
	}
	// The total cap: 6 in all, whoever opens them.
	addr = serving(t, web.Config{MaxConnsPerClient: 4, MaxConns: 6, IdleTimeout: time.Minute, HeaderTimeout: time.Minute}, nil)
	for i, ip := range []string{"127.0.0.3", "127.0.0.3", "127.0.0.3", "127.0.0.3", "127.0.0.4", "127.0.0.5"} {
		if code, err := served(dialFrom(t, ip, addr)); code != http.StatusOK {
			t.Fatalf("%s, connection %d of 6: %d %v", ip, i+1, code, err)
		}
	}
	for _, ip := range []string{"127.0.0.6", "127.0.0.4", "127.0.0.1"} {
		if code, err := served(dialFrom(t, ip, addr)); code != http.StatusServiceUnavailable && err == nil {
			t.Errorf("%s over the total cap: %d, want 503 or closed", ip, code)
		}
	}
}

// TestEventStreamsOutliveTheTimeouts: a review page's event stream stays
// open while nothing happens for longer than every timeout, and still
// tells the page when the dispatch ends.
func TestEventStreamsOutliveTheTimeouts(t *testing.T) {
	a := startApp(t)
	a.importFile(t, "../../examples/building.json", "edge-events")
	const timeout = 300 * time.Millisecond
	addr := serving(t, web.Config{HeaderTimeout: timeout, BodyTimeout: timeout, MaxBodyTime: timeout, IdleTimeout: timeout, WriteTimeout: timeout}, a)
	b := a.browser(t)
	b.base = "http://" + addr
	id := b.prompt("edge-events", "Delete activity A007", "dave")
	resp := b.events(id)
	next := eventReader(t, resp.Body)
	for p := next(); !p.Ready; p = next() {
	}
	time.Sleep(8 * timeout) // quiet: nothing is sent
	b.post("/d/"+id+"/review", url.Values{"round": {"1"}, "decision": {"reject"}})
	for p := next(); !p.Ended; p = next() {
	}
}

func TestCancelAtEveryStage(t *testing.T) {
	a := startApp(t)
	b := a.browser(t)
	cancelled := func(id string) {
		t.Helper()
		if res := awaitResult(t, a, id); res.Status != workflows.StatusCancelled {
			t.Errorf("%s: %s, want cancelled", id, res.Status)
		}
		if page := b.reviewPageShows(id, `id="outcome"`); !strings.Contains(page, "cancelled") || strings.Contains(page, `id="cancel-form"`) {
			t.Errorf("%s: the page does not show it cancelled (or still offers Cancel)", id)
		}
		sc, err := a.Stores.Load(context.Background(), strings.TrimPrefix(id, "dispatch-"))
		if err != nil || len(sc.Activities) != 147 {
			t.Errorf("%s: the schedule after the cancel: %v", id, err)
		}
	}

	// A question awaiting its answer: the page offers Cancel, and it works.
	a.importFile(t, "../../examples/building.json", "edge-cancel-q")
	id := b.prompt("edge-cancel-q", "delete the pour", "carol")
	page := b.reviewPageShows(id, `id="clarify-form"`)
	if !strings.Contains(page, `action="/d/`+id+`/cancel"`) {
		t.Fatalf("a question: the page offers no Cancel")
	}
	// Accept is refused, saying why.
	b.post("/d/"+id+"/review", url.Values{"round": {"1"}, "decision": {"accept"}})
	if page := b.reviewPageShows(id, `id="refused"`); !strings.Contains(page, "waits for an answer") {
		t.Errorf("accept while a question waits is not explained")
	}
	if code, loc := b.post("/d/"+id+"/cancel", url.Values{"name": {"carol"}}); code != http.StatusSeeOther || loc != "/d/"+id {
		t.Fatalf("cancel: %d %q", code, loc)
	}
	cancelled(id)

	// Reject while a question waits cancels too.
	a.importFile(t, "../../examples/building.json", "edge-cancel-r")
	id = b.prompt("edge-cancel-r", "delete the pour", "carol")
	b.reviewPageShows(id, `id="clarify-form"`)
	b.post("/d/"+id+"/review", url.Values{"round": {"1"}, "decision": {"reject"}})
	cancelled(id)

	// Awaiting review: the review's own Cancel goes there too, and names who.
	a.importFile(t, "../../examples/building.json", "edge-cancel-v")
	id = b.prompt("edge-cancel-v", "Delete activity A007", "erin")
	page = b.reviewPageShows(id, `id="review-form"`)
	if !strings.Contains(page, `formaction="/d/`+id+`/cancel"`) {
		t.Errorf("the review form's Cancel does not post to /cancel")
	}
	b.post("/d/"+id+"/cancel", url.Values{"round": {"1"}, "name": {"erin"}})
	cancelled(id)
	if res := awaitResult(t, a, id); len(res.Decisions) != 1 || res.Decisions[0].Reviewer != "erin" {
		t.Errorf("the cancel's decision: %+v", res.Decisions)
	}

	// Ended: a cancel says so.
	b.post("/d/"+id+"/cancel", url.Values{})
	if page := b.reviewPageShows(id, `id="refused"`); !strings.Contains(page, "already ended") {
		t.Errorf("a cancel of an ended dispatch is not explained")
	}
}

// errorOf is the error a page shows (for a failure's message).
func errorOf(page string) string {
	if i := strings.Index(page, `class="error"`); i >= 0 {
		page = page[i:]
	}
	return page[:min(len(page), 300)]
}

// TestPromptsOverTheCapOrWithControlsAreRefused: the web's prompt form
// refuses what `plan` and `prompt` refuse (scope.MaxPrompt; control
// characters), before any dispatch starts.
func TestPromptsOverTheCapOrWithControlsAreRefused(t *testing.T) {
	a := startApp(t)
	a.importFile(t, "../../examples/building.json", "edge-prompt")
	b := a.browser(t)
	for prompt, want := range map[string]string{
		strings.Repeat("delete A007 ", scope.MaxPrompt/12+1): "too long",
		"delete A007\x1b[2J": "U+001B",
		"add \u202eevil":     "U+202E",
	} {
		code, body := b.post("/prompt", url.Values{"schedule": {"edge-prompt"}, "prompt": {prompt}, "name": {"erin"}})
		if body = html.UnescapeString(body); code != http.StatusBadRequest || !strings.Contains(body, "Prompt not sent") || !strings.Contains(body, want) {
			t.Errorf("a %d-byte prompt: %d, want 400 saying %q:\n%s", len(prompt), code, want, errorOf(body))
		}
	}
	if _, err := a.C.DescribeWorkflowExecution(context.Background(), "dispatch-edge-prompt", ""); err == nil {
		t.Error("a refused prompt started a dispatch")
	}
}
