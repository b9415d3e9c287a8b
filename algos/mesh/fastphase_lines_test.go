package mesh

import (
	"math/rand/v2"
	"testing"
)

// fastPhaseLines agrees with fastPhase (which TestFastPhaseEqualsRef ties
// to the first engine and TestKKFastEqualsModel to the step model) on every
// phase of random plans of every algorithm, with and without coloring, at
// the statistical claims' sizes; so does one engine reused for all phases of
// a plan (as RouteKK does).
func TestLineEngineEqualsFastPhase(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, c := range []struct{ n, k int }{{1, 2}, {2, 4}, {4, 8}, {8, 64}, {16, 32}, {16, 256}, {32, 64}} {
		for _, alg := range []Algorithm{Rand3, Rand4, Det3} {
			for _, col := range []bool{false, true} {
				pl, err := NewPlan(alg, c.n, randomKK(r, c.n, c.k), r, Options{Coloring: col})
				if err != nil {
					t.Fatal(err)
				}
				pos := append([]int32(nil), pl.Src...)
				shared := newLineEngine(pl.N)
				for ph, tg := range pl.Targets {
					s1, q1, e1, err1 := fastPhaseLines(pl.N, pos, tg)
					s2, q2, e2, err2 := fastPhase(pl.N, pos, tg)
					if s1 != s2 || q1 != q2 || e1 != e2 || (err1 == nil) != (err2 == nil) {
						t.Fatalf("n = %d, k = %d, %s, coloring %v, phase %d: (%d, %d, %d, %v), fastPhase (%d, %d, %d, %v)", c.n, c.k, alg, col, ph+1, s1, q1, e1, err1, s2, q2, e2, err2)
					}
					if s3, q3, e3, err3 := shared.phase(pos, tg); s3 != s2 || q3 != q2 || e3 != e2 || (err3 == nil) != (err2 == nil) {
						t.Fatalf("n = %d, k = %d, %s, coloring %v, phase %d on a reused engine: (%d, %d, %d, %v), fastPhase (%d, %d, %d, %v)", c.n, c.k, alg, col, ph+1, s3, q3, e3, err3, s2, q2, e2, err2)
					}
					copy(pos, tg)
				}
			}
		}
	}
}

// At sizes above 64 the bit sets span several words: random phases (every
// packet moves along its row or its column, or stays) on meshes of 63 to
// 130 PUs a side agree with fastPhase, and so does a move off its axis
// (an error from both, after which the engine is reused and still agrees).
func TestLineEngineWideLines(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{63, 65, 130} {
		e := newLineEngine(n)
		for _, perPU := range []int{1, 3} {
			var pos, tg []int32
			for p := range n * n {
				for range perPU {
					row, col := p/n, p%n
					switch r.IntN(3) {
					case 0:
						col = r.IntN(n)
					case 1:
						row = r.IntN(n)
					}
					pos, tg = append(pos, int32(p)), append(tg, int32(row*n+col))
				}
			}
			bad := []int32{int32(n + 1)} // packet 0 to (1,1): off its axis
			if _, _, _, err := e.phase(pos[:1], bad); err == nil {
				t.Fatalf("n = %d: a diagonal move was accepted", n)
			}
			s1, q1, e1, err1 := e.phase(pos, tg)
			s2, q2, e2, err2 := fastPhase(n, pos, tg)
			if err1 != nil || err2 != nil || s1 != s2 || q1 != q2 || e1 != e2 {
				t.Fatalf("n = %d, %d per PU: (%d, %d, %d, %v), fastPhase (%d, %d, %d, %v)", n, perPU, s1, q1, e1, err1, s2, q2, e2, err2)
			}
			if s1 < n/2 {
				t.Fatalf("n = %d: %d steps, too few for random moves along lines of %d", n, s1, n)
			}
		}
	}
}
