// Harness reduced from a selective-scan benchmark kernel (HeCBench
// ssm-cuda, labelled false): thread 0 stores which thread owns the last
// valid element, every thread reads it after a barrier, and only the
// owner writes the carry. smemlint had reported threads 0 and 32 writing
// the carry at once; one_owner_twin reads a per-thread owner instead, so
// several threads do write it (a real race).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void one_owner(const int *len, const float *x, float *o)
{
	__shared__ int last;
	__shared__ float carry[16];
	if (threadIdx.x == 0)
		last = min(len[blockIdx.x], 128) - 1;
	__syncthreads();
	const int owner = last;
	if (threadIdx.x == owner)
		carry[0] = x[threadIdx.x];
	__syncthreads();
	o[blockIdx.x * blockDim.x + threadIdx.x] = carry[0];
}

__global__ void one_owner_twin(const int *len, const float *x, float *o)
{
	__shared__ int last[128];
	__shared__ float carry[16];
	last[threadIdx.x] = len[threadIdx.x] - 1;
	__syncthreads();
	if (threadIdx.x % 32 == last[threadIdx.x] % 32)
		carry[0] = x[threadIdx.x];
	__syncthreads();
	o[blockIdx.x * blockDim.x + threadIdx.x] = carry[0];
}

int main()
{
	int h[128];
	float hx[128]; /* distinct values: racecheck passes writes of equal ones */
	for (int i = 0; i < 128; i++) {
		h[i] = 100;
		hx[i] = (float)i;
	}
	int *len;
	float *x, *o;
	cudaMalloc(&len, sizeof h);
	cudaMalloc(&x, 128 * sizeof(float));
	cudaMalloc(&o, 4 * 128 * sizeof(float));
	cudaMemcpy(len, h, sizeof h, cudaMemcpyHostToDevice);
	cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
	one_owner<<<4, 128>>>(len, x, o);
	one_owner_twin<<<4, 128>>>(len, x, o);
	cudaError_t e = cudaDeviceSynchronize();
	printf("%s\n", cudaGetErrorString(e));
	return e != cudaSuccess;
}
