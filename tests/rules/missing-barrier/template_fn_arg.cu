// A kernel template that calls the __device__ function given as its
// template argument (llm.c's trimul_global<matmul_tri4>): in the launched
// specialization the call is followed into the argument, so the helper is
// analyzed in its kernel with the launch's 16x16 block, not on its own as
// if it were a kernel with an assumed shape. Its transpose reads another
// warp's row with no barrier in between: a race, reported from the
// launch.

using tile_fn = void (*)(const float *in, float *out);

__device__ void transpose_tile(const float *in, float *out)
{
    __shared__ float s[16][16];
    s[threadIdx.y][threadIdx.x] = in[threadIdx.y * 16 + threadIdx.x];
    out[threadIdx.y * 16 + threadIdx.x] = s[threadIdx.x][threadIdx.y];
}

template <tile_fn tile>
__global__ void run_tile(const float *in, float *out)
{
    tile(in + blockIdx.x * 256, out + blockIdx.x * 256);
}

void launch(const float *in, float *out, int n)
{
    run_tile<transpose_tile><<<n, dim3(16, 16)>>>(in, out);
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/missing-barrier/template_fn_arg.cu:15:43: warning: 8-way bank conflict on load of 's' (float[16][16]) in 'transpose_tile' called from kernel 'run_tile' at line 21 with blockDim (16,16,1) from the launch on line 26; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[threadIdx.y * 16 + threadIdx.x] = s[threadIdx.x][threadIdx.y];
 *                                             ^~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/template_fn_arg.cu:13:5: note: 's' declared here
 * tests/rules/missing-barrier/template_fn_arg.cu:15:43: note: swizzle 's': write every access `s[r][c]` as `s[r][c ^ (r & 15)]`: 1 of 1 conflicting accesses become conflict-free (verified); --fix will not apply it: 's' is accessed in a function the kernel calls; swizzle its accesses by hand; write this access as `s[threadIdx.x][threadIdx.y ^ (threadIdx.x & 15)]`
 * tests/rules/missing-barrier/template_fn_arg.cu:15:43: error: missing barrier: read-after-write race on 's': thread (2,0) reads s[2][0], which thread (0,2) wrote at line 14, with no __syncthreads() in between (different warps) in 'transpose_tile' called from kernel 'run_tile' at line 21 with blockDim (16,16,1) from the launch on line 26 [missing-barrier]
 *       out[threadIdx.y * 16 + threadIdx.x] = s[threadIdx.x][threadIdx.y];
 *                                             ^~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/template_fn_arg.cu:14:5: note: the racing write of 's' by thread (0,2)
 * tests/rules/missing-barrier/template_fn_arg.cu:13:5: note: 's' declared here
 * tests/rules/missing-barrier/template_fn_arg.cu:15:43: note: add __syncthreads() between the two accesses
 * check-output-end
 */
