package sot

import (
	"math/rand/v2"
	"strings"
	"testing"

	"routecheck/models/perm"
	msot "routecheck/models/sot"
)

// Every algorithm's name parses to itself; an unknown name (also through
// New) is refused with the list of allowed names.
func TestParseAlgorithmNames(t *testing.T) {
	for _, a := range Algorithms {
		if got, err := ParseAlgorithm(string(a)); err != nil || got != a {
			t.Errorf("ParseAlgorithm(%q) = %q, %v", a, got, err)
		}
	}
	if _, err := ParseAlgorithm("greedy-z"); err == nil || !strings.Contains(err.Error(), "allowed: greedy-a") {
		t.Errorf("unknown name: %v", err)
	}
	s, _ := msot.NewState(3, nil)
	if _, err := New("greedy-z", &s, rand.New(rand.NewPCG(1, 1))); err == nil || !strings.Contains(err.Error(), "allowed") {
		t.Errorf("New with an unknown name: %v, want the allowed names", err)
	}
}

// Protocol c as doc.go prints it: right if (h − i) mod n < (m − j) mod n.
// On SOT(4) a packet for P2 (h = 2, m = 1) at (1, 2): (2 − 1) mod 4 = 1 <
// (1 − 2) mod 4 = 3, so it goes right (a sum h + i would give 3, not < 3).
func TestProtocolCModular(t *testing.T) {
	s := stateWith(t, 4, 1, []perm.Pair{{Src: 0, Dst: 2}}, []placed{{1, 2, false, 0}})
	r, err := New(GreedyC, &s, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	a := make([]msot.Action, 16)
	r.Actions(&s, a)
	if got, want := a[s.Node(1, 2)], (msot.Action{Right: msot.FromLeft}); got != want {
		t.Errorf("node (1,2): %+v, want %+v", got, want)
	}
}
