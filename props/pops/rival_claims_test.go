package pops

import (
	"fmt"
	"strings"
	"testing"

	"routecheck/oracles/popspaper"
	"routecheck/props"
)

// TestRivalWithinPower: pops/rival-8/within-formula's check is violated at
// exactly the cells an independent hand computation predicts, holds against
// a bound the construction meets, and catches its planted fault.
//
// Expected cells, worked by hand from the two formulas: per sub-network our
// completion costs 9 + min(g, d/g) + 1 after the sort against the lump's
// 21 + (3 log g + 7)/(d/g); at d = 16g, g ≥ 16 that is 26 against at most
// 21 + 37/16 < 24, so all 7 cells d = 16g, g = 16 … 1024 are over; at
// d ≤ 4g or g ≤ 8, min(g, d/g) ≤ 8 and 18 ≤ 21 — within.
func TestRivalWithinPower(t *testing.T) {
	env := props.Env{Budget: props.Small, Seed: props.DefaultSeed}
	o := rivalWithin(popspaper.Baseline)(env)
	if o.Verdict != props.Violated {
		t.Fatalf("at §IV's formula: verdict %v, want violated: %s", o.Verdict, o.Evidence)
	}
	if !strings.Contains(o.Evidence, "over the bound at 7 of 33 cells") {
		t.Fatalf("want 7 of 33 cells over: %s", o.Evidence)
	}
	for g := 16; g <= 1024; g *= 2 {
		if want := fmt.Sprintf("POPS(%d,%d)", 16*g, g); !strings.Contains(o.Evidence, want) {
			t.Errorf("%s not reported over: %s", want, o.Evidence)
		}
	}
	// The largest excess is 61 slots at POPS(256,16) (1568 − 1507), under
	// 5 slots per sub-network (80): with that allowance the check must hold.
	loose := func(d, g int) float64 { return popspaper.Baseline(d, g) + 5*float64(d/g) }
	if o := rivalWithin(loose)(env); o.Verdict != props.Holds {
		t.Fatalf("formula + 5d/g: verdict %v, want holds: %s", o.Verdict, o.Evidence)
	}
	// The tightest cell within the formula is POPS(128,8), d/g = 16:
	// 16·(4·9 + 2·3 + 9 + 8) + 16 = 960 against 16·(36 + 6 + 21) + 9 + 7 =
	// 1024, a margin of 4 slots per sub-network; the planted fault
	// (21d/g → 16d/g, bound 944) removes 5, so that cell, and no other that
	// was within, becomes over (the next tightest margin is 7.8).
	o = rivalWithin(rivalBoundTighter)(env)
	if o.Verdict != props.Violated || !strings.Contains(o.Evidence, "at 8 of 33") || !strings.Contains(o.Evidence, "POPS(128,8) (n = 1024): 960 slots > 944") {
		t.Fatalf("planted fault (21d/g → 16d/g): verdict %v, want violated at 8 cells incl. POPS(128,8): %s", o.Verdict, o.Evidence)
	}
}
