// Fix suggestions: each kernel's suggestion (note and fix-it) is in the
// expected output at the end of the file.
#define TILE 32
#define N 256

// classic transpose tile: pad by one column
__global__ void k_pad1(float *out)
{
    __shared__ float tile[TILE][TILE];
    tile[threadIdx.y][threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

// 16x16 block writing and reading a [16][16] tile column-wise: one extra
// column is not enough ([16][17] is still 2-way), the minimal pad is two
__global__ void k_pad2(float *out)
{
    __shared__ float t16[16][16];
    t16[threadIdx.x][threadIdx.y] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = t16[threadIdx.x][threadIdx.y] + 1.0f;
}

// the same tile written by rows and read by columns: every pad makes the
// row-wise store conflict (a warp spans two 16-float rows), so the verified
// XOR swizzle is suggested instead
__global__ void k_swz(float *out)
{
    __shared__ float tz[16][16];
    tz[threadIdx.y][threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tz[threadIdx.x][threadIdx.y];
}

// sizeof depends on the row size: padding is suggested but not applied
__global__ void k_sizeof(float *out)
{
    __shared__ float ts[TILE][TILE];
    ts[threadIdx.y][threadIdx.x] = sizeof(ts);
    __syncthreads();
    out[threadIdx.x] = ts[threadIdx.x][threadIdx.y];
}

// a flat pointer walks the rows: padding would change what it reads
__global__ void k_flat(float *out)
{
    __shared__ float tf[TILE][TILE];
    float *flat = &tf[0][0];
    flat[threadIdx.y * TILE + threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = tf[threadIdx.x][threadIdx.y];
}

// float4 rows read column-wise: any pad keeps 16-byte alignment only in
// whole float4s, the search verifies it
__global__ void k_vec(float4 *out)
{
    __shared__ float4 v4[32][8];
    v4[threadIdx.x][threadIdx.y] = make_float4(1, 2, 3, 4);
    __syncthreads();
    out[threadIdx.x] = v4[threadIdx.x][threadIdx.y];
}

// 1-D array indexed with a stride: the conflict-free offset form
__global__ void k_offset(float *out)
{
    __shared__ float s1[N * 2];
    s1[threadIdx.x * 2] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s1[threadIdx.x * 2];
}

// a conflict-free array gets no suggestion
__global__ void k_clean(float *out)
{
    __shared__ float tc[TILE][TILE + 1];
    tc[threadIdx.y][threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tc[threadIdx.x][threadIdx.y];
}

int main()
{
    k_pad1<<<1, dim3(32, 8)>>>(0);
    k_pad2<<<1, dim3(16, 16)>>>(0);
    k_swz<<<1, dim3(16, 16)>>>(0);
    k_sizeof<<<1, dim3(32, 8)>>>(0);
    k_flat<<<1, dim3(32, 8)>>>(0);
    k_vec<<<1, dim3(32, 8)>>>(0);
    k_offset<<<1, 128>>>(0);
    k_clean<<<1, dim3(32, 8)>>>(0);
    return 0;
}

/*
 * check-output-start
 * tests/rules/bank-conflict/fix_suggestions.cu:12:24: warning: 32-way bank conflict on load of 'tile' (float[32][32]) in kernel 'k_pad1' with blockDim (32,8,1) from the launch on line 85; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
 *                          ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/fix_suggestions.cu:9:5: note: 'tile' declared here
 * tests/rules/bank-conflict/fix_suggestions.cu:12:24: note: declare 'tile' as `float tile[32][33]`: +128 bytes per block (4096 -> 4224 bytes of static shared memory); 1 of 1 conflicting accesses become conflict-free
 * fix-it:"tests/rules/bank-conflict/fix_suggestions.cu":{9:26-9:38}:"[TILE][TILE + 1]"
 * tests/rules/bank-conflict/fix_suggestions.cu:20:5: warning: 8-way bank conflict on store of 't16' (float[16][16]) in kernel 'k_pad2' with blockDim (16,16,1) from the launch on line 86; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       t16[threadIdx.x][threadIdx.y] = threadIdx.x;
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/fix_suggestions.cu:19:5: note: 't16' declared here
 * tests/rules/bank-conflict/fix_suggestions.cu:20:5: note: declare 't16' as `float t16[16][18]`: +128 bytes per block (1024 -> 1152 bytes of static shared memory); 2 of 2 conflicting accesses become conflict-free
 * fix-it:"tests/rules/bank-conflict/fix_suggestions.cu":{19:25-19:33}:"[16][18]"
 * tests/rules/bank-conflict/fix_suggestions.cu:22:24: warning: 8-way bank conflict on load of 't16' (float[16][16]) in kernel 'k_pad2' with blockDim (16,16,1) from the launch on line 86; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[threadIdx.x] = t16[threadIdx.x][threadIdx.y] + 1.0f;
 *                          ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/fix_suggestions.cu:19:5: note: 't16' declared here
 * tests/rules/bank-conflict/fix_suggestions.cu:22:24: note: declare 't16' as `float t16[16][18]`: +128 bytes per block (1024 -> 1152 bytes of static shared memory); 2 of 2 conflicting accesses become conflict-free
 * fix-it:"tests/rules/bank-conflict/fix_suggestions.cu":{19:25-19:33}:"[16][18]"
 * tests/rules/bank-conflict/fix_suggestions.cu:33:24: warning: 8-way bank conflict on load of 'tz' (float[16][16]) in kernel 'k_swz' with blockDim (16,16,1) from the launch on line 87; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[threadIdx.x] = tz[threadIdx.x][threadIdx.y];
 *                          ^~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/fix_suggestions.cu:30:5: note: 'tz' declared here
 * tests/rules/bank-conflict/fix_suggestions.cu:33:24: note: swizzle 'tz': write every access `tz[r][c]` as `tz[r][c ^ (r & 15)]`: 1 of 1 conflicting accesses become conflict-free (verified); write this access as `tz[threadIdx.x][threadIdx.y ^ (threadIdx.x & 15)]`
 * fix-it:"tests/rules/bank-conflict/fix_suggestions.cu":{31:21-31:32}:"threadIdx.x ^ (threadIdx.y & 15)"
 * fix-it:"tests/rules/bank-conflict/fix_suggestions.cu":{33:40-33:51}:"threadIdx.y ^ (threadIdx.x & 15)"
 * tests/rules/bank-conflict/fix_suggestions.cu:42:24: warning: 32-way bank conflict on load of 'ts' (float[32][32]) in kernel 'k_sizeof' with blockDim (32,8,1) from the launch on line 88; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[threadIdx.x] = ts[threadIdx.x][threadIdx.y];
 *                          ^~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/fix_suggestions.cu:39:5: note: 'ts' declared here
 * tests/rules/bank-conflict/fix_suggestions.cu:42:24: note: declare 'ts' as `float ts[32][33]`: +128 bytes per block (4096 -> 4224 bytes of static shared memory); 1 of 1 conflicting accesses become conflict-free; --fix will not apply it: sizeof is applied to 'ts', so the code depends on its size
 * tests/rules/bank-conflict/fix_suggestions.cu:52:24: warning: 32-way bank conflict on load of 'tf' (float[32][32]) in kernel 'k_flat' with blockDim (32,8,1) from the launch on line 89; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[threadIdx.x] = tf[threadIdx.x][threadIdx.y];
 *                          ^~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/fix_suggestions.cu:48:5: note: 'tf' declared here
 * tests/rules/bank-conflict/fix_suggestions.cu:52:24: note: declare 'tf' as `float tf[32][33]`: +128 bytes per block (4096 -> 4224 bytes of static shared memory); 1 of 1 conflicting accesses become conflict-free; --fix will not apply it: a pointer into 'tf' is formed, so the code may depend on its row size
 * tests/rules/bank-conflict/fix_suggestions.cu:60:5: warning: 8-way bank conflict on store of 'v4' (float4[32][8]) in kernel 'k_vec' with blockDim (32,8,1) from the launch on line 90; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       v4[threadIdx.x][threadIdx.y] = make_float4(1, 2, 3, 4);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/fix_suggestions.cu:59:5: note: 'v4' declared here
 * tests/rules/bank-conflict/fix_suggestions.cu:60:5: note: declare 'v4' as `float4 v4[32][9]`: +512 bytes per block (4096 -> 4608 bytes of static shared memory); 2 of 2 conflicting accesses become conflict-free
 * fix-it:"tests/rules/bank-conflict/fix_suggestions.cu":{59:25-59:32}:"[32][9]"
 * tests/rules/bank-conflict/fix_suggestions.cu:62:24: warning: 8-way bank conflict on load of 'v4' (float4[32][8]) in kernel 'k_vec' with blockDim (32,8,1) from the launch on line 90; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[threadIdx.x] = v4[threadIdx.x][threadIdx.y];
 *                          ^~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/fix_suggestions.cu:59:5: note: 'v4' declared here
 * tests/rules/bank-conflict/fix_suggestions.cu:62:24: note: declare 'v4' as `float4 v4[32][9]`: +512 bytes per block (4096 -> 4608 bytes of static shared memory); 2 of 2 conflicting accesses become conflict-free
 * fix-it:"tests/rules/bank-conflict/fix_suggestions.cu":{59:25-59:32}:"[32][9]"
 * tests/rules/bank-conflict/fix_suggestions.cu:69:5: warning: 2-way bank conflict on store of 's1' (float[512]) in kernel 'k_offset' with blockDim (128,1,1) from the launch on line 91; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s1[threadIdx.x * 2] = threadIdx.x;
 *       ^~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/fix_suggestions.cu:68:5: note: 's1' declared here
 * tests/rules/bank-conflict/fix_suggestions.cu:69:5: note: index 's1' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * tests/rules/bank-conflict/fix_suggestions.cu:71:24: warning: 2-way bank conflict on load of 's1' (float[512]) in kernel 'k_offset' with blockDim (128,1,1) from the launch on line 91; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[threadIdx.x] = s1[threadIdx.x * 2];
 *                          ^~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/fix_suggestions.cu:68:5: note: 's1' declared here
 * tests/rules/bank-conflict/fix_suggestions.cu:71:24: note: index 's1' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 2 of 2 conflicting accesses become conflict-free
 * check-output-end
 */
