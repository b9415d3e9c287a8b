//go:build !amd64

package sortnet

// Elsewhere than amd64 there is no lanes kernel: ApplyMany runs Apply on
// each input.

func applyLanes(v *lanes, cs []uint32) { panic("sortnet: applyLanes without AVX2") }

func haveLanesKernel() bool { return false }
