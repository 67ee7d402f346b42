/* test_hooks.c - the SMEMLINT_TEST_* variables, read by the command only.
 *
 * The library reads no environment for tests: each hook is a field of the
 * session's settings (a lower IR limit and result cap, write failures, a
 * file size limit on the header cache build), set here from the variables
 * the tests set, so that a test drives the real command. Unset or empty:
 * no hook. */
#include <stdlib.h>

#include "cli.h"

static const char *var(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

void sm_cli_test_hooks(struct cli *c)
{
	struct sm_analysis_options *a = &c->so->analysis;
	const char *v;
	/* a lower IR limit, to exercise partial results cheaply */
	if ((v = var("SMEMLINT_TEST_ARENA_LIMIT")))
		a->ir_arena_limit = (size_t)strtoull(v, NULL, 10);
	/* lower result caps, to exercise too-many-results cheaply */
	if ((v = var("SMEMLINT_TEST_MAX_RESULTS")))
		a->max_results = (unsigned)strtoul(v, NULL, 10);
	/* a file size limit on the PCH build, to fail its write inside
	 * libclang the way a full disk does */
	if ((v = var("SMEMLINT_TEST_PCH_FSIZE")))
		a->fe.test_pch_fsize = strtoull(v, NULL, 10);
	/* a write that fails before its rename; an in-place rewrite (hard
	 * links) that fails after its checks; an editor saving the file
	 * just before --fix's last look */
	c->faults.fail_write = getenv("SMEMLINT_TEST_FAIL_WRITE") != NULL;
	c->faults.fail_in_place = getenv("SMEMLINT_TEST_FAIL_IN_PLACE") != NULL;
	c->faults.edit_before_rename = getenv("SMEMLINT_TEST_EDIT_BEFORE_RENAME");
	c->so->write_faults = &c->faults;
}
