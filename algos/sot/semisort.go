package sot

import (
	"fmt"

	"routecheck/models/perm"
)

// Semisorted is the result of the first phase of Algorithm 2 at one
// processor (§3.2; §4.3: "the Algorithm 2 first semisorts the packets in
// each processor by their target to n lists in O(h) time by using
// sequential n-way radix sort"): n singly linked lists, one per target,
// stored as arrays. Head[y] is the first packet (an index into the
// processor's own list) for target y, −1 for an empty list; Next[k] is the
// packet after own packet k in its list, −1 at the end. Ops counts the
// elementary operations the sort performed, each one write to Head or Next
// (a processor's local time unit): n to empty the heads and one list
// insertion per packet, n + h in all for h packets.
type Semisorted struct {
	Head []int32
	Next []int32
	Ops  int
	own  []int32
}

// Semisort is a sequential n-way radix sort (one digit, the target in
// [0, n)) of the packets own (ids into rel, in the processor's order) into
// n linked lists. Inserting at the front while scanning own backwards makes
// every list keep the processor's order (stable), which is the order the
// scheduled router sends a target's packets in. Cost O(n + h) time and
// memory; it panics on a target outside [0, n) (a programmer error: the
// model's NewState validates relations).
func Semisort(n int, own []int32, rel []perm.Pair) Semisorted {
	s := Semisorted{Head: make([]int32, n), Next: make([]int32, len(own)), own: own}
	for y := range s.Head {
		s.Head[y] = -1
		s.Ops++
	}
	for k := len(own) - 1; k >= 0; k-- {
		y := rel[own[k]].Dst
		if y < 0 || int(y) >= n {
			panic(fmt.Sprintf("sot: Semisort: packet %d has target %d outside [0, %d)", own[k], y, n))
		}
		s.Next[k] = s.Head[y]
		s.Head[y] = int32(k)
		s.Ops++
	}
	return s
}

// List returns the packet ids of list y, in list order. Cost O(length).
func (s Semisorted) List(y int) []int32 {
	var out []int32
	for k := s.Head[y]; k >= 0; k = s.Next[k] {
		out = append(out, s.own[k])
	}
	return out
}

// Lists returns all n lists (List for every target).
func (s Semisorted) Lists() [][]int32 {
	out := make([][]int32, len(s.Head))
	for y := range out {
		out[y] = s.List(y)
	}
	return out
}
