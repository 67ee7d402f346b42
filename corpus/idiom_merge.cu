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
