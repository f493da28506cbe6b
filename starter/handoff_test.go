package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestLiteBuildHandsOff builds the two binaries `make build` installs —
// bin/autoscheduler (-tags lite, no Temporal server in it) and
// bin/autoscheduler-dev (full) — and runs the demo through the lite one, as
// `make demo` does: it must exec the full one and finish. Without the full
// binary beside it, the lite one says what is missing.
func TestLiteBuildHandsOff(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two binaries")
	}
	dir := t.TempDir()
	lite, full := filepath.Join(dir, "autoscheduler"), filepath.Join(dir, "autoscheduler-dev")
	for _, b := range [][]string{{"-tags", "lite", "-o", lite}, {"-o", full}} {
		if out, err := exec.Command("go", append(append([]string{"build"}, b...), ".")...).CombinedOutput(); err != nil {
			t.Fatalf("go build %v: %v\n%s", b, err, out)
		}
	}
	// The lite binary holds no Temporal server.
	if out, err := exec.Command("go", "version", "-m", lite).Output(); err != nil || strings.Contains(string(out), "go.temporal.io/server") {
		t.Fatalf("the lite build links the Temporal server (err %v)", err)
	}
	cmd := exec.Command(lite, "demo", "--exit", "--address", "127.0.0.1:0", "--ui-address", "-", "--web-listen", "127.0.0.1:0", "--db", filepath.Join(dir, "data", "x.db"), "--neo4j-uri=", "--weaviate-url=")
	cmd.Dir = ".." // the demo reads examples/building.json
	cmd.Env = append(cmd.Environ(), "OPENAI_API_KEY=", "OPENAI_BASE_URL=")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "dispatch-building: accepted after 2 round(s)") {
		t.Fatalf("demo through the lite binary: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`Web app: http://127\.0\.0\.1:\d+`).Match(out) || !strings.Contains(string(out), "Review, prompt and undo in the browser: http://127.0.0.1:") {
		t.Errorf("the demo does not print the web app's link\n%s", out)
	}
	if err := exec.Command("rm", full).Run(); err != nil {
		t.Fatal(err)
	}
	out, err = exec.Command(lite, "dev").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "autoscheduler-dev, which is missing: run `make build`") {
		t.Fatalf("lite dev without the full binary: %v\n%s", err, out)
	}
}
