package mesh

import (
	"testing"

	"routecheck/models/mesh"
	"routecheck/oracles/mesh1d"

	"pgregory.net/rapid"
)

func genDist(t *rapid.T, maxN, maxP int) (int, []int32, []int32) {
	n := rapid.IntRange(1, maxN).Draw(t, "n")
	p := rapid.IntRange(0, maxP).Draw(t, "packets")
	src := make([]int32, p)
	dst := make([]int32, p)
	for k := range p {
		src[k] = int32(rapid.IntRange(0, n-1).Draw(t, "src"))
		dst[k] = int32(rapid.IntRange(0, n-1).Draw(t, "dst"))
	}
	return n, src, dst
}

// The model run, the fast engine and the naive reference agree on every
// measure, and the rightward time is the corrected Lemma 4 (leftward: the
// mirrored formula).
func TestLinearAgreesWithOracles(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n, src, dst := genDist(t, 12, 40)
		s, err := mesh.NewLinear(n, src, dst)
		if err != nil {
			t.Fatal(err)
		}
		m, err := RunLinear(s, 10*n+len(src)+10)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Fast1D(n, src, dst)
		if err != nil {
			t.Fatal(err)
		}
		nv := mesh1d.Naive(n, src, dst)
		if m != f {
			t.Fatalf("model %+v, fast %+v", m, f)
		}
		if m.StepsRight != nv.StepsRight || m.StepsLeft != nv.StepsLeft || m.MaxQueue != nv.MaxQueue {
			t.Fatalf("model %+v, naive %+v", m, nv)
		}
		if m.Steps != max(m.StepsRight, m.StepsLeft) {
			t.Fatalf("steps %d, directions %d/%d", m.Steps, m.StepsRight, m.StepsLeft)
		}
		if want := mesh1d.Lemma4(n, src, dst); m.StepsRight != want {
			t.Fatalf("T_r = %d, Lemma 4 (corrected) %d", m.StepsRight, want)
		}
		ms, md := make([]int32, len(src)), make([]int32, len(dst))
		for k := range src {
			ms[k], md[k] = int32(n-1)-src[k], int32(n-1)-dst[k]
		}
		if want := mesh1d.Lemma4(n, ms, md); m.StepsLeft != want {
			t.Fatalf("T_l = %d, mirrored Lemma 4 %d", m.StepsLeft, want)
		}
	})
}

// The model rejects what the hardware cannot do.
func TestStepLinearRejects(t *testing.T) {
	s, _ := mesh.NewLinear(3, []int32{0, 1}, []int32{2, 0})
	for _, a := range [][]mesh.Send{
		{mesh.Idle, mesh.Idle},                       // too few
		{{Right: 1, Left: -1}, mesh.Idle, mesh.Idle}, // index out of range
		{mesh.Idle, {Right: 0, Left: 0}, mesh.Idle},  // both ways
		{{Right: -1, Left: 0}, mesh.Idle, mesh.Idle}, // PU 0 sends left
		{mesh.Idle, mesh.Idle, {Right: 0, Left: -1}}, // empty queue at PU 2
	} {
		if _, _, err := mesh.StepLinear(s, a); err == nil {
			t.Errorf("%v accepted", a)
		}
	}
}

// BenchmarkFast1D measures packet-moves per second on a row of n = 32 PUs
// with k = n²·log n = 5120 packets per PU and uniform destinations (the
// issue's target: ≥ 2·10^7 moves/s per core). Run:
//
//	go test ./algos/mesh -run='^$' -bench=Fast1D
func BenchmarkFast1D(b *testing.B) {
	const n, k = 32, 32 * 32 * 5
	src := make([]int32, 0, n*k)
	dst := make([]int32, 0, n*k)
	x := uint64(1)
	for i := range n {
		for range k {
			x = x*6364136223846793005 + 1442695040888963407
			src = append(src, int32(i))
			dst = append(dst, int32(x>>33)%n)
		}
	}
	moves := 0
	for b.Loop() {
		r, err := Fast1D(n, src, dst)
		if err != nil {
			b.Fatal(err)
		}
		moves += r.Moves
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
}
