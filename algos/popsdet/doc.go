// Package popsdet holds the deterministic POPS(d, g) routers of §II-A of
// 000_de3be866f009217f.txt, run on the slot model routecheck/models/pops.
//
// Theorem 2.1 (off-line routing, after the paper's reference [13]): any
// permutation π of the n = dg processors is routed in 1 slot when d = 1 and in
// 2⌈d/g⌉ slots when d > 1. NewPlan computes the schedule and Run executes it
// slot by slot through pops.Step, which enforces the physics; every packet is
// dropped by its sender in the slot it is sent, so a coupler conflict would
// show up as a lost packet, never be silently repaired.
//
//   - d = 1: every group is one processor; processor i sends its packet over
//     c(π(i), i) and processor π(i) listens to it. Distinct packets use
//     distinct couplers.
//   - d > 1: the group multigraph has an edge group(p) → group(π(p)) for every
//     packet p; it is d-regular and bipartite. It is coloured properly and
//     equitably with k = g⌈d/g⌉ ≥ d colours (models/bipartite.Equitable:
//     König, then de Werra balancing), so every colour class has at most
//     ⌈d/⌈d/g⌉⌉ ≤ d packets. Colour c = r·g + h means: in round r (slots 2r+1
//     and 2r+2) the packet goes from its source group a over c(h, a) to a
//     relay processor of group h, and from there over c(group(π(p)), h) to
//     its destination. In a round the packets of one source group have
//     different colours, hence different relay groups (no conflict in the
//     first slot); the packets into one destination group have different
//     relay groups (no conflict in the second slot); a relay group receives at
//     most d packets, one per listener, and each relay sends one packet.
//     When g divides d every class is a perfect matching of g packets — the
//     batching of d colours in groups of g. When d < g there is one round and
//     every class has exactly d packets: the equitable colouring is what
//     makes d < g work in 2 slots.
//
// Lemma 2.2: a comparator stage is simulated by routing its exchange
// permutation (π(i) = j and π(j) = i for every comparator [i:j], extended by
// fixed points, or by any permutation the caller gives) with Theorem 2.1's
// schedule; processor i keeps the minimum and j the maximum.
//
// Corollary 2.4, direct version: SortRouter sorts the packets by destination
// with any comparator network on n = dg wires, one stage at a time by Lemma
// 2.2; if the network sorts, the packet for destination j ends at processor
// j after Depth · (1 or 2⌈d/g⌉) slots. The schedules depend only on the
// network, never on π, so the router is on-line — and so is each stage's
// run on the slot model, which SortRouter therefore performs once per stage
// (on the first Route that reaches it) and reuses for every permutation;
// each Route only applies the comparators to its keys. This is not the route of
// the paper's proof, which plugs a POPS(g, g) sorter (Theorem 2.3, the AKS
// network) into Stage 1 of the algorithm of its reference [8]; with the AKS
// network on n wires the direct version gives O((d/g) log n) slots, the same
// order as Corollary 2.4's O((d/g) log g) when d = O(g^c).
package popsdet
