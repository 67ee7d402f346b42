// __launch_bounds__ written over template parameters and a constexpr call
// (ggml's mmf: __launch_bounds__(warp_size()*nwarps, 1)) bounds the block
// shapes admitted in each instantiation: nwarps = 1 admits 32 threads, one
// warp, where the skipped barrier orders nothing that needs it; the
// assumed shape stays a warp wide (32x4 under a bound of 128). The twin's
// bound is the same but its one-warp read crosses lanes with no
// __syncwarp: a warp-sync finding.
static constexpr __device__ int warp_size() { return 32; }

template <int nwarps>
__launch_bounds__(warp_size() * nwarps, 1)
__global__ void rows(float *o)
{
    constexpr int ws = warp_size();
    __shared__ float buf[8 * 64];
    buf[threadIdx.y * 64 + threadIdx.x] = o[threadIdx.x];
    if (nwarps > 1) {
        __syncthreads();
    }
    o[threadIdx.x] = buf[((threadIdx.y + 1) % nwarps) * 64 + threadIdx.x + ws - 32];
}
template __global__ void rows<1>(float *);
template __global__ void rows<4>(float *);

template <int nwarps>
__launch_bounds__(warp_size() * nwarps, 1)
__global__ void lanes(float *o)
{
    constexpr int ws = warp_size();
    __shared__ float buf[8 * 64];
    buf[threadIdx.y * 64 + threadIdx.x] = o[threadIdx.x];
    if (nwarps > 1) {
        __syncthreads();
    }
    o[threadIdx.x] = buf[((threadIdx.y + 1) % nwarps) * 64 + (threadIdx.x + 1) % ws];
}
template __global__ void lanes<1>(float *);

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/missing-barrier/launch_bounds_template.cu:35:22: warning: unsynchronized warp exchange on 'buf': lane 0 of warp 0 reads buf[1], which lane 1 wrote at line 31, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'lanes' with blockDim (32,1,1) (assumed within __launch_bounds__(32): no launch site or --block-dim gives it) [warp-sync]
 *       o[threadIdx.x] = buf[((threadIdx.y + 1) % nwarps) * 64 + (threadIdx.x + 1) % ws];
 *                        ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/launch_bounds_template.cu:31:5: note: the other lane's write of 'buf'
 * tests/rules/missing-barrier/launch_bounds_template.cu:30:5: note: 'buf' declared here
 * tests/rules/missing-barrier/launch_bounds_template.cu:35:22: note: add __syncwarp() between the write and the access that depends on it
 * check-output-end
 */
