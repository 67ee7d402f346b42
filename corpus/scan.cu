// Block-wide prefix sums (after GPU Gems 3, chapter 39).
#include "common.cuh"

#define HS_N 256        // Hillis-Steele: one element per thread
#define SCAN_N 256      // Blelloch: two elements per thread
#define SCAN_THREADS (SCAN_N / 2)
#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

// Hillis-Steele inclusive scan, double buffered in dynamic shared memory
// (2 * HS_N floats); pout/pin flip between the halves every step.
__global__ void scan_hillis_steele(float *g_odata, const float *g_idata)
{
    extern __shared__ float temp[];
    int thid = threadIdx.x;
    int pout = 0, pin = 1;

    temp[pout * HS_N + thid] = g_idata[blockIdx.x * HS_N + thid];
    __syncthreads();
    for (int offset = 1; offset < HS_N; offset *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        float v = temp[pin * HS_N + thid];
        if (thid >= offset)
            v += temp[pin * HS_N + thid - offset];
        temp[pout * HS_N + thid] = v;
        __syncthreads();
    }
    g_odata[blockIdx.x * HS_N + thid] = temp[pout * HS_N + thid];
}

// Work-efficient (Blelloch) exclusive scan, no bank-conflict avoidance.
__global__ void scan_blelloch(float *g_odata, const float *g_idata)
{
    __shared__ float temp[SCAN_N];
    int thid = threadIdx.x;
    const float *in = g_idata + blockIdx.x * SCAN_N;
    float *out = g_odata + blockIdx.x * SCAN_N;
    int offset = 1;

    temp[2 * thid] = in[2 * thid];
    temp[2 * thid + 1] = in[2 * thid + 1];

    for (int d = SCAN_N >> 1; d > 0; d >>= 1) {  // up-sweep
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (thid == 0)
        temp[SCAN_N - 1] = 0.0f;

    for (int d = 1; d < SCAN_N; d *= 2) {  // down-sweep
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            float t = temp[ai];
            float u = temp[bi];
            temp[ai] = u;
            temp[bi] = u + t;
        }
    }
    __syncthreads();
    out[2 * thid] = temp[2 * thid];
    out[2 * thid + 1] = temp[2 * thid + 1];
}

// Blelloch scan with the padding macro: one word of padding every
// NUM_BANKS elements; elements loaded as thid and thid + n/2.
__global__ void scan_blelloch_cf(float *g_odata, const float *g_idata)
{
    __shared__ float temp[SCAN_N + SCAN_N / NUM_BANKS];
    int thid = threadIdx.x;
    const float *in = g_idata + blockIdx.x * SCAN_N;
    float *out = g_odata + blockIdx.x * SCAN_N;
    int offset = 1;

    int ai = thid;
    int bi = thid + (SCAN_N / 2);
    int bankOffsetA = CONFLICT_FREE_OFFSET(ai);
    int bankOffsetB = CONFLICT_FREE_OFFSET(bi);
    temp[ai + bankOffsetA] = in[ai];
    temp[bi + bankOffsetB] = in[bi];

    for (int d = SCAN_N >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1;
            int b = offset * (2 * thid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            temp[b] += temp[a];
        }
        offset *= 2;
    }
    if (thid == 0)
        temp[SCAN_N - 1 + CONFLICT_FREE_OFFSET(SCAN_N - 1)] = 0.0f;

    for (int d = 1; d < SCAN_N; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1;
            int b = offset * (2 * thid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            float t = temp[a];
            float u = temp[b];
            temp[a] = u;
            temp[b] = u + t;
        }
    }
    __syncthreads();
    out[ai] = temp[ai + bankOffsetA];
    out[bi] = temp[bi + bankOffsetB];
}

int main()
{
    const int blocks = 2;
    const size_t bytes = blocks * SCAN_N * sizeof(float);
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, bytes));
    CUDA_CHECK(cudaMalloc(&d_out, bytes));
    CUDA_CHECK(cudaMemset(d_in, 0, bytes));

    scan_hillis_steele<<<blocks, HS_N, 2 * HS_N * sizeof(float)>>>(d_out, d_in);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    scan_blelloch<<<blocks, SCAN_THREADS>>>(d_out, d_in);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    scan_blelloch_cf<<<blocks, SCAN_THREADS>>>(d_out, d_in);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return 0;
}

/*
 * check-output-start
 * corpus/scan.cu:50:13: warning: 8-way bank conflict on load and store of 'temp' (float[256]) in kernel 'scan_blelloch' with blockDim (128,1,1) from the launch on line 137, worst when offset = 4 (mean 3.92-way over the iterations); lanes 0 and 4 of warp 0 hit bank 7 (byte offsets 28 and 156) [bank-conflict]
 *               temp[bi] += temp[ai];
 *               ^~~~~~~~
 * corpus/scan.cu:36:5: note: 'temp' declared here
 * corpus/scan.cu:50:13: note: index 'temp' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 11 of 11 conflicting accesses become conflict-free
 * corpus/scan.cu:50:25: warning: 8-way bank conflict on load of 'temp' (float[256]) in kernel 'scan_blelloch' with blockDim (128,1,1) from the launch on line 137, worst when offset = 4 (mean 3.92-way over the iterations); lanes 0 and 4 of warp 0 hit bank 3 (byte offsets 12 and 140) [bank-conflict]
 *               temp[bi] += temp[ai];
 *                           ^~~~~~~~
 * corpus/scan.cu:36:5: note: 'temp' declared here
 * corpus/scan.cu:50:25: note: index 'temp' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 11 of 11 conflicting accesses become conflict-free
 * corpus/scan.cu:63:23: warning: 8-way bank conflict on load of 'temp' (float[256]) in kernel 'scan_blelloch' with blockDim (128,1,1) from the launch on line 137, worst when offset = 32 (mean 3.92-way over the iterations); lanes 0 and 1 of warp 0 hit bank 15 (byte offsets 60 and 188) [bank-conflict]
 *               float t = temp[ai];
 *                         ^~~~~~~~
 * corpus/scan.cu:36:5: note: 'temp' declared here
 * corpus/scan.cu:63:23: note: index 'temp' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 11 of 11 conflicting accesses become conflict-free
 * corpus/scan.cu:64:23: warning: 8-way bank conflict on load of 'temp' (float[256]) in kernel 'scan_blelloch' with blockDim (128,1,1) from the launch on line 137, worst when offset = 32 (mean 3.92-way over the iterations); lanes 0 and 1 of warp 0 hit bank 31 (byte offsets 124 and 252) [bank-conflict]
 *               float u = temp[bi];
 *                         ^~~~~~~~
 * corpus/scan.cu:36:5: note: 'temp' declared here
 * corpus/scan.cu:64:23: note: index 'temp' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 11 of 11 conflicting accesses become conflict-free
 * corpus/scan.cu:65:13: warning: 8-way bank conflict on store of 'temp' (float[256]) in kernel 'scan_blelloch' with blockDim (128,1,1) from the launch on line 137, worst when offset = 32 (mean 3.92-way over the iterations); lanes 0 and 1 of warp 0 hit bank 15 (byte offsets 60 and 188) [bank-conflict]
 *               temp[ai] = u;
 *               ^~~~~~~~
 * corpus/scan.cu:36:5: note: 'temp' declared here
 * corpus/scan.cu:65:13: note: index 'temp' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 11 of 11 conflicting accesses become conflict-free
 * corpus/scan.cu:66:13: warning: 8-way bank conflict on store of 'temp' (float[256]) in kernel 'scan_blelloch' with blockDim (128,1,1) from the launch on line 137, worst when offset = 32 (mean 3.92-way over the iterations); lanes 0 and 1 of warp 0 hit bank 31 (byte offsets 124 and 252) [bank-conflict]
 *               temp[bi] = u + t;
 *               ^~~~~~~~
 * corpus/scan.cu:36:5: note: 'temp' declared here
 * corpus/scan.cu:66:13: note: index 'temp' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 11 of 11 conflicting accesses become conflict-free
 * check-output-end
 */
