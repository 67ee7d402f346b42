/* stage.h - which pipeline stage is including a public header.
 *
 * The build compiles each stage's library with -DSM_STAGE=<its number>, so
 * a public header that belongs to a higher stage refuses to compile in a
 * lower one (private headers are kept out by include directories; see the
 * README's layout section). A program embedding smemlint defines nothing
 * and sees every public header. */
#ifndef SMEMLINT_STAGE_H
#define SMEMLINT_STAGE_H

#define SM_STAGE_BASE 1    /* analyzer/base: arena, limits, text, files */
#define SM_STAGE_IR 2      /* analyzer/ir: the IR, findings, options */
#define SM_STAGE_FRONT 3   /* analyzer/front: libclang to IR */
#define SM_STAGE_ENGINE 3  /* analyzer/engine: IR to facts (beside front) */
#define SM_STAGE_RULES 4   /* rules: facts to findings */
#define SM_STAGE_DRIVER 5  /* analyzer/driver: files, sessions, results */
#define SM_STAGE_EMIT 6    /* analyzer/emit: results to reports */

#ifndef SM_STAGE
#define SM_STAGE 99        /* an embedding program: everything is below it */
#endif

#endif
