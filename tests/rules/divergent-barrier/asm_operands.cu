// Inline asm with a long operand list inside a template (ggml's mma.cuh,
// ten operands): every operand is read, past the eight children the front
// end's small child list keeps (reading past it crashed the analysis of
// a whole file, and AddressSanitizer reports it). The outputs of an asm
// that multiplies registers are alike where its inputs are; here they
// feed no barrier's condition. No finding.
template <typename T>
struct frag {
    int x[4];
};

template <typename T>
static __device__ void mma_step(frag<T> &d, const frag<T> &a, const frag<T> &b)
{
    asm("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
        : "+r"(d.x[0]), "+r"(d.x[1]), "+r"(d.x[2]), "+r"(d.x[3])
        : "r"(a.x[0]), "r"(a.x[1]), "r"(a.x[2]), "r"(a.x[3]), "r"(b.x[0]), "r"(b.x[1]));
}

template <typename T>
__global__ void tiles(int *o, int n)
{
    __shared__ int s[256];
    frag<T> a = {}, b = {}, d = {};
    for (int k = 0; k < n; ++k) {
        mma_step(d, a, b);
        s[threadIdx.x] = d.x[0];
        __syncthreads();
        o[threadIdx.x] += s[255 - threadIdx.x];
        __syncthreads();
    }
}
template __global__ void tiles<int>(int *, int);

/*
 * check-args: --block-dim 256
 * check-output-start
 * check-output-end
 */
