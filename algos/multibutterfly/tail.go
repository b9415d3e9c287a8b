package multibutterfly

import (
	"fmt"

	mb "routecheck/models/multibutterfly"
)

// Footnote 1 of 004_8aa7b4c265a7324b.txt: "it would be more efficient to
// replace the last log m stages of the network by N/m Batcher networks".
// RunToStage is the first part of that hybrid: §3.2's algorithm on stages
// 0 … stop of a multi-butterfly (stop = log N − log m), where the nodes of
// stage stop are the input wires of the Batcher networks and keep what
// they receive. The Batcher networks themselves are algos/sortnet's; props
// joins the two.

// StopRule says what a node of the stop stage accepts.
type StopRule uint8

const (
	// StopOnePerNode: one packet in all — the node is one input wire of a
	// Batcher network (the footnote read literally: N/m networks of m
	// wires, one per node of A_{stop, j}).
	StopOnePerNode StopRule = iota
	// StopOnePerBatch: one packet of each batch, up to L, as every node of
	// the multi-butterfly (the Batcher network then needs L wires per node).
	StopOnePerBatch
)

// String names the rule.
func (r StopRule) String() string {
	switch r {
	case StopOnePerNode:
		return "one packet per node"
	case StopOnePerBatch:
		return "one packet per batch per node"
	}
	return fmt.Sprintf("StopRule(%d)", int(r))
}

// StageResult summarizes a RunToStage run.
type StageResult struct {
	// Iterations and Steps (2d per iteration) until every packet stood at
	// stage stop, when Complete; else until the run ended.
	Iterations, Steps int
	Complete          bool
	// Stuck: the run ended because two consecutive iterations (one of each
	// parity) moved nothing while packets were still short of stage stop —
	// no later iteration can move anything either (the state repeats).
	Stuck bool
	// Waiting is the number of packets not at stage stop when the run ended.
	Waiting int
	Moves   int
}

// RunToStage routes the packets of s with §3.2's algorithm (highest
// priority first, the destination bit, one packet per batch per node)
// over the edges leaving stages 0 … stop−1 only; a node of stage stop
// accepts packets by rule and never sends. It stops when every packet is
// at stage stop, when two consecutive iterations move nothing (Stuck), or
// after maxIter iterations (0: DefaultMaxIterations(stop, L)). With check,
// mb.CheckInvariants runs after every step. stop must be in [1, log N].
func RunToStage(s mb.State, stop int, rule StopRule, maxIter int, check bool) (StageResult, mb.State, error) {
	net, L := s.Net, s.L
	if stop < 1 || stop > net.LogN {
		return StageResult{}, s, fmt.Errorf("multibutterfly: stop = %d: must be in [1, log N = %d]", stop, net.LogN)
	}
	if rule != StopOnePerNode && rule != StopOnePerBatch {
		return StageResult{}, s, fmt.Errorf("multibutterfly: unknown stop rule %d", int(rule))
	}
	if maxIter <= 0 {
		maxIter = DefaultMaxIterations(stop, L)
	}
	d2 := 2 * net.D
	byClass := edgeClasses(net.Edges, d2, stop)
	at := make([][]int32, net.Nodes())
	for p, v := range s.Pos {
		at[v] = append(at[v], int32(p))
	}
	waiting := func(st mb.State) int {
		w := 0
		for _, v := range st.Pos {
			if st, _ := net.StageOf(v); st != stop {
				w++
			}
		}
		return w
	}
	cur, next := s.Clone(), mb.State{}
	var res StageResult
	if res.Waiting = waiting(cur); res.Waiting == 0 {
		res.Complete = true
		return res, cur, nil
	}
	moves := make([]mb.Move, 0, net.N)
	idle := 0
	for t := 1; t <= maxIter; t++ {
		movedThis := 0
		for c := range d2 {
			moves = moves[:0]
			for _, ei := range byClass[t%2][c] {
				e := net.Edges[ei]
				p := highest(at[e.From], cur.Dest, L)
				if p < 0 || e.Lower != net.GoesLower(cur.Dest[p], int(e.Stage)) {
					continue
				}
				if int(e.Stage)+1 == stop && rule == StopOnePerNode {
					if len(at[e.To]) > 0 {
						continue
					}
				} else if holdsBatch(at[e.To], cur.Dest, L, Batch(cur.Dest[p], L)) {
					continue
				}
				moves = append(moves, mb.Move{Packet: p, Edge: ei})
			}
			ev, err := apply(&next, cur, at, moves)
			if err != nil {
				return res, cur, fmt.Errorf("iteration %d, step %d: %w", t, c, err)
			}
			res.Moves += ev.Moves
			movedThis += ev.Moves
			cur, next = next, cur
			if check {
				if err := mb.CheckInvariants(cur); err != nil {
					return res, cur, fmt.Errorf("iteration %d, step %d: %w", t, c, err)
				}
			}
		}
		res.Iterations, res.Steps = t, t*d2
		if res.Waiting = waiting(cur); res.Waiting == 0 {
			res.Complete = true
			return res, cur, nil
		}
		if movedThis == 0 {
			idle++
		} else {
			idle = 0
		}
		if idle == 2 {
			res.Stuck = true
			return res, cur, nil
		}
	}
	return res, cur, nil
}
