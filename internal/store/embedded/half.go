package embedded

import (
	"encoding/binary"
	"math"
	"sync"
)

// Vectors are stored as IEEE 754 half-precision floats: a document's
// 384-dimension vector is then 768 bytes instead of 1,536, which was three
// fifths of a large schedule's database and of what its import wrote. The
// vectors are unit length, so a component's rounding error (at most 2^-11
// of it) moves a cosine score by well under 0.001.
//
// A half-precision blob starts with halfMarker and so has an odd length;
// blobs written before it are float32 (a multiple of 4 bytes) and read as
// they are, so no migration is needed.
const halfMarker = 'h'

func encodeVector(v []float32) []byte {
	b := make([]byte, 1+2*len(v))
	b[0] = halfMarker
	for i, x := range v {
		binary.LittleEndian.PutUint16(b[1+2*i:], halfFromFloat32(x))
	}
	return b
}

// decodeVector appends the vector a blob holds to into, whichever the
// format.
func decodeVector(b []byte, into []float32) []float32 {
	if len(b)%2 == 1 && b[0] == halfMarker {
		table := halfTable()
		for i := 1; i+2 <= len(b); i += 2 {
			into = append(into, table[binary.LittleEndian.Uint16(b[i:])])
		}
		return into
	}
	for i := 0; i+4 <= len(b); i += 4 {
		into = append(into, math.Float32frombits(binary.LittleEndian.Uint32(b[i:])))
	}
	return into
}

// halfTable is every half's float32 (256 KB): a search decodes thousands
// of vectors, and a look-up is several times faster than the bit work.
var halfTable = sync.OnceValue(func() *[1 << 16]float32 {
	var t [1 << 16]float32
	for h := range t {
		t[h] = float32FromHalf(uint16(h))
	}
	return &t
})

// halfFromFloat32 is the half-precision float nearest f, ties to even;
// beyond the half range it is an infinity, NaN stays NaN.
func halfFromFloat32(f float32) uint16 {
	bits := math.Float32bits(f)
	sign := uint16(bits>>16) & 0x8000
	exp32 := int(bits>>23) & 0xff
	mant := bits & 0x7fffff
	if exp32 == 0xff {
		if mant != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	}
	exp := exp32 - 127 + 15
	if exp >= 0x1f {
		return sign | 0x7c00
	}
	if exp <= 0 {
		// A subnormal half: m × 2^-24, where m is the 24-bit significand
		// shifted right by 14 - exp.
		if exp < -10 {
			return sign
		}
		return sign | uint16(roundShift(mant|0x800000, uint(14-exp)))
	}
	// A carry out of the mantissa rounds up into the exponent, and from the
	// largest finite half into the infinity: both what the bits give.
	return sign | uint16(roundShift(uint32(exp)<<23|mant, 13))
}

// roundShift is v >> shift rounded to nearest, ties to even.
func roundShift(v uint32, shift uint) uint32 {
	q := v >> shift
	rem := v & (1<<shift - 1)
	half := uint32(1) << (shift - 1)
	if rem > half || (rem == half && q&1 == 1) {
		q++
	}
	return q
}

func float32FromHalf(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h & 0x3ff)
	switch exp {
	case 0:
		v := float32(mant) / (1 << 24)
		if sign != 0 {
			v = -v
		}
		return v
	case 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}
