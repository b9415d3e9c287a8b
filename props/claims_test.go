package props

import (
	"flag"
	"testing"
)

var claimFilter = flag.String("claims.filter", "", "regular expression selecting the claims TestClaims checks")

// TestClaims is the ledger as a regression test: every registered claim is
// checked at the small budget (in -short mode claims slower than a few
// seconds are skipped) and must reach the verdict recorded for it — a claim
// recorded as violated must still be found violated.
func TestClaims(t *testing.T) {
	claims, err := Claims(*claimFilter)
	if err != nil {
		t.Fatal(err)
	}
	if len(claims) == 0 {
		t.Fatal("no claims registered")
	}
	for _, c := range claims {
		t.Run(c.ID, func(t *testing.T) {
			if testing.Short() && slowInShort(c.ID) {
				t.Skip("slow claim: skipped in -short mode")
			}
			r := Run(c, Env{Budget: Small, Seed: DefaultSeed})
			if !r.Matches {
				t.Errorf("verdict %s, recorded %s\nevidence: %s\ncounterexample: %v\nreplay: %s", r.Verdict, r.Recorded, r.Evidence, r.Counterexample, r.Replay)
				return
			}
			// A violated claim stays a regression test of the whole finding:
			// the counterexample (shrunk where the check shrinks) and the
			// line that replays it.
			if r.Verdict == Violated && r.Counterexample == nil {
				t.Errorf("violated without a counterexample (evidence: %s)", r.Evidence)
			}
			if r.Replay == "" {
				t.Error("no replay command")
			}
			t.Logf("%s (%.2fs): %s", r.Verdict, r.Seconds, r.Evidence)
		})
	}
}
