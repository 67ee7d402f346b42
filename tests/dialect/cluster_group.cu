// dialect: the thread-block cluster API of cooperative groups (sm_90):
// cooperative_groups declares cluster_group and this_cluster() only under
// nvcc (or with _CG_CLUSTER_INTRINSICS_AVAILABLE), though clang has the
// cluster intrinsics they call. Closed by defining it in the parse.
// expect: clean
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) pair(float *out)
{
    __shared__ float s[128];
    cg::cluster_group cluster = cg::this_cluster();
    s[threadIdx.x] = threadIdx.x + cluster.block_rank();
    cluster.sync();
    float *peer = cluster.map_shared_rank(s, cluster.block_rank() ^ 1);
    out[threadIdx.x] = peer[threadIdx.x];
    cluster.sync();
}

void run(float *o) { pair<<<2, 128>>>(o); }
