/* fuzz_smemlint.c - libFuzzer target: the whole per-file pipeline on an
 * in-memory source (front end, resolver, bank engine, every rule, the fix
 * search, both emitters).
 *
 * Build: cmake -S . -B build-asan -DCMAKE_C_COMPILER=clang-22 \
 *          -DSMEMLINT_SANITIZE=ON -DSMEMLINT_FUZZ=ON && cmake --build build-asan
 * Run:   build-asan/fuzz_smemlint -dict=tools/fuzz/cuda.dict FUZZ-DIR corpus/
 *
 * Besides memory errors and undefined behaviour (the sanitizers), it checks
 * what "never lose a line" means for one file: every finding and every
 * notification reaches the JSON document, which must parse back. */
#include <jansson.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "emit/emit.h"
#include "smemlint/session.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The lowest arena limit keeps one input well under libFuzzer's -rss_limit_mb
 * while still exercising the "results are partial" path. */
#define FUZZ_ARENA_LIMIT ((size_t)256 << 20)

/* A work budget below the corpus's costliest file (idiom_sortnet.cu visits
 * 43 million nodes): such an input takes the "budget exceeded, results
 * partial" path, which the fuzzer should reach, and no input runs near
 * libFuzzer's -timeout in the instrumented build (about 160 ns a node
 * under ASan and UBSan, 15 times the release build). Before it, a CI
 * runner timed out on a mutation at 10 s; with it the slowest seed takes
 * 4.8 s there (idiom_sortnet.cu, measured on this project's 2-core box). */
#define FUZZ_ANALYSIS_BUDGET 20000000ull

static void check_json(const struct sm_result *r, const char *doc, size_t len)
{
	json_error_t je;
	json_t *root = json_loadb(doc, len, 0, &je);
	if (!root) {
		fprintf(stderr, "fuzz: JSON output does not parse: %s\n", je.text);
		abort();
	}
	json_t *res = json_object_get(root, "results"), *notes = json_object_get(root, "notifications");
	if (json_array_size(res) != r->ndiags || json_array_size(notes) != r->nnotes) {
		fprintf(stderr, "fuzz: %u findings and %u notifications, JSON has %zu and %zu\n", r->ndiags, r->nnotes,
			json_array_size(res), json_array_size(notes));
		abort();
	}
	size_t i;
	json_t *v;
	json_array_foreach(res, i, v) {
		if (!json_is_string(json_object_get(v, "file")) || !json_is_string(json_object_get(v, "message"))) {
			fprintf(stderr, "fuzz: finding %zu lost its file or message\n", i);
			abort();
		}
	}
	json_array_foreach(notes, i, v) {
		if (!json_is_string(json_object_get(v, "file")) || !json_is_string(json_object_get(v, "message"))) {
			fprintf(stderr, "fuzz: notification %zu lost its file or message\n", i);
			abort();
		}
	}
	json_decref(root);
}

/* libclang installs its own alternate signal stack on the thread that
 * parses; ASan must not install (and later unmap) one of its own. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "use_sigaltstack=0";
}

/* As the command does: the session's process preconditions (libclang
 * parses on the calling thread, and that thread has a large stack). */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	sm_session_process_init();
	return 0;
}

struct input {
	const uint8_t *data;
	size_t size;
};

static void *run_one(void *arg)
{
	const struct input *in = arg;
	const uint8_t *data = in->data;
	size_t size = in->size;
	struct sm_session *s = sm_session_new();
	if (!s)
		return NULL;
	struct sm_session_options *so = sm_session_options(s);
	so->analysis.all_accesses = true;
	so->analysis.ir_arena_limit = FUZZ_ARENA_LIMIT;
	so->analysis.analysis_budget = FUZZ_ANALYSIS_BUDGET;
	struct sm_result r;
	sm_session_analyze_buffer(s, "fuzz.cu", (const char *)data, size, &r);

	struct sm_result *rp[1] = { &r };
	struct sm_emit_options eo = { .show_banks = true, .all_accesses = true };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (f) {
		sm_emit_text(f, rp, 1, &eo);
		fclose(f);
	}
	free(buf);
	buf = NULL;
	len = 0;
	f = open_memstream(&buf, &len);
	if (f) {
		int rc = sm_emit_json(f, rp, 1, &eo);
		fclose(f);
		if (rc == 0)
			check_json(&r, buf, len);
	}
	free(buf);
	sm_result_free(&r);
	sm_session_free(s);
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > SM_MAX_FILE_BYTES)
		return 0;
	struct input in = { data, size };
	pthread_attr_t attr;
	pthread_t th;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, SM_WORKER_STACK);
	if (pthread_create(&th, &attr, run_one, &in) == 0)
		pthread_join(th, NULL);
	else
		run_one(&in);
	pthread_attr_destroy(&attr);
	return 0;
}
