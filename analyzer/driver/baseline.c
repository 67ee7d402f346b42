/* baseline.c - --write-baseline and --baseline (see report.h). A baseline
 * is input: a regular file (never a FIFO), an optional UTF-8 byte-order
 * mark, version exactly the integer 1, fingerprints exactly 16 hex digits;
 * anything else is an error naming the file. */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver/report.h"
#include "base/fsutil.h"
#include "base/limits.h"
#include "rules/rules.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int sm_baseline_load(const char *path, struct sm_baseline *b, char *err, size_t errlen)
{
	memset(b, 0, sizeof(*b));
	/* a regular file, read without blocking (never a FIFO's wait) */
	struct stat st;
	int fd = sm_open_regular(path, &st);
	if (fd == -2) {
		snprintf(err, errlen, "cannot read baseline '%s': it is %s, not a regular file", path, sm_file_kind(st.st_mode));
		return -1;
	}
	char *text = NULL;
	size_t len = 0;
	int rc = fd < 0 ? -1 : sm_read_fd(fd, SM_MAX_BASELINE_BYTES, &text, &len);
	int e = errno;
	if (fd >= 0)
		close(fd);
	if (rc) {
		snprintf(err, errlen, "cannot read baseline '%s': %s", path,
			 rc == -2 ? "it is larger than 256 MiB" : strerror(e));
		return -1;
	}
	/* a UTF-8 byte-order mark (some editors add one) is not JSON */
	size_t skip = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
	json_error_t je;
	json_t *root = json_loadb(text + skip, len - skip, 0, &je);
	free(text);
	if (!root) {
		snprintf(err, errlen, "cannot read baseline '%s': %s (line %d)", path, je.text, je.line);
		return -1;
	}
	json_t *arr = json_object_get(root, "findings");
	json_t *version = json_object_get(root, "version");
	if (!json_is_object(root) || !json_is_integer(version) || json_integer_value(version) != 1 || !json_is_array(arr)) {
		snprintf(err, errlen, "invalid baseline '%s': expected {\"version\": 1, \"findings\": [...]}", path);
		json_decref(root);
		return -1;
	}
	size_t n = json_array_size(arr);
	b->fp = calloc(n + 1, sizeof(*b->fp));
	if (!b->fp) {
		snprintf(err, errlen, "out of memory reading baseline '%s'", path);
		json_decref(root);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const char *s = json_string_value(json_object_get(json_array_get(arr, i), "fingerprint"));
		/* exactly 16 hex digits: strtoull alone takes " -1", "+0x..." */
		bool hex = s && strlen(s) == 16 && strspn(s, "0123456789abcdefABCDEF") == 16;
		if (hex)
			b->fp[b->n] = strtoull(s, NULL, 16);
		if (!hex) {
			snprintf(err, errlen, "invalid baseline '%s': finding %zu has no 16-digit hex \"fingerprint\"", path,
				 i);
			json_decref(root);
			sm_baseline_free(b);
			return -1;
		}
		b->n++;
	}
	qsort(b->fp, b->n, sizeof(*b->fp), cmp_u64);
	json_decref(root);
	return 0;
}

void sm_baseline_free(struct sm_baseline *b)
{
	free(b->fp);
	memset(b, 0, sizeof(*b));
}

struct bl_ctx {
	struct sm_result *const *res;
	unsigned n;
};

static int write_bl(FILE *f, void *ctx)
{
	struct bl_ctx *c = ctx;
	json_t *root = json_object(), *arr = json_array();
	json_object_set_new(root, "version", json_integer(1));
	json_object_set_new(root, "tool", json_string("smemlint"));
	for (unsigned i = 0; i < c->n; i++) {
		const struct sm_result *r = c->res[i];
		uint64_t *fp = calloc(r->ndiags + 1, sizeof(*fp));
		if (!fp) {
			json_decref(root);
			json_decref(arr);
			return -1;
		}
		sm_result_fingerprints(r, fp);
		char rpath[PATH_MAX], hex[17];
		sm_report_path(r->path, rpath, sizeof(rpath));
		for (unsigned k = 0; k < r->ndiags; k++) {
			json_t *o = json_object();
			sm_fingerprint_hex(fp[k], hex);
			json_object_set_new(o, "fingerprint", json_string(hex));
			json_object_set_new(o, "rule", json_string(sm_rules[r->diags[k].rule].id));
			json_object_set_new(o, "file", json_string(rpath));
			json_object_set_new(o, "line", json_integer(r->diags[k].range.begin.line));
			json_object_set_new(o, "message", json_string(r->diags[k].message));
			json_array_append_new(arr, o);
		}
		free(fp);
	}
	json_object_set_new(root, "findings", arr);
	int rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', f);
	json_decref(root);
	return rc || ferror(f) ? -1 : 0;
}

int sm_baseline_write(const char *path, const struct sm_write_faults *faults, struct sm_result *const *res, unsigned n,
		      char *err, size_t errlen)
{
	struct bl_ctx c = { res, n };
	struct sm_write_opts wo = { .faults = faults };
	return sm_write_file(path, write_bl, &c, &wo, err, errlen);
}

unsigned sm_result_filter_baseline(struct sm_result *r, const struct sm_baseline *b)
{
	if (!r->ndiags || !b->n)
		return 0;
	uint64_t *fp = calloc(r->ndiags, sizeof(*fp));
	if (!fp)
		return 0;
	sm_result_fingerprints(r, fp);
	unsigned kept = 0, removed = 0;
	for (unsigned i = 0; i < r->ndiags; i++) {
		if (bsearch(&fp[i], b->fp, b->n, sizeof(*b->fp), cmp_u64))
			removed++;
		else
			r->diags[kept++] = r->diags[i];
	}
	r->ndiags = kept;
	free(fp);
	return removed;
}
