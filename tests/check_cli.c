/* check_cli.c - the bfsim program as a user runs it: exit statuses, error
 * messages that name the file and line, and no output left behind by a
 * failed run. */
#include "config.h"

#include "testutil.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define T0 "1612988400"

/* A failing replay: status 1, the message names "file:line", and
 * neither the step log nor the summary exists afterwards. */
static void expect_input_error(const char *trace, const char *jobs,
                               const char *where)
{
    const char *steps = tu_tmp("out-steps.csv");
    const char *summ = tu_tmp("out-summary.json");
    char args[8192], *err;

    snprintf(args, sizeof args,
             "replay -q --trace %s --jobs %s --steps %s --summary %s", trace,
             jobs, steps, summ);
    ck_assert_int_eq(tu_bfsim_run(args, &err), 1);
    ck_assert_msg(strstr(err, where) != NULL, "expected '%s' in: %s", where,
                  err);
    ck_assert_int_eq(tu_exists(steps), 0);
    ck_assert_int_eq(tu_exists(summ), 0);
    free(err);
}

START_TEST(test_missing_column)
{
    const char *jobs =
        tu_write("nocol.jobs", "# bfsim-jobs 1\n"
                               "job,tsub,jmin,jmax,pmax,tcup,curve\n"
                               "A," T0 ",1,2,1000,1,0:0:0 1:1:1 2:2:2\n");
    expect_input_error(tu_good_trace(), jobs, "nocol.jobs:2:");
}
END_TEST

START_TEST(test_negative_count)
{
    const char *jobs =
        tu_write("neg.jobs", "# bfsim-jobs 1\n"
                             "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                             "A," T0 ",-1,2,1000,1,1,0:0:0 1:1:1 2:2:2\n");
    char *err;

    expect_input_error(tu_good_trace(), jobs, "neg.jobs:3:");
    /* A negative node count on the command line is a usage error. */
    ck_assert_int_eq(tu_bfsim_run("replay --nodes -3", &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "--nodes"));
    free(err);
}
END_TEST

START_TEST(test_jmin_above_jmax)
{
    const char *jobs =
        tu_write("jmin.jobs", "# bfsim-jobs 1\n"
                              "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                              "A," T0 ",1,2,1000,1,1,0:0:0 1:1:1 2:2:2\n"
                              "B," T0 ",3,2,1000,1,1,0:0:0 3:1:1\n");
    expect_input_error(tu_good_trace(), jobs, "jmin.jobs:4:");
}
END_TEST

START_TEST(test_times_out_of_order)
{
    const char *trace =
        tu_write("order.trace",
                 "bfsim-trace 1\nnode a\nnode b\n" T0 " +0\n1612988300 +1\n");
    expect_input_error(trace, tu_good_jobs(), "order.trace:5:");
}
END_TEST

START_TEST(test_unknown_node)
{
    const char *trace = tu_write("unk.trace", "bfsim-trace 1\nnode a\n"
                                              "node b\n" T0 " +0 +7\n");
    expect_input_error(trace, tu_good_jobs(), "unk.trace:4:");
}
END_TEST

START_TEST(test_curve_without_zero)
{
    const char *jobs =
        tu_write("zero.jobs", "# bfsim-jobs 1\n"
                              "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                              "A," T0 ",1,2,1000,1,1,1:1:1 2:2:2\n");
    expect_input_error(tu_good_trace(), jobs, "zero.jobs:3:");
}
END_TEST

START_TEST(test_missing_file)
{
    expect_input_error(tu_tmp("no-such.trace"), tu_good_jobs(),
                       "no-such.trace");
}
END_TEST

/* The good inputs replay, and write what was asked. */
START_TEST(test_good_run)
{
    const char *steps = tu_tmp("ok-steps.csv");
    const char *summ = tu_tmp("ok-summary.json");
    char args[8192], *err, *json;

    snprintf(args, sizeof args,
             "replay -q --trace %s --jobs %s --steps %s --summary %s",
             tu_good_trace(), tu_good_jobs(), steps, summ);
    ck_assert_int_eq(tu_bfsim_run(args, &err), 0);
    json = tu_slurp(summ);
    ck_assert_ptr_nonnull(json);
    ck_assert_ptr_nonnull(strstr(json, "\"events\": "));
    ck_assert_ptr_nonnull(strstr(json, "\"samples_trained\": "));
    ck_assert_int_eq(tu_exists(steps), 1);
    free(json);
    free(err);
}
END_TEST

/* An HDF5 output can only be written by renaming a file over the path:
 * over a FIFO the replay refuses, with status 1 and a message naming it,
 * and leaves the FIFO a FIFO (as root, a rename would have replaced it,
 * as it once replaced /dev/null). */
START_TEST(test_output_fifo)
{
    const char *fifo = tu_tmp("out.fifo");
    char args[8192], want[4200], *err;
    struct stat st;

    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    snprintf(args, sizeof args, "replay -q --trace %s --jobs %s -o %s",
             tu_good_trace(), tu_good_jobs(), fifo);
    ck_assert_int_eq(tu_bfsim_run(args, &err), 1);
    snprintf(want, sizeof want, "%s: not a regular file", fifo);
    ck_assert_msg(strstr(err, want) != NULL, "expected '%s' in: %s", want, err);
    ck_assert_int_eq(lstat(fifo, &st), 0);
    ck_assert(S_ISFIFO(st.st_mode));
    free(err);
}
END_TEST

/* `bfsim info` on a trace whose last event is at INT64_MAX printed a
 * span of 2.5e15 hours and exited 0 (the span overflowed): status 1 and
 * the line of that event. */
START_TEST(test_info_time_overflow)
{
    const char *p = tu_write("max.trace", "bfsim-trace 1\nnode a\n" T0
                                          " +0\n9223372036854775807 -0\n");
    char args[8192], want[4200], *err;

    snprintf(args, sizeof args, "info %s", p);
    ck_assert_int_eq(tu_bfsim_run(args, &err), 1);
    snprintf(want, sizeof want,
             "%s:4: event time 9223372036854775807 is out "
             "of range",
             p);
    ck_assert_msg(strstr(err, want) != NULL, "expected '%s' in: %s", want, err);
    free(err);
}
END_TEST

/* All outputs or none: the job log cannot be created (its folder does not
 * exist), so neither the step log, opened before it, nor the summary
 * may be left under its name (the step log used to be written first and
 * stay behind). */
START_TEST(test_outputs_all_or_none)
{
    const char *steps = tu_tmp("aon-steps.csv");
    const char *summ = tu_tmp("aon-summary.json");
    const char *jlog = tu_tmp("no-such-dir/jobs.csv");
    char args[8192], *err;

    snprintf(args, sizeof args,
             "replay -q --trace %s --jobs %s --steps %s --summary %s "
             "--job-log %s",
             tu_good_trace(), tu_good_jobs(), steps, summ, jlog);
    ck_assert_int_eq(tu_bfsim_run(args, &err), 1);
    ck_assert_msg(strstr(err, "no-such-dir") != NULL, "%s", err);
    ck_assert_int_eq(tu_exists(steps), 0);
    ck_assert_int_eq(tu_exists(summ), 0);
    free(err);
}
END_TEST

START_TEST(test_usage)
{
    char *err;

    ck_assert_int_eq(tu_bfsim_run("--version", &err), 0);
    free(err);
    ck_assert_int_eq(tu_bfsim_run("replay --no-such-option", &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "--no-such-option"));
    free(err);
    ck_assert_int_eq(tu_bfsim_run("no-such-command", &err), 2);
    free(err);
    ck_assert_int_eq(tu_bfsim_run("replay --start yesterday", &err), 2);
    free(err);
    ck_assert_int_eq(tu_bfsim_run("replay --compat other", &err), 2);
    free(err);
}
END_TEST

/* Runs "bfsim ARGS", expecting status 2 and want on standard error. */
static void expect_usage(const char *args, const char *want)
{
    char *err;
    int st = tu_bfsim_run(args, &err);

    ck_assert_msg(st == 2, "%s: status %d (%s)", args, st, err);
    ck_assert_msg(strstr(err, want) != NULL, "%s: '%s' lacks '%s'", args, err,
                  want);
    free(err);
}

/* Values the library finds wrong are usage errors too (status 2, from
 * BFS_EUSAGE in one place, cmd_report), and so is an option the chosen
 * allocator would ignore. */
START_TEST(test_usage_from_library)
{
    char args[8192];
    const char *swf = tu_write("u.swf", "; MaxNodes: 2\n1 0 0 10 1 -1 -1 -1 "
                                        "-1 -1 1 1 1 -1 -1 -1 -1 -1\n");
    const char *out = tu_tmp("u.trace");

    snprintf(args, sizeof args, "replay -q --trace %s --jobs %s ",
             tu_good_trace(), tu_good_jobs());
    {
        char cmd[8400];
        snprintf(cmd, sizeof cmd, "%s--allocator greedy", args);
        expect_usage(cmd, "unknown allocator 'greedy' (known: even, dp, milp)");
        snprintf(cmd, sizeof cmd, "%s--allocator dp --solver gurobi", args);
        expect_usage(cmd, "--solver is an option of --allocator milp; "
                          "--allocator dp would ignore it");
        snprintf(cmd, sizeof cmd, "%s--allocator even --time-limit 5", args);
        expect_usage(cmd, "--time-limit is an option of --allocator milp");
        snprintf(cmd, sizeof cmd, "%s--allocator dp --model node", args);
        expect_usage(cmd, "--model is an option of --allocator milp");
        snprintf(cmd, sizeof cmd, "%s--allocator dp --gap 0.1", args);
        expect_usage(cmd, "--gap is an option of --allocator milp");
    }
    snprintf(args, sizeof args,
             "convert --from swf %s -o %s --procs-per-node 0", swf, out);
    expect_usage(args, "--procs-per-node: '0' is not a positive count");
    ck_assert_int_eq(tu_exists(out), 0);
    snprintf(args, sizeof args, "convert --from swf %s -o %s --max-nodes 0",
             swf, out);
    expect_usage(args, "--max-nodes: '0' is not a node count");
    snprintf(args, sizeof args,
             "gen-trace --nodes 2 --duration 1h --idle weibull:3 -o %s", out);
    expect_usage(args, "bad distribution 'weibull:3'");
    snprintf(args, sizeof args,
             "gen-trace --nodes 2 --duration 1h --busy lognormal:31,1 -o %s",
             out);
    expect_usage(args, "lognormal:MU,SIGMA needs MU <= 30");
    ck_assert_int_eq(tu_exists(out), 0);
}
END_TEST

/* --time-limit reaches dp from both commands: with a limit no solve can
 * meet, every solve of a replay stops at dp's first look at its clock
 * and is counted feasible, and `bfsim solve` answers feasible with
 * counts.  (The option used to be refused with dp.) */
START_TEST(test_dp_time_limit)
{
    char args[8192], *out;

    snprintf(args, sizeof args,
             "replay -q --trace %s --jobs %s --allocator dp --time-limit "
             "1e-9 --summary -",
             tu_good_trace(), tu_good_jobs());
    ck_assert_int_eq(tu_bfsim_output(args, &out, NULL), 0);
    ck_assert_msg(strstr(out, "\"optimal\": 0,") &&
                      !strstr(out, "\"feasible\": 0,") &&
                      !strstr(out, "\"solves\": 0,"),
                  "%s", out);
    free(out);
    snprintf(args, sizeof args,
             "solve --allocator dp --time-limit 1e-9 --json %s",
             tu_src("tests/data/branch.instance.json"));
    ck_assert_int_eq(tu_bfsim_output(args, &out, NULL), 0);
    ck_assert_msg(strstr(out, "\"status\": \"feasible\"") &&
                      strstr(out, "\"counts\": ["),
                  "%s", out);
    free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("errors");

    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_missing_column);
    tcase_add_test(tc, test_negative_count);
    tcase_add_test(tc, test_jmin_above_jmax);
    tcase_add_test(tc, test_times_out_of_order);
    tcase_add_test(tc, test_unknown_node);
    tcase_add_test(tc, test_curve_without_zero);
    tcase_add_test(tc, test_missing_file);
    tcase_add_test(tc, test_good_run);
    tcase_add_test(tc, test_output_fifo);
    tcase_add_test(tc, test_info_time_overflow);
    tcase_add_test(tc, test_outputs_all_or_none);
    tcase_add_test(tc, test_usage);
    tcase_add_test(tc, test_usage_from_library);
    tcase_add_test(tc, test_dp_time_limit);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
