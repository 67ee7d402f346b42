// A guard that reads shared memory is undecidable and taken as true, except
// when one condition tests one element twice in ways no value satisfies
// (issue 14, item 4). Each correlated form has its uncorrelated twin.
#define N 32

// transitive closure: thread (y, x) writes only b[y][x], and only while it
// is 0; in iteration k == x its guard reads b[y][x] both as b[y][x] == 0
// and as b[y][k] != 0, so it never writes the element the row reads then
__global__ void closure(int *g)
{
    __shared__ int b[N][N];
    int y = threadIdx.y, x = threadIdx.x;
    b[y][x] = g[y * N + x];
    __syncthreads();
    for (int k = 0; k < N; k++) {
        if (b[y][x] == 0 && b[y][k] != 0 && b[k][x] != 0)
            b[y][x] = k + 2;
        __syncthreads();
    }
    g[y * N + x] = b[y][x];
}

// uncorrelated twin: no test of the own element, so thread (y, k) may
// write b[y][k] while (y, x) reads it
__global__ void closure_racy(int *g)
{
    __shared__ int c[N][N];
    int y = threadIdx.y, x = threadIdx.x;
    c[y][x] = g[y * N + x];
    __syncthreads();
    for (int k = 0; k < N; k++) {
        if (c[y][k] != 0 && c[k][x] != 0)
            c[y][x] = k + 2;
        __syncthreads();
    }
    g[y * N + x] = c[y][x];
}

// correlated through ! and a cast to bool: s[t] < 0 and !(s[w] < 0) with
// w == t exclude each other, so no thread overwrites what its neighbour
// reads before the barrier
__global__ void range_test(int *g)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = g[t];
    __syncthreads();
    int r = s[(t + 63) & 63];
    if (s[t] < 0 && !(s[(t + 64) & 63] < 0))
        s[t] = 1;
    g[t] = r;
}

// uncorrelated twin: s[t] > 0 and s[t] < 5 can both hold, so the write of
// s[t] races with the neighbour's read
__global__ void range_ok(int *g)
{
    __shared__ int q[64];
    int t = threadIdx.x;
    q[t] = g[t];
    __syncthreads();
    int r = q[(t + 63) & 63];
    if (q[t] > 0 && q[(t + 64) & 63] < 5)
        q[t] = 1;
    g[t] = r;
}

// uncorrelated: two conditions (nested ifs) with the thread's own write
// between them are never related, so the write to the neighbour counts
__global__ void nested_ifs(int *g)
{
    __shared__ int v[64];
    int t = threadIdx.x;
    v[t] = g[t];
    __syncthreads();
    if (v[t] == 0) {
        v[t] = 1;
        if (v[t] != 0)
            v[(t + 32) & 63] = 2;
    }
    __syncthreads();
    g[t] = v[t];
}

// the closure step as nested ifs (GPUVerify's form): nothing is written
// between the outer test of d[y][x] and the inner one of d[y][k], so in
// iteration k == x they read one value, == 0 and != 0 at once
__global__ void closure_nested(int *g)
{
    __shared__ int d[N][N];
    int y = threadIdx.y, x = threadIdx.x;
    d[y][x] = g[y * N + x];
    __syncthreads();
    for (int k = 0; k < N; k++) {
        if (d[y][x] == 0) {
            if (d[y][k] != 0 && d[k][x] != 0)
                d[y][x] = k + 2;
        }
        __syncthreads();
    }
    g[y * N + x] = d[y][x];
}

// twin: the thread writes between the two tests, so they are not related
// and the write of e[y][x] counts against the row's reads. Conservative
// here: the write goes to another array, so e[y][x] still holds one value
// and no race happens; a store anywhere in between is enough to stop the
// model relating the two loads
__global__ void closure_nested_written(int *g)
{
    __shared__ int e[N][N];
    __shared__ int seen[N][N];
    int y = threadIdx.y, x = threadIdx.x;
    e[y][x] = g[y * N + x];
    __syncthreads();
    for (int k = 0; k < N; k++) {
        if (e[y][x] == 0) {
            seen[y][x] = k;
            if (e[y][k] != 0 && e[k][x] != 0)
                e[y][x] = k + 2;
        }
        __syncthreads();
    }
    g[y * N + x] = e[y][x] + seen[y][x];
}

void launch(int *g)
{
    closure<<<1, dim3(N, N)>>>(g);
    closure_racy<<<1, dim3(N, N)>>>(g);
    range_test<<<1, 64>>>(g);
    range_ok<<<1, 64>>>(g);
    nested_ifs<<<1, 64>>>(g);
    closure_nested<<<1, dim3(N, N)>>>(g);
    closure_nested_written<<<1, dim3(N, N)>>>(g);
}

/*
 * check-output-start
 * tests/rules/missing-barrier/value_correlation.cu:33:13: error: missing barrier: write-after-read race on 'c': thread (0,0) overwrites c[0][0], which thread (0,1) read at line 32, with no __syncthreads() in between (different warps) in kernel 'closure_racy' with blockDim (32,32,1) from the launch on line 130 [missing-barrier]
 *               c[y][x] = k + 2;
 *               ^~~~~~~
 * tests/rules/missing-barrier/value_correlation.cu:32:29: note: the racing read of 'c' by thread (0,1)
 * tests/rules/missing-barrier/value_correlation.cu:27:5: note: 'c' declared here
 * tests/rules/missing-barrier/value_correlation.cu:33:13: note: add __syncthreads() between the two accesses
 * tests/rules/missing-barrier/value_correlation.cu:64:9: error: missing barrier: write-after-read race on 'q': thread 31 overwrites q[31], which thread 32 read at line 62, with no __syncthreads() in between (different warps) in kernel 'range_ok' with blockDim (64,1,1) from the launch on line 132 [missing-barrier]
 *           q[t] = 1;
 *           ^~~~
 * tests/rules/missing-barrier/value_correlation.cu:62:13: note: the racing read of 'q' by thread 32
 * tests/rules/missing-barrier/value_correlation.cu:58:5: note: 'q' declared here
 * tests/rules/missing-barrier/value_correlation.cu:64:9: note: add __syncthreads() between the two accesses
 * tests/rules/missing-barrier/value_correlation.cu:79:13: error: missing barrier: write-after-read race on 'v': thread 0 overwrites v[32], which thread 32 read at line 78, with no __syncthreads() in between (different warps) in kernel 'nested_ifs' with blockDim (64,1,1) from the launch on line 133 [missing-barrier]
 *               v[(t + 32) & 63] = 2;
 *               ^~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/value_correlation.cu:78:13: note: the racing read of 'v' by thread 32
 * tests/rules/missing-barrier/value_correlation.cu:72:5: note: 'v' declared here
 * tests/rules/missing-barrier/value_correlation.cu:79:13: note: add __syncthreads() between the two accesses
 * tests/rules/missing-barrier/value_correlation.cu:120:17: error: missing barrier: write-after-read race on 'e': thread (0,0) overwrites e[0][0], which thread (0,1) read at line 119, with no __syncthreads() in between (different warps) in kernel 'closure_nested_written' with blockDim (32,32,1) from the launch on line 135 [missing-barrier]
 *                   e[y][x] = k + 2;
 *                   ^~~~~~~
 * tests/rules/missing-barrier/value_correlation.cu:119:33: note: the racing read of 'e' by thread (0,1)
 * tests/rules/missing-barrier/value_correlation.cu:111:5: note: 'e' declared here
 * tests/rules/missing-barrier/value_correlation.cu:120:17: note: add __syncthreads() between the two accesses
 * check-output-end
 */
