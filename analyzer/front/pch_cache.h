/* pch_cache.h - the header cache: the CUDA headers precompiled once per
 * distinct flag set and reused by every translation unit (-include-pch).
 *
 * Files live in $XDG_CACHE_HOME/smemlint (default ~/.cache/smemlint), one
 * `pch-<key>.pch` per key with `pch-<key>.deps`, the headers it contains.
 * The key is a 128-bit hash of the libclang version, the flags the front
 * end passes (architecture, toolkit path, user -D/-std...), and the
 * identity (path, size, mtime) of every file under the toolkit's include/
 * directory. The user's include directories (-I, -isystem, -iquote,
 * -idirafter) are left out of the key unless one of them holds a file
 * that could replace a header the PCH contains (then they are in it, and
 * the working directory too when one is relative): targets that differ
 * only in their own include directories share one file.
 *
 * Isolation: a PCH is built in a child process, in a temporary directory
 * of the cache directory; a failed write (full disk, quota, ulimit -f),
 * a crash or a hang (SM_PCH_BUILD_SECONDS) of the child means no PCH for
 * that key, a note (sm_pch_cache_failure) and plain parses, and the
 * temporary directory is removed.
 *
 * Concurrency: within a process, one thread builds a key while the others
 * that need it wait; between processes, a finished PCH is renamed into
 * place, so readers see a whole file or none. Readers verify by loading: clang checks the file's
 * format, version and the size and mtime of every header it contains, and
 * the front end falls back to a plain parse when it refuses
 * (sm_frontend_pch_rejected); the cache then rebuilds the file once and
 * gives up on that key for the rest of the run if it is refused again.
 * Size: after each new PCH the least recently used files (oldest mtime;
 * a run renews the mtime of each file it uses) are deleted until the
 * directory fits SM_PCH_CACHE_BYTES (or SMEMLINT_CACHE_MAX_MIB).
 * Nothing here is global: the cache is an object the caller owns.
 */
#ifndef SMEMLINT_PCH_CACHE_H
#define SMEMLINT_PCH_CACHE_H

#include <stddef.h>

#include "front/frontend.h"

struct sm_pch_cache;

/* dir: the cache directory, or NULL for the default location. Returns NULL
 * when out of memory. */
struct sm_pch_cache *sm_pch_cache_new(const char *dir);
void sm_pch_cache_free(struct sm_pch_cache *c);

/* The cache directory in use (NULL: no HOME, no cache). */
const char *sm_pch_cache_dir(const struct sm_pch_cache *c);

/* Why the first PCH that could not be built was not (lowercase, naming
 * the file), or NULL when none failed. Lives as long as the cache. */
const char *sm_pch_cache_failure(struct sm_pch_cache *c);

/* The precompiled header for parses with `opt` (opt->pch ignored), built
 * with `fe` when missing. NULL without a toolkit (the bundled header is
 * cheap to parse), when the flags cannot use one (a user
 * -include, -imacros or -Xclang) or it cannot be built or written; the
 * parse then simply goes without. Thread safe. The returned string lives
 * as long as the cache. It forks: call it before starting threads where
 * possible (a child forked while another thread holds a lock can hang
 * until SM_PCH_BUILD_SECONDS). */
const char *sm_pch_cache_get(struct sm_pch_cache *c, struct sm_frontend *fe, const struct sm_frontend_options *opt);

/* Report that a parse refused `pch` (sm_frontend_pch_rejected): the next
 * get rebuilds it (in a child process), once per key and run. */
void sm_pch_cache_reject(struct sm_pch_cache *c, const char *pch);

#endif
