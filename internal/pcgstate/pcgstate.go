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
	const (
		mulHi = 2549297995355413924
		mulLo = 4865540595714422341
		incHi = 6364136223846793005
		incLo = 1442695040888963407
	)
	hi, lo := bits.Mul64(p.lo, mulLo)
	hi += p.hi*mulLo + p.lo*mulHi
	lo, c := bits.Add64(lo, incLo, 0)
	hi, _ = bits.Add64(hi, incHi, c)
	p.lo, p.hi = lo, hi
	const cheapMul = 0xda942042e4dd58b5
	hi ^= hi >> 32
	hi *= cheapMul
	hi ^= hi >> 48
	hi *= lo | 1
	return hi
}

// IntN is rand.Rand.IntN(n) for 1 ≤ n < 2^63 on 64-bit platforms only
// (math/rand/v2's uint64n: a mask for a power of two, else Lemire's
// multiply with rejection), the same draws from the same stream. On 32-bit
// platforms uint64n draws n < 2^32 by uint32n instead, so the draws (and
// every run that uses them) would differ from rand.Rand's there;
// TestStateMatchesRandPCG would catch it.
func (p *State) IntN(n uint64) uint64 {
	if n&(n-1) == 0 {
		return p.Uint64() & (n - 1)
	}
	hi, lo := bits.Mul64(p.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(p.Uint64(), n)
		}
	}
	return hi
}
