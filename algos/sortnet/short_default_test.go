//go:build !mutation

package sortnet

// mutationBuild is false in ordinary builds; see short_mutation_test.go.
const mutationBuild = false
