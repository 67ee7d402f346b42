// control of host_vla_init.cu: a variable-length array in device code is
// an error for nvcc as well, and stays a parse error.
// expect: parse-error
__global__ void k(int *out, int n)
{
    int a[n] = {0};
    out[threadIdx.x] = a[0];
}
