// Package butterfly models store-and-forward packet routing on the N-input
// butterfly with r extra randomizing stages (001_afbf5d537b48cc65.txt,
// Upfal, Felperin & Snir, "Randomized Routing with Shorter Paths").
//
// Topology (§2, §3). N = 2^n; stages 0, …, n+r, each with N nodes numbered
// by n-bit rows (a_1, …, a_n), a_1 the most significant bit. Node
// (s−1, a) is linked to (s, a) (the straight link) and to (s, a with bit
// Dim(s) complemented) (the cross link), where Dim(s) = ((s−1) mod n) + 1:
// stages 1…n are the plain butterfly (§2: stage s flips a_s) and the extra
// stages n+1…n+r "repeat the first r stages" (§3). Inputs are stage 0 and
// outputs stage n+r; input (a) is identified with output (a).
//
// A packet's path is fixed when it enters (see RowAt): its first r
// transitions go to the row (x_1, …, x_r, a_{r+1}, …, a_n) chosen by the
// router (the packet's X), the following n take it to its destination by
// the unique path, exactly the node sequence printed in §3.
//
// Two node models, both from the paper:
//
//   - NodeQueue (§2, used by §3's analysis): "each input and switch forward
//     a packet at each cycle, whenever a packet is queued at the node" —
//     every node has one queue and forwards at most one packet per step; a
//     packet that crosses a link joins the queue of the node it reaches in
//     the same step. Routing time is then at least the node congestion.
//   - Buffered (§4.1, the simulations): every node has a buffer of size one
//     for each incoming link and an unbounded queue for each outgoing link;
//     a step moves a packet over a link (one per link per step) or from an
//     input buffer to the queue of its outgoing link, so a packet needs at
//     least two steps per node. By default a buffer accepts a packet in the
//     step its previous occupant moves to a queue (which always happens, the
//     queues being unbounded); with StrictBuffers a link may only send into
//     a buffer that is empty at the start of the step. The paper does not
//     say which; both readings are available.
//
// A packet that reaches stage n+r is delivered at once (outputs consume).
//
// Step is pure: it returns a new State and never modifies its input. It
// rejects actions the hardware cannot perform (two packets from one node in
// NodeQueue mode, two packets on one link, an index outside a queue, a send
// into an occupied buffer under StrictBuffers) with an error wrapping
// ErrAction. CheckInvariants verifies where every packet is against its
// path, and conservation.
//
// Router is the policy the step model runs, node by node, from what a node
// may know (its own queues and input buffers, the packet headers, the flow
// control of its outgoing links under StrictBuffers); RouteStep asks a
// Router for every node's sends and performs the step. The interface lives
// here rather than in routecheck/algos/butterfly because it is the model's
// contract: the View is exactly the local knowledge the model grants, and
// the translation of a node's Forward into the model's Send is where an
// illegal move is rejected — one home for that check, shared by the
// paper's router (algos/butterfly) and anyone else's (props/bflytest).
package butterfly
