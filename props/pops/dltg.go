package pops

import (
	"fmt"
	"slices"
	"strings"

	ap "routecheck/algos/pops"
	"routecheck/models/perm"
	mpops "routecheck/models/pops"
	"routecheck/props"
)

// The §III procedure is stated for d = g (and, after Theorem 3.8's stage 1,
// d > g). Read literally for d < g, processor i of group a relays in slots 1
// and 2 what arrives on c(a, i mod g); a group of d < g processors covers
// only d of the g residues, so some couplers have no listener, and a packet
// whose every path needs one can never leave its group.

// oneStepAlone runs one step of the literal procedure on POPS(d,g) with the
// single packet p → x taking part via intermediate group r, and reports
// whether it was delivered.
func oneStepAlone(sh mpops.Shape, p, x, r int) (bool, error) {
	dst := make([]int32, sh.N())
	for i := range dst {
		dst[i] = perm.None
	}
	dst[p] = int32(x)
	res, err := ap.RunOnModelWith(sh, dst, func(_, m int, _ float64) ([]int32, []int32) {
		return []int32{0}, []int32{int32(r)}
	}, ap.Options{OutOfScope: true, MaxSteps: 1}, nil)
	return res.Delivered == 1, err
}

// dLessThanGLivelock runs every choice of step 1 for POPS(1,2), π = (1 0),
// on the slot model: if no packet is delivered and the state after the step
// is the initial one (originals in place, no copy left), no later step can
// do better — the run never ends.
func dLessThanGLivelock() (string, error) {
	sh := mpops.Shape{D: 1, G: 2}
	dst := []int32{1, 0}
	init, err := mpops.NewState(sh, dst)
	if err != nil {
		return "", err
	}
	for c := range 4 {
		groups := []int32{int32(c % 2), int32(c / 2)}
		var last mpops.State
		res, err := ap.RunOnModelWith(sh, dst, func(_, m int, _ float64) ([]int32, []int32) {
			return []int32{0, 1}, groups
		}, ap.Options{OutOfScope: true, MaxSteps: 1}, func(_, _ int, _ []mpops.Action, _, after mpops.State, _ mpops.Events) { last = after })
		if err != nil {
			return "", err
		}
		same := slices.EqualFunc(last.Buf, init.Buf, slices.Equal) && slices.Equal(last.Delivered, init.Delivered) && slices.Equal(last.Lost, init.Lost)
		if res.Delivered > 0 || !same {
			return fmt.Sprintf("choices %v: %d delivered, state back to the start: %v", groups, res.Delivered, same), nil
		}
	}
	return "", nil
}

func checkDLessThanG(props.Env) props.Outcome {
	var ev []string
	bad := 0
	for n := 2; n <= 8; n++ {
		for d := 1; d*d < n; d++ {
			if n%d != 0 {
				continue
			}
			g := n / d
			sh := mpops.Shape{D: d, G: g}
			stuck := 0
			for p := range n {
				for x := range n {
					ok := false
					for r := range g {
						got, err := oneStepAlone(sh, p, x, r)
						if err != nil {
							return props.Outcome{Verdict: props.Violated, Evidence: fmt.Sprintf("%v, packet %d → %d via group %d: %v", sh, p, x, r, err)}
						}
						ok = ok || got
					}
					if !ok {
						stuck++
					}
				}
			}
			bad += stuck
			ev = append(ev, fmt.Sprintf("%v: %d of %d (source, destination) pairs undeliverable", sh, stuck, n*n))
		}
	}
	why, err := dLessThanGLivelock()
	if err != nil {
		return props.Outcome{Verdict: props.Inconclusive, Evidence: err.Error()}
	}
	if why != "" {
		return props.Outcome{Verdict: props.Inconclusive, Evidence: "POPS(1,2), π = (1 0) is not the livelock the notes describe: " + why + "; " + strings.Join(ev, "; ")}
	}
	cex := PopsInstance{D: 1, G: 2, Perm: []int32{1, 0}, Algorithm: ap.Faithful.String(),
		Why: "as written for d < g, no choice of step 1 delivers a packet and the step leaves the initial state unchanged, so the run never ends"}
	v := props.Holds
	if bad > 0 {
		v = props.Violated
	}
	return props.Outcome{Verdict: v, Evidence: "each (source, destination) pair alone, every intermediate group, one step on the slot model with the literal rules: " + strings.Join(ev, "; ") + "; POPS(1,2), π = (1 0): all 4 choices of step 1 deliver nothing and return to the initial state", Counterexample: cex}
}

func init() {
	props.Register(ledger.Text(props.Claim{ID: "pops/sec3/d-lt-g-as-written",

		Check: checkDLessThanG}))
}
