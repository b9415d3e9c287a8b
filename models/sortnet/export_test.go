package sortnet

// Hooks for the external tests (package sortnet_test), which build
// networks with routecheck/algos (an import the package's own tests cannot
// make).

// SetLanesKernel turns ApplyMany's lanes kernel on (where the CPU has it)
// or off, and returns what restores the setting.
func SetLanesKernel(on bool) (restore func()) {
	old := lanesKernel
	lanesKernel = on && haveLanesKernel()
	return func() { lanesKernel = old }
}

// HaveLanesKernel reports that the CPU runs the lanes kernel.
func HaveLanesKernel() bool { return haveLanesKernel() }

// SetPackedChunk sets the chunk length (of the networks packed and
// evaluated until it is restored) and returns what restores it.
func SetPackedChunk(m int) (restore func()) {
	old := packedChunk
	packedChunk = m
	return func() { packedChunk = old }
}
