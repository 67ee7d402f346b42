// Dynamic shared memory: one extern buffer carved into typed arrays whose
// sizes are only known at launch.
#include "common.cuh"

#define DBLK 128

// ints[nI] followed by floats[2 * nI]; the float part is used at stride 2.
__global__ void dyn_carved(const int *iin, const float *fin, float *out, int nI)
{
    extern __shared__ int ints[];
    float *f = (float *)&ints[nI];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;

    ints[tid] = iin[i];
    f[2 * tid] = fin[i];
    f[2 * tid + 1] = fin[i] * 0.5f;
    __syncthreads();
    int k = ints[(tid + 1) % nI];
    float a = f[2 * tid + 1];
    out[i] = a + (float)k;
}

// Sequential-addressing reduction over a dynamically sized buffer.
__global__ void dyn_reduce(const float *in, float *out)
{
    extern __shared__ float sbuf[];
    unsigned int tid = threadIdx.x;
    sbuf[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sbuf[tid] += sbuf[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sbuf[0];
}

// Three element sizes in one buffer: doubles, then floats (a 4-word record
// per thread), then chars.
__global__ void dyn_mixed(const double *din, float *out, int nD, int nF)
{
    extern __shared__ double dsm[];
    double *d = dsm;
    float *rec = (float *)&d[nD];
    char *flags = (char *)&rec[nF];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;

    d[tid] = din[i];
    rec[4 * tid] = (float)din[i];
    flags[tid] = (char)(tid & 1);
    __syncthreads();
    int j = blockDim.x - 1 - tid;
    double v = d[j];
    float r = rec[4 * j];
    char fl = flags[j];
    out[i] = fl ? (float)v : r;
}

int main()
{
    const int blocks = 2;
    const int n = blocks * DBLK;
    int *d_iin;
    float *d_fin, *d_out;
    double *d_din;
    CUDA_CHECK(cudaMalloc(&d_iin, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_fin, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_din, n * sizeof(double)));
    CUDA_CHECK(cudaMemset(d_iin, 0, n * sizeof(int)));
    CUDA_CHECK(cudaMemset(d_fin, 0, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_din, 0, n * sizeof(double)));

    size_t carvedBytes = DBLK * sizeof(int) + 2 * DBLK * sizeof(float);
    dyn_carved<<<blocks, DBLK, carvedBytes>>>(d_iin, d_fin, d_out, DBLK);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    dyn_reduce<<<blocks, DBLK, DBLK * sizeof(float)>>>(d_fin, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    size_t mixedBytes = DBLK * sizeof(double) + 4 * DBLK * sizeof(float) + DBLK;
    dyn_mixed<<<blocks, DBLK, mixedBytes>>>(d_din, d_out, DBLK, 4 * DBLK);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_iin));
    CUDA_CHECK(cudaFree(d_fin));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_din));
    return 0;
}

/*
 * check-output-start
 * corpus/dynamic_smem.cu:16:5: warning: 2-way bank conflict on store of 'f' (int[]) in kernel 'dyn_carved' with blockDim (128,1,1) from the launch on line 78; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 512 and 640) [bank-conflict]
 *       f[2 * tid] = fin[i];
 *       ^~~~~~~~~~
 * corpus/dynamic_smem.cu:10:5: note: 'ints' declared here
 * corpus/dynamic_smem.cu:17:5: warning: 2-way bank conflict on store of 'f' (int[]) in kernel 'dyn_carved' with blockDim (128,1,1) from the launch on line 78; lanes 0 and 16 of warp 0 hit bank 1 (byte offsets 516 and 644) [bank-conflict]
 *       f[2 * tid + 1] = fin[i] * 0.5f;
 *       ^~~~~~~~~~~~~~
 * corpus/dynamic_smem.cu:10:5: note: 'ints' declared here
 * corpus/dynamic_smem.cu:20:15: warning: 2-way bank conflict on load of 'f' (int[]) in kernel 'dyn_carved' with blockDim (128,1,1) from the launch on line 78; lanes 0 and 16 of warp 0 hit bank 1 (byte offsets 516 and 644) [bank-conflict]
 *       float a = f[2 * tid + 1];
 *                 ^~~~~~~~~~~~~~
 * corpus/dynamic_smem.cu:10:5: note: 'ints' declared here
 * corpus/dynamic_smem.cu:52:5: warning: 4-way bank conflict on store of 'rec' (double[]) in kernel 'dyn_mixed' with blockDim (128,1,1) from the launch on line 87; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 1024 and 1152) [bank-conflict]
 *       rec[4 * tid] = (float)din[i];
 *       ^~~~~~~~~~~~
 * corpus/dynamic_smem.cu:44:5: note: 'dsm' declared here
 * corpus/dynamic_smem.cu:57:15: warning: 4-way bank conflict on load of 'rec' (double[]) in kernel 'dyn_mixed' with blockDim (128,1,1) from the launch on line 87; lanes 0 and 8 of warp 0 hit bank 28 (byte offsets 3056 and 2928) [bank-conflict]
 *       float r = rec[4 * j];
 *                 ^~~~~~~~~~
 * corpus/dynamic_smem.cu:44:5: note: 'dsm' declared here
 * check-output-end
 */
