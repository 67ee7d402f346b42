/* ncu_text.h - the --compare-ncu report (ncu_text.c). */
#ifndef SM_EMIT_NCU_TEXT_H
#define SM_EMIT_NCU_TEXT_H

#include <stdio.h>

#include "driver/ncu.h"

/* The comparison of r with rows[0..n) (sm_ncu_compare) as a table and a
 * summary line; *differ counts the rows that are over, under or
 * unpredicted. Returns 0, or -1 when a write failed. */
int sm_emit_ncu(FILE *out, const struct sm_result *r, const struct sm_ncu_row *rows, int n, unsigned blocks,
		unsigned *differ);

#endif
