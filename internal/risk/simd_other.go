//go:build !amd64

package risk

// Off amd64 the Go loops run.
var useAVX512, hasAVX512 = false, false

func forward512(t, dur *float64, order *int32, n int, start, mid *int32, links *plink, fin *[lanes]float64) {
	panic("risk: no AVX-512 kernels on this architecture")
}

func sample512(starts *[lanes]uint64, draws *laneDraw, n int, dur *float64, fix *uint8) (fixes int) {
	panic("risk: no AVX-512 kernels on this architecture")
}

func column512(starts *uint64, n int, skip uint64, d *laneDraw, out *uint64, fix *uint8) (fixes int) {
	panic("risk: no AVX-512 kernels on this architecture")
}

func walk512(a *walkArgs, live uint8) {
	panic("risk: no AVX-512 kernels on this architecture")
}

func normal512(states *[lanes]uint64, draws *normDraw, n int, dur *float64, zigW *float64, zigK *uint32, fail *uint8) (done int) {
	panic("risk: no AVX-512 kernels on this architecture")
}
