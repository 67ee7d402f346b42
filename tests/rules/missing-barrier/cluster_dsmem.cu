// missing-barrier: distributed shared memory. An access through the pointer
// cluster.map_shared_rank returns touches another block of the cluster,
// which only a cluster barrier orders: __syncthreads() orders one block.
// Reported: the remote read behind __syncthreads() (remote_behind_block,
// and through a helper's pointer parameter: remote_in_helper), the remote
// write before the other block reads its own (remote_write), and the
// remote read the kernel ends after with no cluster barrier
// (remote_then_exit). Clean: the exchange with cluster.sync() on both
// sides (remote_synced), the block's own rank (own_rank: block_rank()
// names its own memory, ordered by __syncthreads()), two remote accesses
// (never paired: they may reach different blocks). Bundled declarations
// (--no-cuda).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) remote_behind_block(float *out)
{
	__shared__ float s[64];
	cg::cluster_group cluster = cg::this_cluster();
	unsigned r = cluster.block_rank();
	s[threadIdx.x] = threadIdx.x;
	__syncthreads();
	float *peer = cluster.map_shared_rank(s, r ^ 1);
	out[threadIdx.x] = peer[63 - threadIdx.x];
	cluster.sync();
}

__device__ float read_at(const float *p, int i)
{
	return p[i];
}

__global__ void __cluster_dims__(2, 1, 1) remote_in_helper(float *out)
{
	__shared__ float s[64];
	cg::cluster_group cluster = cg::this_cluster();
	s[threadIdx.x] = threadIdx.x;
	__syncthreads();
	out[threadIdx.x] = read_at(cluster.map_shared_rank(s, cluster.block_rank() ^ 1), 63 - threadIdx.x);
	cluster.sync();
}

__global__ void __cluster_dims__(2, 1, 1) remote_write(float *out)
{
	__shared__ float s[64];
	cg::cluster_group cluster = cg::this_cluster();
	float *peer = cluster.map_shared_rank(s, cluster.block_rank() ^ 1);
	peer[threadIdx.x] = threadIdx.x;
	__syncthreads();
	out[threadIdx.x] = s[threadIdx.x];
	cluster.sync();
}

__global__ void __cluster_dims__(2, 1, 1) remote_then_exit(float *out)
{
	__shared__ float s[64];
	cg::cluster_group cluster = cg::this_cluster();
	s[threadIdx.x] = threadIdx.x;
	cluster.sync();
	float *peer = cluster.map_shared_rank(s, cluster.block_rank() ^ 1);
	out[threadIdx.x] = peer[threadIdx.x];
}

__global__ void __cluster_dims__(2, 1, 1) remote_synced(float *out)
{
	__shared__ float s[64];
	cg::cluster_group cluster = cg::this_cluster();
	s[threadIdx.x] = threadIdx.x;
	cluster.sync();
	float *peer = cluster.map_shared_rank(s, cluster.block_rank() ^ 1);
	out[threadIdx.x] = peer[63 - threadIdx.x];
	cluster.sync();
	s[threadIdx.x] = 0;
}

__global__ void __cluster_dims__(2, 1, 1) own_rank(float *out)
{
	__shared__ float s[64];
	cg::cluster_group cluster = cg::this_cluster();
	s[threadIdx.x] = threadIdx.x;
	__syncthreads();
	float *mine = cluster.map_shared_rank(s, cluster.block_rank());
	out[threadIdx.x] = mine[63 - threadIdx.x];
}

__global__ void __cluster_dims__(4, 1, 1) two_remote(float *out)
{
	__shared__ float s[64];
	cg::cluster_group cluster = cg::this_cluster();
	unsigned r = cluster.block_rank();
	float *next = cluster.map_shared_rank(s, (r + 1) % 4);
	float *prev = cluster.map_shared_rank(s, (r + 3) % 4);
	next[threadIdx.x] = threadIdx.x;
	out[threadIdx.x] = prev[threadIdx.x];
	cluster.sync();
}

void launch(float *o)
{
	remote_behind_block<<<2, 64>>>(o);
	remote_in_helper<<<2, 64>>>(o);
	remote_write<<<2, 64>>>(o);
	remote_then_exit<<<2, 64>>>(o);
	remote_synced<<<2, 64>>>(o);
	own_rank<<<2, 64>>>(o);
	two_remote<<<4, 64>>>(o);
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/missing-barrier/cluster_dsmem.cu:24:21: error: missing cluster barrier: read-after-write race on 'peer' between two blocks of a cluster: thread 63 of one block reads s[0] of another block (through map_shared_rank), which that block's thread 0 wrote at line 21, with no cluster barrier in between (__syncthreads() orders one block only) in kernel 'remote_behind_block' with blockDim (64,1,1) from the launch on line 100 [missing-barrier]
 *   	out[threadIdx.x] = peer[63 - threadIdx.x];
 *   	                   ^~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/cluster_dsmem.cu:21:2: note: the racing write of 's' by thread 0 of another block
 * tests/rules/missing-barrier/cluster_dsmem.cu:18:2: note: 's' declared here
 * tests/rules/missing-barrier/cluster_dsmem.cu:24:21: note: put cluster.sync() (or barrier.cluster.arrive and barrier.cluster.wait) between the two accesses: only a cluster barrier orders the blocks of a cluster
 * tests/rules/missing-barrier/cluster_dsmem.cu:30:9: error: missing cluster barrier: read-after-write race on 'p' between two blocks of a cluster: thread 63 of one block reads s[0] of another block (through map_shared_rank), which that block's thread 0 wrote at line 37, with no cluster barrier in between (__syncthreads() orders one block only) in 'read_at' called from kernel 'remote_in_helper' at line 39 with blockDim (64,1,1) from the launch on line 101 [missing-barrier]
 *   	return p[i];
 *   	       ^~~~
 * tests/rules/missing-barrier/cluster_dsmem.cu:37:2: note: the racing write of 's' by thread 0 of another block
 * tests/rules/missing-barrier/cluster_dsmem.cu:35:2: note: 's' declared here
 * tests/rules/missing-barrier/cluster_dsmem.cu:30:9: note: put cluster.sync() (or barrier.cluster.arrive and barrier.cluster.wait) between the two accesses: only a cluster barrier orders the blocks of a cluster
 * tests/rules/missing-barrier/cluster_dsmem.cu:50:21: error: missing cluster barrier: read-after-write race on 's' between two blocks of a cluster: thread 0 of one block reads s[0], which thread 0 of another block wrote there through map_shared_rank at line 48, with no cluster barrier in between (__syncthreads() orders one block only) in kernel 'remote_write' with blockDim (64,1,1) from the launch on line 102 [missing-barrier]
 *   	out[threadIdx.x] = s[threadIdx.x];
 *   	                   ^~~~~~~~~~~~~~
 * tests/rules/missing-barrier/cluster_dsmem.cu:48:2: note: the racing write of 'peer' by thread 0 of one block
 * tests/rules/missing-barrier/cluster_dsmem.cu:45:2: note: 's' declared here
 * tests/rules/missing-barrier/cluster_dsmem.cu:50:21: note: put cluster.sync() (or barrier.cluster.arrive and barrier.cluster.wait) between the two accesses: only a cluster barrier orders the blocks of a cluster
 * tests/rules/missing-barrier/cluster_dsmem.cu:61:21: error: missing cluster barrier: the block whose 'peer' this reads may have exited: thread 0 reads s[0] of another block of the cluster (through map_shared_rank), and the kernel can end after it with no cluster barrier, so that block may have exited and its shared memory be gone in kernel 'remote_then_exit' with blockDim (64,1,1) from the launch on line 103 [missing-barrier]
 *   	out[threadIdx.x] = peer[threadIdx.x];
 *   	                   ^~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/cluster_dsmem.cu:61:21: note: the access to another block's 'peer'
 * tests/rules/missing-barrier/cluster_dsmem.cu:56:2: note: 's' declared here
 * tests/rules/missing-barrier/cluster_dsmem.cu:61:21: note: add cluster.sync() after the last access to another block's shared memory, before the kernel returns
 * check-output-end
 */
