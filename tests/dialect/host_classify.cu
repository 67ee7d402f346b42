// dialect: host code calling isfinite/isnan/isinf/signbit in the global
// namespace (a test harness's validate_result). nvcc declares them host
// and device; clang's __clang_cuda_cmath.h only __device__, and <cmath>
// puts the host ones in std::. Closed in cuda_compat.h, for every
// arithmetic type, beside std:: (which a using-declaration may bring in).
// expect: clean
#include <cuda_runtime.h>
#include <stdio.h>

template <class T> int count_bad(const T *v, int n)
{
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += !isfinite(v[i]) + isnan(v[i]) + isinf(v[i]) + signbit(v[i]);
    return bad;
}

__global__ void scale(float *out)
{
    __shared__ float s[64];
    s[threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = isfinite(s[63 - threadIdx.x]) ? s[63 - threadIdx.x] : 0.0f;
}

int check(float *o, float *h, double *d, long double *l)
{
    scale<<<1, 64>>>(o);
    return count_bad(h, 64) + count_bad(d, 64) + count_bad(l, 2) + isnan(3) + isinf(4u);
}
