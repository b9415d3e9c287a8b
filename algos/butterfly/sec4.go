package butterfly

import (
	"math/rand/v2"

	"routecheck/models/perm"
)

// Sec4Run is one run of §4.2's experiment: a uniformly random permutation
// σ is drawn from rng, every input i generates p packets with destination
// σ(i) (p identical permutations, pipelined), and they are routed with the
// options' node model and discipline, the first r transitions random.
// It returns the mean and the maximum packet latency (the step of
// delivery, counted from the start).
func Sec4Run(e *Engine, o Options, p int, rng *rand.Rand) (mean float64, maxLat int, err error) {
	sigma := perm.Random(o.Shape.N(), rng)
	perms := make([][]int32, p)
	for i := range perms {
		perms[i] = sigma
	}
	ps, err := Packets(o, perms, rng)
	if err != nil {
		return 0, 0, err
	}
	res, err := e.Run(o, ps, 1<<26)
	if err != nil {
		return 0, 0, err
	}
	sum := 0.0
	for _, l := range res.Latency {
		sum += float64(l)
	}
	return sum / float64(len(ps)), res.Steps, nil
}
