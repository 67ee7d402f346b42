// dialect: the cache-hinted stores __stcs/__stcg/__stwb of
// sm_32_intrinsics.h, which clang's wrapper does not include (it defines
// the __ld* loads and __stwt itself). Closed in cuda_compat.h.
// expect: clean
#include <cuda_runtime.h>

__global__ void stream(float *out, const float *in)
{
    __shared__ float s[256];
    s[threadIdx.x] = __ldcs(in + threadIdx.x);
    __syncthreads();
    __stcs(out + threadIdx.x, s[255 - threadIdx.x]);
    __stcg(out + 256 + threadIdx.x, 1.0f);
    __stwb(out + 512 + threadIdx.x, 2.0f);
}

void run(float *o, const float *i) { stream<<<1, 256>>>(o, i); }
