/* test_text.c - Check tests of a file's lines (analyzer/base/text.c): the
 * line index a report asks through (sm_text_lines_index, sm_text_line_in)
 * gives every line exactly as the walk (sm_text_line) does, on the texts
 * where lines are easy to get wrong: empty, no final newline, a final
 * newline, blank lines, CRLF, a lone '\r', and lines past the end. Links
 * only the base stage. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/text.h"
#include "smemlint/arena.h"

static const struct {
	const char *text;
	unsigned lines; /* the index's count: newlines + 1 */
} texts[] = {
	{ "", 1 },
	{ "a", 1 },
	{ "a\n", 2 },
	{ "a\nbc", 2 },
	{ "a\nbc\n", 3 },
	{ "\n\n\n", 4 },
	{ "x\r\ny\r\n", 3 },
	{ "x\ry\n", 2 },
	{ "// smemlint: ignore\n\tv += s[t];\n\n}", 4 },
};

START_TEST(test_index_agrees_with_walk)
{
	const char *t = texts[_i].text;
	size_t n = strlen(t);
	struct sm_arena A;
	sm_arena_init(&A, 0);
	unsigned nl = 0;
	const uint32_t *off = sm_text_lines_index(t, n, &A, &nl);
	ck_assert_ptr_nonnull(off);
	ck_assert_uint_eq(nl, texts[_i].lines);
	for (unsigned line = 0; line <= nl + 2; line++) {
		size_t la = 99, lb = 99;
		const char *a = sm_text_line(t, n, line, &la);
		const char *b = sm_text_line_in(t, n, off, nl, line, &lb);
		ck_assert_msg(a == b && la == lb, "text %u line %u: walk %p/%zu, index %p/%zu", _i, line, (void *)a, la,
			      (void *)b, lb);
	}
	sm_arena_release(&A);
}
END_TEST

START_TEST(test_no_index_walks)
{
	const char *t = "one\ntwo\n";
	size_t len = 0;
	const char *l = sm_text_line_in(t, strlen(t), NULL, 0, 2, &len);
	ck_assert_ptr_eq(l, t + 4);
	ck_assert_uint_eq(len, 3);
}
END_TEST

START_TEST(test_many_lines)
{
	/* 100,000 lines: the last one is found through the index */
	enum { N = 100000 };
	static char t[N * 4];
	size_t n = 0;
	for (int i = 0; i < N; i++)
		n += (size_t)snprintf(t + n, sizeof(t) - n, "%c%c\n", 'a' + i % 26, 'a' + (i / 26) % 26);
	struct sm_arena A;
	sm_arena_init(&A, 0);
	unsigned nl = 0;
	const uint32_t *off = sm_text_lines_index(t, n, &A, &nl);
	ck_assert_uint_eq(nl, N + 1);
	size_t len = 0;
	const char *l = sm_text_line_in(t, n, off, nl, N, &len);
	ck_assert_ptr_eq(l, t + 3 * (N - 1));
	ck_assert_uint_eq(len, 2);
	sm_arena_release(&A);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("text");
	TCase *tc = tcase_create("lines");
	tcase_add_loop_test(tc, test_index_agrees_with_walk, 0, (int)(sizeof(texts) / sizeof(texts[0])));
	tcase_add_test(tc, test_no_index_walks);
	tcase_add_test(tc, test_many_lines);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
