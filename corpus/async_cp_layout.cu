// cp.async's shared wavefronts as the profiler counts them, for the layouts
// a tile loader writes (engine/bank.c, sm_cp_async_wavefronts): lane t of
// one warp copies 16 bytes from global byte (t / GR) * GP + (t % GR) * 16
// + GO to shared byte (t / SR) * SP + (t % SR) * 16 + SO. A copy moves in
// pieces, a wavefront each: one global 128-byte line at one shift (global
// minus shared offset, modulo 128) into one shared 128-byte row; a 32-byte
// sector not copied whole into one aligned 32-byte chunk moves as its two
// 16-byte halves. Padded rows (a 48-byte row of pairs: odd rows split
// their sector), rows crossing a 128-byte row, offset tiles, a swizzle that
// swaps a sector's halves (still whole), and a warp with lanes off (one
// wavefront more) are measured here. Each kernel's copy is on its own line.
#include "common.cuh"

#define CP16(dst, src) \
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"((unsigned)__cvta_generic_to_shared(dst)), "l"(src) : "memory")

// wait for the copy, read back one float a lane (conflict-free)
__device__ __forceinline__ void finish(const char *s, float *out)
{
    asm volatile("cp.async.commit_group;\n" ::: "memory");
    asm volatile("cp.async.wait_group 0;\n" ::: "memory");
    __syncwarp();
    out[threadIdx.x] = ((const float *)s)[threadIdx.x];
}

// a whole warp copies
#define CP_KERNEL(name, GR, GP, SR, SP, GO, SO) \
    __global__ void name(const char *in, float *out) \
    { \
        __shared__ __align__(128) char s[4096]; \
        int t = threadIdx.x; \
        CP16(&s[(t / SR) * SP + (t % SR) * 16 + SO], in + (t / GR) * GP + (t % GR) * 16 + GO); \
        finish(s, out); \
    }

// the first NL lanes copy, the others are off
#define CP_PART(name, NL, GO, SO) \
    __global__ void name(const char *in, float *out) \
    { \
        __shared__ __align__(128) char s[4096]; \
        int t = threadIdx.x; \
        if (t < NL) CP16(&s[256 + SO + t * 16], in + 512 + GO + t * 16); \
        finish(s, out); \
    }

CP_KERNEL(cp_pairs_sp32, 2, 512, 2, 32, 0, 0)
CP_KERNEL(cp_pairs_sp48, 2, 512, 2, 48, 0, 0)
CP_KERNEL(cp_pairs_sp64, 2, 512, 2, 64, 0, 0)
CP_KERNEL(cp_pairs_sp80, 2, 512, 2, 80, 0, 0)
CP_KERNEL(cp_pairs_sp112, 2, 512, 2, 112, 0, 0)
CP_KERNEL(cp_pairs_sp144, 2, 512, 2, 144, 0, 0)
CP_KERNEL(cp_pairs_sp256, 2, 512, 2, 256, 0, 0)
CP_KERNEL(cp_quads_sp64, 4, 512, 4, 64, 0, 0)
CP_KERNEL(cp_quads_sp80, 4, 512, 4, 80, 0, 0)
CP_KERNEL(cp_quads_sp96, 4, 512, 4, 96, 0, 0)
CP_KERNEL(cp_rows8_sp128, 8, 512, 8, 128, 0, 0)
CP_KERNEL(cp_rows8_sp144, 8, 512, 8, 144, 0, 0)
CP_KERNEL(cp_rows8_sp160, 8, 512, 8, 160, 0, 0)
CP_KERNEL(cp_rows8_sp192, 8, 512, 8, 192, 0, 0)
CP_KERNEL(cp_rows16_sp256, 16, 512, 16, 256, 0, 0)
CP_KERNEL(cp_rows16_sp272, 16, 512, 16, 272, 0, 0)
CP_KERNEL(cp_rows16_sp288, 16, 512, 16, 288, 0, 0)
CP_KERNEL(cp_rows16_sp384, 16, 512, 16, 384, 0, 0)
CP_KERNEL(cp_contig_so16, 32, 512, 32, 512, 0, 16)
CP_KERNEL(cp_contig_so32, 32, 512, 32, 512, 0, 32)
CP_KERNEL(cp_contig_so112, 32, 512, 32, 512, 0, 112)
CP_KERNEL(cp_contig_go16, 32, 512, 32, 512, 16, 0)
CP_KERNEL(cp_contig_go64, 32, 512, 32, 512, 64, 0)
CP_KERNEL(cp_pairs_gp528, 2, 528, 2, 48, 0, 0)
CP_KERNEL(cp_rows16_to_pairs, 16, 512, 2, 48, 0, 0)
CP_PART(cp_part8_so16, 8, 0, 16)
CP_PART(cp_part4_go16_so96, 4, 16, 96)
CP_PART(cp_part2_so112, 2, 0, 112)
CP_PART(cp_part1, 1, 0, 0)

// pairs on 32-byte rows, the halves of every other row swapped (an XOR
// swizzle of the 16-byte chunk): each sector still lands in one chunk
__global__ void cp_pairs_swapped(const char *in, float *out)
{
    __shared__ __align__(128) char s[4096];
    int t = threadIdx.x, r = t / 2;
    CP16(&s[r * 32 + ((t % 2) ^ ((r / 4) % 2)) * 16], in + r * 512 + (t % 2) * 16);
    finish(s, out);
}

int main()
{
    char *d_in;
    float *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, 1 << 16));
    CUDA_CHECK(cudaMalloc(&d_out, 32 * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_in, 0, 1 << 16));
    cp_pairs_sp32<<<1, 32>>>(d_in, d_out);
    cp_pairs_sp48<<<1, 32>>>(d_in, d_out);
    cp_pairs_sp64<<<1, 32>>>(d_in, d_out);
    cp_pairs_sp80<<<1, 32>>>(d_in, d_out);
    cp_pairs_sp112<<<1, 32>>>(d_in, d_out);
    cp_pairs_sp144<<<1, 32>>>(d_in, d_out);
    cp_pairs_sp256<<<1, 32>>>(d_in, d_out);
    cp_quads_sp64<<<1, 32>>>(d_in, d_out);
    cp_quads_sp80<<<1, 32>>>(d_in, d_out);
    cp_quads_sp96<<<1, 32>>>(d_in, d_out);
    cp_rows8_sp128<<<1, 32>>>(d_in, d_out);
    cp_rows8_sp144<<<1, 32>>>(d_in, d_out);
    cp_rows8_sp160<<<1, 32>>>(d_in, d_out);
    cp_rows8_sp192<<<1, 32>>>(d_in, d_out);
    cp_rows16_sp256<<<1, 32>>>(d_in, d_out);
    cp_rows16_sp272<<<1, 32>>>(d_in, d_out);
    cp_rows16_sp288<<<1, 32>>>(d_in, d_out);
    cp_rows16_sp384<<<1, 32>>>(d_in, d_out);
    cp_contig_so16<<<1, 32>>>(d_in, d_out);
    cp_contig_so32<<<1, 32>>>(d_in, d_out);
    cp_contig_so112<<<1, 32>>>(d_in, d_out);
    cp_contig_go16<<<1, 32>>>(d_in, d_out);
    cp_contig_go64<<<1, 32>>>(d_in, d_out);
    cp_pairs_gp528<<<1, 32>>>(d_in, d_out);
    cp_rows16_to_pairs<<<1, 32>>>(d_in, d_out);
    cp_part8_so16<<<1, 32>>>(d_in, d_out);
    cp_part4_go16_so96<<<1, 32>>>(d_in, d_out);
    cp_part2_so112<<<1, 32>>>(d_in, d_out);
    cp_part1<<<1, 32>>>(d_in, d_out);
    cp_pairs_swapped<<<1, 32>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    printf("async_cp_layout: ok\n");
    return 0;
}

/*
 * check-output-start
 * corpus/async_cp_layout.cu:57:1: warning: 3-way bank conflict on cp.async store of 's' (char[4096]) (2.50 wavefronts per ideal) in kernel 'cp_rows8_sp144' with blockDim (32,1,1) from the launch on line 104; a warp's cp.async moves 10 pieces, a wavefront each, where one a global 128-byte line it reads would be 4 (a piece: one line at one shift into one shared 128-byte row; a shift splitting 32-byte sectors moves their 16-byte halves apart) [bank-conflict]
 *   CP_KERNEL(cp_rows8_sp144, 8, 512, 8, 144, 0, 0)
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_cp_layout.cu:57:1: note: 's' declared here
 * corpus/async_cp_layout.cu:61:1: warning: 2-way bank conflict on cp.async store of 's' (char[4096]) in kernel 'cp_rows16_sp272' with blockDim (32,1,1) from the launch on line 108; a warp's cp.async moves 8 pieces, a wavefront each, where one a global 128-byte line it reads would be 4 (a piece: one line at one shift into one shared 128-byte row; a shift splitting 32-byte sectors moves their 16-byte halves apart) [bank-conflict]
 *   CP_KERNEL(cp_rows16_sp272, 16, 512, 16, 272, 0, 0)
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_cp_layout.cu:61:1: note: 's' declared here
 * corpus/async_cp_layout.cu:64:1: warning: 3-way bank conflict on cp.async store of 's' (char[4096]) in kernel 'cp_contig_so16' with blockDim (32,1,1) from the launch on line 111; a warp's cp.async moves 12 pieces, a wavefront each, where one a global 128-byte line it reads would be 4 (a piece: one line at one shift into one shared 128-byte row; a shift splitting 32-byte sectors moves their 16-byte halves apart) [bank-conflict]
 *   CP_KERNEL(cp_contig_so16, 32, 512, 32, 512, 0, 16)
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_cp_layout.cu:64:1: note: 's' declared here
 * corpus/async_cp_layout.cu:65:1: warning: 2-way bank conflict on cp.async store of 's' (char[4096]) in kernel 'cp_contig_so32' with blockDim (32,1,1) from the launch on line 112; a warp's cp.async moves 8 pieces, a wavefront each, where one a global 128-byte line it reads would be 4 (a piece: one line at one shift into one shared 128-byte row; a shift splitting 32-byte sectors moves their 16-byte halves apart) [bank-conflict]
 *   CP_KERNEL(cp_contig_so32, 32, 512, 32, 512, 0, 32)
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_cp_layout.cu:65:1: note: 's' declared here
 * corpus/async_cp_layout.cu:66:1: warning: 3-way bank conflict on cp.async store of 's' (char[4096]) in kernel 'cp_contig_so112' with blockDim (32,1,1) from the launch on line 113; a warp's cp.async moves 12 pieces, a wavefront each, where one a global 128-byte line it reads would be 4 (a piece: one line at one shift into one shared 128-byte row; a shift splitting 32-byte sectors moves their 16-byte halves apart) [bank-conflict]
 *   CP_KERNEL(cp_contig_so112, 32, 512, 32, 512, 0, 112)
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_cp_layout.cu:66:1: note: 's' declared here
 * corpus/async_cp_layout.cu:67:1: warning: 2-way bank conflict on cp.async store of 's' (char[4096]) (3.00 wavefronts per ideal) in kernel 'cp_contig_go16' with blockDim (32,1,1) from the launch on line 114; a warp's cp.async moves 12 pieces, a wavefront each, where one a global 128-byte line it reads would be 5 (a piece: one line at one shift into one shared 128-byte row; a shift splitting 32-byte sectors moves their 16-byte halves apart) [bank-conflict]
 *   CP_KERNEL(cp_contig_go16, 32, 512, 32, 512, 16, 0)
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_cp_layout.cu:67:1: note: 's' declared here
 * corpus/async_cp_layout.cu:70:1: warning: 6-way bank conflict on cp.async store of 's' (char[4096]) in kernel 'cp_rows16_to_pairs' with blockDim (32,1,1) from the launch on line 117; a warp's cp.async moves 24 pieces, a wavefront each, where one a global 128-byte line it reads would be 4 (a piece: one line at one shift into one shared 128-byte row; a shift splitting 32-byte sectors moves their 16-byte halves apart) [bank-conflict]
 *   CP_KERNEL(cp_rows16_to_pairs, 16, 512, 2, 48, 0, 0)
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_cp_layout.cu:70:1: note: 's' declared here
 * corpus/async_cp_layout.cu:71:1: warning: 2-way bank conflict on cp.async store of 's' (char[4096]) (4.00 wavefronts per ideal) in kernel 'cp_part8_so16' with blockDim (32,1,1) from the launch on line 118; a warp's cp.async moves 4 pieces, a wavefront each, where one a global 128-byte line it reads would be 2 (a piece: one line at one shift into one shared 128-byte row; a shift splitting 32-byte sectors moves their 16-byte halves apart) [bank-conflict]
 *   CP_PART(cp_part8_so16, 8, 0, 16)
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_cp_layout.cu:71:1: note: 's' declared here
 * corpus/async_cp_layout.cu:72:1: warning: 3-way bank conflict on cp.async store of 's' (char[4096]) (5.00 wavefronts per ideal) in kernel 'cp_part4_go16_so96' with blockDim (32,1,1) from the launch on line 119; a warp's cp.async moves 5 pieces, a wavefront each, where one a global 128-byte line it reads would be 2 (a piece: one line at one shift into one shared 128-byte row; a shift splitting 32-byte sectors moves their 16-byte halves apart) [bank-conflict]
 *   CP_PART(cp_part4_go16_so96, 4, 16, 96)
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_cp_layout.cu:72:1: note: 's' declared here
 * check-output-end
 */
