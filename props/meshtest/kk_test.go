package meshtest_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"

	am "routecheck/algos/mesh"
	"routecheck/oracles/mesh1d"
	"routecheck/props/meshtest"
)

// lineOptimum is, for an instance whose packets each move along one row or
// one column of the mesh (every phase of the k-k algorithms), the largest
// over lines and directions of Lemma 4's corrected form
// (oracles/mesh1d.Lemma4): a lower bound on the steps of any router, which
// farthest-first attains (003_8774480fe7c747cc.txt §2). Lines are
// independent in such a phase: no link carries packets of two lines.
func lineOptimum(in meshtest.Instance) int {
	n := in.N
	type key struct {
		col  bool
		line int
		left bool
	}
	src, dst := map[key][]int32{}, map[key][]int32{}
	for q := range in.Src {
		a, b := int(in.Src[q]), int(in.Dst[q])
		k, x, y := key{line: a / n}, a%n, b%n
		if a%n == b%n {
			k, x, y = key{col: true, line: a % n}, a/n, b/n
		} else if a/n != b/n {
			panic(fmt.Sprintf("packet %d: %d → %d is not along one axis", q, a, b))
		}
		if y < x { // mirrored: leftward becomes rightward
			k.left, x, y = true, n-1-x, n-1-y
		}
		src[k], dst[k] = append(src[k], int32(x)), append(dst[k], int32(y))
	}
	best := 0
	for k := range src {
		best = max(best, mesh1d.Lemma4(n, src[k], dst[k]))
	}
	return best
}

// meshtestLong adds TestKKPhases' largest cell, n = 8 with k = 16 (about
// 60% of the test's time); `make test-long` passes it.
var meshtestLong = flag.Bool("meshtest.long", false, "TestKKPhases: also n = 8, k = 16")

// The k-k algorithms' phase routing through the suite: every phase of
// DET_3_PHASE_ROUTE, RAND_3_PHASE_ROUTE and RAND_4_PHASE_ROUTE (with and
// without coloring) on the suite's k-k families, as instances with the
// phase's start and targets, run by GridFarthestFirst — on the mesh within
// the optimum of every line (Lemma 4), on the torus within the default
// bound. n ∈ {2, 4, 8} × k ∈ {2, 8, 16} but for n = 8, k = 16 (with
// -meshtest.long); n = 8 is still run at k = 2, 8 and k = 16 at n = 2, 4.
func TestKKPhases(t *testing.T) {
	ns, ks := []int{2, 4, 8}, []int{2, 8, 16}
	if testing.Short() {
		ns, ks = []int{2, 4}, []int{2, 8}
	}
	for _, n := range ns {
		for _, k := range ks {
			if n == 8 && k == 16 && !*meshtestLong {
				continue
			}
			fams := meshtest.Families(meshtest.Options{Sizes: []int{n}, Ks: []int{k}})
			for _, fam := range fams {
				if fam.Random || len(fam.Instances) != 1 || fam.Instances[0].H() != k || len(fam.Instances[0].Src) != n*n*k {
					continue // the k-k families only
				}
				in := fam.Instances[0]
				dst := make([][]am.Dest, n*n)
				for q := range in.Src { // packets are listed PU by PU, k each
					d := in.Dst[q]
					dst[in.Src[q]] = append(dst[in.Src[q]], am.Dest{Row: d / int32(n), Col: d % int32(n)})
				}
				for _, alg := range []am.Algorithm{am.Det3, am.Rand3, am.Rand4} {
					for _, col := range []bool{false, true} {
						pl, err := am.NewPlan(alg, n, dst, rand.New(rand.NewPCG(1, uint64(n*k))), am.Options{Coloring: col})
						if err != nil {
							t.Fatalf("%s: %s: %v", fam.Name, alg, err)
						}
						var phases []meshtest.Instance
						pos := pl.Src
						for ph, tg := range pl.Targets {
							name := fmt.Sprintf("%s/%s/coloring=%v/phase-%d", fam.Name, alg, col, ph+1)
							for _, torus := range []bool{false, true} {
								phases = append(phases, meshtest.Instance{Family: name + map[bool]string{false: "/mesh", true: "/torus"}[torus], N: n, Torus: torus, Src: pos, Dst: tg})
							}
							pos = tg
						}
						fs := meshtest.CheckInstances(ff, phases, meshtest.Options{ReplayDir: t.TempDir(), MaxSteps: func(in meshtest.Instance) int {
							if in.Torus {
								return 0
							}
							return max(1, lineOptimum(in))
						}})
						for _, f := range fs {
							t.Error(f)
						}
					}
				}
			}
		}
	}
}
