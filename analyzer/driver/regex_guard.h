/* regex_guard.h - a checkout's regular expressions, refused before regcomp
 * when they could take unbounded memory or time (regex_guard.c). */
#ifndef SMEMLINT_DRIVER_REGEX_GUARD_H
#define SMEMLINT_DRIVER_REGEX_GUARD_H

#include <stdbool.h>
#include <stddef.h>

/* 0 when src (POSIX extended) is safe to compile: at most
 * SM_REGEX_MAX_BYTES, no back-reference, at most SM_REGEX_MAX_STATES
 * after its bounded repetitions expand; else -1 with the reason in why. */
int sm_regex_guard(const char *src, char *why, size_t n);

#endif
