package risk

import "golang.org/x/sys/cpu"

// useAVX512 says whether the batched kernels run as AVX-512 assembly
// (simd_amd64.s: one lane per 64-bit element of a 512-bit register, so a
// batch of lanes iterations is one register), the Go loops being their
// definition and the fallback. It needs AVX-512 F and DQ (64-bit
// multiplies and conversions) with the OS saving the registers, which
// x/sys/cpu checks. Tests run both (see kernels).
var useAVX512 = hasAVX512

var hasAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ

// forward512 is forward8 on all lanes: see forward4 for the arithmetic,
// which it repeats operation for operation (VMAXPD keeps the accumulator
// on ties and for -0, as the bit maxima do).
//
//go:noescape
func forward512(t, dur *float64, order *int32, n int, start, mid *int32, links *plink, fin *[lanes]float64)

// sample512 draws, in every lane, one number of the lane's stream
// (SplitMix64 from starts[j]) for each of the n draws in turn and stores
// the activity's duration as laneSampler.sampleRandom computes it. A PERT
// draw that falls in a table's exact cells (qtable.at calls betaQuantile
// there) is left to the caller: its lanes are set in fix[k], the other
// draws' fix bytes are not written; it returns the OR of the bytes set.
//
//go:noescape
func sample512(starts *[lanes]uint64, draws *laneDraw, n int, dur *float64, fix *uint8) (fixes int)

// column512 is columnBits for iterations 0..n-1, n a multiple of lanes,
// the draw d made at the stream position skip/γ: out[i] gets orderedBits
// of the float32 duration; a PERT draw in a table's exact cells is left to
// the caller, its lanes set in fix[i/lanes] (only PERT draws write fix).
//
//go:noescape
func column512(starts *uint64, n int, skip uint64, d *laneDraw, out *uint64, fix *uint8) (fixes int)

// walk512 is walk's loop over the marked activities (after the ends are
// marked), live the lanes that count: the Go loop's operations in its
// order, lanes in a register.
//
//go:noescape
func walk512(a *walkArgs, live uint8)

// normal512 draws the n normal durations of draws in every lane, each lane
// from its stream (states[j], SplitMix64), as rng.normalFrom does when the
// lane passes the ziggurat's first test (zigW and zigK: its tables) and
// draws a duration >= 0. At the first activity where some lane does not,
// it stops with those lanes in fail (their durations not written, their
// states past the draw) and returns how many activities it finished
// before that one.
//
//go:noescape
func normal512(states *[lanes]uint64, draws *normDraw, n int, dur *float64, zigW *float64, zigK *uint32, fail *uint8) (done int)
