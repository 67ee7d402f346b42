// Compile-time values are alike in every thread (issue 27: ggml's
// flash-attention kernels). A const integer initialized by a call clang
// evaluates at compile time (constexpr int nb = get_config(D).nbatch) is that
// constant, not a call's per-thread value; an `if constexpr` condition is
// a constant, and in an instantiation only the branch taken is code; so is
// a plain if whose condition clang computes. No barrier here is divergent.
struct config {
    int nbatch;
    int nstages;
};

static constexpr __device__ config get_config(int d)
{
    return d >= 128 ? config{ d / 4, 2 } : config{ d / 2, 1 };
}

template <int D, int nstages>
__device__ void tile(float *s, float *o)
{
    constexpr int nb = get_config(D).nbatch;
    for (int k0 = D - 1 - (D - 1) % nb; k0 >= 0; k0 -= nb) {
        s[threadIdx.x] = o[k0 + threadIdx.x];
        __syncthreads();
        o[threadIdx.x] += s[D - 1 - threadIdx.x];
        __syncthreads();
    }
    if constexpr (get_config(D).nstages > nstages) {
        s[threadIdx.x] = 0.0f;
        __syncthreads();
    }
}

template <int D, int nstages>
__global__ void kernel(float *o)
{
    __shared__ float s[D];
    tile<D, nstages>(s, o);
}

// a plain if on a constexpr call's result: the constant, in each
// instantiation (ggml's mmq skips unused specializations this way)
template <int D>
__global__ void skipped(float *o)
{
    __shared__ float s[D];
    if (get_config(D).nstages == 1)
        return;
    s[threadIdx.x] = o[threadIdx.x];
    __syncthreads();
    o[threadIdx.x] = s[D - 1 - threadIdx.x];
}

void run(float *o)
{
    skipped<64><<<1, 64>>>(o);
    skipped<128><<<1, 128>>>(o);
    kernel<128, 1><<<1, 128>>>(o);
    kernel<128, 2><<<1, 128>>>(o);
}

/*
 * check-args: --no-cuda
 * check-output-start
 * check-output-end
 */
