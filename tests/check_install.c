/* check_install.c - where the bfsim program finds its data: `bfsim
 * --datadir` in the build tree, with $BFSIM_DATADIR and in an
 * installation moved elsewhere, and bundled traces and job sets named
 * without a path (src/cli/main.c: cmd_data_dir, cmd_bundled_trace and
 * cmd_bundled_jobs). */
#include "config.h"

#include "testutil.h"

#include <check.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define T0 "1612988400"

/* Runs the shell command cmd with stdout to a file; returns the exit
 * status and the output in *out (malloc'd). */
static int sh(const char *cmd, char **out)
{
    const char *outf = tu_tmp("stdout.txt");
    char *full = xmalloc(strlen(cmd) + strlen(outf) + 32);
    int st;

    sprintf(full, "%s >%s 2>/dev/null", cmd, outf);
    st = system(full);
    free(full);
    *out = tu_slurp(outf);
    ck_assert_ptr_nonnull(*out);
    ck_assert_msg(WIFEXITED(st), "the command did not exit normally");
    return WEXITSTATUS(st);
}

/* The directory path with symbolic links resolved, kept until exit. */
static const char *real(const char *path)
{
    char buf[PATH_MAX];
    ck_assert_ptr_nonnull(realpath(path, buf));
    return tu_arg(buf);
}

START_TEST(test_datadir_env)
{
    char cmd[4096], *out;

    snprintf(cmd, sizeof cmd, "BFSIM_DATADIR=/some/where %s --datadir",
             tu_bfsim());
    ck_assert_int_eq(sh(cmd, &out), 0);
    ck_assert_str_eq(out, "/some/where\n");
    free(out);
}
END_TEST

/* Run from its build directory, bfsim reads the source tree's data. */
START_TEST(test_datadir_build_tree)
{
    char cmd[4096], *out, want[PATH_MAX + 2];

    snprintf(cmd, sizeof cmd, "unset BFSIM_DATADIR; %s --datadir",
             real(tu_bfsim()));
    ck_assert_int_eq(sh(cmd, &out), 0);
    /* the same folder: the compiled-in path may hold "..", a VPATH
     * build's */
    ck_assert_uint_gt(strlen(out), 1);
    ck_assert_int_eq(out[strlen(out) - 1], '\n');
    out[strlen(out) - 1] = '\0';
    snprintf(want, sizeof want, "%s", real(tu_srcdir()));
    ck_assert_str_eq(real(out), want);
    free(out);
}
END_TEST

/* A copy of the program in P/bin beside a P/share/bfsim finds it there,
 * whatever prefix it was configured with: an installation moved. */
START_TEST(test_datadir_moved)
{
    const char *top = tu_tmp("moved");
    char cmd[8192], *out, want[PATH_MAX + 32];

    snprintf(cmd, sizeof cmd,
             "mkdir -p %s/bin %s/share/" PACKAGE " && cp %s %s/bin/bfsim", top,
             top, tu_bfsim(), top);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd,
             "cd / && unset BFSIM_DATADIR; %s/bin/bfsim --datadir", top);
    ck_assert_int_eq(sh(cmd, &out), 0);
    snprintf(want, sizeof want, "%s/share/" PACKAGE "\n", real(top));
    ck_assert_str_eq(out, want);
    free(out);
}
END_TEST

/* A data directory with one trace (plain) and two job sets (one
 * gzip'd); returns its path. */
static const char *data_dir(void)
{
    const char *d = tu_tmp("data");
    char cmd[8192];

    snprintf(cmd, sizeof cmd, "mkdir -p %s/traces %s/datasets", d, d);
    ck_assert_int_eq(system(cmd), 0);
    tu_write("data/traces/tiny.trace",
             "bfsim-trace 1\nnode a\nnode b\n" T0 " +0 +1\n1612988600 -0 -1\n");
    tu_write("data/datasets/one.jobs",
             "# bfsim-jobs 1\n"
             "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
             "A," T0 ",1,2,1000,1,1,0:0:0 1:1:1 2:2:2\n");
    tu_write("data/datasets/two.jobs",
             "# bfsim-jobs 1\n"
             "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
             "A," T0 ",1,2,1000,1,1,0:0:0 1:1:1 2:2:2\n"
             "B," T0 ",1,2,1000,1,1,0:0:0 1:1:1 2:2:2\n");
    snprintf(cmd, sizeof cmd, "gzip %s/datasets/two.jobs", d);
    ck_assert_int_eq(system(cmd), 0);
    return d;
}

/* The report's line "  LINE: TEXT" as TEXT, kept until exit. */
static const char *report_value(const char *report, const char *line)
{
    char pat[128];
    const char *p;
    size_t n;

    snprintf(pat, sizeof pat, "\n  %s: ", line);
    p = strstr(report, pat);
    ck_assert_msg(p != NULL, "no '%s' in: %s", line, report);
    p += strlen(pat);
    n = strcspn(p, "\n");
    return tu_keep(strndup(p, n));
}

/* The jobs in the set, from the report's line "  jobs: N in the set, ...",
 * as text. */
static const char *report_jobs(const char *report)
{
    const char *v = report_value(report, "jobs");

    return tu_keep(strndup(v, strcspn(v, " ")));
}

/* --trace tiny --jobs one: DATADIR/traces/tiny.trace and
 * DATADIR/datasets/one.jobs; --jobs two.jobs: two.jobs.gz. */
START_TEST(test_bundled_names)
{
    const char *d = data_dir(), *cwd = tu_tmp("cwd");
    char cmd[8192], *out, want[PATH_MAX + 32];

    snprintf(cmd, sizeof cmd, "mkdir -p %s", cwd);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd,
             "cd %s && BFSIM_DATADIR=%s %s replay --trace tiny --jobs one "
             "--allocator dp -q",
             cwd, d, tu_bfsim());
    ck_assert_int_eq(sh(cmd, &out), 0);
    snprintf(want, sizeof want, "%s/traces/tiny.trace", d);
    ck_assert_str_eq(report_value(out, "trace"), want);
    snprintf(want, sizeof want, "%s/datasets/one.jobs", d);
    ck_assert_str_eq(report_value(out, "job set"), want);
    ck_assert_str_eq(report_jobs(out), "1");
    free(out);

    snprintf(cmd, sizeof cmd,
             "cd %s && BFSIM_DATADIR=%s %s replay --trace tiny.trace "
             "--jobs two.jobs --allocator dp -q",
             cwd, d, tu_bfsim());
    ck_assert_int_eq(sh(cmd, &out), 0);
    snprintf(want, sizeof want, "%s/datasets/two.jobs.gz", d);
    ck_assert_str_eq(report_value(out, "job set"), want);
    ck_assert_str_eq(report_jobs(out), "2");
    free(out);

    snprintf(cmd, sizeof cmd, "cd %s && BFSIM_DATADIR=%s %s info tiny", cwd, d,
             tu_bfsim());
    ck_assert_int_eq(sh(cmd, &out), 0);
    ck_assert_msg(strstr(out, "/traces/tiny.trace\n") != NULL, "%s", out);
    free(out);
}
END_TEST

/* A file of that name in the working directory wins over the bundled
 * one; a name with a '/' is never looked up. */
START_TEST(test_local_file_first)
{
    const char *d = data_dir(), *cwd = tu_tmp("cwd2");
    char cmd[8192], *out;

    snprintf(cmd, sizeof cmd, "mkdir -p %s && cp %s/datasets/one.jobs %s/two",
             cwd, d, cwd);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd,
             "cd %s && BFSIM_DATADIR=%s %s replay --trace tiny --jobs two "
             "--allocator dp -q",
             cwd, d, tu_bfsim());
    ck_assert_int_eq(sh(cmd, &out), 0);
    ck_assert_str_eq(report_value(out, "job set"), "two");
    ck_assert_str_eq(report_jobs(out), "1");
    free(out);

    snprintf(cmd, sizeof cmd,
             "cd %s && BFSIM_DATADIR=%s %s replay --trace tiny --jobs ./one "
             "--allocator dp -q",
             cwd, d, tu_bfsim());
    ck_assert_int_eq(sh(cmd, &out), 1);
    free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("install");
    TCase *tc = tcase_create("datadir");

    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_datadir_env);
    tcase_add_test(tc, test_datadir_build_tree);
    tcase_add_test(tc, test_datadir_moved);
    tcase_add_test(tc, test_bundled_names);
    tcase_add_test(tc, test_local_file_first);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
