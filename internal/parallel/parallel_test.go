package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// TestRanges: every index is visited once, in ranges of at least
// minChunk, one per core at most, the first on the calling goroutine.
func TestRanges(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, tc := range []struct{ n, minChunk, ranges int }{
		{0, 10, 1}, {1, 10, 1}, {9, 10, 1}, {20, 10, 2}, {25, 10, 2}, {1000, 10, 4}, {1000, 0, 4},
	} {
		seen := make([]atomic.Int32, tc.n)
		var ranges atomic.Int32
		Ranges(tc.n, tc.minChunk, func(lo, hi int) {
			ranges.Add(1)
			for i := lo; i < hi; i++ {
				seen[i].Add(1)
			}
		})
		if int(ranges.Load()) != tc.ranges {
			t.Errorf("n=%d minChunk=%d: %d ranges, want %d", tc.n, tc.minChunk, ranges.Load(), tc.ranges)
		}
		for i := range seen {
			if seen[i].Load() != 1 {
				t.Fatalf("n=%d: index %d visited %d times", tc.n, i, seen[i].Load())
			}
		}
	}
	var sum atomic.Int64
	For(100, 10, func(i int) { sum.Add(int64(i)) })
	if sum.Load() != 4950 {
		t.Errorf("For: sum %d, want 4950", sum.Load())
	}
}
