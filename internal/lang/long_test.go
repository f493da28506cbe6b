package lang

import (
	"context"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"

	"github.com/autoscheduler/autoscheduler/internal/store/storetest"
)

// TestLongListResolvesInLinearWork: a list of n names costs about n
// resolutions, not one for every run of parts that might rejoin into a
// name with "and" in it (n² of ever longer phrases, each scanned against
// every activity: "delete A010, A011, …" with 100 ids took 8 s).
func TestLongListResolvesInLinearWork(t *testing.T) {
	s := storetest.Building(t)
	// Names said with their level (a level said once covers the names
	// before it that have none).
	var named []schedule.Activity
	for _, a := range s.Activities {
		if strings.Contains(a.Name, " Level ") {
			named = append(named, a)
		}
	}
	work := func(n int, id bool) (int, int) {
		var xs []string
		for i := 0; i < n; i++ {
			a := named[(i*3)%len(named)]
			if id {
				xs = append(xs, a.ID)
			} else {
				xs = append(xs, a.Name)
			}
		}
		list := strings.Join(xs[:n-1], ", ") + " and " + xs[n-1]
		r := NewResolver(s)
		res := r.Resolve(Ref{Text: list, Words: strings.ToLower(list)})
		if res.Status != Found {
			t.Fatalf("%d names: status %v, part %q", n, res.Status, res.Part)
		}
		return r.resolved, len(res.Acts)
	}
	for _, id := range []bool{true, false} {
		small, _ := work(25, id)
		large, acts := work(100, id)
		t.Logf("ids %v: 25 names: %d resolutions; 100 names: %d", id, small, large)
		if acts < 50 {
			t.Errorf("ids %v: 100 names found %d activities", id, acts)
		}
		if large > 4*small+20 || large > 12*100 {
			t.Errorf("ids %v: 25 names took %d resolutions, 100 names %d: want about linear growth", id, small, large)
		}
	}
}

// TestParseStopsWhenCancelled: a parse whose context is done reads no
// more clauses.
func TestParseStopsWhenCancelled(t *testing.T) {
	src := strings.Repeat("delete Painting Level 2; ", 50)
	if got := len(Parse(src, Options{})); got != 50 {
		t.Fatalf("%d commands, want 50", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := Parse(src, Options{Context: ctx}); len(got) != 0 {
		t.Errorf("cancelled: %d commands, want none", len(got))
	}
	if got := ParseFeedback(src, Options{Context: ctx}); len(got.Commands) != 0 {
		t.Errorf("cancelled feedback: %d commands, want none", len(got.Commands))
	}
	if got := Requests(src, Options{Context: ctx}); len(got) != 0 {
		t.Errorf("cancelled requests: %d, want none", len(got))
	}
}
