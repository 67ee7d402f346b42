// A pointer chosen by a condition between two carves of one shared array
// (issue 23): the accesses through it resolve to that array, with the
// condition in their index, so the race search sees double buffers.

// two buffers alternating by iteration: the next iteration writes the
// other one, no race
__global__ void double_buffer(float *o, int n)
{
    extern __shared__ float sm[];
    for (int it = 0; it < n; it++) {
        float *cur = (it & 1) ? sm + 256 : sm;
        cur[threadIdx.x] = o[it];
        __syncthreads();
        o[threadIdx.x] = cur[255 - threadIdx.x];
    }
}

// the buffer changes every second iteration: iterations 0 and 1 share one
__global__ void double_buffer_late(float *o, int n)
{
    extern __shared__ float sm[];
    for (int it = 0; it < n; it++) {
        float *cur = (it & 2) ? sm + 256 : sm;
        cur[threadIdx.x] = o[it];
        __syncthreads();
        o[threadIdx.x] = cur[255 - threadIdx.x];
    }
}

// one buffer for the whole kernel, whichever c picks: a race
__global__ void uniform_pick(float *o, int c)
{
    extern __shared__ float sm[];
    float *p = c > 0 ? sm : sm + 256;
    p[threadIdx.x] = o[threadIdx.x];
    o[threadIdx.x] = p[255 - threadIdx.x];
}

// two arrays are no one place: not resolved, nothing claimed
__global__ void two_arrays(float *o, int c)
{
    __shared__ float a[256], b[256];
    float *p = c > 0 ? a : b;
    p[threadIdx.x] = o[threadIdx.x];
    __syncthreads();
    o[threadIdx.x] = p[255 - threadIdx.x];
}

/*
 * check-args: --block-dim 256 --no-cuda
 * check-output-start
 * tests/rules/missing-barrier/pointer_select.cu:24:9: error: missing barrier: write-after-read race on 'cur': thread 0 overwrites sm[0], which thread 255 read at line 26 in the previous iteration, with no __syncthreads() in between (different warps) in kernel 'double_buffer_late' with blockDim (256,1,1) from --block-dim [missing-barrier]
 *           cur[threadIdx.x] = o[it];
 *           ^~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/pointer_select.cu:26:26: note: the racing read of 'cur' by thread 255
 * tests/rules/missing-barrier/pointer_select.cu:21:5: note: 'sm' declared here
 * tests/rules/missing-barrier/pointer_select.cu:24:9: note: add __syncthreads() at the end of the loop body, before the next iteration overwrites what this one reads
 * tests/rules/missing-barrier/pointer_select.cu:36:22: error: missing barrier: read-after-write race on 'p': thread 0 reads sm[255], which thread 255 wrote at line 35, with no __syncthreads() in between (different warps) in kernel 'uniform_pick' with blockDim (256,1,1) from --block-dim [missing-barrier]
 *       o[threadIdx.x] = p[255 - threadIdx.x];
 *                        ^~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/pointer_select.cu:35:5: note: the racing write of 'p' by thread 255
 * tests/rules/missing-barrier/pointer_select.cu:33:5: note: 'sm' declared here
 * tests/rules/missing-barrier/pointer_select.cu:36:22: note: add __syncthreads() between the two accesses
 * check-output-end
 */
