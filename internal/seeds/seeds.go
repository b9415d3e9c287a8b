// Package seeds derives independent random streams from one printed seed,
// so that a run's randomness depends only on (seed, what it is), never on
// worker count, sharding or order.
package seeds

import "math/rand/v2"

// mix is splitmix64's finalizer.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Derive hashes a master seed and a path of integers into a new seed.
func Derive(seed uint64, path ...uint64) uint64 {
	h := mix(seed)
	for _, p := range path {
		h = mix(mix(h) + p)
	}
	return h
}

// Rand returns a PCG generator for Derive(seed, path...).
func Rand(seed uint64, path ...uint64) *rand.Rand {
	s := Derive(seed, path...)
	return rand.New(rand.NewPCG(s, mix(s)))
}

// PCG returns the generator behind Rand(seed, path...): rand.New(PCG(seed,
// path...)) draws exactly Rand's stream. Hot loops call its Uint64 directly
// (it inlines) instead of through rand.Rand's interface.
func PCG(seed uint64, path ...uint64) *rand.PCG {
	s := Derive(seed, path...)
	return rand.NewPCG(s, mix(s))
}
