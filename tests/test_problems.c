/* test_problems.c - Check tests of the input problem table (analyzer/ir,
 * generated from include/smemlint/problems.def): every id is unique, kebab-case
 * and found by sm_problem_find; levels and summaries are set. Links only
 * the ir stage. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "smemlint/problems.h"

/* lowercase words of [a-z0-9] joined by single '-' */
static int kebab(const char *s)
{
	if (!s || !*s || *s == '-')
		return 0;
	for (const char *p = s; *p; p++) {
		if (*p == '-') {
			if (p[1] == '-' || p[1] == 0)
				return 0;
		} else if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9'))) {
			return 0;
		}
	}
	return 1;
}

START_TEST(test_ids_unique_and_kebab)
{
	for (int i = 0; i < SM_PROBLEM__COUNT; i++) {
		ck_assert_msg(kebab(sm_problems[i].id), "problem %d: id '%s' is not kebab-case", i,
			      sm_problems[i].id ? sm_problems[i].id : "(null)");
		for (int j = 0; j < i; j++)
			ck_assert_msg(strcmp(sm_problems[i].id, sm_problems[j].id), "id '%s' twice", sm_problems[i].id);
	}
}
END_TEST

START_TEST(test_find)
{
	for (int i = 0; i < SM_PROBLEM__COUNT; i++)
		ck_assert_int_eq(sm_problem_find(sm_problems[i].id), i);
	ck_assert_int_eq(sm_problem_find("no-such-problem"), -1);
	ck_assert_int_eq(sm_problem_find(""), -1);
	ck_assert_int_eq(sm_problem_find(NULL), -1);
	ck_assert_int_eq(sm_problem_find("file-too-large"), SM_PROBLEM_FILE_TOO_LARGE);
}
END_TEST

START_TEST(test_levels_and_summaries)
{
	for (int i = 0; i < SM_PROBLEM__COUNT; i++) {
		enum sm_level l = sm_problems[i].level;
		ck_assert_msg(l == SM_LEVEL_NOTE || l == SM_LEVEL_WARNING || l == SM_LEVEL_ERROR, "'%s': level %d",
			      sm_problems[i].id, (int)l);
		const char *s = sm_problems[i].summary;
		ck_assert_msg(s && *s && !strchr(s, '\n'), "'%s': the summary is one line", sm_problems[i].id);
	}
	/* one level per problem in every format (issue 15): clang's errors are
	 * errors, which fail the run; the partial results of a file that was
	 * analyzed to the end are warnings, which do not */
	ck_assert_int_eq(sm_problems[SM_PROBLEM_PARSE_ERROR].level, SM_LEVEL_ERROR);
	ck_assert_int_eq(sm_problems[SM_PROBLEM_KERNEL_TOO_LARGE].level, SM_LEVEL_WARNING);
	ck_assert_int_eq(sm_problems[SM_PROBLEM_NESTING_TOO_DEEP].level, SM_LEVEL_NOTE);
	ck_assert_int_eq(sm_problems[SM_PROBLEM_PARTIAL_RESULTS].level, SM_LEVEL_WARNING);
	ck_assert_int_eq(sm_problems[SM_PROBLEM_BINARY_FILE].level, SM_LEVEL_ERROR);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("problems");
	TCase *tc = tcase_create("table");
	tcase_add_test(tc, test_ids_unique_and_kebab);
	tcase_add_test(tc, test_find);
	tcase_add_test(tc, test_levels_and_summaries);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
