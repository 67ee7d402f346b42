// Fix suggestions: each kernel's expected suggestion is checked by
// tests/test_fix.py (the expectations are in that script).
#define TILE 32
#define N 256

// classic transpose tile: pad by one column
__global__ void k_pad1(float *out)
{
    __shared__ float tile[TILE][TILE];
    tile[threadIdx.y][threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

// 16x16 block writing and reading a [16][16] tile column-wise: one extra
// column is not enough ([16][17] is still 2-way), the minimal pad is two
__global__ void k_pad2(float *out)
{
    __shared__ float t16[16][16];
    t16[threadIdx.x][threadIdx.y] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = t16[threadIdx.x][threadIdx.y] + 1.0f;
}

// the same tile written by rows and read by columns: every pad makes the
// row-wise store conflict (a warp spans two 16-float rows), so the verified
// XOR swizzle is suggested instead
__global__ void k_swz(float *out)
{
    __shared__ float tz[16][16];
    tz[threadIdx.y][threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tz[threadIdx.x][threadIdx.y];
}

// sizeof depends on the row size: padding is suggested but not applied
__global__ void k_sizeof(float *out)
{
    __shared__ float ts[TILE][TILE];
    ts[threadIdx.y][threadIdx.x] = sizeof(ts);
    __syncthreads();
    out[threadIdx.x] = ts[threadIdx.x][threadIdx.y];
}

// a flat pointer walks the rows: padding would change what it reads
__global__ void k_flat(float *out)
{
    __shared__ float tf[TILE][TILE];
    float *flat = &tf[0][0];
    flat[threadIdx.y * TILE + threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = tf[threadIdx.x][threadIdx.y];
}

// float4 rows read column-wise: any pad keeps 16-byte alignment only in
// whole float4s, the search verifies it
__global__ void k_vec(float4 *out)
{
    __shared__ float4 v4[32][8];
    v4[threadIdx.x][threadIdx.y] = make_float4(1, 2, 3, 4);
    __syncthreads();
    out[threadIdx.x] = v4[threadIdx.x][threadIdx.y];
}

// 1-D array indexed with a stride: the conflict-free offset form
__global__ void k_offset(float *out)
{
    __shared__ float s1[N * 2];
    s1[threadIdx.x * 2] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s1[threadIdx.x * 2];
}

// a conflict-free array gets no suggestion
__global__ void k_clean(float *out)
{
    __shared__ float tc[TILE][TILE + 1];
    tc[threadIdx.y][threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tc[threadIdx.x][threadIdx.y];
}

int main()
{
    k_pad1<<<1, dim3(32, 8)>>>(0);
    k_pad2<<<1, dim3(16, 16)>>>(0);
    k_swz<<<1, dim3(16, 16)>>>(0);
    k_sizeof<<<1, dim3(32, 8)>>>(0);
    k_flat<<<1, dim3(32, 8)>>>(0);
    k_vec<<<1, dim3(32, 8)>>>(0);
    k_offset<<<1, 128>>>(0);
    k_clean<<<1, dim3(32, 8)>>>(0);
    return 0;
}
