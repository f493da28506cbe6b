package usertext

import (
	"strings"
	"testing"
)

func TestName(t *testing.T) {
	tests := []struct {
		in   string
		want string // "" = accepted; else a part of the error
	}{
		{"Maria Lopez", ""},
		{"Zoë Ångström-Øre", ""},
		{"工程师", ""},
		{"", "blank"},
		{"   ", "blank"},
		{"Mallory\x1b]0;TITLE\a\x1b[2J", "U+001B (ESC) at character 8"},
		{"bell\a", "U+0007 (BEL)"},
		{"cr\rover", "U+000D (CR)"},
		{"two\nlines", "U+000A (LF)"},
		{"tab\there", "U+0009 (TAB)"},
		{"del\x7f", "U+007F (DEL)"},
		{"c1\u009b2J", "U+009B (CSI)"},
		{"admin\u202eevil", "U+202E (RIGHT-TO-LEFT OVERRIDE)"},
		{"zero\u200bwidth", "U+200B"},
		{"iso\u2066late", "U+2066"},
		{"ls\u2028ep", "U+2028"},
		{"bad\xffutf8", "not valid UTF-8"},
		{strings.Repeat("x", MaxName), ""},
		{strings.Repeat("x", MaxName+1), "256 characters long (255 at most)"},
		{strings.Repeat("é", MaxName), ""},
	}
	for _, tt := range tests {
		err := Name("reviewer", tt.in)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("Name(%q) = %v, want accepted", tt.in, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("Name(%q) = %v, want an error with %q", tt.in, err, tt.want)
		case err != nil && !strings.HasPrefix(err.Error(), "reviewer: "):
			t.Errorf("Name(%q) = %v, want it to name the field", tt.in, err)
		}
		if err != nil && strings.ContainsAny(err.Error(), "\x1b\a\r\u202e") {
			t.Errorf("Name(%q): the error itself carries the control character: %q", tt.in, err)
		}
	}
}

func TestDescription(t *testing.T) {
	if err := Description("description", "line one\n\tline two"); err != nil {
		t.Errorf("lines and tabs refused: %v", err)
	}
	if err := Description("description", "x\x1b[31mred"); err == nil {
		t.Error("ESC accepted in a description")
	}
	if err := Description("description", strings.Repeat("a", MaxDescription+1)); err == nil {
		t.Error("an over-long description accepted")
	}
	if err := Text("feedback", "a\n\tb\rc", 100); err == nil || !strings.Contains(err.Error(), "U+000D (CR) at character 5") {
		t.Errorf("Text with a CR: %v", err)
	}
	if err := Text("feedback", strings.Repeat("é", 10), 9); err == nil || !strings.Contains(err.Error(), "10 characters long (9 at most)") {
		t.Errorf("Text over its limit: %v", err)
	}
}

func TestID(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{"tower-a", true}, {"P6_2024.v2", true}, {"0001", true}, {"_x", true},
		{"", false}, {".", false}, {"..", false}, {".hidden", false}, {"-rf", false},
		{"a/b", false}, {`a\b`, false}, {"a b", false}, {"a%2e", false}, {"ü", false},
		{"x\x00", false}, {strings.Repeat("a", MaxID), true}, {strings.Repeat("a", MaxID+1), false},
	}
	for _, tt := range tests {
		if err := ID("schedule id", tt.in); (err == nil) != tt.ok {
			t.Errorf("ID(%q) = %v, want ok=%v", tt.in, err, tt.ok)
		}
	}
}

func TestIDFrom(t *testing.T) {
	tests := map[string]string{
		"Tower A.xer":      "Tower-A.xer",
		"..":               "",
		".":                "",
		"..json":           "json",
		"":                 "",
		"  über  plan ":    "ber-plan",
		"a/../b":           "a-..-b",
		"---x---":          "x",
		"\x1b[2Jname":      "2Jname",
		"Level 1 / Zone 2": "Level-1-Zone-2",
	}
	for in, want := range tests {
		got := IDFrom(in)
		if got != want {
			t.Errorf("IDFrom(%q) = %q, want %q", in, got, want)
		}
		if got != "" {
			if err := ID("id", got); err != nil {
				t.Errorf("IDFrom(%q) = %q, which ID refuses: %v", in, got, err)
			}
		}
	}
	if got := IDFrom(strings.Repeat("ab", MaxID)); len(got) > MaxID {
		t.Errorf("IDFrom of a long name: %d bytes", len(got))
	}
}

func TestTerminal(t *testing.T) {
	tests := map[string]string{
		"plain":                  "plain",
		"Zoë":                    "Zoë",
		"M\x1b]0;T\a\x1b[2J":     `M\x1b]0;T\x07\x1b[2J`,
		"a\u202eb":               `a\u202eb`,
		"c1\u009b":               `c1\u009b`,
		"bad\xff":                `bad\xff`,
		"two\nlines":             `two\x0alines`,
		"del\x7f":                `del\x7f`,
		"\u200b":                 `\u200b`,
		"nested \\x1b stays put": "nested \\x1b stays put",
	}
	for in, want := range tests {
		if got := Terminal(in); got != want {
			t.Errorf("Terminal(%q) = %q, want %q", in, got, want)
		}
	}
	if got := TerminalText("a\n\tb\x1b"); got != "a\n\tb\\x1b" {
		t.Errorf("TerminalText = %q", got)
	}
}

func FuzzTerminal(f *testing.F) {
	f.Add("M\x1b]0;T\a")
	f.Add("a\u202eb\xff")
	f.Fuzz(func(t *testing.T, s string) {
		out := Terminal(s)
		for _, r := range out {
			if unsafe(r) {
				t.Fatalf("Terminal(%q) = %q keeps %U", s, out, r)
			}
		}
		if Name("n", s) == nil && out != s {
			t.Fatalf("an accepted name %q was changed to %q", s, out)
		}
	})
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{64 << 20: "64 MB", 4096: "4 KB", 1500: "1500 bytes", 1<<20 + 1: "1048577 bytes", 0: "0 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
