package risk

import "github.com/autoscheduler/autoscheduler/internal/schedule"

// lanes is how many iterations the batched passes compute together: each
// link is decoded once per batch and its constraint applied to every lane
// in a tight loop without branches (numpy's idea, vectorised across
// iterations, in cache-sized batches).
const lanes = 8

// batch is one worker's buffers for lanes iterations.
type batch struct {
	dur []float64 // dur[v*lanes+j]: lane j's duration of activity v
	t   []float64 // t[(2v)*lanes+j] = ES, t[(2v+1)*lanes+j] = EF (see plink)
	u   []float64 // u[(2v)*lanes+j] = LS, u[(2v+1)*lanes+j] = LF
	one []float64 // one iteration's durations, before scattering
	fin [lanes]float64
}

func newBatch(n int) *batch {
	return &batch{dur: make([]float64, n*lanes), t: make([]float64, 2*n*lanes), u: make([]float64, 2*n*lanes), one: make([]float64, n)}
}

// set puts one iteration's durations (b.one) in lane j.
func (b *batch) set(j int) {
	for v, d := range b.one {
		b.dur[v*lanes+j] = d
	}
}

// passes runs the forward and backward passes on every lane (the same
// arithmetic as forward and backward, lane by lane, so each lane's result
// is theirs bit for bit), leaves each lane's finish in b.fin and adds, for
// lanes below nb, 1 to crit[v] when activity v is critical.
func (m *Model) passes(b *batch, nb int, crit []int32) {
	t, u, dur := b.t, b.u, b.dur
	b.fin = [lanes]float64{}
	fin := &b.fin
	links, start := m.fwd, m.inStart
	for _, v := range m.order {
		d := (*[lanes]float64)(dur[int(v)*lanes:])
		var es [lanes]float64
		for _, l := range links[start[v]:start[v+1]] {
			src := (*[lanes]float64)(t[int(l.at)*lanes:])
			k, lag := float64(l.k), l.lag
			for j := range lanes {
				es[j] = max(es[j], src[j]+lag-k*d[j])
			}
		}
		dst := (*[2 * lanes]float64)(t[2*int(v)*lanes:])
		for j := range lanes {
			ef := es[j] + d[j]
			dst[j], dst[lanes+j] = es[j], ef
			fin[j] = max(fin[j], ef)
		}
	}
	var live [lanes]int32
	for j := range nb {
		live[j] = 1
	}
	links, start = m.bwd, m.outStart
	for k := len(m.order) - 1; k >= 0; k-- {
		v := m.order[k]
		d := (*[lanes]float64)(dur[int(v)*lanes:])
		lf := *fin
		for _, l := range links[start[v]:start[v+1]] {
			src := (*[lanes]float64)(u[int(l.at)*lanes:])
			kk, lag := float64(l.k), l.lag
			for j := range lanes {
				lf[j] = min(lf[j], src[j]-lag+kk*d[j])
			}
		}
		dst := (*[2 * lanes]float64)(u[2*int(v)*lanes:])
		es := (*[lanes]float64)(t[2*int(v)*lanes:])
		var c int32
		for j := range lanes {
			ls := lf[j] - d[j]
			dst[j], dst[lanes+j] = ls, lf[j]
			if ls-es[j] <= schedule.Epsilon {
				c += live[j]
			}
		}
		crit[v] += c
	}
}

// store copies the batch's durations of activities cols into the
// column-major mat (mat[k*iters+i]) for iterations first..first+nb-1:
// each column gets nb consecutive values.
func (b *batch) store(mat []float32, cols []int32, iters, first, nb int) {
	for k, v := range cols {
		src := b.dur[int(v)*lanes : int(v)*lanes+nb]
		dst := mat[k*iters+first : k*iters+first+nb]
		for j, d := range src {
			dst[j] = float32(d)
		}
	}
}
