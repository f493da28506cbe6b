package schedule

import (
	"fmt"
	"math"
	"strconv"
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

// excerpt quotes s for an error, shortened: a description may be pages long.
func excerpt(s string) string {
	const n = 40
	if utf8.RuneCountInString(s) <= n {
		return strconv.Quote(s)
	}
	return strconv.Quote(string([]rune(s)[:n])) + "..."
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

// CheckID refuses an id holding a control character, a non-character or
// invalid UTF-8; the error says which and where. It does not refuse "".
func CheckID(id string) error {
	if p, ok := textProblem(id, lineText); !ok {
		return fmt.Errorf("id %s: %s; ids may not hold control characters", excerpt(id), p)
	}
	return nil
}

// CheckName is CheckID for names: one line of text.
func CheckName(name string) error {
	if p, ok := textProblem(name, lineText); !ok {
		return fmt.Errorf("name %s: %s; names may not hold control characters, tabs or line breaks", excerpt(name), p)
	}
	return nil
}

// CheckDescription refuses control characters other than tab, line feed
// and carriage return, non-characters and invalid UTF-8.
func CheckDescription(text string) error {
	if p, ok := textProblem(text, freeText); !ok {
		return fmt.Errorf("description %s: %s; descriptions may hold tabs and line breaks but no other control characters", excerpt(text), p)
	}
	return nil
}
