package schedule

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxDays is the largest duration, distribution parameter and lag (either
// sign) any reader, op or validation accepts, in working days: 100,000
// working days, about 400 years of five-day weeks. Beyond it a value is a
// corrupt field or a slip of the keyboard, not a plan, and CPM on it breaks:
// at 1e308 days a successor's finish equals its start (1e308 + 5 == 1e308),
// a lead makes a negative late start and sums overflow to +Inf, which is not
// JSON. With every value within MaxDays, every CPM time stays finite and
// exact to well below a minute even on a million-activity chain.
const MaxDays = 100_000

// CheckLag refuses a lag that is not a finite number within ±MaxDays
// working days; the error gives the value and the limit.
func CheckLag(lag float64) error {
	if math.IsNaN(lag) || math.IsInf(lag, 0) {
		return fmt.Errorf("lag %v is not a finite number of working days", lag)
	}
	if math.Abs(lag) > MaxDays {
		return fmt.Errorf("lag %g is beyond the limit of ±%d working days", lag, MaxDays)
	}
	return nil
}

// What the text of a schedule may hold. Every format carries the same
// characters, so what one reader accepts survives being written in any
// format and read back:
//
//   - ids and names: no control characters at all (C0, DEL, C1), tab and
//     line breaks included. An id is a key other files and commands quote;
//     a name is one line in tables, Gantt bars and P6's tab-separated rows.
//     NUL cannot be written in XML at all (MSPDI turned it into U+FFFD).
//   - descriptions: tab, line feed and carriage return (text people write),
//     no other control character.
//   - everywhere: valid UTF-8 and no U+FFFE or U+FFFF, which XML cannot hold.
//
// Validate, the ops engine (so the planner) and every reader (through
// Validate) apply the same rules.
const (
	lineText = iota // ids and names
	freeText        // descriptions
)

// textProblem returns the first character text may not hold, its position
// (1-based, in characters) and why; ok when there is none.
func textProblem(s string, kind int) (problem string, ok bool) {
	// Fast path: printable ASCII is by far the most common.
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] < 0x7f {
		i++
	}
	if i == len(s) {
		return "", true
	}
	pos := i // ASCII so far: bytes are characters
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		pos++
		switch {
		case r == utf8.RuneError && size == 1:
			return fmt.Sprintf("invalid UTF-8 at character %d", pos), false
		case r == '\t' || r == '\n' || r == '\r':
			if kind == lineText {
				return fmt.Sprintf("control character %s at character %d", runeName(r), pos), false
			}
		case r < 0x20 || r >= 0x7f && r <= 0x9f:
			return fmt.Sprintf("control character %s at character %d", runeName(r), pos), false
		case r == 0xFFFE || r == 0xFFFF:
			return fmt.Sprintf("non-character %s at character %d", runeName(r), pos), false
		}
	}
	return "", true
}

// Length limits, in characters (runes). A name is one line in tables,
// Gantt bars and every page that lists it; a description is a few
// paragraphs; an id is a key other files, commands and links quote. Beyond
// them a value is a corrupt field or an attack (a 63 MB schedule name made
// every page listing it 66 MB), not a plan. MaxName and MaxDescription
// are usertext.MaxName and usertext.MaxDescription: this package uses only
// the standard library, so it keeps its own copy (interchange's tests
// check that they agree).
const (
	MaxName        = 255
	MaxDescription = 4000
	MaxID          = 256
)

// length returns s's length in characters when it is over max (ok false);
// it counts only when the bytes alone do not settle it.
func length(s string, max int) (n int, ok bool) {
	if len(s) <= max {
		return len(s), true
	}
	n = utf8.RuneCountInString(s)
	return n, n <= max
}

// TooLong says how a value over its limit is too long: "is 250 characters
// long (200 at most)"; "" when it is within max.
func TooLong(s string, max int) string {
	if n, ok := length(s, max); !ok {
		return fmt.Sprintf("is %d characters long (%d at most)", n, max)
	}
	return ""
}

// Truncate cuts s to at most max characters, the last of them an ellipsis
// when anything was cut, and says whether it cut.
func Truncate(s string, max int) (string, bool) {
	if _, ok := length(s, max); ok {
		return s, false
	}
	if max < 1 {
		return "", true
	}
	n := 0
	for i := range s {
		if n == max-1 {
			return strings.TrimRight(s[:i], " ") + "…", true
		}
		n++
	}
	return s, false // not reached: s has more than max characters
}

// excerpt quotes s for an error, shortened: a description may be pages long.
func excerpt(s string) string {
	const n = 40
	count := 0
	for i := range s {
		if count == n {
			return strconv.Quote(s[:i]) + "..."
		}
		count++
	}
	return strconv.Quote(s)
}

func runeName(r rune) string {
	switch r {
	case '\t':
		return "U+0009 (tab)"
	case '\n':
		return "U+000A (line feed)"
	case '\r':
		return "U+000D (carriage return)"
	case 0:
		return "U+0000 (NUL)"
	case 0x7f:
		return "U+007F (DEL)"
	}
	return fmt.Sprintf("U+%04X", r)
}

// CheckID refuses an id longer than MaxID or holding a control character,
// a non-character or invalid UTF-8; the error says which and where. It does
// not refuse "".
func CheckID(id string) error {
	if long := TooLong(id, MaxID); long != "" {
		return fmt.Errorf("id %s %s", excerpt(id), long)
	}
	if p, ok := textProblem(id, lineText); !ok {
		return fmt.Errorf("id %s: %s; ids may not hold control characters", excerpt(id), p)
	}
	return nil
}

// CheckName is CheckID for names: one line of text, at most MaxName
// characters.
func CheckName(name string) error {
	if long := TooLong(name, MaxName); long != "" {
		return fmt.Errorf("name %s %s", excerpt(name), long)
	}
	if p, ok := textProblem(name, lineText); !ok {
		return fmt.Errorf("name %s: %s; names may not hold control characters, tabs or line breaks", excerpt(name), p)
	}
	return nil
}

// CheckDescription refuses text longer than MaxDescription and control
// characters other than tab, line feed and carriage return,
// non-characters and invalid UTF-8.
func CheckDescription(text string) error {
	if long := TooLong(text, MaxDescription); long != "" {
		return fmt.Errorf("description %s %s", excerpt(text), long)
	}
	if p, ok := textProblem(text, freeText); !ok {
		return fmt.Errorf("description %s: %s; descriptions may hold tabs and line breaks but no other control characters", excerpt(text), p)
	}
	return nil
}
