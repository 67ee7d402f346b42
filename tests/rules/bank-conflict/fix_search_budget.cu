// The padding search counts its steps in the file's analysis budget
// (--analysis-budget): every layout it tries evaluates each access of the
// array again. The file needs about 45,000 steps. With 20,000 the degrees
// of the two accesses fit, the search does not: the conflict is reported,
// the warning names the kernel where the budget ran out, and no padding is
// suggested (the search stopped before any layout won). Before the search
// counted, it ran past any budget: here it suggested [N][N + 1] anyway,
// and a fuzzed input took 60 s under the sanitizers with a budget of 20
// million steps (2.8 s since).
#define N 32

__global__ void transpose(const float *in, float *out)
{
    __shared__ float tile[N][N];
    int x = threadIdx.x, y = threadIdx.y;
    tile[y][x] = in[y * N + x];
    __syncthreads();
    out[y * N + x] = tile[x][y];
}

void launch(const float *in, float *out)
{
    transpose<<<1, dim3(N, N)>>>(in, out);
}

/*
 * check-args: --no-cuda --analysis-budget 20000
 * check-output-start
 * smemlint: warning: analysis budget exceeded: 'tests/rules/bank-conflict/fix_search_budget.cu' needed more than 20000 evaluation steps (--analysis-budget), reached in kernel 'transpose' (stopped after 20097 steps); results are partial
 * tests/rules/bank-conflict/fix_search_budget.cu:18:22: warning: 32-way bank conflict on load of 'tile' (float[32][32]) in kernel 'transpose' with blockDim (32,32,1) from the launch on line 23; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[y * N + x] = tile[x][y];
 *                        ^~~~~~~~~~
 * tests/rules/bank-conflict/fix_search_budget.cu:14:5: note: 'tile' declared here
 * check-output-end
 */
