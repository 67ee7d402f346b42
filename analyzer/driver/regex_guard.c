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
 * estimate passes SM_REGEX_MAX_STATES.
 *
 * Size is not the only cost: repeating something that can match the empty
 * string (`a?+`, `(x*){1,900}`) makes glibc's epsilon closures quadratic
 * in the repeated part's size, and stacking such repeats compounds it
 * (`a?+++++++++++`, 4,096 states, took 2.6 s to compile, 20 s under
 * ASan). The guard tracks whether each part can match empty and adds the
 * square of every repeated empty-matching part's expanded size to a work
 * estimate, refused past SM_REGEX_MAX_WORK. Anything else it leaves to
 * regcomp, which reports the syntax errors. */
#include "driver/regex_guard.h"

#include <stdio.h>
#include <string.h>

#include "base/limits.h"

struct scan {
	const char *p, *end;
	const char *why;           /* set on refusal */
	int depth;
	unsigned long long work;   /* sum of squares of the repeated parts that can match empty */
};

/* The expanded size of a part, and whether it can match the empty string. */
struct part {
	unsigned long long size;
	bool empty;
};

static struct part alt(struct scan *S);

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

/* One atom: its expanded size; a group can match empty when its inside
 * can, and so can the anchors. */
static struct part atom(struct scan *S)
{
	char c = *S->p++;
	if (c == '(') {
		if (++S->depth > 64) {
			S->why = "groups nest more than 64 deep";
			return (struct part){ 0, false };
		}
		struct part n = alt(S);
		S->depth--;
		if (S->p < S->end && *S->p == ')')
			S->p++;
		return (struct part){ n.size + 1, n.empty };
	}
	if (c == '[') {
		bracket(S);
		return (struct part){ 1, false };
	}
	if (c == '\\' && S->p < S->end) {
		if (*S->p >= '1' && *S->p <= '9') {
			S->why = "it uses a back-reference, which makes matching exponential";
			return (struct part){ 0, false };
		}
		S->p++;
	}
	return (struct part){ 1, c == '^' || c == '$' };
}

/* The largest count of a {m}, {m,} or {m,n} at S->p (just past '{');
 * *zero when its least count is 0. */
static unsigned long long bound(struct scan *S, bool *zero)
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
	*zero = digits && m == 0;
	if (!digits)
		return 1;
	unsigned long long hi = comma ? (n ? n : m + 1) : m;
	return hi > m ? hi : (m ? m : 1);
}

/* One quantifier at S->p applied to *n: its size grows, and a repeat of a
 * part that can match empty adds the square of the repeated size to the
 * work (quantified once, `?` repeats nothing). */
static void quantify(struct scan *S, struct part *n)
{
	char q = *S->p++;
	unsigned long long count = 2;
	bool zero = q != '+', repeats = q != '?';
	if (q == '{') {
		count = bound(S, &zero);
		repeats = count > 1;
	}
	n->size = cap_mul(n->size, count);
	if (repeats && n->empty) /* size is at most SM_REGEX_MAX_STATES + 1: the square fits */
		S->work += n->size * n->size;
	n->empty = n->empty || zero;
}

/* A concatenation of quantified atoms, up to '|' or ')': empty when every
 * atom can be. */
static struct part concat(struct scan *S)
{
	struct part sum = { 0, true };
	while (S->p < S->end && *S->p != '|' && *S->p != ')' && !S->why) {
		struct part n = atom(S);
		while (S->p < S->end && strchr("*+?{", *S->p))
			quantify(S, &n);
		sum.size += n.size;
		sum.empty = sum.empty && n.empty;
		if (sum.size > SM_REGEX_MAX_STATES || S->work > SM_REGEX_MAX_WORK)
			return sum;
	}
	return sum;
}

static struct part alt(struct scan *S)
{
	struct part sum = concat(S);
	while (S->p < S->end && *S->p == '|' && !S->why && sum.size <= SM_REGEX_MAX_STATES) {
		S->p++;
		struct part n = concat(S);
		sum.size += n.size;
		sum.empty = sum.empty || n.empty;
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
	struct scan S = { src, src + len, NULL, 0, 0 };
	unsigned long long size = 0;
	while (S.p < S.end && !S.why && size <= SM_REGEX_MAX_STATES && S.work <= SM_REGEX_MAX_WORK) {
		size += alt(&S).size;
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
	if (S.work > SM_REGEX_MAX_WORK) {
		snprintf(why, n, "it repeats a part that can match the empty string, which would take "
				 "more than %d steps to compile", SM_REGEX_MAX_WORK);
		return -1;
	}
	return 0;
}
