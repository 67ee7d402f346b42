// Byte-exact addressing: a uint view of a uchar array, a member array of
// a union element, a struct element's member array, and loops: a negative
// start (the same conflict as the unrolled access) and a recurrence.
typedef unsigned int uint;
typedef unsigned char uchar;

union word_bytes {
    uint w;
    uchar b[4];
};

struct rec {
    float v[4];
};

__global__ void byte_view(uint *out)
{
    __shared__ uchar hist[32 * 64];
    ((uint *)hist)[threadIdx.x * 2] = 0u;
    __syncthreads();
    out[threadIdx.x] = ((uint *)hist)[threadIdx.x];
}

__global__ void union_bytes(uint *out)
{
    __shared__ word_bytes u[256];
    u[threadIdx.x].w = 0u;
    __syncthreads();
    out[threadIdx.x] = u[threadIdx.x].b[3];
}

__global__ void member_array(float *out)
{
    __shared__ rec r[128];
    r[threadIdx.x].v[3] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = r[threadIdx.x].v[0];
}

__global__ void negative_start(float *out)
{
    __shared__ float s[16][20];
    int tx = threadIdx.x, ty = threadIdx.y;
    s[ty][tx + 2] = 1.0f;
    __syncthreads();
    float a = 0.0f;
    for (int j = -2; j <= 2; j++)
        a += s[ty][tx + 2 + j];
    out[ty * 16 + tx] = a;
}

__global__ void recurrence(float *out)
{
    __shared__ float ring[64];
    int pos = threadIdx.x;
    for (int k = 0; k < 4; k++) {
        ring[pos * 2 % 64] = (float)k;
        pos = (pos + 4) & 63;
    }
    __syncthreads();
    out[threadIdx.x] = ring[threadIdx.x];
}

void launch(uint *u, float *f)
{
    byte_view<<<1, 32>>>(u);
    union_bytes<<<1, 256>>>(u);
    member_array<<<1, 128>>>(f);
    negative_start<<<1, dim3(16, 16)>>>(f);
    recurrence<<<1, 32>>>(f);
}

/*
 * check-output-start
 * tests/rules/bank-conflict/byte_addressing.cu:19:5: warning: 2-way bank conflict on store of 'hist' (uchar[2048]) in kernel 'byte_view' with blockDim (32,1,1) from the launch on line 66; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       ((uint *)hist)[threadIdx.x * 2] = 0u;
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/byte_addressing.cu:18:5: note: 'hist' declared here
 * tests/rules/bank-conflict/byte_addressing.cu:35:5: warning: 4-way bank conflict on store of 'r' (rec[128]) in kernel 'member_array' with blockDim (128,1,1) from the launch on line 68; lanes 0 and 8 of warp 0 hit bank 3 (byte offsets 12 and 140) [bank-conflict]
 *       r[threadIdx.x].v[3] = 1.0f;
 *       ^~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/byte_addressing.cu:34:5: note: 'r' declared here
 * tests/rules/bank-conflict/byte_addressing.cu:37:24: warning: 4-way bank conflict on load of 'r' (rec[128]) in kernel 'member_array' with blockDim (128,1,1) from the launch on line 68; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[threadIdx.x] = r[threadIdx.x].v[0];
 *                          ^~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/byte_addressing.cu:34:5: note: 'r' declared here
 * tests/rules/bank-conflict/byte_addressing.cu:44:5: warning: 2-way bank conflict on store of 's' (float[16][20]) in kernel 'negative_start' with blockDim (16,16,1) from the launch on line 69; lanes 0 and 28 of warp 0 hit bank 2 (byte offsets 8 and 136) [bank-conflict]
 *       s[ty][tx + 2] = 1.0f;
 *       ^~~~~~~~~~~~~
 * tests/rules/bank-conflict/byte_addressing.cu:42:5: note: 's' declared here
 * tests/rules/bank-conflict/byte_addressing.cu:44:5: note: declare 's' as `float s[16][48]`: +1792 bytes per block (1280 -> 3072 bytes of static shared memory); 2 of 2 conflicting accesses become conflict-free
 * fix-it:"tests/rules/bank-conflict/byte_addressing.cu":{42:23-42:31}:"[16][48]"
 * tests/rules/bank-conflict/byte_addressing.cu:48:14: warning: 2-way bank conflict on load of 's' (float[16][20]) in kernel 'negative_start' with blockDim (16,16,1) from the launch on line 69; lanes 0 and 28 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           a += s[ty][tx + 2 + j];
 *                ^~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/byte_addressing.cu:42:5: note: 's' declared here
 * tests/rules/bank-conflict/byte_addressing.cu:48:14: note: declare 's' as `float s[16][48]`: +1792 bytes per block (1280 -> 3072 bytes of static shared memory); 2 of 2 conflicting accesses become conflict-free
 * fix-it:"tests/rules/bank-conflict/byte_addressing.cu":{42:23-42:31}:"[16][48]"
 * tests/rules/bank-conflict/byte_addressing.cu:57:9: warning: 2-way bank conflict on store of 'ring' (float[64]) in kernel 'recurrence' with blockDim (32,1,1) from the launch on line 70; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *           ring[pos * 2 % 64] = (float)k;
 *           ^~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/byte_addressing.cu:54:5: note: 'ring' declared here
 * tests/rules/bank-conflict/byte_addressing.cu:57:9: note: index 'ring' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * tests/rules/bank-conflict/byte_addressing.cu:57:9: warning: unsynchronized warp exchange on 'ring': lane 0 of warp 0 writes ring[8], which lane 4 wrote at line 57 in the previous iteration, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'recurrence' with blockDim (32,1,1) from the launch on line 70 [warp-sync]
 *           ring[pos * 2 % 64] = (float)k;
 *           ^~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/byte_addressing.cu:57:9: note: the other lane's write of 'ring'
 * tests/rules/bank-conflict/byte_addressing.cu:54:5: note: 'ring' declared here
 * tests/rules/bank-conflict/byte_addressing.cu:57:9: note: add __syncwarp() between the write and the access that depends on it
 * check-output-end
 */
