package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestBuildsHandOff builds the three binaries `make build` installs —
// bin/autoscheduler (the front: starter/front), bin/autoscheduler-cli
// (-tags lite, no Temporal server in it) and bin/autoscheduler-dev (full) —
// and checks the hand-offs between them: the demo through the front, as
// `make demo` runs it, goes front → CLI → dev; the front runs `risk --file`
// itself with the CLI's output, errors and exit codes, and hands the rest
// over; a missing binary is named.
func TestBuildsHandOff(t *testing.T) {
	if testing.Short() {
		t.Skip("builds three binaries")
	}
	dir := t.TempDir()
	front, cli, full := filepath.Join(dir, "autoscheduler"), filepath.Join(dir, "autoscheduler-cli"), filepath.Join(dir, "autoscheduler-dev")
	for _, b := range [][]string{{"-o", front, "./front"}, {"-tags", "lite", "-o", cli, "."}, {"-o", full, "."}} {
		build := exec.Command("go", append([]string{"build"}, b...)...)
		if b[1] == front {
			build.Env = append(build.Environ(), "CGO_ENABLED=0") // as make build
		}
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %v: %v\n%s", b, err, out)
		}
	}
	// The front links none of the clients whose initialisation it saves;
	// the CLI holds no Temporal server.
	for bin, banned := range map[string][]string{
		front: {"go.temporal.io", "github.com/weaviate", "github.com/neo4j", "github.com/openai", "modernc.org/sqlite"},
		cli:   {"go.temporal.io/server"},
	} {
		out, err := exec.Command("go", "version", "-m", bin).Output()
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range banned {
			if strings.Contains(string(out), m) {
				t.Errorf("%s links %s", filepath.Base(bin), m)
			}
		}
	}

	run := func(bin string, args ...string) (code int, stdout, stderr string) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = ".."
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, o.String(), e.String()
	}
	same := [][]string{
		{"risk", "--file", "examples/building.json", "--iterations", "2000", "--seed", "3", "--format", "json"},
		{"risk", "-f", "examples/building.json", "-n300", "--correlate", "trade"},
		{"risk", "--file", "examples/building.json", "--format", "pdf"},
		{"risk", "--file", "examples/building.json", "--iterations", "many"},
		{"risk", "--file", "starter/testdata/missing.json"},
		{"risk", "--file", "examples/building.json", "--help"},
		{"risk", "--schedule", "building", "--neo4j-uri=", "--weaviate-url=", "--db", filepath.Join(dir, "none.db")},
		{"schedule", "--file", "examples/building.json", "--format", "json"},
		{"schedule", "-f", "examples/building.json"},
		{"schedule", "--file", "examples/building.json", "--json", "--rules", "p6"},
		{"schedule", "--file", "examples/building.json", "--format", "gantt-html"},
		{"schedule", "--file", "examples/building.json", "--format", "dot"},
		{"schedule", "--file", "internal/interchange/testdata/xerpatch/site.xer", "--format", "json"},
		{"schedule", "--file", "examples/building.json", "--rules", "primavera"},
		{"schedule", "--file", "examples/building.json", "--format", "svg"},
		{"schedule", "--file", "starter/testdata/missing.json"},
		{"schedule", "--file", "examples/building.json", "--schedule", "building"},
		{"schedule", "list", "--neo4j-uri=", "--weaviate-url=", "--db", filepath.Join(dir, "none.db")},
		{"--help"},
		{"bogus"},
	}
	for _, args := range same {
		fc, fo, fe := run(front, args...)
		cc, co, ce := run(cli, args...)
		if fc != cc || fo != co || fe != ce {
			t.Errorf("%q: front exit %d, CLI %d\nfront: %.300s%.300s\nCLI: %.300s%.300s", args, fc, cc, fo, fe, co, ce)
		}
	}

	cmd := exec.Command(front, "demo", "--exit", "--address", "127.0.0.1:0", "--ui-address", "-", "--web-listen", "127.0.0.1:0", "--db", filepath.Join(dir, "data", "x.db"), "--neo4j-uri=", "--weaviate-url=")
	cmd.Dir = ".." // the demo reads examples/building.json
	cmd.Env = append(cmd.Environ(), "OPENAI_API_KEY=", "OPENAI_BASE_URL=")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "dispatch-building: accepted after 2 round(s)") {
		t.Fatalf("demo through the front: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`Web app: http://127\.0\.0\.1:\d+`).Match(out) || !strings.Contains(string(out), "Review, prompt and undo in the browser: http://127.0.0.1:") {
		t.Errorf("the demo does not print the web app's link\n%s", out)
	}

	if err := os.Remove(full); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run(front, "dev"); code != exitError || !strings.Contains(errOut, "autoscheduler-dev, which is missing: run `make build`") {
		t.Fatalf("dev without the full binary: exit %d\n%s", code, errOut)
	}
	if err := os.Remove(cli); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run(front, "check", "--file", "examples/building.json"); code != exitError || !strings.Contains(errOut, "autoscheduler-cli, which is missing: run `make build`") {
		t.Fatalf("the front without the CLI: exit %d\n%s", code, errOut)
	}
	if code, out, errOut := run(front, "schedule", "--file", "examples/building.json"); code != exitOK || !strings.Contains(out, "Project duration") {
		t.Fatalf("schedule --file without the CLI: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := run(front, "risk", "--file", "examples/building.json", "-n", "200"); code != exitOK || !strings.Contains(out, "P80") {
		t.Fatalf("risk --file without the CLI: exit %d\n%s%s", code, out, errOut)
	}
}
