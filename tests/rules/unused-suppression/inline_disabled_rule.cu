// inline.cu with warp-sync disabled: a suppression of a disabled rule
// (line 15) is not reported unused.
__global__ void k(float *out)
{
    __shared__ float tile[32][32];
    tile[threadIdx.y][threadIdx.x] = out[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x][threadIdx.y]; // smemlint: ignore[bank-conflict]
    // smemlint: ignore[bank-conflict]
    out[threadIdx.x + 1] = tile[threadIdx.x][threadIdx.y];
    out[threadIdx.x + 2] = tile[threadIdx.x][threadIdx.y]; // NOLINT(smemlint-bank-conflict)
    // NOLINTNEXTLINE(bugprone-foo, smemlint-bank-conflict)
    out[threadIdx.x + 3] = tile[threadIdx.x][threadIdx.y];
    out[threadIdx.x + 4] = tile[threadIdx.x][threadIdx.y]; // NOLINT(bugprone-foo)
    out[threadIdx.x + 5] = tile[threadIdx.x][threadIdx.y]; // smemlint: ignore[warp-sync]
    out[threadIdx.x + 6] = tile[threadIdx.y][threadIdx.x]; // smemlint: ignore
    const char *s = "// smemlint: ignore"; out[threadIdx.x + 7] = tile[threadIdx.x][threadIdx.y];
    out[threadIdx.x + 8] = tile[threadIdx.x][threadIdx.y]; /* smemlint: ignore[bank-conflict, warp-sync] */
    out[threadIdx.x + 9] = tile[threadIdx.x][threadIdx.y]; // NOLINT
    out[threadIdx.x + 10] = tile[threadIdx.x][threadIdx.y]; // smemlint: ignore[nosuch]
}
void launch(float *o) { k<<<1, dim3(32, 32)>>>(o); }

/*
 * check-args: --report-unused-suppressions --disable warp-sync
 * check-output-start
 * tests/rules/unused-suppression/inline_disabled_rule.cu:20:64: warning: unknown rule 'nosuch' in suppression (see --list-rules)
 * tests/rules/unused-suppression/inline_disabled_rule.cu:14:28: warning: 32-way bank conflict on load of 'tile' (float[32][32]) in kernel 'k' with blockDim (32,32,1) from the launch on line 22; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[threadIdx.x + 4] = tile[threadIdx.x][threadIdx.y]; // NO\LINT(bugprone-foo)
 *                              ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/unused-suppression/inline_disabled_rule.cu:5:5: note: 'tile' declared here
 * tests/rules/unused-suppression/inline_disabled_rule.cu:14:28: note: declare 'tile' as `float tile[32][33]`: +128 bytes per block (4096 -> 4224 bytes of static shared memory); 10 of 10 conflicting accesses become conflict-free
 * fix-it:"tests/rules/unused-suppression/inline_disabled_rule.cu":{5:26-5:34}:"[32][33]"
 * tests/rules/unused-suppression/inline_disabled_rule.cu:15:28: warning: 32-way bank conflict on load of 'tile' (float[32][32]) in kernel 'k' with blockDim (32,32,1) from the launch on line 22; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[threadIdx.x + 5] = tile[threadIdx.x][threadIdx.y]; // smemlint\: ignore[warp-sync]
 *                              ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/unused-suppression/inline_disabled_rule.cu:5:5: note: 'tile' declared here
 * tests/rules/unused-suppression/inline_disabled_rule.cu:15:28: note: declare 'tile' as `float tile[32][33]`: +128 bytes per block (4096 -> 4224 bytes of static shared memory); 10 of 10 conflicting accesses become conflict-free
 * fix-it:"tests/rules/unused-suppression/inline_disabled_rule.cu":{5:26-5:34}:"[32][33]"
 * tests/rules/unused-suppression/inline_disabled_rule.cu:16:63: warning: unused suppression 'smemlint\: ignore': no finding on this line matches it [unused-suppression]
 *       out[threadIdx.x + 6] = tile[threadIdx.y][threadIdx.x]; // smemlint\: ignore
 *                                                                 ^~~~~~~~~~~~~~~~
 * tests/rules/unused-suppression/inline_disabled_rule.cu:17:67: warning: 32-way bank conflict on load of 'tile' (float[32][32]) in kernel 'k' with blockDim (32,32,1) from the launch on line 22; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       const char *s = "// smemlint\: ignore"; out[threadIdx.x + 7] = tile[threadIdx.x][threadIdx.y];
 *                                                                     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/unused-suppression/inline_disabled_rule.cu:5:5: note: 'tile' declared here
 * tests/rules/unused-suppression/inline_disabled_rule.cu:17:67: note: declare 'tile' as `float tile[32][33]`: +128 bytes per block (4096 -> 4224 bytes of static shared memory); 10 of 10 conflicting accesses become conflict-free
 * fix-it:"tests/rules/unused-suppression/inline_disabled_rule.cu":{5:26-5:34}:"[32][33]"
 * tests/rules/unused-suppression/inline_disabled_rule.cu:20:29: warning: 32-way bank conflict on load of 'tile' (float[32][32]) in kernel 'k' with blockDim (32,32,1) from the launch on line 22; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *       out[threadIdx.x + 10] = tile[threadIdx.x][threadIdx.y]; // smemlint\: ignore[nosuch]
 *                               ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/unused-suppression/inline_disabled_rule.cu:5:5: note: 'tile' declared here
 * tests/rules/unused-suppression/inline_disabled_rule.cu:20:29: note: declare 'tile' as `float tile[32][33]`: +128 bytes per block (4096 -> 4224 bytes of static shared memory); 10 of 10 conflicting accesses become conflict-free
 * fix-it:"tests/rules/unused-suppression/inline_disabled_rule.cu":{5:26-5:34}:"[32][33]"
 * check-output-end
 */
