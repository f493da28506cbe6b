#include "textflag.h"

// func forward512(t, dur *float64, order *int32, n int, start, mid *int32, links *plink, fin *[lanes]float64)
//
// Registers: DI t, SI dur, R8 order, CX activities left, R9 start,
// R10 mid, R11 links; Z0 the maximum, Z1 a link's bound, Z2 d,
// Z6 zero, Z7 the finish.
TEXT ·forward512(SB), NOSPLIT, $0-64
	MOVQ t+0(FP), DI
	MOVQ dur+8(FP), SI
	MOVQ order+16(FP), R8
	MOVQ n+24(FP), CX
	MOVQ start+32(FP), R9
	MOVQ mid+40(FP), R10
	MOVQ links+48(FP), R11
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	TESTQ CX, CX
	JEQ done

activity:
	MOVLQSX (R8), AX           // v
	ADDQ $4, R8
	MOVLQSX (R9)(AX*4), BX     // lo
	MOVLQSX (R10)(AX*4), DX    // mi
	MOVLQSX 4(R9)(AX*4), R12   // hi
	MOVQ AX, R13
	SHLQ $6, R13
	VMOVUPD (SI)(R13*1), Z2    // d
	VPXORQ Z0, Z0, Z0
	MOVQ BX, R14
	SHLQ $4, R14
	ADDQ R11, R14              // &links[lo]
	SUBQ DX, R12               // FS and SS links: hi - mi
	SUBQ BX, DX                // FF and SF links: mi - lo
	JEQ fsss

ffsf:
	MOVLQSX (R14), BX          // at
	SHLQ $6, BX
	VBROADCASTSD 8(R14), Z1    // lag
	VADDPD (DI)(BX*1), Z1, Z1
	VMAXPD Z0, Z1, Z0          // Z0 = Z1 > Z0 ? Z1 : Z0
	ADDQ $16, R14
	DECQ DX
	JNE ffsf
	VSUBPD Z2, Z0, Z0
	VMAXPD Z6, Z0, Z0          // Z0 = Z0 > 0 ? Z0 : +0

fsss:
	TESTQ R12, R12
	JEQ store

fsssloop:
	MOVLQSX (R14), BX
	SHLQ $6, BX
	VBROADCASTSD 8(R14), Z1
	VADDPD (DI)(BX*1), Z1, Z1
	VMAXPD Z0, Z1, Z0
	ADDQ $16, R14
	DECQ R12
	JNE fsssloop

store:
	SHLQ $7, AX
	VMOVUPD Z0, (DI)(AX*1)     // ES
	VADDPD Z2, Z0, Z0
	VMOVUPD Z0, 64(DI)(AX*1)   // EF
	VMAXPD Z7, Z0, Z7
	DECQ CX
	JNE activity

done:
	MOVQ fin+56(FP), AX
	VMOVUPD Z7, (AX)
	VZEROUPPER
	RET
