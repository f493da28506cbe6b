package main

import (
	"context"
	"io"
	"testing"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/starter/riskcmd"
	"github.com/autoscheduler/autoscheduler/starter/schedulecmd"
)

// TestServes: the front runs `risk` and `schedule` on a file with their own
// flags, in every spelling pflag accepts, and hands everything else to the
// CLI.
func TestServes(t *testing.T) {
	cases := []struct {
		args []string
		want bool
	}{
		{[]string{"risk", "--file", "a.json"}, true},
		{[]string{"risk", "-f", "a.json", "--iterations", "500", "--seed", "3", "--format", "json"}, true},
		{[]string{"risk", "--file=a.json", "-n500", "--seed=7", "--format=html"}, true},
		{[]string{"risk", "-fa.json", "--correlate", "trade", "--correlation", "0.3"}, true},
		{[]string{"risk", "--file", "a.json", "--workers", "1", "--dump-samples", "s.npy"}, true},
		{[]string{"risk", "--file", "-odd-name.json"}, true}, // a value, not a flag
		{[]string{"risk", "--iterations", "10"}, false},      // no file: the CLI says what is missing
		{[]string{"risk", "--schedule", "building"}, false},
		{[]string{"risk", "--file", "a.json", "-s", "building"}, false},
		{[]string{"risk", "--file", "a.json", "--help"}, false},
		{[]string{"risk", "-h"}, false},
		{[]string{"risk", "--file", "a.json", "--neo4j-uri", "bolt://x"}, false}, // a global flag
		{[]string{"risk", "--file", "a.json", "extra"}, false},
		{[]string{"risk", "--file", "a.json", "--", "x"}, false},
		{[]string{"risk", "--file", "a.json", "-"}, false},
		{[]string{"risk", "--file", "a.json", "--bogus"}, false},
		{[]string{"--neo4j-uri", "bolt://x", "risk", "--file", "a.json"}, false},
		{[]string{"risk"}, false},
		{[]string{"risk", "--file", "a.json", "--json"}, true},
		{[]string{"risk", "--json", "--file", "a.json"}, true}, // --json takes no value
		{[]string{"risk", "--json=false", "-f", "a.json"}, true},
		{[]string{"schedule", "--file", "a.json"}, true},
		{[]string{"schedule", "-f", "a.xer", "--format", "json", "--rules", "p6"}, true},
		{[]string{"schedule", "--file=a.json", "--json"}, true},
		{[]string{"schedule", "--schedule", "building"}, false},
		{[]string{"schedule", "list"}, false},
		{[]string{"schedule", "delete", "building"}, false},
		{[]string{"schedule", "--file", "a.json", "--help"}, false},
		{[]string{"schedule", "--file", "a.json", "--iterations", "5"}, false}, // risk's flag
		{[]string{"plan", "--file", "a.json"}, false},
		{[]string{"--help"}, false},
		{nil, false},
	}
	load := func(context.Context, string) (*schedule.Schedule, error) { return nil, nil }
	for _, c := range cases {
		got := false
		for _, cmd := range []*cobra.Command{riskcmd.New(io.Discard, io.Discard, load, nil), schedulecmd.New(io.Discard, io.Discard, load, nil)} {
			got = got || serves(c.args, cmd)
		}
		if got != c.want {
			t.Errorf("serves(%q) = %v, want %v", c.args, got, c.want)
		}
		if cmd := served(c.args); (cmd != nil) != c.want || cmd != nil && cmd.Name() != c.args[0] {
			t.Errorf("served(%q) = %v, want %v", c.args, cmd, c.want)
		}
	}
}
