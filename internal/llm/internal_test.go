package llm

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 5, 8, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
		ok     bool
	}{
		{"none", nil, 0, false},
		{"seconds", map[string]string{"Retry-After": "3"}, 3 * time.Second, true},
		{"zero", map[string]string{"Retry-After": "0"}, 0, true},
		{"fractional seconds", map[string]string{"Retry-After": "1.5"}, 1500 * time.Millisecond, true},
		{"http date", map[string]string{"Retry-After": "Mon, 05 Jan 2026 08:00:07 GMT"}, 7 * time.Second, true},
		{"http date past", map[string]string{"Retry-After": "Mon, 05 Jan 2026 07:59:00 GMT"}, 0, true},
		{"milliseconds win", map[string]string{"Retry-After-Ms": "250", "Retry-After": "1"}, 250 * time.Millisecond, true},
		{"bad milliseconds fall back", map[string]string{"Retry-After-Ms": "soon", "Retry-After": "2"}, 2 * time.Second, true},
		{"garbage", map[string]string{"Retry-After": "whenever"}, 0, false},
		{"negative", map[string]string{"Retry-After": "-1"}, 0, false},
	}
	for _, tt := range tests {
		h := http.Header{}
		for k, v := range tt.header {
			h.Set(k, v)
		}
		got, ok := parseRetryAfter(h, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: %v, %v; want %v, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func TestBackoff(t *testing.T) {
	want := []time.Duration{200 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond, 1600 * time.Millisecond, 3200 * time.Millisecond, 5 * time.Second, 5 * time.Second}
	for i, w := range want {
		if got := backoff(i + 1); got != w {
			t.Errorf("backoff(%d) = %v, want %v", i+1, got, w)
		}
	}
	if got := backoff(1000); got != maxBackoff {
		t.Errorf("backoff(1000) = %v", got)
	}
}

func TestStatusError(t *testing.T) {
	tests := []struct {
		status    int
		body      string
		kind      string
		retryable bool
		message   string
	}{
		{429, `{"error":{"message":"slow down","code":"rate_limit_exceeded"}}`, KindRateLimited, true, "slow down"},
		{429, `{"error":{"message":"quota","code":"insufficient_quota"}}`, KindRateLimited, false, "quota"},
		{408, ``, KindTimeout, true, "Request Timeout"},
		{409, ``, KindServer, true, "Conflict"},
		{500, `upstream exploded`, KindServer, true, "upstream exploded"},
		{504, `{"object":"error","message":"vllm says no","code":504}`, KindServer, true, "vllm says no"},
		{400, `{"error":{"message":"bad","code":null}}`, KindBadRequest, false, "bad"},
		{400, `{"error":{"message":"filtered","code":"content_policy_violation"}}`, KindContentFilter, false, "filtered"},
		{401, `{"error":{"message":"who?"}}`, KindAuth, false, "who?"},
		{403, ``, KindForbidden, false, "Forbidden"},
		{404, ``, KindNotFound, false, "Not Found"},
		{413, ``, KindBadRequest, false, "Request Entity Too Large"},
		{422, `{"error":{"message":"unprocessable","code":123}}`, KindBadRequest, false, "unprocessable"},
		{500, `{"error":{"message":"Input should be 'text' or 'json_object' (response_format.type)"}}`, KindBadRequest, false, "Input should be 'text' or 'json_object' (response_format.type)"},
		{501, `{"error":{"message":"tools"}}`, KindBadRequest, false, "tools"},
		{500, `{"error":{"message":"failed to parse the tool call"}}`, KindServer, true, "failed to parse the tool call"},
		{503, `{"error":{"message":"response_format is not supported while loading"}}`, KindServer, true, "response_format is not supported while loading"},
	}
	for _, tt := range tests {
		e := statusError(tt.status, http.Header{}, []byte(tt.body), time.Now())
		if e.Kind != tt.kind || e.Retryable != tt.retryable || e.Message != tt.message || e.Status != tt.status {
			t.Errorf("%d %s: %+v", tt.status, tt.body, e)
		}
	}
}

func TestRedact(t *testing.T) {
	key := "my-custom-proxy-key-123"
	tests := []struct{ in, want string }{
		{"bad key " + key, "bad key [redacted]"},
		{"Incorrect API key provided: sk-proj-abc123***xyz9.", "Incorrect API key provided: [redacted]"},
		{"header Authorization: Bearer abcdef123456 rejected", "header Authorization: [redacted] rejected"},
		{"nothing secret", "nothing secret"},
	}
	for _, tt := range tests {
		if got := redact(tt.in, key); got != tt.want {
			t.Errorf("redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := redact("expected 'text', got 'xyz'", "x"); got != "expected 'text', got 'xyz'" {
		t.Errorf("a one-letter key was redacted: %q", got)
	}
	if got := redact("bad key 1234567 and 12345678", "12345678"); got != "bad key 1234567 and [redacted]" {
		t.Errorf("an 8-character key: %q", got)
	}
	long := redact(strings.Repeat("é", 600), "")
	if len(long) > 510 || !strings.HasSuffix(long, "…") || !strings.HasPrefix(long, "éé") {
		t.Errorf("long message cut to %d bytes: %q", len(long), long[len(long)-10:])
	}
}

func TestErrorText(t *testing.T) {
	e := &Error{Kind: KindServer, Status: 503, Retryable: true, Message: "overloaded", Attempts: 3}
	if got, want := e.Error(), "llm: server (503): overloaded (after 3 attempts)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	e = &Error{Kind: KindInvalidOutput, Message: "plan: x", Attempts: 1}
	if got, want := e.Error(), "llm: invalid_output: plan: x"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

func TestSchemaName(t *testing.T) {
	for in, want := range map[string]string{"plan": "plan", "scope plan/v2": "scope_plan_v2", "": "reply", strings.Repeat("a", 70): strings.Repeat("a", 64)} {
		if got := schemaName(in); got != want {
			t.Errorf("schemaName(%q) = %q", in, got)
		}
	}
}

func TestStripFence(t *testing.T) {
	for in, want := range map[string]string{
		"```json\n{\"a\":1}\n```": "{\"a\":1}\n",
		"```\n[1]\n```":           "[1]\n",
		"```{\"a\":1}```":         "{\"a\":1}",
		`{"a":1}`:                 `{"a":1}`,
		"```":                     "```",
	} {
		if got := stripFence(in); got != want {
			t.Errorf("stripFence(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsStrict(t *testing.T) {
	if !isStrict(SchemaFor[struct {
		A []struct {
			B *int `json:"b"`
		} `json:"a"`
	}]()) {
		t.Error("SchemaFor output not strict")
	}
	open := map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string"}}}
	if isStrict(open) {
		t.Error("open object strict")
	}
	partial := map[string]any{"type": "object", "additionalProperties": false, "required": []string{}, "properties": map[string]any{"a": map[string]any{"type": "string"}}}
	if isStrict(partial) {
		t.Error("optional property strict")
	}
}
