// dialect: device placement new, which CUB's warp-transpose BlockLoad
// uses: clang declares it in its cuda_wrappers headers, which libclang
// finds only with -resource-dir (smemlint passes the one beside the
// loaded libclang).
// expect: clean
#include <cub/cub.cuh>

__global__ void load(const int *in, int *out)
{
    typedef cub::BlockLoad<int, 128, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE> Load;
    __shared__ typename Load::TempStorage tmp;
    int items[4];
    Load(tmp).Load(in, items);
    out[threadIdx.x] = items[0] + items[3];
}

void run(const int *i, int *o) { load<<<1, 128>>>(i, o); }
