package main

// The claims packages, one per network, imported for the claims their init
// functions register: the ledger `routecheck claims` prints is every claim
// registered here.
import (
	_ "routecheck/props/bfly"
	_ "routecheck/props/mbfly"
	_ "routecheck/props/mesh"
	_ "routecheck/props/pops"
	_ "routecheck/props/sortnet"
	_ "routecheck/props/sot"
)
