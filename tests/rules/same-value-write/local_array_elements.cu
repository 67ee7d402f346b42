// Elements of a local array followed as variables (issue 23, ggml's
// mul_mat_vec_f): sumf[j] = warp_sum(sumf[j]) leaves one value in each
// warp, which buf[warp] = sumf[j] then stores (benign). The controls
// change the element in between, or use the array in ways not followed.
__device__ __forceinline__ float warp_sum(float x)
{
    for (int o = 16; o > 0; o >>= 1)
        x += __shfl_xor_sync(0xffffffff, x, o);
    return x;
}

__device__ __forceinline__ void mad(float &acc, float x, float y)
{
    acc += x * y;
}

template <int ncols>
__global__ void __launch_bounds__(256) sums(const float *in, float *out)
{
    __shared__ float buf[8];
    float sumf[ncols] = {0.0f};
    for (int j = 0; j < ncols; ++j)
        mad(sumf[j], in[threadIdx.x + j], 2.0f);
    for (int j = 0; j < ncols; ++j) {
        sumf[j] = warp_sum(sumf[j]);
        buf[threadIdx.x / 32] = sumf[j];
        __syncthreads();
        if (threadIdx.x < 8)
            out[j * 8 + threadIdx.x] = buf[threadIdx.x];
        __syncthreads();
    }
}
template __global__ void sums<4>(const float *, float *);

// control: another index is stored in between (it may be the same element)
__global__ void __launch_bounds__(256) other_index(const float *in, float *out, int k)
{
    __shared__ float buf[8];
    float v[4];
    v[0] = warp_sum(in[threadIdx.x]);
    v[k] = in[threadIdx.x];
    buf[threadIdx.x / 32] = v[0];
    __syncthreads();
    if (threadIdx.x < 8)
        out[threadIdx.x] = buf[threadIdx.x];
}

// control: the index changes in between, so v[i] names another element
__global__ void __launch_bounds__(256) index_moves(const float *in, float *out)
{
    __shared__ float buf[8];
    float v[4];
    for (int j = 0; j < 4; j++)
        v[j] = in[threadIdx.x + j];
    int i = 0;
    v[i] = warp_sum(in[threadIdx.x]);
    i = 1;
    buf[threadIdx.x / 32] = v[i];
    __syncthreads();
    if (threadIdx.x < 8)
        out[threadIdx.x] = buf[threadIdx.x];
}

// control: a callee adds a per-thread value through a reference
__global__ void __launch_bounds__(256) by_reference(const float *in, float *out)
{
    __shared__ float buf[8];
    float v[2];
    v[0] = warp_sum(in[threadIdx.x]);
    mad(v[0], in[threadIdx.x], 3.0f);
    buf[threadIdx.x / 32] = v[0];
    __syncthreads();
    if (threadIdx.x < 8)
        out[threadIdx.x] = buf[threadIdx.x];
}

// control: a pointer into the array is taken, so it is not followed
__global__ void __launch_bounds__(256) address_taken(const float *in, float *out)
{
    __shared__ float buf[8];
    float v[2];
    v[0] = warp_sum(in[threadIdx.x]);
    float *p = &v[0];
    *p += in[threadIdx.x];
    buf[threadIdx.x / 32] = v[0];
    __syncthreads();
    if (threadIdx.x < 8)
        out[threadIdx.x] = buf[threadIdx.x];
}

// control: the element is incremented in place
__global__ void __launch_bounds__(256) incremented(const float *in, float *out)
{
    __shared__ float buf[8];
    int v[2];
    v[0] = __reduce_add_sync(0xffffffff, (int)in[threadIdx.x]);
    if (threadIdx.x % 2)
        v[0]++;
    buf[threadIdx.x / 32] = v[0];
    __syncthreads();
    if (threadIdx.x < 8)
        out[threadIdx.x] = buf[threadIdx.x];
}

/*
 * check-output-start
 * tests/rules/same-value-write/local_array_elements.cu:26:9: note: benign race: threads write the same value to 'buf': thread 0 writes buf[0], which thread 1 also writes in the same statement, lanes of one warp (the value is the same whichever write lands) in kernel 'sums' with blockDim (256,1,1) from __launch_bounds__(256) [same-value-write]
 *           buf[threadIdx.x / 32] = sumf[j];
 *           ^~~~~~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/local_array_elements.cu:26:9: note: the same value written by thread 1
 * tests/rules/same-value-write/local_array_elements.cu:20:5: note: 'buf' declared here
 * tests/rules/same-value-write/local_array_elements.cu:26:9: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/local_array_elements.cu:42:5: warning: unsynchronized warp exchange on 'buf': lane 0 of warp 0 writes buf[0], which lane 1 also writes in the same statement, lanes of one warp in one statement (which lane's write lands is undefined) in kernel 'other_index' with blockDim (256,1,1) from __launch_bounds__(256) [warp-sync]
 *       buf[threadIdx.x / 32] = v[0];
 *       ^~~~~~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/local_array_elements.cu:42:5: note: the other lane's write of 'buf'
 * tests/rules/same-value-write/local_array_elements.cu:38:5: note: 'buf' declared here
 * tests/rules/same-value-write/local_array_elements.cu:42:5: note: let one lane write it, or give each lane its own element
 * tests/rules/same-value-write/local_array_elements.cu:58:5: warning: unsynchronized warp exchange on 'buf': lane 0 of warp 0 writes buf[0], which lane 1 also writes in the same statement, lanes of one warp in one statement (which lane's write lands is undefined) in kernel 'index_moves' with blockDim (256,1,1) from __launch_bounds__(256) [warp-sync]
 *       buf[threadIdx.x / 32] = v[i];
 *       ^~~~~~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/local_array_elements.cu:58:5: note: the other lane's write of 'buf'
 * tests/rules/same-value-write/local_array_elements.cu:51:5: note: 'buf' declared here
 * tests/rules/same-value-write/local_array_elements.cu:58:5: note: let one lane write it, or give each lane its own element
 * tests/rules/same-value-write/local_array_elements.cu:71:5: warning: unsynchronized warp exchange on 'buf': lane 0 of warp 0 writes buf[0], which lane 1 also writes in the same statement, lanes of one warp in one statement (which lane's write lands is undefined) in kernel 'by_reference' with blockDim (256,1,1) from __launch_bounds__(256) [warp-sync]
 *       buf[threadIdx.x / 32] = v[0];
 *       ^~~~~~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/local_array_elements.cu:71:5: note: the other lane's write of 'buf'
 * tests/rules/same-value-write/local_array_elements.cu:67:5: note: 'buf' declared here
 * tests/rules/same-value-write/local_array_elements.cu:71:5: note: let one lane write it, or give each lane its own element
 * tests/rules/same-value-write/local_array_elements.cu:85:5: warning: unsynchronized warp exchange on 'buf': lane 0 of warp 0 writes buf[0], which lane 1 also writes in the same statement, lanes of one warp in one statement (which lane's write lands is undefined) in kernel 'address_taken' with blockDim (256,1,1) from __launch_bounds__(256) [warp-sync]
 *       buf[threadIdx.x / 32] = v[0];
 *       ^~~~~~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/local_array_elements.cu:85:5: note: the other lane's write of 'buf'
 * tests/rules/same-value-write/local_array_elements.cu:80:5: note: 'buf' declared here
 * tests/rules/same-value-write/local_array_elements.cu:85:5: note: let one lane write it, or give each lane its own element
 * tests/rules/same-value-write/local_array_elements.cu:99:5: warning: unsynchronized warp exchange on 'buf': lane 0 of warp 0 writes buf[0], which lane 1 also writes in the same statement, lanes of one warp in one statement (which lane's write lands is undefined) in kernel 'incremented' with blockDim (256,1,1) from __launch_bounds__(256) [warp-sync]
 *       buf[threadIdx.x / 32] = v[0];
 *       ^~~~~~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/local_array_elements.cu:99:5: note: the other lane's write of 'buf'
 * tests/rules/same-value-write/local_array_elements.cu:94:5: note: 'buf' declared here
 * tests/rules/same-value-write/local_array_elements.cu:99:5: note: let one lane write it, or give each lane its own element
 * check-output-end
 */
