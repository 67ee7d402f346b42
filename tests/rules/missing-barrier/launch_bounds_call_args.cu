// __launch_bounds__ given by a constexpr call with arguments (ggml's
// flash attention: __launch_bounds__(get_nthreads(DKQ, ncols1*ncols2), 1))
// bounds the block shapes of each instantiation: the call's value is the
// one clang computes for the call of the same function in the body whose
// arguments have the same values (here `get_nthreads(D, ncols)`). The
// rows loop strides by nwarps, so with the bound of 64 threads (2 warps)
// each row has one writer; an assumed 32x8 block would have threads
// (0,0) and (0,2) write one row two iterations apart. Only the transposed
// read's bank conflict is left, under 32x2, within the bound.
static constexpr __device__ int get_nthreads(int d, int ncols)
{
    return d >= 128 && ncols >= 32 ? 256 : ncols >= 16 ? 128 : 64;
}

template <int D, int ncols1, int ncols2>
__launch_bounds__(get_nthreads(D, ncols1 * ncols2), 1)
__global__ void rows(const float *in, float *out)
{
    constexpr int ncols = ncols1 * ncols2;
    constexpr int nwarps = get_nthreads(D, ncols) / 32;
    __shared__ float buf[16 * 32];
    for (int j1 = 0; j1 < 16; j1 += nwarps)
        buf[(j1 + threadIdx.y) * 32 + threadIdx.x] = in[(j1 + threadIdx.y) * 32 + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * 32 + threadIdx.x] = buf[threadIdx.x * 16 + threadIdx.y];
}
template __global__ void rows<64, 4, 2>(const float *, float *);

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/missing-barrier/launch_bounds_call_args.cu:25:43: warning: 16-way bank conflict on load of 'buf' (float[512]) in kernel 'rows' with blockDim (32,2,1) (assumed within __launch_bounds__(64): no launch site or --block-dim gives it); lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[threadIdx.y * 32 + threadIdx.x] = buf[threadIdx.x * 16 + threadIdx.y];
 *                                             ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/launch_bounds_call_args.cu:21:5: note: 'buf' declared here
 * tests/rules/missing-barrier/launch_bounds_call_args.cu:25:43: note: index 'buf' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * check-output-end
 */
