package interchange

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Format is a schedule file format.
type Format string

// The formats ReadFile, Load and Write know.
const (
	JSON  Format = "json"  // the schedule file of DESIGN.md, .json
	MSPDI Format = "mspdi" // MS Project XML, .xml
	XER   Format = "xer"   // Primavera P6 XER, .xer
)

// Formats lists the formats in the order help texts name them.
var Formats = []Format{JSON, MSPDI, XER}

// ParseFormat reads a format name: json, mspdi (or xml) or xer.
func ParseFormat(name string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "json":
		return JSON, nil
	case "mspdi", "xml":
		return MSPDI, nil
	case "xer":
		return XER, nil
	}
	return "", fmt.Errorf("format %q: want json, mspdi or xer", name)
}

// FormatOf picks the format by the file's extension.
func FormatOf(path string) (Format, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".json":
		return JSON, nil
	case ".xml":
		return MSPDI, nil
	case ".xer":
		return XER, nil
	default:
		return "", fmt.Errorf("%s: unsupported schedule format %q; want .json, .xml (MS Project XML) or .xer (Primavera P6)", path, ext)
	}
}

// Extension is the file extension of a format, with its dot.
func (f Format) Extension() string {
	switch f {
	case MSPDI:
		return ".xml"
	case XER:
		return ".xer"
	}
	return ".json"
}

// ReadFile reads and validates a schedule file, choosing the format by
// extension.
func ReadFile(path string) (*schedule.Schedule, error) {
	s, _, err := Load(path)
	return s, err
}

// Load is ReadFile that also returns the compiled network validation built,
// for callers that go on to compute CPM. Warnings (see Result) are dropped:
// callers that store the schedule use LoadWith and show them.
func Load(path string) (*schedule.Schedule, *schedule.Network, error) {
	r, err := LoadWith(path, Options{})
	if err != nil {
		return nil, nil, err
	}
	return r.Schedule, r.Network, nil
}

// Options say how a file is read.
type Options struct {
	// AllowTruncated reads an XER file that ends without its %E end
	// marker as far as it goes (a last row cut short is left out), with a
	// warning that says what may be missing. Without it such a file is
	// refused: a file cut short in a download or an upload reads as a
	// smaller, valid schedule with its logic silently missing.
	AllowTruncated bool
	// KeepSource keeps a P6 or MS Project file with the schedule read from
	// it (Schedule.Source, named Name), so that export writes the file
	// back with only the changes made. Import asks for it; a command that
	// only reads the file does not pay for it.
	KeepSource bool
	Name       string
}

// Result is a schedule file read: the schedule, the network validation
// compiled, and warnings about what the reader changed or could not read
// (a schedule name shortened to schedule.MaxName characters, MS Project
// notes shortened to schedule.MaxDescription, a truncated file read as
// far as it goes). Each warning is one line naming where in the file.
type Result struct {
	Schedule *schedule.Schedule
	Network  *schedule.Network
	Warnings []string
}

// LoadWith is Load with options, returning the warnings too.
func LoadWith(path string, opts Options) (*Result, error) {
	f, err := FormatOf(path)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if opts.Name == "" {
		opts.Name = path
	}
	// data is this function's alone: the JSON decoder may keep it as the
	// schedule's text instead of a copy.
	r, err := parseWith(data, f, opts, true)
	if err != nil {
		return nil, &FileError{Path: path, Err: err}
	}
	return r, nil
}

// Parse reads and validates a schedule in format f held in memory, and
// returns the compiled network validation built. Warnings are dropped (see
// ParseWith).
func Parse(data []byte, f Format) (*schedule.Schedule, *schedule.Network, error) {
	r, err := ParseWith(data, f, Options{})
	if err != nil {
		return nil, nil, err
	}
	return r.Schedule, r.Network, nil
}

// ParseWith is Parse with options, returning the warnings too.
func ParseWith(data []byte, f Format, opts Options) (*Result, error) {
	return parseWith(data, f, opts, false)
}

// parseWith is ParseWith; owned says nothing else holds data or will
// change it.
func parseWith(data []byte, f Format, opts Options, owned bool) (*Result, error) {
	rs := &readState{opts: opts, owned: owned}
	var s *schedule.Schedule
	var err error
	switch f {
	case JSON:
		s, err = decodeScheduleWith(data, rs)
	case MSPDI:
		s, err = readMSPDI(data, rs)
	case XER:
		s, err = readXER(data, rs)
	default:
		return nil, fmt.Errorf("unknown format %q", f)
	}
	if err != nil {
		return nil, err
	}
	n, err := schedule.Check(s)
	if err != nil {
		if f != JSON {
			// The file was read; what it holds is not a valid schedule.
			err = fmt.Errorf("the imported schedule is not valid: %w", err)
		}
		return nil, err
	}
	// A JSON file carries its own source, if any (a schedule moved
	// between stores by export and import keeps its P6 file).
	if opts.KeepSource && !rs.truncated && f != JSON {
		s.Source = KeepSource(data, f, opts.Name)
	}
	return &Result{Schedule: s, Network: n, Warnings: rs.warnings}, nil
}

// readState is what a reader carries besides the data: the options and
// the warnings so far.
type readState struct {
	opts     Options
	owned    bool // the data is the reader's alone (see parseWith)
	warnings []string
	said     map[string]bool // the warnings, each said once
	// truncated says the file was cut short (read with AllowTruncated):
	// it is not kept as the schedule's source, as P6 would refuse it.
	truncated bool
}

// warnf adds a warning, once: a damaged base calendar is read again for
// each calendar derived from it.
func (rs *readState) warnf(format string, args ...any) {
	w := fmt.Sprintf(format, args...)
	if rs.said[w] {
		return
	}
	if rs.said == nil {
		rs.said = map[string]bool{}
	}
	rs.said[w] = true
	rs.warnings = append(rs.warnings, w)
}

// scheduleName is a schedule name as read from where (a field and its
// place in the file): a name over schedule.MaxName characters is cut to
// it, with a warning, so that a real file whose project title is long
// still imports (the name is only a label; nothing refers to it).
func (rs *readState) scheduleName(name, where string) string {
	short, cut := schedule.Truncate(name, schedule.MaxName)
	if cut {
		rs.warnf("%s: the schedule name is %d characters long; it is shortened to its first %d (names are at most %d characters)",
			where, utf8.RuneCountInString(name), schedule.MaxName-1, schedule.MaxName)
	}
	return short
}

// Progress is told how many activities of total are written; nil for none.
type Progress func(done, total int)

// Write validates s and writes it in format f. Nothing is written when s is
// not valid; an error after that is the writer's.
func Write(w io.Writer, s *schedule.Schedule, f Format, progress Progress) error {
	n, err := schedule.Check(s)
	if err != nil {
		return err
	}
	switch f {
	case JSON:
		err := WriteJSON(w, s)
		if progress != nil {
			progress(len(s.Activities), len(s.Activities))
		}
		return err
	case MSPDI:
		if s.Source != nil && s.Source.Format == string(MSPDI) {
			return writePatched(w, s, n, progress, patchMSPDI)
		}
		return writeMSPDI(w, s, progress)
	case XER:
		if s.Source != nil && s.Source.Format == string(XER) {
			return writePatched(w, s, n, progress, patchXER)
		}
		return writeXER(w, s, progress)
	}
	return fmt.Errorf("unknown format %q", f)
}

// writePatched writes s's kept source file with s's changes applied by
// patch (patchXER, patchMSPDI): the file as read again is compared with s
// (see edits), and with no change it is written back byte for byte. n is
// s's network as Write's check compiled it.
func writePatched(w io.Writer, s *schedule.Schedule, n *schedule.Network, progress Progress,
	patch func(w io.Writer, s *schedule.Schedule, e *edits, data []byte, progress Progress) error) error {
	base, data, err := readSource(s.Source)
	if err != nil {
		return err
	}
	e, err := diffNetworks(base.Schedule, base.Network, s, n)
	if err != nil {
		return err
	}
	if e.none() {
		_, err := w.Write(data)
		if progress != nil {
			progress(len(s.Activities), len(s.Activities))
		}
		return err
	}
	return patch(w, s, e, data, progress)
}

// WriteFile writes s to path in format f through a temporary file in the
// same directory, so on any error the path is left as it was.
func WriteFile(path string, s *schedule.Schedule, f Format, progress Progress) (err error) {
	if _, err := schedule.Check(s); err != nil {
		return &FileError{Path: path, Err: err}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		// Name the file asked for, not the temporary one.
		if errors.Is(err, fs.ErrNotExist) {
			return &FileError{Path: path, Err: fmt.Errorf("the directory %s does not exist", filepath.Dir(path))}
		}
		var pathErr *fs.PathError
		if errors.As(err, &pathErr) {
			err = pathErr.Err
		}
		return &FileError{Path: path, Err: err}
	}
	tmp.Chmod(0o644) // CreateTemp's 0600 is for secrets, not schedules
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := Write(tmp, s, f, progress); err != nil {
		return &FileError{Path: path, Err: err}
	}
	if err := tmp.Close(); err != nil {
		return &FileError{Path: path, Err: err}
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		var linkErr *os.LinkError
		if errors.As(err, &linkErr) {
			err = linkErr.Err
		}
		return &FileError{Path: path, Err: err}
	}
	return nil
}

// FileError names the file a problem is in; several problems are listed one
// per line.
type FileError struct {
	Path string
	Err  error
}

func (e *FileError) Error() string {
	if multi, ok := e.Err.(interface{ Unwrap() []error }); ok && len(multi.Unwrap()) > 1 {
		var b strings.Builder
		fmt.Fprintf(&b, "%s: %d problems:", e.Path, len(multi.Unwrap()))
		for _, err := range multi.Unwrap() {
			b.WriteString("\n  " + err.Error())
		}
		return b.String()
	}
	return e.Path + ": " + e.Err.Error()
}

func (e *FileError) Unwrap() error { return e.Err }
