/* include_site.h - where a header enters the main file: the chain of
 * #include lines from the main file to a header, for diagnostics inside
 * headers ("header:line:col", included from main.cu:3). */
#ifndef SMEMLINT_FRONT_INCLUDE_SITE_H
#define SMEMLINT_FRONT_INCLUDE_SITE_H

#include <clang-c/Index.h>

#include "smemlint/arena.h"
#include "smemlint/ir.h"

/* The include chain of `header` in tu: *main_pos is the #include line in
 * the main file that brings it in (0:0 when not found), and the returned
 * string (in A) names the headers between them, innermost first
 * ("a.cuh:2, b.cuh:7"), or is NULL when the main file includes it
 * directly or it is not found. */
const char *cv_include_site(CXTranslationUnit tu, CXFile header, struct sm_arena *A, struct sm_pos *main_pos);

#endif
