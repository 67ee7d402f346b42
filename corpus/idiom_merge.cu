// Real-code idioms: adjacent 4-byte accesses of one thread that the
// compiler may fuse into one 8- or 16-byte access, next to variants that
// it cannot fuse (an intervening store that may alias, a misaligned pair).
#include "common.cuh"

#define MG_THREADS 64

// Loads of s[2t] and s[2t+1] together.
__global__ void mg_pair_load(const float *in, float *out)
{
    __shared__ float s_pl[2 * MG_THREADS];
    int t = threadIdx.x;
    s_pl[t] = in[blockIdx.x * 2 * MG_THREADS + t];
    s_pl[t + MG_THREADS] = in[blockIdx.x * 2 * MG_THREADS + t + MG_THREADS];
    __syncthreads();
    float a = s_pl[2 * t];
    float b = s_pl[2 * t + 1];
    out[blockIdx.x * MG_THREADS + t] = a * b;
}

// Stores of s[2t] and s[2t+1] together.
__global__ void mg_pair_store(const float *in, float *out)
{
    __shared__ float s_ps[2 * MG_THREADS];
    int t = threadIdx.x;
    float x = in[blockIdx.x * MG_THREADS + t];
    s_ps[2 * t] = x;
    s_ps[2 * t + 1] = -x;
    __syncthreads();
    out[blockIdx.x * 2 * MG_THREADS + t] = s_ps[t];
    out[blockIdx.x * 2 * MG_THREADS + t + MG_THREADS] = s_ps[t + MG_THREADS];
}

// Four consecutive words per thread, stored and loaded: s[4t + 0..3].
__global__ void mg_quad(const float *in, float *out)
{
    __shared__ float s_q4[4 * MG_THREADS];
    int t = threadIdx.x;
    float x = in[blockIdx.x * MG_THREADS + t];
    s_q4[4 * t + 0] = x;
    s_q4[4 * t + 1] = x + 1.0f;
    s_q4[4 * t + 2] = x + 2.0f;
    s_q4[4 * t + 3] = x + 3.0f;
    __syncthreads();
    int u = (t + 1) % MG_THREADS;
    float a = s_q4[4 * u + 0];
    float b = s_q4[4 * u + 1];
    float c = s_q4[4 * u + 2];
    float d = s_q4[4 * u + 3];
    out[blockIdx.x * MG_THREADS + t] = a + b * c - d;
}

// A pair 4 words apart per thread: s[4t] and s[4t+1].
__global__ void mg_pair_stride4(const float *in, float *out)
{
    __shared__ float s_p4[4 * MG_THREADS];
    int t = threadIdx.x;
    for (int e = t; e < 4 * MG_THREADS; e += MG_THREADS)
        s_p4[e] = in[blockIdx.x * 4 * MG_THREADS + e];
    __syncthreads();
    float a = s_p4[4 * t];
    float b = s_p4[4 * t + 1];
    out[blockIdx.x * MG_THREADS + t] = a - b;
}

// Four consecutive words at 8-word spacing: s[8t + 0..3].
__global__ void mg_quad_stride8(const float *in, float *out)
{
    __shared__ float s_q8[8 * MG_THREADS];
    int t = threadIdx.x;
    for (int e = t; e < 8 * MG_THREADS; e += MG_THREADS)
        s_q8[e] = in[blockIdx.x * 8 * MG_THREADS + e];
    __syncthreads();
    float a = s_q8[8 * t + 0];
    float b = s_q8[8 * t + 1];
    float c = s_q8[8 * t + 2];
    float d = s_q8[8 * t + 3];
    out[blockIdx.x * MG_THREADS + t] = a * b + c * d;
}

// A store to s[off + t] between the two stores; off is a runtime value
// (128 at the launch), so the compiler must assume it may alias s[2t+1].
__global__ void mg_pair_store_between(const float *in, float *out, int off)
{
    __shared__ float s_sb[4 * MG_THREADS];
    int t = threadIdx.x;
    float x = in[blockIdx.x * MG_THREADS + t];
    s_sb[2 * t] = x;
    s_sb[off + t] = 2.0f * x;
    s_sb[2 * t + 1] = -x;
    __syncthreads();
    out[blockIdx.x * 2 * MG_THREADS + t] = s_sb[t] + s_sb[off + t];
    out[blockIdx.x * 2 * MG_THREADS + t + MG_THREADS] = s_sb[t + MG_THREADS];
}

// A store to s[off + t] between the two loads.
__global__ void mg_pair_load_between(const float *in, float *out, int off)
{
    __shared__ float s_lb[4 * MG_THREADS];
    int t = threadIdx.x;
    s_lb[t] = in[blockIdx.x * 2 * MG_THREADS + t];
    s_lb[t + MG_THREADS] = in[blockIdx.x * 2 * MG_THREADS + t + MG_THREADS];
    __syncthreads();
    float a = s_lb[2 * t];
    s_lb[off + t] = a;
    float b = s_lb[2 * t + 1];
    out[blockIdx.x * MG_THREADS + t] = a * b;
}

// A misaligned pair: s[2t+1] and s[2t+2] straddle an 8-byte boundary.
__global__ void mg_pair_misaligned(const float *in, float *out)
{
    __shared__ float s_mis[2 * MG_THREADS + 2];
    int t = threadIdx.x;
    s_mis[t] = in[blockIdx.x * 2 * MG_THREADS + t];
    s_mis[t + MG_THREADS] = in[blockIdx.x * 2 * MG_THREADS + t + MG_THREADS];
    if (t < 2)
        s_mis[t + 2 * MG_THREADS] = 0.0f;
    __syncthreads();
    float a = s_mis[2 * t + 1];
    float b = s_mis[2 * t + 2];
    out[blockIdx.x * MG_THREADS + t] = a + b;
}

int main()
{
    const int blocks = 2;
    const size_t n = blocks * 8 * MG_THREADS;
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_in, 0, n * sizeof(float)));

    mg_pair_load<<<blocks, MG_THREADS>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    mg_pair_store<<<blocks, MG_THREADS>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    mg_quad<<<blocks, MG_THREADS>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    mg_pair_stride4<<<blocks, MG_THREADS>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    mg_quad_stride8<<<blocks, MG_THREADS>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    mg_pair_store_between<<<blocks, MG_THREADS>>>(d_in, d_out, 2 * MG_THREADS);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    mg_pair_load_between<<<blocks, MG_THREADS>>>(d_in, d_out, 2 * MG_THREADS);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    mg_pair_misaligned<<<blocks, MG_THREADS>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return 0;
}

/*
 * check-output-start
 * corpus/idiom_merge.cu:61:15: warning: 2-way bank conflict on load of 's_p4' (float[256]) (fused by nvcc with 1 adjacent access into one 8-byte access) in kernel 'mg_pair_stride4' with blockDim (64,1,1) from the launch on line 146; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       float a = s_p4[4 * t];
 *                 ^~~~~~~~~~~
 * corpus/idiom_merge.cu:56:5: note: 's_p4' declared here
 * corpus/idiom_merge.cu:61:15: note: index 's_p4' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/idiom_merge.cu:62:15: warning: 2-way bank conflict on load of 's_p4' (float[256]) (fused by nvcc with 1 adjacent access into one 8-byte access) in kernel 'mg_pair_stride4' with blockDim (64,1,1) from the launch on line 146; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       float b = s_p4[4 * t + 1];
 *                 ^~~~~~~~~~~~~~~
 * corpus/idiom_merge.cu:56:5: note: 's_p4' declared here
 * corpus/idiom_merge.cu:62:15: note: index 's_p4' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/idiom_merge.cu:74:15: warning: 2-way bank conflict on load of 's_q8' (float[512]) (fused by nvcc with 3 adjacent accesses into one 16-byte access) in kernel 'mg_quad_stride8' with blockDim (64,1,1) from the launch on line 150; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       float a = s_q8[8 * t + 0];
 *                 ^~~~~~~~~~~~~~~
 * corpus/idiom_merge.cu:69:5: note: 's_q8' declared here
 * corpus/idiom_merge.cu:74:15: note: index 's_q8' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 4 of 4 conflicting accesses become conflict-free
 * corpus/idiom_merge.cu:75:15: warning: 2-way bank conflict on load of 's_q8' (float[512]) (fused by nvcc with 3 adjacent accesses into one 16-byte access) in kernel 'mg_quad_stride8' with blockDim (64,1,1) from the launch on line 150; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       float b = s_q8[8 * t + 1];
 *                 ^~~~~~~~~~~~~~~
 * corpus/idiom_merge.cu:69:5: note: 's_q8' declared here
 * corpus/idiom_merge.cu:75:15: note: index 's_q8' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 4 of 4 conflicting accesses become conflict-free
 * corpus/idiom_merge.cu:76:15: warning: 2-way bank conflict on load of 's_q8' (float[512]) (fused by nvcc with 3 adjacent accesses into one 16-byte access) in kernel 'mg_quad_stride8' with blockDim (64,1,1) from the launch on line 150; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       float c = s_q8[8 * t + 2];
 *                 ^~~~~~~~~~~~~~~
 * corpus/idiom_merge.cu:69:5: note: 's_q8' declared here
 * corpus/idiom_merge.cu:76:15: note: index 's_q8' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 4 of 4 conflicting accesses become conflict-free
 * corpus/idiom_merge.cu:77:15: warning: 2-way bank conflict on load of 's_q8' (float[512]) (fused by nvcc with 3 adjacent accesses into one 16-byte access) in kernel 'mg_quad_stride8' with blockDim (64,1,1) from the launch on line 150; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       float d = s_q8[8 * t + 3];
 *                 ^~~~~~~~~~~~~~~
 * corpus/idiom_merge.cu:69:5: note: 's_q8' declared here
 * corpus/idiom_merge.cu:77:15: note: index 's_q8' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 4 of 4 conflicting accesses become conflict-free
 * corpus/idiom_merge.cu:88:5: warning: 2-way bank conflict on store of 's_sb' (float[256]) in kernel 'mg_pair_store_between' with blockDim (64,1,1) from the launch on line 154; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s_sb[2 * t] = x;
 *       ^~~~~~~~~~~
 * corpus/idiom_merge.cu:85:5: note: 's_sb' declared here
 * corpus/idiom_merge.cu:88:5: note: index 's_sb' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/idiom_merge.cu:90:5: warning: 2-way bank conflict on store of 's_sb' (float[256]) in kernel 'mg_pair_store_between' with blockDim (64,1,1) from the launch on line 154; lanes 0 and 16 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *       s_sb[2 * t + 1] = -x;
 *       ^~~~~~~~~~~~~~~
 * corpus/idiom_merge.cu:85:5: note: 's_sb' declared here
 * corpus/idiom_merge.cu:90:5: note: index 's_sb' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/idiom_merge.cu:104:15: warning: 2-way bank conflict on load of 's_lb' (float[256]) in kernel 'mg_pair_load_between' with blockDim (64,1,1) from the launch on line 158; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       float a = s_lb[2 * t];
 *                 ^~~~~~~~~~~
 * corpus/idiom_merge.cu:99:5: note: 's_lb' declared here
 * corpus/idiom_merge.cu:104:15: note: index 's_lb' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/idiom_merge.cu:106:15: warning: 2-way bank conflict on load of 's_lb' (float[256]) in kernel 'mg_pair_load_between' with blockDim (64,1,1) from the launch on line 158; lanes 0 and 16 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *       float b = s_lb[2 * t + 1];
 *                 ^~~~~~~~~~~~~~~
 * corpus/idiom_merge.cu:99:5: note: 's_lb' declared here
 * corpus/idiom_merge.cu:106:15: note: index 's_lb' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/idiom_merge.cu:120:15: warning: 2-way bank conflict on load of 's_mis' (float[130]) in kernel 'mg_pair_misaligned' with blockDim (64,1,1) from the launch on line 162; lanes 0 and 16 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *       float a = s_mis[2 * t + 1];
 *                 ^~~~~~~~~~~~~~~~
 * corpus/idiom_merge.cu:113:5: note: 's_mis' declared here
 * corpus/idiom_merge.cu:121:15: warning: 2-way bank conflict on load of 's_mis' (float[130]) in kernel 'mg_pair_misaligned' with blockDim (64,1,1) from the launch on line 162; lanes 0 and 16 of warp 0 hit bank 2 (byte offsets 8 and 136) [bank-conflict]
 *       float b = s_mis[2 * t + 2];
 *                 ^~~~~~~~~~~~~~~~
 * corpus/idiom_merge.cu:113:5: note: 's_mis' declared here
 * check-output-end
 */
