// Package mesh holds the claims of the mesh paper (seed 003: k-k routing
// on meshes and tori, ALLOCATE, Theorems 1–3 and their lemmas), their
// property bodies and the k-k generators (GenKK, KKFamilies) that
// internal/meshexp and internal/meshhunt share. Its init functions
// register the claims in the props registry; import it (blank) to add
// them to a ledger.
package mesh
