//go:build mutation

package popsdet

// mutationBuild is set by the build tag "mutation", which `make mutation`
// passes to gremlins: every mutant then runs this package's tests at their
// -short sizes (under a second instead of about 8 s). See short.
const mutationBuild = true
