package cmdutil

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestFormatFlags: --json is --format json; --format keeps its values and
// its error; the two disagreeing is a usage error; hidden leaves --format
// out of the help but working.
func TestFormatFlags(t *testing.T) {
	run := func(hidden bool, args ...string) (string, error, string) {
		var format string
		cmd := &cobra.Command{Use: "x", RunE: func(cmd *cobra.Command, _ []string) error { return CheckFormat(cmd, "x") }}
		AddFormatFlags(cmd, &format, "table", []string{"table", "json", "html"}, "output format", "print JSON", hidden)
		var out bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetArgs(args)
		err := cmd.Execute()
		return format, err, out.String()
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "table"},
		{[]string{"--json"}, "json"},
		{[]string{"--format", "json"}, "json"},
		{[]string{"--format=html"}, "html"},
		{[]string{"--json", "--format", "json"}, "json"},
		{[]string{"--json=false"}, "table"},
	} {
		if got, err, _ := run(false, tc.args...); err != nil || got != tc.want {
			t.Errorf("%q: format %q, %v; want %q", tc.args, got, err, tc.want)
		}
	}
	if _, err, _ := run(false, "--format", "pdf"); err == nil || err.Error() != `x: --format "pdf": want table, json or html` {
		t.Errorf("--format pdf: %v", err)
	}
	for _, args := range [][]string{{"--json", "--format", "html"}, {"--format", "html", "--json"}} {
		if _, err, _ := run(false, args...); err == nil || !strings.Contains(err.Error(), "--json and --format html: give one") {
			t.Errorf("%q: %v", args, err)
		}
	}
	if _, _, help := run(true, "--help"); strings.Contains(help, "--format") || !strings.Contains(help, "--json") {
		t.Errorf("hidden --format shows in the help:\n%s", help)
	}
	if got, err, _ := run(true, "--format", "json"); err != nil || got != "json" {
		t.Errorf("hidden --format json: %q %v", got, err)
	}
}
