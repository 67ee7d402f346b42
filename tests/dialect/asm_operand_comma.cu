// dialect: inline asm input operands with no comma between them,
// `::"r"(v) "l"(p)`. nvcc accepts it; clang: "expected ')'". A note; the
// asm statement is not analyzed (a global store here).
// expect: nvcc-accepts 1
#include <cuda_runtime.h>

__device__ void store_arrived(unsigned char *arrived, unsigned char val)
{
    unsigned int reg_val = val;
    asm volatile("st.release.sys.global.u8 [%1], %0;" ::"r"(reg_val) "l"(arrived) : "memory");
}

__global__ void arrive(unsigned char *flags, float *out)
{
    __shared__ float s[128];
    s[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = s[127 - threadIdx.x];
    if (threadIdx.x == 0)
        store_arrived(flags + blockIdx.x, 1);
}

void run(unsigned char *f, float *o) { arrive<<<4, 128>>>(f, o); }
