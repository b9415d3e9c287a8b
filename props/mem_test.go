package props_test

import (
	"testing"

	"routecheck/props"
)

// MemFor takes the claim's own entry for the budget, else the declared
// one, else DefaultMem; and every declared estimate names a registered
// claim (a misspelt ID would silently leave a heavy claim at the default).
func TestMemEstimates(t *testing.T) {
	const id = "test/mem-estimates/declared"
	props.DeclareMem(id, props.MemEstimate{Default: 300 * props.MiB})
	c := props.Claim{ID: id, Mem: props.MemEstimate{Large: 2048 * props.MiB}}
	for _, tc := range []struct {
		b    props.Budget
		want int64
	}{{props.Small, props.DefaultMem}, {props.Default, 300 * props.MiB}, {props.Large, 2048 * props.MiB}} {
		if got := c.MemFor(tc.b); got != tc.want {
			t.Errorf("budget %s: MemFor = %d, want %d", tc.b, got, tc.want)
		}
	}
	all, err := props.Claims("")
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{id: true}
	for _, c := range all {
		known[c.ID] = true
	}
	for _, d := range props.DeclaredMem() {
		if !known[d] {
			t.Errorf("memory estimate declared for %q, which is no registered claim", d)
		}
	}
}
