package cmdutil

import (
	"runtime"
	"sync"
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on amd64 and arm64.
const hugePage = 2 << 20

var heapOnce sync.Once

// readyHeap asks the kernel to back the next n bytes of the heap with huge
// pages, once per process. A command on a large file touches six to eight
// times the file's bytes of fresh memory, and on the default "madvise"
// setting of transparent huge pages each 4 KiB page is a fault: 40,000 of
// them, about a quarter of the CPU of `schedule` on a 26 MB file. The heap
// is grown by one allocation of n bytes, marked MADV_HUGEPAGE and freed at
// once; the address range keeps the mark, and the command's own
// allocations reuse it, faulting in 2 MiB at a time. Only the marking is
// paid for: the allocation is never touched. Where the kernel has no
// transparent huge pages the mark is refused and nothing changes.
func readyHeap(n int64) {
	heapOnce.Do(func() {
		markHuge(make([]byte, n))
		runtime.GC() // frees the block, its pages still marked
	})
}

// markHuge marks the huge pages wholly inside b MADV_HUGEPAGE; false when
// the kernel refuses (no transparent huge pages) or there are none.
func markHuge(b []byte) bool {
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	from := (start + hugePage - 1) &^ (hugePage - 1)
	to := (start + uintptr(len(b))) &^ (hugePage - 1)
	if from >= to {
		return false
	}
	return syscall.Madvise(b[from-start:to-start], syscall.MADV_HUGEPAGE) == nil
}
