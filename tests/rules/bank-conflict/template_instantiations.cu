// Two instantiations of one kernel template with the same conflict are one
// finding that says so (issue 15: one SARIF fingerprint, one code-scanning
// alert); instantiations whose findings differ (float and double elements)
// stay two findings.
template <int N>
__global__ void scale(float *o)
{
    __shared__ float s[32 * 32];
    s[threadIdx.x * 32] = N;
    __syncthreads();
    o[threadIdx.x] = s[threadIdx.x];
}
template <typename T>
__global__ void copy(T *o)
{
    __shared__ T s[256];
    s[threadIdx.x * 2] = o[0];
    __syncthreads();
    o[threadIdx.x] = s[threadIdx.x];
}
void launch(float *o, double *d)
{
    scale<1><<<1, 32>>>(o);
    scale<2><<<1, 32>>>(o);
    copy<float><<<1, 32>>>(o);
    copy<double><<<1, 32>>>(d);
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/bank-conflict/template_instantiations.cu:9:5: warning: 32-way bank conflict on store of 's' (float[1024]) in kernel 'scale' with blockDim (32,1,1) from the launch on line 23; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) (the same in 2 instantiations of 'scale') [bank-conflict]
 *       s[threadIdx.x * 32] = N;
 *       ^~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/template_instantiations.cu:8:5: note: 's' declared here
 * tests/rules/bank-conflict/template_instantiations.cu:9:5: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * tests/rules/bank-conflict/template_instantiations.cu:17:5: warning: 2-way bank conflict on store of 's' (double[256]) in kernel 'copy' with blockDim (32,1,1) from the launch on line 26; lanes 0 and 8 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s[threadIdx.x * 2] = o[0];
 *       ^~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/template_instantiations.cu:16:5: note: 's' declared here
 * tests/rules/bank-conflict/template_instantiations.cu:17:5: warning: 2-way bank conflict on store of 's' (float[256]) in kernel 'copy' with blockDim (32,1,1) from the launch on line 25; lanes 0 and 16 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s[threadIdx.x * 2] = o[0];
 *       ^~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/template_instantiations.cu:16:5: note: 's' declared here
 * tests/rules/bank-conflict/template_instantiations.cu:17:5: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * check-output-end
 */
