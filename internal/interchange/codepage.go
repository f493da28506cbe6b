package interchange

import (
	"bytes"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// Text encodings of files written on Windows. P6 exports XER in the Windows
// code page of its machine, which for Western European and American
// installations is Windows-1252: Latin-1 plus, in 0x80-0x9F where Latin-1
// has control characters, the euro sign, smart quotes, dashes and a few
// letters (Š, Œ, Ÿ ...). Reading those bytes as Latin-1 turns "Pour ‘A’ –
// Level 2" into control characters.

// windows1252High maps bytes 0x80-0x9F; 0 marks the five bytes the code page
// leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D). 0xA0-0xFF are Latin-1,
// the same numbers as Unicode.
var windows1252High = [32]rune{
	0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, // 80-87: € ‚ ƒ „ … † ‡
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0, // 88-8F: ˆ ‰ Š ‹ Œ Ž
	0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, // 90-97: ‘ ’ “ ” • – —
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178, // 98-9F: ˜ ™ š › œ ž Ÿ
}

// decodeWindows1252 decodes Windows-1252 bytes to UTF-8. A byte the code
// page does not define (a file in another code page: Central European and
// Cyrillic ones use those bytes) reads as U+FFFD, and the lines holding one
// are returned for a warning: the letters are lost, but the schedule is
// read (names are labels; a refusal would lose it all).
func decodeWindows1252(data []byte) (text []byte, undefinedOn []int) {
	out := make([]byte, 0, len(data)+len(data)/8)
	line := 1
	for _, b := range data {
		switch {
		case b < 0x80:
			if b == '\n' {
				line++
			}
			out = append(out, b)
		case b < 0xA0:
			r := windows1252High[b-0x80]
			if r == 0 {
				r = utf8.RuneError
				if n := len(undefinedOn); n == 0 || undefinedOn[n-1] != line {
					undefinedOn = append(undefinedOn, line)
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			out = utf8.AppendRune(out, rune(b))
		}
	}
	return out, undefinedOn
}

// undefinedWarning says where a Windows-1252 file held bytes the code page
// does not define.
func undefinedWarning(lines []int) string {
	more := ""
	if len(lines) > 1 {
		more = fmt.Sprintf(" (and %d more lines)", len(lines)-1)
	}
	return fmt.Sprintf("line %d%s: bytes that are not Windows-1252 characters, read as \uFFFD: the file may be in another code page, so some letters of the names there are lost; save or export it as UTF-8 to keep them", lines[0], more)
}

// decodeUTF16 decodes UTF-16 after its byte order mark.
func decodeUTF16(data []byte, bigEndian bool) ([]byte, error) {
	if len(data)%2 != 0 {
		return nil, fmt.Errorf("UTF-16 text with an odd number of bytes: the file is cut short")
	}
	units := make([]uint16, len(data)/2)
	for i := range units {
		hi, lo := data[2*i], data[2*i+1]
		if !bigEndian {
			hi, lo = lo, hi
		}
		units[i] = uint16(hi)<<8 | uint16(lo)
	}
	out := make([]byte, 0, len(data))
	for _, r := range utf16.Decode(units) {
		out = utf8.AppendRune(out, r)
	}
	return out, nil
}

// decodeWindowsText reads a text file that names no encoding of its own, as
// XER files do (the ERMHDR line carries P6's version, the export date, the
// user, the database and the currency, but no code page), and returns it as
// UTF-8 with the name of the encoding it was read in:
//
//   - a byte order mark decides: UTF-8 (EF BB BF), UTF-16 LE (FF FE) or
//     UTF-16 BE (FE FF); the mark is dropped;
//   - text that is valid UTF-8 is UTF-8 (ASCII is both; a Windows-1252 file
//     with any letter outside ASCII is almost never valid UTF-8, whose
//     multi-byte sequences need 0x80-0xBF bytes after a 0xC2-0xF4 lead);
//   - anything else is Windows-1252 (see decodeWindows1252).
func decodeWindowsText(data []byte) (text []byte, encoding string, undefinedOn []int, err error) {
	switch {
	case bytes.HasPrefix(data, []byte("\xef\xbb\xbf")):
		data = data[3:]
		if !utf8.Valid(data) {
			return nil, "", nil, fmt.Errorf("line %d: invalid UTF-8 in a file marked as UTF-8", lineOf(data, invalidUTF8At(data)))
		}
		return data, "UTF-8", nil, nil
	case bytes.HasPrefix(data, []byte("\xff\xfe")):
		text, err := decodeUTF16(data[2:], false)
		return text, "UTF-16LE", nil, err
	case bytes.HasPrefix(data, []byte("\xfe\xff")):
		text, err := decodeUTF16(data[2:], true)
		return text, "UTF-16BE", nil, err
	case utf8.Valid(data):
		return data, "UTF-8", nil, nil
	}
	text, undefinedOn = decodeWindows1252(data)
	return text, "Windows-1252", undefinedOn, nil
}

func invalidUTF8At(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(data)
}

func lineOf(data []byte, at int) int { return bytes.Count(data[:at], []byte{'\n'}) + 1 }

// encodeWindows1252 encodes UTF-8 text in Windows-1252, the inverse of
// decodeWindows1252: for text written into a file in that code page. A
// character the code page has no byte for is an error naming it: writing
// a '?' instead would lose it without a word.
func encodeWindows1252(s string) ([]byte, error) {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		b, ok := windows1252Byte(r)
		if !ok {
			return nil, fmt.Errorf("%q has no byte in the Windows-1252 code page", r)
		}
		out = append(out, b)
	}
	return out, nil
}

func windows1252Byte(r rune) (byte, bool) {
	if r < 0x80 || r >= 0xA0 && r <= 0xFF {
		return byte(r), true
	}
	for i, h := range windows1252High {
		if h != 0 && h == r {
			return byte(0x80 + i), true
		}
	}
	return 0, false
}

// encodeUTF16 encodes UTF-8 text as UTF-16 with its byte order mark, the
// inverse of decodeUTF16.
func encodeUTF16(text []byte, bigEndian bool) []byte {
	units := utf16.Encode([]rune(string(text)))
	out := make([]byte, 0, 2+2*len(units))
	if bigEndian {
		out = append(out, 0xFE, 0xFF)
	} else {
		out = append(out, 0xFF, 0xFE)
	}
	for _, u := range units {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}
