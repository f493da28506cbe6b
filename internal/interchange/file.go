package interchange

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// ReadFile reads a schedule file, choosing the format by extension.
func ReadFile(path string) (*schedule.Schedule, error) {
	ext := strings.ToLower(filepath.Ext(path))
	if ext != ".json" {
		return nil, fmt.Errorf("%s: unsupported schedule format %q; want a .json schedule file", path, ext)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := ParseJSON(data)
	if err != nil {
		return nil, &FileError{Path: path, Err: err}
	}
	return s, nil
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
