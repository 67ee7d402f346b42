// ldmatrix, stmatrix and cp.async written in inline PTX, with their
// addresses made the ways real code makes them: through a helper that
// returns __cvta_generic_to_shared of a pointer, and by adding byte offsets
// to a tile's base address. Each conflicting access has a conflict-free
// twin (a padded row, or consecutive chunks).

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__global__ void through_helper(unsigned *out)
{
    __shared__ __align__(16) unsigned short rows128[16][64];
    __shared__ __align__(16) unsigned short rows144[16][72];
    int t = threadIdx.x;
    unsigned r0, r1, r2, r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(smem_addr(&rows128[t % 16][(t / 16) * 8])));
    out[t] = r0 + r1 + r2 + r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(smem_addr(&rows144[t % 16][(t / 16) * 8])));
    out[t + 32] = r0 + r1 + r2 + r3;
}

__global__ void byte_offsets(unsigned *out)
{
    __shared__ __align__(16) unsigned short rows128[16][64];
    __shared__ __align__(16) unsigned short rows144[16][72];
    int t = threadIdx.x;
    unsigned base = smem_addr(&rows128[0][0]);
    unsigned pbase = smem_addr(&rows144[0][0]);
    unsigned a = base + (t % 16) * 128 + (t / 16) * 16;
    unsigned b = pbase + (t % 16) * 144 + (t / 16) * 16;
    unsigned r0, r1;
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" :: "r"(a), "r"(t), "r"(t + 1));
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" :: "r"(b), "r"(t), "r"(t + 1));
    __syncthreads();
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(b));
    out[t] = r0 + r1;
}

__global__ void copies(const float *in, float *out)
{
    __shared__ __align__(16) float a[32 * 32], b[64], c[32 * 32];
    int t = threadIdx.x;
    /* 4 bytes a lane, 128 bytes apart: one bank, 32-way */
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(smem_addr(&a[t * 32])), "l"(&in[t]));
    /* 8 bytes a lane, consecutive: conflict-free */
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(smem_addr(&b[t * 2])), "l"(&in[t * 2]));
    /* the size as an operand: 16 bytes a lane, 128 bytes apart: 8-way */
    asm volatile("cp.async.cg.shared.global [%0], [%1], %2;" :: "r"(smem_addr(&c[t * 32 + 4])), "l"(&in[t * 4]), "n"(16));
    asm volatile("cp.async.wait_all;" ::: "memory");
    __syncthreads();
    out[t] = a[t] + b[t] + c[t];
}

void launch(unsigned *u, const float *f, float *o)
{
    through_helper<<<1, 32>>>(u);
    byte_offsets<<<1, 32>>>(u);
    copies<<<1, 32>>>(f, o);
}

/*
 * check-output-start
 * tests/rules/bank-conflict/tensor_tiles.cu:19:1: warning: 8-way bank conflict on ldmatrix.x4 load of 'rows128' (unsigned short[16][64]) in kernel 'through_helper' with blockDim (32,1,1) from the launch on line 60; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *                    : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(smem_addr(&rows128[t % 16][(t / 16) * 8])));
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/tensor_tiles.cu:14:5: note: 'rows128' declared here
 * tests/rules/bank-conflict/tensor_tiles.cu:19:1: note: declare 'rows128' as `unsigned short rows128[16][72]`: +256 bytes per block (4352 -> 4608 bytes of static shared memory); 1 of 1 conflicting accesses become conflict-free; --fix will not apply it: a pointer into 'rows128' is formed, so the code may depend on its row size; or, with no extra memory, swizzle 'rows128' by 16-byte chunks: write every access `rows128[r][c]` as `rows128[r][c ^ ((r & 7) << 3)]` (CuTe Swizzle<3,3,3> of its element offset) (verified)
 * tests/rules/bank-conflict/tensor_tiles.cu:36:1: warning: 8-way bank conflict on stmatrix.x2 store of 'rows128' (unsigned short[16][64]) in kernel 'byte_offsets' with blockDim (32,1,1) from the launch on line 61; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" :: "r"(a), "r"(t), "r"(t + 1));
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/tensor_tiles.cu:28:5: note: 'rows128' declared here
 * tests/rules/bank-conflict/tensor_tiles.cu:48:1: warning: 32-way bank conflict on cp.async store of 'a' (float[1024]) in kernel 'copies' with blockDim (32,1,1) from the launch on line 62; a warp's cp.async moves 32 pieces, a wavefront each, where one a global 128-byte line it reads would be 1 (a piece: one line at one shift into one shared 128-byte row; a shift splitting 32-byte sectors moves their 16-byte halves apart) [bank-conflict]
 *       asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(smem_addr(&a[t * 32])), "l"(&in[t]));
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/tensor_tiles.cu:45:5: note: 'a' declared here
 * tests/rules/bank-conflict/tensor_tiles.cu:52:1: warning: 8-way bank conflict on cp.async store of 'c' (float[1024]) in kernel 'copies' with blockDim (32,1,1) from the launch on line 62; a warp's cp.async moves 32 pieces, a wavefront each, where one a global 128-byte line it reads would be 4 (a piece: one line at one shift into one shared 128-byte row; a shift splitting 32-byte sectors moves their 16-byte halves apart) [bank-conflict]
 *       asm volatile("cp.async.cg.shared.global [%0], [%1], %2;" :: "r"(smem_addr(&c[t * 32 + 4])), "l"(&in[t * 4]), "n"(16));
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/tensor_tiles.cu:45:55: note: 'c' declared here
 * check-output-end
 */
