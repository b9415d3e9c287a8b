// Package multibutterfly is the (N, d, α, β)-multi-butterfly of Upfal, "An
// O(log N) Deterministic Packet-Routing Scheme" (seed 004_8aa7b4c265a7324b.txt,
// §3.1), and its store-and-forward step model.
//
// Topology (§3.1). N = 2^n inputs; stages 0…n of N nodes each; node ⟨s, k⟩
// has index s·N + k. Stage s is split into 2^s sets A_{s,j} = {⟨s, k⟩ :
// ⌊k / 2^{n−s}⌋ = j}. For s < n the m = N/2^s nodes of A_{s,j} are joined by
// an (α, β, m, 2d)-splitter (routecheck/models/expander) to its upper output
// set A_{s+1,2j} and its lower output set A_{s+1,2j+1}. Splitter input a is
// node ⟨s, j·m + a⟩, upper output b is ⟨s+1, j·m + b⟩, lower output b is
// ⟨s+1, j·m + m/2 + b⟩. Edges point forward (stage s to s + 1) and keep the
// splitter's 2d-colouring.
//
// Addressing (our reading of "the s bit in the bit representation of its
// destination"): bit s counts from the most significant of the n-bit
// destination, so a packet in A_{s,j} has destination prefix j, it goes
// upper when that bit is 0, and after n transitions it is at ⟨n, dest⟩.
// This is the only reading under which the paper's next sentence ("the first
// s bits in the packet's destination equal the first s bits … of j") holds.
//
// Physics (enforced by Step; an algorithm bug is an error, never repaired):
//   - a move sends one packet along one existing edge from the node that
//     holds it; packets only move forward, one hop per step;
//   - one packet per edge per step, and at most one active line per node
//     per step (§3.1: "only one communication line adjacent to each node can
//     be active at any given time") — so a node never sends and receives in
//     the same step;
//   - every node holds at most L packets (the buffer bound);
//   - nothing is created, dropped or duplicated: Pos has one entry per packet
//     for ever, and Count is its tally (checked by CheckInvariants).
//
// A packet whose position contradicts its destination prefix is "misrouted";
// Step accepts the move (the hardware can perform it) but CheckInvariants
// reports it, and a packet is delivered exactly when it stands at ⟨n, dest⟩.
//
// Section 4 (CommNetwork, StepComm): the 3N-node network of §4.1 —
// log n expander stages, a multi-butterfly, log n stages of direct edges —
// with one buffer per node, where an active line exchanges the buffers of
// its two ends, and a packet arriving at its destination is absorbed (our
// reading, documented on CommState). StepComm is pure and rejects a node on
// two active lines; CheckComm checks conservation and routing.
//
// Router and RunRouter (router.go) run a routing policy through Step node
// by node: a node sees its own buffer, its out edges with their heads'
// buffers, and the clock, and names the packets it sends on which edges;
// every error is a *StepError wrapping ErrIllegal or ErrCapacity. The
// conformance suite routecheck/props/mbflytest runs any Router this way.
//
// Step is pure: StepInto writes the next state into a caller-owned
// destination and never modifies its input; Step allocates a fresh one.
package multibutterfly
