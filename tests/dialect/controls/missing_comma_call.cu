// control of asm_operand_comma.cu: "expected ')'" outside an asm
// statement (two call arguments with no comma) is an error for nvcc as
// well, and stays a parse error.
// expect: parse-error
__device__ int add(int a, int b) { return a + b; }

__global__ void k(int *out)
{
    __shared__ int s[32];
    s[threadIdx.x] = add(out[0] out[1]);
    out[threadIdx.x] = s[31 - threadIdx.x];
}
