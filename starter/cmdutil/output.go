package cmdutil

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// WriteJSON writes v as --json prints it: one JSON document on a line,
// HTML characters as they are, and every character a terminal acts on or
// hides written as a \u escape — DEL, the C1 controls (U+0080–U+009F,
// CSI among them) and the invisible formatting characters (bidi
// overrides and isolates, zero-width characters). encoding/json escapes
// only the C0 controls and U+2028/U+2029, so a name stored with the
// others would reach the terminal of whoever reads the JSON raw. The
// document decodes to the same values.
func WriteJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(escapeJSON(buf.Bytes()))
	return err
}

// escapeJSON writes the terminal-active characters of encoded JSON as \u
// escapes. They can only be inside strings (the rest of a JSON document
// is ASCII), where an escape means the same character.
func escapeJSON(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == 0x7f || r >= 0x80 && r < 0xa0 || r > 0x7f && unicode.Is(unicode.Cf, r) {
			if out == nil {
				out = append(make([]byte, 0, len(b)+16), b[:i]...)
			}
			if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
				out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
		} else if out != nil {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	if out == nil {
		return b
	}
	return out
}

// IsStdout says whether an -o value means standard output ("" or "-").
func IsStdout(path string) bool { return path == "" || path == "-" }

// WriteOutput writes what write produces to the file an -o flag names,
// whole or not at all: through a temporary file in the target's directory,
// renamed over it once complete. A symbolic link is written through (its
// target is replaced, the link kept); anything but a regular file — a
// device, a FIFO, a directory — is refused, so `-o /dev/stdout` run as root
// cannot replace the device node. An existing file keeps its permissions
// (and, for root, its owner); a new one is 0644.
func WriteOutput(path string, write func(io.Writer) error) (err error) {
	target, err := resolveLinks(path)
	if err != nil {
		return err
	}
	mode := fs.FileMode(0o644)
	var owner *syscall.Stat_t
	switch fi, err := os.Stat(target); {
	case err == nil && !fi.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file (%s): refusing to replace it; leave out -o (or use -o -) to write to standard output", path, describeMode(fi.Mode()))
	case err == nil:
		mode = fi.Mode().Perm()
		owner, _ = fi.Sys().(*syscall.Stat_t)
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*.tmp")
	if err != nil {
		// Name the file asked for, never the temporary one.
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("cannot write %s: the directory %s does not exist", path, filepath.Dir(path))
		}
		var pathErr *fs.PathError
		if errors.As(err, &pathErr) {
			err = pathErr.Err
		}
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	if owner != nil && os.Geteuid() == 0 {
		_ = tmp.Chown(int(owner.Uid), int(owner.Gid)) // best effort: root keeps the file its owner's
	}
	if err := write(tmp); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), target)
}

// resolveLinks follows path through symbolic links to the file they name,
// which need not exist yet (a dangling link is written through too).
func resolveLinks(path string) (string, error) {
	p := path
	for range 40 {
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return p, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		link, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = link
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// describeMode names a non-regular file's type for an error.
func describeMode(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}
