package embedded

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Every half-precision value survives the trip through float32 and back.
func TestHalfEveryValueRoundTrips(t *testing.T) {
	for h := range 1 << 16 {
		f := float32FromHalf(uint16(h))
		if f != f {
			if got := halfFromFloat32(f); got&0x7c00 != 0x7c00 || got&0x3ff == 0 {
				t.Fatalf("NaN %#04x came back as %#04x", h, got)
			}
			continue
		}
		if got := halfFromFloat32(f); got != uint16(h) {
			t.Fatalf("%#04x (%g) came back as %#04x", h, f, got)
		}
	}
}

// A float32 becomes the nearest half, ties to the even one, and what the
// half range cannot hold becomes an infinity or a signed zero.
func TestHalfIsTheNearest(t *testing.T) {
	cases := []struct {
		in   float32
		want uint16
	}{
		{0, 0},
		{float32(math.Copysign(0, -1)), 0x8000},
		{1, 0x3c00},
		{-2, 0xc000},
		{65504, 0x7bff},
		{65520, 0x7c00}, // halfway to the next binade: ties to even, the infinity
		{1e6, 0x7c00},
		{float32(math.Inf(-1)), 0xfc00},
		{6.103515625e-05, 0x0400},       // the smallest normal
		{5.960464477539063e-08, 0x0001}, // the smallest subnormal
		{2.9802322387695312e-08, 0},     // half of it: ties to even, zero
		{1 + 1.0/2048, 0x3c00},          // halfway between 1 and the next: even
		{1 + 3.0/2048, 0x3c02},          // halfway between odd and even: up
	}
	for _, c := range cases {
		if got := halfFromFloat32(c.in); got != c.want {
			t.Errorf("halfFromFloat32(%g) = %#04x, want %#04x", c.in, got, c.want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		f := float32(r.NormFloat64() * math.Pow(2, float64(r.IntN(40)-30)))
		h := halfFromFloat32(f)
		got := float64(float32FromHalf(h))
		if math.IsInf(got, 0) {
			continue
		}
		for _, n := range []uint16{h - 1, h + 1} {
			other := float64(float32FromHalf(n))
			if n&0x7c00 != 0x7c00 && math.Abs(other-float64(f)) < math.Abs(got-float64(f)) {
				t.Fatalf("%g became %g, but %g is nearer", f, got, other)
			}
		}
	}
}

// Blobs written as float32 before vectors were halved read as they were.
func TestDecodeVectorReadsBothFormats(t *testing.T) {
	v := []float32{0.25, -0.5, 0.125, 1}
	old := make([]byte, 0, 16)
	for _, x := range v {
		b := math.Float32bits(x)
		old = append(old, byte(b), byte(b>>8), byte(b>>16), byte(b>>24))
	}
	for name, blob := range map[string][]byte{"float32": old, "half": encodeVector(v)} {
		got := decodeVector(blob, nil)
		if len(got) != len(v) {
			t.Fatalf("%s: %v", name, got)
		}
		for i := range v {
			if got[i] != v[i] {
				t.Errorf("%s: %v, want %v", name, got, v)
			}
		}
	}
	if n := len(encodeVector(make([]float32, 384))); n != 769 {
		t.Errorf("a 384-dimension vector takes %d bytes, want 769", n)
	}
}
