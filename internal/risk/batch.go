package risk

import (
	"math"
	"math/bits"
	"unsafe"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// lanes is how many iterations the batched passes compute together: each
// link is decoded once per batch and its constraint applied to every lane
// in a tight loop without branches (numpy's idea, vectorised across
// iterations, in cache-sized batches).
const lanes = 8

// batch is one worker's buffers for lanes iterations.
type batch struct {
	dur  []float64 // dur[v*lanes+j]: lane j's duration of activity v
	t    []float64 // t[(2v)*lanes+j] = ES, t[(2v+1)*lanes+j] = EF (see plink)
	tf   []float64 // tf[v*lanes+j]: lane j's total float of v, for v marked in the walk
	mark []uint64  // the walk's bitset over topological positions
	one  []float64 // one iteration's durations, before scattering
	fin  [lanes]float64
}

func newBatch(n int) *batch {
	return &batch{
		dur: make([]float64, n*lanes), t: make([]float64, 2*n*lanes), tf: make([]float64, n*lanes),
		mark: make([]uint64, (n+63)/64), one: make([]float64, n),
	}
}

// set puts one iteration's durations (b.one) in lane j.
func (b *batch) set(j int) {
	for v, d := range b.one {
		b.dur[v*lanes+j] = d
	}
}

// fbits is the bits of a float64 as an int64: for x >= +0 and any y (not
// NaN), max(fbits(x), fbits(y)) is the bits of max(x, y) (a negative y
// has the sign bit set, so a negative int64, below every x >= +0; -0 comes
// out as +0). The forward pass takes its maxima this way, a compare and a
// conditional move, where Go's float max handles NaN and signed zeros.
func fbits(x float64) int64 { return int64(math.Float64bits(x)) }

func fval(b int64) float64 { return math.Float64frombits(uint64(b)) }

// passes runs the forward pass on every lane, leaves each lane's finish in
// b.fin and adds, for lanes below nb, 1 to crit[v] when activity v is
// critical (see walk). Each lane's ES, EF and finish are exactly forward's
// (hence the engine's): ES = max(0, max over FS/SS links of (src+lag),
// max over FF/SF links of (src+lag) - d), where subtracting d after the
// maximum gives the same float as before it, rounding being monotonic.
func (m *Model) passes(b *batch, nb int, crit []int32) {
	m.forward8(b)
	m.walk(b, nb, crit)
}

// forward8 is the forward pass on every lane of b. Its loops index t
// through unsafe.Add, without bounds checks: every plink.at is below 2n
// (Compile) and t holds 2n·lanes floats, so each [4]float64 read is inside
// t; with the checks the Go compiler runs out of registers for the four
// accumulators and spills them on every link.
func (m *Model) forward8(b *batch) {
	_ = b.t[2*m.Len()*lanes-1]
	_ = b.dur[m.Len()*lanes-1]
	if useAVX512 {
		forward512(&b.t[0], &b.dur[0], unsafe.SliceData(m.order), len(m.order),
			unsafe.SliceData(m.inStart), unsafe.SliceData(m.fwdMid), unsafe.SliceData(m.fwd), &b.fin)
		return
	}
	var fin [lanes]int64
	m.forward4(b, 0, (*[4]int64)(fin[0:]))
	m.forward4(b, 4, (*[4]int64)(fin[4:]))
	for j := range lanes {
		b.fin[j] = fval(fin[j])
	}
}

// forward4 is the forward pass on lanes h..h+3 (four accumulators stay in
// registers), the project finish's bits left in fin.
//
//go:noinline
func (m *Model) forward4(b *batch, h int, fin *[4]int64) {
	tb := unsafe.Pointer(&b.t[h])
	db := unsafe.Pointer(&b.dur[h])
	// The links walked by pointer, a register fewer than a range loop
	// (m.fwd has a spare element after its last, so the pointer past an
	// activity's last link stays inside the array).
	lb := unsafe.Pointer(unsafe.SliceData(m.fwd))
	start, mid := m.inStart, m.fwdMid
	for _, v := range m.order {
		lo, mi, hi := start[v], mid[v], start[v+1]
		// FF and SF links first: their maximum, less d, starts the
		// FS and SS maximum (every accumulator starts at +0: ES >= 0).
		var a0, a1, a2, a3 int64
		p := unsafe.Add(lb, uintptr(lo)*unsafe.Sizeof(plink{}))
		for k := mi - lo; k > 0; k-- {
			l := (*plink)(p)
			s := (*[4]float64)(unsafe.Add(tb, uintptr(l.at)*(lanes*8)))
			lag := l.lag
			a0 = max(a0, fbits(s[0]+lag))
			a1 = max(a1, fbits(s[1]+lag))
			a2 = max(a2, fbits(s[2]+lag))
			a3 = max(a3, fbits(s[3]+lag))
			p = unsafe.Add(p, unsafe.Sizeof(plink{}))
		}
		d := (*[4]float64)(unsafe.Add(db, uintptr(v)*(lanes*8)))
		if mi > lo {
			a0 = max(0, fbits(fval(a0)-d[0]))
			a1 = max(0, fbits(fval(a1)-d[1]))
			a2 = max(0, fbits(fval(a2)-d[2]))
			a3 = max(0, fbits(fval(a3)-d[3]))
		}
		for k := hi - mi; k > 0; k-- {
			l := (*plink)(p)
			s := (*[4]float64)(unsafe.Add(tb, uintptr(l.at)*(lanes*8)))
			lag := l.lag
			a0 = max(a0, fbits(s[0]+lag))
			a1 = max(a1, fbits(s[1]+lag))
			a2 = max(a2, fbits(s[2]+lag))
			a3 = max(a3, fbits(s[3]+lag))
			p = unsafe.Add(p, unsafe.Sizeof(plink{}))
		}
		es := (*[4]float64)(unsafe.Add(tb, uintptr(v)*(2*lanes*8)))
		ef := (*[4]float64)(unsafe.Add(tb, uintptr(v)*(2*lanes*8)+lanes*8))
		e0, e1, e2, e3 := fval(a0), fval(a1), fval(a2), fval(a3)
		es[0], es[1], es[2], es[3] = e0, e1, e2, e3
		e0, e1, e2, e3 = e0+d[0], e1+d[1], e2+d[2], e3+d[3]
		ef[0], ef[1], ef[2], ef[3] = e0, e1, e2, e3
		// In memory, not registers: the links' loops need them.
		fin[0] = max(fin[0], fbits(e0))
		fin[1] = max(fin[1], fbits(e1))
		fin[2] = max(fin[2], fbits(e2))
		fin[3] = max(fin[3], fbits(e3))
	}
}

// walk finds each lane's critical activities without a backward pass.
// An activity's total float is TF_v = min(T - EF_v, min over its links
// v→s of TF_s + slack), the slack of a link being how far its bound on s
// (the forward pass's expression) is below ES_s; every slack is >= 0
// (ES_s is their maximum), so TF_v <= Epsilon only through successors
// with TF_s <= Epsilon. The walk starts from the activities that may end
// the project (T - EF_v <= Epsilon; only m.ends need checking: an
// activity with a successor that always finishes no earlier, such as one
// by an FS or FF link of lag >= 0, has a path bound through it at least
// as tight), takes them in
// reverse topological order (a bitset over positions) and follows the
// incoming links of each activity with TF <= Epsilon in some lane. It
// computes the same floats the backward pass would up to rounding (a few
// ulps against Epsilon = 1e-6; see TestWalkMatchesBackward).
func (m *Model) walk(b *batch, nb int, crit []int32) {
	t, dur, tf, mark := b.t, b.dur, b.tf, b.mark
	// Floats compared by their bits (every float here is >= +0 or +Inf:
	// see fbits), with conditional moves: which lanes pass is random.
	epsB, infB := fbits(schedule.Epsilon), fbits(math.Inf(1))
	for _, v := range m.ends {
		ef := (*[lanes]float64)(t[(2*int(v)+1)*lanes:])
		x := (*[lanes]float64)(tf[int(v)*lanes:])
		low := infB
		for j := range lanes {
			x[j] = b.fin[j] - ef[j]
			low = min(low, fbits(x[j]))
		}
		if low <= epsB {
			p := m.pos[v]
			mark[p>>6] |= 1 << (p & 63)
		}
	}
	if useAVX512 {
		walk512(&walkArgs{order: &m.order[0], pos: &m.pos[0], isEnd: &m.isEnd[0], start: &m.inStart[0], mid: &m.fwdMid[0],
			links: unsafe.SliceData(m.fwd), t: &t[0], dur: &dur[0], tf: &tf[0], mark: &mark[0], words: len(mark), crit: &crit[0]},
			uint8(1)<<nb-1)
		return
	}
	var live [lanes]int32
	for j := range nb {
		live[j] = 1
	}
	links, start, mid := m.fwd, m.inStart, m.fwdMid
	for w := len(mark) - 1; w >= 0; w-- {
		for mark[w] != 0 {
			bit := 63 - bits.LeadingZeros64(mark[w])
			mark[w] &^= 1 << bit
			v := m.order[w<<6|bit]
			// Lanes where v is critical count; the others stop here.
			x := (*[lanes]float64)(tf[int(v)*lanes:])
			var c int32
			for j := range lanes {
				xb := fbits(x[j])
				in := int32(0)
				if xb <= epsB {
					in = 1
				}
				c += live[j] & in
				if xb > epsB {
					xb = infB
				}
				x[j] = fval(xb)
			}
			crit[v] += c
			es := (*[lanes]float64)(t[2*int(v)*lanes:])
			d := (*[lanes]float64)(dur[int(v)*lanes:])
			lo, mi, hi := start[v], mid[v], start[v+1]
			for i := lo; i < hi; i++ {
				l := links[i]
				s := (*[lanes]float64)(t[int(l.at)*lanes:])
				kd := 0.0 // the forward pass's bound: src+lag, less d for FF and SF
				if i < mi {
					kd = 1
				}
				var cand [lanes]int64
				low := infB
				for j := range lanes {
					cand[j] = fbits(x[j] + (es[j] - (s[j] + l.lag - kd*d[j])))
					low = min(low, cand[j])
				}
				if low > epsB {
					continue
				}
				u := l.at >> 1
				p := m.pos[u]
				y := (*[lanes]float64)(tf[int(u)*lanes:])
				if mark[p>>6]&(1<<(p&63)) == 0 && !m.isEnd[u] {
					for j := range lanes {
						y[j] = fval(cand[j])
					}
				} else {
					for j := range lanes {
						y[j] = fval(min(fbits(y[j]), cand[j]))
					}
				}
				mark[p>>6] |= 1 << (p & 63)
			}
		}
	}
}

// walkArgs are walk512's arrays (offsets fixed in simd_amd64.s).
type walkArgs struct {
	order, pos *int32
	isEnd      *bool
	start, mid *int32
	links      *plink
	t, dur, tf *float64
	mark       *uint64
	words      int
	crit       *int32
}

// colStore gathers one worker's chunk of iterations' durations of the
// columns kept for the sensitivity ranks, column by column (chunk floats
// each, a buffer that stays in cache), and copies each column's run into
// the column-major mat (mat[k*iters+i]) once the chunk is complete: whole
// cache lines, where storing each batch straight into mat would touch one
// line per column 40 KB apart.
type colStore struct{ buf []float32 }

func newColStore(cols int) *colStore { return &colStore{buf: make([]float32, cols*chunk)} }

// add stores the batch's iterations first..first+nb-1 (a chunk is one
// worker's, its batches in order).
func (c *colStore) add(b *batch, mat []float32, cols []int32, iters, first, nb int) {
	off := first % chunk
	for k, v := range cols {
		src := (*[lanes]float64)(b.dur[int(v)*lanes:])
		dst := c.buf[k*chunk+off : k*chunk+off+nb]
		for j := range dst {
			dst[j] = float32(src[j])
		}
	}
	if end := first + nb; end%chunk == 0 || end == iters {
		lo := end - off - nb
		for k := range cols {
			copy(mat[k*iters+lo:k*iters+end], c.buf[k*chunk:k*chunk+end-lo])
		}
	}
}
