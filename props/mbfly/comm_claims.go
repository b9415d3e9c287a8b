package mbfly

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	amb "routecheck/algos/multibutterfly"
	"routecheck/internal/seeds"
	mb "routecheck/models/multibutterfly"
	"routecheck/props"
	"routecheck/props/internal/claimtab"
)

func registerMbflyComm() {
	claimtab.Register(
		claimtab.WithFault(ledger.Text(props.Claim{
			ID: "mbfly/sec4.2/comm-delivers",
		}), mbflyCommCheck, amb.NoFault, amb.FaultIgnoreBit, "an exchange protocol that exchanges along any activated edge, on the forward packet's route or not (amb.FaultIgnoreBit)"),
	)
}

// mbflyCommCheck is mbfly/sec4.2/comm-delivers' check of the protocol with
// fault (amb.NoFault: the real one).
func mbflyCommCheck(fault amb.Fault) func(props.Env) props.Outcome {
	return func(env props.Env) props.Outcome {
		maxN := env.Budget.Pick(16, 32, 32)
		reps := env.Budget.Pick(2, 5, 20)
		runs, worst := 0, ""
		worstRatio := 0.0
		for n := 2; n <= maxN; n *= 2 {
			k := bits.Len(uint(n)) - 1
			for d := 1; d <= 3; d++ {
				for r := range reps {
					rng := seeds.Rand(env.Seed, 0xc0, uint64(n), uint64(d), uint64(r))
					_, s, dest, err := commStart(n, d, rng)
					if err != nil {
						return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
					}
					for _, A := range []int{1, 2, 4, 8} {
						res, fin, err := amb.RunCommFault(s, A, 0, true, fault)
						runs++
						if err != nil || !res.Complete || !fin.CommDone() {
							msg := fmt.Sprintf("n=%d d=%d A=%d: complete %v after %d iterations, err %v", n, d, A, res.Complete, res.Iterations, err)
							return props.Outcome{Verdict: props.Violated, Evidence: msg, Counterexample: map[string]any{"n": n, "d": d, "A": A, "network_seed": []uint64{env.Seed, 0xc0, uint64(n), uint64(d), uint64(r)}, "dest": dest}}
						}
						if ratio := float64(res.Iterations) / float64(3*k+1); ratio > worstRatio {
							worstRatio, worst = ratio, fmt.Sprintf("n=%d d=%d A=%d: %d iterations (3 log n + 1 = %d)", n, d, A, res.Iterations, 3*k+1)
						}
					}
				}
			}
		}
		return props.Outcome{Verdict: props.Holds, Evidence: fmt.Sprintf("%d runs, all delivered; most iterations relative to 3 log n + 1: %s", runs, worst)}
	}
}

// commStart builds a §4.1 network (n inputs, degree d) from rng, then draws
// a random destination bijection onto the n(log n + 1) nodes of stages
// 2 log n … 3 log n from the same rng (packet i to node 2·log n·n + π(i)),
// and returns the network, its start state and the destinations.
func commStart(n, d int, rng *rand.Rand) (*mb.CommNetwork, mb.CommState, []int32, error) {
	net, err := mb.BuildComm(n, d, rng)
	if err != nil {
		return nil, mb.CommState{}, nil, err
	}
	k := net.LogN
	np := n * (k + 1)
	dest := make([]int32, np)
	for i, j := range rng.Perm(np) {
		dest[i] = int32(2*k*n + j)
	}
	s, err := mb.InitComm(net, dest)
	return net, s, dest, err
}
