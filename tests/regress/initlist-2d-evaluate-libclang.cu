// libclang 22 crashed (SIGSEGV) in clang_Cursor_Evaluate on the initializer
// list of a multidimensional array (found on ggml's mmvq.cu); smemlint no
// longer evaluates braced lists
__global__ void k(float *o)
{
	float t[2][3] = {{0.0f}};
	o[threadIdx.x] = t[0][threadIdx.x % 3];
}
