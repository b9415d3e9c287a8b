package multibutterfly

import (
	"errors"
	"slices"
	"testing"

	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
)

func commDests(net *mb.CommNetwork, seed uint64) []int32 {
	np := net.N * (net.LogN + 1)
	lo := int32(2 * net.LogN * net.N)
	d := make([]int32, np)
	rng := seeds.Rand(seed)
	for i, j := range rng.Perm(np) {
		d[i] = lo + int32(j)
	}
	return d
}

// §4: every packet reaches its destination node on random instances, with
// conservation and routing checked after every step; a hand-checkable
// batch: with n = 8 (k = 3), A = 4, destination ⟨7, 6⟩ is row 1, column 6:
// batch 1·4 + 6 mod 4 = 6.
func TestCommRoutes(t *testing.T) {
	net0, _ := mb.BuildComm(8, 2, seeds.Rand(1))
	if b := CommBatch(net0, 4, int32(7*8+6)); b != 6 {
		t.Fatalf("batch %d, want 6", b)
	}
	for r := range 12 {
		n := 1 << (1 + r%4) // 2…16
		d := 1 + r%3
		net, err := mb.BuildComm(n, d, seeds.Rand(2, uint64(r)))
		if err != nil {
			t.Fatal(err)
		}
		s, err := mb.InitComm(net, commDests(net, uint64(r)))
		if err != nil {
			t.Fatal(err)
		}
		for _, A := range []int{1, 2, 4} {
			res, fin, err := RunComm(s, A, 0, true)
			if err != nil || !res.Complete || !fin.CommDone() || mb.CheckComm(fin) != nil {
				t.Fatalf("n=%d d=%d A=%d: %+v %v", n, d, A, res, err)
			}
			for v, p := range fin.Buf {
				if p != -1 {
					t.Fatalf("node %d still holds %d", v, p)
				}
			}
		}
	}
}

func TestStepCommRejects(t *testing.T) {
	net, _ := mb.BuildComm(4, 1, seeds.Rand(3))
	s, _ := mb.InitComm(net, commDests(net, 3))
	// two edges out of node 0
	var out []int32
	for i, e := range net.Edges {
		if e.From == 0 {
			out = append(out, int32(i))
		}
	}
	if len(out) > 1 {
		if _, err := mb.StepComm(s, out[:2]); err == nil {
			t.Fatal("two active lines at one node accepted")
		}
	}
	if _, err := mb.StepComm(s, []int32{int32(len(net.Edges))}); err == nil {
		t.Fatal("unknown edge accepted")
	}
	bad := s.Clone()
	bad.Buf[1] = bad.Buf[0]
	if mb.CheckComm(bad) == nil {
		t.Fatal("duplicate not caught")
	}
}

// RunCommObserved sees the state after every iteration: the same final
// result as RunComm, one call per iteration in order, and the state it is
// given at iteration t equals RunComm's after t iterations (maxIter = t);
// an observer's error stops the run.
func TestRunCommObserved(t *testing.T) {
	net, err := mb.BuildComm(8, 2, seeds.Rand(0x0b5))
	if err != nil {
		t.Fatal(err)
	}
	k := net.LogN
	dest := make([]int32, 8*(k+1))
	for i, j := range seeds.Rand(0x0b6).Perm(len(dest)) {
		dest[i] = int32(2*k*8 + j)
	}
	s, err := mb.InitComm(net, dest)
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := RunComm(s, 2, 0, true)
	if err != nil || !want.Complete {
		t.Fatalf("RunComm: %+v, %v", want, err)
	}
	var seen []int
	got, _, err := RunCommObserved(s, 2, 0, true, func(it int, st mb.CommState) error {
		seen = append(seen, it)
		_, ref, err := RunComm(s, 2, it, false)
		if err != nil {
			return err
		}
		if !slices.Equal(st.Buf, ref.Buf) || !slices.Equal(st.Delivered, ref.Delivered) {
			t.Errorf("iteration %d: observed state differs from RunComm's after %d iterations", it, it)
		}
		return nil
	})
	if err != nil || got != want || len(seen) != want.Iterations || seen[len(seen)-1] != want.Iterations {
		t.Fatalf("observed run %+v (err %v), %d calls; RunComm %+v", got, err, len(seen), want)
	}
	stop := errors.New("stop")
	if _, _, err := RunCommObserved(s, 2, 0, false, func(int, mb.CommState) error { return stop }); !errors.Is(err, stop) {
		t.Fatalf("observer error not returned: %v", err)
	}
}
