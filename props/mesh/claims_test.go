package mesh

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// Every family of GenLinearMixed has the shape its name promises (mirrored
// families: the same shape reflected), within the PU and packet limits.
func TestGenLinearMixedShapes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f, in := GenLinearMixed(t, 20, 60)
		n, P := in.N, len(in.Src)
		if n < 1 || n > 20 || P > 60 || len(in.Dst) != P {
			t.Fatalf("%s: n = %d, %d sources, %d destinations", f, n, P, len(in.Dst))
		}
		for q := range P {
			if in.Src[q] < 0 || int(in.Src[q]) >= n || in.Dst[q] < 0 || int(in.Dst[q]) >= n {
				t.Fatalf("%s: packet %d goes %d → %d on %d PUs", f, q, in.Src[q], in.Dst[q], n)
			}
		}
		if P == 0 {
			return
		}
		same := func(xs []int32) bool { return slices.Min(xs) == slices.Max(xs) }
		end := func(x int32) bool { return x == 0 || int(x) == n-1 }
		sent, recv := make([]int, n), make([]int, n)
		for q := range P {
			sent[in.Src[q]]++
			recv[in.Dst[q]]++
		}
		ok := true
		switch f {
		case LinOneSource:
			ok = same(in.Src)
		case LinFarEnd:
			ok = same(in.Dst) && end(in.Dst[0])
		case LinEndToEnd:
			ok = same(in.Src) && same(in.Dst) && end(in.Src[0]) && end(in.Dst[0]) && (n == 1 || in.Src[0] != in.Dst[0])
		case LinDensePrefix: // one gap every packet crosses (or, mirrored, crosses back)
			ok = slices.Max(in.Src) <= slices.Min(in.Dst) || slices.Min(in.Src) >= slices.Max(in.Dst)
		case LinReverse:
			for q := range P {
				ok = ok && int(in.Src[q]+in.Dst[q]) == n-1
			}
		case LinKK:
			ok = sameInts(sent) && sameInts(recv)
		case LinStaircase:
			ok = same(in.Dst)
			for i := range n { // PU i sends i+1, or mirrored n−i (the last may be cut at the packet limit)
				if sent[i] != i+1 && sent[i] != n-i && P < 60 {
					ok = false
				}
			}
		}
		if !ok {
			t.Fatalf("%s: not of its shape: %+v", f, in)
		}
	})
}

func sameInts(xs []int) bool { return slices.Min(xs) == slices.Max(xs) }
