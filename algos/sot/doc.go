// Package sot holds the routing algorithms of Honkanen, Leppänen &
// Penttonen for the sparse optical torus (seed 002_59e118519f43b14a.txt,
// §3): the general greedy algorithm (Algorithm 1) with protocols a, b and c,
// and the scheduled hot-potato algorithm (Algorithm 2). They run on the step
// model routecheck/models/sot: a Router turns a state into one Action per
// node, the model checks and performs the step. Local(alg) is the same
// algorithm as a models/sot.Router — one node's local view in, its action
// out — which is how the conformance suite props/sottest runs it, exactly
// as it runs anyone else's router; both decide through one node rule and
// agree step by step (TestLocalMatchesEngine). New + Run step the model
// (msot.StepInto checks every action), with observer, tamper and invariant
// hooks. The fast path the experiments use is a separate engine on a
// compact state of its own (fast.go: packet ids with their targets on the
// links, a bitmap of busy nodes, per-list cursors): RouteFast, Trace,
// FreshWaves and Route without hooks run on it; TestFastMatchesModel and
// TestRouteMatchesRun compare it with the model for every algorithm
// (every packet's delivery step and deflections, the last state).
//
// Algorithm 1 at node (i, j): S is the list of packets that arrived — first
// the one from the left, then the one from up (packets for the processor
// itself were absorbed on arrival, see models/sot) — then, at a processor
// with |S| < 2 and packets to send, "add 2 − |S| packets" (its next own
// packets in the order of the relation: first in, first out). first, right :=
// protocol(i, j, S, x); if right, S[first] goes right and the other packet
// (if any) down, otherwise S[first] goes down and the other right.
//
//   - protocol a: the packet that came from up (arrived over the Down link
//     of (i−1, j)) goes down; else a packet whose target column is j goes
//     down (the first such in S); else S[0] goes right.
//   - protocol b: k uniform in S, p = S[k] with target position (h, m); if
//     h = i then p goes right, elseif m = j then p goes down, else p goes
//     right or down with probability 1/2.
//   - protocol c: k uniform in S; p goes right if (h − i) mod n <
//     (m − j) mod n, else down.
//
// Ambiguities, resolved here and recorded in the claims (props/sot/claims.go):
//
//   - Greedy-a's text says a processor never sends downwards, but Algorithm 1
//     adds 2 − |S| packets and protocol a's last line sends the second one
//     down. GreedyALiteral is the pseudo-code as printed; a packet it sends
//     down from P_x travels down P_x's column, "came from up" at every node,
//     is sent down again forever and is never delivered (livelock). GreedyA
//     is the text: a processor routes its passing packets by protocol a and
//     then injects at most one packet, onto its Right output, iff that
//     output is free. This is the reading the paper's analysis uses (n
//     packets sent per time unit).
//   - Greedy-b's text says packets at an edge (h = i or m = j) are
//     "privileged" over packets in the middle, but its pseudo-code picks k at
//     random, so a middle packet drawn first may take an edge packet's only
//     good link. GreedyB is the pseudo-code; GreedyBEdgeFirst draws k among
//     the edge packets when there are any (the text).
//   - Algorithm 2 ("acts as in Greedy-a except that it attempts to send
//     packets only to P_(i+t) mod n") is Scheduled with GreedyA's processor
//     rule and ScheduledLiteral with Algorithm 1's (add 2 − |S| packets for
//     P_(i+t) mod n, protocol a). t is the model's step counter (0 after the
//     semisort, whose O(h) local time is not counted). A packet for P_i
//     itself is sent at t ≡ 0 (mod n), like any other.
//
// A Router is bound to one run: it caches, per processor, how far its list
// of own packets has been injected, which is only valid while the states it
// sees come from that run. Its actions depend only on the state and on the
// *rand.Rand it was given (protocols b and c; a and Algorithm 2 draw
// nothing), read in node order.
package sot
