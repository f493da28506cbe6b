// Package rendertest helps the tests that load rendered pages in a browser.
package rendertest

import (
	"os"
	"os/exec"
	"testing"
)

// Chromium finds a headless-capable Chromium for the browser tests named
// by what ("the Gantt browser test"). CI must have one (.ci/run installs
// Debian's chromium): there the test fails without it; elsewhere it skips.
func Chromium(tb testing.TB, what string) string {
	tb.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		tb.Fatalf("no chromium, chromium-browser or google-chrome on PATH: %s must run in CI (.ci/run installs Debian's chromium with apt-get)", what)
	}
	tb.Skipf("no chromium on PATH (apt-get install chromium); skipping %s", what)
	return ""
}
