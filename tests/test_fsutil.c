/* test_fsutil.c - Check tests of writing a user's file (analyzer/base/
 * fsutil.c) under signals: a SIGINT, SIGTERM or SIGHUP that arrives while
 * the report is being written (into an unnamed O_TMPFILE) ends the process
 * at once, and leaves neither a temporary nor a half-written file: the
 * previous file as it was, or none. Each case runs in a forked child that
 * signals itself from inside the writer (the worst moment,
 * deterministically); the parent checks how the child ended and what is in
 * the directory. Links only the base stage. */
#define _GNU_SOURCE
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fsutil.h"

/* writes half, signals the process (*(int *)ctx), writes the rest */
static int writer(FILE *f, void *ctx)
{
	fputs("first half\n", f);
	fflush(f);
	kill(getpid(), *(int *)ctx);
	fputs("second half\n", f);
	return 0;
}

static int count_tmp(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	struct dirent *de;
	while (d && (de = readdir(d)) != NULL)
		n += strstr(de->d_name, ".smemlint.tmp.") != NULL;
	if (d)
		closedir(d);
	return n;
}

static void check_signal(int sig, int existing)
{
	char dir[] = "/tmp/smemlint-fsutil-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[256];
	snprintf(path, sizeof(path), "%s/report.txt", dir);
	if (existing) {
		FILE *f = fopen(path, "w");
		fputs("old\n", f);
		fclose(f);
	}
	pid_t pid = fork();
	if (pid == 0) {
		signal(sig, SIG_DFL);
		char err[512];
		sm_write_file(path, writer, &sig, NULL, err, sizeof(err));
		_exit(42); /* not reached: the signal ends the process */
	}
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == sig, "the child did not end by signal %d", sig);
	ck_assert_int_eq(count_tmp(dir), 0);
	/* where the file system has no O_TMPFILE, fsutil.c falls back to a
	 * named temporary under held signals: the write completes, then the
	 * signal ends the process */
	int probe = open(dir, O_TMPFILE | O_WRONLY, 0600);
	int anon = probe >= 0;
	if (probe >= 0)
		close(probe);
	/* what the file holds now: the whole new report (held signals), the
	 * old one, or nothing (a new file never written) */
	const char *want = !anon ? "first half\nsecond half\n" : existing ? "old\n" : NULL;
	FILE *f = fopen(path, "r");
	if (!want) {
		ck_assert_msg(f == NULL, "a half-written report was left");
	} else {
		ck_assert_ptr_nonnull(f);
		char buf[64] = "";
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = 0;
		ck_assert_str_eq(buf, want);
	}
	unlink(path);
	rmdir(dir);
}

START_TEST(test_sigint_new_file) { check_signal(SIGINT, 0); }
END_TEST

START_TEST(test_sigterm_existing_file) { check_signal(SIGTERM, 1); }
END_TEST

START_TEST(test_sighup_existing_file) { check_signal(SIGHUP, 1); }
END_TEST

int main(void)
{
	Suite *s = suite_create("fsutil");
	TCase *tc = tcase_create("signals");
	tcase_add_test(tc, test_sigint_new_file);
	tcase_add_test(tc, test_sigterm_existing_file);
	tcase_add_test(tc, test_sighup_existing_file);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
