// cp.async moves global memory into shared memory through L1; the profiler
// counts its shared wavefronts per global line it reads as well as per
// shared bank conflict. Each kernel is one warp copying with cp.async in
// inline PTX, the shared side laid out as in the comment, the global side
// read in one of these patterns:
//   contiguous: lane i reads bytes 16i..16i+15 (4 lines of 128 bytes);
//   pairs: lanes 2j, 2j+1 read 32 bytes at row j of a 512-byte-row
//     matrix (16 lines; a GEMM tile loader's pattern);
//   lines: lane i reads 16 bytes at 128i (32 lines);
//   sectors: lane i reads 16 bytes at 32i (8 lines, 32 sectors).
// The shared side: consecutive 16-byte chunks (no conflict), 128-byte
// rows (8-way), or 32-byte rows (2-way).
#include "common.cuh"

#define NWORDS (32 * 128) /* floats of the global buffer: 16 KB */

/* one warp-wide cp.async of 16 bytes a lane, then its wait */
#define CP16(dst, src)                                                         \
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"((unsigned)__cvta_generic_to_shared(dst)), \
                 "l"(src) : "memory")
#define CP_DONE()                                                              \
    do {                                                                       \
        asm volatile("cp.async.commit_group;\n" ::: "memory");                 \
        asm volatile("cp.async.wait_group 0;\n" ::: "memory");                 \
        __syncwarp();                                                          \
    } while (0)

__global__ void cp_contig_contig(const float *in, float *out)
{
    __shared__ __align__(16) float s[128];
    int t = threadIdx.x;
    CP16(&s[t * 4], &in[t * 4]);
    CP_DONE();
    out[t] = s[t * 4] + s[(t * 4 + 5) % 128];
}

__global__ void cp_contig_pairs(const float *in, float *out)
{
    __shared__ __align__(16) float s[128];
    int t = threadIdx.x;
    CP16(&s[t * 4], &in[(t / 2) * 128 + (t % 2) * 4]);
    CP_DONE();
    out[t] = s[t * 4] + s[(t * 4 + 5) % 128];
}

__global__ void cp_contig_lines(const float *in, float *out)
{
    __shared__ __align__(16) float s[128];
    int t = threadIdx.x;
    CP16(&s[t * 4], &in[t * 32]);
    CP_DONE();
    out[t] = s[t * 4] + s[(t * 4 + 5) % 128];
}

__global__ void cp_contig_sectors(const float *in, float *out)
{
    __shared__ __align__(16) float s[128];
    int t = threadIdx.x;
    CP16(&s[t * 4], &in[t * 8]);
    CP_DONE();
    out[t] = s[t * 4] + s[(t * 4 + 5) % 128];
}

__global__ void cp_rows128_contig(const float *in, float *out)
{
    __shared__ __align__(16) float s[32][32];
    int t = threadIdx.x;
    CP16(&s[t][0], &in[t * 4]);
    CP_DONE();
    out[t] = s[t][0] + s[(t + 1) % 32][1];
}

__global__ void cp_rows32_pairs(const float *in, float *out)
{
    __shared__ __align__(16) float s[32][8];
    int t = threadIdx.x;
    CP16(&s[t][0], &in[(t / 2) * 128 + (t % 2) * 4]);
    CP_DONE();
    out[t] = s[t][0] + s[(t + 1) % 32][1];
}

__global__ void cp_rows128_lines(const float *in, float *out)
{
    __shared__ __align__(16) float s[32][32];
    int t = threadIdx.x;
    CP16(&s[t][0], &in[t * 32]);
    CP_DONE();
    out[t] = s[t][0] + s[(t + 1) % 32][1];
}

__global__ void cp4_contig_lines(const float *in, float *out)
{
    __shared__ __align__(16) float s[32];
    int t = threadIdx.x;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"((unsigned)__cvta_generic_to_shared(&s[t])),
                 "l"(&in[t * 32]) : "memory");
    CP_DONE();
    out[t] = s[t] + s[(t + 1) % 32];
}

__global__ void cp8_contig_pairs(const float *in, float *out)
{
    __shared__ __align__(16) float s[64];
    int t = threadIdx.x;
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"((unsigned)__cvta_generic_to_shared(&s[t * 2])),
                 "l"(&in[(t / 4) * 128 + (t % 4) * 2]) : "memory");
    CP_DONE();
    out[t] = s[t * 2] + s[(t * 2 + 3) % 64];
}

#define RUN(k)                                                                 \
    do {                                                                       \
        k<<<1, 32>>>(d_in, d_out);                                             \
        CUDA_CHECK(cudaGetLastError());                                        \
        CUDA_CHECK(cudaDeviceSynchronize());                                   \
    } while (0)

int main()
{
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, NWORDS * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, 32 * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_in, 0, NWORDS * sizeof(float)));
    RUN(cp_contig_contig);
    RUN(cp_contig_pairs);
    RUN(cp_contig_lines);
    RUN(cp_contig_sectors);
    RUN(cp_rows128_contig);
    RUN(cp_rows32_pairs);
    RUN(cp_rows128_lines);
    RUN(cp4_contig_lines);
    RUN(cp8_contig_pairs);
    printf("ok\n");
    return 0;
}

/*
 * check-output-start
 * corpus/async_cp_global.cu:34:14: warning: 4-way bank conflict on load of 's' (float[128]) in kernel 'cp_contig_contig' with blockDim (32,1,1) from the launch on line 124; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[t] = s[t * 4] + s[(t * 4 + 5) % 128];
 *                ^~~~~~~~
 * corpus/async_cp_global.cu:30:5: note: 's' declared here
 * corpus/async_cp_global.cu:34:25: warning: 4-way bank conflict on load of 's' (float[128]) in kernel 'cp_contig_contig' with blockDim (32,1,1) from the launch on line 124; lanes 0 and 8 of warp 0 hit bank 5 (byte offsets 20 and 148) [bank-conflict]
 *       out[t] = s[t * 4] + s[(t * 4 + 5) % 128];
 *                           ^~~~~~~~~~~~~~~~~~~~
 * corpus/async_cp_global.cu:30:5: note: 's' declared here
 * corpus/async_cp_global.cu:43:14: warning: 4-way bank conflict on load of 's' (float[128]) in kernel 'cp_contig_pairs' with blockDim (32,1,1) from the launch on line 125; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[t] = s[t * 4] + s[(t * 4 + 5) % 128];
 *                ^~~~~~~~
 * corpus/async_cp_global.cu:39:5: note: 's' declared here
 * corpus/async_cp_global.cu:43:25: warning: 4-way bank conflict on load of 's' (float[128]) in kernel 'cp_contig_pairs' with blockDim (32,1,1) from the launch on line 125; lanes 0 and 8 of warp 0 hit bank 5 (byte offsets 20 and 148) [bank-conflict]
 *       out[t] = s[t * 4] + s[(t * 4 + 5) % 128];
 *                           ^~~~~~~~~~~~~~~~~~~~
 * corpus/async_cp_global.cu:39:5: note: 's' declared here
 * corpus/async_cp_global.cu:52:14: warning: 4-way bank conflict on load of 's' (float[128]) in kernel 'cp_contig_lines' with blockDim (32,1,1) from the launch on line 126; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[t] = s[t * 4] + s[(t * 4 + 5) % 128];
 *                ^~~~~~~~
 * corpus/async_cp_global.cu:48:5: note: 's' declared here
 * corpus/async_cp_global.cu:52:14: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/async_cp_global.cu:52:25: warning: 4-way bank conflict on load of 's' (float[128]) in kernel 'cp_contig_lines' with blockDim (32,1,1) from the launch on line 126; lanes 0 and 8 of warp 0 hit bank 5 (byte offsets 20 and 148) [bank-conflict]
 *       out[t] = s[t * 4] + s[(t * 4 + 5) % 128];
 *                           ^~~~~~~~~~~~~~~~~~~~
 * corpus/async_cp_global.cu:48:5: note: 's' declared here
 * corpus/async_cp_global.cu:52:25: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/async_cp_global.cu:59:5: warning: 4-way bank conflict on cp.async store of 's' (float[128]) (8.00 wavefronts per ideal) in kernel 'cp_contig_sectors' with blockDim (32,1,1) from the launch on line 127; a warp's cp.async moves 32 pieces, a wavefront each, where one a global 128-byte line it reads would be 8 (a piece: one line at one shift into one shared 128-byte row; a shift splitting 32-byte sectors moves their 16-byte halves apart) [bank-conflict]
 *       CP16(&s[t * 4], &in[t * 8]);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_cp_global.cu:57:5: note: 's' declared here
 * corpus/async_cp_global.cu:61:14: warning: 4-way bank conflict on load of 's' (float[128]) in kernel 'cp_contig_sectors' with blockDim (32,1,1) from the launch on line 127; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[t] = s[t * 4] + s[(t * 4 + 5) % 128];
 *                ^~~~~~~~
 * corpus/async_cp_global.cu:57:5: note: 's' declared here
 * corpus/async_cp_global.cu:61:25: warning: 4-way bank conflict on load of 's' (float[128]) in kernel 'cp_contig_sectors' with blockDim (32,1,1) from the launch on line 127; lanes 0 and 8 of warp 0 hit bank 5 (byte offsets 20 and 148) [bank-conflict]
 *       out[t] = s[t * 4] + s[(t * 4 + 5) % 128];
 *                           ^~~~~~~~~~~~~~~~~~~~
 * corpus/async_cp_global.cu:57:5: note: 's' declared here
 * corpus/async_cp_global.cu:68:5: warning: 8-way bank conflict on cp.async store of 's' (float[32][32]) in kernel 'cp_rows128_contig' with blockDim (32,1,1) from the launch on line 128; a warp's cp.async moves 32 pieces, a wavefront each, where one a global 128-byte line it reads would be 4 (a piece: one line at one shift into one shared 128-byte row; a shift splitting 32-byte sectors moves their 16-byte halves apart) [bank-conflict]
 *       CP16(&s[t][0], &in[t * 4]);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_cp_global.cu:66:5: note: 's' declared here
 * corpus/async_cp_global.cu:68:5: note: declare 's' as `float s[32][36]`: +512 bytes per block (4096 -> 4608 bytes of static shared memory); 0 of 3 conflicting accesses become conflict-free, worst degree 8; --fix will not apply it: a pointer into 's' is formed, so the code may depend on its row size
 * corpus/async_cp_global.cu:70:14: warning: 32-way bank conflict on load of 's' (float[32][32]) in kernel 'cp_rows128_contig' with blockDim (32,1,1) from the launch on line 128; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[t] = s[t][0] + s[(t + 1) % 32][1];
 *                ^~~~~~~
 * corpus/async_cp_global.cu:66:5: note: 's' declared here
 * corpus/async_cp_global.cu:70:14: note: declare 's' as `float s[32][36]`: +512 bytes per block (4096 -> 4608 bytes of static shared memory); 0 of 3 conflicting accesses become conflict-free, worst degree 8; --fix will not apply it: a pointer into 's' is formed, so the code may depend on its row size
 * corpus/async_cp_global.cu:70:24: warning: 32-way bank conflict on load of 's' (float[32][32]) in kernel 'cp_rows128_contig' with blockDim (32,1,1) from the launch on line 128; lanes 0 and 1 of warp 0 hit bank 1 (byte offsets 132 and 260) [bank-conflict]
 *       out[t] = s[t][0] + s[(t + 1) % 32][1];
 *                          ^~~~~~~~~~~~~~~~~~
 * corpus/async_cp_global.cu:66:5: note: 's' declared here
 * corpus/async_cp_global.cu:70:24: note: declare 's' as `float s[32][36]`: +512 bytes per block (4096 -> 4608 bytes of static shared memory); 0 of 3 conflicting accesses become conflict-free, worst degree 8; --fix will not apply it: a pointer into 's' is formed, so the code may depend on its row size
 * corpus/async_cp_global.cu:77:5: warning: 2-way bank conflict on cp.async store of 's' (float[32][8]) (8.00 wavefronts per ideal) in kernel 'cp_rows32_pairs' with blockDim (32,1,1) from the launch on line 129; a warp's cp.async moves 32 pieces, a wavefront each, where one a global 128-byte line it reads would be 16 (a piece: one line at one shift into one shared 128-byte row; a shift splitting 32-byte sectors moves their 16-byte halves apart) [bank-conflict]
 *       CP16(&s[t][0], &in[(t / 2) * 128 + (t % 2) * 4]);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_cp_global.cu:75:5: note: 's' declared here
 * corpus/async_cp_global.cu:77:5: note: declare 's' as `float s[32][12]`: +512 bytes per block (1024 -> 1536 bytes of static shared memory); 0 of 3 conflicting accesses become conflict-free, worst degree 4; --fix will not apply it: a pointer into 's' is formed, so the code may depend on its row size
 * corpus/async_cp_global.cu:79:14: warning: 8-way bank conflict on load of 's' (float[32][8]) in kernel 'cp_rows32_pairs' with blockDim (32,1,1) from the launch on line 129; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[t] = s[t][0] + s[(t + 1) % 32][1];
 *                ^~~~~~~
 * corpus/async_cp_global.cu:75:5: note: 's' declared here
 * corpus/async_cp_global.cu:79:14: note: declare 's' as `float s[32][12]`: +512 bytes per block (1024 -> 1536 bytes of static shared memory); 0 of 3 conflicting accesses become conflict-free, worst degree 4; --fix will not apply it: a pointer into 's' is formed, so the code may depend on its row size
 * corpus/async_cp_global.cu:79:24: warning: 8-way bank conflict on load of 's' (float[32][8]) in kernel 'cp_rows32_pairs' with blockDim (32,1,1) from the launch on line 129; lanes 0 and 4 of warp 0 hit bank 9 (byte offsets 36 and 164) [bank-conflict]
 *       out[t] = s[t][0] + s[(t + 1) % 32][1];
 *                          ^~~~~~~~~~~~~~~~~~
 * corpus/async_cp_global.cu:75:5: note: 's' declared here
 * corpus/async_cp_global.cu:79:24: note: declare 's' as `float s[32][12]`: +512 bytes per block (1024 -> 1536 bytes of static shared memory); 0 of 3 conflicting accesses become conflict-free, worst degree 4; --fix will not apply it: a pointer into 's' is formed, so the code may depend on its row size
 * corpus/async_cp_global.cu:88:14: warning: 32-way bank conflict on load of 's' (float[32][32]) in kernel 'cp_rows128_lines' with blockDim (32,1,1) from the launch on line 130; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[t] = s[t][0] + s[(t + 1) % 32][1];
 *                ^~~~~~~
 * corpus/async_cp_global.cu:84:5: note: 's' declared here
 * corpus/async_cp_global.cu:88:14: note: swizzle 's': write every access `s[r][c]` as `s[r][c ^ (r & 31)]`: 2 of 2 conflicting accesses become conflict-free (verified); --fix will not apply it: a pointer into 's' is formed, so not every access is a subscript the fix can rewrite; write this access as `s[t][0 ^ (t & 31)]`
 * corpus/async_cp_global.cu:88:24: warning: 32-way bank conflict on load of 's' (float[32][32]) in kernel 'cp_rows128_lines' with blockDim (32,1,1) from the launch on line 130; lanes 0 and 1 of warp 0 hit bank 1 (byte offsets 132 and 260) [bank-conflict]
 *       out[t] = s[t][0] + s[(t + 1) % 32][1];
 *                          ^~~~~~~~~~~~~~~~~~
 * corpus/async_cp_global.cu:84:5: note: 's' declared here
 * corpus/async_cp_global.cu:88:24: note: swizzle 's': write every access `s[r][c]` as `s[r][c ^ (r & 31)]`: 2 of 2 conflicting accesses become conflict-free (verified); --fix will not apply it: a pointer into 's' is formed, so not every access is a subscript the fix can rewrite; write this access as `s[(t + 1) % 32][1 ^ (((t + 1) % 32) & 31)]`
 * corpus/async_cp_global.cu:108:14: warning: 2-way bank conflict on load of 's' (float[64]) in kernel 'cp8_contig_pairs' with blockDim (32,1,1) from the launch on line 132; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[t] = s[t * 2] + s[(t * 2 + 3) % 64];
 *                ^~~~~~~~
 * corpus/async_cp_global.cu:103:5: note: 's' declared here
 * corpus/async_cp_global.cu:108:25: warning: 2-way bank conflict on load of 's' (float[64]) in kernel 'cp8_contig_pairs' with blockDim (32,1,1) from the launch on line 132; lanes 0 and 16 of warp 0 hit bank 3 (byte offsets 12 and 140) [bank-conflict]
 *       out[t] = s[t * 2] + s[(t * 2 + 3) % 64];
 *                           ^~~~~~~~~~~~~~~~~~~
 * corpus/async_cp_global.cu:103:5: note: 's' declared here
 * check-output-end
 */
