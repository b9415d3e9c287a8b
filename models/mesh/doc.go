// Package mesh models store-and-forward routing on meshes
// (003_8774480fe7c747cc.txt §1–2): in a step every processing unit (PU) may
// send one packet over each of its links; queues are unbounded and their
// maximum is tracked.
//
// So far it holds the one-dimensional case, the linear array of n PUs
// indexed 0…n−1 from left to right (Linear, StepLinear), which is what every
// row and column phase of the paper's algorithms runs on. The n×n mesh is
// the next step of issue 4.
package mesh
