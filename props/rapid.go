package props

import (
	"pgregory.net/rapid"

	"routecheck/internal/falsify"
)

// FalsifyError is what Falsify panics with when rapid failed for a reason
// other than the property returning a counterexample (see falsify.Error);
// Run reports it as Inconclusive.
type FalsifyError = falsify.Error

// Falsify runs prop under rapid with the given number of cases and a seed
// derived from env (falsify.Falsify): it returns the shrunk counterexample,
// or nil when every case passed, and panics with *FalsifyError when rapid
// failed without a counterexample (a panic in prop, generators that cannot
// draw, a failure that does not reproduce).
func Falsify(env Env, checks int, prop func(t *rapid.T) any) (cex any, report string) {
	return falsify.Falsify(env.Seed, checks, prop)
}
