package pops

import (
	"testing"

	"routecheck/props"
	"routecheck/props/internal/claimtest"
)

// Sibling claims that judge the same runs of the router as written compute
// them once: with the memo entry dropped, the checks of
// pops/rival-8/delivery and pops/rival-8/no-conflict route the extra random
// runs once between them, and their planted faults (mutant routers, never
// kept) not at all; each reaches its recorded verdict.
func TestSiblingsShareRuns(t *testing.T) {
	env := props.Env{Budget: props.Small, Seed: props.DefaultSeed}
	claimtest.SiblingsShareRuns(t, []string{"pops/rival-8/delivery", "pops/rival-8/no-conflict"}, env,
		&rivalExtras.computed, func() { forgetOnce(&rivalExtras, envKeyOf(env)) }, 1, 0)
}
