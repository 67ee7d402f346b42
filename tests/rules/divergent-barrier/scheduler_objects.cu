// A persistent kernel's tile scheduler is an object: built by a
// constructor (its body or its member initializers), advanced by a
// method that changes it. Its values are alike in every thread when they
// come from blockIdx and the parameters, so a barrier in the loop it
// drives is reached by every thread the same number of times.
// - ctor_body, ctor_inits: built from blockIdx: clean.
// - consumers_named: the loop runs in the consumer warps only (threads
//   128..255), their named barrier counts exactly them: clean.
// - per_thread: built from threadIdx: the trip count differs. Reported.
// - warp_specialized: 384 threads, warpgroup 0 produces, warpgroups 1
//   and 2 (threads 128..383) consume behind `bar.sync 1, 256`: exactly
//   the 256 threads it counts reach it, whichever they are: clean.
struct BodySched {
    int block, it, total;
    __device__ BodySched(int n, int b) { block = b; it = 0; total = n; }
    __device__ bool next(int &tile) {
        int num = it * 132 + block;
        if (num >= total) { return false; }
        tile = num;
        ++it;
        return true;
    }
};

struct InitSched {
    int block, it = 0, total;
    __device__ InitSched(int n, int b) : block(b), total(n) {}
    __device__ bool next(int &tile) {
        int num = it * 132 + block;
        tile = num;
        ++it;
        return num < total;
    }
};

__global__ void ctor_body(float *out, int n)
{
    __shared__ float s[256];
    BodySched sc(n, blockIdx.x);
    int tile;
    while (sc.next(tile)) {
        s[threadIdx.x] = tile;
        __syncthreads();
        out[tile * 256 + threadIdx.x] = s[255 - threadIdx.x];
        __syncthreads();
    }
}

__global__ void ctor_inits(float *out, int n)
{
    __shared__ float s[256];
    InitSched sc(n, blockIdx.x);
    int tile;
    while (sc.next(tile)) {
        s[threadIdx.x] = tile;
        __syncthreads();
        out[tile * 256 + threadIdx.x] = s[255 - threadIdx.x];
        __syncthreads();
    }
}

__global__ void consumers_named(float *out, int n)
{
    __shared__ float s[256];
    BodySched sc(n, blockIdx.x);
    int tile;
    if (threadIdx.x >= 128) {
        while (sc.next(tile)) {
            s[threadIdx.x] = tile;
            asm volatile("bar.sync 1, 128;");
            out[tile * 256 + threadIdx.x] = s[383 - threadIdx.x];
            asm volatile("bar.sync 1, 128;");
        }
    }
}

__global__ void per_thread(float *out, int n)
{
    __shared__ float s[256];
    BodySched sc(n, threadIdx.x);
    int tile;
    while (sc.next(tile)) {
        s[threadIdx.x] = tile;
        __syncthreads();
        out[tile] = s[255 - threadIdx.x];
        __syncthreads();
    }
}

__global__ void warp_specialized(float *out, int n)
{
    __shared__ float s[384];
    int wg = threadIdx.x / 128;
    if (wg == 0) {
        s[threadIdx.x] = n;
    } else {
        s[threadIdx.x] = wg;
        asm volatile("bar.sync 1, 256;");
        out[threadIdx.x] = s[511 - threadIdx.x];
    }
}

void run(float *out, int n)
{
    warp_specialized<<<132, 384>>>(out, n);
    ctor_body<<<132, 256>>>(out, n);
    ctor_inits<<<132, 256>>>(out, n);
    consumers_named<<<132, 256>>>(out, n);
    per_thread<<<132, 256>>>(out, n);
}

/*
 * check-output-start
 * tests/rules/divergent-barrier/scheduler_objects.cu:84:9: error: divergent barrier: '__syncthreads()' is in a loop whose trip count depends on the thread (condition 'sc.next(tile)') in kernel 'per_thread' at every launch (and 1 more barrier after it) [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/scheduler_objects.cu:82:12: note: thread-dependent condition 'sc.next(tile)'
 * tests/rules/divergent-barrier/scheduler_objects.cu:86:9: note: '__syncthreads()', made divergent by the same condition
 * tests/rules/divergent-barrier/scheduler_objects.cu:84:9: note: threads run the loop different numbers of times; give every thread the same trip count and guard the work instead
 * check-output-end
 */
