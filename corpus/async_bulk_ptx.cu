// Bulk copies into shared memory on an mbarrier, as cuda::ptx spells them
// (see async_bulk.cu for the inline PTX): mbarrier_init, fence_mbarrier_init,
// mbarrier_arrive_expect_tx, cp_async_bulk(space_shared, space_global, ...)
// and the spin-wait `while (!mbarrier_try_wait_parity(&bar, 0)) {}`, which
// is the wait. racecheck judges the races; each kernel also checks its
// result on the host where the ordering is correct.
// - ptx_waited: init, __syncthreads(), copy by thread 0, every thread waits,
//   then reads another thread's element. Clean.
// - ptx_early: a __syncthreads() instead of the wait before the read.
// - ptx_uninit: thread 0 inits while the others arrive with no barrier
//   between (no wait: a phase that may never complete must not hang).
// - ptx_two_phases: two copies on one mbarrier, parities 0 and 1, with a
//   __syncthreads() between so that no thread misses phase 0. Clean.
#include "common.cuh"
#include <cuda/ptx>
#include <cstdint>

#define N 256
#define BYTES (N * 4)

namespace ptx = cuda::ptx;

__global__ void ptx_waited(const float *in, float *out)
{
    __shared__ alignas(128) float tile[N];
    __shared__ uint64_t bar;
    int t = threadIdx.x;
    if (t == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (t == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, BYTES);
        ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, tile, in, BYTES, &bar);
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
    }
    out[t] = tile[N - 1 - t];
}

__global__ void ptx_early(const float *in, float *out)
{
    __shared__ alignas(128) float tile[N];
    __shared__ uint64_t bar;
    int t = threadIdx.x;
    if (t == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (t == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, BYTES);
        ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, tile, in, BYTES, &bar);
    }
    __syncthreads();
    out[t] = tile[N - 1 - t];
    while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
    }
}

__global__ void ptx_uninit(const float *in, float *out)
{
    __shared__ uint64_t bar;
    int t = threadIdx.x;
    if (t == 0)
        ptx::mbarrier_init(&bar, N);
    uint64_t state = ptx::mbarrier_arrive(&bar);
    out[t] = in[t] + (float)(state & 1);
}

__global__ void ptx_two_phases(const float *in, float *out)
{
    __shared__ alignas(128) float a[N];
    __shared__ alignas(128) float b[N];
    __shared__ uint64_t bar;
    int t = threadIdx.x;
    if (t == 0) {
        ptx::mbarrier_init(&bar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (t == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, BYTES);
        ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, a, in, BYTES, &bar);
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
    }
    float x = a[N - 1 - t];
    __syncthreads(); /* every thread past phase 0 before phase 1 can end */
    if (t == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, BYTES);
        ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, b, in + N, BYTES, &bar);
    }
    while (!ptx::mbarrier_try_wait_parity(&bar, 1)) {
    }
    out[t] = x + b[(t + 1) % N];
}

static int check(const char *what, const float *got, const float *want)
{
    for (int i = 0; i < N; i++)
        if (got[i] != want[i]) {
            printf("check %s: FAILED at %d: %g, want %g\n", what, i, got[i], want[i]);
            return 1;
        }
    printf("check %s: ok\n", what);
    return 0;
}

int main()
{
    float h[2 * N], got[N], want[N];
    for (int i = 0; i < 2 * N; i++)
        h[i] = (float)(i * 7 % 101);
    float *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, 2 * N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, N * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_in, h, 2 * N * sizeof(float), cudaMemcpyHostToDevice));
    int bad = 0;

    ptx_waited<<<1, N>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(got, d_out, N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int t = 0; t < N; t++)
        want[t] = h[N - 1 - t];
    bad |= check("ptx_waited", got, want);

    ptx_early<<<1, N>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    ptx_two_phases<<<1, N>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(got, d_out, N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int t = 0; t < N; t++)
        want[t] = h[N - 1 - t] + h[N + (t + 1) % N];
    bad |= check("ptx_two_phases", got, want);

    /* last: under ncu's replay the uninitialized mbarrier fails the launch */
    ptx_uninit<<<1, N>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    return bad;
}

/*
 * check-output-start
 * corpus/async_bulk_ptx.cu:57:14: error: missing barrier: read-after-write race on 'tile': thread 32 reads tile[223], which thread 0 wrote at line 54, while that asynchronous copy may still be in flight: no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, arrive_and_wait, an mbarrier's try_wait) completes it before the __syncthreads() between (different warps) in kernel 'ptx_early' with blockDim (256,1,1) from the launch on line 130 [missing-barrier]
 *       out[t] = tile[N - 1 - t];
 *                ^~~~~~~~~~~~~~~
 * corpus/async_bulk_ptx.cu:54:9: note: the racing write of 'tile' by thread 0
 * corpus/async_bulk_ptx.cu:44:5: note: 'tile' declared here
 * corpus/async_bulk_ptx.cu:57:14: note: wait for the copy (__pipeline_wait_prior(0), cp.async.wait_group 0, pipe.consumer_wait() or bar.arrive_and_wait()) before the __syncthreads() that publishes it
 * corpus/async_bulk_ptx.cu:68:22: error: missing barrier: mbarrier 'bar' used before its initialization is visible: read-after-write race: thread 32 reads bar, which thread 0 wrote at line 67, with no __syncthreads() in between (different warps) in kernel 'ptx_uninit' with blockDim (256,1,1) from the launch on line 143 [missing-barrier]
 *       uint64_t state = ptx::mbarrier_arrive(&bar);
 *                        ^~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_bulk_ptx.cu:67:9: note: the racing write of 'bar' by thread 0
 * corpus/async_bulk_ptx.cu:64:5: note: 'bar' declared here
 * corpus/async_bulk_ptx.cu:68:22: note: __syncthreads() after mbarrier.init (with fence.mbarrier_init for the async proxy), before any thread uses the mbarrier
 * check-output-end
 */
