package web

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/autoscheduler/autoscheduler/internal/usertext"
)

// Cookies the app sets. All are HttpOnly and SameSite=Strict: no other
// site's page can send them along.
const (
	tokenCookie   = "as_token"
	sessionCookie = "as_session"
	nameCookie    = "as_name"
)

// pagePolicy is the Content-Security-Policy of the app's own pages: no
// inline script at all, so schedule text that slipped past escaping still
// could not run.
const pagePolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'"

type sessionKey struct{}

// secure wraps every route: deadlines on the connection, the Host
// header, security headers, the token when one is set, a session cookie,
// and on every POST a body within the upload limit, a CSRF token and a
// well-formed name.
func (s *Server) secure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		orig := w
		w = s.deadlines(w, r)
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "SAMEORIGIN")
		h.Set("Content-Security-Policy", pagePolicy)
		if !s.hostAllowed(r.Host) {
			s.refuse(w, r, http.StatusMisdirectedRequest, s.misdirected(r.Host))
			return
		}
		if s.cfg.Token != "" && !s.authorized(w, r) {
			return
		}
		session := ""
		if c, err := r.Cookie(sessionCookie); err == nil && len(c.Value) >= 16 {
			session = c.Value
		}
		if r.Method == http.MethodPost {
			if !s.readForm(w, orig, r) {
				return
			}
			if !s.validCSRF(r, session) {
				s.fail(w, r, http.StatusForbidden, "This form has expired or did not come from this app (CSRF check failed): reload the page and try again.")
				return
			}
			if msg := formNameError(r); msg != "" {
				s.fail(w, r, http.StatusBadRequest, msg)
				return
			}
		}
		if session == "" {
			b, err := randomBytes(18)
			if err != nil {
				s.fail(w, r, http.StatusInternalServerError, "cannot start a session")
				return
			}
			session = base64.RawURLEncoding.EncodeToString(b)
			http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: session, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), sessionKey{}, session)))
		if tw, ok := w.(*timedWriter); ok {
			tw.extend() // the server sends what is still buffered
		}
	})
}

// refuse answers a plain-text error and closes the connection without
// reading more of the request: a refused client holds nothing open.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, status int, msg string) {
	w.Header().Set("Connection", "close")
	if hasBody(r) {
		http.NewResponseController(w).SetReadDeadline(time.Now()) //nolint:errcheck // not a server connection (a test recorder)
	}
	http.Error(w, msg, status)
}

// --- Host names (DNS rebinding) ---

// hostAllowed says whether the app answers requests for host (the Host
// header): loopback names always (localhost, 127.0.0.0/8, [::1], any
// port, any case, a trailing dot), and with a token the --allowed-host
// names and the listen address's own host. A name that is not loopback
// could be an attacker's, re-pointed at 127.0.0.1 (DNS rebinding): the
// browser would treat its pages and this app as one site.
func (s *Server) hostAllowed(host string) bool {
	hp, ok := parseHost(host)
	if !ok {
		return false
	}
	if hp.host == "localhost" {
		return true
	}
	if ip := net.ParseIP(hp.host); ip != nil && ip.IsLoopback() {
		return true
	}
	if s.cfg.Token == "" {
		return false
	}
	for _, a := range s.hosts {
		if a.host == hp.host && (a.port == "" || a.port == hp.port) {
			return true
		}
	}
	return false
}

func (s *Server) misdirected(host string) string {
	if host == "" {
		return "421 misdirected request: the request names no host (Host header)"
	}
	msg := fmt.Sprintf("421 misdirected request: this app does not answer to the host name %q. It answers to localhost, 127.0.0.1 and [::1]", usertext.Terminal(host))
	if s.cfg.Token == "" {
		return msg + ": a page of another site that re-points its name at this machine (DNS rebinding) must not reach it. To serve other names, start it with a token (--token) and --allowed-host NAME."
	}
	names := make([]string, 0, len(s.hosts))
	for _, a := range s.hosts {
		n := a.host
		if strings.Contains(n, ":") {
			n = "[" + n + "]"
		}
		if a.port != "" {
			n += ":" + a.port
		}
		names = append(names, n)
	}
	if len(names) > 0 {
		msg += " and " + strings.Join(names, ", ")
	}
	return msg + ". If people reach it by this name, start it with --allowed-host " + usertext.Terminal(strings.TrimSuffix(hostOnly(host), ".")) + "."
}

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return hostport
}

// --- Deadlines on the connection ---

// deadlines sets the request's connection deadlines and returns the
// writer that keeps them: each write (and flush) must be taken by the
// client within WriteTimeout, so a page or an event stream lives as long
// as its client reads it; a body must keep arriving (BodyTimeout between
// pieces, MaxBodyTime in all); a request without a body has no read
// deadline at all while it is answered (the server only watches the
// connection for its close: a deadline there would cut an event stream;
// net/http clears it too when it starts watching).
func (s *Server) deadlines(w http.ResponseWriter, r *http.Request) http.ResponseWriter {
	rc := http.NewResponseController(w)
	if rc.SetWriteDeadline(time.Now().Add(s.cfg.WriteTimeout)) != nil {
		return w // not a connection (a test recorder)
	}
	if hasBody(r) {
		b := &timedBody{ReadCloser: r.Body, rc: rc, idle: s.cfg.BodyTimeout, end: time.Now().Add(s.cfg.MaxBodyTime)}
		b.arm()
		r.Body = b
	} else {
		rc.SetReadDeadline(time.Time{}) //nolint:errcheck // checked above: a connection
	}
	return &timedWriter{ResponseWriter: w, rc: rc, d: s.cfg.WriteTimeout}
}

func hasBody(r *http.Request) bool {
	return r.ContentLength != 0 && r.Body != nil && r.Body != http.NoBody
}

// timedWriter gives each write its own write deadline.
type timedWriter struct {
	http.ResponseWriter
	rc *http.ResponseController
	d  time.Duration
}

func (t *timedWriter) extend() { t.rc.SetWriteDeadline(time.Now().Add(t.d)) } //nolint:errcheck // a connection: checked in deadlines

func (t *timedWriter) WriteHeader(code int) { t.extend(); t.ResponseWriter.WriteHeader(code) }

func (t *timedWriter) Write(p []byte) (int, error) { t.extend(); return t.ResponseWriter.Write(p) }

func (t *timedWriter) Flush() { t.extend(); t.rc.Flush() } //nolint:errcheck // the client went away

func (t *timedWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }

// timedBody reads a request body that must keep arriving: each read gets
// idle, and the whole body ends by end. Once it is read, the connection
// has no read deadline (see deadlines).
type timedBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	idle time.Duration
	end  time.Time
	done bool
}

func (b *timedBody) arm() {
	d := time.Now().Add(b.idle)
	if d.After(b.end) {
		d = b.end
	}
	b.rc.SetReadDeadline(d) //nolint:errcheck // a connection
}

func (b *timedBody) Read(p []byte) (int, error) {
	if !b.done {
		b.arm()
	}
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.done {
		b.done = true
		b.rc.SetReadDeadline(time.Time{}) //nolint:errcheck // a connection
	}
	return n, err
}

// --- Forms: size, CSRF, names ---

// readForm parses a POST's form within the upload limit. A body over the
// limit is refused 413 saying so — up front when its Content-Length says
// it, else when the limit is reached — and one that stops arriving 408;
// not a CSRF failure, which is what reading the form would report.
func (s *Server) readForm(w, orig http.ResponseWriter, r *http.Request) bool {
	limit := s.cfg.MaxUpload + 1<<20 // the file and the form around it
	raw := r.Body
	if r.ContentLength > limit {
		s.tooLarge(w, r, raw)
		return false
	}
	r.Body = http.MaxBytesReader(orig, r.Body, limit)
	var err error
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct == "multipart/form-data" {
		err = r.ParseMultipartForm(32 << 20)
	} else {
		err = r.ParseForm()
	}
	var tooBig *http.MaxBytesError
	var ne net.Error
	switch {
	case err == nil:
		return true
	case errors.As(err, &tooBig):
		s.tooLarge(w, r, raw)
	case errors.Is(err, os.ErrDeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		s.refuse(w, r, http.StatusRequestTimeout, fmt.Sprintf("408 request timeout: the request's body stopped arriving (nothing for %s)", s.cfg.BodyTimeout))
	case errors.Is(err, io.ErrUnexpectedEOF):
		s.refuse(w, r, http.StatusBadRequest, "400 bad request: the request's body ended early")
	default:
		s.fail(w, r, http.StatusBadRequest, "The form could not be read: "+err.Error())
	}
	return false
}

// tooLarge answers 413, then reads on what the client still sends (at
// most twice the limit, for a minute at most, while it comes without a
// pause of 5 s) before the connection closes: closed with its upload
// unread, the browser would see the connection reset, not the answer.
func (s *Server) tooLarge(w http.ResponseWriter, r *http.Request, body io.Reader) {
	w.Header().Set("Connection", "close")
	s.fail(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("Upload refused: the file is too large (%s at most).", usertext.Size(s.cfg.MaxUpload)))
	http.NewResponseController(w).Flush() //nolint:errcheck // the client went away
	until := time.Now().Add(time.Minute)
	if tb, ok := body.(*timedBody); ok {
		tb.idle = min(tb.idle, 5*time.Second)
		if until.Before(tb.end) {
			tb.end = until
		}
	}
	buf := make([]byte, 64<<10)
	for n := int64(0); n < 2*s.cfg.MaxUpload && time.Now().Before(until); {
		k, err := body.Read(buf)
		if err != nil {
			return
		}
		n += int64(k)
	}
}

// formNameError is what is wrong with the person's name a form sends
// (the name field of every form that has one), "" when it is fine or
// absent: no control characters (which would rewrite a terminal the name
// is printed on), no invisible formatting characters, not over-long.
func formNameError(r *http.Request) string {
	n, ok := r.Form["name"]
	if !ok || len(n) == 0 {
		return ""
	}
	v := strings.Trim(n[0], " ")
	if v == "" {
		return ""
	}
	if err := usertext.Name("name", v); err != nil {
		var ue *usertext.Error
		if errors.As(err, &ue) {
			return "Your name " + ue.Reason + "."
		}
		return "Your name: " + err.Error()
	}
	return ""
}

// authorized checks the token: a Bearer header, the cookie, or ?token=
// (which sets the cookie and redirects to the same URL without it, so the
// token does not stay in the address bar or the history). The redirect
// stays on this app whatever the path looks like.
func (s *Server) authorized(w http.ResponseWriter, r *http.Request) bool {
	if bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && s.tokenMatches(bearer) {
		return true
	}
	if c, err := r.Cookie(tokenCookie); err == nil && s.tokenMatches(c.Value) {
		return true
	}
	if t := r.URL.Query().Get("token"); t != "" && s.tokenMatches(t) && r.Method == http.MethodGet {
		http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: t, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		q := r.URL.Query()
		q.Del("token")
		http.Redirect(w, r, sameURL(r.URL, q.Encode()), http.StatusSeeOther)
		return false
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="autoscheduler"`)
	s.refuse(w, r, http.StatusUnauthorized, "401 unauthorized: this app needs its token (open the link `autoscheduler web` printed, or send Authorization: Bearer TOKEN)")
	return false
}

// sameURL is u's path on this app with the query rawQuery, or "/" when the
// path could lead a browser elsewhere: "//host", "/\\host" (browsers read
// a backslash as a slash), encoded slashes or backslashes that a proxy
// might decode, control characters (browsers drop tabs and newlines).
func sameURL(u *url.URL, rawQuery string) string {
	p, esc := u.Path, u.EscapedPath()
	if !safePath(p) || !safePath(esc) {
		return "/"
	}
	target := esc
	if rawQuery != "" {
		target += "?" + rawQuery
	}
	return localPath(target, "/")
}

// safePath says whether p is a path a browser keeps on this site: it
// starts with one slash, has no backslash and no control character, and
// no encoded slash or backslash (a proxy or a second decoding could make
// it "//host").
func safePath(p string) bool {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") {
		return false
	}
	low := strings.ToLower(p)
	if strings.Contains(low, "%2f") || strings.Contains(low, "%5c") {
		return false
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f || r == '\\' {
			return false
		}
	}
	return true
}

func (s *Server) tokenMatches(t string) bool {
	return subtle.ConstantTimeCompare([]byte(t), []byte(s.cfg.Token)) == 1
}

// csrfToken is the session's CSRF token: an HMAC of the session id, so
// nothing needs storing and a token from another session never passes.
func (s *Server) csrfToken(session string) string {
	if session == "" {
		return ""
	}
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte(session))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func (s *Server) validCSRF(r *http.Request, session string) bool {
	if session == "" || r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return false
	}
	got := r.Header.Get("X-CSRF-Token")
	if got == "" {
		got = r.FormValue("csrf")
	}
	return got != "" && hmac.Equal([]byte(got), []byte(s.csrfToken(session)))
}

func sessionOf(r *http.Request) string {
	s, _ := r.Context().Value(sessionKey{}).(string)
	return s
}

// name is who the browser says its person is (the name cookie), else the
// app's default reviewer.
// A stored name that breaks the rules of names (control characters,
// invisible formatting, over-long) is ignored.
func (s *Server) name(r *http.Request) string {
	if c, err := r.Cookie(nameCookie); err == nil {
		if v, err := url.QueryUnescape(c.Value); err == nil && usertext.Name("name", v) == nil {
			return v
		}
	}
	return s.cfg.Reviewer
}

// rememberName keeps the name a person typed for their next forms (one
// that breaks the rules of names is not kept).
func rememberName(w http.ResponseWriter, name string) {
	if usertext.Name("name", name) != nil {
		return
	}
	http.SetCookie(w, &http.Cookie{Name: nameCookie, Value: url.QueryEscape(name), Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, MaxAge: 365 * 24 * 3600})
}

func randomBytes(n int) ([]byte, error) {
	b := make([]byte, n)
	_, err := rand.Read(b)
	return b, err
}

// localPath is target when it is a path on this app, else fallback: a
// redirect never leads off the app.
func localPath(target, fallback string) string {
	if path, _, _ := strings.Cut(target, "?"); !safePath(path) {
		return fallback
	}
	u, err := url.Parse(target)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Opaque != "" || !safePath(u.Path) || !safePath(u.EscapedPath()) {
		return fallback
	}
	return u.RequestURI()
}

// --- Tokens ---

// MinTokenBits is the strength a token needs, estimated from its length
// and the kinds of characters it uses (lower case 26 possibilities, upper
// case 26, digits 10, ASCII symbols 32, any other character 128); a
// character that carries on a run or a sequence ("aaaa", "abcd", "4321")
// counts one bit, a repeated block ("xyzxyz") once. 24 random letters and
// digits or 32 random hex digits are enough; GenerateToken makes 43
// characters.
const MinTokenBits = 128

// CheckToken refuses a token too weak to guard the app: whitespace or
// control characters, fewer than MinTokenBits by the estimate above, or
// fewer than 8 different characters. The error says why and offers a
// generated token.
func CheckToken(token string) error {
	why := tokenWeakness(token)
	if why == "" {
		return nil
	}
	msg := "--token (or AUTOSCHEDULER_WEB_TOKEN) " + why + "; whoever has it can accept changes to the schedules, so it must be hard to guess"
	if t, err := GenerateToken(); err == nil {
		msg += ": use a random one such as " + t + " (`autoscheduler web --generate-token` prints a new one)"
	}
	return errors.New(msg)
}

func tokenWeakness(token string) string {
	if !utf8.ValidString(token) {
		return "is not valid UTF-8"
	}
	if token == "" {
		return "is empty"
	}
	runes := []rune(token)
	for i, r := range runes {
		if unicode.IsSpace(r) || !unicode.IsPrint(r) || unicode.Is(unicode.Cf, r) {
			return fmt.Sprintf("has %s at character %d: a token is one word of visible characters (no spaces or control characters)", usertext.Rune(r), i+1)
		}
	}
	distinct := map[rune]bool{}
	var lower, upper, digit, symbol, other bool
	for _, r := range runes {
		distinct[r] = true
		switch {
		case r >= 'a' && r <= 'z':
			lower = true
		case r >= 'A' && r <= 'Z':
			upper = true
		case r >= '0' && r <= '9':
			digit = true
		case r < utf8.RuneSelf:
			symbol = true
		default:
			other = true
		}
	}
	alphabet := 0
	for _, k := range []struct {
		used bool
		n    int
	}{{lower, 26}, {upper, 26}, {digit, 10}, {symbol, 32}, {other, 128}} {
		if k.used {
			alphabet += k.n
		}
	}
	per := math.Log2(float64(alphabet))
	block := runes[:period(runes)]
	bits := 0.0
	for i := range block {
		if i >= 2 {
			if d := block[i] - block[i-1]; d >= -1 && d <= 1 && d == block[i-1]-block[i-2] {
				bits++ // a run ("aaa") or a sequence ("abc", "321") going on: hardly a choice
				continue
			}
		}
		bits += per
	}
	switch {
	case bits < MinTokenBits:
		n := fmt.Sprintf("%d characters", len(runes))
		if len(runes) == 1 {
			n = "1 character"
		}
		return fmt.Sprintf("is too weak: %s, about %.0f bits by their kinds and repeats, and %d are needed (e.g. 24 random letters and digits)", n, bits, MinTokenBits)
	case len(distinct) < 8:
		return fmt.Sprintf("is too weak: only %d different characters (8 at least)", len(distinct))
	}
	return ""
}

// period is the length of the shortest block that, repeated at least
// twice (the last time maybe in part), makes runes; len(runes) when none.
func period(runes []rune) int {
	for p := 1; p*2 <= len(runes); p++ {
		ok := true
		for i := p; i < len(runes) && ok; i++ {
			ok = runes[i] == runes[i-p]
		}
		if ok {
			return p
		}
	}
	return len(runes)
}

// GenerateToken makes a strong token: 32 random bytes, base64url (43
// characters, 256 bits).
func GenerateToken() (string, error) {
	b, err := randomBytes(32)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}
