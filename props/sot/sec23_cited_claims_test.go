package sot

import (
	"fmt"
	"math"
	"testing"

	"routecheck/props"
	"routecheck/props/internal/claimtest"
)

// The cited-figure claims stay inconclusive with their reason, and the
// numbers their evidence gives agree with a floating-point recomputation:
// 0.2 dB/km × 50 km = 10 dB; 50 km at v_c/n in slots of 512 bit / 10 Gbit/s;
// 10 and 15 ps against a 100 ps bit.
func TestSotCitedFiguresEvidence(t *testing.T) {
	env := props.Env{Budget: props.Small, Seed: props.DefaultSeed}
	want := []string{"cannot be checked", "10.0 dB"}
	for _, n := range []float64{1.44, 1.50} {
		want = append(want, fmt.Sprintf("%.0f slots", 50e3*n/299792458/(512/10e9)))
	}
	claimtest.Says(t, "fibre loss", sotFibreLossCheck(env), props.Inconclusive, want...)
	claimtest.Says(t, "switching", sotSwitchingCheck(env), props.Inconclusive,
		"cannot be checked", "a bit lasts 100 ps", fmt.Sprintf("%.3g of a slot", 15/(math.Pow(10, 12)/10e9*512)), "0.15 bit times")
}
