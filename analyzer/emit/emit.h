/* emit.h - the emit stage's own name for its API, which is public
 * (include/smemlint/emit.h): the emitters and the command include it as
 * "emit/emit.h", which brings the results they write (smemlint/result.h);
 * a program embedding smemlint includes "smemlint/emit.h". */
#ifndef SM_EMIT_EMIT_H
#define SM_EMIT_EMIT_H

#include "smemlint/emit.h"
#include "smemlint/result.h"

#endif
