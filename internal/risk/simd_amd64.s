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

// laneDraw's fields (lanes.go).
#define D_OFF 0
#define D_KIND 8
#define D_A 16
#define D_W 24
#define D_FC 32
#define D_Q0 40
#define D_Q1 48
#define D_B0 56
#define D_B1 64
#define D_NODES 72
#define D_SIZE 80

// CONSTANTS loads the samplers' constants: Z20-Z22 SplitMix64's γ and
// multipliers, Z23 0x1p-53, Z24 1, Z25 tabEdge, Z26 1-tabEdge, Z27
// tabCells, Z28 tabCells/tabEdge, Z29 tabExact, Z30 tabCells-tabExact
// (floats); Z31 tabCells-1, Z19 and Z18 the body's and hi part's first
// nodes (integers). Clobbers AX.
#define CONSTANTS \
	MOVQ $0x9e3779b97f4a7c15, AX; VPBROADCASTQ AX, Z20 \
	MOVQ $0xbf58476d1ce4e5b9, AX; VPBROADCASTQ AX, Z21 \
	MOVQ $0x94d049bb133111eb, AX; VPBROADCASTQ AX, Z22 \
	MOVQ $0x3ca0000000000000, AX; VPBROADCASTQ AX, Z23 \
	MOVQ $0x3ff0000000000000, AX; VPBROADCASTQ AX, Z24 \
	MOVQ $0x3f90000000000000, AX; VPBROADCASTQ AX, Z25 \
	MOVQ $0x3fef800000000000, AX; VPBROADCASTQ AX, Z26 \
	MOVQ $0x4090000000000000, AX; VPBROADCASTQ AX, Z27 \
	MOVQ $0x40f0000000000000, AX; VPBROADCASTQ AX, Z28 \
	MOVQ $0x4030000000000000, AX; VPBROADCASTQ AX, Z29 \
	MOVQ $0x408f800000000000, AX; VPBROADCASTQ AX, Z30 \
	MOVQ $1023, AX; VPBROADCASTQ AX, Z31 \
	MOVQ $1025, AX; VPBROADCASTQ AX, Z19 \
	MOVQ $2050, AX; VPBROADCASTQ AX, Z18

// UNIT steps the lanes' states Z0 and leaves rng.unit's draw in Z1:
// float64(SplitMix64 >> 11) * 0x1p-53. Clobbers Z2.
#define UNIT \
	VPADDQ Z20, Z0, Z0 \
	VPSRLQ $30, Z0, Z1 \
	VPXORQ Z0, Z1, Z1 \
	VPMULLQ Z21, Z1, Z1 \
	VPSRLQ $27, Z1, Z2 \
	VPXORQ Z1, Z2, Z1 \
	VPMULLQ Z22, Z1, Z1 \
	VPSRLQ $31, Z1, Z2 \
	VPXORQ Z1, Z2, Z1 \
	VPSRLQ $11, Z1, Z1 \
	VCVTUQQ2PD Z1, Z1 \
	VMULPD Z23, Z1, Z1

// The draws of the laneDraw at SI from u in Z1, into Z7 (clobbering
// Z2-Z8 and Z12, K1-K6); Z10 and Z11 hold a and w. The operations are
// lanes.go's, in its order (no fused multiply-add).

// UNIFORM: a + w*u.
#define UNIFORM \
	VMULPD Z11, Z1, Z7 \
	VADDPD Z10, Z7, Z7

// TRIANGULAR: u < fc: a + sqrt(u*w*(m-a)); else b - sqrt((1-u)*w*(b-m)).
#define TRIANGULAR \
	VBROADCASTSD D_FC(SI), Z12 \
	VCMPPD $1, Z12, Z1, K1 \
	VSUBPD Z1, Z24, Z2 \
	VMOVAPD Z1, K1, Z2 \
	VBROADCASTSD D_Q0(SI), Z3 \
	VBROADCASTSD D_Q1(SI), K1, Z3 \
	VBROADCASTSD D_B0(SI), Z4 \
	VBROADCASTSD D_B1(SI), K1, Z4 \
	VMULPD Z11, Z2, Z2 \
	VMULPD Z3, Z2, Z2 \
	VSQRTPD Z2, Z2 \
	VSUBPD Z2, Z4, Z7 \
	VADDPD Z2, Z4, K1, Z7

// PERT: qtable.at: x in the body (u*1024), lo (u*65536, K2) or hi
// ((u-(1-tabEdge))*65536, K3) part; i = min(int(x), 1023); q = n[i] +
// (x-i)*(n[i+1]-n[i]); the duration a + w*q. K5 gets the lanes in the
// exact cells (lo with x < 16, hi with x >= 1008), left to the caller.
// Clobbers DX.
#define PERT \
	MOVQ D_NODES(SI), DX \
	VCMPPD $1, Z25, Z1, K2 \
	VCMPPD $13, Z26, Z1, K3 \
	VMULPD Z27, Z1, Z2 \
	VMULPD Z28, Z1, K2, Z2 \
	VSUBPD Z26, Z1, Z3 \
	VMULPD Z28, Z3, K3, Z2 \
	VCVTTPD2QQ Z2, Z4 \
	VPMINSQ Z31, Z4, Z4 \
	VCVTQQ2PD Z4, Z5 \
	VSUBPD Z5, Z2, Z5 \
	VPADDQ Z19, Z4, Z6 \
	VMOVDQA64 Z4, K2, Z6 \
	VPADDQ Z18, Z4, K3, Z6 \
	KXNORW K4, K4, K4 \
	VGATHERQPD (DX)(Z6*8), K4, Z7 \
	KXNORW K4, K4, K4 \
	VGATHERQPD 8(DX)(Z6*8), K4, Z8 \
	VSUBPD Z7, Z8, Z8 \
	VMULPD Z8, Z5, Z8 \
	VADDPD Z8, Z7, Z7 \
	VMULPD Z11, Z7, Z7 \
	VADDPD Z10, Z7, Z7 \
	VCMPPD $1, Z29, Z2, K2, K5 \
	VCMPPD $13, Z30, Z2, K3, K6 \
	KORB K5, K6, K5

// func sample512(starts *[lanes]uint64, draws *laneDraw, n int, dur *float64, fix *uint8) (fixes int)
//
// Registers: Z0 the lanes' states; SI the draw, CX draws left, DI dur,
// R8 fix, R9 the fixes' OR.
TEXT ·sample512(SB), NOSPLIT, $0-48
	MOVQ starts+0(FP), AX
	VMOVDQU64 (AX), Z0
	MOVQ draws+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ dur+24(FP), DI
	MOVQ fix+32(FP), R8
	XORQ R9, R9
	CONSTANTS
	TESTQ CX, CX
	JEQ sdone

sdraw:
	UNIT
	MOVQ D_OFF(SI), BX
	MOVQ D_KIND(SI), DX
	VBROADCASTSD D_A(SI), Z10
	VBROADCASTSD D_W(SI), Z11
	CMPQ DX, $1
	JEQ striangular
	JGT spert
	UNIFORM
	JMP sstore

striangular:
	TRIANGULAR
	JMP sstore

spert:
	PERT
	KMOVB K5, DX
	MOVB DX, (R8)
	ORQ DX, R9

sstore:
	VMOVUPD Z7, (DI)(BX*1)
	ADDQ $D_SIZE, SI
	INCQ R8
	DECQ CX
	JNE sdraw

sdone:
	MOVQ R9, fixes+40(FP)
	VZEROUPPER
	RET

// func column512(starts *uint64, n int, skip uint64, d *laneDraw, out *uint64, fix *uint8) (fixes int)
//
// For iterations 0..n-1 (n a multiple of lanes), lanes at a time: the
// draw's duration in the iteration whose stream starts at starts[i]
// advanced by skip, as orderedBits of its float32, in out[i]; fix[i/lanes]
// gets a PERT draw's lanes in exact cells (see sample512).
// Registers: Z0 the lanes' states, Z9 skip, Z13 0x80000000 (32-bit);
// R10 the kind; SI the draw, CX groups left, BX starts, DI out, R8 fix,
// R9 the fixes' OR.
TEXT ·column512(SB), NOSPLIT, $0-56
	MOVQ starts+0(FP), BX
	MOVQ n+8(FP), CX
	SHRQ $3, CX
	VPBROADCASTQ skip+16(FP), Z9
	MOVQ d+24(FP), SI
	MOVQ out+32(FP), DI
	MOVQ fix+40(FP), R8
	XORQ R9, R9
	CONSTANTS
	MOVL $0x80000000, AX
	VPBROADCASTD AX, Z13
	MOVQ D_KIND(SI), R10
	VBROADCASTSD D_A(SI), Z10
	VBROADCASTSD D_W(SI), Z11
	TESTQ CX, CX
	JEQ cdone

cgroup:
	VMOVDQU64 (BX), Z0
	VPADDQ Z9, Z0, Z0
	UNIT
	CMPQ R10, $1
	JEQ ctriangular
	JGT cpert
	UNIFORM
	JMP cstore

ctriangular:
	TRIANGULAR
	JMP cstore

cpert:
	PERT
	KMOVB K5, DX
	MOVB DX, (R8)
	ORQ DX, R9

cstore:
	// orderedBits(float32(x)): b ^ 0x80000000, and for negative b
	// (sign bit set) also ^ 0x7fffffff: ^b.
	VCVTPD2PS Z7, Y7
	VPSRAD $31, Y7, Y8
	VPXOR Y13, Y7, Y7
	VPANDN Y8, Y13, Y8
	VPXOR Y8, Y7, Y7
	VPMOVZXDQ Y7, Z7
	VMOVDQU64 Z7, (DI)
	ADDQ $64, BX
	ADDQ $64, DI
	INCQ R8
	DECQ CX
	JNE cgroup

cdone:
	MOVQ R9, fixes+48(FP)
	VZEROUPPER
	RET

// walkArgs's fields (simd_amd64.go).
#define W_ORDER 0
#define W_POS 8
#define W_ISEND 16
#define W_START 24
#define W_MID 32
#define W_LINKS 40
#define W_T 48
#define W_DUR 56
#define W_TF 64
#define W_MARK 72
#define W_WORDS 80
#define W_CRIT 88

// LESSD takes d off an FF or SF link's bound; NOD is its place for FS and
// SS links (s + lag - 0·d is s + lag).
#define LESSD VSUBPD Z2, Z4, Z4
#define NOD

// WALKLINK is one link of walk's inner loop, CX pointing at it; DOK is
// LESSD or NOD: cand = x + (es - (s + lag - k·d)) in Z4; if some lane is within
// schedule.Epsilon, the link's source u gets cand as its float (first
// time, unless an end) or the lanes' minimum with its float, and is
// marked. Clobbers AX, BX, R12, R14, R15, Z4, K3.
#define WALKLINK(DOK, NEXT) \
	MOVLQSX (CX), BX \
	MOVQ BX, R12 \
	SHLQ $6, R12 \
	VBROADCASTSD 8(CX), Z4 \
	VADDPD (SI)(R12*1), Z4, Z4 \
	DOK \
	VSUBPD Z4, Z3, Z4 \
	VADDPD Z4, Z1, Z4 \
	VCMPPD $2, Z30, Z4, K3 \
	KORTESTB K3, K3 \
	JEQ NEXT \
	SHRQ $1, BX \
	MOVQ W_POS(R11), R12 \
	MOVLQSX (R12)(BX*4), R12 \
	MOVQ R12, R14 \
	SHRQ $6, R14 \
	MOVQ (R8)(R14*8), R15 \
	MOVQ BX, AX \
	SHLQ $6, AX \
	BTQ R12, R15 \
	JCS 4(PC) \
	MOVQ W_ISEND(R11), DX \
	CMPB (DX)(BX*1), $0 \
	JEQ 2(PC) \
	VMINPD (DI)(AX*1), Z4, Z4 \
	VMOVUPD Z4, (DI)(AX*1) \
	BTSQ R12, R15 \
	MOVQ R15, (R8)(R14*8)

// func walk512(a *walkArgs, live uint8)
//
// Registers: R11 a; SI t, DI tf, R8 mark, R9 links, R10 dur; R13 the
// mark word; Z0 x, Z1 x with +Inf outside the critical lanes, Z2 d, Z3
// es; Z30 schedule.Epsilon, Z31 +Inf; K7 the live lanes.
TEXT ·walk512(SB), NOSPLIT, $0-9
	MOVQ a+0(FP), R11
	MOVBLZX live+8(FP), AX
	KMOVB AX, K7
	MOVQ W_T(R11), SI
	MOVQ W_TF(R11), DI
	MOVQ W_MARK(R11), R8
	MOVQ W_LINKS(R11), R9
	MOVQ W_DUR(R11), R10
	MOVQ $0x3eb0c6f7a0b5ed8d, AX // schedule.Epsilon = 1e-6
	VPBROADCASTQ AX, Z30
	MOVQ $0x7ff0000000000000, AX // +Inf
	VPBROADCASTQ AX, Z31
	MOVQ W_WORDS(R11), R13

wword:
	DECQ R13
	JLT wdone

wbit:
	MOVQ (R8)(R13*8), BX
	TESTQ BX, BX
	JEQ wword
	BSRQ BX, CX
	BTRQ CX, BX
	MOVQ BX, (R8)(R13*8)
	MOVQ R13, AX
	SHLQ $6, AX
	ADDQ CX, AX
	MOVQ W_ORDER(R11), BX
	MOVLQSX (BX)(AX*4), AX // v
	// The lanes where v is critical count; the others get +Inf.
	MOVQ AX, R12
	SHLQ $6, R12
	VMOVUPD (DI)(R12*1), Z0
	VCMPPD $2, Z30, Z0, K1 // LE_OS
	KANDB K1, K7, K2
	KMOVB K2, DX
	POPCNTL DX, DX
	MOVQ W_CRIT(R11), BX
	ADDL DX, (BX)(AX*4)
	VMOVAPD Z31, Z1
	VMOVAPD Z0, K1, Z1
	VMOVUPD Z1, (DI)(R12*1)
	VMOVUPD (R10)(R12*1), Z2
	MOVQ AX, R12
	SHLQ $7, R12
	VMOVUPD (SI)(R12*1), Z3
	// Its incoming links: FF and SF (start..mid), then FS and SS.
	MOVQ W_START(R11), BX
	MOVLQSX (BX)(AX*4), CX
	MOVLQSX 4(BX)(AX*4), R12
	MOVQ W_MID(R11), BX
	MOVLQSX (BX)(AX*4), BX
	SUBQ BX, R12 // FS and SS links
	SUBQ CX, BX  // FF and SF links
	SHLQ $4, CX
	ADDQ R9, CX
	// The links' counts wait in X5 and X6 (the GPRs are all in use).
	MOVQ R12, X5
	TESTQ BX, BX
	JEQ wfs

wff:
	MOVQ BX, X6
	WALKLINK(LESSD, wffnext)
wffnext:
	MOVQ X6, BX
	ADDQ $16, CX
	DECQ BX
	JNE wff

wfs:
	MOVQ X5, BX
	TESTQ BX, BX
	JEQ wbit

wfsl:
	MOVQ BX, X6
	WALKLINK(NOD, wfsnext)
wfsnext:
	MOVQ X6, BX
	ADDQ $16, CX
	DECQ BX
	JNE wfsl
	JMP wbit

wdone:
	VZEROUPPER
	RET

// func normal512(states *[lanes]uint64, draws *normDraw, n int, dur *float64, zigW *float64, zigK *uint32, fail *uint8) (done int)
//
// Per activity, in every lane: u = SplitMix64; j = int32(u), i = u>>32 &
// 0x7f; z = float64(j) * zigW[i], kept if |j| < zigK[i]; y = a + b*z,
// kept if y >= 0. Registers: Z0 the states, SI the draw, CX draws left,
// DI dur, R8 zigW, R9 zigK, DX done; Z20-Z22 SplitMix64's constants, Z23
// 0x7f, Z24 zero.
TEXT ·normal512(SB), NOSPLIT, $0-64
	MOVQ states+0(FP), AX
	VMOVDQU64 (AX), Z0
	MOVQ draws+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ dur+24(FP), DI
	MOVQ zigW+32(FP), R8
	MOVQ zigK+40(FP), R9
	XORQ DX, DX
	MOVQ $0x9e3779b97f4a7c15, AX
	VPBROADCASTQ AX, Z20
	MOVQ $0xbf58476d1ce4e5b9, AX
	VPBROADCASTQ AX, Z21
	MOVQ $0x94d049bb133111eb, AX
	VPBROADCASTQ AX, Z22
	MOVQ $0x7f, AX
	VPBROADCASTQ AX, Z23
	VPXORQ Z24, Z24, Z24
	XORQ AX, AX // no lane failed
	TESTQ CX, CX
	JEQ ndone

ndraw:
	VPADDQ Z20, Z0, Z0
	VPSRLQ $30, Z0, Z1
	VPXORQ Z0, Z1, Z1
	VPMULLQ Z21, Z1, Z1
	VPSRLQ $27, Z1, Z2
	VPXORQ Z1, Z2, Z1
	VPMULLQ Z22, Z1, Z1
	VPSRLQ $31, Z1, Z2
	VPXORQ Z1, Z2, Z1 // u
	VPMOVQD Z1, Y2    // j = int32(u)
	VCVTDQ2PD Y2, Z3
	VPSRLQ $32, Z1, Z4
	VPANDQ Z23, Z4, Z4 // i
	KXNORW K1, K1, K1
	VGATHERQPD (R8)(Z4*8), K1, Z5
	VMULPD Z5, Z3, Z3 // z = float64(j) * zigW[i]
	KXNORW K1, K1, K1
	VPGATHERQD (R9)(Z4*4), K1, Y7
	VPABSD Z2, Z6
	VPCMPUD $1, Z7, Z6, K2 // |j| < zigK[i] (low 8 lanes)
	VBROADCASTSD 16(SI), Z8
	VMULPD Z3, Z8, Z8
	VBROADCASTSD 8(SI), Z10
	VADDPD Z8, Z10, Z8 // y = a + b*z
	VCMPPD $13, Z24, Z8, K2, K3 // and y >= 0 (GE_OS)
	MOVQ 0(SI), BX
	VMOVUPD Z8, K3, (DI)(BX*1)
	KMOVB K3, AX
	XORQ $0xff, AX
	JNE ndone
	INCQ DX
	ADDQ $24, SI
	DECQ CX
	JNE ndraw

ndone:
	MOVQ fail+48(FP), BX
	MOVB AX, (BX)
	MOVQ states+0(FP), AX
	VMOVDQU64 Z0, (AX)
	MOVQ DX, done+56(FP)
	VZEROUPPER
	RET
