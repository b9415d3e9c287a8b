package butterfly

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	mb "routecheck/models/butterfly"
	"routecheck/models/perm"
)

// Greedy's Launch draws from the rng exactly what Packets draws, so the
// Router adapter and the packet builder give the same packets (and so the
// suite's runs of Greedy are RunOnModel's, which the engine test compares
// with the fast Engine); and in every state of a run Greedy's Route is
// legal and sends from every queue that holds a packet whose link is free.
func TestGreedyMatchesPackets(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := genOptions(t, 4)
		N := o.Shape.N()
		seed := rapid.Uint64().Draw(t, "seed")
		perms := make([][]int32, rapid.IntRange(1, 4).Draw(t, "t"))
		prng := rand.New(rand.NewPCG(seed, 9))
		for l := range perms {
			perms[l] = perm.Random(N, prng)
		}
		want, err := Packets(o, perms, rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		g, err := NewGreedy(o)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 1))
		got := make([]mb.Packet, len(want))
		for k, p := range want {
			got[k] = mb.Packet{ID: p.ID, Src: p.Src, Dst: p.Dst, Perm: p.Perm}
			got[k].X, got[k].Key = g.Launch(o.Shape, got[k], rng)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Launch gives %v, Packets %v", got, want)
		}
		st, err := mb.New(o.Shape, want)
		if err != nil {
			t.Fatal(err)
		}
		for st.InFlight() > 0 {
			a, err := mb.Actions(st, g, nil)
			if err != nil {
				t.Fatal(err)
			}
			sending := map[int32]bool{}
			for _, x := range a {
				sending[x.Queue] = true
			}
			for i, q := range st.Queues {
				if len(q) > 0 && !sending[int32(i)] && !st.StrictBuffers {
					t.Fatalf("step %d: queue %d holds %d packets and sends none", st.Step, i, len(q))
				}
			}
			if st, _, err = mb.Step(st, a); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func TestNewGreedyRejectsNegativeC(t *testing.T) {
	if _, err := NewGreedy(Options{C: -1}); err == nil {
		t.Error("NewGreedy accepted c = −1")
	}
}
