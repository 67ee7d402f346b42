// Launches that ask for more dynamic shared memory than a block may get
// (issue 28): past 48 KB without cudaFuncSetAttribute, past the value it
// set, past sm_90's 227 KB per block; and the launches that fit. Each
// launch prints its line and the runtime's answer ("launch-result LINE
// STATUS"), the oracle tools/gpu/import.py reads.
#include "common.cuh"

#define T 128

__global__ void fill(float *out, int n)
{
    extern __shared__ float buf[];
    int t = threadIdx.x;
    for (int i = t; i < n; i += T)
        buf[i] = out[i & 1023];
    __syncthreads();
    out[t] = buf[n - 1 - t];
}

__global__ void fill_optin(float *out, int n)
{
    extern __shared__ float buf[];
    int t = threadIdx.x;
    for (int i = t; i < n; i += T)
        buf[i] = out[i & 1023];
    __syncthreads();
    out[t] = buf[n - 1 - t];
}

__global__ void fill_static(float *out, int n)
{
    __shared__ float stat[8192];
    extern __shared__ float buf[];
    int t = threadIdx.x;
    stat[t] = out[t];
    for (int i = t; i < n; i += T)
        buf[i] = out[i & 1023];
    __syncthreads();
    out[t] = buf[n - 1 - t] + stat[T - 1 - t];
}

static void result(int line)
{
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    printf("launch-result %d %s\n", line, e == cudaSuccess ? "ok" : cudaGetErrorName(e));
}

int main()
{
    float *d;
    CUDA_CHECK(cudaMalloc(&d, 1024 * sizeof(float)));
    CUDA_CHECK(cudaMemset(d, 0, 1024 * sizeof(float)));
    const int kb = 1024 / sizeof(float); // floats per KB

    fill<<<1, T, 32 * 1024>>>(d, 32 * kb);
    result(__LINE__ - 1);
    fill<<<1, T, 64 * 1024>>>(d, 64 * kb);
    result(__LINE__ - 1);

    CUDA_CHECK(cudaFuncSetAttribute(fill_optin, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024));
    fill_optin<<<1, T, 96 * 1024>>>(d, 96 * kb);
    result(__LINE__ - 1);
    fill_optin<<<1, T, 128 * 1024>>>(d, 128 * kb);
    result(__LINE__ - 1);

    // 32 KB static + 195 KB dynamic: exactly sm_90's 227 KB
    CUDA_CHECK(cudaFuncSetAttribute(fill_static, cudaFuncAttributeMaxDynamicSharedMemorySize, 195 * 1024));
    fill_static<<<1, T, 195 * 1024>>>(d, 195 * kb);
    result(__LINE__ - 1);
    fill_static<<<1, T, 196 * 1024>>>(d, 196 * kb);
    result(__LINE__ - 1);

    CUDA_CHECK(cudaFree(d));
    return 0;
}

/*
 * check-output-start
 * corpus/oob_launch_limits.cu:59:5: error: launch refused: 'fill' at the launch on line 59 asks for 65536 bytes of dynamic shared memory, more than the 49152 bytes a block gets without cudaFuncSetAttribute(fill, cudaFuncAttributeMaxDynamicSharedMemorySize, ...) in this file [shared-launch-limit]
 *       fill<<<1, T, 64 * 1024>>>(d, 64 * kb);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/oob_launch_limits.cu:10:1: note: kernel 'fill' defined here
 * corpus/oob_launch_limits.cu:59:5: note: the launch fails (cudaErrorInvalidValue) and the kernel does not run: ask for less, or raise the kernel's limit with cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) before launching
 * corpus/oob_launch_limits.cu:65:5: error: launch refused: 'fill_optin' at the launch on line 65 asks for 131072 bytes of dynamic shared memory, more than the 102400 its cudaFuncSetAttribute on line 62 allows [shared-launch-limit]
 *       fill_optin<<<1, T, 128 * 1024>>>(d, 128 * kb);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/oob_launch_limits.cu:20:1: note: kernel 'fill_optin' defined here
 * corpus/oob_launch_limits.cu:62:5: note: cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, ...) here
 * corpus/oob_launch_limits.cu:65:5: note: the launch fails (cudaErrorInvalidValue) and the kernel does not run: ask for less, or raise the kernel's limit with cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) before launching
 * corpus/oob_launch_limits.cu:72:5: error: launch refused: 'fill_static' at the launch on line 72 asks for 200704 bytes of dynamic shared memory (233472 with the kernel's 32768 static), more than the 232448 bytes a block may use on sm_90 [shared-launch-limit]
 *       fill_static<<<1, T, 196 * 1024>>>(d, 196 * kb);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/oob_launch_limits.cu:30:1: note: kernel 'fill_static' defined here
 * corpus/oob_launch_limits.cu:69:5: note: cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, ...) here
 * corpus/oob_launch_limits.cu:72:5: note: the launch fails (cudaErrorInvalidValue) and the kernel does not run: ask for less, or raise the kernel's limit with cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) before launching
 * check-output-end
 */
