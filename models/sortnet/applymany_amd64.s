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
