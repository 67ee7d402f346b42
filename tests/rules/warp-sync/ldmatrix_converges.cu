// ldmatrix and stmatrix are .sync.aligned: the PTX ISA makes each lane
// wait until every lane of the warp executes the instruction, so the
// warp is ordered on both sides of it. Lanes that store rows and then
// load them with ldmatrix (or overwrite what it read) need no
// __syncwarp(); the twin reads the rows with plain loads and races.

__global__ void stores_then_ldmatrix(const unsigned short *in, unsigned *out)
{
    __shared__ __align__(16) unsigned short tile[16][72];
    int t = threadIdx.x;
    for (int r = 0; r < 16; r++)
        tile[r][t] = in[r * 32 + t];
    unsigned a = (unsigned)__cvta_generic_to_shared(&tile[t % 16][(t / 16) * 8]);
    unsigned r0, r1, r2, r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
    for (int r = 0; r < 16; r++)
        tile[r][t] = (unsigned short)(r0 + r);
    out[t] = r0 ^ r1 ^ r2 ^ r3;
}

/* the twin: plain loads of the other lanes' rows */
__global__ void stores_then_loads(const unsigned short *in, unsigned *out)
{
    __shared__ unsigned short tile[16][72];
    int t = threadIdx.x;
    for (int r = 0; r < 16; r++)
        tile[r][t] = in[r * 32 + t];
    out[t] = tile[t % 16][(t + 1) % 32];
}

void go(const unsigned short *in, unsigned *out)
{
    stores_then_ldmatrix<<<1, 32>>>(in, out);
    stores_then_loads<<<1, 32>>>(in, out);
}

/*
 * check-output-start
 * tests/rules/warp-sync/ldmatrix_converges.cu:29:14: warning: 2-way bank conflict on load of 'tile' (unsigned short[16][72]) in kernel 'stores_then_loads' with blockDim (32,1,1) from the launch on line 35; lanes 0 and 7 of warp 0 hit bank 0 (byte offsets 2 and 1024) [bank-conflict]
 *       out[t] = tile[t % 16][(t + 1) % 32];
 *                ^~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/warp-sync/ldmatrix_converges.cu:25:5: note: 'tile' declared here
 * tests/rules/warp-sync/ldmatrix_converges.cu:29:14: note: declare 'tile' as `unsigned short tile[16][96]`: +768 bytes per block (2304 -> 3072 bytes of static shared memory); 1 of 1 conflicting accesses become conflict-free
 * fix-it:"tests/rules/warp-sync/ldmatrix_converges.cu":{25:35-25:43}:"[16][96]"
 * tests/rules/warp-sync/ldmatrix_converges.cu:29:14: warning: unsynchronized warp exchange on 'tile': lane 0 of warp 0 reads tile[0][1], which lane 1 wrote at line 28, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'stores_then_loads' with blockDim (32,1,1) from the launch on line 35 [warp-sync]
 *       out[t] = tile[t % 16][(t + 1) % 32];
 *                ^~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/warp-sync/ldmatrix_converges.cu:28:9: note: the other lane's write of 'tile'
 * tests/rules/warp-sync/ldmatrix_converges.cu:25:5: note: 'tile' declared here
 * tests/rules/warp-sync/ldmatrix_converges.cu:29:14: note: add __syncwarp() between the write and the access that depends on it
 * check-output-end
 */
