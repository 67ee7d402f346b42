// Shared memory reached through __device__ functions: pointer and
// reference parameters, a helper returning a shared pointer (the
// SharedMemory<T> idiom), a helper with its own __shared__ array called
// under a guard, a chain of two helpers, and recursion (not followed).
typedef unsigned int uint;

template <class T> struct SharedMem {
    __device__ operator T *()
    {
        extern __shared__ int smem_words[];
        return (T *)smem_words;
    }
};

__device__ float load_pair(const float *s, int i) { return s[2 * i]; }

__device__ void order(uint &a, uint &b)
{
    if (a > b) {
        uint t = a;
        a = b;
        b = t;
    }
}

__device__ float inner(float *s, int i) { return s[4 * i]; }
__device__ float outer(float *s, int i) { return inner(s, i) + 1.0f; }

__device__ float own_tile(int i)
{
    __shared__ float mine[64];
    mine[i * 2] = (float)i;
    return mine[i];
}

__device__ int depth_sum(int *s, int n) { return n == 0 ? s[0] : s[n] + depth_sum(s, n - 1); }

__global__ void through_pointer(float *out)
{
    __shared__ float s[512];
    s[threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = load_pair(s, threadIdx.x);
    out[threadIdx.x + 256] = outer(s, threadIdx.x);
}

__global__ void through_reference(uint *keys)
{
    __shared__ uint k[256];
    k[threadIdx.x] = keys[threadIdx.x];
    __syncthreads();
    if (threadIdx.x < 128)
        order(k[2 * threadIdx.x], k[2 * threadIdx.x + 1]);
    __syncthreads();
    keys[threadIdx.x] = k[threadIdx.x];
}

__global__ void through_struct(float *out)
{
    float *sd = SharedMem<float>();
    sd[threadIdx.x] = 0.0f;
    __syncthreads();
    out[threadIdx.x] = sd[threadIdx.x * 2];
}

__global__ void guarded_helper(float *out)
{
    float v = 0.0f;
    if (threadIdx.x < 16)
        v = own_tile(threadIdx.x);
    out[threadIdx.x] = v;
}

__global__ void recursive(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = depth_sum(s, 3);
}

// methods of a struct that lives in shared memory: `this` points there
struct Tile {
    float v[32][32];
    __device__ void put(int i, int j, float x) { v[i][j] = x; }
    __device__ float get(int i, int j) { return this->v[i][j]; }
};

__global__ void through_method(float *out)
{
    __shared__ Tile t;
    t.put(threadIdx.y, threadIdx.x, 1.0f);
    __syncthreads();
    out[threadIdx.x] = t.get(threadIdx.x, threadIdx.y);
}

void launch(float *f, uint *u, int *d)
{
    through_method<<<1, dim3(32, 8)>>>(f);
    through_pointer<<<1, 256>>>(f);
    through_reference<<<1, 256>>>(u);
    through_struct<<<1, 256, 2048>>>(f);
    guarded_helper<<<1, 32>>>(f);
    recursive<<<1, 64>>>(d);
}

/*
 * check-output-start
 * tests/rules/bank-conflict/device_calls.cu:36:73: note: call to 'depth_sum' not followed: it is recursive; the shared accesses inside it are not analyzed here
 * tests/rules/bank-conflict/device_calls.cu:15:60: warning: 2-way bank conflict on load of 's' (float[512]) in 'load_pair' called from kernel 'through_pointer' at line 43 with blockDim (256,1,1) from the launch on line 100; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *   __device__ float load_pair(const float *s, int i) { return s[2 * i]; }
 *                                                              ^~~~~~~~
 * tests/rules/bank-conflict/device_calls.cu:40:5: note: 's' declared here
 * tests/rules/bank-conflict/device_calls.cu:19:9: warning: 2-way bank conflict on load of 'k' (uint[256]) in 'order' called from kernel 'through_reference' at line 53 with blockDim (256,1,1) from the launch on line 101; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       if (a > b) {
 *           ^
 * tests/rules/bank-conflict/device_calls.cu:49:5: note: 'k' declared here
 * tests/rules/bank-conflict/device_calls.cu:19:9: note: index 'k' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 6 of 6 conflicting accesses become conflict-free
 * tests/rules/bank-conflict/device_calls.cu:19:13: warning: 2-way bank conflict on load of 'k' (uint[256]) in 'order' called from kernel 'through_reference' at line 53 with blockDim (256,1,1) from the launch on line 101; lanes 0 and 16 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *       if (a > b) {
 *               ^
 * tests/rules/bank-conflict/device_calls.cu:49:5: note: 'k' declared here
 * tests/rules/bank-conflict/device_calls.cu:19:13: note: index 'k' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 6 of 6 conflicting accesses become conflict-free
 * tests/rules/bank-conflict/device_calls.cu:20:18: warning: 2-way bank conflict on load of 'k' (uint[256]) in 'order' called from kernel 'through_reference' at line 53 with blockDim (256,1,1) from the launch on line 101; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           uint t = a;
 *                    ^
 * tests/rules/bank-conflict/device_calls.cu:49:5: note: 'k' declared here
 * tests/rules/bank-conflict/device_calls.cu:20:18: note: index 'k' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 6 of 6 conflicting accesses become conflict-free
 * tests/rules/bank-conflict/device_calls.cu:21:9: warning: 2-way bank conflict on store of 'k' (uint[256]) in 'order' called from kernel 'through_reference' at line 53 with blockDim (256,1,1) from the launch on line 101; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           a = b;
 *           ^
 * tests/rules/bank-conflict/device_calls.cu:49:5: note: 'k' declared here
 * tests/rules/bank-conflict/device_calls.cu:21:9: note: index 'k' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 6 of 6 conflicting accesses become conflict-free
 * tests/rules/bank-conflict/device_calls.cu:21:13: warning: 2-way bank conflict on load of 'k' (uint[256]) in 'order' called from kernel 'through_reference' at line 53 with blockDim (256,1,1) from the launch on line 101; lanes 0 and 16 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *           a = b;
 *               ^
 * tests/rules/bank-conflict/device_calls.cu:49:5: note: 'k' declared here
 * tests/rules/bank-conflict/device_calls.cu:21:13: note: index 'k' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 6 of 6 conflicting accesses become conflict-free
 * tests/rules/bank-conflict/device_calls.cu:22:9: warning: 2-way bank conflict on store of 'k' (uint[256]) in 'order' called from kernel 'through_reference' at line 53 with blockDim (256,1,1) from the launch on line 101; lanes 0 and 16 of warp 0 hit bank 1 (byte offsets 4 and 132) [bank-conflict]
 *           b = t;
 *           ^
 * tests/rules/bank-conflict/device_calls.cu:49:5: note: 'k' declared here
 * tests/rules/bank-conflict/device_calls.cu:22:9: note: index 'k' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 6 of 6 conflicting accesses become conflict-free
 * tests/rules/bank-conflict/device_calls.cu:26:50: warning: 4-way bank conflict on load of 's' (float[512]) (counting lanes that address outside the array) in 'inner' called from 'outer' at line 27, from kernel 'through_pointer' at line 44 with blockDim (256,1,1) from the launch on line 100; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *   __device__ float inner(float *s, int i) { return s[4 * i]; }
 *                                                    ^~~~~~~~
 * tests/rules/bank-conflict/device_calls.cu:40:5: note: 's' declared here
 * tests/rules/bank-conflict/device_calls.cu:26:50: error: out-of-bounds load from 's': thread 128 reads bytes 2048..2051, past the end of its 2048 bytes in 'inner' called from 'outer' at line 27, from kernel 'through_pointer' at line 44 with blockDim (256,1,1) from the launch on line 100 [shared-out-of-bounds]
 *   __device__ float inner(float *s, int i) { return s[4 * i]; }
 *                                                    ^~~~~~~~
 * tests/rules/bank-conflict/device_calls.cu:40:5: note: 's' declared here
 * tests/rules/bank-conflict/device_calls.cu:26:50: note: enlarge the array or bound the index (a guard such as `if (i < N)`)
 * tests/rules/bank-conflict/device_calls.cu:33:12: warning: unsynchronized warp exchange on 'mine': lane 2 of warp 0 reads mine[2], which lane 1 wrote at line 32, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in 'own_tile' called from kernel 'guarded_helper' at line 70 with blockDim (32,1,1) from the launch on line 103 [warp-sync]
 *       return mine[i];
 *              ^~~~~~~
 * tests/rules/bank-conflict/device_calls.cu:32:5: note: the other lane's write of 'mine'
 * tests/rules/bank-conflict/device_calls.cu:31:5: note: 'mine' declared here
 * tests/rules/bank-conflict/device_calls.cu:33:12: note: add __syncwarp() between the write and the access that depends on it
 * tests/rules/bank-conflict/device_calls.cu:63:24: warning: 2-way bank conflict on load of 'sd' (int[]) in kernel 'through_struct' with blockDim (256,1,1) from the launch on line 102; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[threadIdx.x] = sd[threadIdx.x * 2];
 *                          ^~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/device_calls.cu:10:9: note: 'smem_words' declared here
 * tests/rules/bank-conflict/device_calls.cu:86:49: warning: 32-way bank conflict on load of 't' (Tile) in 'get' called from kernel 'through_method' at line 94 with blockDim (32,8,1) from the launch on line 99; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       __device__ float get(int i, int j) { return this->v[i][j]; }
 *                                                   ^~~~~~~~~~~~~
 * tests/rules/bank-conflict/device_calls.cu:91:5: note: 't' declared here
 * check-output-end
 */
