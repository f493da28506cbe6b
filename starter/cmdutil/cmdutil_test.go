package cmdutil

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// TestReport: what both binaries print for an error and the exit code it
// maps to.
func TestReport(t *testing.T) {
	cases := []struct {
		err  error
		code int
		out  string
	}{
		{nil, ExitOK, ""},
		{Usagef("risk: --format %q: want table, json or html", "pdf"), ExitUsage, "autoscheduler: risk: --format \"pdf\": want table, json or html\n"},
		{fmt.Errorf("wrapped: %w", Usagef("bad")), ExitUsage, "autoscheduler: wrapped: bad\n"},
		{errors.New(`unknown flag: --bogus`), ExitUsage, "autoscheduler: unknown flag: --bogus\n"},
		{errors.New(`unknown command "bogus" for "autoscheduler"`), ExitUsage, "autoscheduler: unknown command \"bogus\" for \"autoscheduler\"\n"},
		{errors.New("x.json: no such file"), ExitError, "autoscheduler: x.json: no such file\n"},
		// What an error quotes is escaped: names, prompts, a reviewer's
		// name in a refusal; its own lines and tabs are kept.
		{errors.New("round 1 was already decided: accepted by Mallory\x1b]0;TITLE\a\x1b[2J"), ExitError, "autoscheduler: round 1 was already decided: accepted by Mallory\\x1b]0;TITLE\\x07\\x1b[2J\n"},
		{errors.New("two\nlines\tand \u202e\u0085\x9b\x7f"), ExitError, "autoscheduler: two\nlines\tand \\u202e\\u0085\\x9b\\x7f\n"},
	}
	for _, c := range cases {
		var out bytes.Buffer
		if code := Report(&out, c.err); code != c.code || out.String() != c.out {
			t.Errorf("Report(%v) = %d, %q; want %d, %q", c.err, code, out.String(), c.code, c.out)
		}
	}
}

// TestWriteJSON: --json output carries no character a terminal acts on
// (encoding/json leaves DEL, C1 controls and bidi overrides raw) and
// decodes to the same values.
func TestWriteJSON(t *testing.T) {
	v := map[string]string{"name": "Mallory\x1b]0;T\a\x7f\u0085\u009b2J\u202e\u2066\u200b\ufeff\u00ad\U000e0001 <b>&é王", "plain": "ok"}
	var out bytes.Buffer
	if err := WriteJSON(&out, v); err != nil {
		t.Fatal(err)
	}
	want := `{"name":"Mallory\u001b]0;T\u0007\u007f\u0085\u009b2J\u202e\u2066\u200b\ufeff\u00ad\udb40\udc01 <b>&é王","plain":"ok"}` + "\n"
	if out.String() != want {
		t.Errorf("WriteJSON = %s, want %s", out.String(), want)
	}
	var back map[string]string
	if err := json.Unmarshal(out.Bytes(), &back); err != nil || back["name"] != v["name"] || back["plain"] != "ok" {
		t.Errorf("decoded %q, %v; want %q", back, err, v)
	}
}

// TestWriteOutputNamesThePathAsked: writing into a directory that does not
// exist (or cannot be written) names the user's path, never the
// temporary file the write goes through.
func TestWriteOutputNamesThePathAsked(t *testing.T) {
	dir := t.TempDir()
	for _, path := range []string{filepath.Join(dir, "missing", "x.npy"), filepath.Join(dir, "a", "b", "c.json")} {
		err := WriteOutput(path, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err })
		if err == nil || !strings.Contains(err.Error(), "cannot write "+path) || !strings.Contains(err.Error(), "does not exist") || strings.Contains(err.Error(), ".tmp") {
			t.Errorf("WriteOutput(%s) = %v", path, err)
		}
	}
}
