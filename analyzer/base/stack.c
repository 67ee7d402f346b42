/* stack.c - the stack floor for recursive walks (see stack.h). */
#define _GNU_SOURCE
#include "base/stack.h"
#include "base/limits.h"

#include <pthread.h>

uintptr_t sm_stack_floor(size_t reserve)
{
	uintptr_t cur = (uintptr_t)__builtin_frame_address(0);
	void *lo = NULL;
	size_t size = 0;
	pthread_attr_t at;
	if (pthread_getattr_np(pthread_self(), &at) == 0) {
		if (pthread_attr_getstack(&at, &lo, &size) != 0)
			lo = NULL;
		pthread_attr_destroy(&at);
	}
	uintptr_t low = (uintptr_t)lo;
	if (!lo || cur <= low || cur - low > ((size_t)1 << 36)) /* unknown */
		return cur > (uintptr_t)SM_STACK_FALLBACK ? cur - (uintptr_t)SM_STACK_FALLBACK : 0;
	size_t left = cur - low;
	if (reserve > left / 4)
		reserve = left / 4;
	return low + reserve;
}
