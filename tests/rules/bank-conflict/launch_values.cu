#include <cassert>

// Values the launch sites fix: a head size passed as a literal, a size
// computed from a shift, a block size from a non-const local, gridDim of
// a literal grid, __builtin_assume; and values nothing fixes, which stay
// unknown (an index that is in bounds for some values only is not given
// a degree from the out-of-bounds ones).
__global__ void head_size(const float *q, float *out, int d)
{
    __shared__ float tile[64 * 64];
    tile[threadIdx.x * d] = q[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x * (d + 1)];
}

__global__ void log_size(float *out, int log2n)
{
    __shared__ float buf[1024];
    int n = 1 << log2n;
    buf[(threadIdx.x * n) % 1024] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = buf[threadIdx.x];
}

__global__ void grid_stride(float *out)
{
    __shared__ float g[256];
    g[threadIdx.x * gridDim.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = g[threadIdx.x];
}

__global__ void assumed(float *out, int n)
{
    __builtin_assume(n == 2);
    __shared__ float t[64];
    t[threadIdx.x * n] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = t[threadIdx.x];
}

__global__ void unknown_stride(float *out, int n)
{
    __shared__ float temp[64];
    temp[threadIdx.x * n] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = temp[threadIdx.x];
}

// assert(n == 4) is a fact from there on, as __builtin_assume is
__global__ void asserted(float *out, int n)
{
    assert(n == 4);
    __shared__ float t4[256];
    t4[threadIdx.x * n] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = t4[threadIdx.x];
}

// launched with two head sizes: the worst launch is named
__global__ void two_heads(const float *q, float *out, int d)
{
    __shared__ float tile[64 * 65];
    tile[threadIdx.x * d] = q[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x];
}

int pick(void);

void launch(const float *q, float *f)
{
    head_size<<<1, 64>>>(q, f, 64);
    int log2n = 3;
    log_size<<<1, 128>>>(f, log2n);
    unsigned threads = 64 / 2;
    grid_stride<<<4, threads>>>(f);
    assumed<<<1, 32>>>(f, pick());
    unknown_stride<<<1, 32>>>(f, pick());
    asserted<<<1, 32>>>(f, pick());
    two_heads<<<1, 64>>>(q, f, 65);
    two_heads<<<1, 64>>>(q, f, 64);
}

/*
 * check-output-start
 * tests/rules/bank-conflict/launch_values.cu:11:5: warning: 32-way bank conflict on store of 'tile' (float[4096]) in kernel 'head_size' with blockDim (64,1,1) from the launch on line 73; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 256) [bank-conflict]
 *       tile[threadIdx.x * d] = q[threadIdx.x];
 *       ^~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/launch_values.cu:10:5: note: 'tile' declared here
 * tests/rules/bank-conflict/launch_values.cu:11:5: note: index 'tile' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 0 of 1 conflicting accesses become conflict-free
 * tests/rules/bank-conflict/launch_values.cu:20:5: warning: 8-way bank conflict on store of 'buf' (float[1024]) in kernel 'log_size' with blockDim (128,1,1) from the launch on line 75; lanes 0 and 4 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       buf[(threadIdx.x * n) % 1024] = 1.0f;
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/launch_values.cu:18:5: note: 'buf' declared here
 * tests/rules/bank-conflict/launch_values.cu:20:5: note: index 'buf' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * tests/rules/bank-conflict/launch_values.cu:28:5: warning: 4-way bank conflict on store of 'g' (float[256]) in kernel 'grid_stride' with blockDim (32,1,1) from the launch on line 77; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       g[threadIdx.x * gridDim.x] = 1.0f;
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/launch_values.cu:27:5: note: 'g' declared here
 * tests/rules/bank-conflict/launch_values.cu:28:5: note: index 'g' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * tests/rules/bank-conflict/launch_values.cu:37:5: warning: 2-way bank conflict on store of 't' (float[64]) in kernel 'assumed' with blockDim (32,1,1) from the launch on line 78; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       t[threadIdx.x * n] = 1.0f;
 *       ^~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/launch_values.cu:36:5: note: 't' declared here
 * tests/rules/bank-conflict/launch_values.cu:37:5: note: index 't' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * tests/rules/bank-conflict/launch_values.cu:55:5: warning: 4-way bank conflict on store of 't4' (float[256]) in kernel 'asserted' with blockDim (32,1,1) from the launch on line 80; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       t4[threadIdx.x * n] = 1.0f;
 *       ^~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/launch_values.cu:54:5: note: 't4' declared here
 * tests/rules/bank-conflict/launch_values.cu:55:5: note: index 't4' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * tests/rules/bank-conflict/launch_values.cu:64:5: warning: 32-way bank conflict on store of 'tile' (float[4160]) in kernel 'two_heads' with blockDim (64,1,1) from the launch on line 82; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 256) [bank-conflict]
 *       tile[threadIdx.x * d] = q[threadIdx.x];
 *       ^~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/launch_values.cu:63:5: note: 'tile' declared here
 * check-output-end
 */
