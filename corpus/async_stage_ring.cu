// Pipelines whose stage indices are carried from one iteration to the
// next (cuda_hgemm's mma_async_stage kernels): the store stage advanced
// before the iteration's copies, the load stage after them, each offset
// recomputed from its index. An offset assigned after its index's update
// holds the next index's value at the next iteration
// (engine/resolve.c, updated_before), and a copy from the prologue that
// the body's waits complete after some passes is pending only at the
// iterations before (front/convert_async_flow.c, pending_until). The
// clean kernels read a stage that their waits completed and overwrite one
// that a barrier ordered after its last read; their twins overwrite the
// stage being read, or wait for one group too few.
#include "common.cuh"
#include <stdint.h>

#define N 256

#define CP_ASYNC(dst, src)                                                                                      \
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"((uint32_t)__cvta_generic_to_shared(dst)), \
                 "l"(src))
#define COMMIT() asm volatile("cp.async.commit_group;\n" ::)
#define WAIT(n) asm volatile("cp.async.wait_group %0;\n" ::"n"(n))

// clean: two stages; the iteration reads one and fills the other
__global__ void ring2(const float *g, float *out, int ntiles)
{
    __shared__ float s_a[2 * N];
    int t = threadIdx.x;
    int s_idx = 0, l_idx = 0, s_off = 0, l_off = 0;
    CP_ASYNC(&s_a[t], &g[t]);
    COMMIT();
    WAIT(0);
    __syncthreads();
    float acc = 0.0f;
    for (int k = 1; k < ntiles; ++k) {
        acc += s_a[l_off + N - 1 - t];
        s_idx = (s_idx + 1) % 2;
        s_off = s_idx * N;
        CP_ASYNC(&s_a[s_off + t], &g[k * N + t]);
        COMMIT();
        l_idx = (l_idx + 1) % 2;
        l_off = l_idx * N;
        WAIT(0);
        __syncthreads();
    }
    out[t] = acc;
}

// races: the store stage starts one ahead, so each iteration fills the
// stage it reads
__global__ void ring2_same_stage(const float *g, float *out, int ntiles)
{
    __shared__ float s_b[2 * N];
    int t = threadIdx.x;
    int s_idx = 1, l_idx = 0, s_off = 0, l_off = 0;
    CP_ASYNC(&s_b[t], &g[t]);
    COMMIT();
    WAIT(0);
    __syncthreads();
    float acc = 0.0f;
    for (int k = 1; k < ntiles; ++k) {
        acc += s_b[l_off + N - 1 - t];
        s_idx = (s_idx + 1) % 2;
        s_off = s_idx * N;
        CP_ASYNC(&s_b[s_off + t], &g[k * N + t]);
        COMMIT();
        l_idx = (l_idx + 1) % 2;
        l_off = l_idx * N;
        WAIT(0);
        __syncthreads();
    }
    out[t] = acc;
}

// clean: three stages, two tiles in flight from the prologue; each
// iteration waits until one group is left, so the stage it reads next
// (its own copy and a neighbour's) has landed
__global__ void ring3(const float *g, float *out, int ntiles)
{
    __shared__ float s_c[3 * N];
    int t = threadIdx.x;
    int s_idx = 0, l_idx = 0, s_off = 0, l_off = 0;
    CP_ASYNC(&s_c[t], &g[t]);
    COMMIT();
    s_idx = (s_idx + 1) % 3;
    s_off = s_idx * N;
    CP_ASYNC(&s_c[s_off + t], &g[N + t]);
    COMMIT();
    WAIT(1);
    __syncthreads();
    float acc = 0.0f;
    for (int k = 2; k < ntiles; ++k) {
        acc += s_c[l_off + t] * s_c[l_off + N - 1 - t];
        s_idx = (s_idx + 1) % 3;
        s_off = s_idx * N;
        CP_ASYNC(&s_c[s_off + t], &g[k * N + t]);
        COMMIT();
        l_idx = (l_idx + 1) % 3;
        l_off = l_idx * N;
        WAIT(1);
        __syncthreads();
    }
    out[t] = acc;
}

// races: the same, waiting until two groups are left: the next stage is
// still landing when it is read
__global__ void ring3_wait_short(const float *g, float *out, int ntiles)
{
    __shared__ float s_d[3 * N];
    int t = threadIdx.x;
    int s_idx = 0, l_idx = 0, s_off = 0, l_off = 0;
    CP_ASYNC(&s_d[t], &g[t]);
    COMMIT();
    s_idx = (s_idx + 1) % 3;
    s_off = s_idx * N;
    CP_ASYNC(&s_d[s_off + t], &g[N + t]);
    COMMIT();
    WAIT(1);
    __syncthreads();
    float acc = 0.0f;
    for (int k = 2; k < ntiles; ++k) {
        acc += s_d[l_off + t] * s_d[l_off + N - 1 - t];
        s_idx = (s_idx + 1) % 3;
        s_off = s_idx * N;
        CP_ASYNC(&s_d[s_off + t], &g[k * N + t]);
        COMMIT();
        l_idx = (l_idx + 1) % 3;
        l_off = l_idx * N;
        WAIT(2);
        __syncthreads();
    }
    out[t] = acc;
}

int main()
{
    const int ntiles = 6;
    float *d_g, *d_o;
    CUDA_CHECK(cudaMalloc(&d_g, ntiles * N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_o, N * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_g, 0, ntiles * N * sizeof(float)));

    ring2<<<1, N>>>(d_g, d_o, ntiles);
    ring2_same_stage<<<1, N>>>(d_g, d_o, ntiles);
    ring3<<<1, N>>>(d_g, d_o, ntiles);
    ring3_wait_short<<<1, N>>>(d_g, d_o, ntiles);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_g));
    CUDA_CHECK(cudaFree(d_o));
    printf("async_stage_ring: ok\n");
    return 0;
}

/*
 * check-output-start
 * corpus/async_stage_ring.cu:64:9: error: missing barrier: write-after-read race on 's_b': thread 0 overwrites s_b[0], which thread 255 read at line 61, with no __syncthreads() in between (different warps) in kernel 'ring2_same_stage' with blockDim (256,1,1) from the launch on line 144 [missing-barrier]
 *           CP_ASYNC(&s_b[s_off + t], &g[k * N + t]);
 *           ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/async_stage_ring.cu:61:16: note: the racing read of 's_b' by thread 255
 * corpus/async_stage_ring.cu:52:5: note: 's_b' declared here
 * corpus/async_stage_ring.cu:64:9: note: add __syncthreads() between the two accesses
 * corpus/async_stage_ring.cu:122:16: error: missing wait: read of 's_d' before its asynchronous copy completes: thread 0 reads s_d[256], which its own asynchronous copy at line 116 may still be writing: no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, arrive_and_wait, an mbarrier's try_wait) completes the copy's group before the read in kernel 'ring3_wait_short' with blockDim (256,1,1) from the launch on line 146 [missing-barrier]
 *           acc += s_d[l_off + t] * s_d[l_off + N - 1 - t];
 *                  ^~~~~~~~~~~~~~
 * corpus/async_stage_ring.cu:116:5: note: the asynchronous copy into 's_d' by thread 0
 * corpus/async_stage_ring.cu:109:5: note: 's_d' declared here
 * corpus/async_stage_ring.cu:122:16: note: wait for the copy's group before reading its bytes (__pipeline_wait_prior(N) or cp.async.wait_group N with N no larger than the groups committed after it, pipe.consumer_wait())
 * check-output-end
 */
