// Where nvcc's line table puts the shared accesses of a statement written
// over several lines (the profiler counts them there): a store whose
// assignment goes on past its target's line, written plainly, through a
// vector-cast macro (as real GEMM loaders write 16-byte copies), as a
// compound assignment and over three lines, a float4 store without the
// macro, a scalar one through a macro, one whose index goes on to the
// next line; and a load whose index goes on to the next line. Each access is conflict-free or 2-way, so its
// degree tells the lines apart as well.
#include "common.cuh"

#define V4(x) (reinterpret_cast<float4 *>(&(x))[0])
#define SC(x) (x)

__global__ void store_two_lines(const float *in, float *out)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] =
        in[t] * 2.0f;
    __syncthreads();
    out[t] = s[63 - t];
}

__global__ void store_two_lines_2way(const float *in, float *out)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    s[(t * 2) % 128] =
        in[t];
    __syncthreads();
    out[t] = s[(t * 2 + 2) % 128];
}

__global__ void store_macro_v4(const float4 *in, float *out)
{
    __shared__ __align__(16) float s[32][4];
    int t = threadIdx.x;
    V4(s[t][0]) =
        (V4(((float4 *)in)[t]));
    __syncthreads();
    out[t] = s[31 - t][1];
}

__global__ void store_compound(const float *in, float *out)
{
    __shared__ float s[32];
    int t = threadIdx.x;
    s[t] = 0.0f;
    __syncthreads();
    s[t] +=
        in[t];
    __syncthreads();
    out[t] = s[31 - t];
}

__global__ void store_three_lines(const float *in, float *out)
{
    __shared__ float s[32];
    int t = threadIdx.x;
    s[t] =
        in[t] +
        in[t + 32];
    __syncthreads();
    out[t] = s[31 - t];
}

__global__ void load_index_two_lines(const float *in, float *out)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    s[t + 32] = in[t + 32];
    __syncthreads();
    out[t] = s[(t * 2) %
               64] + 1.0f;
}

__global__ void store_v4_no_macro(const float4 *in, float *out)
{
    __shared__ __align__(16) float s[32][4];
    int t = threadIdx.x;
    *reinterpret_cast<float4 *>(&s[t][0]) =
        in[t];
    __syncthreads();
    out[t] = s[31 - t][1];
}

__global__ void store_macro_scalar(const float *in, float *out)
{
    __shared__ float s[32];
    int t = threadIdx.x;
    SC(s[t]) =
        in[t];
    __syncthreads();
    out[t] = s[31 - t];
}

__global__ void store_v4_rhs_two_lines(const float4 *in, float *out)
{
    __shared__ __align__(16) float s[32][4];
    int t = threadIdx.x;
    V4(s[t][0]) =
        (V4(((float4 *)in)[t +
                           0]));
    __syncthreads();
    out[t] = s[31 - t][2];
}

__global__ void store_index_two_lines(const float *in, float *out)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    s[(t * 2) %
      64] = in[t];
    __syncthreads();
    out[t] = s[63 - t];
}

#define RUN(k, a)                                                              \
    do {                                                                       \
        k<<<1, 32>>>(a, d_out);                                                \
        CUDA_CHECK(cudaGetLastError());                                        \
        CUDA_CHECK(cudaDeviceSynchronize());                                   \
    } while (0)

int main()
{
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, 256 * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, 64 * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_in, 0, 256 * sizeof(float)));
    RUN(store_two_lines, d_in);
    RUN(store_two_lines_2way, d_in);
    RUN(store_macro_v4, (const float4 *)d_in);
    RUN(store_compound, d_in);
    RUN(store_three_lines, d_in);
    RUN(load_index_two_lines, d_in);
    RUN(store_v4_no_macro, (const float4 *)d_in);
    RUN(store_macro_scalar, d_in);
    RUN(store_v4_rhs_two_lines, (const float4 *)d_in);
    RUN(store_index_two_lines, d_in);
    printf("ok\n");
    return 0;
}

/*
 * check-output-start
 * corpus/lines_multiline.cu:28:5: warning: 2-way bank conflict on store of 's' (float[128]) in kernel 'store_two_lines_2way' with blockDim (32,1,1) from the launch on line 133; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s[(t * 2) % 128] =
 *       ^~~~~~~~~~~~~~~~
 * corpus/lines_multiline.cu:26:5: note: 's' declared here
 * corpus/lines_multiline.cu:31:14: warning: 2-way bank conflict on load of 's' (float[128]) in kernel 'store_two_lines_2way' with blockDim (32,1,1) from the launch on line 133; lanes 0 and 16 of warp 0 hit bank 2 (byte offsets 8 and 136) [bank-conflict]
 *       out[t] = s[(t * 2 + 2) % 128];
 *                ^~~~~~~~~~~~~~~~~~~~
 * corpus/lines_multiline.cu:26:5: note: 's' declared here
 * corpus/lines_multiline.cu:41:14: warning: 4-way bank conflict on load of 's' (float[32][4]) in kernel 'store_macro_v4' with blockDim (32,1,1) from the launch on line 134; lanes 0 and 8 of warp 0 hit bank 29 (byte offsets 500 and 372) [bank-conflict]
 *       out[t] = s[31 - t][1];
 *                ^~~~~~~~~~~~
 * corpus/lines_multiline.cu:36:5: note: 's' declared here
 * corpus/lines_multiline.cu:75:1: warning: 2-way bank conflict on load of 's' (float[64]) in kernel 'load_index_two_lines' with blockDim (32,1,1) from the launch on line 137; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *                  64] + 1.0f;
 *   ^~~~~~~~~~~~~~~~~~
 * corpus/lines_multiline.cu:69:5: note: 's' declared here
 * corpus/lines_multiline.cu:75:1: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * corpus/lines_multiline.cu:85:14: warning: 4-way bank conflict on load of 's' (float[32][4]) in kernel 'store_v4_no_macro' with blockDim (32,1,1) from the launch on line 138; lanes 0 and 8 of warp 0 hit bank 29 (byte offsets 500 and 372) [bank-conflict]
 *       out[t] = s[31 - t][1];
 *                ^~~~~~~~~~~~
 * corpus/lines_multiline.cu:80:5: note: 's' declared here
 * corpus/lines_multiline.cu:106:14: warning: 4-way bank conflict on load of 's' (float[32][4]) in kernel 'store_v4_rhs_two_lines' with blockDim (32,1,1) from the launch on line 140; lanes 0 and 8 of warp 0 hit bank 30 (byte offsets 504 and 376) [bank-conflict]
 *       out[t] = s[31 - t][2];
 *                ^~~~~~~~~~~~
 * corpus/lines_multiline.cu:100:5: note: 's' declared here
 * corpus/lines_multiline.cu:114:1: warning: 2-way bank conflict on store of 's' (float[64]) in kernel 'store_index_two_lines' with blockDim (32,1,1) from the launch on line 141; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *         64] = in[t];
 *   ^~~~~~~~~
 * corpus/lines_multiline.cu:111:5: note: 's' declared here
 * corpus/lines_multiline.cu:114:1: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * check-output-end
 */
