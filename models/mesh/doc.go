// Package mesh models store-and-forward routing on meshes
// (003_8774480fe7c747cc.txt §1–2): in a step every processing unit (PU) may
// send one packet over each of its links; queues are unbounded and their
// maximum is tracked.
//
// It holds two step models. The linear array of n PUs indexed 0…n−1 from
// left to right (Linear, StepLinear) is what every row and column phase of
// the paper's algorithms runs on; packets are delivered on arrival. The n×n
// mesh (Grid, StepGrid), optionally with wrap-around links (a torus),
// carries items that keep their place until moved (an algorithm decides
// when an item has reached its phase target): PU (i, j) is row i, column j,
// counted from the lower-left corner, and queues are indexed row-major.
// Both steps are pure (the input state is never modified), reject what the
// hardware cannot do with an error wrapping ErrAction (an index outside the
// queue, one packet sent over two links, a send over a missing link) and
// conserve packets (CheckConservation states it, and the conformance suite
// props/meshtest checks it after every step).
// Router is the contract between the grid model and an algorithm: what a
// PU knows (View: its place, the shape, the clock, its own queue) in, its
// Moves out, randomness as an argument; Decide collects every PU's moves.
// Algorithms live in algos/mesh.
package mesh
