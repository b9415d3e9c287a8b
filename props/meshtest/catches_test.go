package meshtest_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	am "routecheck/algos/mesh"
	"routecheck/models/mesh"
	"routecheck/props/internal/suite"
	"routecheck/props/meshtest"
)

// wrap runs farthest-first and lets f change its moves.
func wrap(f func(v mesh.View, m mesh.Moves) mesh.Moves) meshtest.NewRouter {
	return func() mesh.Router {
		return mesh.RouterFunc(func(v mesh.View, rng *rand.Rand) mesh.Moves {
			return f(v, am.GridFarthestFirst.Route(v, rng))
		})
	}
}

// The suite catches each kind of fault it claims to, with the property
// named, on its first failing family; the rapid family alone (Sizes with
// only a random family is not possible, so the shrinking is checked on the
// instance it reports).
func TestSuiteCatches(t *testing.T) {
	cases := []struct {
		name string
		r    meshtest.NewRouter
		o    meshtest.Options
		want string
	}{
		{"sends over a missing link", wrap(func(v mesh.View, m mesh.Moves) mesh.Moves {
			if v.PU%v.N == v.N-1 && len(v.Queue) > 0 {
				m[mesh.Right] = 0
			}
			return m
		}), meshtest.Options{Sizes: []int{3}}, meshtest.Model},
		{"sends one packet twice (a copy)", wrap(func(v mesh.View, m mesh.Moves) mesh.Moves {
			if m[mesh.Right] >= 0 && v.PU/v.N+1 < v.N {
				m[mesh.Up] = m[mesh.Right]
			}
			return m
		}), meshtest.Options{Sizes: []int{3}}, meshtest.Model},
		{"index outside the queue", wrap(func(v mesh.View, m mesh.Moves) mesh.Moves {
			if m[mesh.Right] >= 0 {
				m[mesh.Right] = int32(len(v.Queue))
			}
			return m
		}), meshtest.Options{Sizes: []int{3}}, meshtest.Model},
		{"rewrites a header it was shown", wrap(func(v mesh.View, m mesh.Moves) mesh.Moves {
			if len(v.Queue) > 0 {
				v.Queue[0].Target = int32(v.PU)
			}
			return m
		}), meshtest.Options{Sizes: []int{2}}, meshtest.Model},
		{"never moves packets down", wrap(func(v mesh.View, m mesh.Moves) mesh.Moves {
			m[mesh.Down] = -1
			return m
		}), meshtest.Options{Sizes: []int{3}}, meshtest.Termination},
		{"slower than declared", func() mesh.Router { return am.GridFarthestFirst },
			meshtest.Options{Sizes: []int{4}, MaxSteps: func(in meshtest.Instance) int { return max(1, 2*in.N-3) }}, meshtest.Termination},
		{"over the declared queue", func() mesh.Router { return am.GridFarthestFirst },
			meshtest.Options{Sizes: []int{4}, Ks: []int{2}, MaxQueue: func(in meshtest.Instance) int { return 2 }}, meshtest.Queue},
		{"panics", wrap(func(v mesh.View, m mesh.Moves) mesh.Moves {
			if len(v.Queue) > 1 {
				panic("boom")
			}
			return m
		}), meshtest.Options{Sizes: []int{2}}, meshtest.Crash},
		{"reads a neighbour's queue through its own memory", func() mesh.Router { return &peek{load: map[int]int{}} },
			meshtest.Options{Sizes: []int{3}}, meshtest.Locality},
	}
	for _, c := range cases {
		c.o.ReplayDir = t.TempDir()
		fs := meshtest.Check(c.r, c.o)
		if len(fs) == 0 || fs[0].Property != c.want {
			t.Errorf("%s: failures %v, want the first to be %s", c.name, fs, c.want)
			continue
		}
		// Every failure can be replayed from its file.
		f := fs[0]
		path := suite.ReplayPath(f.Replay)
		again, err := meshtest.CheckFile(c.r, path, c.o)
		if err != nil || len(again) != 1 || again[0].Property != f.Property || again[0].Step != f.Step {
			t.Errorf("%s: replay of %s gave %v, %v; want %v", c.name, f.Replay, again, err, f)
		}
	}
}

// TestLocalityDeclared: a router that declares shared knowledge is not
// failed for it (Run's locality subtests log the declaration), and every
// other property is still checked.
func TestLocalityDeclared(t *testing.T) {
	o := meshtest.Options{Sizes: []int{3}, ReplayDir: "-", SharedKnowledge: "the toy peeks at its right neighbour's queue"}
	if fs := meshtest.Check(func() mesh.Router { return &peek{load: map[int]int{}} }, o); len(fs) != 0 {
		t.Errorf("declared shared knowledge: %v, want no failure", fs)
	}
	o.MaxQueue = func(meshtest.Instance) int { return 1 }
	if fs := meshtest.Check(func() mesh.Router { return &peek{load: map[int]int{}} }, o); len(fs) == 0 || fs[0].Property != meshtest.Queue {
		t.Errorf("declared shared knowledge, queue bound 1: %v, want a queue failure", fs)
	}
}

// A fault only the random family finds is reported shrunk: a router that
// never moves a packet whose target is PU 1 (but the first) fails, and rapid shrinks the
// instance to one packet.
func TestSuiteShrinks(t *testing.T) {
	r := wrap(func(v mesh.View, m mesh.Moves) mesh.Moves {
		for d, k := range m {
			if k >= 0 && v.Queue[k].Target == 1 && v.Queue[k].ID > 0 {
				m[d] = -1
			}
		}
		return m
	})
	fs := meshtest.Check(r, meshtest.Options{Sizes: []int{3}, Ks: []int{}, Checks: 500, ReplayDir: t.TempDir()})
	var got *meshtest.Failure
	for i := range fs {
		if strings.HasSuffix(fs[i].Instance.Family, "random") {
			got = &fs[i]
		}
	}
	if got == nil {
		t.Fatalf("the random family found nothing: %v", fs)
	}
	t.Logf("%v", got)
	if got.Property != meshtest.Termination || len(got.Instance.Src) != 2 || !strings.Contains(got.Message, "shrunk") {
		t.Errorf("random: %v, want a termination failure shrunk to 2 packets", got)
	}
}
