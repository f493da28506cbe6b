package cmdutil

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestMarkHuge: the marked range carries the kernel's huge-page advice
// ("hg" in smaps) where the kernel has transparent huge pages, and the
// marking says so; elsewhere it says it did nothing.
func TestMarkHuge(t *testing.T) {
	_, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled")
	hasTHP := err == nil
	block := make([]byte, 8*hugePage)
	if got := markHuge(block); got != hasTHP {
		t.Fatalf("markHuge = %v on a kernel with transparent huge pages %v", got, hasTHP)
	}
	if !hasTHP {
		return
	}
	mid := uintptr(unsafe.Pointer(&block[4*hugePage]))
	if flags := vmFlags(t, mid); !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("the block's mapping has VmFlags %q, want hg among them", flags)
	}
	if markHuge(block[:hugePage/2]) {
		t.Error("markHuge marked a block smaller than a huge page")
	}
}

// TestReadyHeapOnce: a second call does not allocate again.
func TestReadyHeapOnce(t *testing.T) {
	readyHeap(4 * hugePage)
	if n := testing.AllocsPerRun(3, func() { readyHeap(4 * hugePage) }); n != 0 {
		t.Errorf("readyHeap allocated %v times after the first call", n)
	}
}

// vmFlags is the VmFlags line of the mapping of /proc/self/smaps holding addr.
func vmFlags(t *testing.T, addr uintptr) string {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	inside := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if from, to, ok := mappingRange(line); ok {
			inside = from <= addr && addr < to
			continue
		}
		if inside && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:"))
		}
	}
	t.Fatalf("no mapping in /proc/self/smaps holds %#x", addr)
	return ""
}

// mappingRange reads "7f00-7f80 rw-p ..." (a mapping's first line).
func mappingRange(line string) (from, to uintptr, ok bool) {
	span, _, found := strings.Cut(line, " ")
	lo, hi, dash := strings.Cut(span, "-")
	if !found || !dash {
		return 0, 0, false
	}
	a, err1 := strconv.ParseUint(lo, 16, 64)
	b, err2 := strconv.ParseUint(hi, 16, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return uintptr(a), uintptr(b), true
}
