package butterfly

import (
	"math/rand/v2"
	"reflect"
	"testing"

	mb "routecheck/models/butterfly"
	"routecheck/models/perm"
)

// The Engine keeps a bitmap word per 64 rows; the rapid differential test
// stays at N ≤ 32 (one word). Here N = 128 and 512 (two and eight words),
// both node models, both disciplines, three pipelined permutations: every
// packet's delivery step, Steps and MaxQueue equal the step model's.
func TestEngineMatchesModelManyWords(t *testing.T) {
	var e Engine
	rng := rand.New(rand.NewPCG(128, 512))
	for _, logN := range []int{7, 9} {
		for _, mode := range []mb.Mode{mb.NodeQueue, mb.Buffered} {
			for _, pr := range []Priority{PaperPriority, FIFO} {
				sh := mb.Shape{LogN: logN, R: 2, Mode: mode, StrictBuffers: mode == mb.Buffered}
				o := Options{Shape: sh, Priority: pr}
				sigma := perm.Random(sh.N(), rng)
				ps, err := Packets(o, [][]int32{sigma, sigma, perm.Random(sh.N(), rng)}, rng)
				if err != nil {
					t.Fatal(err)
				}
				want, err := RunOnModel(o, ps, 100000)
				if err != nil {
					t.Fatal(err)
				}
				got, err := e.Run(o, ps, 100000)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%+v, %v: engine and step model differ (steps %d vs %d, max queue %d vs %d)", sh, pr, got.Steps, want.Steps, got.MaxQueue, want.MaxQueue)
				}
			}
		}
	}
}
