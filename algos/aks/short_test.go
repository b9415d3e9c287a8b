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

// aksLong adds the measurement-only sizes that cost most and assert nothing
// the default run does not (TestExpanderFindings at n = 2^14).
var aksLong = flag.Bool("aks.long", false, "TestExpanderFindings: also n = 2^14 (d = 8, 12, 16)")
