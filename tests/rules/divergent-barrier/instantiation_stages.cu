// One divergent barrier in a kernel template whose instantiations compile
// a different number of barriers after it (the stage count a template
// argument, as in flash-attention kernels: rows past the sequence leave
// early). The instantiations are one finding, not one each: they differ
// only in how many more barriers the early return skips.

template <int kStage>
__global__ void attn(const float *q, float *o, int seqlen)
{
	__shared__ float s[2][128];
	int row = blockIdx.x * 128 + threadIdx.x;
	if (row >= seqlen)
		return;
	s[0][threadIdx.x] = q[row];
	__syncthreads();
	if (kStage > 1) {
		s[1][threadIdx.x] = q[row] * 2.0f;
		__syncthreads();
	}
	o[row] = s[0][127 - threadIdx.x] + s[kStage - 1][threadIdx.x];
	__syncthreads();
}

void run(const float *q, float *o, int seqlen)
{
	attn<1><<<(seqlen + 127) / 128, 128>>>(q, o, seqlen);
	attn<2><<<(seqlen + 127) / 128, 128>>>(q, o, seqlen);
}

/*
 * check-output-start
 * tests/rules/divergent-barrier/instantiation_stages.cu:15:2: error: divergent barrier: '__syncthreads()' follows a thread-dependent 'return' (under 'row >= seqlen') in kernel 'attn' at every launch (and 2 more barriers after it) (the same in 2 instantiations of 'attn') [divergent-barrier]
 *   	__syncthreads();
 *   	^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/instantiation_stages.cu:12:6: note: thread-dependent condition 'row >= seqlen'
 * tests/rules/divergent-barrier/instantiation_stages.cu:13:3: note: the 'return' that skips the barrier
 * tests/rules/divergent-barrier/instantiation_stages.cu:18:3: note: '__syncthreads()', made divergent by the same return
 * tests/rules/divergent-barrier/instantiation_stages.cu:21:2: note: '__syncthreads()', made divergent by the same return
 * tests/rules/divergent-barrier/instantiation_stages.cu:15:2: note: threads that jumped never arrive; guard the work instead of leaving early, so every thread reaches the barrier
 * check-output-end
 */
