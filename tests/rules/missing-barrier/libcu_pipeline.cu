// cuda::pipeline of thread scope: cuda::pipeline_consumer_wait_prior<N>
// completes every stage but the N newest; a call the analysis does not
// model that takes the pipeline may wait too, so it completes them all (no
// race is made up). The two-stage kernel reads the newest stage after
// wait_prior<1>: a race.
#include <cuda/pipeline>

__global__ void wait_prior0(const float *in, float *out)
{
    __shared__ float s[64];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    int t = threadIdx.x;
    pipe.producer_acquire();
    cuda::memcpy_async(&s[t], &in[t], sizeof(float), pipe);
    pipe.producer_commit();
    cuda::pipeline_consumer_wait_prior<0>(pipe);
    __syncthreads();
    out[t] = s[63 - t];
}

__global__ void wait_prior1(const float *in, float *out)
{
    __shared__ float a[64], b[64];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    int t = threadIdx.x;
    pipe.producer_acquire();
    cuda::memcpy_async(&a[t], &in[t], sizeof(float), pipe);
    pipe.producer_commit();
    pipe.producer_acquire();
    cuda::memcpy_async(&b[t], &in[64 + t], sizeof(float), pipe);
    pipe.producer_commit();
    cuda::pipeline_consumer_wait_prior<1>(pipe);
    __syncthreads();
    out[t] = a[63 - t] + b[63 - t];
}

__global__ void unmodelled_wait(const float *in, float *out)
{
    __shared__ float s[64];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    int t = threadIdx.x;
    pipe.producer_acquire();
    cuda::memcpy_async(&s[t], &in[t], sizeof(float), pipe);
    pipe.producer_commit();
    pipe.consumer_wait_for(cuda::std::chrono::milliseconds(10));
    __syncthreads();
    out[t] = s[63 - t];
}

void launch(const float *in, float *out)
{
    wait_prior0<<<1, 64>>>(in, out);
    wait_prior1<<<1, 64>>>(in, out);
    unmodelled_wait<<<1, 64>>>(in, out);
}

/*
 * check-output-start
 * tests/rules/missing-barrier/libcu_pipeline.cu:34:26: error: missing barrier: read-after-write race on 'b': thread 0 reads b[63], which thread 63 wrote at line 30, while that asynchronous copy may still be in flight: no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, arrive_and_wait, an mbarrier's try_wait) completes it before the __syncthreads() between (different warps) in kernel 'wait_prior1' with blockDim (64,1,1) from the launch on line 53 [missing-barrier]
 *       out[t] = a[63 - t] + b[63 - t];
 *                            ^~~~~~~~~
 * tests/rules/missing-barrier/libcu_pipeline.cu:30:24: note: the racing write of 'b' by thread 63
 * tests/rules/missing-barrier/libcu_pipeline.cu:23:29: note: 'b' declared here
 * tests/rules/missing-barrier/libcu_pipeline.cu:34:26: note: wait for the copy (__pipeline_wait_prior(0), cp.async.wait_group 0, pipe.consumer_wait() or bar.arrive_and_wait()) before the __syncthreads() that publishes it
 * check-output-end
 */
