#include <cstdio>
#include "probe_hdr.cuh"

__global__ void conflict32(float *out) {
  __shared__ float s[32 * 33];
  int t = threadIdx.x;
  s[t * 32] = t;
  __syncthreads();
  float acc = 0;
#pragma unroll
  for (int j = 0; j < 4; ++j) acc += s[t * 32 + j * 8];
  out[blockIdx.x * blockDim.x + t] = acc + s[t];
}

__global__ void vec4(float4 *out) {
  __shared__ float4 v[256];
  __shared__ double d[512];
  int t = threadIdx.x;
  v[t] = make_float4(t, t, t, t);
  d[2 * t] = t;
  __syncthreads();
  float4 a = v[(t * 2) % 256];
  out[t] = make_float4(a.x, a.y, a.z, a.w + (float)d[2 * t]);
}

namespace ns {
template <int S>
__global__ void strided(int *out) {
  __shared__ int s[32 * S + 1];
  int t = threadIdx.x;
  s[t * S] = t;
  __syncthreads();
  out[t] = s[(t * S + 1) % (32 * S)];
}
}

__global__ void hdr(float *out) {
  __shared__ float s[1024];
  int t = threadIdx.x;
  hstore(s, t * 2, t);
  __syncthreads();
  out[t] = s[t];
}

__global__ void race(int *out) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = t;
  out[t] = s[(t + 1) % 256];
  __syncthreads();
  if (t < 32) {
    volatile int *v = s;
    v[t] += v[t + 16];
  }
  __syncthreads();
  out[t] += s[t];
}

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
int main() {
  void *buf;
  CK(cudaMalloc(&buf, 1 << 20));
  conflict32<<<2, 32>>>((float *)buf);
  CK(cudaGetLastError());
  conflict32<<<4, 32>>>((float *)buf);
  vec4<<<1, 256>>>((float4 *)buf);
  ns::strided<2><<<1, 32>>>((int *)buf);
  ns::strided<32><<<1, 32>>>((int *)buf);
  hdr<<<1, 256>>>((float *)buf);
  race<<<1, 256>>>((int *)buf);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  printf("ok\n");
  return 0;
}
