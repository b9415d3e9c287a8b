// Package popsnaive is a deliberately naive second implementation of the
// POPS(d, g) slot model of package routecheck/models/pops. It exists only to
// be compared with pops.Step (differential properties in routecheck/props,
// the gopter commands test and the fuzz targets in routecheck/fuzz); nothing
// should route packets with it.
//
// It is written to be obviously right rather than fast, straight from the
// physics in the pops package doc and without reusing any of pops.Step's
// logic (only its data types and the ErrActions sentinel):
//
//   - every action is checked against a flat list of rules;
//   - for every coupler c(b, a) it loops over all n processors and counts
//     those in group a that send a message to group b: one sender means the
//     coupler carries that message, two or more mean a conflict;
//   - every listener then reads its coupler; a packet message is stored as a
//     Copy (KeepAll) or, at the packet's destination, as Delivered (KeepOwn);
//   - drops remove buffer entries named by their index at the start of the
//     slot, and finally every undelivered packet with no Original or Copy
//     left anywhere is marked lost.
//
// Cost is Θ(g²·n·g) per slot: fine for the small shapes the properties use,
// hopeless for real networks. Step is pure: it never mutates its arguments
// and allocates a fresh next state.
package popsnaive
