/* A launch inside a host template's specialization: the C++17 dispatch
 * that turns a run-time block size into a template argument (llm.c's
 * dispatch_launch: a generic lambda called with integral constants). The
 * lambda's body as written is dependent; its specializations launch
 * reduce_k<32> with 32 threads, reduce_k<64> with 64 and reduce_k<128>
 * with 128, so each is
 * analyzed with its own block instead of an assumed one: with 32 threads
 * the zeroing and the sum race inside one warp (warp-sync), with 64 and
 * 128 between warps (missing-barrier: the same two threads under both
 * blocks, one finding). A member of a class template and a
 * function template launching directly are followed the same way. */

template <int N> struct int_c {
    static constexpr int value = N;
};

template <int BlockSize>
__global__ void reduce_k(float *out, const float *in)
{
    __shared__ float acc[32];
    if (threadIdx.x / 32 == 0)
        acc[threadIdx.x] = 0.0f;
    acc[threadIdx.x / 32] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = acc[threadIdx.x % 32];
}

template <class Launcher>
void dispatch(Launcher &&launch, int block_size)
{
    switch (block_size) {
    case 32: return launch(int_c<32>{});
    case 64: return launch(int_c<64>{});
    case 128: return launch(int_c<128>{});
    }
}

void run(float *out, const float *in, int block_size)
{
    auto launch = [&](auto ic) {
        constexpr int bs = decltype(ic)::value;
        reduce_k<bs><<<4, bs>>>(out, in);
    };
    dispatch(launch, block_size);
}

/* a tile transpose launched from a function template with its tile */
template <int T>
__global__ void transpose_k(float *out, const float *in)
{
    __shared__ float t[T][T];
    t[threadIdx.y][threadIdx.x] = in[threadIdx.y * T + threadIdx.x];
    out[threadIdx.y * T + threadIdx.x] = t[threadIdx.x][threadIdx.y];
}

template <int T>
void transpose(float *out, const float *in)
{
    transpose_k<T><<<1, dim3(T, T)>>>(out, in);
}

template <int T>
struct Runner {
    void go(float *out, const float *in) { transpose<T>(out, in); }
};

void run_transpose(float *out, const float *in)
{
    Runner<16> r;
    r.go(out, in);
}

/*
 * check-args: --no-cuda
 */

/*
 * check-output-start
 * tests/rules/missing-barrier/template_dispatch_launch.cu:23:5: error: missing barrier: write-after-write race on 'acc': thread 32 writes acc[1], which thread 1 wrote at line 22, with no __syncthreads() in between (different warps) in kernel 'reduce_k' with blockDim (128,1,1) from the launch on line 42 (the same in 2 instantiations of 'reduce_k') [missing-barrier]
 *       acc[threadIdx.x / 32] = in[threadIdx.x];
 *       ^~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/template_dispatch_launch.cu:22:9: note: the racing write of 'acc' by thread 1
 * tests/rules/missing-barrier/template_dispatch_launch.cu:20:5: note: 'acc' declared here
 * tests/rules/missing-barrier/template_dispatch_launch.cu:23:5: note: add __syncthreads() between the two accesses
 * tests/rules/missing-barrier/template_dispatch_launch.cu:23:5: warning: unsynchronized warp exchange on 'acc': lane 1 of warp 0 writes acc[0], which lane 0 wrote at line 22, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'reduce_k' with blockDim (32,1,1) from the launch on line 42 [warp-sync]
 *       acc[threadIdx.x / 32] = in[threadIdx.x];
 *       ^~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/template_dispatch_launch.cu:22:9: note: the other lane's write of 'acc'
 * tests/rules/missing-barrier/template_dispatch_launch.cu:20:5: note: 'acc' declared here
 * tests/rules/missing-barrier/template_dispatch_launch.cu:23:5: note: add __syncwarp() between the write and the access that depends on it
 * tests/rules/missing-barrier/template_dispatch_launch.cu:53:42: warning: 8-way bank conflict on load of 't' (float[16][16]) in kernel 'transpose_k' with blockDim (16,16,1) from the launch on line 59; lanes 0 and 2 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[threadIdx.y * T + threadIdx.x] = t[threadIdx.x][threadIdx.y];
 *                                            ^~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/template_dispatch_launch.cu:51:5: note: 't' declared here
 * tests/rules/missing-barrier/template_dispatch_launch.cu:53:42: note: swizzle 't': write every access `t[r][c]` as `t[r][c ^ (r & 15)]`: 1 of 1 conflicting accesses become conflict-free (verified); write this access as `t[threadIdx.x][threadIdx.y ^ (threadIdx.x & 15)]`
 * fix-it:"tests/rules/missing-barrier/template_dispatch_launch.cu":{52:20-52:31}:"threadIdx.x ^ (threadIdx.y & 15)"
 * fix-it:"tests/rules/missing-barrier/template_dispatch_launch.cu":{53:57-53:68}:"threadIdx.y ^ (threadIdx.x & 15)"
 * tests/rules/missing-barrier/template_dispatch_launch.cu:53:42: error: missing barrier: read-after-write race on 't': thread (2,0) reads t[2][0], which thread (0,2) wrote at line 52, with no __syncthreads() in between (different warps) in kernel 'transpose_k' with blockDim (16,16,1) from the launch on line 59 [missing-barrier]
 *       out[threadIdx.y * T + threadIdx.x] = t[threadIdx.x][threadIdx.y];
 *                                            ^~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/template_dispatch_launch.cu:52:5: note: the racing write of 't' by thread (0,2)
 * tests/rules/missing-barrier/template_dispatch_launch.cu:51:5: note: 't' declared here
 * tests/rules/missing-barrier/template_dispatch_launch.cu:53:42: note: add __syncthreads() between the two accesses
 * check-output-end
 */
