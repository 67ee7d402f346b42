// clang stops a parse after 20 errors by default; code nvcc accepts
// and clang rejects (here a __shared__ cuda::barrier declared without an
// initializer, two to a declaration) is one error per variable, read as a
// note. With more than 20 of them, the kernel after them must still be
// analyzed: its race is reported (SM_FE_ERROR_LIMIT).
#include <cuda/barrier>

using block_barrier = cuda::barrier<cuda::thread_scope_block>;

__global__ void many_barriers(int *out)
{
    __shared__ block_barrier b0, b1;
    __shared__ block_barrier b2, b3;
    __shared__ block_barrier b4, b5;
    __shared__ block_barrier b6, b7;
    __shared__ block_barrier b8, b9;
    __shared__ block_barrier b10, b11;
    __shared__ block_barrier b12, b13;
    __shared__ block_barrier b14, b15;
    __shared__ block_barrier b16, b17;
    __shared__ block_barrier b18, b19;
    __shared__ block_barrier b20, b21;
    __shared__ block_barrier b22, b23;
    if (threadIdx.x == 0)
        init(&b0, blockDim.x);
    __syncthreads();
    out[threadIdx.x] = 0;
}

__global__ void after_them(int *out)
{
    __shared__ int s[256];
    s[threadIdx.x] = threadIdx.x;
    out[threadIdx.x] = s[255 - threadIdx.x];
}

void run(int *out)
{
    many_barriers<<<1, 256>>>(out);
    after_them<<<1, 256>>>(out);
}

/*
 * check-output-start
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:12:30: note: __shared__ 'b0' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:12:34: note: __shared__ 'b1' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:13:30: note: __shared__ 'b2' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:13:34: note: __shared__ 'b3' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:14:30: note: __shared__ 'b4' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:14:34: note: __shared__ 'b5' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:15:30: note: __shared__ 'b6' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:15:34: note: __shared__ 'b7' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:16:30: note: __shared__ 'b8' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:16:34: note: __shared__ 'b9' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:17:30: note: __shared__ 'b10' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:17:35: note: __shared__ 'b11' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:18:30: note: __shared__ 'b12' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:18:35: note: __shared__ 'b13' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:19:30: note: __shared__ 'b14' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:19:35: note: __shared__ 'b15' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:20:30: note: __shared__ 'b16' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:20:35: note: __shared__ 'b17' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:21:30: note: __shared__ 'b18' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:21:35: note: __shared__ 'b19' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:22:30: note: __shared__ 'b20' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:22:35: note: __shared__ 'b21' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:23:30: note: __shared__ 'b22' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:23:35: note: __shared__ 'b23' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:34:24: error: missing barrier: read-after-write race on 's': thread 0 reads s[255], which thread 255 wrote at line 33, with no __syncthreads() in between (different warps) in kernel 'after_them' with blockDim (256,1,1) from the launch on line 40 [missing-barrier]
 *       out[threadIdx.x] = s[255 - threadIdx.x];
 *                          ^~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:33:5: note: the racing write of 's' by thread 255
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:32:5: note: 's' declared here
 * tests/rules/missing-barrier/many_nvcc_accepted.cu:34:24: note: add __syncthreads() between the two accesses
 * check-output-end
 */
