package sortnet

// applyLanes applies the comparators cs to the interleaved inputs v: for
// each comparator c, wires i = c & 0xffff and j = c >> 16, rows v[i] and
// v[j] become their lane-wise minimum and maximum (VPMINSD, VPMAXSD). The
// wire indices are 16 bits, so every row is inside v. It needs AVX2
// (lanesKernel).
//
//go:noescape
func applyLanes(v *lanes, cs []uint32)

// cpuid and xgetbv run the instructions of those names (ECX = 0 for
// xgetbv: the XCR0 register).
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
func xgetbv() (eax, edx uint32)

// haveLanesKernel reports AVX2 usable: the CPU has AVX and AVX2 (CPUID
// leaves 1 and 7) and the operating system saves the YMM registers (OSXSAVE,
// and XCR0's SSE and AVX state bits), as Go's internal/cpu decides it.
func haveLanesKernel() bool {
	if maxID, _, _, _ := cpuid(0, 0); maxID < 7 {
		return false
	}
	const osxsave, avx = 1 << 27, 1 << 28
	if _, _, ecx1, _ := cpuid(1, 0); ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 {
		return false
	}
	const avx2 = 1 << 5
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&avx2 != 0
}
