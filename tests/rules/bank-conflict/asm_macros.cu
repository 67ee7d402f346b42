// Inline PTX wrapped in macros, as real kernels write it (LDMATRIX_X4,
// CP_ASYNC_CG): each asm statement is read from clang's
// syntax tree, so a macro expansion is the asm written out. Before, only
// the macro call's own tokens were read, and every such ldmatrix, cp.async
// was unseen (LeetCUDA's hgemm kernels: 0 of
// their shared lines seen). A macro call written over several lines is
// reported on its first, where nvcc's line table puts it.
#include <stdint.h>

#define LDMATRIX_X4(R0, R1, R2, R3, addr)                                      \
	asm volatile("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];\n" \
		     : "=r"(R0), "=r"(R1), "=r"(R2), "=r"(R3)                   \
		     : "r"(addr))
#define CP_ASYNC_CG(dst, src, bytes)                                           \
	asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], %2;\n" ::"r"(dst), "l"(src), "n"(bytes))
#define CP_ASYNC_WAIT_ALL() asm volatile("cp.async.wait_all;\n" ::)

// 64-byte rows of halves, read by ldmatrix.x4 unpadded: the 8 row
// addresses of each phase fall on 2 bank groups (4-way), and the
// cp.async stores a row of 16-byte pieces per 4 lanes.
__global__ void __launch_bounds__(128) tile_load(const uint4 *g, unsigned *out)
{
	__shared__ __align__(16) unsigned short tile[64][32];
	uint32_t base = __cvta_generic_to_shared(&tile[0][0]);
	int tid = threadIdx.x;
	uint32_t dst = base + ((tid / 4) * 32 + (tid % 4) * 8) * sizeof(unsigned short);
	CP_ASYNC_CG(dst, &g[tid], 16);
	CP_ASYNC_WAIT_ALL();
	__syncthreads();
	unsigned lane = tid % 32;
	uint32_t r[4];
	uint32_t src = base + ((lane % 16) * 32 + (lane / 16) * 8) * sizeof(unsigned short);
	LDMATRIX_X4(r[0], r[1], r[2], r[3],
		    src);
	out[tid] = r[0] + r[1] + r[2] + r[3];
}

// The global side of a cp.async: the source written `P + i` of a kernel
// parameter, lanes in pairs on 512-byte rows, each lane's 16 bytes put in
// a 32-byte slot of its own: each pair's sector is split over two shared
// chunks, two pieces a global line, 2-way beyond the one a line its 16
// lines need. Written `P - i`, its offset is subtracted, not read as
// `P + i`: each pair's halves then lie in two lines, a line a lane, which
// no shared layout improves (no finding).
__global__ void __launch_bounds__(32) rows_plus(const uint4 *g, unsigned *out)
{
	__shared__ __align__(16) unsigned s[256];
	int t = threadIdx.x;
	CP_ASYNC_CG((unsigned)__cvta_generic_to_shared(&s[t * 8]), g + ((t / 2) * 32 + (t % 2)), 16);
	CP_ASYNC_WAIT_ALL();
	__syncwarp();
	out[t] = s[t];
}

__global__ void __launch_bounds__(32) rows_minus(const uint4 *g, unsigned *out)
{
	__shared__ __align__(16) unsigned s[256];
	int t = threadIdx.x;
	CP_ASYNC_CG((unsigned)__cvta_generic_to_shared(&s[t * 8]), g - ((t / 2) * 32 + (t % 2)), 16);
	CP_ASYNC_WAIT_ALL();
	__syncwarp();
	out[t] = s[t];
}

// The same copy as rows_plus written through a cast and an element
// address plus an offset: the byte offsets are the same, and so is the
// finding.
__global__ void __launch_bounds__(32) rows_cast(const uint4 *g, unsigned *out)
{
	__shared__ __align__(16) unsigned s[256];
	int t = threadIdx.x;
	CP_ASYNC_CG((unsigned)__cvta_generic_to_shared(&s[t * 8]), (const char *)&g[(t / 2) * 32] + (t % 2) * 16, 16);
	CP_ASYNC_WAIT_ALL();
	__syncwarp();
	out[t] = s[t];
}

void run(const uint4 *g, unsigned *o)
{
	tile_load<<<1, 128>>>(g, o);
	rows_plus<<<1, 32>>>(g, o);
	rows_minus<<<1, 32>>>(g + 1024, o);
	rows_cast<<<1, 32>>>(g, o);
}

/*
 * check-output-start
 * tests/rules/bank-conflict/asm_macros.cu:33:2: warning: 4-way bank conflict on ldmatrix.x4 load of 'tile' (unsigned short[64][32]) in kernel 'tile_load' with blockDim (128,1,1) from the launch on line 80; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *   	LDMATRIX_X4(r[0], r[1], r[2], r[3],
 *   	^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/asm_macros.cu:23:2: note: 'tile' declared here
 * tests/rules/bank-conflict/asm_macros.cu:49:2: warning: 2-way bank conflict on cp.async store of 's' (unsigned int[256]) (8.00 wavefronts per ideal) in kernel 'rows_plus' with blockDim (32,1,1) from the launch on line 81; a warp's cp.async moves 32 pieces, a wavefront each, where one a global 128-byte line it reads would be 16 (a piece: one line at one shift into one shared 128-byte row; a shift splitting 32-byte sectors moves their 16-byte halves apart) [bank-conflict]
 *   	CP_ASYNC_CG((unsigned)__cvta_generic_to_shared(&s[t * 8]), g + ((t / 2) * 32 + (t % 2)), 16);
 *   	^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/asm_macros.cu:47:2: note: 's' declared here
 * tests/rules/bank-conflict/asm_macros.cu:72:2: warning: 2-way bank conflict on cp.async store of 's' (unsigned int[256]) (8.00 wavefronts per ideal) in kernel 'rows_cast' with blockDim (32,1,1) from the launch on line 83; a warp's cp.async moves 32 pieces, a wavefront each, where one a global 128-byte line it reads would be 16 (a piece: one line at one shift into one shared 128-byte row; a shift splitting 32-byte sectors moves their 16-byte halves apart) [bank-conflict]
 *   	CP_ASYNC_CG((unsigned)__cvta_generic_to_shared(&s[t * 8]), (const char *)&g[(t / 2) * 32] + (t % 2) * 16, 16);
 *   	^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/asm_macros.cu:70:2: note: 's' declared here
 * check-output-end
 */
