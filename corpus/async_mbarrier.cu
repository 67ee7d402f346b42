// mbarrier objects driven by inline PTX (sm_90): a 64-bit word in shared
// memory that threads arrive on and wait for. Waiting until the phase
// completes orders what the arriving threads wrote before they arrived
// with what the waiting threads read after the wait, like a block
// barrier, and thread 0's init must be made visible (a block barrier)
// before any other thread uses the word. The twins: no wait (the read
// races with the neighbour's write), and no barrier after init.
#include "common.cuh"
#include <cstdint>

#define N 128

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

// every thread arrives, then waits for the phase: the exchange is ordered
__global__ void mbar_exchange(const float *in, float *out)
{
    __shared__ float s[N];
    __shared__ __align__(8) uint64_t bar;
    int t = threadIdx.x;
    unsigned b = smem_addr(&bar);
    if (t == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(b), "r"(N) : "memory");
    __syncthreads();
    s[t] = in[t];
    uint64_t state;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(b) : "memory");
    asm volatile("{\n\t.reg .pred p;\n\tWAIT_X:\n\t"
                 "mbarrier.try_wait.shared.b64 p, [%0], %1;\n\t@!p bra WAIT_X;\n\t}"
                 :: "r"(b), "l"(state) : "memory");
    out[t] = s[(t + 1) % N];
}

// the same with no wait: the neighbour's element may not be written yet
__global__ void mbar_no_wait(const float *in, float *out)
{
    __shared__ float s[N];
    __shared__ __align__(8) uint64_t bar;
    int t = threadIdx.x;
    unsigned b = smem_addr(&bar);
    if (t == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(b), "r"(N) : "memory");
    __syncthreads();
    s[t] = in[t];
    uint64_t state;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(b) : "memory");
    out[t] = s[(t + 1) % N] + (float)(state & 1);
}

// thread 0 fills the tile and arrives alone (count 1); every thread waits
// on the phase's parity and then reads: ordered
__global__ void mbar_single_producer(const float *in, float *out)
{
    __shared__ float s[N];
    __shared__ __align__(8) uint64_t bar;
    int t = threadIdx.x;
    unsigned b = smem_addr(&bar);
    if (t == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(b), "r"(1) : "memory");
    __syncthreads();
    if (t == 0) {
        for (int i = 0; i < N; i++)
            s[i] = in[i];
        uint64_t state;
        asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(b) : "memory");
    }
    asm volatile("{\n\t.reg .pred p;\n\tWAIT_P:\n\t"
                 "mbarrier.try_wait.parity.shared.b64 p, [%0], %1;\n\t@!p bra WAIT_P;\n\t}"
                 :: "r"(b), "r"(0) : "memory");
    out[t] = s[N - 1 - t];
}

// no barrier between thread 0's init and the others' arrive (and no wait:
// a phase that may never complete must not hang the measurement)
__global__ void mbar_uninit(const float *in, float *out)
{
    __shared__ float s[N];
    __shared__ __align__(8) uint64_t bar;
    int t = threadIdx.x;
    unsigned b = smem_addr(&bar);
    if (t == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(b), "r"(N) : "memory");
    s[t] = in[t];
    uint64_t state;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(b) : "memory");
    out[t] = s[t] + (float)(state & 1);
}

int main()
{
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, N * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_in, 0, N * sizeof(float)));

    mbar_exchange<<<1, N>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    mbar_no_wait<<<1, N>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    mbar_single_producer<<<1, N>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    mbar_uninit<<<1, N>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return 0;
}

/*
 * check-output-start
 * corpus/async_mbarrier.cu:50:14: error: missing barrier: read-after-write race on 's': thread 31 reads s[32], which thread 32 wrote at line 47, with no __syncthreads() in between (different warps) in kernel 'mbar_no_wait' with blockDim (128,1,1) from the launch on line 103 [missing-barrier]
 *       out[t] = s[(t + 1) % N] + (float)(state & 1);
 *                ^~~~~~~~~~~~~~
 * corpus/async_mbarrier.cu:47:5: note: the racing write of 's' by thread 32
 * corpus/async_mbarrier.cu:40:5: note: 's' declared here
 * corpus/async_mbarrier.cu:50:14: note: add __syncthreads() between the two accesses
 * corpus/async_mbarrier.cu:88:1: error: missing barrier: mbarrier 'bar' used before its initialization is visible: read-after-write race: thread 32 reads bar, which thread 0 wrote at line 85, with no __syncthreads() in between (different warps) in kernel 'mbar_uninit' with blockDim (128,1,1) from the launch on line 111 [missing-barrier]
 *       asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(b) : "memory");
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_mbarrier.cu:85:1: note: the racing write of 'bar' by thread 0
 * corpus/async_mbarrier.cu:81:5: note: 'bar' declared here
 * corpus/async_mbarrier.cu:88:1: note: __syncthreads() after mbarrier.init (with fence.mbarrier_init for the async proxy), before any thread uses the mbarrier
 * check-output-end
 */
