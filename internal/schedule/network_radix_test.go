package schedule

import (
	"maps"
	"math/rand/v2"
	"testing"
)

// TestRepeated: the values that occur more than once, on random values,
// values that share their top bits (one bucket), repeats near and far
// apart, and sizes around the small-input cut.
func TestRepeated(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 1<<12 - 1, 1 << 12, 5000, 100_000} {
		for _, mask := range []uint64{^uint64(0), 0xffff, 0xff00_0000_0000_0fff} {
			a := make([]uint64, n)
			for i := range a {
				a[i] = r.Uint64() & mask
				if i%97 == 3 {
					a[i] = a[i/2] // a repeat
				}
			}
			want, seen := map[uint64]bool{}, map[uint64]bool{}
			for _, v := range a {
				if seen[v] {
					want[v] = true
				}
				seen[v] = true
			}
			if got := repeated(a); !maps.Equal(got, want) {
				t.Fatalf("n=%d mask=%x: %d repeated values, want %d", n, mask, len(got), len(want))
			}
		}
	}
}
