package lang

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/autoscheduler/autoscheduler/internal/lazyre"
)

// DateRef is a date as a planner wrote it ("3 March", "03/03", "3/3/27",
// "next Monday", "end of June", "yesterday"), read without a calendar:
// Resolve places it once the schedule's data date is known. Fields the
// words left out are zero.
type DateRef struct {
	// Text is the words as written.
	Text string `json:"text"`
	// Day, Month and Year as written (Year 0 when left out, a two-digit
	// year already in the 2000s).
	Day   int `json:"day,omitempty"`
	Month int `json:"month,omitempty"`
	Year  int `json:"year,omitempty"`
	// Numeric: written in figures only ("03/04"), so which of Day and
	// Month is which depends on the locale; Day holds the first figure.
	Numeric bool `json:"numeric,omitempty"`
	// EndOfMonth: "end of June" (the month's last day).
	EndOfMonth bool `json:"end_of_month,omitempty"`
	// Weekday is a day said by name ("Monday"), -1 when none.
	Weekday time.Weekday `json:"weekday"`
	// Offset is a day relative to today: -1 yesterday, 0 today, 1
	// tomorrow; Relative says it is one.
	Offset   int  `json:"offset,omitempty"`
	Relative bool `json:"relative,omitempty"`
	// Last: "last Monday", the one before the reference day.
	Last bool `json:"last,omitempty"`
}

// DayOrder is how a date written in figures is read.
type DayOrder int

// The orders: not known (an ambiguous date is asked about), day first
// (03/04 is 3 April), month first (03/04 is 4 March).
const (
	OrderUnknown DayOrder = iota
	DayFirst
	MonthFirst
)

// ErrAmbiguousOrder is Resolve's error for figures that read as two dates.
type ErrAmbiguousOrder struct{ A, B time.Time }

func (e *ErrAmbiguousOrder) Error() string {
	return fmt.Sprintf("it reads as %s or %s", e.A.Format("Mon 2 January 2006"), e.B.Format("Mon 2 January 2006"))
}

var (
	monthNames = map[string]int{"january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
		"may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9, "sep": 9, "sept": 9,
		"october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12}
	weekdayNames = map[string]time.Weekday{"sunday": time.Sunday, "sun": time.Sunday, "monday": time.Monday, "mon": time.Monday,
		"tuesday": time.Tuesday, "tue": time.Tuesday, "tues": time.Tuesday, "wednesday": time.Wednesday, "wed": time.Wednesday,
		"thursday": time.Thursday, "thu": time.Thursday, "thur": time.Thursday, "thurs": time.Thursday, "friday": time.Friday,
		"fri": time.Friday, "saturday": time.Saturday, "sat": time.Saturday}
	monthRe   = `(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)`
	weekdayRe = `(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|wed|thurs|thur|thu|fri|sat|sun)`
	// datePhrases match the clause's words (as written, lower case,
	// marks kept: "3 / 3 / 27"); the first that matches is the date.
	datePhrases = []*lazyre.Regexp{
		// [Monday] [the] 3[rd] [of] March [2027]
		lazyre.New(`(?:^| )(?:` + weekdayRe + `(?: ,)? )?(?:the )?(\d{1,2})(?:st|nd|rd|th)? (?:of )?` + monthRe + `(?:(?: ,)? (\d{4}|\d{2}))?(?: |$)`),
		// [Monday] March 3[rd][, 2027]
		lazyre.New(`(?:^| )(?:` + weekdayRe + `(?: ,)? )?` + monthRe + ` (\d{1,2})(?:st|nd|rd|th)?(?:(?: ,)? (\d{4}))?(?: |$)`),
		// 2027-03-03
		lazyre.New(`(?:^| )(\d{4}) - (\d{1,2}) - (\d{1,2})(?: |$)`),
		// [Monday] 03/03[/27], 3.3.2027 (a decimal, 2.5, is no date)
		lazyre.New(`(?:^| )(?:` + weekdayRe + `(?: ,)? )?(\d{1,2}) / (\d{1,2})(?: / (\d{4}|\d{2}))?(?: |$)`),
		lazyre.New(`(?:^| )(?:` + weekdayRe + `(?: ,)? )?(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})(?: |$)`),
		// [the] end of June [2027]
		lazyre.New(`(?:^| )(?:the )?end of (?:the )?` + monthRe + `(?: (\d{4}))?(?: |$)`),
		// today, yesterday, tomorrow
		lazyre.New(`(?:^| )(today|yesterday|tomorrow)(?: |$)`),
		// next / this / last / on Monday
		lazyre.New(`(?:^| )(next|this|last|on|coming) (?:the )?` + weekdayRe + `(?: |$)`),
		// the 4th (of this month, or the one before or after)
		lazyre.New(`(?:^| )the (\d{1,2})(?:st|nd|rd|th)(?: |$)`),
	}
)

// takeDate finds the date written in a clause and returns the clause
// without it (the words around it, "before", "by", "on", stay for the
// grammar). ok is false when the clause has no date.
func takeDate(c *clause) (*clause, DateRef, bool) {
	// The words as written, with the marks dates use, each word's offset.
	var b strings.Builder
	var offs []int
	for _, k := range c.idx {
		tk := c.t.toks[k]
		w := tk.word
		if tk.quoted {
			w = "@q"
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		offs = append(offs, b.Len())
		b.WriteString(w)
	}
	s := b.String()
	for i, r := range datePhrases {
		m := r.FindStringSubmatchIndex(s)
		if m == nil {
			continue
		}
		sub := func(n int) string {
			if m[2*n] < 0 {
				return ""
			}
			return s[m[2*n]:m[2*n+1]]
		}
		d := DateRef{Weekday: -1}
		num := func(n int) int { v, _ := strconv.Atoi(sub(n)); return v }
		year := func(n int) int {
			y := num(n)
			if y > 0 && y < 100 {
				y += 2000
			}
			return y
		}
		switch i {
		case 0:
			d.Day, d.Month, d.Year = num(2), monthNames[sub(3)], year(4)
			d.Weekday = weekdayOf(sub(1))
		case 1:
			d.Month, d.Day, d.Year = monthNames[sub(2)], num(3), year(4)
			d.Weekday = weekdayOf(sub(1))
		case 2:
			d.Year, d.Month, d.Day = num(1), num(2), num(3)
		case 3:
			d.Day, d.Month, d.Year, d.Numeric = num(2), num(3), year(4), true
			d.Weekday = weekdayOf(sub(1))
		case 4:
			d.Day, d.Month, d.Year, d.Numeric = num(2), num(3), year(4), true
			d.Weekday = weekdayOf(sub(1))
		case 5:
			d.Month, d.Year, d.EndOfMonth = monthNames[sub(1)], year(2), true
		case 6:
			d.Relative, d.Offset = true, map[string]int{"yesterday": -1, "today": 0, "tomorrow": 1}[sub(1)]
		case 7:
			d.Weekday, d.Last = weekdayOf(sub(2)), sub(1) == "last"
		case 8:
			d.Day = num(1)
		}
		// The matched words, without the spaces the pattern took around
		// them.
		start, end := m[0], m[1]
		for start < end && s[start] == ' ' {
			start++
		}
		for end > start && s[end-1] == ' ' {
			end--
		}
		if i == 7 && sub(1) == "on" {
			start = m[4] // "on" stays: "start on Monday"
		}
		var idx []int
		for n, off := range offs {
			if off >= start && off < end {
				idx = append(idx, c.idx[n])
			}
		}
		if len(idx) == 0 {
			continue
		}
		d.Text = c.t.span(idx[0], idx[len(idx)-1]+1)
		return c.dropping(idx), d, true
	}
	return c, DateRef{}, false
}

func weekdayOf(w string) time.Weekday {
	if d, ok := weekdayNames[w]; ok {
		return d
	}
	return -1
}

// Resolve places the date. ref is the day it is read from: the schedule's
// data date, else its start (a year left out is the next occurrence on or
// after ref, or with past, the last on or before it — work reported done
// happened before the data date); today places "yesterday" and "next
// Monday" (the caller's choice: the data date, else the real today). Figures that read two ways in an unknown order are an
// *ErrAmbiguousOrder; a weekday that is not the date's, or a day that
// does not exist, an error naming it.
func (d DateRef) Resolve(ref, today time.Time, order DayOrder, past bool) (time.Time, error) {
	day := func(t time.Time) time.Time { return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC) }
	ref, today = day(ref), day(today)
	switch {
	case d.Relative:
		return today.AddDate(0, 0, d.Offset), nil
	case d.Month == 0 && d.Weekday >= 0:
		from := today
		step := 1
		// "last Monday"; and with past, a weekday said alone ("finished
		// on Friday"), not "next Friday".
		if first, _, _ := strings.Cut(strings.ToLower(d.Text), " "); d.Last || past && first != "next" && first != "this" && first != "coming" {
			step = -1
		}
		for t := from.AddDate(0, 0, step); ; t = t.AddDate(0, 0, step) {
			if t.Weekday() == d.Weekday {
				return t, nil
			}
		}
	}
	if d.Month == 0 && d.Day > 0 && !d.Numeric {
		// "the 4th": of ref's month, or the nearest month that has it on
		// the side of ref the date is read from.
		for n := 0; n < 3; n++ {
			step := n
			if past {
				step = -n
			}
			m := time.Date(ref.Year(), ref.Month()+time.Month(step), 1, 0, 0, 0, 0, time.UTC)
			t := time.Date(m.Year(), m.Month(), d.Day, 0, 0, 0, 0, time.UTC)
			if t.Month() == m.Month() && (past && !t.After(ref) || !past && !t.Before(ref)) {
				return t, nil
			}
		}
		return time.Time{}, fmt.Errorf("%q is not a day of a month", d.Text)
	}
	if d.Numeric && d.Day != d.Month && d.Day <= 12 && d.Month <= 12 && order == OrderUnknown {
		a, errA := DateRef{Day: d.Day, Month: d.Month, Year: d.Year, Weekday: d.Weekday}.Resolve(ref, today, order, past)
		b, errB := DateRef{Day: d.Month, Month: d.Day, Year: d.Year, Weekday: d.Weekday}.Resolve(ref, today, order, past)
		switch {
		case errA == nil && errB != nil:
			return a, nil
		case errB == nil && errA != nil:
			return b, nil
		}
		return time.Time{}, &ErrAmbiguousOrder{A: a, B: b}
	}
	dd, mm := d.Day, d.Month
	if d.Numeric && (order == MonthFirst || d.Month > 12) {
		dd, mm = d.Month, d.Day
	}
	if mm < 1 || mm > 12 {
		return time.Time{}, fmt.Errorf("%q has no month %d", d.Text, mm)
	}
	at := func(y int) (time.Time, bool) {
		if d.EndOfMonth {
			return time.Date(y, time.Month(mm)+1, 0, 0, 0, 0, 0, time.UTC), true
		}
		t := time.Date(y, time.Month(mm), dd, 0, 0, 0, 0, time.UTC)
		return t, t.Day() == dd && dd >= 1
	}
	var t time.Time
	if d.Year != 0 {
		var ok bool
		if t, ok = at(d.Year); !ok {
			return time.Time{}, fmt.Errorf("%q is not a day of %d", d.Text, d.Year)
		}
	} else {
		// The next occurrence on or after ref, or with past the last on
		// or before it.
		found := false
		for n := -1; n <= 1 && !found; n++ {
			y := ref.Year() + n
			if past {
				y = ref.Year() - n
			}
			if c, ok := at(y); ok && (past && !c.After(ref) || !past && !c.Before(ref)) {
				t, found = c, true
			}
		}
		if !found {
			return time.Time{}, fmt.Errorf("%q is not a day of the year", d.Text)
		}
	}
	if d.Weekday >= 0 && t.Weekday() != d.Weekday {
		return time.Time{}, fmt.Errorf("%s is a %s, not a %s", t.Format("2 January 2006"), t.Weekday(), d.Weekday)
	}
	return t, nil
}

// ReadDate reads a whole answer as a date ("3 April", "the 4th of March
// 2027"); ok is false when it holds none.
func ReadDate(answer string) (DateRef, bool) {
	t := tokenize(answer)
	idx := make([]int, len(t.toks))
	for i := range idx {
		idx[i] = i
	}
	_, d, ok := takeDate(newClause(t, idx))
	return d, ok
}
