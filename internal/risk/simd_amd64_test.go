package risk

import (
	"testing"
	"unsafe"
)

// TestKernelLayouts: the offsets simd_amd64.s reads the kernels'
// structures at.
func TestKernelLayouts(t *testing.T) {
	var d laneDraw
	var w walkArgs
	var l plink
	var n normDraw
	checks := []struct {
		name      string
		got, want uintptr
	}{
		{"plink size", unsafe.Sizeof(l), 16}, {"plink.lag", unsafe.Offsetof(l.lag), 8},
		{"laneDraw size (D_SIZE)", unsafe.Sizeof(d), 80},
		{"D_KIND", unsafe.Offsetof(d.kind), 8}, {"D_A", unsafe.Offsetof(d.a), 16}, {"D_W", unsafe.Offsetof(d.w), 24},
		{"D_FC", unsafe.Offsetof(d.fc), 32}, {"D_Q0", unsafe.Offsetof(d.q0), 40}, {"D_Q1", unsafe.Offsetof(d.q1), 48},
		{"D_B0", unsafe.Offsetof(d.b0), 56}, {"D_B1", unsafe.Offsetof(d.b1), 64}, {"D_NODES", unsafe.Offsetof(d.nodes), 72},
		{"normDraw size", unsafe.Sizeof(n), 24}, {"normDraw.a", unsafe.Offsetof(n.a), 8}, {"normDraw.b", unsafe.Offsetof(n.b), 16},
		{"W_POS", unsafe.Offsetof(w.pos), 8}, {"W_ISEND", unsafe.Offsetof(w.isEnd), 16}, {"W_START", unsafe.Offsetof(w.start), 24},
		{"W_MID", unsafe.Offsetof(w.mid), 32}, {"W_LINKS", unsafe.Offsetof(w.links), 40}, {"W_T", unsafe.Offsetof(w.t), 48},
		{"W_DUR", unsafe.Offsetof(w.dur), 56}, {"W_TF", unsafe.Offsetof(w.tf), 64}, {"W_MARK", unsafe.Offsetof(w.mark), 72},
		{"W_WORDS", unsafe.Offsetof(w.words), 80}, {"W_CRIT", unsafe.Offsetof(w.crit), 88},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: %d, simd_amd64.s reads %d", c.name, c.got, c.want)
		}
	}
}
