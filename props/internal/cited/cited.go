// Package cited is how a claim cites a saved hunted case (the
// props/<net>/hunted_claims.go checks): hunt.CiteInstance, with what the
// claim needs to judge the case split out.
package cited

import (
	"routecheck/internal/hunt"
	"routecheck/props"
)

// Case cites file (raw: its bytes, embedded by the claim) through
// hunt.CiteInstance and returns the case and its instance. When the replay
// ran but did not reproduce the recorded value, nr says so and holds the
// replayed value, which the claim then judges (nr.Value, nr.Note): a case
// that no longer reproduces can still break the claim's bound. Any other
// failure — the case does not parse, cannot be replayed, or its instance
// does not decode — is returned as the claim's outcome, inconclusive with
// the reason: an error is never a pass.
func Case[T any](file string, raw []byte) (c hunt.Case, in T, nr *hunt.NotReproduced, fail *props.Outcome) {
	c, in, err := hunt.CiteInstance[T](file, raw)
	nr, err = hunt.Stale(err)
	if err != nil {
		return c, in, nil, &props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
	}
	return c, in, nr, nil
}
