package prefs

import (
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/lazyre"
)

// The package's patterns compile on first use; a bad one fails here rather
// than in front of a planner.
func TestEveryPatternCompiles(t *testing.T) {
	if n, err := lazyre.CompileAll(); err != nil || n < 10 {
		t.Fatalf("%d patterns: %v", n, err)
	}
}
