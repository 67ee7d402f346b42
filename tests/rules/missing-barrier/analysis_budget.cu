// The per-file analysis budget (--analysis-budget, SM_ANALYSIS_BUDGET): a
// count of evaluation steps, so the cut falls at the same place on every
// machine. The file needs about 19,500 steps; with 10,000 the race of
// `first` is found, the race search of `second` stops before its first
// race, and the file gets the analysis-budget-exceeded warning naming
// `second`, where it ran out: partial results, never a stall. With the default budget every race of `second`
// (lines 24 to 30) is reported; the corpus (tests/rules corpus run) shows
// that the default never triggers there.
#define N 128

__global__ void first(float *out)
{
    __shared__ float s[N];
    int t = threadIdx.x;
    s[t] = out[t];
    out[t] = s[(t + 1) % N];
}

__global__ void second(float *out)
{
    __shared__ float s[N];
    int t = threadIdx.x;
    s[t] = 1.0f;
    out[t] = s[(t + 1) % N];
    s[t] = 2.0f;
    out[t] += s[(t + 2) % N];
    s[t] = 3.0f;
    out[t] += s[(t + 3) % N];
    s[t] = 4.0f;
    out[t] += s[(t + 4) % N];
}

void launch(float *out)
{
    first<<<1, N>>>(out);
    second<<<1, N>>>(out);
}

/*
 * check-args: --no-cuda --analysis-budget 10000
 * check-output-start
 * smemlint: warning: analysis budget exceeded: 'tests/rules/missing-barrier/analysis_budget.cu' needed more than 10000 evaluation steps (--analysis-budget), reached in kernel 'second' (stopped after 10031 steps); results are partial
 * tests/rules/missing-barrier/analysis_budget.cu:16:14: error: missing barrier: read-after-write race on 's': thread 31 reads s[32], which thread 32 wrote at line 15, with no __syncthreads() in between (different warps) in kernel 'first' with blockDim (128,1,1) from the launch on line 35 [missing-barrier]
 *       out[t] = s[(t + 1) % N];
 *                ^~~~~~~~~~~~~~
 * tests/rules/missing-barrier/analysis_budget.cu:15:5: note: the racing write of 's' by thread 32
 * tests/rules/missing-barrier/analysis_budget.cu:13:5: note: 's' declared here
 * tests/rules/missing-barrier/analysis_budget.cu:16:14: note: add __syncthreads() between the two accesses
 * check-output-end
 */
