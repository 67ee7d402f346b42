// A CUB block collective synchronizes the block inside (a block-wide
// result in every thread needs a __syncthreads()), though its code, in the
// toolkit, is not converted: the call stands for that barrier. A running
// total kept in shared memory across a loop (ggml's ssm-scan) is read after
// the loop's barrier and rewritten in the next iteration after the scan's
// barrier: no race. The twin replaces the scan with a warp shuffle, which
// orders nothing across warps: the rewrite races with the read.
#include <cub/block/block_scan.cuh>

#define BLOCK 128

__global__ void carried_total(const float *in, float *out, int n)
{
    using BlockScan = cub::BlockScan<float, BLOCK>;
    __shared__ typename BlockScan::TempStorage temp;
    __shared__ float step_total;
    float running = 0.0f;
    for (int i = 0; i < n; i++) {
        float inclusive;
        BlockScan(temp).InclusiveSum(in[i * BLOCK + threadIdx.x], inclusive);
        out[i * BLOCK + threadIdx.x] = running + inclusive;
        if (threadIdx.x == BLOCK - 1)
            step_total = inclusive;
        __syncthreads();
        running += step_total;
    }
}

__global__ void carried_total_no_collective(const float *in, float *out, int n)
{
    __shared__ float step_total;
    float running = 0.0f;
    for (int i = 0; i < n; i++) {
        float inclusive = __shfl_up_sync(0xffffffffu, in[i * BLOCK + threadIdx.x], 1);
        out[i * BLOCK + threadIdx.x] = running + inclusive;
        if (threadIdx.x == BLOCK - 1)
            step_total = inclusive;
        __syncthreads();
        running += step_total;
    }
}

void launch(const float *in, float *out, int n)
{
    carried_total<<<1, BLOCK>>>(in, out, n);
    carried_total_no_collective<<<1, BLOCK>>>(in, out, n);
}

/*
 * check-output-start
 * tests/rules/missing-barrier/cub_collective.cu:37:13: error: missing barrier: write-after-read race on 'step_total': thread 127 overwrites step_total, which thread 0 read at line 39 in the previous iteration, with no __syncthreads() in between (different warps) in kernel 'carried_total_no_collective' with blockDim (128,1,1) from the launch on line 46 [missing-barrier]
 *               step_total = inclusive;
 *               ^~~~~~~~~~
 * tests/rules/missing-barrier/cub_collective.cu:39:20: note: the racing read of 'step_total' by thread 0
 * tests/rules/missing-barrier/cub_collective.cu:31:5: note: 'step_total' declared here
 * tests/rules/missing-barrier/cub_collective.cu:37:13: note: add __syncthreads() at the end of the loop body, before the next iteration overwrites what this one reads
 * check-output-end
 */
