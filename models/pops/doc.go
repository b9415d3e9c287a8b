// Package pops is the slot model of the Partitioned Optical Passive Star
// network POPS(d, g) of Mei & Rizzi (seed 000_de3be866f009217f.txt, §I).
//
// There are n = d·g processors; processor i belongs to group ⌊i/d⌋. For every
// ordered pair of groups (b, a) a coupler c(b, a) takes the d processors of
// group a as sources and the d processors of group b as destinations. In one
// slot every processor sends at most one message, to any non-empty subset of
// the couplers c(b, group(i)), and listens to at most one coupler
// c(group(i), a). A coupler with exactly one sender delivers its message to
// every processor listening to it; a coupler with two or more senders
// delivers nothing (a conflict).
//
// Step is pure: it never mutates its input state, and the same state and
// actions always give the same next state and events. Actions that the
// hardware cannot perform (an index to a packet the processor does not hold,
// a coupler that does not exist, a packet and an ack in the same slot) are
// rejected with an error; everything else — conflicts, lost packets,
// duplicate deliveries — is reported as events, never repaired. Packets are
// numbered by their source processor: packet p starts at processor p.
package pops
