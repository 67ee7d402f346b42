// mbarrier objects in inline PTX: a wait for the phase (try_wait or
// test_wait in their retry loop) orders what the block wrote before it
// arrived with what it reads after, so the exchange in `ordered` is no
// race; its twin `no_wait` (arrive only) is. Thread 0's init must be
// published by a block barrier before the others use the word
// (`init_unpublished`). A wait in a branch is not a divergent barrier:
// threads that do not wait are allowed (`wait_in_branch`, whose read is
// its own element). The asm's operand lists are written with "::" (one
// C++ token) and a "memory" clobber, which must not make the address
// operand look like an output.
#include <cstdint>

#define N 128

__global__ void ordered(const float *in, float *out)
{
    __shared__ float s[N];
    __shared__ __align__(8) uint64_t bar;
    int t = threadIdx.x;
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
    if (t == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(b), "r"(N) : "memory");
    __syncthreads();
    s[t] = in[t];
    uint64_t state;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(b) : "memory");
    asm volatile("{\n\t.reg .pred p;\n\tWAIT:\n\t"
                 "mbarrier.try_wait.shared.b64 p, [%0], %1;\n\t@!p bra WAIT;\n\t}"
                 :: "r"(b), "l"(state) : "memory");
    out[t] = s[(t + 1) % N];
}

__global__ void no_wait(const float *in, float *out)
{
    __shared__ float s[N];
    __shared__ __align__(8) uint64_t bar;
    int t = threadIdx.x;
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
    if (t == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(b), "r"(N) : "memory");
    __syncthreads();
    s[t] = in[t];
    uint64_t state;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(b) : "memory");
    out[t] = s[(t + 1) % N] + (float)(state & 1);
}

__global__ void init_unpublished(float *out)
{
    __shared__ __align__(8) uint64_t bar;
    int t = threadIdx.x;
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
    if (t == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(b), "r"(N) : "memory");
    uint64_t state;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(b) : "memory");
    out[t] = (float)(state & 1);
}

__global__ void wait_in_branch(const float *in, float *out)
{
    __shared__ float s[N];
    __shared__ __align__(8) uint64_t bar;
    int t = threadIdx.x;
    unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
    if (t == 0)
        asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(b), "r"(1) : "memory");
    __syncthreads();
    s[t] = in[t];
    if (t == 0) {
        uint64_t state;
        asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(b) : "memory");
    }
    if (t < 32)
        asm volatile("{\n\t.reg .pred p;\n\tWAIT:\n\t"
                     "mbarrier.test_wait.parity.shared.b64 p, [%0], %1;\n\t@!p bra WAIT;\n\t}"
                     :: "r"(b), "r"(0) : "memory");
    out[t] = s[t];
}

void launch(const float *in, float *out)
{
    ordered<<<1, N>>>(in, out);
    no_wait<<<1, N>>>(in, out);
    init_unpublished<<<1, N>>>(out);
    wait_in_branch<<<1, N>>>(in, out);
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/missing-barrier/mbarrier_ptx.cu:45:14: error: missing barrier: read-after-write race on 's': thread 31 reads s[32], which thread 32 wrote at line 42, with no __syncthreads() in between (different warps) in kernel 'no_wait' with blockDim (128,1,1) from the launch on line 84 [missing-barrier]
 *       out[t] = s[(t + 1) % N] + (float)(state & 1);
 *                ^~~~~~~~~~~~~~
 * tests/rules/missing-barrier/mbarrier_ptx.cu:42:5: note: the racing write of 's' by thread 32
 * tests/rules/missing-barrier/mbarrier_ptx.cu:35:5: note: 's' declared here
 * tests/rules/missing-barrier/mbarrier_ptx.cu:45:14: note: add __syncthreads() between the two accesses
 * tests/rules/missing-barrier/mbarrier_ptx.cu:56:1: error: missing barrier: mbarrier 'bar' used before its initialization is visible: read-after-write race: thread 32 reads bar, which thread 0 wrote at line 54, with no __syncthreads() in between (different warps) in kernel 'init_unpublished' with blockDim (128,1,1) from the launch on line 85 [missing-barrier]
 *       asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(b) : "memory");
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/mbarrier_ptx.cu:54:1: note: the racing write of 'bar' by thread 0
 * tests/rules/missing-barrier/mbarrier_ptx.cu:50:5: note: 'bar' declared here
 * tests/rules/missing-barrier/mbarrier_ptx.cu:56:1: note: __syncthreads() after mbarrier.init (with fence.mbarrier_init for the async proxy), before any thread uses the mbarrier
 * check-output-end
 */
