package multibutterfly

import (
	"fmt"

	"routecheck/models/expander"
)

// Theorem 4.2 of 004_8aa7b4c265a7324b.txt (degree reduction by cycle
// simulation), as a schedule that can be checked step by step.
//
// Given a d-regular bipartite graph H (left 0…NA−1, right 0…NB−1) with a
// proper d-colouring, G is d disjoint copies H_0 … H_{d−1} of H and G' has
// one vertex v_i per vertex v of H and copy i: the edge (v, u) of H with
// colour c joins v_c to u_c, and v_0 … v_{d−1} form a cycle. The d virtual
// processes ṽ_0 … ṽ_{d−1} of v (ṽ_i is v in copy H_i) move around v's
// cycle; in each phase every process first talks over the H-edge at its
// current vertex, then the processes move. d phases must bring every ṽ_i
// together with each of its d neighbours ũ_i exactly once.

// CycleSchedule says where the processes go: Move(k, d) lists, for the move
// after phase k, the cycle positions j whose process goes to position
// Next(j) — as a set of lines (j, Next(j)) that are active in that step.
type CycleSchedule struct {
	Name string
	// Lines returns the active cycle lines of the move after phase k as
	// pairs (from, to) of positions; a process at from ends at to.
	Lines func(k, d int) [][2]int
}

// RotateSchedule is the literal reading of the proof: every process moves
// to the next vertex of its cycle, v_j → v_{j+1}, all at once.
var RotateSchedule = CycleSchedule{Name: "rotate", Lines: func(k, d int) [][2]int {
	var l [][2]int
	for j := range d {
		l = append(l, [2]int{j, (j + 1) % d})
	}
	return l
}}

// ZigzagSchedule moves processes by exchanges only: after even phases the
// pairs (0,1), (2,3), … swap, after odd phases (1,2), (3,4), …, (d−1,0),
// so processes that start at even positions move forward and the others
// backward, every node on one active line per step (d even).
var ZigzagSchedule = CycleSchedule{Name: "zigzag", Lines: func(k, d int) [][2]int {
	var l [][2]int
	for j := k % 2; j < d+k%2; j += 2 {
		a, b := j%d, (j+1)%d
		if a == b {
			continue
		}
		l = append(l, [2]int{a, b}, [2]int{b, a})
	}
	return l
}}

// CycleSimResult is what SimulateCycles found.
type CycleSimResult struct {
	Degree int // the maximum degree of G' (parallel edges counted)
	Steps  int // 2 per phase
	// MaxLines is the largest number of active lines at one vertex in any
	// step (the model allows 1).
	MaxLines int
	// Missed is the first process that did not meet each neighbour exactly
	// once ("" if none).
	Missed string
}

// SimulateCycles runs d phases of sched on H (colour[a][i]: colour of edge
// i of left vertex a, a proper d-colouring) and reports G' 's degree, the
// steps, the most active lines at one vertex and whether every process met
// its neighbours. It returns an error if H is not d-regular with a proper
// colouring or if a process, at communication time, faces a process of
// another copy.
func SimulateCycles(h expander.Graph, colour [][]int32, sched CycleSchedule) (CycleSimResult, error) {
	dA, dB, ok := h.Biregular()
	if !ok || dA != dB {
		return CycleSimResult{}, fmt.Errorf("multibutterfly: SimulateCycles needs a d-regular graph")
	}
	d := dA
	// byColour[v][c] = the neighbour of v over colour c (left v < NA, right
	// v ≥ NA in one index space)
	nv := h.NA + h.NB
	byColour := make([][]int, nv)
	for v := range byColour {
		byColour[v] = make([]int, d)
		for c := range byColour[v] {
			byColour[v][c] = -1
		}
	}
	for a, l := range h.Adj {
		for i, b := range l {
			c := int(colour[a][i])
			u := h.NA + int(b)
			if c < 0 || c >= d || byColour[a][c] != -1 || byColour[u][c] != -1 {
				return CycleSimResult{}, fmt.Errorf("multibutterfly: colouring not proper at edge (%d, %d)", a, b)
			}
			byColour[a][c], byColour[u][c] = u, a
		}
	}
	res := CycleSimResult{Degree: 3}
	if d == 1 {
		res.Degree = 1 // no cycle edges
	} else if d == 2 {
		res.Degree = 3 // the 2-cycle is a double edge
	}
	// at[v][j] = the process (copy index) at vertex v_j
	at := make([][]int, nv)
	for v := range at {
		at[v] = make([]int, d)
		for j := range at[v] {
			at[v][j] = j
		}
	}
	met := make([][]map[int]int, nv) // met[v][i][u] = times ṽ_i met ũ_i
	for v := range met {
		met[v] = make([]map[int]int, d)
		for i := range met[v] {
			met[v][i] = map[int]int{}
		}
	}
	for k := range d {
		// communicate: v_j talks to u_j over colour j
		for v := range nv {
			for j := range d {
				u := byColour[v][j]
				if at[u][j] != at[v][j] {
					return res, fmt.Errorf("multibutterfly: phase %d: process %d of vertex %d faces process %d of vertex %d", k, at[v][j], v, at[u][j], u)
				}
				met[v][at[v][j]][u]++
			}
		}
		res.Steps++
		// move
		lines := sched.Lines(k, d)
		busy := make([]int, d)
		next := make([]int, d)
		for j := range next {
			next[j] = -1
		}
		for _, l := range lines {
			busy[l[0]]++
			if l[1] != l[0] {
				busy[l[1]]++
			}
			next[l[1]] = l[0]
		}
		// a swap (a,b),(b,a) is one line: count each unordered pair once
		seen := map[[2]int]bool{}
		cnt := make([]int, d)
		for _, l := range lines {
			p := [2]int{min(l[0], l[1]), max(l[0], l[1])}
			if seen[p] {
				continue
			}
			seen[p] = true
			cnt[p[0]]++
			cnt[p[1]]++
		}
		for _, c := range cnt {
			res.MaxLines = max(res.MaxLines, c)
		}
		for v := range nv {
			nat := make([]int, d)
			for j := range d {
				if next[j] >= 0 {
					nat[j] = at[v][next[j]]
				} else {
					nat[j] = at[v][j]
				}
			}
			at[v] = nat
		}
		res.Steps++
	}
	for v := range nv {
		for i := range d {
			for c := range d {
				u := byColour[v][c]
				if met[v][i][u] != countMult(byColour[v], u) {
					res.Missed = fmt.Sprintf("process %d of vertex %d met neighbour %d %d times (multiplicity %d)", i, v, u, met[v][i][u], countMult(byColour[v], u))
					return res, nil
				}
			}
		}
	}
	return res, nil
}

func countMult(l []int, u int) int {
	c := 0
	for _, x := range l {
		if x == u {
			c++
		}
	}
	return c
}
