package aks

import (
	"flag"
	"testing"
)

// short reports whether the tests run at their reduced sizes: under
// -short, or in a build with the tag "mutation" (gremlins cannot pass
// -short to the tests it runs, but it passes build tags). The reduced sizes
// run the same assertions on smaller n.
func short() bool { return testing.Short() || mutationBuild }

// aksLong adds the sizes that cost most: the measurement-only
// TestExpanderFindings rows at n = 2^14 (they assert nothing the default
// run does not) and TestExactSortsExhaustive at n = 25, 26 (the same
// assertions in a size regime n = 17..24 already reaches).
var aksLong = flag.Bool("aks.long", false, "TestExpanderFindings: also n = 2^14 (d = 8, 12, 16); TestExactSortsExhaustive: n up to 26 (default 24)")
