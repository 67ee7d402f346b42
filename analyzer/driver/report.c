/* report.c - report paths, URI escaping, UTF-16 columns and fingerprints
 * (see report.h). */
#define _GNU_SOURCE
#include "driver/report.h"
#include "base/text.h"
#include "rules/rules.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


void sm_report_path(const char *path, char *out, size_t n)
{
	char cwd[PATH_MAX], real[PATH_MAX];
	const char *p = path;
	if (path[0] == '/') {
		/* absolute: relative to the current directory if under it */
		if (getcwd(cwd, sizeof(cwd))) {
			size_t l = strlen(cwd);
			const char *cand = path;
			if (!(strncmp(cand, cwd, l) == 0 && cand[l] == '/') && realpath(path, real))
				cand = real;
			if (strncmp(cand, cwd, l) == 0 && cand[l] == '/') {
				snprintf(out, n, "%s", cand + l + 1);
				return;
			}
		}
		snprintf(out, n, "%s", path);
		return;
	}
	while (p[0] == '.' && p[1] == '/') {
		p += 2;
		while (*p == '/')
			p++;
	}
	if (!strncmp(p, "../", 3) && realpath(path, real) && getcwd(cwd, sizeof(cwd))) {
		size_t l = strlen(cwd);
		if (strncmp(real, cwd, l) == 0 && real[l] == '/')
			p = real + l + 1;
		else
			p = real;
	}
	snprintf(out, n, "%s", p);
}

void sm_uri_escape(const char *path, char *out, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;
	if (!n)
		return;
	for (const unsigned char *p = (const unsigned char *)path; *p && o + 4 < n; p++) {
		unsigned char c = *p;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
		    c == '.' || c == '_' || c == '~' || c == '/') {
			out[o++] = (char)c;
		} else {
			out[o++] = '%';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		}
	}
	out[o] = 0;
}

/* UTF-16 code units of the UTF-8 bytes s[0..n). */
static unsigned utf16_units(const unsigned char *s, size_t n)
{
	unsigned u = 0;
	size_t i = 0;
	while (i < n) {
		unsigned char c = s[i];
		size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
		int ok = len > 0 && i + len <= n;
		for (size_t k = 1; ok && k < len; k++)
			ok = (s[i + k] & 0xC0) == 0x80;
		if (!ok) {
			u++; /* an invalid byte: one unit (as U+FFFD) */
			i++;
			continue;
		}
		u += len == 4 ? 2 : 1;
		i += len;
	}
	return u;
}

unsigned sm_utf16_col(const struct sm_result *r, unsigned line, unsigned col)
{
	size_t len;
	const char *s = sm_result_line(r, line, &len);
	if (!s || col == 0)
		return col;
	size_t b = col - 1;
	if (b <= len)
		return utf16_units((const unsigned char *)s, b) + 1;
	return utf16_units((const unsigned char *)s, len) + 1 + (unsigned)(b - len);
}

/* ---- fingerprints ---- */


static uint64_t base_hash(const struct sm_result *r, const struct sm_diag *d, const char *rpath)
{
	uint64_t h = SM_FNV_OFFSET;
	h = sm_fnv_str(h, "smemlint/v1");
	h = sm_fnv_str(h, sm_rules[d->rule].id);
	h = sm_fnv_str(h, rpath);
	h = sm_fnv_str(h, d->kernel);
	h = sm_fnv_str(h, d->array);
	size_t len;
	const char *s = sm_result_line(r, d->range.begin.line, &len);
	/* the line with white space collapsed and trimmed */
	int space = 0, any = 0;
	for (size_t i = 0; s && i < len; i++) {
		char c = s[i];
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			space = 1;
			continue;
		}
		if (space && any)
			h = sm_fnv(h, " ", 1);
		space = 0;
		any = 1;
		h = sm_fnv(h, &c, 1);
	}
	return sm_fnv(h, "\0", 1);
}

void sm_project_path(const char *path, char *out, size_t n)
{
	char real[PATH_MAX], probe[PATH_MAX + 32];
	if (realpath(path, real)) {
		/* the nearest directory above with .git or .smemlint.yaml: the
		 * directory is real[0..len) */
		for (size_t len = strlen(real); len > 0;) {
			while (len > 0 && real[len - 1] != '/')
				len--;
			if (len <= 1)
				break; /* the file system's root is no project's */
			len--; /* drop the '/' */
			struct stat st;
			snprintf(probe, sizeof(probe), "%.*s/.git", (int)len, real);
			int root = lstat(probe, &st) == 0;
			if (!root) {
				snprintf(probe, sizeof(probe), "%.*s/.smemlint.yaml", (int)len, real);
				root = lstat(probe, &st) == 0;
			}
			if (root) {
				snprintf(out, n, "%s", real + len + 1);
				return;
			}
		}
	}
	sm_report_path(path, out, n);
}

void sm_result_fingerprints(const struct sm_result *r, uint64_t *out)
{
	char rpath[PATH_MAX];
	sm_project_path(r->path, rpath, sizeof(rpath));
	for (unsigned i = 0; i < r->ndiags; i++)
		out[i] = base_hash(r, &r->diags[i], rpath);
	/* then mix in the rank among earlier findings with the same base hash,
	 * from the last to the first so that out[k < i] still hold bases */
	for (unsigned i = r->ndiags; i-- > 0;) {
		uint64_t rank = 0;
		for (unsigned k = 0; k < i; k++)
			if (out[k] == out[i])
				rank++;
		out[i] = sm_fnv(out[i], &rank, sizeof(rank));
	}
}

void sm_fingerprint_hex(uint64_t fp, char out[17])
{
	snprintf(out, 17, "%016llx", (unsigned long long)fp);
}
