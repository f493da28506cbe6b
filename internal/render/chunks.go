package render

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"unicode/utf8"
)

// rowsPerChunk is how many rows one goroutine formats at a time: enough
// that handing a chunk over costs nothing beside it, few enough that the
// chunks in flight stay a few megabytes.
const rowsPerChunk = 2048

// writeRows writes rows 0..n-1, each formatted by row (appending to b), to
// w in order. A large report is formatted on every core, a chunk of rows
// per goroutine, and written as the chunks complete in order: on 100,000
// activities formatting is most of the writing's time. At most a few
// chunks per core are ahead of the writer, so memory stays bounded.
func writeRows(w io.Writer, n int, row func(b []byte, i int) []byte) error {
	chunks := (n + rowsPerChunk - 1) / rowsPerChunk
	format := func(b []byte, k int) []byte {
		for i := k * rowsPerChunk; i < min(n, (k+1)*rowsPerChunk); i++ {
			b = row(b, i)
		}
		return b
	}
	workers := min(runtime.GOMAXPROCS(0), chunks/2)
	if workers < 2 {
		b := make([]byte, 0, 64<<10)
		for k := range chunks {
			if b = format(b[:0], k); len(b) > 0 {
				if _, err := w.Write(b); err != nil {
					return err
				}
			}
		}
		return nil
	}
	window := 3 * workers
	done := make([]chan []byte, chunks) // chunk k's text, once
	for k := range done {
		done[k] = make(chan []byte, 1)
	}
	tokens := make(chan struct{}, window) // a chunk may start
	for range window {
		tokens <- struct{}{}
	}
	free := make(chan []byte, window+workers) // written buffers, reused
	stop := make(chan struct{})
	var next, size atomic.Int64 // the next chunk; the largest one's bytes
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				select {
				case <-tokens:
				case <-stop:
					return
				}
				k := int(next.Add(1) - 1)
				if k >= chunks {
					return
				}
				var b []byte
				select {
				case b = <-free:
				default:
					// Sized as the largest chunk so far: growing a
					// megabyte from nothing copies it many times over.
					b = make([]byte, 0, size.Load()*9/8)
				}
				b = format(b[:0], k)
				if n := int64(len(b)); n > size.Load() {
					size.Store(n) // a race between two stores only sizes a buffer
				}
				done[k] <- b
			}
		})
	}
	var err error
	for k := range chunks {
		b := <-done[k]
		if _, err = w.Write(b); err != nil {
			break
		}
		free <- b
		tokens <- struct{}{}
	}
	close(stop) // a failed write leaves chunks unwritten: stop formatting them
	wg.Wait()
	return err
}

// writeColumns writes lines of cells as text/tabwriter does with no
// minimum width, two spaces of padding and no flags: every column but
// the last as wide as its widest cell (in characters) and two more, the
// last as it is. It lays the columns out itself, on every core (a
// 100,000-row table takes a third of the time); lines whose cells a
// tabwriter would read otherwise (a tab, a line break or a form feed in a
// cell, or lines of different lengths) go through tabwriter itself.
func writeColumns(w io.Writer, lines [][]string) error {
	var widths []int
	plain := true
	for i, cells := range lines {
		if i == 0 {
			widths = make([]int, max(0, len(cells)-1))
		}
		if len(cells) != len(widths)+1 {
			plain = false
			break
		}
		for j, c := range cells {
			if strings.ContainsAny(c, "\t\n\v\f\r") {
				plain = false
			}
			if j < len(widths) {
				widths[j] = max(widths[j], utf8.RuneCountInString(c))
			}
		}
	}
	if !plain || len(lines) == 0 {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, cells := range lines {
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		return tw.Flush()
	}
	return writeRows(w, len(lines), func(b []byte, i int) []byte {
		cells := lines[i]
		for j, c := range cells {
			b = append(b, c...)
			if j < len(widths) {
				for range widths[j] + 2 - utf8.RuneCountInString(c) {
					b = append(b, ' ')
				}
			}
		}
		return append(b, '\n')
	})
}
