// Array-of-structs vs struct-of-arrays particle data in shared memory.
#include "common.cuh"

#define PBLOCK 128

struct P {
    float x, y, z;
};

struct P4 {
    float x, y, z, w;
};

struct Mixed {
    double d;
    float f;
    int tag;
};

// 12-byte structs: word stride 3, coprime with 32 -> conflict-free.
__global__ void aos3_fields(const float *in, float *out)
{
    __shared__ P p[PBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * PBLOCK + tid;
    p[tid].x = in[3 * i + 0];
    p[tid].y = in[3 * i + 1];
    p[tid].z = in[3 * i + 2];
    __syncthreads();
    int j = PBLOCK - 1 - tid;
    float x = p[j].x;
    float y = p[j].y;
    float z = p[j].z;
    out[i] = sqrtf(x * x + y * y + z * z);
}

// 16-byte structs accessed one field at a time: word stride 4 -> 4-way.
__global__ void aos4_fields(const float *in, float *out)
{
    __shared__ P4 q[PBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * PBLOCK + tid;
    q[tid].x = in[2 * i + 0];
    q[tid].z = in[2 * i + 1];
    __syncthreads();
    int j = PBLOCK - 1 - tid;
    float x = q[j].x;
    float z = q[j].z;
    out[i] = x * z;
}

// Same data as separate arrays: unit stride everywhere.
__global__ void soa_fields(const float *in, float *out)
{
    __shared__ float xs[PBLOCK];
    __shared__ float ys[PBLOCK];
    __shared__ float zs[PBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * PBLOCK + tid;
    xs[tid] = in[3 * i + 0];
    ys[tid] = in[3 * i + 1];
    zs[tid] = in[3 * i + 2];
    __syncthreads();
    int j = PBLOCK - 1 - tid;
    float x = xs[j];
    float y = ys[j];
    float z = zs[j];
    out[i] = sqrtf(x * x + y * y + z * z);
}

// 16-byte struct with a double member: the double field is an 8-byte access
// at a 16-byte stride (2-way), the float field a 4-byte access at word
// stride 4 (4-way).
__global__ void aos_mixed(const double *din, const float *fin, float *out)
{
    __shared__ Mixed m[PBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * PBLOCK + tid;
    m[tid].d = din[i];
    m[tid].f = fin[i];
    __syncthreads();
    int j = (tid + 1) % PBLOCK;
    double d = m[j].d;
    float f = m[j].f;
    out[i] = (float)d + f;
}

int main()
{
    const int blocks = 2;
    const int n = blocks * PBLOCK;
    float *d_in, *d_out;
    double *d_din;
    CUDA_CHECK(cudaMalloc(&d_in, 3 * n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_din, n * sizeof(double)));
    CUDA_CHECK(cudaMemset(d_in, 0, 3 * n * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_din, 0, n * sizeof(double)));

    aos3_fields<<<blocks, PBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    aos4_fields<<<blocks, PBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    soa_fields<<<blocks, PBLOCK>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    aos_mixed<<<blocks, PBLOCK>>>(d_din, d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_din));
    return 0;
}

/* smemlint-expect
 * 43 bank-conflict q 4
 * 44 bank-conflict q 4
 * 47 bank-conflict q 4
 * 48 bank-conflict q 4
 * 79 bank-conflict m 2
 * 80 bank-conflict m 4
 * 83 bank-conflict m 2
 * 84 bank-conflict m 4
 */
