package prefs

import (
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/lazyre"
)

// The package's patterns compile on first use; this compiles every one,
// so a bad pattern fails here rather than in front of a planner.
func TestEveryPatternCompiles(t *testing.T) {
	n := 0
	lazyre.Each(func(r *lazyre.Regexp) {
		n++
		defer func() {
			if p := recover(); p != nil {
				t.Errorf("pattern %q: %v", r.String(), p)
			}
		}()
		r.Compiled()
	})
	if n < 10 {
		t.Fatalf("only %d patterns registered", n)
	}
}
