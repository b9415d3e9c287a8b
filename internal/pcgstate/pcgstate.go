// Package pcgstate is math/rand/v2's PCG with its state in a value, for
// loops of draws that must reproduce rand.Rand's stream exactly (the POPS
// engine's stage-1 coins, Lemma 3.3's instance shuffles) while keeping the
// state in registers.
package pcgstate

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
)

// State is math/rand/v2's PCG (a 128-bit LCG with the DXSM output function)
// with its state in a value, so that a loop of draws keeps the state in
// registers instead of loading and storing it through a *rand.PCG on every
// draw. Load and Store move the state from and to a *rand.PCG through
// its binary encoding; between them the *rand.PCG must not be used.
// TestStateMatchesRandPCG checks the draws against math/rand/v2's.
type State struct{ hi, lo uint64 }

// Load reads src's state.
func Load(src *rand.PCG) State {
	var buf [20]byte
	b, err := src.AppendBinary(buf[:0])
	if err != nil || len(b) != 20 {
		panic("pcgstate: cannot read the PCG's state")
	}
	return State{hi: binary.BigEndian.Uint64(b[4:]), lo: binary.BigEndian.Uint64(b[12:])}
}

// Store writes the state back into src.
func (p *State) Store(src *rand.PCG) {
	var b [20]byte
	copy(b[:], "pcg:")
	binary.BigEndian.PutUint64(b[4:], p.hi)
	binary.BigEndian.PutUint64(b[12:], p.lo)
	if err := src.UnmarshalBinary(b[:]); err != nil {
		panic("pcgstate: cannot write the PCG's state: " + err.Error())
	}
}

// Uint64 is rand.PCG.Uint64 (math/rand/v2, pcg.go: next, then DXSM).
func (p *State) Uint64() uint64 {
	var x uint64
	*p, x = p.Next()
	return x
}

// Next is Uint64 on a value: the state after the draw, and the draw. A
// loop of draws on a local State through Next keeps the state in
// registers; through Uint64 (a pointer to the local) it goes through
// memory at every draw, which lengthens the generator's chain of
// dependent operations (≈ 15 % per draw, measured).
func (s State) Next() (State, uint64) {
	const (
		mulHi = 2549297995355413924
		mulLo = 4865540595714422341
		incHi = 6364136223846793005
		incLo = 1442695040888963407
	)
	hi, lo := bits.Mul64(s.lo, mulLo)
	hi += s.hi*mulLo + s.lo*mulHi
	lo, c := bits.Add64(lo, incLo, 0)
	hi, _ = bits.Add64(hi, incHi, c)
	s.lo, s.hi = lo, hi
	const cheapMul = 0xda942042e4dd58b5
	hi ^= hi >> 32
	hi *= cheapMul
	hi ^= hi >> 48
	hi *= lo | 1
	return s, hi
}

// IntN is rand.Rand.IntN(n) for 1 ≤ n < 2^63 on 64-bit platforms only
// (math/rand/v2's uint64n: a mask for a power of two, else Lemire's
// multiply with rejection), the same draws from the same stream. On 32-bit
// platforms uint64n draws n < 2^32 by uint32n instead, so the draws (and
// every run that uses them) would differ from rand.Rand's there;
// TestStateMatchesRandPCG would catch it.
func (p *State) IntN(n uint64) uint64 {
	var x uint64
	*p, x = p.UintN(n)
	return x
}

// UintN is IntN on a value (Next's way): the state after the draws, and
// the draw. Loops that draw many inline its first step themselves:
//
//	s, u = s.Next()
//	hi, lo := bits.Mul64(u, n)
//	if lo < n { s, hi = s.Reject(n, lo, hi) } // n not a power of two
func (s State) UintN(n uint64) (State, uint64) {
	s, u := s.Next()
	if n&(n-1) == 0 {
		return s, u & (n - 1)
	}
	hi, lo := bits.Mul64(u, n)
	if lo < n {
		s, hi = s.Reject(n, lo, hi)
	}
	return s, hi
}

// Reject is the rest of UintN(n) (n not a power of two) after a first
// draw whose product with n is (hi, lo), lo < n: Lemire's rejection
// loop, the same draws as math/rand/v2's uint64n.
func (s State) Reject(n, lo, hi uint64) (State, uint64) {
	thresh := -n % n
	for lo < thresh {
		var u uint64
		s, u = s.Next()
		hi, lo = bits.Mul64(u, n)
	}
	return s, hi
}
