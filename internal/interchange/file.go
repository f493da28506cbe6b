package interchange

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// ReadFile reads and validates a schedule file, choosing the format by
// extension.
func ReadFile(path string) (*schedule.Schedule, error) {
	s, _, err := Load(path)
	return s, err
}

// Load is ReadFile that also returns the compiled network validation built,
// for callers that go on to compute CPM.
func Load(path string) (*schedule.Schedule, *schedule.Network, error) {
	ext := strings.ToLower(filepath.Ext(path))
	if ext != ".json" {
		return nil, nil, fmt.Errorf("%s: unsupported schedule format %q; want a .json schedule file", path, ext)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	s, n, err := parseJSON(data)
	if err != nil {
		return nil, nil, &FileError{Path: path, Err: err}
	}
	return s, n, nil
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
