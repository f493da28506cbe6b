package cmdutil

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

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
		return err
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
