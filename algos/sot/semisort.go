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
// packet after own packet k in its list, −1 at the end.
type Semisorted struct {
	Head []int32
	Next []int32
	own  []int32
}

// SortMem is the memory a semisort of h packets into n lists works in:
// the packets' targets (read only) and the list heads and links. Every
// access of SemisortInto goes through it, so a wrapper can count the
// sort's local time from outside (props/sot does).
type SortMem interface {
	// Target returns the target of packet k, 0 ≤ k < h.
	Target(k int) int32
	// Head returns the head of list y (−1: empty).
	Head(y int) int32
	// SetHead sets the head of list y.
	SetHead(y int, v int32)
	// SetNext sets the link after packet k (−1: end of its list).
	SetNext(k int, v int32)
}

// SemisortInto is a sequential n-way radix sort (one digit, the target in
// [0, n)) of the h packets of mem into n linked lists: n head writes to
// empty the lists, then, scanning k = h − 1 … 0, one target read, one head
// read, one link write and one head write per packet (front insertion
// while scanning backwards keeps each list in the packets' order). It
// touches mem n + 4h times and nothing else. It panics on a target outside
// [0, n) (a programmer error: the model's NewState validates relations).
func SemisortInto(n, h int, mem SortMem) {
	for y := range n {
		mem.SetHead(y, -1)
	}
	for k := h - 1; k >= 0; k-- {
		y := mem.Target(k)
		if y < 0 || int(y) >= n {
			panic(fmt.Sprintf("sot: SemisortInto: packet %d has target %d outside [0, %d)", k, y, n))
		}
		mem.SetNext(k, mem.Head(int(y)))
		mem.SetHead(int(y), int32(k))
	}
}

// ArrayMem is the plain SortMem of one processor: own holds its packet
// ids (into Rel, in its order); the lists live in Heads and Nexts.
type ArrayMem struct {
	Own   []int32
	Rel   []perm.Pair
	Heads []int32 // len n
	Nexts []int32 // len(Own)
}

// NewArrayMem returns the memory for semisorting own (ids into rel) into n
// lists.
func NewArrayMem(n int, own []int32, rel []perm.Pair) *ArrayMem {
	return &ArrayMem{Own: own, Rel: rel, Heads: make([]int32, n), Nexts: make([]int32, len(own))}
}

// Target, Head, SetHead and SetNext implement SortMem on the arrays.
func (m *ArrayMem) Target(k int) int32     { return m.Rel[m.Own[k]].Dst }
func (m *ArrayMem) Head(y int) int32       { return m.Heads[y] }
func (m *ArrayMem) SetHead(y int, v int32) { m.Heads[y] = v }
func (m *ArrayMem) SetNext(k int, v int32) { m.Nexts[k] = v }

// Lists returns the sorted lists held in m (see Semisorted).
func (m *ArrayMem) Lists() Semisorted { return Semisorted{Head: m.Heads, Next: m.Nexts, own: m.Own} }

// Semisort runs SemisortInto on the packets own (ids into rel, in the
// processor's order) in an ArrayMem and returns the lists, which the
// scheduled router sends a target's packets in. Cost O(n + h) time and
// memory.
func Semisort(n int, own []int32, rel []perm.Pair) Semisorted {
	m := NewArrayMem(n, own, rel)
	SemisortInto(n, len(own), m)
	return m.Lists()
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
