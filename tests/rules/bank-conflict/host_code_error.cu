// issue 15: clang parses the bodies of host-only functions in the device
// pass, nvcc's device pass does not. An error there (here: a host API
// declared only for the host pass) is a host-code-error warning: the
// kernel is analyzed and the exit status is that of the findings. Errors
// in device, host-device, constexpr functions and device lambdas stay
// errors that fail the run (host_code_device_errors.cu).
#ifndef __CUDA_ARCH__
int host_only_api(int n);
#endif

__global__ void transpose(float *out)
{
    __shared__ float t[32][32];
    t[threadIdx.x][0] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = t[0][threadIdx.x];
}

struct Runner {
    int go() { return host_only_api(32); }
};

template <typename T> T blocks(T n) { return host_only_api(n) + 1; }

int launch(float *o)
{
    transpose<<<1, 32>>>(o);
    auto host_lambda = [](int n) { return n; };
    return host_lambda(host_only_api(1));
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/bank-conflict/host_code_error.cu:20:23: warning: use of undeclared identifier 'host_only_api' (in host function 'go', which nvcc's device pass does not compile; the device code is analyzed)
 * tests/rules/bank-conflict/host_code_error.cu:29:24: warning: use of undeclared identifier 'host_only_api' (in host function 'launch', which nvcc's device pass does not compile; the device code is analyzed)
 * tests/rules/bank-conflict/host_code_error.cu:14:5: warning: 32-way bank conflict on store of 't' (float[32][32]) in kernel 'transpose' with blockDim (32,1,1) from the launch on line 27; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       t[threadIdx.x][0] = out[threadIdx.x];
 *       ^~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/host_code_error.cu:13:5: note: 't' declared here
 * tests/rules/bank-conflict/host_code_error.cu:14:5: note: declare 't' as `float t[32][33]`: +128 bytes per block (4096 -> 4224 bytes of static shared memory); 1 of 1 conflicting accesses become conflict-free
 * fix-it:"tests/rules/bank-conflict/host_code_error.cu":{13:23-13:31}:"[32][33]"
 * check-output-end
 */
