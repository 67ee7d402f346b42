// One kernel does not parse; the other is still analyzed.
__global__ void fine(float *o)
{
    __shared__ float s[32 * 32];
    s[threadIdx.x * 32] = 1.0f;
    o[threadIdx.x] = s[threadIdx.x];
}

__global__ void broken(float *o)
{
    __shared__ float t[64];
    t[threadIdx.x] = undeclared_thing + ;
}

int main() { fine<<<1, 32>>>(0); return 0; }
