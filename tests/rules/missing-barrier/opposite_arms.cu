/* Two threads in the opposite arms of one `if` whose condition is alike for
 * both never run the two arms at once, so the arms do not race with each
 * other there. The race search takes an undecidable condition as true for
 * each thread apart; it must not pair a thread of one arm with a thread of
 * the other when the condition reads only what the two share: the row
 * (threadIdx.y, with 32-wide rows), a value loaded at the row's address, a
 * warp's vote. Where two threads may part (rows apart, warps apart, a
 * per-thread value) the race is real and still reported. */

/* the row decides: lanes of one row go one way together (ggml's
 * fattn-vec Q conversion: `ic0 + j >= ne01.z` with j = j0 + threadIdx.y) */
__global__ void row_arms(float *out, int rows)
{
    __shared__ float s[4][32];
    const int j = threadIdx.y;
    if (j >= rows)
        s[j][threadIdx.x] = 0.0f;
    else
        s[j][threadIdx.x ^ 1] = 1.0f;
    __syncthreads();
    out[threadIdx.y * 32 + threadIdx.x] = s[threadIdx.y][threadIdx.x];
}

/* a value loaded at the row's address: alike in the row */
__global__ void row_load_arms(float *out, const int *rows)
{
    __shared__ float s[4][32];
    const int j = threadIdx.y;
    if (rows[j] > 0)
        s[j][threadIdx.x] = 0.0f;
    else
        s[j][threadIdx.x ^ 1] = 1.0f;
    __syncthreads();
    out[threadIdx.y * 32 + threadIdx.x] = s[threadIdx.y][threadIdx.x];
}

/* one row's arm writes the next row's elements: two rows may part, and
 * thread (x, j) meets thread (x, j + 1) of the other arm: a real race */
__global__ void rows_apart(float *out, int rows)
{
    __shared__ float s[4][32];
    const int j = threadIdx.y;
    if (j >= rows)
        s[(j + 1) % 4][threadIdx.x] = 0.0f;
    else
        s[j][threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.y * 32 + threadIdx.x] = s[threadIdx.y][threadIdx.x];
}

/* a warp's vote: within a warp the second if's arms meet (t and t ^ 1)
 * but go one way together; across the two warps the first if's arms
 * meet: a real race */
__global__ void vote_arms(float *out, const float *in)
{
    __shared__ float s[64];
    bool any = __any_sync(0xffffffffu, in[threadIdx.x] > 0.0f);
    if (any)
        s[threadIdx.x] = 1.0f;
    else
        s[(threadIdx.x + 32) % 64] = 2.0f;
    __syncwarp();
    if (any)
        s[threadIdx.x ^ 1] += 1.0f;
    else
        s[threadIdx.x] = 3.0f;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

/* a per-thread condition: lanes 0 and 1 may part: a real race */
__global__ void per_thread_arms(float *out, const float *in)
{
    __shared__ float s[64];
    if (in[threadIdx.x] > 0.0f)
        s[threadIdx.x] = 1.0f;
    else
        s[threadIdx.x ^ 1] = 2.0f;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

void launch(float *out, const float *in, const int *r, int rows)
{
    row_arms<<<1, dim3(32, 4)>>>(out, rows);
    row_load_arms<<<1, dim3(32, 4)>>>(out, r);
    rows_apart<<<1, dim3(32, 4)>>>(out, rows);
    vote_arms<<<1, 64>>>(out, in);
    per_thread_arms<<<1, 64>>>(out, in);
}

/*
 * check-args: --no-cuda
 */

/*
 * check-output-start
 * tests/rules/missing-barrier/opposite_arms.cu:46:9: error: missing barrier: write-after-write race on 's': thread (0,0) writes s[0][0], which thread (0,3) wrote at line 44, with no __syncthreads() in between (different warps) in kernel 'rows_apart' with blockDim (32,4,1) from the launch on line 87 [missing-barrier]
 *           s[j][threadIdx.x] = 1.0f;
 *           ^~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/opposite_arms.cu:44:9: note: the racing write of 's' by thread (0,3)
 * tests/rules/missing-barrier/opposite_arms.cu:41:5: note: 's' declared here
 * tests/rules/missing-barrier/opposite_arms.cu:46:9: note: add __syncthreads() between the two accesses
 * tests/rules/missing-barrier/opposite_arms.cu:61:9: error: missing barrier: write-after-write race on 's': thread 0 writes s[32], which thread 32 wrote at line 59, with no __syncthreads() in between (different warps) in kernel 'vote_arms' with blockDim (64,1,1) from the launch on line 88 [missing-barrier]
 *           s[(threadIdx.x + 32) % 64] = 2.0f;
 *           ^~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/opposite_arms.cu:59:9: note: the racing write of 's' by thread 32
 * tests/rules/missing-barrier/opposite_arms.cu:56:5: note: 's' declared here
 * tests/rules/missing-barrier/opposite_arms.cu:61:9: note: add __syncthreads() between the two accesses
 * tests/rules/missing-barrier/opposite_arms.cu:64:9: error: missing barrier: read-after-write race on 's': thread 0 reads s[1], which thread 33 wrote at line 61, with no barrier ordering both threads in between ('__syncwarp()' at line 62 orders only the threads of one warp; different warps) in kernel 'vote_arms' with blockDim (64,1,1) from the launch on line 88 [missing-barrier]
 *           s[threadIdx.x ^ 1] += 1.0f;
 *           ^~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/opposite_arms.cu:61:9: note: the racing write of 's' by thread 33
 * tests/rules/missing-barrier/opposite_arms.cu:56:5: note: 's' declared here
 * tests/rules/missing-barrier/opposite_arms.cu:64:9: note: order the two threads with a barrier whose scope holds both (__syncthreads() for threads of different tiles or warps)
 * tests/rules/missing-barrier/opposite_arms.cu:66:9: error: missing barrier: write-after-write race on 's': thread 0 writes s[0], which thread 32 wrote at line 61, with no barrier ordering both threads in between ('__syncwarp()' at line 62 orders only the threads of one warp; different warps) in kernel 'vote_arms' with blockDim (64,1,1) from the launch on line 88 [missing-barrier]
 *           s[threadIdx.x] = 3.0f;
 *           ^~~~~~~~~~~~~~
 * tests/rules/missing-barrier/opposite_arms.cu:61:9: note: the racing write of 's' by thread 32
 * tests/rules/missing-barrier/opposite_arms.cu:56:5: note: 's' declared here
 * tests/rules/missing-barrier/opposite_arms.cu:66:9: note: order the two threads with a barrier whose scope holds both (__syncthreads() for threads of different tiles or warps)
 * tests/rules/missing-barrier/opposite_arms.cu:78:9: warning: unsynchronized warp exchange on 's': lane 0 of warp 0 writes s[1], which lane 1 wrote at line 76, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'per_thread_arms' with blockDim (64,1,1) from the launch on line 89 [warp-sync]
 *           s[threadIdx.x ^ 1] = 2.0f;
 *           ^~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/opposite_arms.cu:76:9: note: the other lane's write of 's'
 * tests/rules/missing-barrier/opposite_arms.cu:74:5: note: 's' declared here
 * tests/rules/missing-barrier/opposite_arms.cu:78:9: note: add __syncwarp() between the write and the access that depends on it
 * check-output-end
 */
