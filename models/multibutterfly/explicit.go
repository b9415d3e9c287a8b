package multibutterfly

import (
	"fmt"
	"math/bits"

	"routecheck/models/expander"
)

// BuildMGG returns the explicit multi-butterfly with N inputs (a power of
// two in [2, 2^16]) whose every splitter is expander.MGGSplitter(N/2^s): the
// Margulis–Gabber–Galil graph on the torus of that size, folded (Corollary
// 2.1's proof), d = 8 edges into each output set. Nothing is random: every
// set A_{s,j} of one stage gets the same splitter. It returns an error for
// bad N.
func BuildMGG(n int) (*Network, error) {
	return buildMGG(n, expander.MGGSplitter)
}

// BuildMGGShifted is BuildMGG with every splitter
// expander.MGGSplitterShifted(N/2^s): the same MGG tori folded by pairing
// (x, y) with (x + a/2, y + 1) instead of (x + a/2, y). Same errors.
func BuildMGGShifted(n int) (*Network, error) {
	return buildMGG(n, expander.MGGSplitterShifted)
}

func buildMGG(n int, splitter func(m int) (expander.Splitter, error)) (*Network, error) {
	if n < 2 || n&(n-1) != 0 || n > 1<<16 {
		return nil, fmt.Errorf("multibutterfly: N = %d: must be a power of two in [2, 2^16]", n)
	}
	logN := bits.Len(uint(n)) - 1
	sp := make([][]expander.Splitter, logN)
	for s := range logN {
		x, err := splitter(n >> s)
		if err != nil {
			return nil, err
		}
		sp[s] = make([]expander.Splitter, 1<<s)
		for j := range sp[s] {
			sp[s][j] = x
		}
	}
	return FromSplitters(n, 8, sp)
}
