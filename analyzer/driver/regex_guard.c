/* regex_guard.c - whether a POSIX extended regular expression from a
 * checkout (header-filter:) is safe to hand to regcomp (see regex_guard.h).
 *
 * glibc's regcomp builds an automaton as large as the pattern expanded:
 * bounded repetitions multiply (`a{1,255}{1,255}{1,255}` is 16 million
 * copies of `a`, 14.5 GB at compile time), and back-references make
 * regexec backtrack. The guard estimates the expanded size with a
 * recursive descent over the ERE grammar (alternation, concatenation,
 * quantified atoms, groups, bracket expressions), where a bounded
 * repetition multiplies its atom's size by its largest count, and refuses
 * a pattern over SM_REGEX_MAX_BYTES, with a back-reference, or whose
 * estimate passes SM_REGEX_MAX_STATES. Anything else it leaves to regcomp,
 * which reports the syntax errors. */
#include "driver/regex_guard.h"

#include <stdio.h>
#include <string.h>

#include "base/limits.h"

struct scan {
	const char *p, *end;
	const char *why;           /* set on refusal */
	int depth;
};

static unsigned long long alt(struct scan *S);

static unsigned long long cap_mul(unsigned long long a, unsigned long long b)
{
	unsigned long long lim = (unsigned long long)SM_REGEX_MAX_STATES + 1;
	if (a > lim || b > lim || a * b > lim)
		return lim;
	return a * b;
}

/* A bracket expression from S->p (just past '['): skip it. */
static void bracket(struct scan *S)
{
	if (S->p < S->end && *S->p == '^')
		S->p++;
	if (S->p < S->end && *S->p == ']')
		S->p++;
	while (S->p < S->end && *S->p != ']') {
		if (*S->p == '[' && S->p + 1 < S->end && strchr(":.=", S->p[1])) {
			char close = S->p[1];
			S->p += 2;
			while (S->p + 1 < S->end && !(S->p[0] == close && S->p[1] == ']'))
				S->p++;
			S->p += 2;
			continue;
		}
		S->p++;
	}
	if (S->p < S->end)
		S->p++;
}

/* One atom: its expanded size. */
static unsigned long long atom(struct scan *S)
{
	char c = *S->p++;
	if (c == '(') {
		if (++S->depth > 64) {
			S->why = "groups nest more than 64 deep";
			return 0;
		}
		unsigned long long n = alt(S);
		S->depth--;
		if (S->p < S->end && *S->p == ')')
			S->p++;
		return n + 1;
	}
	if (c == '[') {
		bracket(S);
		return 1;
	}
	if (c == '\\' && S->p < S->end) {
		if (*S->p >= '1' && *S->p <= '9') {
			S->why = "it uses a back-reference, which makes matching exponential";
			return 0;
		}
		S->p++;
	}
	return 1;
}

/* The largest count of a {m}, {m,} or {m,n} at S->p (just past '{'). */
static unsigned long long bound(struct scan *S)
{
	unsigned long long m = 0, n = 0;
	bool comma = false, digits = false;
	for (; S->p < S->end && *S->p != '}'; S->p++) {
		if (*S->p == ',') {
			comma = true;
		} else if (*S->p >= '0' && *S->p <= '9') {
			unsigned long long *x = comma ? &n : &m;
			*x = *x * 10 + (unsigned long long)(*S->p - '0');
			if (*x > 1000000)
				*x = 1000000;
			digits = true;
		}
	}
	if (S->p < S->end)
		S->p++;
	if (!digits)
		return 1;
	unsigned long long hi = comma ? (n ? n : m + 1) : m;
	return hi > m ? hi : (m ? m : 1);
}

/* A concatenation of quantified atoms, up to '|' or ')'. */
static unsigned long long concat(struct scan *S)
{
	unsigned long long sum = 0;
	while (S->p < S->end && *S->p != '|' && *S->p != ')' && !S->why) {
		unsigned long long n = atom(S);
		while (S->p < S->end && strchr("*+?{", *S->p)) {
			if (*S->p++ == '{')
				n = cap_mul(n, bound(S));
			else
				n = cap_mul(n, 2);
		}
		sum += n;
		if (sum > SM_REGEX_MAX_STATES)
			return sum;
	}
	return sum;
}

static unsigned long long alt(struct scan *S)
{
	unsigned long long sum = concat(S);
	while (S->p < S->end && *S->p == '|' && !S->why && sum <= SM_REGEX_MAX_STATES) {
		S->p++;
		sum += concat(S);
	}
	return sum;
}

int sm_regex_guard(const char *src, char *why, size_t n)
{
	size_t len = strlen(src);
	if (len > SM_REGEX_MAX_BYTES) {
		snprintf(why, n, "the pattern is longer than %d bytes", SM_REGEX_MAX_BYTES);
		return -1;
	}
	struct scan S = { src, src + len, NULL, 0 };
	unsigned long long size = 0;
	while (S.p < S.end && !S.why && size <= SM_REGEX_MAX_STATES) {
		size += alt(&S);
		if (S.p < S.end && *S.p == ')')
			S.p++; /* unbalanced: regcomp says so */
	}
	if (S.why) {
		snprintf(why, n, "%s", S.why);
		return -1;
	}
	if (size > SM_REGEX_MAX_STATES) {
		snprintf(why, n, "its repetitions expand it to more than %d states", SM_REGEX_MAX_STATES);
		return -1;
	}
	return 0;
}
