package cmdutil

import (
	"fmt"
	"io"
	"os"

	"github.com/autoscheduler/autoscheduler/internal/interchange"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/usertext"
)

// A file from hugeFileMin bytes has its command's heap readied for huge
// pages (readyHeap): about heapPerFileByte bytes of memory per byte of
// file (a 26 MB live programme peaks at 160 MB), at most half the
// collector's limit so it never brings a collection on.
const (
	hugeFileMin     = 4 << 20
	heapPerFileByte = 6
)

// LoadFile reads a schedule file for a command and says on errOut what of
// it was damaged and left out (a calendar, an exception, a value), so a
// planner who only computes a file hears it as one who imports it does.
func LoadFile(errOut io.Writer, path string) (*schedule.Schedule, *schedule.Network, error) {
	return LoadFileWith(errOut, path, interchange.Options{})
}

// LoadFileWith is LoadFile with reading options (export keeps the file as
// the schedule's source, to write it back as it was).
func LoadFileWith(errOut io.Writer, path string, opts interchange.Options) (*schedule.Schedule, *schedule.Network, error) {
	if fi, err := os.Stat(path); err == nil && fi.Size() >= hugeFileMin {
		readyHeap(min(heapPerFileByte*fi.Size(), shortRunMemoryLimit/2))
	}
	read, err := interchange.LoadWith(path, opts)
	if err != nil {
		return nil, nil, err
	}
	PrintWarnings(errOut, path, read.Warnings)
	return read.Schedule, read.Network, nil
}

// PrintWarnings writes a file's reading warnings, one line each.
func PrintWarnings(errOut io.Writer, path string, warnings []string) {
	for _, w := range warnings {
		fmt.Fprintf(errOut, "warning: %s: %s\n", usertext.Terminal(path), usertext.Terminal(w))
	}
}
