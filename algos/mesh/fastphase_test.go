package mesh

import (
	"math/rand/v2"
	"testing"
)

// fastPhaseRef is fastPhase as it was before its queue maximum was taken
// over the PUs that received a packet only (2026-11-23): every queue
// scanned after every step, the pending packets recounted every step.
func fastPhaseRef(n int, pos, tg []int32) (steps, phaseQ, endQ int, err error) {
	// lines: rows 0…n−1 then columns; each with a rightward (up) and a
	// mirrored leftward (down) side.
	fw := make([]*side, 2*n)
	bw := make([]*side, 2*n)
	for l := range fw {
		fw[l], bw[l] = newSide(n), newSide(n)
	}
	queue := make([]int, n*n)
	for q := range pos {
		queue[pos[q]]++
		h, line, a, b, err := axisMove(n, pos[q], tg[q])
		if err != nil {
			return 0, 0, 0, err
		}
		if !h {
			line += n
		}
		switch {
		case b > a:
			fw[line].add(a, b)
		case b < a:
			bw[line].add(n-1-a, n-1-b)
		}
	}
	for _, x := range queue {
		phaseQ = max(phaseQ, x)
	}
	pending := func() int {
		k := 0
		for l := range fw {
			k += fw[l].pending + bw[l].pending
		}
		return k
	}
	send := make([]int, n)
	pu := func(line, x int) int {
		if line < n {
			return line*n + x
		}
		return x*n + (line - n)
	}
	for pending() > 0 {
		steps++
		for l := range fw {
			if fw[l].pending > 0 {
				fw[l].step(send)
				for x, d := range send {
					if d >= 0 {
						queue[pu(l, x)]--
						queue[pu(l, x+1)]++
					}
				}
			}
			if bw[l].pending > 0 {
				bw[l].step(send)
				for x, d := range send {
					if d >= 0 { // mirrored position x is real n−1−x
						queue[pu(l, n-1-x)]--
						queue[pu(l, n-2-x)]++
					}
				}
			}
		}
		for _, x := range queue {
			phaseQ = max(phaseQ, x)
		}
	}
	for _, x := range queue {
		endQ = max(endQ, x)
	}
	return steps, phaseQ, endQ, nil
}

// fastPhase agrees with fastPhaseRef on every phase of random plans at the
// sizes the statistical claims run (n up to 32; TestKKFastEqualsModel ties
// both to the step model at n ≤ 5).
func TestFastPhaseEqualsRef(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct{ n, k int }{{4, 8}, {8, 64}, {16, 32}, {16, 256}, {32, 64}} {
		for _, alg := range []Algorithm{Rand3, Rand4, Det3} {
			for _, col := range []bool{false, true} {
				pl, err := NewPlan(alg, c.n, randomKK(r, c.n, c.k), r, Options{Coloring: col})
				if err != nil {
					t.Fatal(err)
				}
				pos := append([]int32(nil), pl.Src...)
				for ph, tg := range pl.Targets {
					s1, q1, e1, err1 := fastPhase(pl.N, pos, tg)
					s2, q2, e2, err2 := fastPhaseRef(pl.N, pos, tg)
					if s1 != s2 || q1 != q2 || e1 != e2 || (err1 == nil) != (err2 == nil) {
						t.Fatalf("n = %d, k = %d, %s, coloring %v, phase %d: (%d, %d, %d, %v), reference (%d, %d, %d, %v)", c.n, c.k, alg, col, ph+1, s1, q1, e1, err1, s2, q2, e2, err2)
					}
					copy(pos, tg)
				}
			}
		}
	}
}

// BenchmarkFastPhase routes one RAND_4 plan with coloring at n = 32, k = 1024
// (the largest default-budget size of mesh/lemma-1) with fastPhaseLines,
// fastPhase and fastPhaseRef.
func BenchmarkFastPhase(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	pl, err := NewPlan(Rand4, 32, randomKK(r, 32, 1024), r, Options{Coloring: true})
	if err != nil {
		b.Fatal(err)
	}
	for _, v := range []struct {
		name string
		f    func(int, []int32, []int32) (int, int, int, error)
	}{{"lines", fastPhaseLines}, {"fast", fastPhase}, {"ref", fastPhaseRef}} {
		b.Run(v.name, func(b *testing.B) {
			for range b.N {
				pos := append([]int32(nil), pl.Src...)
				for _, tg := range pl.Targets {
					if _, _, _, err := v.f(pl.N, pos, tg); err != nil {
						b.Fatal(err)
					}
					copy(pos, tg)
				}
			}
		})
	}
}
