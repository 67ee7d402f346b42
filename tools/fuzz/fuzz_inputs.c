/* fuzz_inputs.c - libFuzzer target: the files a checkout controls other
 * than its sources (issue 24: a pull request may hold any of them), each
 * read by the reader the command uses:
 *   kind 0  .smemlint.yaml              sm_config_load, then its globs
 *   kind 1  compile_commands.json       sm_compdb_load and a lookup; the
 *           same bytes are also the response file fuzz.rsp, which a
 *           command in it may name (@fuzz.rsp, --options-file fuzz.rsp)
 *   kind 2  a baseline                  sm_baseline_load
 *   kind 3  a header-filter pattern     sm_config_compile_filter, matched
 *   kind 4  a compile command's words   sm_compile_flags_translate
 *           (split at newlines; what a database entry's "arguments" holds)
 * The first byte picks the kind (modulo 5), the rest is the file. Files
 * are written into one private folder made at start and removed at exit.
 * Inline suppressions live in sources: fuzz_smemlint.c feeds those.
 *
 * Build with fuzz_smemlint (-DSMEMLINT_FUZZ=ON, clang, sanitizers); run
 * as tools/reliability.sh fuzz does: build-asan/fuzz_inputs DIR SEEDS. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "driver/config.h"
#include "driver/report.h"
#include "front/compdb.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* larger inputs are the readers' caps' business (tested in hostile.*), not
 * the fuzzer's: keep one input fast under the sanitizers */
#define FUZZ_MAX_INPUT (1u << 20)

static char dir[64];

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(p);
}

static void cleanup(void)
{
	if (dir[0])
		nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s/smfuzz-XXXXXX", tmp && strlen(tmp) < 40 ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("fuzz_inputs: mkdtemp");
		exit(1);
	}
	atexit(cleanup);
	return 0;
}

static int put(const char *name, const uint8_t *data, size_t size, char *path, size_t n)
{
	snprintf(path, n, "%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	size_t off = 0;
	while (off < size) {
		ssize_t w = write(fd, data + off, size - off);
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	close(fd);
	return off == size ? 0 : -1;
}

static char *cstr(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (s) {
		memcpy(s, data, size);
		s[size] = 0;
	}
	return s;
}

static void config(const uint8_t *data, size_t size)
{
	char path[128], err[512];
	if (put(".smemlint.yaml", data, size, path, sizeof(path)))
		return;
	struct sm_config c;
	sm_config_init(&c);
	if (sm_config_load(path, &c, err, sizeof(err)) == 0) {
		(void)sm_config_excluded(&c, "src/kernels/a.cu");
		(void)sm_config_excluded(&c, "third_party/x/b.cuh");
	}
	sm_config_free(&c);
}

static void compdb(const uint8_t *data, size_t size)
{
	char path[128], err[512];
	if (put("compile_commands.json", data, size, path, sizeof(path)) ||
	    put("fuzz.rsp", data, size, path, sizeof(path)))
		return;
	struct sm_compdb db = { 0 };
	if (sm_compdb_load(dir, &db, err, sizeof(err)) == 0) {
		snprintf(path, sizeof(path), "%s/a.cu", dir);
		(void)sm_compdb_find(&db, path);
	}
	sm_compdb_free(&db);
}

static void baseline(const uint8_t *data, size_t size)
{
	char path[128], err[512];
	if (put("baseline.json", data, size, path, sizeof(path)))
		return;
	struct sm_baseline b = { 0 };
	(void)sm_baseline_load(path, &b, err, sizeof(err));
	sm_baseline_free(&b);
}

static void header_filter(const uint8_t *data, size_t size)
{
	char *src = cstr(data, size), why[256];
	regex_t re;
	if (src && sm_config_compile_filter(src, &re, why, sizeof(why)) == 0) {
		static const char *const headers[] = { "/src/kernels/tile.cuh", "/usr/local/cuda/include/cub/cub.cuh",
						       "include/a/b/c/d/e/f.h", "" };
		for (size_t i = 0; i < sizeof(headers) / sizeof(headers[0]); i++)
			(void)regexec(&re, headers[i], 0, NULL, 0);
		regfree(&re);
	}
	free(src);
}

static void command(const uint8_t *data, size_t size)
{
	char *s = cstr(data, size);
	if (!s)
		return;
	size_t n = 2;
	for (size_t i = 0; i < size; i++)
		n += s[i] == '\n';
	const char **argv = calloc(n, sizeof(*argv));
	int argc = 0;
	if (argv) {
		argv[argc++] = "nvcc";
		for (char *save = NULL, *w = strtok_r(s, "\n", &save); w; w = strtok_r(NULL, "\n", &save))
			argv[argc++] = w;
		struct sm_compile_flags f;
		memset(&f, 0, sizeof(f));
		(void)sm_compile_flags_translate(argv, argc, dir, &f);
		sm_compile_flags_free(&f);
	}
	free(argv);
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	void (*const kinds[])(const uint8_t *, size_t) = { config, compdb, baseline, header_filter, command };
	kinds[data[0] % (sizeof(kinds) / sizeof(kinds[0]))](data + 1, size - 1);
	return 0;
}
