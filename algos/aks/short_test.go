package aks

import "testing"

// short reports whether the tests run at their reduced sizes: under
// -short, or in a build with the tag "mutation" (gremlins cannot pass
// -short to the tests it runs, but it passes build tags). The reduced sizes
// run the same assertions on smaller n.
func short() bool { return testing.Short() || mutationBuild }
