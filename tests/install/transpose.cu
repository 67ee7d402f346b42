// a transpose through shared memory without padding: the read of the
// column is a 32-way bank conflict (tests/test_install.py expects it)
__global__ void transpose(float *out)
{
    __shared__ float tile[32][32];
    tile[threadIdx.y][threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
void launch(float *o) { transpose<<<1, dim3(32, 32)>>>(o); }
