// --fix applies a verified XOR swizzle by rewriting the last subscript of
// every access of the array, only where every use of it is such an access
// (tests/test_fix.py applies them). Each kernel's note says whether --fix
// applies it, and why not.
#define N 16
#define AT(r, c) m[r][c]

// applied: operands that need parentheses get them; a literal row whose
// bits the mask clears keeps its place, another is folded
__global__ void k_parens(float *out)
{
    __shared__ float t[N][N];
    int x = threadIdx.x, y = threadIdx.y;
    t[y][x | 0] = x;
    __syncthreads();
    out[x] = t[x][y & 15] + t[0][x] + t[3][x] + t[y + 0][x];
}

// refused: an access through a macro is not spelled in the kernel's text
__global__ void k_macro(float *out)
{
    __shared__ float m[N][N];
    m[threadIdx.y][threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = AT(threadIdx.x, threadIdx.y);
}

__device__ int row_of(int i) { return i; }

// refused: the row index calls a function, which the swizzle would repeat
__global__ void k_call(float *out)
{
    __shared__ float c[N][N];
    c[threadIdx.y][threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = c[row_of(threadIdx.x)][threadIdx.y];
}

// refused: sizeof names the array outside any access
__global__ void k_sizeof(float *out)
{
    __shared__ float s[N][N];
    s[threadIdx.y][threadIdx.x] = sizeof(s);
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x][threadIdx.y];
}

// refused: a file-scope array may be used by other kernels
__shared__ float g[N][N];
__global__ void k_global(float *out)
{
    g[threadIdx.y][threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = g[threadIdx.x][threadIdx.y];
}

int main()
{
    k_parens<<<1, dim3(N, N)>>>(0);
    k_macro<<<1, dim3(N, N)>>>(0);
    k_call<<<1, dim3(N, N)>>>(0);
    k_sizeof<<<1, dim3(N, N)>>>(0);
    k_global<<<1, dim3(N, N)>>>(0);
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/bank-conflict/swizzle_fix.cu:16:14: warning: 8-way bank conflict on load of 't' (float[16][16]) in kernel 'k_parens' with blockDim (16,16,1) from the launch on line 59; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[x] = t[x][y & 15] + t[0][x] + t[3][x] + t[y + 0][x];
 *                ^~~~~~~~~~~~
 * tests/rules/bank-conflict/swizzle_fix.cu:12:5: note: 't' declared here
 * tests/rules/bank-conflict/swizzle_fix.cu:16:14: note: swizzle 't': write every access `t[r][c]` as `t[r][c ^ (r & 15)]`: 1 of 1 conflicting accesses become conflict-free (verified); write this access as `t[x][(y & 15) ^ (x & 15)]`
 * fix-it:"tests/rules/bank-conflict/swizzle_fix.cu":{14:10-14:15}:"(x | 0) ^ (y & 15)"
 * fix-it:"tests/rules/bank-conflict/swizzle_fix.cu":{16:19-16:25}:"(y & 15) ^ (x & 15)"
 * fix-it:"tests/rules/bank-conflict/swizzle_fix.cu":{16:44-16:45}:"x ^ 3"
 * fix-it:"tests/rules/bank-conflict/swizzle_fix.cu":{16:58-16:59}:"x ^ ((y + 0) & 15)"
 * tests/rules/bank-conflict/swizzle_fix.cu:25:24: warning: 8-way bank conflict on load of 'm' (float[16][16]) in kernel 'k_macro' with blockDim (16,16,1) from the launch on line 60; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[threadIdx.x] = AT(threadIdx.x, threadIdx.y);
 *                          ^~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/swizzle_fix.cu:22:5: note: 'm' declared here
 * tests/rules/bank-conflict/swizzle_fix.cu:25:24: note: swizzle 'm': write every access `m[r][c]` as `m[r][c ^ (r & 15)]`: 1 of 1 conflicting accesses become conflict-free (verified); --fix will not apply it: an access of 'm' is not written as a subscript in the kernel's text
 * tests/rules/bank-conflict/swizzle_fix.cu:36:24: warning: 8-way bank conflict on load of 'c' (float[16][16]) in kernel 'k_call' with blockDim (16,16,1) from the launch on line 61; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[threadIdx.x] = c[row_of(threadIdx.x)][threadIdx.y];
 *                          ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/swizzle_fix.cu:33:5: note: 'c' declared here
 * tests/rules/bank-conflict/swizzle_fix.cu:36:24: note: swizzle 'c': write every access `c[r][c]` as `c[r][c ^ (r & 15)]`: 1 of 1 conflicting accesses become conflict-free (verified); --fix will not apply it: a row index of 'c' has side effects or calls, and the swizzle would repeat it; write this access as `c[row_of(threadIdx.x)][threadIdx.y ^ ((row_of(threadIdx.x)) & 15)]`
 * tests/rules/bank-conflict/swizzle_fix.cu:45:24: warning: 8-way bank conflict on load of 's' (float[16][16]) in kernel 'k_sizeof' with blockDim (16,16,1) from the launch on line 62; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[threadIdx.x] = s[threadIdx.x][threadIdx.y];
 *                          ^~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/swizzle_fix.cu:42:5: note: 's' declared here
 * tests/rules/bank-conflict/swizzle_fix.cu:45:24: note: swizzle 's': write every access `s[r][c]` as `s[r][c ^ (r & 15)]`: 1 of 1 conflicting accesses become conflict-free (verified); --fix will not apply it: not every use of 's' in the kernel is an access the fix rewrites; write this access as `s[threadIdx.x][threadIdx.y ^ (threadIdx.x & 15)]`
 * tests/rules/bank-conflict/swizzle_fix.cu:54:24: warning: 8-way bank conflict on load of 'g' (float[16][16]) in kernel 'k_global' with blockDim (16,16,1) from the launch on line 63; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[threadIdx.x] = g[threadIdx.x][threadIdx.y];
 *                          ^~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/swizzle_fix.cu:49:1: note: 'g' declared here
 * tests/rules/bank-conflict/swizzle_fix.cu:54:24: note: swizzle 'g': write every access `g[r][c]` as `g[r][c ^ (r & 15)]`: 1 of 1 conflicting accesses become conflict-free (verified); --fix will not apply it: 'g' is declared at file scope and may be used by other kernels; write this access as `g[threadIdx.x][threadIdx.y ^ (threadIdx.x & 15)]`
 * check-output-end
 */
