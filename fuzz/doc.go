// Package fuzz holds routecheck's native Go fuzz targets. Its only
// non-test code is the byte decoder the targets share (bytes.go, outside
// the _test.go files because the libFuzzer build compiles a target's own
// file and no other test file): the targets live in _test.go files and their seed corpora
// in testdata/fuzz/<FuzzName>/ (files in the "go test fuzz v1" format,
// replayed by plain `go test ./fuzz`, like every f.Add seed).
//
// Targets:
//
//   - FuzzPopsStep decodes its input bytes (props/pops.PopsModelByteChoices) into
//     a small POPS(d, g) network (1 ≤ d, g ≤ 5), a partial permutation and a
//     sequence of up to 8 action vectors — legal, illegal or "raw" (fields
//     near their allowed range) — and steps models/pops through them,
//     checking that Step never panics, only returns errors wrapping
//     pops.ErrActions, accepts every legal vector and rejects every illegal
//     one, leaves its input untouched, keeps pops.CheckInvariants after
//     every accepted slot, and agrees with the naive reference model
//     oracles/popsnaive on acceptance, next state and events. Legal vectors
//     are unrestricted and biased towards destinations that keep listening
//     with KeepOwn, so runs often accept a packet again at its destination
//     (Events.Duplicated, a second Delivered item); such states must pass
//     CheckInvariants like any other.
//   - FuzzPopsModelDifferential runs the rapid property
//     props/pops.PopsModelDifferential through rapid.MakeFuzz: the fuzzer's bytes
//     become rapid's random stream.
//   - FuzzPopsRouter decodes a POPS(d, g) shape (g ≤ 4, d − g ≤ 8), the
//     algorithm, a seed and a permutation, runs the randomized router on the
//     slot model and checks it (no model violation, invariants after every
//     slot, the fast engine agreeing, at most three buffers, and where the
//     ledger says they hold: no conflict in slots 3–5, no loss, delivery).
//   - FuzzRapidPopsRouter runs the same check on rapid's generators.
//   - FuzzSotStep and FuzzSotRouter (sparse optical torus) run
//     props/sot.SotStepProperty and props/sot.SotRouterProperty through
//     rapid.MakeFuzz: Step's purity, legality (against the independent
//     props/sot.SotLegal) and invariants; every router, the literal readings
//     too, on arbitrary small relations (see sot_fuzz_test.go).
//   - FuzzMeshStep (models/mesh grid), FuzzButterflyStep (models/butterfly,
//     both node models), FuzzMultiButterflyStep (models/multibutterfly),
//     FuzzExpanderSpectral (models/expander) and FuzzSortnetEval01
//     (models/sortnet) decode their bytes themselves (byteChoices in
//     bytes.go: one byte per choice, missing bytes decode as the
//     smallest choice) into a small shape, an instance and, for the step
//     models, a sequence of legal, illegal and raw actions. The step
//     targets check that Step never panics, rejects exactly the illegal
//     actions (against an independent reading of the rules) with the
//     model's error, leaves its input untouched and keeps the model's
//     invariants (conservation; a naive step agrees where one is written).
//     FuzzExpanderSpectral checks that the spectral certificate never
//     claims more than exact enumeration finds on tiny graphs;
//     FuzzSortnetEval01 that the bit-parallel evaluation agrees with Apply.
//
// The targets with a []byte body are the ones ClusterFuzzLite builds
// (.clusterfuzzlite/build.sh; rapid.MakeFuzz targets run under
// `go test -fuzz` only). TestBuildShListsTargets keeps build.sh in step.
//
// Every target has seeds (f.Add and testdata/fuzz/<FuzzName>/), so plain
// `go test ./fuzz` runs each on its seeds.
//
// Run one target at a time for a while with
//
//	go test ./fuzz -run='^$' -fuzz='^FuzzPopsStep$' -fuzztime=30s
//
// New failing inputs are written to testdata/fuzz/<FuzzName>/; keep the
// minimized ones as regression cases.
package fuzz
