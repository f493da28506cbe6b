package risk

import (
	"math"
	"math/bits"
	"math/rand/v2"
)

// pcg is math/rand/v2's PCG (128-bit LCG, DXSM output), the same numbers
// from the same seed, with its state where the lane sampler can step it
// inline. It is a rand.Source for the draws that go through rand.Rand.
type pcg struct{ hi, lo uint64 }

func (p *pcg) Uint64() uint64 {
	const (
		mulHi    = 2549297995355413924
		mulLo    = 4865540595714422341
		incHi    = 6364136223846793005
		incLo    = 1442695040888963407
		cheapMul = 0xda942042e4dd58b5
	)
	hi, lo := bits.Mul64(p.lo, mulLo)
	hi += p.hi*mulLo + p.lo*mulHi
	lo, c := bits.Add64(lo, incLo, 0)
	hi, _ = bits.Add64(hi, incHi, c)
	p.lo, p.hi = lo, hi
	hi ^= hi >> 32
	hi *= cheapMul
	hi ^= hi >> 48
	hi *= lo | 1
	return hi
}

// unit is a uniform draw in [0, 1), as rand.Rand.Float64.
func (p *pcg) unit() float64 { return float64(p.Uint64()<<11>>11) * 0x1p-53 }

// laneSampler draws the independent durations of lanes iterations at once,
// straight into a batch: activity by activity, each lane from its own
// iteration's stream, so the lanes' dependency chains (the LCG step, the
// square root) overlap. Every stream draws what sampler.sample draws for
// its iteration, in the same order, so the numbers are the same.
type laneSampler struct {
	m    *Model
	tabs []*qtable
	seed uint64
	st   [lanes]pcg
	r    [lanes]*rand.Rand // over st[j], for the normal draws
}

func (m *Model) newLaneSampler(seed uint64, tabs []*qtable) *laneSampler {
	s := &laneSampler{m: m, tabs: tabs, seed: seed}
	for j := range s.r {
		s.r[j] = rand.New(&s.st[j])
	}
	return s
}

// sample fills dur (dur[v*lanes+j]) with iterations first..first+nb-1 in
// lanes 0..nb-1; the other lanes get copies of the last of them.
func (s *laneSampler) sample(first, nb int, dur []float64) {
	m := s.m
	for j := range lanes {
		s.st[j] = pcg{s.seed, uint64(first + min(j, nb-1))}
	}
	st := &s.st
	for _, v := range m.fixed {
		x := (*[lanes]float64)(dur[int(v)*lanes:])
		a := m.dists[v].a
		for j := range lanes {
			x[j] = a
		}
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
	for _, v := range m.pert {
		x := (*[lanes]float64)(dur[int(v)*lanes:])
		d := &m.dists[v]
		a, w := d.a, d.b-d.a
		if t := s.tabs[v]; t != nil {
			var u [lanes]float64
			for j := range lanes {
				u[j] = st[j].unit()
			}
			for j := range lanes {
				x[j] = a + w*t.at(u[j])
			}
			continue
		}
		for j := range lanes {
			r := s.r[j]
			g1 := gamma(r, d.alpha)
			g2 := gamma(r, d.beta)
			x[j] = a + w*g1/(g1+g2)
		}
	}
	for _, v := range m.normal {
		x := (*[lanes]float64)(dur[int(v)*lanes:])
		d := &m.dists[v]
		for j := range lanes {
			r := s.r[j]
			for {
				if y := d.a + d.b*r.NormFloat64(); y >= 0 {
					x[j] = y
					break
				}
			}
		}
	}
}
