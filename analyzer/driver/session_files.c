/* session_files.c - a session's file list and each file's options (see
 * session_impl.h).
 *
 * Models the inputs of a run as a sorted list of files: paths are
 * expanded (directories walked in sorted order, git's ignores applied,
 * plus the sources a compile database compiles as CUDA under another
 * name), the same file named twice is kept once, the list is sharded
 * round robin so that shards partition it, each file finds its config
 * (which may exclude it), and its options are computed once, in
 * sm_session_file_options: the command line's base options, the file's
 * config (levels, shape, arch, flags before the command line's), the
 * command line's rule choices again (they win), then its compile database
 * entry (its flags first, its architecture). */
#define _GNU_SOURCE
#include "driver/session_impl.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/arch.h"
#include "base/grow.h"
#include "base/limits.h"

/* ---- each file's options, in one place ---- */

/* The options for a file whose config is cfg (NULL: none): the command
 * line's base options, the config, the command line's choices, the
 * compile database entry. *args (to free) holds the merged flags:
 * database flags, config flags, then the command line's. */
void sm_session_file_options(const struct sm_session *s, const char *path, const struct sm_config *cfg,
			 struct sm_analysis_options *out, const char ***args)
{
	const struct sm_analysis_options *base = &s->o.analysis;
	*out = *base;
	*args = NULL;
	const struct sm_compdb_entry *e = s->have_db ? sm_compdb_find(&s->db, path) : NULL;
	size_t ncfg = cfg ? cfg->flags.n : 0, ndb = e ? (size_t)e->cf.nflags : 0;
	if (cfg)
		sm_config_apply(cfg, out);
	if (ncfg || ndb) {
		*args = calloc(ndb + ncfg + (size_t)base->fe.nargs + 1, sizeof(char *));
		if (*args) {
			int n = 0;
			for (size_t k = 0; k < ndb; k++)
				(*args)[n++] = e->cf.flags[k];
			for (size_t k = 0; k < ncfg; k++)
				(*args)[n++] = cfg->flags.v[k];
			for (int k = 0; k < base->fe.nargs; k++)
				(*args)[n++] = base->fe.args[k];
			out->fe.args = *args;
			out->fe.nargs = n;
		}
	}
	sm_config_apply(&s->cli, out);
	/* the config's header filter and budget, unless the command line
	 * (or the embedding program) gave its own */
	if (cfg && cfg->header_filter && !s->o.header_filter)
		out->fe.header_filter = cfg->have_header_re ? &cfg->header_re : NULL;
	if (cfg && cfg->analysis_budget && !base->analysis_budget)
		out->analysis_budget = cfg->analysis_budget;
	/* compiled as CUDA whatever its name: -x cu in its compile command,
	 * or clang's -x cuda among the flags (the config's, after --) */
	out->as_cuda = e && e->cf.as_cuda;
	for (int k = 0; k + 1 < out->fe.nargs; k++)
		out->as_cuda |= !strcmp(out->fe.args[k], "-x") && !strcmp(out->fe.args[k + 1], "cuda");
	for (int k = 0; k < out->fe.nargs; k++)
		out->as_cuda |= !strcmp(out->fe.args[k], "-xcuda");
	/* the database's architecture (the lowest real one of the command's
	 * list) over the config's and the default; --arch over both */
	if (e && e->cf.arch[0] && !s->cli.arch) {
		out->fe.gpu_arch = e->cf.arch;
		out->arch = e->cf.arch;
	}
}

/* What is wrong with a file's compile command under -p, for f: not in the
 * database, or a response file that could not be read. */
static void flags_problem(const struct sm_session *s, struct sm_file_job *f)
{
	if (!s->have_db)
		return;
	const struct sm_compdb_entry *e = sm_compdb_find(&s->db, f->path);
	char msg[PATH_MAX * 3];
	if (!e) {
		snprintf(msg, sizeof(msg),
			 "not in the compile database: '%s' has no entry in '%s/compile_commands.json'; it was parsed "
			 "with the flags after -- and architecture %s",
			 f->path, s->o.build_dir, f->opt.fe.gpu_arch ? f->opt.fe.gpu_arch : SM_DEFAULT_ARCH);
		f->flags_problem = SM_PROBLEM_NOT_IN_COMPILE_DATABASE;
	} else if (e->cf.problem) {
		snprintf(msg, sizeof(msg), "incomplete compile flags for '%s': %s", f->path, e->cf.problem);
		f->flags_problem = SM_PROBLEM_COMPILE_FLAGS_INCOMPLETE;
	} else {
		return;
	}
	f->flags_msg = strdup(msg);
}

/* ---- the file list ---- */

/* Each config skipped as untrusted (sm_config_find), said once. */
static void warn_ignored_configs(struct sm_session *s)
{
	struct sm_paths *ig = &s->configs.ignored; /* each once (sm_config_cache_lookup) */
	for (size_t i = 0; i < ig->n; i++)
		fprintf(s->o.log, "smemlint: warning: %s\n", ig->v[i]);
	sm_paths_free(ig);
}

/* An input error tied to no file, with its problem id. */
static void run_error(struct sm_session *s, enum sm_problem_id id, const char *msg)
{
	if (SM_ALLOC_GROW(s->error_ids, s->errors.n + 1, s->cap_error_ids)) {
		s->failures++; /* out of memory: the run still fails */
		return;
	}
	size_t before = s->errors.n;
	sm_paths_push(&s->errors, msg);
	if (s->errors.n > before)
		s->error_ids[before] = id;
	else
		s->failures++;
}

/* Keep the first of the paths that name the same file (by device and
 * inode: `a.cu ./a.cu`, hard links, links into the tree), so that each
 * file is analyzed, reported and fixed once. Paths that cannot be
 * examined stay: the analysis reports them. */
static void drop_duplicates(struct sm_paths *all, bool *walked)
{
	struct sm_inode_set seen = { 0 };
	size_t kept = 0;
	for (size_t i = 0; i < all->n; i++) {
		struct stat st;
		if (stat(all->v[i], &st) == 0 && S_ISREG(st.st_mode) && sm_inode_set_add(&seen, st.st_dev, st.st_ino) == 0) {
			free(all->v[i]);
			continue;
		}
		walked[kept] = walked[i];
		all->v[kept++] = all->v[i];
	}
	all->n = kept;
	sm_inode_set_free(&seen);
}

/* The order of a directory walk (sm_expand_path_ex: each directory's
 * names sorted, depth first): component by component, so '/' sorts
 * before every other byte. */
static int walk_order(const void *pa, const void *pb)
{
	const unsigned char *a = *(const unsigned char *const *)pa, *b = *(const unsigned char *const *)pb;
	for (; *a && *a == *b; a++, b++)
		;
	unsigned ca = *a == '/' ? 1 : *a ? *a + 1u : 0, cb = *b == '/' ? 1 : *b ? *b + 1u : 0;
	return (ca > cb) - (ca < cb);
}

/* An --exclude glob matches rel's path or base name at some directory
 * level, as the walk tests each directory and file it meets. */
static bool db_excluded(const struct sm_session *s, const char *path, size_t root_len)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof(buf), "%s", path);
	for (size_t at = root_len; buf[at];) {
		size_t end = at + strcspn(buf + at, "/");
		char keep = buf[end];
		buf[end] = 0;
		for (int i = 0; i < s->o.nexcludes; i++)
			if (!fnmatch(s->o.excludes[i], buf, 0) || !fnmatch(s->o.excludes[i], buf + at, 0))
				return true;
		buf[end] = keep;
		at = keep ? end + 1 : end;
	}
	return false;
}

/* The sources under directory dir that the compile database compiles as
 * CUDA but that do not end in .cu (-x cu: a .cpp whose LANGUAGE is CUDA),
 * the walk's from out[from] on: added, then all put in walk order.
 * Returns how many were added. */
static int add_db_sources(const struct sm_session *s, const char *dir, struct sm_paths *out, size_t from)
{
	char real[PATH_MAX];
	if (!s->have_db || !realpath(dir, real))
		return 0;
	size_t rl = strlen(real), dl = strlen(dir);
	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	int added = 0;
	for (size_t i = 0; i < s->db.n; i++) {
		const struct sm_compdb_entry *e = &s->db.e[i];
		const char *dot = strrchr(e->file, '.');
		if (!e->cf.as_cuda || (dot && (!strcmp(dot, ".cu") || !strcmp(dot, ".cuh"))))
			continue;
		if (strncmp(e->file, real, rl) || (e->file[rl] != '/' && rl > 1))
			continue;
		char path[PATH_MAX];
		const char *rest = e->file + rl + (rl > 1);
		if (snprintf(path, sizeof(path), "%.*s/%s", (int)dl, dir, rest) >= (int)sizeof(path))
			continue;
		struct stat st;
		if (db_excluded(s, path, dl + 1) || stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		sm_paths_push(out, path);
		added++;
	}
	if (added && out->n - from > 1)
		qsort(out->v + from, out->n - from, sizeof(char *), walk_order);
	return added;
}

/* Expand, shard, find each file's config and drop what it excludes. */
int sm_session_collect_files(struct sm_session *s, const char *const *paths, size_t npaths, char *err, size_t errlen)
{
	struct sm_paths all = { 0 }, skipped = { 0 };
	bool *walked = NULL, *alone = NULL, walked_failed = false;
	size_t wcap = 0;
	unsigned flags = s->o.no_gitignore ? SM_WALK_NO_GITIGNORE : 0;
	for (size_t i = 0; i < npaths; i++) {
		size_t nskipped = skipped.n, from = all.n;
		int n = sm_expand_path_ex(paths[i], s->o.excludes, s->o.nexcludes, flags, &all, &skipped, err, errlen);
		struct stat st;
		bool dir = n >= 0 && stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode);
		if (dir)
			n += add_db_sources(s, paths[i], &all, from);
		if (n < 0) {
			sm_paths_push(&all, paths[i]); /* reported by the analyzer */
		} else if (n == 0 && skipped.n == nskipped) {
			snprintf(err, errlen, "no .cu or .cuh files under '%s'", paths[i]);
			run_error(s, SM_PROBLEM_NO_CUDA_FILES, err);
		}
		/* every entry, the ones just pushed included, says whether a
		 * directory walk found it */
		if (SM_ALLOC_GROW(walked, all.n + 1, wcap) == 0)
			for (size_t k = from; k < all.n; k++)
				walked[k] = dir;
		else
			walked_failed = true;
	}
	for (size_t i = 0; i < skipped.n; i++)
		run_error(s, SM_PROBLEM_CANNOT_WALK, skipped.v[i]);
	sm_paths_free(&skipped);
	alone = calloc(all.n + 1, sizeof(*alone));
	s->files = calloc(all.n + 1, sizeof(*s->files));
	if (!s->files || !alone || (all.n && !walked) || walked_failed) {
		snprintf(err, errlen, "out of memory");
		sm_paths_free(&all);
		free(walked);
		free(alone);
		return -1;
	}
	drop_duplicates(&all, walked);
	sm_session_plan_headers(s, &all, walked, alone);
	for (size_t i = 0; i < all.n; i++) {
		/* round robin over the expanded, sorted list: every shard sees
		 * the same list, so the shards partition it */
		bool mine = s->o.shard_n <= 1 || (long)(i % (size_t)s->o.shard_n) == s->o.shard_k - 1;
		const struct sm_config *c = s->o.config_path ? &s->fixed : NULL;
		if (mine && !s->o.config_path && sm_config_cache_lookup(&s->configs, all.v[i], &c, err, errlen)) {
			for (size_t k = i; k < all.n; k++)
				free(all.v[k]);
			free(all.v);
			free(walked);
			free(alone);
			return -1;
		}
		if (!mine || (c && sm_config_excluded(c, all.v[i]))) {
			free(all.v[i]);
			continue;
		}
		struct sm_file_job *f = &s->files[s->nfiles++];
		f->path = all.v[i];
		f->cfg = c;
		sm_session_file_options(s, f->path, c, &f->opt, &f->args);
		f->opt.header_alone = alone[i];
		s->any_header_re |= f->opt.fe.header_filter != NULL;
		flags_problem(s, f);
	}
	free(all.v);
	free(walked);
	free(alone);
	warn_ignored_configs(s);
	return 0;
}

