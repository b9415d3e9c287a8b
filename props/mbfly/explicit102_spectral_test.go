package mbfly

import (
	"fmt"
	"slices"
	"testing"

	"routecheck/internal/seeds"
	"routecheck/models/expander"
)

// TestE102SpectralOnceMatchesPlain: measuring a concentrator at several
// sizes with one e102SpectralOnce memo (as e102Fill does for ⌊αm⌋ and the
// batch load) gives exactly what e102Expands gives with a fresh
// expander.Spectral each time — ratio, method text and bad set — on both
// concentrators of d = 102 splitters large enough for Tanner's bound
// (m = 256). The same comparison catches a planted misuse: one memo
// shared by the two concentrators of a splitter (the lower one then gets
// the upper one's certificate).
func TestE102SpectralOnceMatchesPlain(t *testing.T) {
	const beta = 6.4
	compare := func(shared bool) string {
		for r, m := range []int{256} {
			sp := expander.NewSplitter(m, 102, seeds.Rand(0xe102, 0x5bec, uint64(r)))
			var memo func(expander.Graph) (expander.Cert, error)
			for side, g := range []expander.Graph{sp.Upper, sp.Lower} {
				if !shared || memo == nil {
					memo = e102SpectralOnce()
				}
				c := e102Conc{m: m, k: m / 25, g: g}
				for _, k := range []int{m / 25, (m + 24) / 25, m / 8} {
					got, gerr := e102ExpandsWith(c, k, beta, memo)
					want, werr := e102Expands(c, k, beta)
					if fmt.Sprint(gerr) != fmt.Sprint(werr) || got.ratio != want.ratio || got.how != want.how || !slices.Equal(got.bad, want.bad) {
						return fmt.Sprintf("m=%d side %d k=%d: memo %+v (%v), plain %+v (%v)", m, side, k, got, gerr, want, werr)
					}
					if want.how == "" || want.how[0] != 'T' {
						return fmt.Sprintf("m=%d side %d: measured %q, not by Tanner's bound: the memo is not exercised", m, side, want.how)
					}
				}
			}
		}
		return ""
	}
	if d := compare(false); d != "" {
		t.Fatal(d)
	}
	if compare(true) == "" {
		t.Error("the comparison does not catch one memo shared by two concentrators")
	}
}
