// A prologue copy that the loop's waits complete in a later pass
// (front/convert_async_flow.c, pending_until): four stages, three tiles in
// flight, wait_group 2 each iteration. The read after the iteration's wait
// sees the copy of stage k + 1 complete one iteration earlier than a read
// before it: the prologue's third tile (stage 2) has landed when iteration
// 1 reads it, so nothing is reported here (counted from the read before
// the wait, iteration 1 was still taken as pending: a false missing wait,
// as on cuda_hgemm's mma_async_stage4).
#include <stdint.h>
#define N 256
#define CP(dst, src)                                                                                        \
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"((uint32_t)__cvta_generic_to_shared(dst)), \
                 "l"(src))
#define COMMIT() asm volatile("cp.async.commit_group;\n" ::)
#define WAIT(n) asm volatile("cp.async.wait_group %0;\n" ::"n"(n))

__global__ void ring4(const float *g, float *out, int ntiles)
{
    __shared__ float s[4 * N];
    int t = threadIdx.x;
    int s_idx = 0, l_idx = 0, s_off = 0, l_off = 0;
    CP(&s[t], &g[t]);
    COMMIT();
    s_idx = (s_idx + 1) % 4;
    s_off = s_idx * N;
    CP(&s[s_off + t], &g[N + t]);
    COMMIT();
    s_idx = (s_idx + 1) % 4;
    s_off = s_idx * N;
    CP(&s[s_off + t], &g[2 * N + t]);
    COMMIT();
    WAIT(2);
    __syncthreads();
    float acc = 0.0f;
    for (int k = 3; k < ntiles; ++k) {
        acc += s[l_off + t];
        s_idx = (s_idx + 1) % 4;
        s_off = s_idx * N;
        CP(&s[s_off + t], &g[k * N + t]);
        COMMIT();
        l_idx = (l_idx + 1) % 4;
        l_off = l_idx * N;
        WAIT(2);
        __syncthreads();
        acc += s[l_off + t] * 0.5f;
    }
    out[t] = acc;
}

void launch(const float *g, float *o, int n) { ring4<<<1, N>>>(g, o, n); }

/*
 * check-args: --no-cuda
 * check-output-start
 * check-output-end
 */
