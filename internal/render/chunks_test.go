package render

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// TestWriteRowsInOrder: rows formatted on several goroutines come out as
// one goroutine writes them, for every size around the chunk boundaries
// (the race detector watches the report's clock being read meanwhile).
func TestWriteRowsInOrder(t *testing.T) {
	for _, n := range []int{0, 1, rowsPerChunk - 1, rowsPerChunk, 2*rowsPerChunk + 1, 9*rowsPerChunk + 7} {
		row := func(b []byte, i int) []byte { return fmt.Appendf(b, "%d,", i) }
		var want, got bytes.Buffer
		for i := range n {
			want.Write(row(nil, i))
		}
		if err := writeRows(&got, n, row); err != nil || got.String() != want.String() {
			t.Errorf("%d rows: %v; %d bytes, want %d", n, err, got.Len(), want.Len())
		}
	}
}

// failingWriter fails after its budget of bytes.
type failingWriter struct{ left int }

var errFull = errors.New("disk full")

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.left {
		return 0, errFull
	}
	w.left -= len(p)
	return len(p), nil
}

// TestWriteRowsStopsOnError: a failed write is returned and the
// formatting goroutines stop (the test would hang or leak otherwise).
func TestWriteRowsStopsOnError(t *testing.T) {
	row := func(b []byte, i int) []byte { return append(b, "0123456789"...) }
	for _, budget := range []int{0, 10 * rowsPerChunk, 25 * rowsPerChunk} {
		if err := writeRows(&failingWriter{budget}, 40*rowsPerChunk, row); !errors.Is(err, errFull) {
			t.Errorf("budget %d: %v, want %v", budget, err, errFull)
		}
	}
}

// TestReportJSONLarge: the report of schedules large enough to be written
// in parallel is the one row by row, for a logic network (dates on the
// project's clock) and a live programme (dates of its own).
func TestReportJSONLarge(t *testing.T) {
	plain := schedule.Synthetic(6*rowsPerChunk, 2, 7)
	plain.StartDate = "2026-01-05"
	live := schedule.Synthetic(6*rowsPerChunk, 2, 7)
	live.StartDate, live.DataDate = "2026-01-05", "2026-02-02"
	live.Activities[0].ActualStart, live.Activities[0].ActualFinish = "2026-01-05", "2026-01-09"
	for name, s := range map[string]*schedule.Schedule{"plain": plain, "live": live} {
		rep, err := NewReport(s)
		if err != nil {
			t.Fatal(name, err)
		}
		var got bytes.Buffer
		if err := rep.WriteJSON(&got); err != nil {
			t.Fatal(name, err)
		}
		var rows []byte
		for i := range s.Activities {
			rows = rep.appendRow(rows, i)
		}
		if !bytes.Contains(got.Bytes(), rows) || got.Len() < len(rows) {
			t.Errorf("%s: the parallel report's rows differ from the sequential ones", name)
		}
		if err := rep.WriteJSON(io.Discard); err != nil {
			t.Error(name, err)
		}
	}
}

// TestAppendNumber: the hand-written millionths give the text of the
// shortest-float algorithm on every rounded value (whole, halves, odd
// millionths, negatives, large, and past the fast path's range).
func TestAppendNumber(t *testing.T) {
	values := []float64{0, 1, -1, 0.5, -0.5, 124.5, 0.1 + 0.2, 1.0 / 3, -2.0 / 3, 0.000001, -0.000001, 0.000123, 99999999.999999, 1e8 + 0.5, 3e12 + 0.25, 12345.678901234}
	for i := range 20000 {
		// a deterministic spread of millionths, days and signs
		v := float64(i*7919%1000003)/1e6 + float64(i*31%5000)
		if i%3 == 0 {
			v = -v
		}
		values = append(values, v, v/7)
	}
	for _, v := range values {
		want := strconv.AppendFloat(nil, round(v), 'f', -1, 64)
		if got := appendNumber(nil, v); string(got) != string(want) {
			t.Fatalf("appendNumber(%v) = %s, want %s", v, got, want)
		}
	}
}

// FuzzAppendNumber holds appendNumber to strconv on any float.
func FuzzAppendNumber(f *testing.F) {
	f.Add(124.5)
	f.Add(-0.333333)
	f.Fuzz(func(t *testing.T, v float64) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return
		}
		want := strconv.AppendFloat(nil, round(v), 'f', -1, 64)
		if r := round(v); float64(int64(r)) == r && math.Abs(r) < 1<<53 {
			want = strconv.AppendInt(nil, int64(r), 10)
		}
		if got := appendNumber(nil, v); string(got) != string(want) {
			t.Fatalf("appendNumber(%v) = %s, want %s", v, got, want)
		}
	})
}

// TestWriteColumnsAsTabwriter: the columns laid out by hand, on every
// core, are byte for byte what text/tabwriter writes: wide and narrow
// characters, empty cells and columns, a last cell of any width, and the
// lines tabwriter reads differently (a tab or line break in a cell,
// lines of other lengths), which go through tabwriter itself.
func TestWriteColumnsAsTabwriter(t *testing.T) {
	words := []string{"", "A1", "Pour slab", "Étage 二階 🏗", "x", "2026-01-05 08:00", "*", "done", "a\tb", "line\nbreak", "\v", "long name of an activity, clipped"}
	byTabwriter := func(lines [][]string) string {
		var b bytes.Buffer
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		for _, cells := range lines {
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		tw.Flush()
		return b.String()
	}
	for _, size := range []int{1, 2, 7, rowsPerChunk + 3, 5 * rowsPerChunk} {
		for variant := range 3 {
			lines := make([][]string, size)
			for i := range lines {
				cells := make([]string, 6)
				for j := range cells {
					k := (i*7 + j*3 + variant) % len(words)
					if variant < 2 && k >= 8 {
						k %= 8 // only cells tabwriter reads as one (the fast path)
					}
					cells[j] = words[k]
				}
				if variant == 2 && i%5 == 4 {
					cells = cells[:4] // a shorter line
				}
				lines[i] = cells
			}
			var got bytes.Buffer
			if err := writeColumns(&got, lines); err != nil {
				t.Fatal(err)
			}
			if want := byTabwriter(lines); got.String() != want {
				t.Fatalf("%d lines, variant %d: differs from tabwriter\ngot  %.300q\nwant %.300q", size, variant, got.String(), want)
			}
		}
	}
}
