package fuzz

import (
	"testing"

	"pgregory.net/rapid"

	ppops "routecheck/props/pops"
)

// popsStepSeeds are f.Add seeds for FuzzPopsStep, decoded as described at
// runPopsStep. More, found to exercise conflicts, deliveries, duplicates,
// losses and rejections, are in testdata/fuzz/FuzzPopsStep/.
var popsStepSeeds = [][]byte{
	{},                                   // POPS(1,1), identity, one idle slot
	{1, 1, 0, 0, 0, 0, 0, 0, 0, 7},       // POPS(2,2), identity, every packet present, 8 idle slots
	[]byte("routecheck POPS slot model"), // a partial permutation on POPS(5,2)
}

// FuzzPopsStep steps models/pops through byte-decoded runs and checks each
// slot with ppops.PopsModelCheckStep (no panic, errors wrap ErrActions,
// legal accepted and illegal rejected, input untouched, pops.CheckInvariants
// after every accepted slot — including slots where a destination accepts
// its packet again — and agreement with oracles/popsnaive).
func FuzzPopsStep(f *testing.F) {
	for _, seed := range popsStepSeeds {
		f.Add(seed)
	}
	f.Fuzz(runPopsStep)
}

// runPopsStep decodes data with ppops.PopsModelByteChoices as: d and g
// (1–5 each), a partial permutation of the n = d·g sources (Fisher–Yates
// swaps, then one byte per source, absent when ≡ 3 mod 4), the number of
// slots (1–8), then per slot the vector kind (byte mod 6: 0–3 legal,
// 4 illegal, 5 raw) and its actions. Missing bytes decode as the simplest
// choice, so every input is a valid run.
func runPopsStep(t *testing.T, data []byte) {
	c := ppops.PopsModelByteChoices(data)
	s := ppops.PopsModelInitialStateWith(c)
	slots := c.IntRange(1, 8, "slots")
	for k := 0; k < slots; k++ {
		a, kind := ppops.PopsModelActionsWith(c, s)
		out, problem := ppops.PopsModelCheckStep(s, a, kind, true)
		if problem != "" {
			t.Fatalf("slot %d: %s\n  state:   %s\n  actions (%s): %s", k, problem,
				ppops.PopsModelFormatState(s), kind, ppops.PopsModelFormatActions(a))
		}
		if out.Err == nil {
			s = out.State
		}
	}
}

// FuzzPopsModelDifferential runs ppops.PopsModelDifferential on rapid's
// random stream decoded from the fuzzer's bytes.
func FuzzPopsModelDifferential(f *testing.F) {
	// rapid reads its stream 8 bytes at a time and skips an input that runs
	// out, so seeds must be long: these two PCG streams complete a run.
	for _, seed := range []uint64{3, 5} {
		f.Add(pcgBytes(seed, 2048))
	}
	f.Fuzz(rapid.MakeFuzz(ppops.PopsModelDifferential))
}
