// All-pairs n-body acceleration with body positions staged tile by tile
// in shared memory (after GPU Gems 3, chapter 31).
#include "common.cuh"

#define NBODIES 512
#define NB_BLOCK 128
#define SOFTENING 0.01f

// float4 (x, y, z, mass) tiles: 16-byte shared accesses.
__global__ void nbody_float4(const float4 *pos, float4 *acc_out)
{
    __shared__ float4 shPos[NB_BLOCK];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 my = pos[i];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;

    for (int tile = 0; tile < NBODIES / NB_BLOCK; ++tile) {
        shPos[threadIdx.x] = pos[tile * NB_BLOCK + threadIdx.x];
        __syncthreads();
#pragma unroll 4
        for (int j = 0; j < NB_BLOCK; ++j) {
            float4 p = shPos[j];
            float dx = p.x - my.x, dy = p.y - my.y, dz = p.z - my.z;
            float inv = rsqrtf(dx * dx + dy * dy + dz * dz + SOFTENING);
            float s = p.w * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        __syncthreads();
    }
    acc_out[i] = make_float4(ax, ay, az, 0.0f);
}

// Structure-of-arrays tiles: four separate float arrays.
__global__ void nbody_soa(const float *px, const float *py, const float *pz, const float *pm, float *out)
{
    __shared__ float sx[NB_BLOCK];
    __shared__ float sy[NB_BLOCK];
    __shared__ float sz[NB_BLOCK];
    __shared__ float sm[NB_BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    float mx = px[i], my = py[i], mz = pz[i];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;

    for (int tile = 0; tile < NBODIES / NB_BLOCK; ++tile) {
        int src = tile * NB_BLOCK + tid;
        sx[tid] = px[src];
        sy[tid] = py[src];
        sz[tid] = pz[src];
        sm[tid] = pm[src];
        __syncthreads();
        for (int j = 0; j < NB_BLOCK; ++j) {
            float dx = sx[j] - mx;
            float dy = sy[j] - my;
            float dz = sz[j] - mz;
            float inv = rsqrtf(dx * dx + dy * dy + dz * dz + SOFTENING);
            float s = sm[j] * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        __syncthreads();
    }
    out[3 * i + 0] = ax;
    out[3 * i + 1] = ay;
    out[3 * i + 2] = az;
}

// Array of 12-byte structs: a stride of 3 words hits every bank once.
struct Body {
    float x, y, z;
};
__global__ void nbody_aos3(const Body *bodies, float *out)
{
    __shared__ Body sh[NB_BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    Body me = bodies[i];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;

    for (int tile = 0; tile < NBODIES / NB_BLOCK; ++tile) {
        Body b = bodies[tile * NB_BLOCK + tid];
        sh[tid].x = b.x;
        sh[tid].y = b.y;
        sh[tid].z = b.z;
        __syncthreads();
        for (int j = 0; j < NB_BLOCK; ++j) {
            float dx = sh[j].x - me.x;
            float dy = sh[j].y - me.y;
            float dz = sh[j].z - me.z;
            float inv = rsqrtf(dx * dx + dy * dy + dz * dz + SOFTENING);
            float s = inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        __syncthreads();
    }
    out[3 * i + 0] = ax;
    out[3 * i + 1] = ay;
    out[3 * i + 2] = az;
}

int main()
{
    float4 *d_pos, *d_acc;
    float *d_x, *d_y, *d_z, *d_m, *d_out;
    Body *d_bodies;
    CUDA_CHECK(cudaMalloc(&d_pos, NBODIES * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&d_acc, NBODIES * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&d_x, NBODIES * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_y, NBODIES * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_z, NBODIES * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_m, NBODIES * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, 3 * NBODIES * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_bodies, NBODIES * sizeof(Body)));
    CUDA_CHECK(cudaMemset(d_pos, 0, NBODIES * sizeof(float4)));
    CUDA_CHECK(cudaMemset(d_x, 0, NBODIES * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_y, 0, NBODIES * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_z, 0, NBODIES * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_m, 0, NBODIES * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_bodies, 0, NBODIES * sizeof(Body)));

    nbody_float4<<<NBODIES / NB_BLOCK, NB_BLOCK>>>(d_pos, d_acc);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    nbody_soa<<<NBODIES / NB_BLOCK, NB_BLOCK>>>(d_x, d_y, d_z, d_m, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    nbody_aos3<<<NBODIES / NB_BLOCK, NB_BLOCK>>>(d_bodies, d_out);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_pos));
    CUDA_CHECK(cudaFree(d_acc));
    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_y));
    CUDA_CHECK(cudaFree(d_z));
    CUDA_CHECK(cudaFree(d_m));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_bodies));
    return 0;
}

/*
 * check-output-start
 * check-output-end
 */
