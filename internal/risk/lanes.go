package risk

import (
	"math"
	"math/bits"
)

// laneSampler draws the independent durations of lanes iterations at once,
// straight into a batch: activity by activity, each lane from its own
// iteration's stream, so the lanes' dependency chains (the LCG step, the
// square root) overlap. Every stream draws what sampler.sample draws for
// its iteration, in the same order, so the numbers are the same.
type laneSampler struct {
	m    *Model
	tabs []*qtable
	plan *drawPlan
	seed uint64
	st   [lanes]rng
	// For the AVX-512 kernel: the one-draw activities in plan order, and
	// a byte per draw for the lanes whose PERT draw fell in an exact
	// cell (left to qtable.at).
	draws   []laneDraw
	fix     []uint8
	normals []normDraw // m.normal's, for normal512
}

// laneDraw is an activity drawn with one number of its stream (uniform,
// triangular, tabulated PERT) as sample512 reads it (offsets fixed in
// simd_amd64.s).
type laneDraw struct {
	off, kind int64 // v·lanes·8, the byte offset of v's durations; drawUniform...
	a, w      float64
	// Triangular: the CDF at the mode, b-m, m-a, b, a (lanes.go's q and
	// base, picked by u < fc).
	fc, q0, q1, b0, b1 float64
	nodes              *float64 // PERT: the table's lo, body, hi
}

const (
	drawUniform = iota
	drawTriangular
	drawPERT
)

func (m *Model) newLaneSampler(seed uint64, tabs []*qtable) *laneSampler {
	s := &laneSampler{m: m, tabs: tabs, plan: m.newPlan(tabs), seed: seed}
	for _, list := range [][]int32{m.uniform, m.triangular, s.plan.pertTab} {
		for _, v := range list {
			s.draws = append(s.draws, m.laneDraw(v, tabs))
		}
	}
	s.fix = make([]uint8, len(s.draws))
	for _, v := range m.normal {
		s.normals = append(s.normals, normDraw{off: int64(v) * lanes * 8, a: m.dists[v].a, b: m.dists[v].b})
	}
	return s
}

// laneDraw describes v (uniform, triangular or tabulated PERT) for the
// AVX-512 kernels.
func (m *Model) laneDraw(v int32, tabs []*qtable) laneDraw {
	d := &m.dists[v]
	ld := laneDraw{off: int64(v) * lanes * 8, a: d.a, w: d.b - d.a,
		fc: d.fc, q0: d.b - d.m, q1: d.m - d.a, b0: d.b, b1: d.a}
	switch d.kind {
	case kTriangular:
		ld.kind = drawTriangular
	case kPERT:
		ld.kind, ld.nodes = drawPERT, &tabs[v].lo[0]
	}
	return ld
}

// sampleDraws512 is the first part of sampleRandom (uniform, triangular,
// tabulated PERT) by the AVX-512 kernel, then the rare PERT draws in a
// table's exact cells by qtable.at; it leaves each lane's stream after
// those draws in s.st.
func (s *laneSampler) sampleDraws512(dur []float64) {
	var starts [lanes]uint64
	for j := range lanes {
		starts[j] = s.st[j].s
	}
	_ = dur[s.m.Len()*lanes-1]
	if len(s.draws) > 0 && sample512(&starts, &s.draws[0], len(s.draws), &dur[0], &s.fix[0]) != 0 {
		for k, mask := range s.fix {
			for ; mask != 0; mask &= mask - 1 {
				j := bits.TrailingZeros8(mask)
				d := &s.draws[k]
				r := rng{starts[j] + uint64(k)*weyl}
				v := d.off / (lanes * 8)
				dur[int(d.off/8)+j] = d.a + d.w*s.tabs[v].at(r.unit())
			}
		}
	}
	for j := range lanes {
		s.st[j].s = starts[j] + uint64(len(s.draws))*weyl
	}
}

// drawPlan is the order in which an iteration draws its independent
// durations from its stream, given the PERT tables: uniform, triangular,
// tabulated PERT, other PERT, normal activities, each kind in schedule
// order. The first three take one draw each, so the draw of such an
// activity is always at the same position of every stream (at[v]; -1 for
// the others), and rng streams being counter-based (SplitMix64: the k-th
// output depends only on the start and k), its column of samples can be
// regenerated instead of kept (column).
type drawPlan struct {
	pertTab, pertGamma []int32
	at                 []int32
}

func (m *Model) newPlan(tabs []*qtable) *drawPlan {
	p := &drawPlan{at: make([]int32, m.Len())}
	for v := range p.at {
		p.at[v] = -1
	}
	for _, v := range m.pert {
		if tabs[v] != nil {
			p.pertTab = append(p.pertTab, v)
		} else {
			p.pertGamma = append(p.pertGamma, v)
		}
	}
	k := int32(0)
	for _, list := range [][]int32{m.uniform, m.triangular, p.pertTab} {
		for _, v := range list {
			p.at[v] = k
			k++
		}
	}
	return p
}

// columnBits is column as orderedBits of the float32 values.
func (m *Model) columnBits(v int32, p *drawPlan, tabs []*qtable, starts []uint64, out []uint64) {
	d := &m.dists[v]
	skip := uint64(p.at[v]) * weyl
	a, w := d.a, d.b-d.a
	if n := len(starts) &^ (lanes - 1); useAVX512 && n > 0 {
		// Whole groups of lanes iterations by the kernel, the rest below.
		ld := m.laneDraw(v, tabs)
		fix := make([]uint8, n/lanes)
		if column512(&starts[0], n, skip, &ld, &out[0], &fix[0]) != 0 {
			for g, mask := range fix {
				for ; mask != 0; mask &= mask - 1 {
					i := g*lanes + bits.TrailingZeros8(mask)
					r := rng{starts[i] + skip}
					out[i] = orderedBits(float32(a + w*tabs[v].at(r.unit())))
				}
			}
		}
		starts, out = starts[n:], out[n:]
	}
	switch d.kind {
	case kUniform:
		for i, s := range starts {
			r := rng{s + skip}
			out[i] = orderedBits(float32(a + w*r.unit()))
		}
	case kTriangular:
		// As the lane sampler: dist.quantile without a branch.
		fc := d.fc
		q := [2]float64{d.b - d.m, d.m - d.a}
		base := [2]float64{d.b, d.a}
		sign := [2]float64{-1, 1}
		for i, s := range starts {
			r := rng{s + skip}
			u := r.unit()
			k := 0
			if u < fc {
				k = 1
			}
			pu := [2]float64{1 - u, u}
			out[i] = orderedBits(float32(base[k] + sign[k]*math.Sqrt(pu[k]*w*q[k])))
		}
	case kPERT:
		// As the lane sampler: qtable.at, its body inline.
		t := tabs[v]
		body := (*[tabCells + 1]float64)(t.body)
		for i, s := range starts {
			r := rng{s + skip}
			var q float64
			if u := r.unit(); u >= tabEdge && u < 1-tabEdge {
				c := u * tabCells
				k := int(c) & (tabCells - 1)
				q = body[k] + (c-float64(k))*(body[k+1]-body[k])
			} else {
				q = t.at(u)
			}
			out[i] = orderedBits(float32(a + w*q))
		}
	}
}

// column fills out with activity v's sampled duration (float32) in each
// iteration, v being drawn at position plan.at[v] of every stream: the
// very numbers the samplers draw (sampler.sample's expressions). starts
// are the iterations' stream starts (newRng(seed, i).s).
func (m *Model) column(v int32, p *drawPlan, tabs []*qtable, starts []uint64, out []float32) {
	d := &m.dists[v]
	// The Uint64 of r = rng{s + k·γ} is the stream's draw k (from 0).
	skip := uint64(p.at[v]) * weyl
	a, w := d.a, d.b-d.a
	switch d.kind {
	case kUniform:
		for i, s := range starts {
			r := rng{s + skip}
			out[i] = float32(a + w*r.unit())
		}
	case kTriangular:
		for i, s := range starts {
			r := rng{s + skip}
			out[i] = float32(d.quantile(r.unit()))
		}
	case kPERT:
		t := tabs[v]
		for i, s := range starts {
			r := rng{s + skip}
			out[i] = float32(a + w*t.at(r.unit()))
		}
	}
}

// sample fills dur (dur[v*lanes+j]) with iterations first..first+nb-1 in
// lanes 0..nb-1; the other lanes get copies of the last of them.
func (s *laneSampler) sample(first, nb int, dur []float64) {
	s.setFixed(dur)
	s.sampleRandom(first, nb, dur)
}

// setFixed puts the fixed durations in every lane of dur.
func (s *laneSampler) setFixed(dur []float64) {
	m := s.m
	for _, v := range m.fixed {
		x := (*[lanes]float64)(dur[int(v)*lanes:])
		a := m.dists[v].a
		for j := range lanes {
			x[j] = a
		}
	}
}

// sampleRandom is sample without the fixed durations (they stay in a
// batch from one to the next: set them once).
func (s *laneSampler) sampleRandom(first, nb int, dur []float64) {
	m := s.m
	for j := range lanes {
		s.st[j] = newRng(s.seed, first+min(j, nb-1))
	}
	st := &s.st
	if useAVX512 {
		s.sampleDraws512(dur)
		s.sampleOthers(dur)
		return
	}
	for _, v := range m.uniform {
		x := (*[lanes]float64)(dur[int(v)*lanes:])
		d := &m.dists[v]
		a, w := d.a, d.b-d.a
		for j := range lanes {
			x[j] = a + w*st[j].unit()
		}
	}
	for _, v := range m.triangular {
		x := (*[lanes]float64)(dur[int(v)*lanes:])
		d := &m.dists[v]
		// dist.quantile without a branch (the mode splits the draws
		// unpredictably): the same operations, picked by index.
		w, fc := d.b-d.a, d.fc
		q := [2]float64{d.b - d.m, d.m - d.a}
		base := [2]float64{d.b, d.a}
		sign := [2]float64{-1, 1}
		for j := range lanes {
			u := st[j].unit()
			i := 0
			if u < fc {
				i = 1
			}
			p := [2]float64{1 - u, u}
			x[j] = base[i] + sign[i]*math.Sqrt(p[i]*w*q[i])
		}
	}
	for _, v := range s.plan.pertTab {
		x := (*[lanes]float64)(dur[int(v)*lanes:])
		d := &m.dists[v]
		a, w := d.a, d.b-d.a
		t := s.tabs[v]
		{
			var u [lanes]float64
			for j := range lanes {
				u[j] = st[j].unit()
			}
			body := (*[tabCells + 1]float64)(t.body)
			for j := range lanes {
				// qtable.at, its body (97% of draws) inline.
				var q float64
				if uj := u[j]; uj >= tabEdge && uj < 1-tabEdge {
					c := uj * tabCells
					i := int(c) & (tabCells - 1)
					q = body[i] + (c-float64(i))*(body[i+1]-body[i])
				} else {
					q = t.at(uj)
				}
				x[j] = a + w*q
			}
		}
	}
	s.sampleOthers(dur)
}

// sampleOthers is the rest of sampleRandom: PERT by gamma variates, and
// normals (draws of each lane's stream in numbers that vary).
func (s *laneSampler) sampleOthers(dur []float64) {
	m, st := s.m, &s.st
	for _, v := range s.plan.pertGamma {
		x := (*[lanes]float64)(dur[int(v)*lanes:])
		d := &m.dists[v]
		a, w := d.a, d.b-d.a
		for j := range lanes {
			g1 := gamma(&st[j], d.alpha)
			g2 := gamma(&st[j], d.beta)
			x[j] = a + w*g1/(g1+g2)
		}
	}
	if useAVX512 {
		s.sampleNormals512(dur)
		return
	}
	for _, v := range m.normal {
		s.normalLanes(v, dur)
	}
}

// normalLanes draws v's normal duration in every lane.
func (s *laneSampler) normalLanes(v int32, dur []float64) {
	x := (*[lanes]float64)(dur[int(v)*lanes:])
	d := &s.m.dists[v]
	for j := range lanes {
		r := &s.st[j]
		x[j] = r.normalFrom(r.Uint64(), d.a, d.b)
	}
}

// normDraw is a normal activity as normal512 reads it.
type normDraw struct {
	off  int64 // v·lanes·8
	a, b float64
}

// sampleNormals512 is the normals of sampleOthers by the AVX-512 kernel,
// which stops at an activity where some lane leaves the ziggurat's first
// test or draws below 0: those lanes finish in Go (rng.normalFrom), and
// the kernel goes on after it.
func (s *laneSampler) sampleNormals512(dur []float64) {
	_ = dur[s.m.Len()*lanes-1]
	var states [lanes]uint64
	for j := range lanes {
		states[j] = s.st[j].s
	}
	for k := 0; k < len(s.normals); k++ {
		var fail uint8
		k += normal512(&states, &s.normals[k], len(s.normals)-k, &dur[0], &zigW[0], &zigK[0], &fail)
		for ; fail != 0; fail &= fail - 1 {
			j := bits.TrailingZeros8(fail)
			// The lane's draw again (its state is past it), then the rest.
			r := rng{states[j] - weyl}
			u := r.Uint64()
			d := &s.normals[k]
			dur[int(d.off/8)+j] = r.normalFrom(u, d.a, d.b)
			states[j] = r.s
		}
	}
	for j := range lanes {
		s.st[j].s = states[j]
	}
}

// columnKeys is column straight into the ranker's keys: the bounds of v's
// distribution (widened by 1024 float32 steps for rounding) give the
// keys' span before any is drawn, so the keys and their histograms are
// made as the values are regenerated. It reports false if a value fell
// outside (not expected; the caller then ranks column's output).
func (m *Model) columnKeys(v int32, p *drawPlan, tabs []*qtable, starts []uint64, rk *ranker) bool {
	d := &m.dists[v]
	dlo, dhi := d.bounds()
	klo, khi := orderedBits(float32(dlo)), orderedBits(float32(dhi))
	klo -= min(klo, 1024)
	khi = min(khi+1024, math.MaxUint32)
	span := khi - klo
	rk.layout(len(starts), span)
	vals := rk.tmp[:len(starts)] // scratch until sums
	m.columnBits(v, p, tabs, starts, vals)
	return rk.put(vals, klo, span)
}
