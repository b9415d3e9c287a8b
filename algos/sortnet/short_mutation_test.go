//go:build mutation

package sortnet

// mutationBuild is set by the build tag "mutation", which `make mutation`
// passes to gremlins: every mutant then runs this package's tests at their
// -short sizes (about 5 s instead of 42 s). The -short sizes keep every
// assertion; see short.
const mutationBuild = true
