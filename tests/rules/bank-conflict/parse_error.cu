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

/*
 * check-exit: 2
 * check-output-start
 * tests/rules/bank-conflict/parse_error.cu:12:22: error: use of undeclared identifier 'undeclared_thing'
 * tests/rules/bank-conflict/parse_error.cu:12:41: error: expected expression
 * tests/rules/bank-conflict/parse_error.cu:5:5: warning: 32-way bank conflict on store of 's' (float[1024]) in kernel 'fine' with blockDim (32,1,1) from the launch on line 15; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s[threadIdx.x * 32] = 1.0f;
 *       ^~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/parse_error.cu:4:5: note: 's' declared here
 * tests/rules/bank-conflict/parse_error.cu:5:5: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * check-output-end
 */
