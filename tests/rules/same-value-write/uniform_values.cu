// A value every thread computes alike, not a constant: a load from one
// global address, a kernel parameter, a by-value struct parameter's field.
// Written by every thread, it is a benign race (a note); the per-thread
// twins (a load at a thread's own index, a thread's local array) are races.
struct params { int n; int scale; };

__global__ void uniform_global(const int *o, int *out)
{
    __shared__ int s_u[64];
    int t = threadIdx.x;
    s_u[t & 63] = o[0];
    __syncthreads();
    out[t] = s_u[t & 63];
}

// twin: each thread loads its own element
__global__ void per_thread_global(const int *o, int *out)
{
    __shared__ int s_p[64];
    int t = threadIdx.x;
    s_p[t & 63] = o[t];
    __syncthreads();
    out[t] = s_p[t & 63];
}

// twin: a thread's local array holds its own values, at any index
__global__ void local_array(int *out)
{
    __shared__ int s_l[64];
    int loc[2] = { (int)threadIdx.x, 1 };
    int t = threadIdx.x;
    s_l[t & 63] = loc[0];
    __syncthreads();
    out[t] = s_l[t & 63];
}

// a by-value struct parameter's field is the same in every thread: the
// barrier under it is not divergent, and the write is benign
__global__ void struct_field(params p, int *out)
{
    __shared__ int s_f[64];
    int t = threadIdx.x;
    if (p.n > 3)
        __syncthreads();
    s_f[t & 63] = p.scale;
    __syncthreads();
    out[t] = s_f[t & 63];
}

// the same value, but at different iterations of a loop with no barrier:
// k differs, so it is a race
__global__ void loop_counter(int *out)
{
    __shared__ int s_k[64];
    int t = threadIdx.x;
    for (int k = 0; k < 4; k++)
        s_k[(t + k) & 63] = k;
    __syncthreads();
    out[t] = s_k[t & 63];
}

// a load from one global address per iteration: alike in every thread,
// not in every iteration, so also a race
__global__ void loop_load(const int *o, int *out)
{
    __shared__ int s_o[64];
    int t = threadIdx.x;
    for (int k = 0; k < 4; k++)
        s_o[(t + k) & 63] = o[k];
    __syncthreads();
    out[t] = s_o[t & 63];
}

void launch(const int *o, int *out, params p)
{
    uniform_global<<<1, 128>>>(o, out);
    per_thread_global<<<1, 128>>>(o, out);
    local_array<<<1, 128>>>(out);
    struct_field<<<1, 128>>>(p, out);
    loop_counter<<<1, 128>>>(out);
    loop_load<<<1, 128>>>(o, out);
}

/*
 * check-output-start
 * tests/rules/same-value-write/uniform_values.cu:11:5: note: benign race: threads write the same value to 's_u': thread 0 writes s_u[0], which thread 64 also writes in the same statement, threads of different warps (the value is the same whichever write lands) in kernel 'uniform_global' with blockDim (128,1,1) from the launch on line 76 [same-value-write]
 *       s_u[t & 63] = o[0];
 *       ^~~~~~~~~~~
 * tests/rules/same-value-write/uniform_values.cu:11:5: note: the same value written by thread 64
 * tests/rules/same-value-write/uniform_values.cu:9:5: note: 's_u' declared here
 * tests/rules/same-value-write/uniform_values.cu:11:5: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/uniform_values.cu:21:5: error: missing barrier: write-after-write race on 's_p': thread 0 writes s_p[0], which thread 64 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'per_thread_global' with blockDim (128,1,1) from the launch on line 77 [missing-barrier]
 *       s_p[t & 63] = o[t];
 *       ^~~~~~~~~~~
 * tests/rules/same-value-write/uniform_values.cu:21:5: note: the racing write of 's_p' by thread 64
 * tests/rules/same-value-write/uniform_values.cu:19:5: note: 's_p' declared here
 * tests/rules/same-value-write/uniform_values.cu:21:5: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * tests/rules/same-value-write/uniform_values.cu:32:5: error: missing barrier: write-after-write race on 's_l': thread 0 writes s_l[0], which thread 64 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'local_array' with blockDim (128,1,1) from the launch on line 78 [missing-barrier]
 *       s_l[t & 63] = loc[0];
 *       ^~~~~~~~~~~
 * tests/rules/same-value-write/uniform_values.cu:32:5: note: the racing write of 's_l' by thread 64
 * tests/rules/same-value-write/uniform_values.cu:29:5: note: 's_l' declared here
 * tests/rules/same-value-write/uniform_values.cu:32:5: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * tests/rules/same-value-write/uniform_values.cu:45:5: note: benign race: threads write the same value to 's_f': thread 0 writes s_f[0], which thread 64 also writes in the same statement, threads of different warps (the value is the same whichever write lands) in kernel 'struct_field' with blockDim (128,1,1) from the launch on line 79 [same-value-write]
 *       s_f[t & 63] = p.scale;
 *       ^~~~~~~~~~~
 * tests/rules/same-value-write/uniform_values.cu:45:5: note: the same value written by thread 64
 * tests/rules/same-value-write/uniform_values.cu:41:5: note: 's_f' declared here
 * tests/rules/same-value-write/uniform_values.cu:45:5: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/uniform_values.cu:57:9: error: missing barrier: write-after-write race on 's_k': thread 0 writes s_k[0], which thread 64 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'loop_counter' with blockDim (128,1,1) from the launch on line 80 [missing-barrier]
 *           s_k[(t + k) & 63] = k;
 *           ^~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/uniform_values.cu:57:9: note: the racing write of 's_k' by thread 64
 * tests/rules/same-value-write/uniform_values.cu:54:5: note: 's_k' declared here
 * tests/rules/same-value-write/uniform_values.cu:57:9: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * tests/rules/same-value-write/uniform_values.cu:69:9: error: missing barrier: write-after-write race on 's_o': thread 0 writes s_o[0], which thread 64 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'loop_load' with blockDim (128,1,1) from the launch on line 81 [missing-barrier]
 *           s_o[(t + k) & 63] = o[k];
 *           ^~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/uniform_values.cu:69:9: note: the racing write of 's_o' by thread 64
 * tests/rules/same-value-write/uniform_values.cu:66:5: note: 's_o' declared here
 * tests/rules/same-value-write/uniform_values.cu:69:9: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * check-output-end
 */
