// Values alike in every thread of a block (issue 23, ggml's mmq and
// flash-attention kernels), each once as it is and once made per thread:
// - a variable declared in a loop body takes its value there in every
//   iteration (const int q = kbc / m; KV[q] is one load at a block-uniform
//   index), also in a value carried from one iteration to the next, and
//   so does a call's result (kbc -= rem(kbc, fd)), also one made only when
//   another condition holds (a && rem(kbc, fd));
// - a range-for over an initializer list runs alike in every thread, and
//   its variable is alike where the list's elements are;
// - a toolkit function of values (__umulhi), and inline asm that computes
//   on registers (bfind), are alike where their inputs are; asm reading a
//   special register (%%laneid) is per thread;
// - a struct (uint3 fastdiv constants) is its value: passed by value or by
//   reference, copied, assigned whole; a write of a per-thread value into
//   one of its members, or a non-const method, makes it per thread; a
//   method reads the members of the object it is called on.
// Expected: the nine per-thread twins, nothing else.
#include <cstdint>

__device__ void tile(float *s, int n)
{
    for (int k = 0; k < n; ++k) {
        s[threadIdx.x] = k;
        __syncthreads();
    }
}

__global__ void loop_local(float *o, const int *KV, int n, int m)
{
    __shared__ float s[256];
    int stop = m;
    for (int kbc = blockIdx.x * n; kbc < n; kbc += m) {
        const int q = kbc / m;
        stop = min(stop, KV[q]);
        tile(s, stop);
    }
}

static __device__ int rem(int n, const uint3 v) { return n - (int)__umulhi((unsigned)n, v.x) * (int)v.z; }

__global__ void loop_call(float *o, const uint3 fd, int n, int m)
{
    __shared__ float s[256];
    int kbc = blockIdx.x * n;
    while (kbc < n) {
        tile(s, kbc % 7);
        kbc += m;
        kbc -= rem(kbc, fd);
    }
}

__global__ void call_in_condition(float *o, const uint3 fd, int n)
{
    __shared__ float s[256];
    int kbc = blockIdx.x * n;
    if (kbc == 3 && rem(kbc, fd) != 0)
        return;
    tile(s, n);
}

__global__ void call_in_condition_per_thread(float *o, const uint3 fd, int n)
{
    __shared__ float s[256];
    int kbc = blockIdx.x * n;
    if (kbc == 3 && rem(threadIdx.x, fd) != 0)
        return;
    tile(s, n);
}

__global__ void loop_local_per_thread(float *o, const int *KV, int n, int m)
{
    __shared__ float s[256];
    int stop = m;
    for (int kbc = blockIdx.x * n; kbc < n; kbc += m) {
        const int q = kbc / m + threadIdx.x;
        stop = min(stop, KV[q]);
        tile(s, stop);
    }
}

__global__ void range_for(float *o, int n)
{
    __shared__ float s[256];
    for (int k00 = 0; k00 < n; k00 += 8) {
        s[threadIdx.x] = k00;
        __syncthreads();
        if (threadIdx.x % 64 == 0) {
            for (int st : { 32, 16, 8, 4 }) {
                if (st == 8)
                    continue;
                o[st + threadIdx.x] = s[(threadIdx.x + st) % 256];
            }
        }
        __syncthreads();
    }
}

__global__ void range_for_per_thread(float *o, int n)
{
    __shared__ float s[256];
    for (int st : { 32, (int)threadIdx.x }) {
        if (st == 8)
            continue;
        s[threadIdx.x] = st;
        __syncthreads();
    }
}

__global__ void intrinsic(float *o, unsigned m)
{
    __shared__ float s[256];
    tile(s, __umulhi(blockIdx.x, m));
}

__global__ void intrinsic_per_thread(float *o, unsigned m)
{
    __shared__ float s[256];
    tile(s, __umulhi(threadIdx.x, m));
}

static __device__ __forceinline__ unsigned find_msb(unsigned word)
{
    unsigned ret;
    asm volatile("bfind.u32 %0, %1;" : "=r"(ret) : "r"(word));
    return ret;
}

static __device__ __forceinline__ unsigned lane_id()
{
    unsigned ret = 0;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(ret));
    return ret;
}

__global__ void inline_asm(float *o, unsigned len)
{
    __shared__ float s[256];
    unsigned len2 = 1u << (find_msb(len - 1u) + 1);
    for (unsigned k = 2; k <= len2; k *= 2) {
        s[threadIdx.x] = k;
        __syncthreads();
    }
}

__global__ void inline_asm_per_thread(float *o, unsigned len)
{
    __shared__ float s[256];
    unsigned n = lane_id();
    for (unsigned k = 2; k <= n; k *= 2) {
        s[threadIdx.x] = k;
        __syncthreads();
    }
}

static __device__ unsigned fastdiv(unsigned n, const uint3 v)
{
    const unsigned hi = __umulhi(n, v.x);
    return (hi + n) >> v.y;
}

struct range {
    int lo, hi;
    __device__ void widen(int by) { hi += by; }
};

static __device__ int span(const range &r) { return r.hi - r.lo; }

__global__ void structs(float *o, const uint3 fd, const range r)
{
    __shared__ float s[256];
    uint2 t = make_uint2(fastdiv(blockIdx.x, fd), 0);
    range c = r;
    c.lo = 1;
    t = make_uint2(t.x, fastdiv(t.x, fd));
    tile(s, t.y + span(c));
}

__global__ void member_per_thread(float *o, const range r)
{
    __shared__ float s[256];
    range c = r;
    c.hi = threadIdx.x;
    tile(s, span(c));
}

__global__ void assigned_per_thread(float *o, const uint3 fd)
{
    __shared__ float s[256];
    uint2 t = make_uint2(fastdiv(blockIdx.x, fd), 0);
    t = make_uint2(threadIdx.x, 1);
    tile(s, t.x);
}

struct node {
    int begin, end;
    __device__ int count() const { return end - begin; }
};

// a method of an object in global memory (cuda-samples' quadtree:
// nodes[blockIdx.x].num_points()): its members are loads at one address
__global__ void method_of_global(float *o, node *nodes, int min_pts)
{
    __shared__ float s[256];
    node &nd = nodes[blockIdx.x];
    if (nd.count() <= min_pts)
        return;
    tile(s, 4);
}

__global__ void method_of_global_per_thread(float *o, node *nodes, int min_pts)
{
    __shared__ float s[256];
    node &nd = nodes[threadIdx.x];
    if (nd.count() <= min_pts)
        return;
    tile(s, 4);
}

__global__ void method_per_thread(float *o, const range r)
{
    __shared__ float s[256];
    range c = r;
    c.widen(threadIdx.x);
    tile(s, span(c));
}

/*
 * check-args: --block-dim 256
 * check-output-start
 * tests/rules/divergent-barrier/uniform_values.cu:24:9: error: divergent barrier: '__syncthreads()' is in a loop whose trip count depends on the thread (condition 'k < n') in 'tile' called from kernel 'assigned_per_thread' at line 191 at every launch [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/uniform_values.cu:22:21: note: thread-dependent condition 'k < n'
 * tests/rules/divergent-barrier/uniform_values.cu:24:9: note: threads run the loop different numbers of times; give every thread the same trip count and guard the work instead
 * tests/rules/divergent-barrier/uniform_values.cu:24:9: error: divergent barrier: '__syncthreads()' follows a thread-dependent 'return' (under 'kbc == 3 && rem(threadIdx.x, fd) != 0') in 'tile' called from kernel 'call_in_condition_per_thread' at line 67 at every launch [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/uniform_values.cu:65:9: note: thread-dependent condition 'kbc == 3 && rem(threadIdx.x, fd) != 0'
 * tests/rules/divergent-barrier/uniform_values.cu:66:9: note: the 'return' that skips the barrier
 * tests/rules/divergent-barrier/uniform_values.cu:24:9: note: threads that jumped never arrive; guard the work instead of leaving early, so every thread reaches the barrier
 * tests/rules/divergent-barrier/uniform_values.cu:24:9: error: divergent barrier: '__syncthreads()' is in a loop whose trip count depends on the thread (condition 'k < n') in 'tile' called from kernel 'intrinsic_per_thread' at line 118 at every launch [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/uniform_values.cu:22:21: note: thread-dependent condition 'k < n'
 * tests/rules/divergent-barrier/uniform_values.cu:24:9: note: threads run the loop different numbers of times; give every thread the same trip count and guard the work instead
 * tests/rules/divergent-barrier/uniform_values.cu:24:9: error: divergent barrier: '__syncthreads()' is in a loop whose trip count depends on the thread (condition 'k < n') in 'tile' called from kernel 'loop_local_per_thread' at line 77 at every launch [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/uniform_values.cu:22:21: note: thread-dependent condition 'k < n'
 * tests/rules/divergent-barrier/uniform_values.cu:24:9: note: threads run the loop different numbers of times; give every thread the same trip count and guard the work instead
 * tests/rules/divergent-barrier/uniform_values.cu:24:9: error: divergent barrier: '__syncthreads()' is in a loop whose trip count depends on the thread (condition 'k < n') in 'tile' called from kernel 'member_per_thread' at line 183 at every launch [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/uniform_values.cu:22:21: note: thread-dependent condition 'k < n'
 * tests/rules/divergent-barrier/uniform_values.cu:24:9: note: threads run the loop different numbers of times; give every thread the same trip count and guard the work instead
 * tests/rules/divergent-barrier/uniform_values.cu:24:9: error: divergent barrier: '__syncthreads()' follows a thread-dependent 'return' (under 'nd.count() <= min_pts') in 'tile' called from kernel 'method_of_global_per_thread' at line 216 at every launch [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/uniform_values.cu:214:9: note: thread-dependent condition 'nd.count() <= min_pts'
 * tests/rules/divergent-barrier/uniform_values.cu:215:9: note: the 'return' that skips the barrier
 * tests/rules/divergent-barrier/uniform_values.cu:24:9: note: threads that jumped never arrive; guard the work instead of leaving early, so every thread reaches the barrier
 * tests/rules/divergent-barrier/uniform_values.cu:24:9: error: divergent barrier: '__syncthreads()' is in a loop whose trip count depends on the thread (condition 'k < n') in 'tile' called from kernel 'method_per_thread' at line 224 at every launch [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/uniform_values.cu:22:21: note: thread-dependent condition 'k < n'
 * tests/rules/divergent-barrier/uniform_values.cu:24:9: note: threads run the loop different numbers of times; give every thread the same trip count and guard the work instead
 * tests/rules/divergent-barrier/uniform_values.cu:105:9: error: divergent barrier: '__syncthreads()' is in a loop whose trip count depends on the thread (condition '{ 32, (int)threadIdx.x }') in kernel 'range_for_per_thread' at every launch [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/uniform_values.cu:101:19: note: thread-dependent condition '{ 32, (int)threadIdx.x }'
 * tests/rules/divergent-barrier/uniform_values.cu:105:9: note: threads run the loop different numbers of times; give every thread the same trip count and guard the work instead
 * tests/rules/divergent-barrier/uniform_values.cu:151:9: error: divergent barrier: '__syncthreads()' is in a loop whose trip count depends on the thread (condition 'k <= n') in kernel 'inline_asm_per_thread' at every launch [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/uniform_values.cu:149:26: note: thread-dependent condition 'k <= n'
 * tests/rules/divergent-barrier/uniform_values.cu:151:9: note: threads run the loop different numbers of times; give every thread the same trip count and guard the work instead
 * check-output-end
 */
