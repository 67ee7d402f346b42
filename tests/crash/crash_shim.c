/* crash_shim.c - a test-only crash injected into libclang (never built
 * into smemlint): preloaded (LD_PRELOAD) by tests/test_crash.py, it makes
 * clang_parseTranslationUnit2 die of SIGSEGV for a file whose name holds
 * "smemlint-crash-me", as a libclang bug would, and calls the real one for
 * every other file. The test checks that the run goes on past the crash. */
#define _GNU_SOURCE
#include <clang-c/Index.h>
#include <dlfcn.h>
#include <signal.h>
#include <string.h>

enum CXErrorCode clang_parseTranslationUnit2(CXIndex index, const char *source, const char *const *args, int nargs,
					     struct CXUnsavedFile *unsaved, unsigned nunsaved, unsigned options,
					     CXTranslationUnit *out)
{
	enum CXErrorCode (*real)(CXIndex, const char *, const char *const *, int, struct CXUnsavedFile *, unsigned,
				 unsigned, CXTranslationUnit *);
	*(void **)&real = dlsym(RTLD_NEXT, "clang_parseTranslationUnit2");
	if (source && strstr(source, "smemlint-crash-me"))
		raise(SIGSEGV);
	return real(index, source, args, nargs, unsaved, nunsaved, options, out);
}
