// Package parallel spreads a loop over the cores.
package parallel

import (
	"runtime"
	"sync"
)

// Ranges runs f over 0..n in one contiguous range per core, each of at
// least minChunk items (below that a goroutine costs more than it
// saves). The range starting at 0 runs on the calling goroutine, so a
// caller can give it what it already holds.
func Ranges(n, minChunk int, f func(lo, hi int)) {
	workers := min(runtime.GOMAXPROCS(0), max(1, n/max(1, minChunk)))
	chunk := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Go(func() { f(w*chunk, min(n, (w+1)*chunk)) })
	}
	f(0, min(n, chunk))
	wg.Wait()
}

// For runs f(i) for every i in 0..n, in Ranges.
func For(n, minChunk int, f func(i int)) {
	Ranges(n, minChunk, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			f(i)
		}
	})
}
