/* test_source_dialect.c - Check tests of nvcc's lexer dialect in the text
 * clang is handed (analyzer/front/source_dialect.c): spaced launch
 * brackets are closed up in place, every byte at its offset, and nothing
 * else is touched: a template's `>> >`, `operator<< <T>`, shifts and
 * comparisons, comments and literals; and `extern "C"__global__` gets its
 * blank after the linkage string, where a real user-defined literal
 * (`"C"_sv`) and a blank already there are left alone. Links only the front stage (which
 * this file uses without libclang). */
#include <check.h>
#include <string.h>

#include "front/source_dialect.h"
#include "smemlint/arena.h"

typedef const char *(*mend_fn)(const char *, size_t, struct sm_arena *, unsigned *);
#define B sm_dialect_launch_brackets
#define X sm_dialect_extern_c

static const struct {
	mend_fn mend;
	const char *in;
	const char *out; /* NULL: unchanged */
	unsigned fixed;
} rows[] = {
	{ B, "k << <g, b >> > (p);", "k <<< g, b >>>  (p);", 1 },
	{ B, "k<< <1, 256>> >(p);", "k<<< 1, 256>>> (p);", 1 },
	{ B, "k << < (n + 255) / 256, 256 >> >(p);", "k <<<  (n + 255) / 256, 256 >>> (p);", 1 },
	{ B, "k << <\n  g, b >> >\n(p);", "k <<< \n  g, b >>> \n(p);", 1 },
	{ B, "k << <g, f(a, b), 0, s>>>(p);", "k <<< g, f(a, b), 0, s>>>(p);", 1 },
	{ B, "a << <b, c >> > (p); k2 << <1, 2 >> > (q);", "a <<< b, c >>>  (p); k2 <<< 1, 2 >>>  (q);", 2 },
	{ B, "std::vector<box<box<int>> > v;", NULL, 0 },
	{ B, "operator<< <int>(s, x);", NULL, 0 },
	{ B, "x = a << b; y = c > d;", NULL, 0 },
	{ B, "x = a << <b; ", NULL, 0 },
	{ B, "// k << <g, b >> > (p);\n", NULL, 0 },
	{ B, "/* k << <g, b >> > (p); */", NULL, 0 },
	{ B, "s = \"k << <g, b >> > (p)\";", NULL, 0 },
	{ B, "s = R\"x(k << <g, b >> > (p))x\";", NULL, 0 },
	{ B, "if (a << <b) {} c >> > d;", NULL, 0 },
	{ B, "m = a << <= b;", NULL, 0 },
	{ X, "extern \"C\"__global__ void k();", "extern\"C\" __global__ void k();", 1 },
	{ X, "extern  \"C++\"__device__ int f();", "extern \"C++\" __device__ int f();", 1 },
	{ X, "extern \"C\"__global__ void a(); extern \"C\"__global__ void b();",
	  "extern\"C\" __global__ void a(); extern\"C\" __global__ void b();", 2 },
	{ X, "extern \"C\" __global__ void k();", NULL, 0 },
	{ X, "extern \"C\" {", NULL, 0 },
	{ X, "myextern \"C\"_x;", NULL, 0 },
	{ X, "// extern \"C\"__global__ void k();\n", NULL, 0 },
	{ X, "s = \"extern \\\"C\\\"__global__\";", NULL, 0 },
	{ X, "auto x = \"C\"_sv;", NULL, 0 },
};

START_TEST(test_rows)
{
	const char *in = rows[_i].in;
	size_t n = strlen(in);
	struct sm_arena A;
	sm_arena_init(&A, 0);
	unsigned fixed = 99;
	const char *out = rows[_i].mend(in, n, &A, &fixed);
	ck_assert_uint_eq(fixed, rows[_i].fixed);
	if (rows[_i].out) {
		ck_assert_ptr_ne(out, in);
		ck_assert_uint_eq(strlen(rows[_i].out), n);
		ck_assert_mem_eq(out, rows[_i].out, n);
	} else {
		ck_assert_ptr_eq(out, in);
	}
	sm_arena_release(&A);
}
END_TEST


int main(void)
{
	Suite *s = suite_create("source_dialect");
	TCase *tc = tcase_create("mends");
	tcase_add_loop_test(tc, test_rows, 0, (int)(sizeof(rows) / sizeof(rows[0])));
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
