package risk

import (
	"math"
	"math/bits"
)

// rng is one iteration's random stream: SplitMix64 (Steele, Lea and Flood
// 2014: a Weyl sequence through a 64-bit finalizer; passes BigCrush),
// started at the first output of PCG(seed, iteration) (math/rand/v2's
// PCG), so iteration i's draws depend only on the seed and i. A step is an
// add and two multiplies, a third of a PCG step: sampling 850 durations
// per iteration is mostly drawing numbers.
type rng struct{ s uint64 }

func newRng(seed uint64, iter int) rng {
	p := pcg{seed, uint64(iter)}
	return rng{p.Uint64()}
}

// weyl is SplitMix64's increment (2^64 over the golden ratio): a stream's
// k-th draw (from 0) is the finalizer of start + (k+1)·weyl.
const weyl = 0x9e3779b97f4a7c15

func (r *rng) Uint64() uint64 {
	r.s += weyl
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// unit is a uniform draw in [0, 1) (53 bits).
func (r *rng) unit() float64 { return float64(r.Uint64()>>11) * 0x1p-53 }

// norm is a standard normal draw: the ziggurat (Marsaglia and Tsang 2000),
// 128 strips, as math/rand/v2's NormFloat64 with float64 tables.
func (r *rng) norm() float64 { return r.normFrom(r.Uint64()) }

// normFrom is norm with its first 64 bits already drawn (u): 99% of draws
// end at the first test, which the lane sampler makes inline.
func (r *rng) normFrom(u uint64) float64 {
	for {
		j := int32(u)
		i := u >> 32 & 0x7f
		x := float64(j) * zigW[i]
		if absInt32(j) < zigK[i] {
			return x
		}
		if i == 0 {
			// The base strip's tail beyond zigR (Marsaglia 1964).
			for {
				x = -math.Log(r.unit()) * (1 / zigR)
				y := -math.Log(r.unit())
				if y+y >= x*x {
					break
				}
			}
			if j > 0 {
				return zigR + x
			}
			return -zigR - x
		}
		if zigF[i]+r.unit()*(zigF[i-1]-zigF[i]) < math.Exp(-0.5*x*x) {
			return x
		}
		u = r.Uint64()
	}
}

// normalFrom is normal with the first 64 bits already drawn (u): the
// ziggurat's first test inline (99% of draws end there), then normFrom.
func (r *rng) normalFrom(u uint64, a, b float64) float64 {
	k := int32(u)
	i := u >> 32 & 0x7f
	z := float64(k) * zigW[i]
	if absInt32(k) >= zigK[i] {
		z = r.normFrom(u)
	}
	if y := a + b*z; y >= 0 {
		return y
	}
	return r.normal(a, b)
}

// normal is normal(a, b) truncated at 0: a negative draw is redrawn.
func (r *rng) normal(a, b float64) float64 {
	for {
		if y := a + b*r.norm(); y >= 0 {
			return y
		}
	}
}

func absInt32(i int32) uint32 {
	if i < 0 {
		return uint32(-i)
	}
	return uint32(i)
}

// The ziggurat's tables: strip i's x scale (zigW), its fast-accept bound
// on |j| (zigK) and the density at its edge (zigF).
const zigR = 3.442619855899

var (
	zigK       [128]uint32
	zigW, zigF [128]float64
)

func init() {
	const m1 = 1 << 31
	const vn = 9.91256303526217e-3 // each strip's area
	dn, tn := zigR, zigR
	q := vn / math.Exp(-0.5*dn*dn)
	zigK[0] = uint32(dn / q * m1)
	zigK[1] = 0
	zigW[0] = q / m1
	zigW[127] = dn / m1
	zigF[0] = 1
	zigF[127] = math.Exp(-0.5 * dn * dn)
	for i := 126; i >= 1; i-- {
		dn = math.Sqrt(-2 * math.Log(vn/dn+math.Exp(-0.5*dn*dn)))
		zigK[i+1] = uint32(dn / tn * m1)
		tn = dn
		zigF[i] = math.Exp(-0.5 * dn * dn)
		zigW[i] = dn / m1
	}
}

// pcg is math/rand/v2's PCG (128-bit LCG, DXSM output): the same numbers
// from the same seed. It seeds each iteration's rng.
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
