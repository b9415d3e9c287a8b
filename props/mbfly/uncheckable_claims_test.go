package mbfly

import (
	"fmt"
	"testing"

	"routecheck/props"
	"routecheck/props/internal/claimtest"
)

// The "cannot be checked" claims of Theorem 4.3 stay inconclusive with
// their reason, and the obstruction they report is the one derived by hand:
// at (n, d) = (16, 4) layer P − 1 is an expander layer of n·d = 64 edges,
// each a line between the expander and multi-butterfly parts, and layer
// P + log n the n = 16 direct edges into the direct part; stage P + log 2d
// has degree 2d + 3 = 11. The printed d = 21 and 102 are refused by the
// builder, and the network at d rounded up to 32 (n = 64) has
// 3 log n + 4d log 2d + 1 = 18 + 768 + 1 stages.
func TestThm43UncheckableEvidence(t *testing.T) {
	env := props.Env{Budget: props.Small, Seed: props.DefaultSeed}
	claimtest.Says(t, "end to end", thm43EndToEndCheck(env), props.Inconclusive,
		"cannot be checked", "64 lines join the expander part to the multi-butterfly part", "16 the multi-butterfly part to the direct part", "worst 11 at stage 31")
	claimtest.Says(t, "printed d", thm43PrintedDCheck(env), props.Inconclusive,
		"cannot be checked", "BuildThm43(16, 21) refused", "BuildThm43(16, 102) refused", fmt.Sprintf("%d stages", 3*6+4*32*6+1), "6d + 1 = 193, not 127", "6d + 1 = 769, not 613")
}
