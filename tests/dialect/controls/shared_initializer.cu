// control of shared_constructor.cu: a __shared__ variable with an explicit
// initializer is an error for nvcc as well, and stays a parse error.
// expect: parse-error
__global__ void k(float *out)
{
    __shared__ float s = 1.0f;
    out[threadIdx.x] = s;
}
