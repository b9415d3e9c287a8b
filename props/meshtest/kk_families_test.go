package meshtest

import (
	"math/rand/v2"
	"testing"
)

// TestKK: every family is a k-k relation (each PU sends and receives
// exactly k packets), the structured ones send packet t of (i, j) where
// their definition says, computed here from the definition, and KK refuses
// what it cannot build.
func TestKK(t *testing.T) {
	for _, nk := range [][2]int{{1, 1}, {2, 2}, {3, 3}, {4, 8}, {4, 6}} {
		n, k := nk[0], nk[1]
		for _, f := range KKFamilies {
			in, err := KK(f, n, k, rand.New(rand.NewPCG(1, 2)))
			if f == "row-to-col" && k%n != 0 {
				if err == nil {
					t.Errorf("row-to-col n=%d k=%d: no error, want one (n ∤ k)", n, k)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s n=%d k=%d: %v", f, n, k, err)
			}
			if len(in.Src) != n*n*k || len(in.Dst) != n*n*k {
				t.Fatalf("%s n=%d k=%d: %d packets, want %d", f, n, k, len(in.Src), n*n*k)
			}
			sent, got := make([]int, n*n), make([]int, n*n)
			for q := range in.Src {
				sent[in.Src[q]]++
				got[in.Dst[q]]++
				p, tt := q/k, q%k
				i, j := p/n, p%n
				if int(in.Src[q]) != p {
					t.Fatalf("%s n=%d k=%d: packet %d from PU %d, want %d", f, n, k, q, in.Src[q], p)
				}
				want := -1
				switch f {
				case "transpose":
					want = j*n + i
				case "reflect":
					want = (n-1-i)*n + (n - 1 - j)
				case "row-to-col":
					want = j*n + tt/(k/n)
				}
				if want >= 0 && int(in.Dst[q]) != want {
					t.Fatalf("%s n=%d k=%d: packet %d of (%d,%d) goes to %d, want %d", f, n, k, tt, i, j, in.Dst[q], want)
				}
			}
			for p := range sent {
				if sent[p] != k || got[p] != k {
					t.Fatalf("%s n=%d k=%d: PU %d sends %d, receives %d, want %d each", f, n, k, p, sent[p], got[p], k)
				}
			}
		}
	}
	for _, bad := range []struct {
		f    string
		n, k int
	}{{"uniform", 0, 1}, {"uniform", 2, 0}, {"spiral", 2, 2}} {
		if _, err := KK(bad.f, bad.n, bad.k, rand.New(rand.NewPCG(1, 2))); err == nil {
			t.Errorf("KK(%q, %d, %d): no error", bad.f, bad.n, bad.k)
		}
	}
}
