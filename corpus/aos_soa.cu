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

/*
 * check-output-start
 * corpus/aos_soa.cu:43:5: warning: 4-way bank conflict on store of 'q' (P4[128]) in kernel 'aos4_fields' with blockDim (128,1,1) from the launch on line 104; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       q[tid].x = in[2 * i + 0];
 *       ^~~~~~~~
 * corpus/aos_soa.cu:40:5: note: 'q' declared here
 * corpus/aos_soa.cu:44:5: warning: 4-way bank conflict on store of 'q' (P4[128]) in kernel 'aos4_fields' with blockDim (128,1,1) from the launch on line 104; lanes 0 and 8 of warp 0 hit bank 2 (byte offsets 8 and 136) [bank-conflict]
 *       q[tid].z = in[2 * i + 1];
 *       ^~~~~~~~
 * corpus/aos_soa.cu:40:5: note: 'q' declared here
 * corpus/aos_soa.cu:47:15: warning: 4-way bank conflict on load of 'q' (P4[128]) in kernel 'aos4_fields' with blockDim (128,1,1) from the launch on line 104; lanes 0 and 8 of warp 0 hit bank 28 (byte offsets 2032 and 1904) [bank-conflict]
 *       float x = q[j].x;
 *                 ^~~~~~
 * corpus/aos_soa.cu:40:5: note: 'q' declared here
 * corpus/aos_soa.cu:48:15: warning: 4-way bank conflict on load of 'q' (P4[128]) in kernel 'aos4_fields' with blockDim (128,1,1) from the launch on line 104; lanes 0 and 8 of warp 0 hit bank 30 (byte offsets 2040 and 1912) [bank-conflict]
 *       float z = q[j].z;
 *                 ^~~~~~
 * corpus/aos_soa.cu:40:5: note: 'q' declared here
 * corpus/aos_soa.cu:79:5: warning: 2-way bank conflict on store of 'm' (Mixed[128]) in kernel 'aos_mixed' with blockDim (128,1,1) from the launch on line 112; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       m[tid].d = din[i];
 *       ^~~~~~~~
 * corpus/aos_soa.cu:76:5: note: 'm' declared here
 * corpus/aos_soa.cu:80:5: warning: 4-way bank conflict on store of 'm' (Mixed[128]) in kernel 'aos_mixed' with blockDim (128,1,1) from the launch on line 112; lanes 0 and 8 of warp 0 hit bank 2 (byte offsets 8 and 136) [bank-conflict]
 *       m[tid].f = fin[i];
 *       ^~~~~~~~
 * corpus/aos_soa.cu:76:5: note: 'm' declared here
 * corpus/aos_soa.cu:83:16: warning: 2-way bank conflict on load of 'm' (Mixed[128]) in kernel 'aos_mixed' with blockDim (128,1,1) from the launch on line 112; lanes 0 and 8 of warp 0 hit bank 4 (byte offsets 16 and 144) [bank-conflict]
 *       double d = m[j].d;
 *                  ^~~~~~
 * corpus/aos_soa.cu:76:5: note: 'm' declared here
 * corpus/aos_soa.cu:84:15: warning: 4-way bank conflict on load of 'm' (Mixed[128]) in kernel 'aos_mixed' with blockDim (128,1,1) from the launch on line 112; lanes 0 and 8 of warp 0 hit bank 6 (byte offsets 24 and 152) [bank-conflict]
 *       float f = m[j].f;
 *                 ^~~~~~
 * corpus/aos_soa.cu:76:5: note: 'm' declared here
 * check-output-end
 */
