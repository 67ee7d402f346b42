/* stack.h - how deep recursion may go on the calling thread's stack.
 *
 * Depth counters alone do not bound stack use: a frame is several times
 * larger under AddressSanitizer, and callers run the analysis on threads
 * with 8 MiB (the main thread) or less. Recursive walks take a floor once
 * per file and stop when the stack pointer goes below it. */
#ifndef SMEMLINT_STACK_H
#define SMEMLINT_STACK_H

#include <stddef.h>
#include <stdint.h>

/* The lowest address recursion from here may reach: the calling thread's
 * stack limit plus a reserve (at most `reserve` bytes, at most a quarter of
 * what is left). When the stack cannot be found, 1 MiB below the caller. */
uintptr_t sm_stack_floor(size_t reserve);

static inline int sm_stack_exhausted(uintptr_t floor)
{
	return (uintptr_t)__builtin_frame_address(0) < floor;
}

#endif
