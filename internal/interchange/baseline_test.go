package interchange

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// baselined is a small programme with a baseline: A and B in date-times
// with their durations, C (elapsed work) with dates alone.
func baselined() *schedule.Schedule {
	return &schedule.Schedule{Name: "Baselined", StartDate: "2026-03-02",
		Activities: []schedule.Activity{
			{ID: "A", Name: "Piling", Duration: "5", BaselineStart: "2026-03-02T08:00", BaselineFinish: "2026-03-06T17:00", BaselineDuration: "5"},
			{ID: "B", Name: "Pile caps", Duration: "3", BaselineStart: "2026-03-09T08:00", BaselineFinish: "2026-03-12T17:00", BaselineDuration: "4"},
			{ID: "C", Name: "Cure", Duration: "2ed", BaselineStart: "2026-03-10", BaselineFinish: "2026-03-12", BaselineDuration: "3ed"},
			{ID: "D", Name: "Handover", Duration: "0"}, // no baseline
		},
		Relationships: []schedule.Relationship{
			{ID: "R1", Type: schedule.FS, Predecessor: "A", Successor: "B"},
			{ID: "R2", Type: schedule.FS, Predecessor: "B", Successor: "C"},
			{ID: "R3", Type: schedule.FS, Predecessor: "C", Successor: "D"},
		}}
}

// TestBaselinesThroughBothFormats: the whole-model writers put the
// baseline where each format keeps one and the readers read it back. A
// date alone comes back as the working instant it stands for; XER keeps
// the dates (its planned dates) but has no place for a baseline duration.
func TestBaselinesThroughBothFormats(t *testing.T) {
	type base struct{ start, finish, duration string }
	cases := []struct {
		format Format
		want   map[string]base
	}{
		{MSPDI, map[string]base{
			"A": {"2026-03-02T08:00", "2026-03-06T17:00", "5"},
			"B": {"2026-03-09T08:00", "2026-03-12T17:00", "4"},
			"C": {"2026-03-10T08:00", "2026-03-12T17:00", "3ed"},
			"D": {},
		}},
		{XER, map[string]base{
			"A": {"2026-03-02T08:00", "2026-03-06T17:00", ""},
			"B": {"2026-03-09T08:00", "2026-03-12T17:00", ""},
			"C": {"2026-03-10T08:00", "2026-03-12T17:00", ""},
			"D": {},
		}},
	}
	for _, c := range cases {
		t.Run(string(c.format), func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, baselined(), c.format, nil); err != nil {
				t.Fatal(err)
			}
			back, _, err := Parse(buf.Bytes(), c.format)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range back.Activities {
				got, want := base{a.BaselineStart, a.BaselineFinish, a.BaselineDuration}, c.want[a.ID]
				if got != want {
					t.Errorf("%s: baseline %+v, want %+v", a.ID, got, want)
				}
			}
		})
	}
}

// TestMSPDIBaselineNumberZero: only <Baseline> Number 0 is the baseline
// (1-10 are other saved ones); a value that is no date is a warning and
// the task is read without it.
func TestMSPDIBaselineNumberZero(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, baselined(), MSPDI, nil); err != nil {
		t.Fatal(err)
	}
	xml := buf.String()
	first := strings.Index(xml, "<Baseline>")
	if first < 0 {
		t.Fatal("the export wrote no <Baseline>")
	}
	other := "<Baseline><Number>1</Number><Start>1999-01-01T08:00:00</Start><Finish>1999-01-02T17:00:00</Finish></Baseline>"
	xml = xml[:first] + other + xml[first:]
	xml = strings.Replace(xml, "<Start>2026-03-09T08:00:00</Start>\n\t\t\t\t<Finish>2026-03-12T17:00:00</Finish>",
		"<Start>soon</Start>\n\t\t\t\t<Finish>2026-03-12T17:00:00</Finish>", 1)
	r, err := ParseWith([]byte(xml), MSPDI, Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, b := r.Schedule.Activities[0], r.Schedule.Activities[1]
	if a.BaselineStart != "2026-03-02T08:00" {
		t.Errorf("A's baseline start %q: Baseline Number 1 was read", a.BaselineStart)
	}
	if b.BaselineStart != "" || b.BaselineFinish != "2026-03-12T17:00" {
		t.Errorf("B: baseline %q to %q, want no start (not a date) and its finish", b.BaselineStart, b.BaselineFinish)
	}
	if w := strings.Join(r.Warnings, "\n"); !strings.Contains(w, "Baseline Start") {
		t.Errorf("no warning names B's Baseline Start: %q", w)
	}
}

// TestXERPlannedDatesAreTheBaseline reads a P6 file's planned dates
// (TASK target_start_date, target_end_date) as each activity's baseline:
// in percent-complete-8.4.xer every task was planned 24 Feb 2015 08:00 to
// 13 Jul 2015 16:00.
func TestXERPlannedDatesAreTheBaseline(t *testing.T) {
	path := filepath.Join(realDataDir, "percent-complete-8.4.xer")
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skipf("no real files here: %v", err)
	}
	r, err := LoadWith(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Schedule.Activities) != 12 {
		t.Fatalf("%d activities, want 12", len(r.Schedule.Activities))
	}
	for _, a := range r.Schedule.Activities {
		if a.BaselineStart != "2015-02-24T08:00" || a.BaselineFinish != "2015-07-13T16:00" || a.BaselineDuration != "" {
			t.Errorf("%s: baseline %q to %q (%q days), want 2015-02-24T08:00 to 2015-07-13T16:00", a.ID, a.BaselineStart, a.BaselineFinish, a.BaselineDuration)
		}
	}
}

// TestPatchWritersCarryABaselineSet: a baseline set on an imported file
// (every real file the readers take) is written back into the kept file
// by the patch writers, and reads back: MSPDI's whole baseline, XER's
// dates.
func TestPatchWritersCarryABaselineSet(t *testing.T) {
	for _, path := range crossFiles(t) {
		f, err := FormatOf(path)
		if err != nil {
			continue
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			r, err := ParseWith(data, f, Options{KeepSource: true})
			if err != nil {
				t.Skipf("not a schedule the reader takes: %v", err)
			}
			s := r.Schedule
			res, err := schedule.Analyze(s)
			if err != nil {
				t.Fatal(err)
			}
			if err := schedule.SetBaseline(s, res); err != nil {
				t.Skipf("no dates to baseline: %v", err)
			}
			var buf bytes.Buffer
			if err := Write(&buf, s, f, nil); err != nil {
				t.Fatal(err)
			}
			back, _, err := Parse(buf.Bytes(), f)
			if err != nil {
				t.Fatal(err)
			}
			for i, a := range s.Activities {
				b := back.Activities[i]
				want := a.BaselineDuration
				if f == XER {
					want = "" // XER keeps no baseline duration
				}
				if b.BaselineStart != a.BaselineStart || b.BaselineFinish != a.BaselineFinish || b.BaselineDuration != want {
					t.Fatalf("%s: baseline %s to %s (%s) set, %s to %s (%s) read back", a.ID, a.BaselineStart, a.BaselineFinish, a.BaselineDuration,
						b.BaselineStart, b.BaselineFinish, b.BaselineDuration)
				}
			}
		})
	}
}
