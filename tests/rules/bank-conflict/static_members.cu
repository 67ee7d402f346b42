// A static constexpr member read through an object (`t.I`, `p->J`), as
// tile templates of tensor-core code spell their shapes: the member's
// constant, not a value loaded from the object. Read as unknown, the row
// stride below would be tried with six values and the access left
// unanalyzed ("depends on a value known only at run time").

template <int I_, int J_>
struct tile {
    static constexpr int I = I_;
    static constexpr int J = J_;
    float x[2];
};

template <int I_, int J_>
__device__ __forceinline__ void load_rows(tile<I_, J_> &t, const float *s)
{
    /* lane l reads row l % I of a J-float row: J = 32 puts every row on
     * one bank */
    t.x[0] = s[(threadIdx.x % t.I) * t.J];
}

template <int I_, int J_>
__device__ __forceinline__ void load_rows_ptr(const tile<I_, J_> *p, float *o, const float *s)
{
    o[threadIdx.x] = s[(threadIdx.x % p->I) * p->J];
}

__global__ void members(float *o)
{
    __shared__ float rows32[32 * 32];
    __shared__ float rows33[32 * 33];
    rows32[threadIdx.x] = threadIdx.x;
    rows33[threadIdx.x] = threadIdx.x;
    __syncthreads();
    tile<32, 32> a;
    tile<32, 33> b;
    load_rows(a, rows32);   /* 32-way */
    load_rows(b, rows33);   /* conflict-free */
    load_rows_ptr(&a, o, rows32); /* 32-way */
    o[threadIdx.x + 32] = a.x[0] + b.x[0];
}

void launch(float *o)
{
    members<<<1, 32>>>(o);
}

/*
 * check-output-start
 * tests/rules/bank-conflict/static_members.cu:19:14: warning: 32-way bank conflict on load of 's' (float[1024]) in 'load_rows' called from kernel 'members' at line 37 with blockDim (32,1,1) from the launch on line 45; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       t.x[0] = s[(threadIdx.x % t.I) * t.J];
 *                ^~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/static_members.cu:30:5: note: 'rows32' declared here
 * tests/rules/bank-conflict/static_members.cu:25:22: warning: 32-way bank conflict on load of 's' (float[1024]) in 'load_rows_ptr' called from kernel 'members' at line 39 with blockDim (32,1,1) from the launch on line 45; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       o[threadIdx.x] = s[(threadIdx.x % p->I) * p->J];
 *                        ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/static_members.cu:30:5: note: 'rows32' declared here
 * check-output-end
 */
