// Package multibutterfly is the batched priority routing of Upfal, "An
// O(log N) Deterministic Packet-Routing Scheme" (seed 004_8aa7b4c265a7324b.txt,
// §3.2), on the step model routecheck/models/multibutterfly.
//
// The algorithm, as stated:
//   - Batches: packets are split into L = ⌈1/(α(β+1))⌉ batches; batch k,
//     B(k), is the packets whose destination q has q mod L = k. B(k) has
//     priority over every B(j), j > k. (BatchesFor computes L; the routing
//     itself only needs L.)
//   - Iterations t = 1, 2, …: in odd iterations the edges leaving odd stages
//     are active, in even iterations the edges leaving even stages (our
//     reading of "edges connecting odd stages to even stages": edges point
//     forward, so they leave the odd stage; this is also how Claim 3.2's
//     proof uses it — "let s be odd; in iteration t−1 [odd] stage s is
//     sending"). So iteration 1 moves nothing out of the inputs.
//   - An iteration is 2d steps; step c activates the active edges of colour
//     c (each splitter carries a proper 2d-colouring), so one line per node.
//   - When edge v→u is activated: let p be the packet of highest priority
//     that v currently stores, from B(k). If u stores no packet of B(k) and
//     the edge leads to the output set p needs (bit comparison), p moves to
//     u. Only p is considered (literal reading of "if the packet with the
//     highest priority in v is from B(k) … then that packet can be sent"; a
//     lower-priority packet never overtakes it on another edge). "Currently"
//     is read per step: after p leaves, v's next packet is its highest.
//   - Nodes at stage log N keep what they receive (delivered).
//
// The paper's guarantee that no node ever holds more than L packets follows
// because a node never holds two packets of one batch; both are checked by
// Run (Options.Check) and by the claims in routecheck/props.
//
// RunComm is the §4.2 scheme on the §4.1 network (readings in comm.go):
// batches by destination row and column mod ⌈1/α⌉, exchanges toward lower
// priority along edges on the forward packet's route.
//
// Priority is the same §3.2 rule as a models/multibutterfly Router, decided
// node by node from local views (checked against Run position by position),
// so the conformance suite routecheck/props/mbflytest runs it exactly as it
// runs anyone's router.
//
// Run is a fast engine (fast.go, Engine) on flat arrays of its own; with
// Options.Check every step's moves also go through the model, which
// validates them (one line per node, one packet per edge, buffer ≤ L), and
// the model's invariants are checked. The loop that steps the model every
// step (runStepModel) stays as the engine's reference: the differential test
// TestEngineMatchesStepModel holds them to the same results, states and
// errors. Run is deterministic: the algorithm has no random choices;
// randomness only enters through the network (its random splitters).
package multibutterfly
