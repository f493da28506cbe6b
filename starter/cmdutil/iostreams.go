package cmdutil

import (
	"io"
	"os"
)

// IOStreams are a command's input and outputs (gh's iostreams): data goes
// to Out, chatter — progress, questions, "wrote" lines — to ErrOut, so Out
// stays clean for scripts. Whether Out is a terminal decides colour.
type IOStreams struct {
	In          io.Reader
	Out, ErrOut io.Writer
	OutIsTTY    bool
}

// System is the process's standard streams.
func System() *IOStreams {
	return &IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr, OutIsTTY: IsTerminal(os.Stdout)}
}

// ErrIsTTY says whether ErrOut is a terminal (progress bars go there).
func (s *IOStreams) ErrIsTTY() bool {
	f, ok := s.ErrOut.(*os.File)
	return ok && IsTerminal(f)
}

// IsTerminal says whether f is a character device (a terminal).
func IsTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
