// dialect: a __shared__ variable of class type declared with no
// initializer. clang: "initialization is not supported for __shared__
// variables"; nvcc warns (#20054) and ignores the constructor, and the
// code initializes it itself (init(&bar, n)).
// expect: nvcc-accepts 1
#include <cuda/barrier>

__global__ void stage(float *out)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ float s[128];
    if (threadIdx.x == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    s[threadIdx.x] = out[threadIdx.x];
    bar.arrive_and_wait();
    out[threadIdx.x] = s[127 - threadIdx.x];
}

void run(float *o) { stage<<<1, 128>>>(o); }
