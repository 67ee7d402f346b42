/* fix_apply.h - --fix: apply the padding fix-its of a result to its file. */
#ifndef SMEMLINT_DRIVER_FIX_APPLY_H
#define SMEMLINT_DRIVER_FIX_APPLY_H

#include <stddef.h>
#include <stdio.h>

#include "smemlint/result.h"

struct sm_write_faults;

/* Apply the padding fix-its of r to its file in place: refuse when the file
 * changed since it was read, write atomically keeping the mode, and print
 * each change to log. faults: failures a test injects (NULL: none).
 * Returns the number of changes, or -1 (err filled). */
int sm_apply_fixes(const struct sm_result *r, FILE *log, const struct sm_write_faults *faults, char *err,
		   size_t errlen);

#endif
