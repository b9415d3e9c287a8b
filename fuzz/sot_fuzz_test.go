package fuzz

import (
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"

	psot "routecheck/props/sot"
)

// Fuzz targets for the sparse optical torus (models/sot, algos/sot), both
// rapid properties driven by the fuzzer's bytes through rapid.MakeFuzz:
//
//   - FuzzSotStep runs psot.SotStepProperty: a state reached by a random
//     algorithm on a small random relation, the router's next actions with
//     up to three arbitrary changes; models/sot.Step must leave its input
//     untouched, be deterministic, accept exactly what the independent
//     psot.SotLegal accepts (errors wrapping ErrAction) and keep
//     CheckInvariants.
//   - FuzzSotRouter runs psot.SotRouterProperty: any of the seven
//     algorithms (the literal readings too) on an arbitrary small relation,
//     with the model's invariants after every step and the delivery checks
//     of psot.SotCheckedRun.
//
//	go test ./fuzz -run='^$' -fuzz='^FuzzSotStep$' -fuzztime=30s

// sotPCGBytes returns n bytes of the PCG(seed, 0x507) stream: rapid reads
// its stream 8 bytes at a time and skips inputs that run out, so seeds must
// be long enough to complete a run.
func sotPCGBytes(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 0x507))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint64())
	}
	return b
}

func FuzzSotStep(f *testing.F) {
	for _, seed := range []uint64{1, 2, 3} {
		f.Add(sotPCGBytes(seed, 4096))
	}
	f.Fuzz(rapid.MakeFuzz(psot.SotStepProperty))
}

func FuzzSotRouter(f *testing.F) {
	for _, seed := range []uint64{1, 2, 3} {
		f.Add(sotPCGBytes(seed, 4096))
	}
	f.Fuzz(rapid.MakeFuzz(psot.SotRouterProperty))
}
