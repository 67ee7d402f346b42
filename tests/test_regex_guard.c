/* test_regex_guard.c - Check tests of the guard in front of regcomp for a
 * checkout's header-filter (analyzer/driver/regex_guard.c): a table of
 * patterns, each either accepted (and then regcomp must take it, and match
 * what a filter would) or refused with the reason the user reads. The
 * refused ones are shapes that cost glibc unbounded memory or time; the
 * accepted ones are real filters and the largest neighbours of the
 * refused shapes. Links only the driver stage. */
#include <check.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "driver/regex_guard.h"

static const struct {
	const char *pattern;
	const char *refusal; /* NULL: accepted */
} cases[] = {
	/* real filters */
	{ "(/include/|/src/).*[.]cuh$", NULL },
	{ ".*", NULL },
	{ "^src/(kernels|ops)/[^/]+\\.cuh?$", NULL },
	{ "([^/]*/)*tile[.]h", NULL },
	{ "a{1,100}", NULL },
	/* bounded repetitions multiply */
	{ "a{1,255}{1,255}{1,255}", "more than 10000 states" },
	{ "(ab){1,9999}", "more than 10000 states" },
	/* back-references backtrack */
	{ "(a*)*\\1", "back-reference" },
	/* repeats of what can match empty: squares, compounded when stacked */
	{ "a?+++++++++", NULL },               /* 1,024 states, 1.4 million steps */
	{ "a?+++++++++++", "match the empty string" }, /* the fuzzer's 2.6 s */
	{ "\r\r\t\f?+++++++++++lllllllllllllllllllllllllll+++++++++.++", "match the empty string" },
	{ "a*++++++++++", "match the empty string" },
	{ "(x*){1,900}", "match the empty string" },
	{ "(x*){1,600}", NULL },
	{ "(a|b?)+++++++++++", "match the empty string" },
	{ "(a|b)+++++++++++", NULL },          /* 4,096 states, nothing empty repeated */
	{ "(^)+++++++++++", "match the empty string" },
	{ "(a?b?c?){1,700}", "match the empty string" },
	{ "(a?bc?){1,700}", NULL },            /* b is never empty */
	/* nesting */
	{ "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((a)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))",
	  "more than 64 deep" },
};

START_TEST(test_guard_table)
{
	char why[256] = "";
	const char *p = cases[_i].pattern, *want = cases[_i].refusal;
	int rc = sm_regex_guard(p, why, sizeof(why));
	if (want) {
		ck_assert_msg(rc == -1, "'%s' accepted, wanted '%s'", p, want);
		ck_assert_msg(strstr(why, want), "'%s': '%s', wanted '%s'", p, why, want);
		return;
	}
	ck_assert_msg(rc == 0, "'%s' refused: %s", p, why);
	regex_t re;
	ck_assert_int_eq(regcomp(&re, p, REG_EXTENDED | REG_NOSUB), 0);
	regfree(&re);
}
END_TEST

START_TEST(test_length)
{
	char why[256];
	char *p = malloc(SM_REGEX_MAX_BYTES + 2);
	memset(p, 'x', SM_REGEX_MAX_BYTES);
	p[SM_REGEX_MAX_BYTES] = 0;
	ck_assert_int_eq(sm_regex_guard(p, why, sizeof(why)), 0);
	p[SM_REGEX_MAX_BYTES] = 'x';
	p[SM_REGEX_MAX_BYTES + 1] = 0;
	ck_assert_int_eq(sm_regex_guard(p, why, sizeof(why)), -1);
	ck_assert_ptr_nonnull(strstr(why, "longer than 1024 bytes"));
	free(p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("regex_guard");
	TCase *tc = tcase_create("guard");
	/* the largest accepted patterns compile in 0.3 s natively; under ASan
	 * on a loaded 2-core machine one took past Check's default 4 s: the
	 * cases assert what is accepted, not how fast (tools/bench times) */
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_guard_table, 0, (int)(sizeof(cases) / sizeof(cases[0])));
	tcase_add_test(tc, test_length);
	suite_add_tcase(s, tc);
	SRunner *r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
