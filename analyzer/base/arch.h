/* arch.h - the target architecture assumed when nothing names one (no
 * --arch, no config, no compile command): the one definition the front
 * end's --cuda-gpu-arch, the analysis options, --dump-config, the
 * compile-database note and --help all use.
 *
 * sm_90 (Hopper) is the newest architecture whose bank model and limits
 * the corpus is validated on (tools/gpu); the bank model is the same from
 * sm_50 on, so the default changes only the shared-memory size that the
 * padding fix checks against (engine/padding.c). */
#ifndef SMEMLINT_BASE_ARCH_H
#define SMEMLINT_BASE_ARCH_H

#define SM_DEFAULT_ARCH "sm_90"

#endif
