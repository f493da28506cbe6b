package web

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
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

// secure wraps every route: security headers, the token when one is set,
// a session cookie, and a CSRF token on every POST.
func (s *Server) secure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "SAMEORIGIN")
		h.Set("Content-Security-Policy", pagePolicy)
		if s.cfg.Token != "" && !s.authorized(w, r) {
			return
		}
		session := ""
		if c, err := r.Cookie(sessionCookie); err == nil && len(c.Value) >= 16 {
			session = c.Value
		}
		if r.Method == http.MethodPost {
			r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxUpload+1<<20)
			if !s.validCSRF(r, session) {
				s.fail(w, r, http.StatusForbidden, "This form has expired or did not come from this app (CSRF check failed): reload the page and try again.")
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
	})
}

// authorized checks the token: a Bearer header, the cookie, or ?token=
// (which sets the cookie and redirects to the same URL without it, so the
// token does not stay in the address bar or the history).
func (s *Server) authorized(w http.ResponseWriter, r *http.Request) bool {
	if bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && s.tokenMatches(bearer) {
		return true
	}
	if c, err := r.Cookie(tokenCookie); err == nil && s.tokenMatches(c.Value) {
		return true
	}
	if t := r.URL.Query().Get("token"); t != "" && s.tokenMatches(t) && r.Method == http.MethodGet {
		http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: t, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		clean := *r.URL
		q := clean.Query()
		q.Del("token")
		clean.RawQuery = q.Encode()
		http.Redirect(w, r, clean.RequestURI(), http.StatusSeeOther)
		return false
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="autoscheduler"`)
	http.Error(w, "401 unauthorized: this app needs its token (open the link `autoscheduler web` printed, or send Authorization: Bearer TOKEN)", http.StatusUnauthorized)
	return false
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
func (s *Server) name(r *http.Request) string {
	if c, err := r.Cookie(nameCookie); err == nil {
		if v, err := url.QueryUnescape(c.Value); err == nil && strings.TrimSpace(v) != "" {
			return v
		}
	}
	return s.cfg.Reviewer
}

// rememberName keeps the name a person typed for their next forms.
func rememberName(w http.ResponseWriter, name string) {
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
	u, err := url.Parse(target)
	if err != nil || u.Scheme != "" || u.Host != "" || !strings.HasPrefix(u.Path, "/") || strings.HasPrefix(u.Path, "//") {
		return fallback
	}
	return u.RequestURI()
}
