#pragma once
__device__ __forceinline__ void hstore(float *s, int i, float v) {
  s[i] = v;
}
