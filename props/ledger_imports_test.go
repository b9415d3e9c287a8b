package props_test

// Every network's claims package, imported for its registrations: `go
// test ./props` runs the whole ledger.
import (
	_ "routecheck/props/bfly"
	_ "routecheck/props/mbfly"
	_ "routecheck/props/mesh"
	_ "routecheck/props/pops"
	_ "routecheck/props/sortnet"
	_ "routecheck/props/sot"
)
