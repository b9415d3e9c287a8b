// Package mbflynaive is a deliberately naive second implementation of the
// batched priority routing of Upfal (seed 004_8aa7b4c265a7324b.txt, §3.2),
// written straight from the text for differential testing of
// routecheck/algos/multibutterfly. It does not use the step model: it keeps
// a list of packets per node, scans the nodes one by one in every step, and
// applies the step's sends after the scan.
//
// The rule it implements (the same readings as algos/multibutterfly):
// iteration t activates the edges leaving stages s with s ≡ t (mod 2); step
// c of the 2d steps activates colour c; on edge v→u the highest-priority
// packet p of v (lowest destination mod L) moves if the edge goes to the
// output set p's destination bit names and u holds no packet of p's batch.
package mbflynaive
