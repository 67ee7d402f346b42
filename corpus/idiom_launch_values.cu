// Real-code idioms: shared indices that depend on values fixed at the
// launch site (a head-size parameter, a log2 size, a block size held in a
// host local, gridDim, a value pinned by __builtin_assume).
#include "common.cuh"

#define FA_BR 128   // query rows per block, one per thread
#define FA_BC 16    // key rows per tile
#define FA_DMAX 64  // largest head size the tiles hold

// Attention scores Q K^T for one tile; row r of Q at s_q[r * d + c].
__global__ void lv_scores_d(const float *q, const float *kmat, float *scores, int d)
{
    __shared__ float s_q[FA_BR * FA_DMAX];
    __shared__ float s_k[FA_BC * FA_DMAX];
    int tid = threadIdx.x;
    const float *qb = q + blockIdx.x * FA_BR * d;
    for (int e = tid; e < FA_BR * d; e += blockDim.x)
        s_q[(e / d) * d + e % d] = qb[e];
    for (int e = tid; e < FA_BC * d; e += blockDim.x)
        s_k[(e / d) * d + e % d] = kmat[e];
    __syncthreads();
    float scale = rsqrtf((float)d);
    for (int j = 0; j < FA_BC; ++j) {
        float acc = 0.0f;
        for (int c = 0; c < d; ++c) {
            float qv = s_q[tid * d + c];
            acc += qv * s_k[j * d + c];
        }
        scores[(blockIdx.x * FA_BR + tid) * FA_BC + j] = acc * scale;
    }
}

// Same with rows padded to d + 1 words.
__global__ void lv_scores_dpad(const float *q, const float *kmat, float *scores, int d)
{
    __shared__ float s_qp[FA_BR * (FA_DMAX + 1)];
    __shared__ float s_kp[FA_BC * (FA_DMAX + 1)];
    int tid = threadIdx.x;
    int ld = d + 1;
    const float *qb = q + blockIdx.x * FA_BR * d;
    for (int e = tid; e < FA_BR * d; e += blockDim.x)
        s_qp[(e / d) * ld + e % d] = qb[e];
    for (int e = tid; e < FA_BC * d; e += blockDim.x)
        s_kp[(e / d) * ld + e % d] = kmat[e];
    __syncthreads();
    float scale = rsqrtf((float)d);
    for (int j = 0; j < FA_BC; ++j) {
        float acc = 0.0f;
        for (int c = 0; c < d; ++c) {
            float qv = s_qp[tid * ld + c];
            acc += qv * s_kp[j * ld + c];
        }
        scores[(blockIdx.x * FA_BR + tid) * FA_BC + j] = acc * scale;
    }
}

#define LV_TMAX 32

// N x N transpose into shared memory with N = 1 << log2n.
__global__ void lv_log2n(const float *in, float *out, int log2n)
{
    __shared__ float s_tr[LV_TMAX * LV_TMAX];
    int N = 1 << log2n;
    int tid = threadIdx.x;
    int r = tid & (N - 1);
    const float *src = in + blockIdx.x * N * N;
    for (int c = tid >> log2n; c < N; c += blockDim.x >> log2n)
        s_tr[r * N + c] = src[c * N + r];
    __syncthreads();
    for (int e = tid; e < N * N; e += blockDim.x)
        out[blockIdx.x * N * N + e] = s_tr[e];
}

// Column-major staging of a 32 x (warps) tile; the block size comes from
// a host local.
__global__ void lv_threads_local(const float *in, float *out)
{
    __shared__ float s_cm[256];
    int tid = threadIdx.x;
    int nw = blockDim.x / 32;
    int lane = tid % 32, warp = tid / 32;
    s_cm[lane * nw + warp] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    out[blockIdx.x * blockDim.x + tid] = s_cm[tid];
}

// Slots interleaved by the grid size.
__global__ void lv_griddim(const float *in, float *out)
{
    __shared__ float s_g[64 * 8];
    int tid = threadIdx.x;
    s_g[tid * gridDim.x] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    out[blockIdx.x * blockDim.x + tid] = s_g[((tid + 1) % blockDim.x) * gridDim.x];
}

// The stride is a parameter the compiler is told is 2.
__global__ void lv_assume(const float *in, float *out, int n)
{
    __builtin_assume(n == 2);
    __shared__ float s_as[128 * 4];
    int tid = threadIdx.x;
    s_as[tid * n] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    out[blockIdx.x * blockDim.x + tid] = s_as[(tid ^ 1) * n];
}

int main()
{
    const int blocks = 2;
    const int d = 64;
    const size_t nq = blocks * FA_BR * FA_DMAX;
    float *d_q, *d_k, *d_s, *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_q, nq * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_k, FA_BC * FA_DMAX * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_s, blocks * FA_BR * FA_BC * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_in, 4096 * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, 4096 * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_q, 0, nq * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_k, 0, FA_BC * FA_DMAX * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_in, 0, 4096 * sizeof(float)));

    lv_scores_d<<<blocks, FA_BR>>>(d_q, d_k, d_s, 64);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    lv_scores_dpad<<<blocks, FA_BR>>>(d_q, d_k, d_s, d);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    lv_log2n<<<blocks, 128>>>(d_in, d_out, 5);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    int n = 128;
    unsigned threads = n / 2;
    lv_threads_local<<<1, threads>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    lv_griddim<<<4, 64>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    lv_assume<<<blocks, 128>>>(d_in, d_out, 2);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_q));
    CUDA_CHECK(cudaFree(d_k));
    CUDA_CHECK(cudaFree(d_s));
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return 0;
}

/*
 * check-output-start
 * corpus/idiom_launch_values.cu:26:24: warning: 32-way bank conflict on load of 's_q' (float[8192]) in kernel 'lv_scores_d' with blockDim (128,1,1) from the launch on line 123; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 256) [bank-conflict]
 *               float qv = s_q[tid * d + c];
 *                          ^~~~~~~~~~~~~~~~
 * corpus/idiom_launch_values.cu:13:5: note: 's_q' declared here
 * corpus/idiom_launch_values.cu:26:24: note: index 's_q' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 0 of 1 conflicting accesses become conflict-free
 * corpus/idiom_launch_values.cu:68:9: warning: 32-way bank conflict on store of 's_tr' (float[1024]) in kernel 'lv_log2n' with blockDim (128,1,1) from the launch on line 131; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           s_tr[r * N + c] = src[c * N + r];
 *           ^~~~~~~~~~~~~~~
 * corpus/idiom_launch_values.cu:62:5: note: 's_tr' declared here
 * corpus/idiom_launch_values.cu:68:9: note: index 's_tr' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * corpus/idiom_launch_values.cu:82:5: warning: 2-way bank conflict on store of 's_cm' (float[256]) in kernel 'lv_threads_local' with blockDim (64,1,1) from the launch on line 137; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s_cm[lane * nw + warp] = in[blockIdx.x * blockDim.x + tid];
 *       ^~~~~~~~~~~~~~~~~~~~~~
 * corpus/idiom_launch_values.cu:78:5: note: 's_cm' declared here
 * corpus/idiom_launch_values.cu:82:5: note: index 's_cm' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * corpus/idiom_launch_values.cu:92:5: warning: 4-way bank conflict on store of 's_g' (float[512]) in kernel 'lv_griddim' with blockDim (64,1,1) from the launch on line 141; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s_g[tid * gridDim.x] = in[blockIdx.x * blockDim.x + tid];
 *       ^~~~~~~~~~~~~~~~~~~~
 * corpus/idiom_launch_values.cu:90:5: note: 's_g' declared here
 * corpus/idiom_launch_values.cu:92:5: note: index 's_g' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 2 conflicting accesses become conflict-free
 * corpus/idiom_launch_values.cu:94:42: warning: 4-way bank conflict on load of 's_g' (float[512]) in kernel 'lv_griddim' with blockDim (64,1,1) from the launch on line 141; lanes 0 and 8 of warp 0 hit bank 4 (byte offsets 16 and 144) [bank-conflict]
 *       out[blockIdx.x * blockDim.x + tid] = s_g[((tid + 1) % blockDim.x) * gridDim.x];
 *                                            ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/idiom_launch_values.cu:90:5: note: 's_g' declared here
 * corpus/idiom_launch_values.cu:94:42: note: index 's_g' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 2 conflicting accesses become conflict-free
 * corpus/idiom_launch_values.cu:103:5: warning: 2-way bank conflict on store of 's_as' (float[512]) in kernel 'lv_assume' with blockDim (128,1,1) from the launch on line 145; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s_as[tid * n] = in[blockIdx.x * blockDim.x + tid];
 *       ^~~~~~~~~~~~~
 * corpus/idiom_launch_values.cu:101:5: note: 's_as' declared here
 * corpus/idiom_launch_values.cu:103:5: note: index 's_as' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * corpus/idiom_launch_values.cu:105:42: warning: 2-way bank conflict on load of 's_as' (float[512]) in kernel 'lv_assume' with blockDim (128,1,1) from the launch on line 145; lanes 0 and 16 of warp 0 hit bank 2 (byte offsets 8 and 136) [bank-conflict]
 *       out[blockIdx.x * blockDim.x + tid] = s_as[(tid ^ 1) * n];
 *                                            ^~~~~~~~~~~~~~~~~~~
 * corpus/idiom_launch_values.cu:101:5: note: 's_as' declared here
 * corpus/idiom_launch_values.cu:105:42: note: index 's_as' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * check-output-end
 */
