// Package usertext holds the rules for text people give the product and
// the product shows again: names (of reviewers, authors, schedules),
// identifiers, preference values and descriptions. It refuses what would
// be unsafe or useless to store (control characters that rewrite another
// user's terminal, invisible direction overrides, blank or huge values,
// ids that are path names) and escapes what a terminal would interpret.
// It is pure.
package usertext

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits, in characters (runes). A name is a line on a page; a description
// is a paragraph or a few; an id is a path segment and a workflow id part.
const (
	MaxName        = 255
	MaxID          = 128
	MaxDescription = 4000
)

// Error is a value refused: which field, what was wrong.
type Error struct {
	Field  string
	Reason string
}

func (e *Error) Error() string { return e.Field + ": " + e.Reason }

func refuse(field, format string, args ...any) error {
	return &Error{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// unsafe says whether r must never be stored in a one-line value: C0 and
// C1 controls and DEL (terminal escapes, bells, carriage returns), the
// invisible formatting characters that reorder or hide text (bidi
// overrides and isolates, zero-width joiners), line and paragraph
// separators, and the replacement character U+FFFD (what invalid UTF-8
// decodes to).
func unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == utf8.RuneError:
		return true
	case r == '\u2028', r == '\u2029':
		return true
	case unicode.Is(unicode.Cf, r): // format characters: bidi, zero-width, soft hyphen...
		return true
	}
	return false
}

func check(field, s string, max int, multiline bool) error {
	if !utf8.ValidString(s) {
		return refuse(field, "is not valid UTF-8")
	}
	if n := utf8.RuneCountInString(s); n > max {
		return refuse(field, "is %d characters long (%d at most)", n, max)
	}
	for i, r := range s {
		if multiline && (r == '\n' || r == '\t') {
			continue
		}
		if unsafe(r) {
			return refuse(field, "has the control character %s at character %d: type it without control characters", Rune(r), utf8.RuneCountInString(s[:i])+1)
		}
	}
	return nil
}

// Name checks a one-line name (a person, a schedule, a preference value):
// not blank, at most MaxName characters, no control or invisible
// formatting characters.
func Name(field, s string) error {
	if strings.TrimSpace(s) == "" {
		return refuse(field, "is blank")
	}
	return check(field, s, MaxName, false)
}

// Line checks a one-line value with its own limit; blank is allowed.
func Line(field, s string, max int) error { return check(field, s, max, false) }

// Description checks free text that may have lines and tabs: at most
// MaxDescription characters, no other control or invisible characters.
func Description(field, s string) error { return Text(field, s, MaxDescription) }

// Text is Description with its own limit (a prompt, feedback, an answer).
func Text(field, s string, max int) error { return check(field, s, max, true) }

// ID checks an identifier that becomes part of a path, a URL and a
// workflow id: 1 to MaxID characters of letters, digits, '.', '_' and '-',
// not "." or "..", not starting with '.' or '-'.
func ID(field, s string) error {
	switch {
	case s == "":
		return refuse(field, "is empty")
	case s == "." || s == "..":
		return refuse(field, "%q is not a name (it means a directory)", s)
	case len(s) > MaxID:
		return refuse(field, "is %d characters long (%d at most)", len(s), MaxID)
	case s[0] == '.' || s[0] == '-':
		return refuse(field, "%s must start with a letter, a digit or '_'", strconv.Quote(s))
	}
	for i, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return refuse(field, "%s has %s at character %d: use letters, digits, '.', '_' and '-'", Terminal(strconv.Quote(s)), Rune(r), i+1)
		}
	}
	return nil
}

// IDFrom makes an id from free text (a file name, a schedule name): runs of
// anything but letters, digits, '.', '_' and '-' become one '-', and
// leading dots and dashes go; "" when nothing is left.
func IDFrom(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		ok := r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-')
		if !ok {
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = true
			continue
		}
		b.WriteRune(r)
		dash = false
	}
	id := strings.TrimLeft(strings.TrimRight(b.String(), "-"), ".-")
	if len(id) > MaxID {
		id = strings.TrimRight(id[:MaxID], "-")
	}
	if id == "." || id == ".." {
		return ""
	}
	return id
}

// Rune names a character for an error message: U+001B, and its usual name
// for the common controls.
func Rune(r rune) string {
	names := map[rune]string{0: "NUL", 7: "BEL", 8: "BS", 9: "TAB", 10: "LF", 13: "CR", 0x1b: "ESC", 0x7f: "DEL", 0x9b: "CSI", 0x202e: "RIGHT-TO-LEFT OVERRIDE"}
	if n, ok := names[r]; ok {
		return fmt.Sprintf("U+%04X (%s)", r, n)
	}
	return fmt.Sprintf("U+%04X", r)
}

// Terminal is s safe to print on a terminal: every control or invisible
// formatting character (and each byte of invalid UTF-8) becomes a visible
// Go-style escape (\x1b, \u202e); everything else is kept. Newlines and
// tabs are escaped too: a value shown on one line stays on one line.
func Terminal(s string) string {
	clean := true
	for _, r := range s {
		if unsafe(r) {
			clean = false
			break
		}
	}
	if clean && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x80 && unsafe(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// TerminalText is Terminal for multi-line text: newlines and tabs are kept.
func TerminalText(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		parts := strings.Split(l, "\t")
		for j, p := range parts {
			parts[j] = Terminal(p)
		}
		lines[i] = strings.Join(parts, "\t")
	}
	return strings.Join(lines, "\n")
}

// Size is a byte count for people, exact as limits are: "1 MB", "64 KB",
// "1500 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
