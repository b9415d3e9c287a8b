package sot

import (
	"math/rand/v2"
	"slices"
	"testing"

	"routecheck/models/perm"
	msot "routecheck/models/sot"
)

// countMem counts every access of the sort to its memory.
type countMem struct {
	*ArrayMem
	reads, writes int
}

func (c *countMem) Target(k int) int32     { c.reads++; return c.ArrayMem.Target(k) }
func (c *countMem) Head(y int) int32       { c.reads++; return c.ArrayMem.Head(y) }
func (c *countMem) SetHead(y int, v int32) { c.writes++; c.ArrayMem.SetHead(y, v) }
func (c *countMem) SetNext(k int, v int32) { c.writes++; c.ArrayMem.SetNext(k, v) }

// By hand: SOT(3), P0's packets 0…4 go to 2, 0, 2, 1, 0. The lists are
// 0: [1 4], 1: [3], 2: [0 2], after 3 head writes and 5 insertions of one
// target read, one head read, one link write and one head write each:
// 10 reads and 13 writes.
func TestSemisortByHand(t *testing.T) {
	rel := []perm.Pair{{Src: 0, Dst: 2}, {Src: 0, Dst: 0}, {Src: 0, Dst: 2}, {Src: 0, Dst: 1}, {Src: 0, Dst: 0}}
	own := []int32{0, 1, 2, 3, 4}
	c := &countMem{ArrayMem: NewArrayMem(3, own, rel)}
	SemisortInto(3, len(own), c)
	if c.reads != 10 || c.writes != 13 {
		t.Errorf("%d reads, %d writes; want 10, 13", c.reads, c.writes)
	}
	s := c.Lists()
	want := [][]int32{{1, 4}, {3}, {0, 2}}
	for y, w := range want {
		if got := s.List(y); !slices.Equal(got, w) {
			t.Errorf("list %d = %v, want %v", y, got, w)
		}
	}
	if got := Semisort(3, own, rel).Lists(); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("Semisort lists %v, want %v", got, want)
	}
}

// On random relations every processor's lists are its packets filtered by
// target, in its order (the naive O(n·h) computation), and Algorithm 2's
// router holds exactly these lists.
func TestSemisortMatchesFilter(t *testing.T) {
	for r := range 30 {
		rng := rand.New(rand.NewPCG(uint64(r), 13))
		n := 2 + rng.IntN(9)
		rel := RandomTargets(n, rng.IntN(3*n+1), false, rng)
		s, err := msot.NewState(n, rel)
		if err != nil {
			t.Fatal(err)
		}
		router, err := New(Scheduled, &s, nil)
		if err != nil {
			t.Fatal(err)
		}
		for x, own := range s.Own {
			ss := Semisort(n, own, rel)
			for y := range n {
				var want []int32
				for _, id := range own {
					if int(rel[id].Dst) == y {
						want = append(want, id)
					}
				}
				if got := ss.List(y); !slices.Equal(got, want) {
					t.Fatalf("n=%d P%d list %d = %v, want %v", n, x, y, got, want)
				}
				if !slices.Equal(router.lists[x][y], want) {
					t.Fatalf("n=%d P%d: router list %d = %v, want %v", n, x, y, router.lists[x][y], want)
				}
			}
		}
	}
}
