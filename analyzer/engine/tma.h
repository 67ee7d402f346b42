/* tma.h - the shared-memory layout of a TMA tensor copy's swizzle, and
 * the accesses that address its box another way (tma.c). */
#ifndef SMEMLINT_ENGINE_TMA_H
#define SMEMLINT_ENGINE_TMA_H

#include <stdint.h>

#include "engine/facts.h"
#include "smemlint/arena.h"

/* An access that does not address a swizzled box the way the copy laid
 * it out, with one witness. */
struct sm_tma_mismatch {
	unsigned copy;         /* model.acc index of the tensor copy */
	unsigned access;       /* model.acc index of the access */
	int64_t tid[3];        /* the witness thread */
	int iter;              /* at this iteration of its loops (0 = first) */
	int64_t addr;          /* the byte it addresses (array offset) */
	int64_t holds;         /* the box byte the copy put there, as the
	                        * offset it would have unswizzled */
	int64_t meant;         /* the byte its index means with its XORs undone
	                        * (the first reading of them) */
};

/* Where a swizzle of span bytes (0, 32, 64, 128) puts byte offset o of a
 * box (the inverse too: the swizzle is its own inverse). */
int64_t sm_tma_swizzle(int64_t o, unsigned span);

/* The mismatches of kernel f's accesses with its swizzled tensor copies,
 * under its first block shape: at most max into out; the count. */
int sm_tma_mismatches(const struct sm_kernel_facts *f, struct sm_arena *A, struct sm_tma_mismatch *out, int max);

#endif
