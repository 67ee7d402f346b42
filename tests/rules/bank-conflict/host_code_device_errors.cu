// issue 15: errors outside host-only function bodies stay parse errors
// that fail the run (host_code_error.cu has those inside them): device,
// host-device and constexpr (host-device in clang) functions, a device
// lambda inside a host function, and host declarations at namespace
// scope, which device code may use.
__global__ void fine(float *o)
{
    __shared__ float s[32 * 32];
    s[threadIdx.x * 32] = 1.0f;
    o[threadIdx.x] = s[threadIdx.x];
}

__device__ float dev_bad() { return device_missing; }
__host__ __device__ float hd_bad() { return hd_missing; }
constexpr int cx_bad(int n) { return n + cx_missing; }
host_only_type declared_on_the_host;

void with_device_lambda(float *o)
{
    fine<<<1, 32>>>(o);
    auto f = [=] __device__ (int i) { return lambda_missing + i; };
    (void)f;
}

/*
 * check-args: --no-cuda
 * check-exit: 2
 * check-output-start
 * tests/rules/bank-conflict/host_code_device_errors.cu:13:37: error: use of undeclared identifier 'device_missing'
 * tests/rules/bank-conflict/host_code_device_errors.cu:14:45: error: use of undeclared identifier 'hd_missing'
 * tests/rules/bank-conflict/host_code_device_errors.cu:15:42: error: use of undeclared identifier 'cx_missing'
 * tests/rules/bank-conflict/host_code_device_errors.cu:15:15: error: no return statement in constexpr function
 * tests/rules/bank-conflict/host_code_device_errors.cu:16:1: error: unknown type name 'host_only_type'
 * tests/rules/bank-conflict/host_code_device_errors.cu:21:46: error: use of undeclared identifier 'lambda_missing'
 * tests/rules/bank-conflict/host_code_device_errors.cu:9:5: warning: 32-way bank conflict on store of 's' (float[1024]) in kernel 'fine' with blockDim (32,1,1) from the launch on line 20; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       s[threadIdx.x * 32] = 1.0f;
 *       ^~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/host_code_device_errors.cu:8:5: note: 's' declared here
 * tests/rules/bank-conflict/host_code_device_errors.cu:9:5: note: index 's' with the conflict-free offset form `i + (i >> 5)` in every access (and enlarge it by 1/32): 1 of 1 conflicting accesses become conflict-free
 * check-output-end
 */
