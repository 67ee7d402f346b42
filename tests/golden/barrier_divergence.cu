// smemlint-args: --block-dim 128 --no-cuda
// divergent-barrier: positive and negative cases.
namespace cg = cooperative_groups;

__global__ void early_return(const float *in, float *out, int n)
{
    __shared__ float s[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    s[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = s[threadIdx.x ^ 1];
}

__global__ void uniform_return(const float *in, float *out, int n)
{
    __shared__ float s[128];
    if (blockIdx.x * blockDim.x >= n)
        return;
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    out[t] = s[127 - t];
}

__global__ void tid_loop(float *out)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    s[t] = t;
    for (int k = 0; k < t % 4; ++k)
        __syncthreads();
    out[t] = s[t];
}

__global__ void uniform_loop(float *out, int n)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    float acc = 0;
    for (int k = 0; k < n; ++k) {
        s[t] = k;
        __syncthreads();
        acc += s[(t + 1) % 128];
        __syncthreads();
    }
    out[t] = acc;
}

__global__ void under_ternary_and_or(float *out)
{
    int t = threadIdx.x;
    int v = t > 3 ? __syncthreads_count(t) : 0;
    if (t < 100 && __syncthreads_or(t))
        v++;
    out[t] = v;
}

__global__ void tid_break(float *out, int n)
{
    int t = threadIdx.x;
    for (int k = 0; k < n; ++k) {
        __syncthreads();
        if (t == k)
            break;
    }
    out[t] = 0;
}

__global__ void tid_continue(float *out, int n)
{
    int t = threadIdx.x;
    for (int k = 0; k < n; ++k) {
        __syncthreads();
        if (t & 1)
            continue;
        __syncthreads();
    }
    out[t] = 0;
}

__global__ void tid_switch(float *out)
{
    int t = threadIdx.x;
    switch (t & 3) {
    case 0:
        __syncthreads();
        break;
    default:
        break;
    }
    out[t] = 0;
}

__global__ void uniform_switch_cg(float *out)
{
    cg::thread_block b = cg::this_thread_block();
    switch (blockIdx.x) {
    case 0:
        b.sync();
        break;
    default:
        cg::sync(b);
        break;
    }
    out[threadIdx.x] = 0;
}

__global__ void count_result_uniform(float *out)
{
    int t = threadIdx.x;
    int c = __syncthreads_count(t & 1);
    if (c > 10)
        __syncthreads();
    out[t] = c;
}

__global__ void asm_and_cg_under_tid(float *out)
{
    cg::thread_block b = cg::this_thread_block();
    int t = threadIdx.x;
    if (t < 32)
        asm volatile("bar.sync 0;");
    if (t >= 64)
        b.sync();
    if (t < 32)
        __syncwarp();
    out[t] = 0;
}

__global__ void loaded_value_cond(const int *flags, float *out)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = flags[t];
    __syncthreads();
    if (s[t] > 0)
        __syncthreads();
    if (s[0] > 0)
        __syncthreads();
    out[t] = 0;
}

/* smemlint-expect
 * 12 divergent-barrier
 * 33 divergent-barrier
 * 54 divergent-barrier
 * 55 divergent-barrier
 * 64 divergent-barrier
 * 78 divergent-barrier
 * 88 divergent-barrier
 * 124 divergent-barrier
 * 126 divergent-barrier
 * 139 divergent-barrier
 */
