// Package sot is the step model of the sparse optical torus SOT(n) of
// Honkanen, Leppänen & Penttonen (seed 002_59e118519f43b14a.txt, §2.1–2.2).
//
// Topology. Positions are (i, j) with 0 ≤ i, j < n; node index v = i·n + j.
// Processor P_x sits at (x, n−1−x); every other position holds a 2×2 optical
// deflection node R_{i,j}. Every node has two unidirectional output links:
//
//	Right: (i, j) → (i, j+1 mod n)   (changes the column j)
//	Down:  (i, j) → (i+1 mod n, j)   (changes the row i)
//
// and so two inputs, "from the left" (from (i, j−1)) and "from up" (from
// (i−1, j)). The names are our reading of the paper, fixed by its protocols:
// Greedy-a sends a packet "right until it reaches its target column" and its
// test for the target column compares the packet's second coordinate m with
// the node's j, so "right" changes j; "down" is then the other link, and a
// packet "came from up" when it arrived over the Down link of (i−1, j). A
// packet is named by its target processor; its target position is
// (x, n−1−x) as in the paper's packets (x, y), x + y = n − 1.
//
// Physics (enforced by Step, never by an algorithm):
//   - one packet per link per step, one step per hop;
//   - hot potato: every packet that entered a node leaves it in the next step,
//     on exactly one output; nothing is stored, dropped or duplicated;
//   - a packet arriving at its target processor is absorbed on arrival (it is
//     delivered at the end of the step that carried it there and never sits
//     at its target); a packet arriving at any other processor passes
//     through like at a deflection node;
//   - only processors inject, only their own not-yet-injected packets, and
//     only onto outputs the passing packets leave free — so a processor with
//     two passing packets cannot inject, one with one passing packet injects
//     at most one (§1: "own packets can be sent only when there are less
//     than two incoming packets").
//
// A state is the set of packets on the links (at most one per node input),
// which packets were injected and which delivered, and the step counter T.
// The h-relation itself (packet k goes from Rel[k].Src to Rel[k].Dst) is
// immutable and shared between states. Step is pure: it never modifies its
// input, and the same state and actions always give the same next state and
// the same events. StepInto writes into a caller-owned destination state and
// event buffer so that long runs do not allocate per step; it is the same
// function.
//
// Actions that the hardware cannot perform are rejected with an error
// wrapping ErrAction: a node that keeps or duplicates a packet, routes a
// packet it does not have, a deflection node that injects, a processor that
// injects a packet that is not its own or was already sent, and so on.
// Deflections — a packet leaving on a link that does not take it closer to
// its target — are legal; they are reported as events.
//
// Routers. Router is the contract between this model and any algorithm:
// a node's local View (its position, the step counter, the packets on its
// two inputs with their targets, and at a processor its own unsent
// packets) and a *rand.Rand in, its Action out. Decide asks a Router for
// every node's action; Step then checks and performs them. The paper's
// algorithms implement it in routecheck/algos/sot (Local), and the
// conformance suite routecheck/props/sottest runs any Router on this model.
//
// Distances. From (i, j) to the target position (x, y) of a packet the
// distance is ((x−i) mod n) + ((y−j) mod n): Down is good when the first
// term is positive, Right when the second is. A packet injected at its own
// processor (a self-addressed packet, which must circle the torus) counts
// as at distance n with both links good. Every hop changes i + j by one, so
// a packet injected at step τ is, at step T, on the anti-diagonal
// i + j ≡ n − 1 + (T − τ) (mod n) and at distance n·(1 + deflections) −
// (T − τ) from its target; CheckInvariants verifies both.
package sot
