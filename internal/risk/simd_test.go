package risk

import "testing"

// forKernels runs f with the Go loops and, where the CPU has AVX-512, with
// the assembly kernels: the tests that compare the batched code with the
// one-iteration code check both.
func forKernels(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	defer func(was bool) { useAVX512 = was }(useAVX512)
	useAVX512 = false
	t.Run("go", f)
	if !hasAVX512 {
		t.Log("no AVX-512 on this CPU: the assembly kernels are not used here")
		return
	}
	useAVX512 = true
	t.Run("avx512", f)
}
