package fuzz

import (
	"encoding/binary"
	"slices"
	"testing"

	ap "routecheck/algos/pops"
	"routecheck/internal/seeds"
	"routecheck/models/perm"
	ppops "routecheck/props/pops"

	"pgregory.net/rapid"
)

// decodeRouter turns fuzz bytes into a router instance: byte 0 picks g in
// [1,4], byte 1 picks d − g in [0,8], byte 2 the algorithm, bytes 3–10 the
// seed, and the rest drive a Fisher–Yates shuffle of the destinations
// (missing bytes read as 0, i.e. the identity prefix).
func decodeRouter(b []byte) ppops.PopsInstance {
	at := func(i int) byte {
		if i < len(b) {
			return b[i]
		}
		return 0
	}
	g := 1 + int(at(0))%4
	d := g + int(at(1))%9
	alg := ap.Faithful
	if at(2)%2 == 1 {
		alg = ap.SplitDelivery
	}
	var sb [8]byte
	for i := range sb {
		sb[i] = at(3 + i)
	}
	p := perm.Identity(d * g)
	for i := len(p) - 1; i > 0; i-- {
		j := int(at(11+i)) % (i + 1)
		p[i], p[j] = p[j], p[i]
	}
	return ppops.PopsInstance{D: d, G: g, Perm: p, Algorithm: alg.String(), Seed: binary.LittleEndian.Uint64(sb[:])}
}

// failer is what checkRouter needs from *testing.T or *rapid.T, so that
// the rapid-driven fuzz target fails (and shrinks) through rapid.
type failer interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// checkRouter is what must hold on every instance: no model violation, the
// model's invariants after every slot, the fast engine agreeing with the
// model, and — where the ledger says the claims hold — conflict-free slots
// 3–5, no loss or duplicate, and at most three buffers per processor.
func checkRouter(t failer, in ppops.PopsInstance) {
	t.Helper()
	r := ppops.RunPops(in)
	if r.ModelErr != nil {
		t.Fatalf("%+v: model violation: %v", in, r.ModelErr)
	}
	if r.InvariantAt != "" {
		t.Fatalf("%+v: %s", in, r.InvariantAt)
	}
	var e ap.Engine
	f, err := e.Run(in.Shape(), in.Perm, seeds.Rand(in.Seed), ap.Options{Variant: in.Variant()})
	if err != nil {
		t.Fatal(err)
	}
	if f.Steps != r.Result.Steps || f.Lost != r.Result.Lost || f.Delivered != r.Result.Delivered || !slices.Equal(f.Remaining, r.Result.Remaining) {
		t.Fatalf("%+v: engine (steps %d lost %d delivered %d) disagrees with the model (steps %d lost %d delivered %d)",
			in, f.Steps, f.Lost, f.Delivered, r.Result.Steps, r.Result.Lost, r.Result.Delivered)
	}
	if r.Result.MaxMem[0] > 3 {
		t.Fatalf("%+v: %d buffers needed", in, r.Result.MaxMem[0])
	}
	if in.D == in.G || in.Variant() == ap.SplitDelivery {
		if c := r.Conflicts345(); c > 0 {
			t.Fatalf("%+v: %d conflicts in slots 3–5", in, c)
		}
		if r.Result.Lost > 0 || r.Result.Duplicated > 0 {
			t.Fatalf("%+v: %d lost, %d duplicated", in, r.Result.Lost, r.Result.Duplicated)
		}
	}
	if in.D == in.G && (!r.Result.Completed || r.Result.Delivered != r.Packets) {
		t.Fatalf("%+v: not every packet delivered", in)
	}
}

// FuzzPopsRouter fuzzes the randomized router with decoded permutations and
// seeds (see decodeRouter and checkRouter). More seeds are in
// testdata/fuzz/FuzzPopsRouter/: the saved POPS(6,3) packet-loss case
// (testdata/hunt/pops-loss-d6-g3.json) on both variants, a g = 1 livelock,
// a shuffled POPS(3,2) and a random POPS(12,4) with split delivery.
func FuzzPopsRouter(f *testing.F) {
	f.Add([]byte{1, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8})       // POPS(2,2)
	f.Add([]byte{1, 1, 0, 9, 9, 9, 9, 9, 9, 9, 9, 1, 2}) // POPS(3,2), faithful
	f.Add([]byte{1, 1, 1, 9, 9, 9, 9, 9, 9, 9, 9, 1, 2}) // POPS(3,2), split delivery
	f.Add([]byte{3, 8, 1, 0, 0, 0, 0, 0, 0, 0, 1, 200})  // POPS(12,4)
	f.Fuzz(func(t *testing.T, b []byte) { checkRouter(t, decodeRouter(b)) })
}

// FuzzRapidPopsRouter drives the same check from rapid's generators (which
// shrink), through rapid.MakeFuzz. Seeds: two PCG streams here, four more in
// testdata/fuzz/FuzzRapidPopsRouter/ (rapid needs long inputs, see
// FuzzPopsModelDifferential).
func FuzzRapidPopsRouter(f *testing.F) {
	for _, seed := range []uint64{3, 5} {
		f.Add(pcgBytes(seed, 2048))
	}
	f.Fuzz(rapid.MakeFuzz(func(rt *rapid.T) {
		alg := rapid.SampledFrom([]ap.Variant{ap.Faithful, ap.SplitDelivery}).Draw(rt, "alg")
		in := ppops.GenPopsInstance(rt, alg, 4, 0, 8)
		checkRouter(rt, in)
	}))
}
