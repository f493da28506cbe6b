//go:build !linux

package cmdutil

// readyHeap does nothing where there is no madvise(MADV_HUGEPAGE).
func readyHeap(int64) {}
