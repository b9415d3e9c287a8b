#include "textflag.h"

// func applyLanes(v *lanes, cs []uint32)
TEXT ·applyLanes(SB), NOSPLIT, $0-32
	MOVQ v+0(FP), DI
	MOVQ cs_base+8(FP), SI
	MOVQ cs_len+16(FP), CX
	TESTQ CX, CX
	JEQ done

loop:
	MOVL (SI), AX
	MOVL AX, BX
	ANDL $0xffff, AX   // wire i
	SHRL $16, BX       // wire j
	SHLQ $5, AX        // row offsets: 32 bytes a row
	SHLQ $5, BX
	VMOVDQU (DI)(AX*1), Y0
	VMOVDQU (DI)(BX*1), Y1
	VPMINSD Y1, Y0, Y2
	VPMAXSD Y1, Y0, Y3
	VMOVDQU Y2, (DI)(AX*1)
	VMOVDQU Y3, (DI)(BX*1)
	ADDQ $4, SI
	DECQ CX
	JNE loop
	VZEROUPPER

done:
	RET

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET
