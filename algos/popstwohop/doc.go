// Package popstwohop holds deterministic two-hops algorithms for POPS(d, g)
// (000_de3be866f009217f.txt §II-B, properties 1–6) and runs them on the slot
// model (routecheck/models/pops). They exist to be attacked by the marking
// construction of Theorem 2.12 (routecheck/oracles/popslower).
//
// A deterministic two-hops algorithm is a pair of functions of the processor
// index i and the slot t only: Out(i, t), for odd t, is the group i shoots
// its A-buffer packet at; In(i, t), for every t, is the group i listens to
// (coupler c(group(i), In(i, t))).
//
// # How properties 1–6 are mapped onto the slot model
//
//   - The A-buffer of processor i is the Original item of packet p_i in the
//     model buffer; it stays there until p_i is routed (property 2, and 6's
//     "from the original A-buffer as well").
//   - Odd slot t (property 3): every processor whose A-buffer still holds a
//     packet sends it (unicast, To = [Out(i, t)]) without dropping it; every
//     processor listens to In(i, t) with KeepAll. A packet received by a
//     processor outside its destination group is its B-buffer content (a
//     Copy item); received inside its destination group it is routed (below).
//   - Even slot t (property 4): every processor with a B-buffer packet sends
//     it to its destination group (To = [group(dst)]) and drops it in the
//     same slot (the B-buffer reset); every processor listens to In(i, t)
//     with KeepAll. Everything received in an even slot is routed (all
//     even-slot messages travel to their destination group).
//   - Conflicts (property 5) are the model's: a coupler with two senders
//     delivers nothing. Two processors listening to the same coupler both
//     receive (and, as relays, both send in the next even slot — on the same
//     coupler, so they collide with each other: the model's physics).
//   - Routing (property 6) is delivery bookkeeping in the algorithm, not the
//     model's Delivered flag (which needs the exact destination processor):
//     when a packet p is received by any processor of group(dst[p]), Run
//     records RoutedAt[p] = t. The receiving processor keeps that copy (a
//     Copy item outside both buffers, so the model's conservation check is
//     satisfied); at the next slot the source drops its Original without
//     sending it, so a routed packet disappears from the network and causes
//     no further conflicts. This is a global oracle ("we don't have to take
//     care of acks"), as the paper's hypothesis grants.
//   - A packet whose source already lies in its destination group is routed
//     at slot 0 (RoutedAt = 0, Routed = true) and never sent: property 6 read
//     generously, which is the safe reading for a lower bound.
package popstwohop
