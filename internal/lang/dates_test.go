package lang

import (
	"errors"
	"testing"
	"time"
)

// Dates as planners write them, read against a data date of Mon 1 Feb
// 2027: the year left out is the next occurrence (or, for actuals, the
// last), figures that read two ways are an ErrAmbiguousOrder.
func TestReadAndResolveDates(t *testing.T) {
	ref := time.Date(2027, 2, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		text  string
		order DayOrder
		past  bool
		want  string // 2006-01-02, "ambiguous", "error" or "none"
	}{
		{text: "3 March", want: "2027-03-03"},
		{text: "the 3rd of March", want: "2027-03-03"},
		{text: "March 3, 2028", want: "2028-03-03"},
		{text: "30 Sep", want: "2027-09-30"},
		{text: "15 Jan", want: "2028-01-15"},
		{text: "15 Jan", past: true, want: "2027-01-15"},
		{text: "12 Dec", past: true, want: "2026-12-12"},
		{text: "Monday 1 March", want: "2027-03-01"},
		{text: "Tuesday 1 March", want: "error"},
		{text: "03/03", want: "2027-03-03"},
		{text: "3/4/27", want: "ambiguous"},
		{text: "3/4/27", order: DayFirst, want: "2027-04-03"},
		{text: "3/4/27", order: MonthFirst, want: "2027-03-04"},
		{text: "30/4/27", want: "2027-04-30"},
		{text: "4/30/2027", want: "2027-04-30"},
		{text: "31/02/27", want: "error"},
		{text: "3.3.2027", want: "2027-03-03"},
		{text: "2027-03-31", want: "2027-03-31"},
		{text: "end of June", want: "2027-06-30"},
		{text: "the end of February 2028", want: "2028-02-29"},
		{text: "next Monday", want: "2027-02-08"},
		{text: "last Friday", want: "2027-01-29"},
		{text: "yesterday", want: "2027-01-31"},
		{text: "18-Oct-27", want: "2027-10-18"},
		{text: "on the 4th", want: "2027-02-04"},
		{text: "on the 4th", past: true, want: "2027-01-04"},
		{text: "the 1st", past: true, want: "2027-02-01"},
		{text: "the 31st", want: "2027-03-31"},
		{text: "18-Oct-2027", want: "2027-10-18"},
		{text: "on Friday", want: "2027-02-05"},
		{text: "on Friday", past: true, want: "2027-01-29"},
		{text: "next Friday", past: true, want: "2027-02-05"},
		{text: "a 2.5 day survey", want: "none"},
		{text: "levels 2 to 4", want: "none"},
	} {
		d, ok := ReadDate(tc.text)
		if !ok {
			if tc.want != "none" {
				t.Errorf("%q: no date read, want %s", tc.text, tc.want)
			}
			continue
		}
		got, err := d.Resolve(ref, ref, tc.order, tc.past)
		var amb *ErrAmbiguousOrder
		switch {
		case errors.As(err, &amb):
			if tc.want != "ambiguous" {
				t.Errorf("%q: %v, want %s", tc.text, err, tc.want)
			}
		case err != nil:
			if tc.want != "error" {
				t.Errorf("%q: %v, want %s", tc.text, err, tc.want)
			}
		case got.Format("2006-01-02") != tc.want:
			t.Errorf("%q: %s, want %s", tc.text, got.Format("2006-01-02"), tc.want)
		}
	}
}
