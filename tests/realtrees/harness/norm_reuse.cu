// Harness reduced from a head-norm kernel of a quantized-inference
// extension (exllamav2 head_norm.cu, labelled real): two block reductions
// share one buffer of per-warp sums; a warp's second store can land before
// another warp has read the first sum, as no barrier separates the reads
// of the first from the stores of the second. Launched as the extension
// launches it for head_dim 128: 64 threads, two warps.
// norm_reuse_fixed is the same with the barrier the race needs.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void norm_reuse(const float *x, float *y, int nwarps)
{
	__shared__ float sums[32];
	int t = threadIdx.x, warp = t / 32, lane = t % 32;
	float v = x[blockIdx.x * blockDim.x + t], sum = v;
	for (int o = 16; o > 0; o /= 2)
		sum += __shfl_xor_sync(0xffffffff, sum, o);
	if (lane == 0)
		sums[warp] = sum;
	__syncthreads();
	sum = 0.0f;
	for (int i = 0; i < nwarps; ++i)
		sum += sums[i];
	float d = v - sum / (32 * nwarps);
	sum = d * d;
	for (int o = 16; o > 0; o /= 2)
		sum += __shfl_xor_sync(0xffffffff, sum, o);
	if (lane == 0)
		sums[warp] = sum;
	__syncthreads();
	sum = 0.0f;
	for (int i = 0; i < nwarps; ++i)
		sum += sums[i];
	y[blockIdx.x * blockDim.x + t] = d * rsqrtf(sum / (32 * nwarps) + 1e-5f);
}

__global__ void norm_reuse_fixed(const float *x, float *y, int nwarps)
{
	__shared__ float sums[32];
	int t = threadIdx.x, warp = t / 32, lane = t % 32;
	float v = x[blockIdx.x * blockDim.x + t], sum = v;
	for (int o = 16; o > 0; o /= 2)
		sum += __shfl_xor_sync(0xffffffff, sum, o);
	if (lane == 0)
		sums[warp] = sum;
	__syncthreads();
	sum = 0.0f;
	for (int i = 0; i < nwarps; ++i)
		sum += sums[i];
	__syncthreads();
	float d = v - sum / (32 * nwarps);
	sum = d * d;
	for (int o = 16; o > 0; o /= 2)
		sum += __shfl_xor_sync(0xffffffff, sum, o);
	if (lane == 0)
		sums[warp] = sum;
	__syncthreads();
	sum = 0.0f;
	for (int i = 0; i < nwarps; ++i)
		sum += sums[i];
	y[blockIdx.x * blockDim.x + t] = d * rsqrtf(sum / (32 * nwarps) + 1e-5f);
}

int main()
{
	const int heads = 32, threads = 64;
	float *x, *y;
	cudaMalloc(&x, heads * threads * sizeof(float));
	cudaMalloc(&y, heads * threads * sizeof(float));
	cudaMemset(x, 0, heads * threads * sizeof(float));
	norm_reuse<<<heads, threads>>>(x, y, threads / 32);
	norm_reuse_fixed<<<heads, threads>>>(x, y, threads / 32);
	cudaError_t e = cudaDeviceSynchronize();
	printf("%s\n", cudaGetErrorString(e));
	return e != cudaSuccess;
}
