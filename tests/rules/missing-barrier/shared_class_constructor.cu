// issue 27: a __shared__ variable of class type with a constructor (as
// cuda::barrier and cuda::pipeline_shared_state are) is an error for clang
// ("initialization is not supported for __shared__ variables") and a
// warning for nvcc, which ignores the constructor. It is the input problem
// nvcc-accepts, a note: the kernel is analyzed and the run does not fail
// for it. An explicit initializer (`= Counter(5)`) stays an error.
struct Counter {
    int n = 0;
    __device__ Counter() {}
    __device__ Counter(int v) : n(v) {}
};

__global__ void with_object(float *out)
{
    __shared__ Counter c;
    __shared__ float s[64];
    if (threadIdx.x == 0)
        c.n = 64;
    s[threadIdx.x] = out[threadIdx.x];
    out[threadIdx.x] = s[63 - threadIdx.x];
}

__global__ void with_initializer(float *out)
{
    __shared__ Counter d = Counter(5);
    out[threadIdx.x] = d.n;
}

void run(float *o)
{
    with_object<<<1, 64>>>(o);
    with_initializer<<<1, 64>>>(o);
}

/*
 * check-exit: 2
 * check-output-start
 * tests/rules/missing-barrier/shared_class_constructor.cu:15:24: note: __shared__ 'c' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/shared_class_constructor.cu:25:24: error: initialization is not supported for __shared__ variables
 * tests/rules/missing-barrier/shared_class_constructor.cu:20:24: error: missing barrier: read-after-write race on 's': thread 0 reads s[63], which thread 63 wrote at line 19, with no __syncthreads() in between (different warps) in kernel 'with_object' with blockDim (64,1,1) from the launch on line 31 [missing-barrier]
 *       out[threadIdx.x] = s[63 - threadIdx.x];
 *                          ^~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/shared_class_constructor.cu:19:5: note: the racing write of 's' by thread 63
 * tests/rules/missing-barrier/shared_class_constructor.cu:16:5: note: 's' declared here
 * tests/rules/missing-barrier/shared_class_constructor.cu:20:24: note: add __syncthreads() between the two accesses
 * check-output-end
 */
