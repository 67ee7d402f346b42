// Real-code idioms: block reductions whose shared array comes from a
// templated accessor struct over one `extern __shared__` array (the
// dynamic size is given at each launch site), with a double specialisation.
#include "common.cuh"

template <typename T>
struct DynSmem {
    __device__ operator T *()
    {
        extern __shared__ int dyn_words[];
        return reinterpret_cast<T *>(dyn_words);
    }
    __device__ operator const T *() const
    {
        extern __shared__ int dyn_words[];
        return reinterpret_cast<const T *>(dyn_words);
    }
};

// double needs 8-byte alignment: its own extern array of double.
template <>
struct DynSmem<double> {
    __device__ operator double *()
    {
        extern __shared__ double dyn_dwords[];
        return dyn_dwords;
    }
    __device__ operator const double *() const
    {
        extern __shared__ double dyn_dwords[];
        return dyn_dwords;
    }
};

// Sequential addressing: active threads read s[tid] and s[tid + s].
template <typename T>
__global__ void ss_reduce_seq(const T *in, T *out)
{
    T *sdata = DynSmem<T>();
    unsigned int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

// Interleaved addressing with a strided index: index = 2 * s * tid.
template <typename T>
__global__ void ss_reduce_strided(const T *in, T *out)
{
    T *sdata = DynSmem<T>();
    unsigned int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        unsigned int index = 2 * s * tid;
        if (index < blockDim.x)
            sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

// Two arrays carved from the one accessor: a dot product.
template <typename T>
__global__ void ss_dot_carved(const T *a, const T *b, T *out)
{
    T *sa = DynSmem<T>();
    T *sprod = sa + blockDim.x;
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + tid;
    sa[tid] = a[i];
    __syncthreads();
    sprod[tid] = sa[blockDim.x - 1 - tid] * b[i];
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sprod[tid] += sprod[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sprod[0];
}

int main()
{
    const int blocks = 2;
    const int n = blocks * 256;
    float *d_f, *d_fo;
    double *d_d, *d_do;
    int *d_i, *d_io;
    CUDA_CHECK(cudaMalloc(&d_f, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_fo, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_d, n * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&d_do, n * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&d_i, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_io, n * sizeof(int)));
    CUDA_CHECK(cudaMemset(d_f, 0, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_d, 0, n * sizeof(double)));
    CUDA_CHECK(cudaMemset(d_i, 0, n * sizeof(int)));

    ss_reduce_seq<float><<<blocks, 256, 256 * sizeof(float)>>>(d_f, d_fo);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    ss_reduce_seq<double><<<blocks, 128, 128 * sizeof(double)>>>(d_d, d_do);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    ss_reduce_seq<int><<<blocks, 128, 128 * sizeof(int)>>>(d_i, d_io);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    ss_reduce_strided<float><<<blocks, 256, 256 * sizeof(float)>>>(d_f, d_fo);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    ss_reduce_strided<double><<<blocks, 128, 128 * sizeof(double)>>>(d_d, d_do);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    ss_reduce_strided<int><<<blocks, 64, 64 * sizeof(int)>>>(d_i, d_io);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    ss_dot_carved<float><<<blocks, 128, 2 * 128 * sizeof(float)>>>(d_f, d_f, d_fo);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    ss_dot_carved<double><<<blocks, 64, 2 * 64 * sizeof(double)>>>(d_d, d_d, d_do);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_f));
    CUDA_CHECK(cudaFree(d_fo));
    CUDA_CHECK(cudaFree(d_d));
    CUDA_CHECK(cudaFree(d_do));
    CUDA_CHECK(cudaFree(d_i));
    CUDA_CHECK(cudaFree(d_io));
    return 0;
}

/*
 * check-output-start
 * corpus/idiom_smem_struct.cu:63:13: warning: 2-way bank conflict on load and store of 'sdata' (int[]) in kernel 'ss_reduce_strided' with blockDim (64,1,1) from the launch on line 128, worst when s = 1 (mean 1.83-way over the iterations); lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *               sdata[index] += sdata[index + s];
 *               ^~~~~~~~~~~~
 * corpus/idiom_smem_struct.cu:10:9: note: 'dyn_words' declared here
 * corpus/idiom_smem_struct.cu:63:13: warning: 8-way bank conflict on load and store of 'sdata' (double[]) in kernel 'ss_reduce_strided' with blockDim (128,1,1) from the launch on line 124, worst when s = 4 (mean 3.55-way over the iterations); lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *               sdata[index] += sdata[index + s];
 *               ^~~~~~~~~~~~
 * corpus/idiom_smem_struct.cu:25:9: note: 'dyn_dwords' declared here
 * corpus/idiom_smem_struct.cu:63:13: warning: 8-way bank conflict on load and store of 'sdata' (int[]) in kernel 'ss_reduce_strided' with blockDim (256,1,1) from the launch on line 120, worst when s = 4 (mean 3.92-way over the iterations); lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *               sdata[index] += sdata[index + s];
 *               ^~~~~~~~~~~~
 * corpus/idiom_smem_struct.cu:10:9: note: 'dyn_words' declared here
 * corpus/idiom_smem_struct.cu:63:29: warning: 2-way bank conflict on load of 'sdata' (int[]) in kernel 'ss_reduce_strided' with blockDim (64,1,1) from the launch on line 128, worst when s = 1 (mean 1.83-way over the iterations); lanes 0 and 16 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *               sdata[index] += sdata[index + s];
 *                               ^~~~~~~~~~~~~~~~
 * corpus/idiom_smem_struct.cu:10:9: note: 'dyn_words' declared here
 * corpus/idiom_smem_struct.cu:63:29: warning: 8-way bank conflict on load of 'sdata' (double[]) in kernel 'ss_reduce_strided' with blockDim (128,1,1) from the launch on line 124, worst when s = 4 (mean 3.55-way over the iterations); lanes 0 and 2 of warp 0 hit bank 8 (byte offsets 32 and 160) [bank-conflict]
 *               sdata[index] += sdata[index + s];
 *                               ^~~~~~~~~~~~~~~~
 * corpus/idiom_smem_struct.cu:25:9: note: 'dyn_dwords' declared here
 * corpus/idiom_smem_struct.cu:63:29: warning: 8-way bank conflict on load of 'sdata' (int[]) in kernel 'ss_reduce_strided' with blockDim (256,1,1) from the launch on line 120, worst when s = 4 (mean 3.92-way over the iterations); lanes 0 and 4 of warp 0 hit bank 4 (byte offsets 16 and 144) [bank-conflict]
 *               sdata[index] += sdata[index + s];
 *                               ^~~~~~~~~~~~~~~~
 * corpus/idiom_smem_struct.cu:10:9: note: 'dyn_words' declared here
 * check-output-end
 */
