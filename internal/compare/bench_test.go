package compare_test

import (
	"io"
	"strconv"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/compare"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// updated is a month's update of s: one activity in fifty longer, one in
// five hundred gone with its links and one added, one link in a hundred
// with more lag.
func updated(s *schedule.Schedule) *schedule.Schedule {
	b := s.Clone()
	gone := map[string]bool{}
	acts := b.Activities[:0]
	for i, a := range b.Activities {
		switch {
		case i%500 == 250:
			gone[a.ID] = true
			continue
		case i%50 == 7:
			d, _ := schedule.DurationDays(a.Duration)
			a.Duration = strconv.FormatFloat(d+3, 'f', -1, 64)
		}
		acts = append(acts, a)
	}
	rels := b.Relationships[:0]
	for k, r := range b.Relationships {
		if gone[r.Predecessor] || gone[r.Successor] {
			continue
		}
		if k%100 == 3 {
			r.Lag += 2
		}
		rels = append(rels, r)
	}
	for i := range len(gone) {
		id := "N" + strconv.Itoa(i)
		acts = append(acts, schedule.Activity{ID: id, Name: "New " + strconv.Itoa(i), Duration: "4"})
		rels = append(rels, schedule.Relationship{ID: "NR" + strconv.Itoa(i), Type: schedule.FS, Predecessor: acts[i*100].ID, Successor: id})
	}
	b.Activities, b.Relationships = acts, rels
	return b
}

// BenchmarkCompare100k is the comparison of two 100k-activity versions
// once both are computed (the command adds reading the files and CPM):
// changes, the finish's explanation, critical changes, float erosion, and
// the text form.
func BenchmarkCompare100k(b *testing.B) {
	before := schedule.Synthetic(100_000, 2, 1)
	after := updated(before)
	rb, err := schedule.Analyze(before)
	if err != nil {
		b.Fatal(err)
	}
	ra, err := schedule.Analyze(after)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		rep := compare.CompareResults(before, after, rb, ra, compare.Options{})
		if rep.Finish == nil {
			b.Fatal(rep.CPMError)
		}
		if err := compare.WriteText(io.Discard, rep, compare.TextOptions{Limit: 20}); err != nil {
			b.Fatal(err)
		}
	}
}
