//go:build mutation

package aks

// mutationBuild is set by the build tag "mutation", which `make mutation`
// passes to gremlins: every mutant then runs this package's tests at their
// -short sizes (about 15 s instead of 80 s). The -short sizes keep every
// assertion; see short.
const mutationBuild = true
