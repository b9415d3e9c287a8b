package popsobl

import (
	"testing"

	"routecheck/models/pops"
)

// permutations calls f with every permutation of 0…n−1 (Heap's algorithm).
func permutations(n int, f func([]int32)) {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	c := make([]int, n)
	f(p)
	for i := 0; i < n; {
		if c[i] < i {
			if i%2 == 0 {
				p[0], p[i] = p[i], p[0]
			} else {
				p[c[i]], p[i] = p[i], p[c[i]]
			}
			f(p)
			c[i]++
			i = 0
		} else {
			c[i] = 0
			i++
		}
	}
}

// Every permutation on every shape with dg ≤ 6 is delivered by both
// families, with no conflict and no loss, and the direct family takes at
// least as many slots as its busiest coupler carries packets (a coupler
// delivers one message per slot).
func TestExecuteExhaustive(t *testing.T) {
	for _, sh := range []pops.Shape{{D: 1, G: 2}, {D: 2, G: 1}, {D: 1, G: 3}, {D: 3, G: 1}, {D: 2, G: 2}, {D: 2, G: 3}, {D: 3, G: 2}, {D: 1, G: 6}} {
		for name, fam := range map[string]Family{"direct": Direct(sh), "two-hop": TwoHop(sh)} {
			permutations(sh.N(), func(p []int32) {
				r, err := Execute(sh, p, fam, 100)
				if err != nil {
					t.Fatalf("%v %s %v: %v", sh, name, p, err)
				}
				if r.Delivered != sh.N() || r.Conflicts != 0 || len(r.Lost) != 0 {
					t.Fatalf("%v %s %v: %+v", sh, name, p, r)
				}
				if name != "direct" {
					return
				}
				load := map[[2]int]int{}
				most := 0
				for a, b := range p {
					if int(b) != a {
						k := [2]int{sh.Group(int(b)), sh.Group(a)}
						load[k]++
						most = max(most, load[k])
					}
				}
				if r.Slots < most {
					t.Fatalf("%v %v: %d slots but a coupler carries %d packets", sh, p, r.Slots, most)
				}
			})
		}
	}
}

// A path that does not end at the destination is refused with an error.
func TestExecuteBadPath(t *testing.T) {
	sh := pops.Shape{D: 2, G: 2}
	bad := func(a, b int32) []int32 { return []int32{(b + 1) % 4} }
	if _, err := Execute(sh, []int32{1, 0, 3, 2}, bad, 10); err == nil {
		t.Fatal("bad path accepted")
	}
}
