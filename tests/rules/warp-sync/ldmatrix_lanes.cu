// ldmatrix and stmatrix are .sync.aligned: the lanes of a warp execute
// them together, but that orders no memory. Lanes that store rows and
// then load each other's rows with ldmatrix, or overwrite what it read,
// race under independent thread scheduling as with plain loads (racecheck
// on the H100 reports both: corpus/async_ldmatrix.cu). The twin orders
// them with __syncwarp().

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
    out[t] = r0 ^ r1 ^ r2 ^ r3;
}

/* the twin: __syncwarp() on both sides */
__global__ void synced(const unsigned short *in, unsigned *out)
{
    __shared__ __align__(16) unsigned short tile[16][72];
    int t = threadIdx.x;
    for (int r = 0; r < 16; r++)
        tile[r][t] = in[r * 32 + t];
    __syncwarp();
    unsigned a = (unsigned)__cvta_generic_to_shared(&tile[t % 16][(t / 16) * 8]);
    unsigned r0, r1, r2, r3;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
    __syncwarp();
    for (int r = 0; r < 16; r++)
        tile[r][t] = (unsigned short)(r0 + r);
    out[t] = r0 ^ r1 ^ r2 ^ r3;
}

void go(const unsigned short *in, unsigned *out)
{
    stores_then_ldmatrix<<<1, 32>>>(in, out);
    synced<<<1, 32>>>(in, out);
}

/*
 * check-output-start
 * tests/rules/warp-sync/ldmatrix_lanes.cu:17:1: warning: unsynchronized warp exchange on 'tile': lane 0 of warp 0 reads tile[0][1], which lane 1 wrote at line 13, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'stores_then_ldmatrix' with blockDim (32,1,1) from the launch on line 41 [warp-sync]
 *                    : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a));
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/warp-sync/ldmatrix_lanes.cu:13:9: note: the other lane's write of 'tile'
 * tests/rules/warp-sync/ldmatrix_lanes.cu:10:5: note: 'tile' declared here
 * tests/rules/warp-sync/ldmatrix_lanes.cu:17:1: note: add __syncwarp() between the write and the access that depends on it
 * check-output-end
 */
