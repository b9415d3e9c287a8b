package fuzz

import (
	"math/rand/v2"
	"reflect"
	"testing"

	ab "routecheck/algos/butterfly"
	"routecheck/models/butterfly"
)

// butterflyEngineSeeds are f.Add seeds for FuzzButterflyEngine, decoded as
// described at runButterflyEngine. More are in
// testdata/fuzz/FuzzButterflyEngine/.
var butterflyEngineSeeds = [][]byte{
	{},                            // N = 2, r = 0, node queues, FIFO, one permutation
	{3, 2, 1, 1, 0, 7, 3, 9, 1},   // N = 16, r = 2, buffered, strict, paper priority
	{2, 0, 0, 0, 1, 3, 2, 250, 4}, // N = 8, r = 0, node queues, paper priority, 3 permutations
	[]byte("routecheck butterfly fast engine against the step model"),
}

func FuzzButterflyEngine(f *testing.F) {
	for _, seed := range butterflyEngineSeeds {
		f.Add(seed)
	}
	f.Fuzz(runButterflyEngine)
}

// runButterflyEngine decodes data as: log N (1–4), r (0–log N), the mode,
// StrictBuffers, the priority (FIFO or the paper's), c (0–8), the number
// of pipelined permutations (1–4), each a byte-driven permutation (or a
// repeat of the previous one), and the seed of X and R; then the fast
// Engine must give every packet the delivery step the step model
// (RunOnModel, which checks the model's invariants after every step) gives
// it, and the same longest queue.
func runButterflyEngine(t *testing.T, data []byte) {
	c := &byteChoices{b: data}
	logN := c.intn(1, 4)
	sh := butterfly.Shape{LogN: logN, R: c.intn(0, logN)}
	if c.bool() {
		sh.Mode = butterfly.Buffered
		sh.StrictBuffers = c.bool()
	}
	o := ab.Options{Shape: sh, Priority: ab.FIFO, C: float64(c.intn(0, 8))}
	if c.bool() {
		o.Priority = ab.PaperPriority
	}
	perms := make([][]int32, c.intn(1, 4))
	for l := range perms {
		if l > 0 && c.bool() {
			perms[l] = perms[l-1]
		} else {
			perms[l] = c.perm(sh.N())
		}
	}
	ps, err := ab.Packets(o, perms, rand.New(rand.NewPCG(c.seed(), 5)))
	if err != nil {
		t.Fatalf("Packets(%+v): %v", o, err)
	}
	const maxSteps = 20000
	want, err := ab.RunOnModel(o, ps, maxSteps)
	if err != nil {
		t.Fatalf("step model, %+v: %v", o, err)
	}
	var e ab.Engine
	got, err := e.Run(o, ps, maxSteps)
	if err != nil {
		t.Fatalf("engine, %+v: %v", o, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%+v, %d packets: engine %+v, step model %+v", o, len(ps), got, want)
	}
}
