/* config.c - .smemlint.yaml with libyaml, and the rule-choice setters the
 * command line shares with it (see config.h).
 *
 * A config is input like any other, and the nearest one is read without
 * being named, so a pull request or another user can plant one: it must be
 * a regular file (never a FIFO, read without blocking) of at most
 * SM_CONFIG_MAX_BYTES, with at most SM_CONFIG_MAX_ALIASES aliases and
 * settings that expand to at most SM_CONFIG_MAX_EXPANDED bytes, and one
 * found by walking up is used only when its owner and directory are safe
 * (config_trusted; as git's safe.directory). */
#define _GNU_SOURCE
#include "driver/config.h"
#include "driver/regex_guard.h"
#include "base/arch.h"
#include "base/fsutil.h"
#include "base/grow.h"

#include "base/limits.h"
#include "rules/rules.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

void sm_config_init(struct sm_config *c)
{
	memset(c, 0, sizeof(*c));
	for (int i = 0; i < SM_RULE__COUNT; i++)
		c->on[i] = -1;
	c->report_unused = -1;
	c->fail_missing = -1;
}

void sm_config_free(struct sm_config *c)
{
	free(c->path);
	free(c->dir);
	free(c->arch);
	sm_paths_free(&c->exclude);
	sm_paths_free(&c->flags);
	free(c->header_filter);
	if (c->have_header_re)
		regfree(&c->header_re);
	memset(c, 0, sizeof(*c));
}

int sm_config_compile_filter(const char *src, regex_t *re, char *why, size_t n)
{
	/* a checkout's pattern: refused before regcomp when it could take
	 * unbounded memory or time */
	if (sm_regex_guard(src, why, n) != 0)
		return -1;
	int rc = regcomp(re, src, REG_EXTENDED | REG_NOSUB);
	if (!rc)
		return 0;
	regerror(rc, re, why, n);
	regfree(re); /* glibc keeps nothing after a failure; others may */
	return -1;
}

int sm_config_parse_budget(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	if (!s || s[0] < '0' || s[0] > '9') /* no sign, no space */
		return -1;
	unsigned long long n = strtoull(s, &end, 10);
	if (errno || *end || end == s)
		return -1;
	*out = n ? (uint64_t)n : UINT64_MAX;
	return 0;
}

int sm_config_parse_level(const char *s, enum sm_level *out)
{
	static const struct { const char *name; enum sm_level l; } t[] = {
		{ "error", SM_LEVEL_ERROR }, { "warning", SM_LEVEL_WARNING }, { "note", SM_LEVEL_NOTE },
		{ "assumed", SM_LEVEL_ASSUMED },
		{ "none", SM_LEVEL_NONE }, { "off", SM_LEVEL_NONE },
	};
	for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(s, t[i].name)) {
			*out = t[i].l;
			return 0;
		}
	return -1;
}

_Static_assert(SM_MAX_BLOCK_THREADS == 1024, "the block-dim messages say 1024 threads");

int sm_config_parse_block(const char *s, struct sm_dim3 *d)
{
	long long v[3] = { 1, 1, 1 };
	int n = 0;
	const char *p = s;
	while (*p && n < 3) {
		while (*p == ' ')
			p++;
		char *end;
		errno = 0;
		long long x = strtoll(p, &end, 10);
		if (end == p || errno || x <= 0 || x > SM_MAX_BLOCK_THREADS)
			return -1;
		v[n++] = x;
		p = end;
		while (*p == ' ')
			p++;
		if (*p == ',' || *p == 'x')
			p++;
		else if (*p)
			return -1;
	}
	if (*p || n == 0 || v[0] * v[1] * v[2] > SM_MAX_BLOCK_THREADS)
		return -1;
	d->x = v[0];
	d->y = v[1];
	d->z = v[2];
	return 0;
}

int sm_config_rules(struct sm_config *c, const char *list, bool enable, char *err, size_t errlen)
{
	char *copy = strdup(list), *save = NULL;
	if (!copy)
		return -1;
	int rc = 0;
	for (char *t = strtok_r(copy, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
		int r = sm_rule_find(t);
		if (r < 0) {
			snprintf(err, errlen, "unknown rule '%s' (see --list-rules)", t);
			rc = -1;
			break;
		}
		c->on[r] = enable ? 1 : 0;
	}
	free(copy);
	return rc;
}

int sm_config_severity(struct sm_config *c, const char *spec, char *err, size_t errlen)
{
	char *copy = strdup(spec), *save = NULL;
	if (!copy)
		return -1;
	int rc = 0;
	for (char *t = strtok_r(copy, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
		char *eq = strchr(t, '=');
		enum sm_level l;
		if (!eq) {
			snprintf(err, errlen, "invalid severity '%s': expected RULE=LEVEL (error, warning, note, assumed, none)", t);
			rc = -1;
			break;
		}
		*eq = 0;
		int r = sm_rule_find(t);
		if (r < 0) {
			snprintf(err, errlen, "unknown rule '%s' (see --list-rules)", t);
			rc = -1;
			break;
		}
		if (sm_config_parse_level(eq + 1, &l)) {
			snprintf(err, errlen, "invalid level '%s' for rule '%s': expected error, warning, note, assumed or none",
				 eq + 1, t);
			rc = -1;
			break;
		}
		c->levels[r] = l;
		c->level_set[r] = true;
		c->on[r] = -1; /* the later setting wins */
	}
	free(copy);
	return rc;
}

void sm_config_apply(const struct sm_config *c, struct sm_analysis_options *o)
{
	for (int r = 0; r < SM_RULE__COUNT; r++) {
		if (c->level_set[r])
			o->levels[r] = c->levels[r];
		if (c->on[r] == 0)
			o->levels[r] = SM_LEVEL_NONE;
		else if (c->on[r] == 1 && o->levels[r] == SM_LEVEL_NONE)
			o->levels[r] = c->level_set[r] && c->levels[r] != SM_LEVEL_NONE ? c->levels[r] : sm_rules[r].level;
	}
	if (c->has_block) {
		o->block = c->block;
		o->has_block = true;
		o->block_config = c->path; /* NULL: the command line's */
	}
	if (c->arch) {
		o->arch = c->arch;
		o->fe.gpu_arch = c->arch;
	}
}

bool sm_config_excluded(const struct sm_config *c, const char *file)
{
	if (!c->exclude.n)
		return false;
	char real[PATH_MAX];
	const char *rel = file;
	if (c->dir && realpath(file, real)) {
		size_t l = strlen(c->dir);
		if (!strncmp(real, c->dir, l) && real[l] == '/')
			rel = real + l + 1;
	}
	const char *base = strrchr(rel, '/');
	base = base ? base + 1 : rel;
	char prefix[PATH_MAX];
	for (size_t i = 0; i < c->exclude.n; i++) {
		const char *g = c->exclude.v[i];
		bool has_slash = strchr(g, '/') != NULL;
		if (!fnmatch(g, rel, 0) || !fnmatch(g, base, 0))
			return true;
		/* a leading directory: "a/b" for a glob with a slash, any
		 * directory name for one without (as .gitignore) */
		const char *start = rel;
		for (const char *s = strchr(rel, '/'); s; s = strchr(s + 1, '/')) {
			size_t l = (size_t)(s - rel);
			if (l >= sizeof(prefix))
				break;
			memcpy(prefix, rel, l);
			prefix[l] = 0;
			if (!fnmatch(g, has_slash ? prefix : prefix + (start - rel), 0))
				return true;
			start = s + 1;
		}
	}
	return false;
}

/* ---- reading ---- */

struct reader {
	const char *path;
	yaml_document_t *doc;
	struct sm_config *c;
	char *err;
	size_t errlen;
	size_t expanded;  /* bytes of strings taken so far (aliases count each time) */
};

static int fail(struct reader *R, const yaml_node_t *n, const char *fmt, const char *arg)
{
	char msg[512];
	snprintf(msg, sizeof(msg), fmt, arg ? arg : "");
	snprintf(R->err, R->errlen, "invalid config '%s': line %lu: %s", R->path,
		 n ? (unsigned long)n->start_mark.line + 1 : 0ul, msg);
	return -1;
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* A list of scalars, or one scalar (split at commas when split). */
static int each_string(struct reader *R, yaml_node_t *n, const char *key, int (*fn)(struct reader *, yaml_node_t *, const char *))
{
	if (n->type == YAML_SCALAR_NODE)
		return fn(R, n, scalar(n));
	if (n->type != YAML_SEQUENCE_NODE)
		return fail(R, n, "'%s' must be a list", key);
	for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
		yaml_node_t *x = yaml_document_get_node(R->doc, *it);
		if (!scalar(x))
			return fail(R, x, "'%s' must be a list of strings", key);
		/* aliases repeat a string without repeating its bytes: bound
		 * what the settings take, not only the file */
		R->expanded += strlen(scalar(x)) + 1;
		if (R->expanded > SM_CONFIG_MAX_EXPANDED) {
			char lim[24];
			snprintf(lim, sizeof(lim), "%u", SM_CONFIG_MAX_EXPANDED);
			return fail(R, x, "the settings expand to more than %s bytes (through aliases?)", lim);
		}
		if (fn(R, x, scalar(x)))
			return -1;
	}
	return 0;
}

static int add_enable(struct reader *R, yaml_node_t *n, const char *s)
{
	char e[256];
	return sm_config_rules(R->c, s, true, e, sizeof(e)) ? fail(R, n, "%s", e) : 0;
}

static int add_disable(struct reader *R, yaml_node_t *n, const char *s)
{
	char e[256];
	return sm_config_rules(R->c, s, false, e, sizeof(e)) ? fail(R, n, "%s", e) : 0;
}

static int add_exclude(struct reader *R, yaml_node_t *n, const char *s)
{
	size_t before = R->c->exclude.n;
	sm_paths_push(&R->c->exclude, s);
	return R->c->exclude.n == before ? fail(R, n, "out of memory", NULL) : 0;
}

/* Compiler flags a checkout's config may give (issue 24): it may be
 * hostile, so only flags that change what is parsed, never what is
 * written or run (-MD -MF, -MJ, -Xclang -dependency-dot, plugins, module
 * caches and profiles write files). Those with a value in the next item. */
static const char *const flag_with_value[] = { "-I", "-isystem", "-iquote", "-idirafter", "-D", "-U", "-include", "-x",
					       NULL };
static const char *const flag_prefix_ok[] = { "-I", "-isystem", "-iquote", "-idirafter", "-D", "-U", "-std=", "--std=",
					      "--cuda-gpu-arch=", "-O", "-w", "-W", "-f", "-m", NULL };
static const char *const flag_prefix_bad[] = { "-Wl,", "-Wa,", "-Wp,", "-fmodule", "-fcrash", "-fprofile", "-fplugin",
					       "-fpass-plugin", "-fsave", "-ftime-trace", "-fdump", "-fdebug-", "-fcoverage",
					       "-fembed", "-frecord", "-fsanitize", "-fxray", "-fmacro-prefix",
					       "-ffile-prefix", "-fdiagnostics-", "-foptimization-record", "-mllvm", NULL };
static const char *const flag_exact_ok[] = { "-nocudainc", "-nocudalib", "-pthread", "-fexceptions", "-fno-exceptions",
					     NULL };

static bool in_list(const char *s, const char *const *v, bool prefix)
{
	for (int i = 0; v[i]; i++)
		if (prefix ? !strncmp(s, v[i], strlen(v[i])) : !strcmp(s, v[i]))
			return true;
	return false;
}

/* s may stand in a config's flags after prev (NULL: the first). */
static bool flag_allowed(const char *prev, const char *s)
{
	if (prev && in_list(prev, flag_with_value, false))
		return strcmp(prev, "-x") || !strcmp(s, "cuda") || !strcmp(s, "cu");
	if (in_list(s, flag_exact_ok, false) || in_list(s, flag_with_value, false))
		return true;
	if (!in_list(s, flag_prefix_ok, true) || in_list(s, flag_prefix_bad, true))
		return false;
	/* -f and -m options: plain switches, and the few limits with a value */
	if ((!strncmp(s, "-f", 2) || !strncmp(s, "-m", 2)) && strchr(s, '='))
		return !strncmp(s, "-ftemplate-depth=", 17) || !strncmp(s, "-fconstexpr-depth=", 18) ||
		       !strncmp(s, "-fconstexpr-steps=", 18) || !strncmp(s, "-fbracket-depth=", 16);
	return true;
}

static int add_flag(struct reader *R, yaml_node_t *n, const char *s)
{
	struct sm_paths *f = &R->c->flags;
	const char *prev = f->n ? f->v[f->n - 1] : NULL;
	if (!flag_allowed(prev, s))
		return fail(R, n,
			    "flag '%s' is not allowed in a config's flags: a checkout's config may only give flags that "
			    "change what is parsed (-I, -isystem, -iquote, -idirafter, -D, -U, -include, -std=, -W, "
			    "-O, plain -f/-m switches, -x cuda); give it after -- on the command line instead",
			    s);
	char buf[PATH_MAX * 2];
	/* relative include directories are against the config's directory */
	if (prev && (!strcmp(prev, "-I") || !strcmp(prev, "-isystem")) && s[0] != '/') {
		snprintf(buf, sizeof(buf), "%s/%s", R->c->dir, s);
		s = buf;
	} else if (!strncmp(s, "-I", 2) && s[2] && s[2] != '/') {
		snprintf(buf, sizeof(buf), "-I%s/%s", R->c->dir, s + 2);
		s = buf;
	} else if (!strncmp(s, "-isystem", 8) && s[8] && s[8] != '/') {
		snprintf(buf, sizeof(buf), "-isystem%s/%s", R->c->dir, s + 8);
		s = buf;
	}
	size_t before = f->n;
	sm_paths_push(f, s);
	return f->n == before ? fail(R, n, "out of memory", NULL) : 0;
}

static int read_block(struct reader *R, yaml_node_t *v)
{
	char buf[64] = "";
	if (v->type == YAML_SCALAR_NODE) {
		snprintf(buf, sizeof(buf), "%s", scalar(v));
	} else if (v->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
			const char *s = scalar(yaml_document_get_node(R->doc, *it));
			if (!s)
				return fail(R, v, "'block-dim' must be a list of numbers", NULL);
			size_t l = strlen(buf);
			snprintf(buf + l, sizeof(buf) - l, "%s%s", l ? "," : "", s);
		}
	}
	if (sm_config_parse_block(buf, &R->c->block))
		return fail(R, v, "invalid block-dim '%s': expected [X, Y, Z] with at most 1024 threads", buf);
	R->c->has_block = true;
	return 0;
}

/* header-filter: a POSIX extended regex on a header's absolute path, as
 * --header-filter; "" (or an unquoted ~ or null) turns header analysis off for
 * the files this config covers. */
static int read_header_filter(struct reader *R, yaml_node_t *v)
{
	const char *re = scalar(v);
	if (!re)
		return fail(R, v, "'header-filter' must be a string (a regular expression; '' for none)", NULL);
	if (v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && (!strcmp(re, "~") || !strcmp(re, "null")))
		re = ""; /* YAML's null, unquoted */
	struct sm_config *c = R->c;
	if (c->have_header_re)
		regfree(&c->header_re);
	c->have_header_re = false;
	free(c->header_filter);
	c->header_filter = strdup(re);
	if (!c->header_filter)
		return fail(R, v, "out of memory", NULL);
	if (!*re)
		return 0;
	char why[256], msg[512];
	if (sm_config_compile_filter(re, &c->header_re, why, sizeof(why))) {
		snprintf(msg, sizeof(msg), "invalid header-filter '%.200s': %s", re, why);
		return fail(R, v, "%s", msg);
	}
	c->have_header_re = true;
	return 0;
}

static int read_root(struct reader *R, yaml_node_t *root)
{
	if (!root)
		return 0; /* an empty file */
	if (root->type == YAML_SCALAR_NODE && !*scalar(root))
		return 0;
	if (root->type != YAML_MAPPING_NODE)
		return fail(R, root, "expected a mapping of settings at the top", NULL);
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(R->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(R->doc, p->value);
		const char *key = scalar(k);
		if (!key)
			return fail(R, k, "keys must be strings", NULL);
		if (!strcmp(key, "rules")) {
			if (v->type != YAML_MAPPING_NODE)
				return fail(R, v, "'rules' must map rule names to levels", NULL);
			for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
				yaml_node_t *rk = yaml_document_get_node(R->doc, q->key);
				yaml_node_t *rv = yaml_document_get_node(R->doc, q->value);
				const char *rn = scalar(rk), *lv = scalar(rv);
				int r = rn ? sm_rule_find(rn) : -1;
				enum sm_level l;
				if (r < 0)
					return fail(R, rk, "unknown rule '%s' (see --list-rules)", rn);
				if (!lv || sm_config_parse_level(lv, &l))
					return fail(R, rv, "invalid level '%s': expected error, warning, note, assumed or none", lv);
				R->c->levels[r] = l;
				R->c->level_set[r] = true;
			}
		} else if (!strcmp(key, "enable")) {
			if (each_string(R, v, key, add_enable))
				return -1;
		} else if (!strcmp(key, "disable")) {
			if (each_string(R, v, key, add_disable))
				return -1;
		} else if (!strcmp(key, "exclude")) {
			if (each_string(R, v, key, add_exclude))
				return -1;
		} else if (!strcmp(key, "flags")) {
			if (v->type == YAML_SCALAR_NODE)
				return fail(R, v, "'flags' must be a list of strings", NULL);
			if (each_string(R, v, key, add_flag))
				return -1;
		} else if (!strcmp(key, "block-dim")) {
			if (read_block(R, v))
				return -1;
		} else if (!strcmp(key, "arch")) {
			const char *a = scalar(v);
			if (!a || strncmp(a, "sm_", 3) || !a[3])
				return fail(R, v, "invalid arch '%s': expected sm_NN", a);
			free(R->c->arch);
			R->c->arch = strdup(a);
		} else if (!strcmp(key, "report-unused-suppressions")) {
			if ((R->c->report_unused = sm_config_parse_bool(scalar(v))) < 0)
				return fail(R, v, "'report-unused-suppressions' must be true or false", NULL);
		} else if (!strcmp(key, "fail-on-missing-headers")) {
			if ((R->c->fail_missing = sm_config_parse_bool(scalar(v))) < 0)
				return fail(R, v, "'fail-on-missing-headers' must be true or false", NULL);
		} else if (!strcmp(key, "header-filter")) {
			if (read_header_filter(R, v))
				return -1;
		} else if (!strcmp(key, "analysis-budget")) {
			const char *b = scalar(v);
			if (sm_config_parse_budget(b, &R->c->analysis_budget))
				return fail(R, v, "invalid analysis-budget '%s': expected a count of evaluation steps (0: no limit)",
					    b ? b : "(not a number)");
		} else {
			return fail(R, k, "unknown key '%s' (expected rules, enable, disable, block-dim, arch, exclude, flags, report-unused-suppressions, fail-on-missing-headers, header-filter, analysis-budget)",
				    key);
		}
	}
	return 0;
}

int sm_config_parse_bool(const char *b)
{
	if (b && (!strcmp(b, "true") || !strcmp(b, "yes") || !strcmp(b, "on")))
		return 1;
	if (b && (!strcmp(b, "false") || !strcmp(b, "no") || !strcmp(b, "off")))
		return 0;
	return -1;
}

/* Count the aliases of text (a first pass of events, before the loader
 * builds the document): -1 when the YAML is invalid (the loader says why). */
static long count_aliases(const char *text, size_t len)
{
	yaml_parser_t p;
	if (!yaml_parser_initialize(&p))
		return -1;
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	long n = 0;
	for (;;) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&p, &ev)) {
			n = -1;
			break;
		}
		yaml_event_type_t t = ev.type;
		yaml_event_delete(&ev);
		if (t == YAML_ALIAS_EVENT && ++n > SM_CONFIG_MAX_ALIASES)
			break;
		if (t == YAML_STREAM_END_EVENT)
			break;
	}
	yaml_parser_delete(&p);
	return n;
}

int sm_config_load(const char *path, struct sm_config *c, char *err, size_t errlen)
{
	/* a regular file, read without blocking, at most SM_CONFIG_MAX_BYTES */
	struct stat st;
	int fd = sm_open_regular(path, &st);
	if (fd == -2) {
		snprintf(err, errlen, "cannot read config '%s': it is %s, not a regular file", path, sm_file_kind(st.st_mode));
		return -1;
	}
	char *text = NULL;
	size_t len = 0;
	int rc = fd < 0 ? -1 : sm_read_fd(fd, SM_CONFIG_MAX_BYTES, &text, &len);
	int e = errno;
	if (fd >= 0)
		close(fd);
	if (rc == -2) {
		snprintf(err, errlen, "invalid config '%s': larger than %u bytes", path, SM_CONFIG_MAX_BYTES);
		return -1;
	}
	if (rc) {
		snprintf(err, errlen, "cannot read config '%s': %s", path, strerror(e));
		return -1;
	}
	/* a UTF-8 byte-order mark is fine (libyaml reads it as an encoding mark) */
	if (count_aliases(text, len) > SM_CONFIG_MAX_ALIASES) {
		snprintf(err, errlen, "invalid config '%s': more than %d YAML aliases", path, SM_CONFIG_MAX_ALIASES);
		free(text);
		return -1;
	}
	char real[PATH_MAX];
	free(c->path);
	free(c->dir);
	c->path = strdup(path);
	if (realpath(path, real)) {
		char *sl = strrchr(real, '/');
		if (sl == real)
			sl[1] = 0;
		else if (sl)
			*sl = 0;
		c->dir = strdup(real);
	} else {
		c->dir = getcwd(NULL, 0);
	}
	yaml_parser_t p;
	yaml_document_t doc;
	if (!yaml_parser_initialize(&p)) {
		free(text);
		snprintf(err, errlen, "out of memory reading config '%s'", path);
		return -1;
	}
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	if (!yaml_parser_load(&p, &doc)) {
		snprintf(err, errlen, "invalid config '%s': line %lu: %s", path, (unsigned long)p.problem_mark.line + 1,
			 p.problem ? p.problem : "not YAML");
		rc = -1;
	} else {
		struct reader R = { path, &doc, c, err, errlen, 0 };
		rc = read_root(&R, yaml_document_get_root_node(&doc));
		yaml_document_delete(&doc);
	}
	yaml_parser_delete(&p);
	free(text);
	return rc;
}

/* May a config found by walking up be used? Like git's safe.directory: not
 * when another user could have put it there. The file must belong to the
 * user or root, and so must its directory, which must not be writable by
 * everyone unless it has the sticky bit (as /tmp: then only the file's
 * owner can replace it). Returns 1, or 0 with the reason in why. */
static int config_trusted(const char *path, char *why, size_t n)
{
	struct stat fs, ds;
	uid_t me = geteuid();
	char dir[PATH_MAX];
	const char *sl = strrchr(path, '/');
	if (!sl)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", sl == path ? 1 : (int)(sl - path), path);
	if (stat(path, &fs) != 0 || stat(dir, &ds) != 0) {
		snprintf(why, n, "it cannot be examined");
		return 0;
	}
	if (fs.st_uid != me && fs.st_uid != 0) {
		snprintf(why, n, "it belongs to another user (uid %u)", (unsigned)fs.st_uid);
		return 0;
	}
	if (ds.st_uid != me && ds.st_uid != 0) {
		snprintf(why, n, "its directory '%s' belongs to another user (uid %u)", dir, (unsigned)ds.st_uid);
		return 0;
	}
	if ((ds.st_mode & S_IWOTH) && !(ds.st_mode & S_ISVTX)) {
		snprintf(why, n, "its directory '%s' is writable by every user", dir);
		return 0;
	}
	return 1;
}

int sm_config_find(const char *file, char *out, size_t n, struct sm_paths *ignored)
{
	char dir[PATH_MAX];
	if (!realpath(file, dir)) {
		/* a missing file: start from the directory it names */
		snprintf(dir, sizeof(dir), "%s", file);
		char *s = strrchr(dir, '/');
		if (s)
			*s = 0;
		else
			snprintf(dir, sizeof(dir), ".");
		char tmp[PATH_MAX];
		if (!realpath(dir, tmp))
			return 0;
		snprintf(dir, sizeof(dir), "%s", tmp);
	} else {
		struct stat st;
		char *s = strrchr(dir, '/');
		if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode) && s) /* a file: its directory */
			*(s == dir ? s + 1 : s) = 0;
	}
	for (;;) {
		char probe[PATH_MAX + 32];
		snprintf(probe, sizeof(probe), "%s/%s", strcmp(dir, "/") ? dir : "", SM_CONFIG_NAME);
		char why[PATH_MAX + 64];
		struct stat pst;
		if (lstat(probe, &pst) == 0 && !config_trusted(probe, why, sizeof(why))) {
			/* skipped with a warning; the search goes on above */
			if (ignored) {
				char msg[sizeof(why) + PATH_MAX + 64];
				snprintf(msg, sizeof(msg), "ignoring config '%s': %s", probe, why);
				sm_paths_push(ignored, msg);
			}
		} else if (access(probe, R_OK) == 0) {
			snprintf(out, n, "%s", probe);
			return 1;
		}
		char *s = strrchr(dir, '/');
		if (!s || !strcmp(dir, "/"))
			return 0;
		*(s == dir ? s + 1 : s) = 0;
	}
}

/* ---- dumping ---- */

static int emit(yaml_emitter_t *e, yaml_event_t *ev)
{
	return yaml_emitter_emit(e, ev) ? 0 : -1;
}

static int scalar_ev(yaml_emitter_t *e, const char *s, bool plain)
{
	yaml_event_t ev;
	yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s), 1, 1,
				     plain ? YAML_PLAIN_SCALAR_STYLE : YAML_DOUBLE_QUOTED_SCALAR_STYLE);
	return emit(e, &ev);
}

static int seq(yaml_emitter_t *e, const char *key, const struct sm_paths *v)
{
	yaml_event_t ev;
	int rc = scalar_ev(e, key, true);
	yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_FLOW_SEQUENCE_STYLE);
	rc |= emit(e, &ev);
	for (size_t i = 0; v && i < v->n; i++)
		rc |= scalar_ev(e, v->v[i], false);
	yaml_sequence_end_event_initialize(&ev);
	return rc | emit(e, &ev);
}

static int write_yaml(yaml_emitter_t *e, const struct sm_config_view *v)
{
	const struct sm_analysis_options *o = v->o;
	yaml_event_t ev;
	int rc = 0;
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	rc |= emit(e, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	rc |= emit(e, &ev);
	yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE);
	rc |= emit(e, &ev);
	rc |= scalar_ev(e, "rules", true);
	yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE);
	rc |= emit(e, &ev);
	for (int r = 0; r < SM_RULE__COUNT; r++) {
		rc |= scalar_ev(e, sm_rules[r].id, true);
		rc |= scalar_ev(e, sm_level_name(o->levels[r]), true);
	}
	yaml_mapping_end_event_initialize(&ev);
	rc |= emit(e, &ev);
	if (o->has_block) {
		char b[3][24];
		snprintf(b[0], sizeof(b[0]), "%lld", (long long)o->block.x);
		snprintf(b[1], sizeof(b[1]), "%lld", (long long)o->block.y);
		snprintf(b[2], sizeof(b[2]), "%lld", (long long)o->block.z);
		char *bv[3] = { b[0], b[1], b[2] };
		struct sm_paths p = { bv, 3, 3 };
		yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_FLOW_SEQUENCE_STYLE);
		rc |= scalar_ev(e, "block-dim", true);
		rc |= emit(e, &ev);
		for (int i = 0; i < 3; i++)
			rc |= scalar_ev(e, p.v[i], true);
		yaml_sequence_end_event_initialize(&ev);
		rc |= emit(e, &ev);
	}
	rc |= scalar_ev(e, "arch", true);
	rc |= scalar_ev(e, o->arch ? o->arch : SM_DEFAULT_ARCH, true);
	rc |= seq(e, "exclude", v->exclude);
	rc |= seq(e, "flags", v->flags);
	rc |= scalar_ev(e, "report-unused-suppressions", true);
	rc |= scalar_ev(e, v->report_unused ? "true" : "false", true);
	rc |= scalar_ev(e, "fail-on-missing-headers", true);
	rc |= scalar_ev(e, v->fail_missing ? "true" : "false", true);
	rc |= scalar_ev(e, "header-filter", true);
	rc |= scalar_ev(e, v->header_filter ? v->header_filter : "", false);
	/* 0 in o: the default; UINT64_MAX: none, written 0 as the key takes it */
	char budget[24];
	uint64_t b = o->analysis_budget ? o->analysis_budget : SM_ANALYSIS_BUDGET;
	snprintf(budget, sizeof(budget), "%llu", b == UINT64_MAX ? 0ull : (unsigned long long)b);
	rc |= scalar_ev(e, "analysis-budget", true);
	rc |= scalar_ev(e, budget, true);
	yaml_mapping_end_event_initialize(&ev);
	rc |= emit(e, &ev);
	yaml_document_end_event_initialize(&ev, 1);
	rc |= emit(e, &ev);
	yaml_stream_end_event_initialize(&ev);
	rc |= emit(e, &ev);
	return rc;
}

int sm_config_dump(FILE *out, const struct sm_config_view *v)
{
	fprintf(out, "# smemlint configuration in effect (%s%s)\n", v->source ? "from " : "no config file",
		v->source ? v->source : "");
	fflush(out);
	yaml_emitter_t e;
	if (!yaml_emitter_initialize(&e))
		return -1;
	yaml_emitter_set_output_file(&e, out);
	yaml_emitter_set_unicode(&e, 1);
	int rc = write_yaml(&e, v);
	yaml_emitter_flush(&e);
	yaml_emitter_delete(&e);
	return rc || ferror(out) ? -1 : 0;
}

/* ---- the cache ---- */

int sm_config_cache_lookup(struct sm_config_cache *cc, const char *file, const struct sm_config **out, char *err,
			   size_t errlen)
{
	char path[PATH_MAX];
	*out = NULL;
	struct sm_paths ig = { 0 };
	int found = sm_config_find(file, path, sizeof(path), &ig);
	for (size_t i = 0; i < ig.n; i++) { /* each once: a few distinct ones */
		bool have = false;
		for (size_t k = 0; k < cc->ignored.n && !have; k++)
			have = !strcmp(cc->ignored.v[k], ig.v[i]);
		if (!have)
			sm_paths_push(&cc->ignored, ig.v[i]);
	}
	sm_paths_free(&ig);
	if (!found)
		return 0;
	for (unsigned i = 0; i < cc->n; i++)
		if (!strcmp(cc->v[i]->path, path)) {
			*out = cc->v[i];
			return 0;
		}
	struct sm_config *c = malloc(sizeof(*c));
	if (!c) {
		snprintf(err, errlen, "out of memory reading config '%s'", path);
		return -1;
	}
	sm_config_init(c);
	if (sm_config_load(path, c, err, errlen)) {
		sm_config_free(c);
		free(c);
		return -1;
	}
	if (SM_ALLOC_GROW(cc->v, cc->n + 1, cc->cap)) {
		sm_config_free(c);
		free(c);
		snprintf(err, errlen, "out of memory reading config '%s'", path);
		return -1;
	}
	cc->v[cc->n++] = c;
	*out = c;
	return 0;
}

void sm_config_cache_free(struct sm_config_cache *cc)
{
	for (unsigned i = 0; i < cc->n; i++) {
		sm_config_free(cc->v[i]);
		free(cc->v[i]);
	}
	free(cc->v);
	sm_paths_free(&cc->ignored);
	memset(cc, 0, sizeof(*cc));
}
