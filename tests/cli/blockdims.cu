// Block shapes from every source smemlint knows (tests/test_cli.py).
#define TB 128
constexpr int TX = 16;

__global__ void from_dim3(float *o)
{
    __shared__ float a[64][64];
    a[threadIdx.x][threadIdx.y] = 1.0f;  // 16 rows of a 16x16 block -> 16-way... per warp 2 cols
    o[threadIdx.x] = a[threadIdx.y][threadIdx.x];
}

__global__ void from_int(float *o)
{
    __shared__ float b[TB * 4];
    b[threadIdx.x * 4] = 1.0f;
    o[threadIdx.x] = b[threadIdx.x];
}

__global__ void __launch_bounds__(TB) from_bounds(float *o)
{
    __shared__ float c[TB * 8];
    c[threadIdx.x * 8] = 1.0f;
    o[threadIdx.x] = c[threadIdx.x];
}

__global__ void assumed(float *o)
{
    __shared__ float d[256 * 32];
    d[threadIdx.x * 32] = 1.0f;
    o[threadIdx.x] = d[threadIdx.x];
}

__global__ void uniform_loop(float *o)
{
    __shared__ float e[1024];
    for (int s = 1; s < 32; s *= 2)
        e[2 * s * threadIdx.x] = 1.0f;
    o[threadIdx.x] = e[threadIdx.x];
}

int main()
{
    dim3 block(TX, TX);
    from_dim3<<<1, block>>>(0);
    from_int<<<2, TB>>>(0);
    from_bounds<<<1, 64>>>(0);  // the launch wins over __launch_bounds__
    uniform_loop<<<1, 32>>>(0);
    return 0;
}
