package sortnet

import "golang.org/x/sys/cpu"

// applyLanes applies the comparators cs to the interleaved inputs v: for
// each comparator c, wires i = c & 0xffff and j = c >> 16, rows v[i] and
// v[j] become their lane-wise minimum and maximum (VPMINSD, VPMAXSD). The
// wire indices are 16 bits, so every row is inside v. It needs AVX2
// (lanesKernel).
//
//go:noescape
func applyLanes(v *lanes, cs []uint32)

// haveLanesKernel reports AVX2 usable (the CPU has it and the operating
// system saves the YMM registers), as golang.org/x/sys/cpu decides it.
func haveLanesKernel() bool { return cpu.X86.HasAVX2 }
