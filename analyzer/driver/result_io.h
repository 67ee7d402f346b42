/* result_io.h - write an sm_result to a stream and read it back, so that a
 * file can be analyzed in a child process (smemlint --timeout) and its
 * result reported by the parent exactly as if analyzed in process. */
#ifndef SMEMLINT_RESULT_IO_H
#define SMEMLINT_RESULT_IO_H

#include <stdio.h>

#include "driver/analyze.h"

/* Returns 0, or -1 on a write error. */
int sm_result_write(FILE *f, const struct sm_result *r);

/* Rebuild r (sm_result_init'ed here, for `path`) from buf[0..len). Returns
 * 0, or -1 when the data is truncated or malformed (r is then empty). */
int sm_result_read(const char *buf, size_t len, const char *path, struct sm_result *r);

#endif
