package risk

import (
	"math"

	"github.com/autoscheduler/autoscheduler/internal/schedule"
)

// Distribution kinds, packed.
const (
	kFixed uint8 = iota
	kUniform
	kTriangular
	kPERT
	kNormal
)

// dist is one activity's duration distribution with what sampling needs
// precomputed.
//
//   - fixed(d): always d.
//   - uniform(a,b): a + (b-a)U.
//   - triangular(a,m,b): by its inverse CDF.
//   - pert(a,m,b): the scaled beta a + (b-a)·Beta(α,β) with the standard
//     λ = 4: α = 1 + 4(m-a)/(b-a), β = 1 + 4(b-m)/(b-a), so the mean is
//     (a+4m+b)/6 and the variance (mean-a)(b-mean)/7. Beta is drawn as
//     X/(X+Y) from two gamma variates (Marsaglia and Tsang).
//   - normal(μ,σ): truncated at 0 (durations are never negative): a draw
//     below 0 is redrawn, i.e. the normal conditioned on being >= 0. With
//     μ several σ above 0 (the usual case) this changes nothing.
type dist struct {
	kind        uint8
	a, m, b     float64 // fixed: a; uniform: a,b; triangular/PERT: a,m,b; normal: a=μ, b=σ
	alpha, beta float64 // PERT shape
	fc          float64 // triangular: CDF at the mode; normal: Φ(-μ/σ) (mass below 0)
	lbeta       float64 // PERT: log B(α,β), for the quantile
}

// tabCells is the number of cells of each part of a PERT quantile table.
const tabCells = 1024

// tabEdge is the probability in each tail that a quantile table covers with
// its own finer part.
const tabEdge = 1.0 / 64

// tabExact is how many outermost cells of each tail use betaQuantile.
const tabExact = 16

// maxTables bounds how many distinct PERT shapes get a quantile table
// (40 KiB and about 2 ms each); the others sample by gamma variates (or,
// in the copula, by betaQuantile).
const maxTables = 64

// qtable tabulates the exact Beta(α,β) quantile (betaQuantile) for
// sampling a PERT by the inverse-transform method with one uniform and a
// linear interpolation: body at u = i/1024, and each tail (u < 1/64,
// u > 1-1/64), where the quantile is steep, 1024 cells of 1/65536. The
// 16 outermost cells of each tail (probability 2.4e-4 each side) are
// tabulated again, 1024 cells of 2^-22 (deep), whose own 16 outermost
// cells (3.8e-6 each side) use betaQuantile itself: a draw there costs
// about 2 µs, a hundred table lookups. The error is below 5e-5 of (b-a)
// everywhere (see TestPERTTable).
type qtable struct {
	body, lo, hi       []float64
	loDeep, hiDeep     []float64
	alpha, beta, lbeta float64
}

func newQTable(a, b, lbeta float64) *qtable {
	t := allocQTable(a, b, lbeta)
	for job := range fillJobs {
		t.fill(job)
	}
	return t
}

// allocQTable allocates a table's parts in one array: lo, body, hi first
// (tabNodes floats each), which the AVX-512 sampler gathers from, then the
// deep tails.
func allocQTable(a, b, lbeta float64) *qtable {
	all := make([]float64, 5*tabNodes)
	part := func(k int) []float64 { return all[k*tabNodes : (k+1)*tabNodes] }
	return &qtable{lo: part(0), body: part(1), hi: part(2), loDeep: part(3), hiDeep: part(4), alpha: a, beta: b, lbeta: lbeta}
}

// tabNodes is the number of nodes of each part of a table.
const tabNodes = tabCells + 1

// deepEdge is the probability in each tail that a table's deep part
// covers: the tail part's exact cells.
const deepEdge = tabExact * tabEdge / tabCells

// fillJobs is how many jobs fill a table: each part's first or second
// half.
const fillJobs = 10

// fill computes half job%2 of part job/2 of the table: the body (0), the
// lower tail (1), the upper tail (2) or the deep tails (3, 4), its nodes
// in increasing order, each Newton search starting from the node before.
func (t *qtable) fill(job int) {
	a, b, lbeta := t.alpha, t.beta, t.lbeta
	nodes, from, by := t.body, 0.0, 1.0/tabCells
	switch job / 2 {
	case 1:
		nodes, by = t.lo, tabEdge/tabCells
	case 2:
		nodes, from, by = t.hi, 1-tabEdge, tabEdge/tabCells
	case 3:
		nodes, by = t.loDeep, deepEdge/tabCells
	case 4:
		nodes, from, by = t.hiDeep, 1-deepEdge, deepEdge/tabCells
	}
	first, end := 0, tabCells/2+1
	if job%2 == 1 {
		first, end = end, tabCells+1
	}
	x, lo := a/(a+b), 0.0
	if u := from + float64(first)*by; u > 0 {
		x = betaQuantile(u, a, b, lbeta)
	}
	for i := first; i < end; i++ {
		q := betaQuantileFrom(from+float64(i)*by, a, b, lbeta, lo, max(x, 1e-300))
		if i > first {
			lo = q
		}
		nodes[i], x = q, q
	}
}

// at is the quantile at u in [0,1).
func (t *qtable) at(u float64) float64 {
	var nodes []float64
	var x float64
	switch {
	case u >= tabEdge && u < 1-tabEdge:
		nodes, x = t.body, u*tabCells
	case u < tabEdge:
		nodes, x = t.lo, u*(tabCells/tabEdge)
		if x < tabExact {
			nodes, x = t.loDeep, u*(tabCells/deepEdge)
			if x < tabExact {
				return betaQuantile(u, t.alpha, t.beta, t.lbeta)
			}
		}
	default:
		nodes, x = t.hi, (u-(1-tabEdge))*(tabCells/tabEdge)
		if x >= tabCells-tabExact {
			nodes, x = t.hiDeep, (u-(1-deepEdge))*(tabCells/deepEdge)
			if x >= tabCells-tabExact {
				return betaQuantile(u, t.alpha, t.beta, t.lbeta)
			}
		}
	}
	i := min(int(x), tabCells-1)
	f := x - float64(i)
	return nodes[i] + f*(nodes[i+1]-nodes[i])
}

func newDist(d schedule.Duration) dist {
	p := d.Params
	switch d.Kind {
	case schedule.Uniform:
		if p[0] == p[1] {
			return dist{kind: kFixed, a: p[0]}
		}
		return dist{kind: kUniform, a: p[0], b: p[1]}
	case schedule.Triangular:
		if p[0] == p[2] {
			return dist{kind: kFixed, a: p[0]}
		}
		return dist{kind: kTriangular, a: p[0], m: p[1], b: p[2], fc: (p[1] - p[0]) / (p[2] - p[0])}
	case schedule.PERT:
		if p[0] == p[2] {
			return dist{kind: kFixed, a: p[0]}
		}
		al := 1 + 4*(p[1]-p[0])/(p[2]-p[0])
		be := 1 + 4*(p[2]-p[1])/(p[2]-p[0])
		la, _ := math.Lgamma(al)
		lb, _ := math.Lgamma(be)
		lab, _ := math.Lgamma(al + be)
		return dist{kind: kPERT, a: p[0], m: p[1], b: p[2], alpha: al, beta: be, lbeta: la + lb - lab}
	case schedule.Normal:
		if p[1] == 0 {
			return dist{kind: kFixed, a: p[0]}
		}
		return dist{kind: kNormal, a: p[0], b: p[1], fc: normCDF(-p[0] / p[1])}
	}
	return dist{kind: kFixed, a: p[0]}
}

// bounds is the range of the durations the distribution draws (normal:
// [0, +Inf), truncated at 0).
func (d *dist) bounds() (lo, hi float64) {
	switch d.kind {
	case kUniform, kTriangular, kPERT:
		return d.a, d.b
	case kNormal:
		return 0, math.Inf(1)
	}
	return d.a, d.a
}

// Mean is the distribution's mean (the normal's before truncation).
func (d *dist) mean() float64 {
	switch d.kind {
	case kUniform:
		return (d.a + d.b) / 2
	case kTriangular:
		return (d.a + d.m + d.b) / 3
	case kPERT:
		return (d.a + 4*d.m + d.b) / 6
	}
	return d.a
}

// draw samples the distribution from r.
func (d *dist) draw(r *rng) float64 {
	switch d.kind {
	case kUniform:
		return d.a + (d.b-d.a)*r.unit()
	case kTriangular:
		return d.quantile(r.unit())
	case kPERT:
		x := gamma(r, d.alpha)
		y := gamma(r, d.beta)
		return d.a + (d.b-d.a)*x/(x+y)
	case kNormal:
		return r.normal(d.a, d.b)
	}
	return d.a
}

// quantile is the inverse CDF at u in [0,1) (for the normal, of the
// distribution truncated at 0). The Gaussian copula of --correlate maps
// correlated uniforms through it.
func (d *dist) quantile(u float64) float64 {
	switch d.kind {
	case kUniform:
		return d.a + (d.b-d.a)*u
	case kTriangular:
		w := d.b - d.a
		if u < d.fc {
			return d.a + math.Sqrt(u*w*(d.m-d.a))
		}
		return d.b - math.Sqrt((1-u)*w*(d.b-d.m))
	case kPERT:
		return d.a + (d.b-d.a)*betaQuantile(u, d.alpha, d.beta, d.lbeta)
	case kNormal:
		p := d.fc + u*(1-d.fc)
		return max(0, d.a+d.b*normQuantile(p))
	}
	return d.a
}

// gamma draws Gamma(k, 1) for k >= 1 (Marsaglia and Tsang 2000); PERT shapes
// are always >= 1.
func gamma(r *rng, k float64) float64 {
	d := k - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.norm()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.unit()
		x2 := x * x
		if u < 1-0.0331*x2*x2 {
			return d * v
		}
		if math.Log(u) < 0.5*x2+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}

// normCDF is Φ, the standard normal CDF.
func normCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

// normQuantile is Φ⁻¹.
func normQuantile(p float64) float64 {
	if p <= 0 {
		return math.Inf(-1)
	}
	if p >= 1 {
		return math.Inf(1)
	}
	return -math.Sqrt2 * math.Erfcinv(2*p)
}

// betaInc is the regularized incomplete beta I_x(a,b) (continued fraction,
// modified Lentz; Numerical Recipes 6.4).
func betaInc(x, a, b, lbeta float64) float64 {
	if x <= 0 {
		return 0
	}
	if x >= 1 {
		return 1
	}
	front := math.Exp(a*math.Log(x) + b*math.Log1p(-x) - lbeta)
	if x > (a+1)/(a+b+2) {
		return 1 - front*betaCF(1-x, b, a)/b
	}
	return front * betaCF(x, a, b) / a
}

func betaCF(x, a, b float64) float64 {
	const tiny = 1e-300
	qab, qap, qam := a+b, a+1, a-1
	c, d := 1.0, 1-qab*x/qap
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	// term takes the fraction one coefficient further (modified Lentz)
	// and is the factor it multiplies h by.
	term := func(aa float64) float64 {
		d = 1 + aa*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		return d * c
	}
	for m := 1; m <= 300; m++ {
		fm := float64(m)
		h *= term(fm * (b - fm) * x / ((qam + 2*fm) * (a + 2*fm)))
		del := term(-(a + fm) * (qab + fm) * x / ((a + 2*fm) * (qap + 2*fm)))
		h *= del
		if math.Abs(del-1) < 1e-14 {
			break
		}
	}
	return h
}

// betaQuantile inverts betaInc by Newton steps kept inside a shrinking
// bracket (bisection when a step leaves it), to about 1e-12.
func betaQuantile(u, a, b, lbeta float64) float64 {
	return betaQuantileFrom(u, a, b, lbeta, 0, a/(a+b))
}

// betaQuantileFrom is betaQuantile starting from x in [lo, 1), lo at or
// below the quantile: a table's nodes start from the previous node, a few
// Newton steps away.
func betaQuantileFrom(u, a, b, lbeta, lo, x float64) float64 {
	if u <= 0 {
		return 0
	}
	if u >= 1 {
		return 1
	}
	hi := 1.0
	for range 100 {
		f := betaInc(x, a, b, lbeta) - u
		if f > 0 {
			hi = x
		} else {
			lo = x
		}
		if math.Abs(f) < 1e-13 || hi-lo < 1e-13 {
			break
		}
		pdf := math.Exp((a-1)*math.Log(x) + (b-1)*math.Log1p(-x) - lbeta)
		next := x - f/pdf
		if !(next > lo && next < hi) || pdf == 0 || math.IsNaN(next) {
			next = (lo + hi) / 2
		}
		x = next
	}
	return x
}
