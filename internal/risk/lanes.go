package risk

import "math"

// laneSampler draws the independent durations of lanes iterations at once,
// straight into a batch: activity by activity, each lane from its own
// iteration's stream, so the lanes' dependency chains (the LCG step, the
// square root) overlap. Every stream draws what sampler.sample draws for
// its iteration, in the same order, so the numbers are the same.
type laneSampler struct {
	m    *Model
	tabs []*qtable
	seed uint64
	st   [lanes]rng
}

func (m *Model) newLaneSampler(seed uint64, tabs []*qtable) *laneSampler {
	return &laneSampler{m: m, tabs: tabs, seed: seed}
}

// sample fills dur (dur[v*lanes+j]) with iterations first..first+nb-1 in
// lanes 0..nb-1; the other lanes get copies of the last of them.
func (s *laneSampler) sample(first, nb int, dur []float64) {
	m := s.m
	for j := range lanes {
		s.st[j] = newRng(s.seed, first+min(j, nb-1))
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
			continue
		}
		for j := range lanes {
			g1 := gamma(&st[j], d.alpha)
			g2 := gamma(&st[j], d.beta)
			x[j] = a + w*g1/(g1+g2)
		}
	}
	for _, v := range m.normal {
		x := (*[lanes]float64)(dur[int(v)*lanes:])
		d := &m.dists[v]
		a, b := d.a, d.b
		for j := range lanes {
			// rng.normal, its likely first round inline.
			u := st[j].Uint64()
			k := int32(u)
			i := u >> 32 & 0x7f
			z := float64(k) * zigW[i]
			if absInt32(k) >= zigK[i] {
				z = st[j].normFrom(u)
			}
			y := a + b*z
			if y < 0 {
				y = st[j].normal(a, b)
			}
			x[j] = y
		}
	}
}
