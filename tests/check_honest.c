/* check_honest.c - what a replay tells its user when its numbers mean
 * little: the progress estimate when the trace ends long before the jobs'
 * work, and the warnings (and --strict's exit status) when no job was
 * admitted, when the submissions lie outside the replayed window, and
 * when no job finished (completion measures "none"). */
#include "config.h"

#include "testutil.h"
#include "engine/replay.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define T0 "1612988400"

/* ---- the progress estimate ------------------------------------------- */

struct seen {
    size_t n;       /* progress calls */
    size_t events;  /* events at the last call */
    double first;   /* share done at the first call */
    double mid;     /* ... at the call where events reached half */
    double last;    /* ... at the last call */
    int decreasing; /* the share ever went down */
};

#define EVENTS 60000

static void record(void *arg, size_t events, int64_t now, double done)
{
    struct seen *s = arg;

    (void)now;
    if (s->n == 0)
        s->first = done;
    else if (done < s->last)
        s->decreasing = 1;
    if (s->events < EVENTS / 2 && events >= EVENTS / 2)
        s->mid = done;
    s->events = events;
    s->last = done;
    s->n++;
}

/* A trace of 60,000 events (node 0 idle, then busy, ...) one second
 * apart, about 900 kB: far more than zlib's 128 kB read-ahead, so that
 * the share of the file read tracks the events read.  One job whose
 * work (Pmax 1e15 samples, 2 samples/s at most) is nowhere near done
 * when the trace ends after 60,000 s: the work alone would say under
 * 0.00001% done at the end. */
START_TEST(test_progress_trace_ends_first)
{
    const char *trace = tu_tmp("long.trace");
    const char *jobs =
        tu_write("huge.jobs", "# bfsim-jobs 1\n"
                              "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                              "A," T0 ",1,2,1e15,1,1,0:0:0 1:1:1 2:2:2\n");
    struct replay_opts o;
    struct replay_stats st;
    struct bfs_error e;
    struct seen s = {0};
    FILE *f = fopen(trace, "w");

    ck_assert_ptr_nonnull(f);
    fputs("bfsim-trace 1\nnode a\nnode b\n", f);
    for (long i = 0; i < EVENTS; i++)
        fprintf(f, "%ld %s\n", 1612988400L + i, i % 2 ? "-0" : "+0");
    ck_assert_int_eq(fclose(f), 0);

    replay_opts_default(&o);
    o.alloc.name = "dp";
    o.trace_path = trace;
    o.jobs_path = jobs;
    o.progress = record;
    o.progress_arg = &s;
    bfs_error_clear(&e);
    ck_assert_msg(replay_run(&o, &st, &e) == 0, "%s", e.msg);
    ck_assert_int_eq(st.jobs_finished, 0);
    ck_assert_msg(st.samples_trained < 1e8, "%g", st.samples_trained);
    ck_assert_int_eq(s.decreasing, 0);
    /* At the start: at most the first read-ahead counted, as nothing. */
    ck_assert_msg(s.first < 0.01, "first %g", s.first);
    /* Half the events: half the file read, give or take the 128 kB
     * read-ahead (about 15% of it). */
    ck_assert_msg(s.mid > 0.3 && s.mid < 0.8, "mid %g", s.mid);
    ck_assert_msg(s.last > 0.99, "last %g", s.last);
}
END_TEST

/* ---- warnings and --strict ---------------------------------------------- */

/* Runs "bfsim ARGS"; returns the exit status, stdout and stderr
 * (malloc'd). */
static int run(const char *args, char **out, char **err)
{
    const char *outf = tu_tmp("stdout.txt"), *errf = tu_tmp("stderr.txt");
    char *cmd = xmalloc(strlen(args) + 2 * strlen(outf) + 4096);
    int st;

    sprintf(cmd, "%s %s >%s 2>%s", tu_bfsim(), args, outf, errf);
    st = system(cmd);
    free(cmd);
    *out = tu_slurp(outf);
    *err = tu_slurp(errf);
    ck_assert_ptr_nonnull(*out);
    ck_assert_ptr_nonnull(*err);
    ck_assert_msg(WIFEXITED(st), "bfsim did not exit normally");
    return WEXITSTATUS(st);
}

/* Two nodes, idle from T0 + 100 to T0 + 1000 (the trace's last event). */
static const char *trace2(void)
{
    return tu_write("two.trace", "bfsim-trace 1\nnode a\nnode b\n" T0
                                 "\n1612988500 +0 +1\n1612989400 -0 -1\n");
}

/* One job submitted at tsub, of work pmax (2 samples/s on 2 nodes). */
static const char *jobs1(const char *name, const char *tsub, const char *pmax)
{
    char text[512];

    snprintf(text, sizeof text,
             "# bfsim-jobs 1\n"
             "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
             "A,%s,1,2,%s,0,0,0:0:0 1:1:1 2:2:2\n",
             tsub, pmax);
    return tu_write(name, text);
}

static void expect_has(const char *text, const char *want)
{
    ck_assert_msg(strstr(text, want) != NULL, "expected '%s' in:\n%s", want,
                  text);
}

/* Submitted a day after the trace's last event (T0 + 1000): never
 * admitted.  Warned twice, status 0, or 1 with --strict. */
START_TEST(test_jobs_after_window)
{
    const char *jobs = jobs1("late.jobs", "1613074800", "100");
    char args[4096], *out, *err;

    snprintf(args, sizeof args, "replay -q --allocator dp --trace %s --jobs %s",
             trace2(), jobs);
    ck_assert_int_eq(run(args, &out, &err), 0);
    expect_has(err, "warning: the job set's submissions (2021-02-11 20:20:00 "
                    ".. 2021-02-11 20:20:00 UTC) lie after the replayed "
                    "window (2021-02-10 20:20:00 .. 2021-02-10 20:36:40 UTC)");
    expect_has(err, "--align-jobs");
    expect_has(err, "warning: no job was admitted");
    expect_has(out, "\n  jobs: 1 in the set, 0 admitted, 0 finished\n");
    expect_has(out, "\n  completion time: mean none, median none, 95th "
                    "percentile none\n");
    expect_has(out, "\n  makespan: none\n");
    free(out);
    free(err);

    snprintf(args, sizeof args,
             "replay -q --strict --allocator dp --trace %s --jobs %s", trace2(),
             jobs);
    ck_assert_int_eq(run(args, &out, &err), 1);
    expect_has(err, "no job was admitted");
    free(out);
    free(err);

    /* --align-jobs moves the submission to T0: admitted, and finished
     * (100 samples at 2/s from T0 + 100: at T0 + 150), no warning. */
    snprintf(args, sizeof args,
             "replay -q --strict --align-jobs --allocator dp --trace %s "
             "--jobs %s",
             trace2(), jobs);
    ck_assert_int_eq(run(args, &out, &err), 0);
    ck_assert_str_eq(err, "");
    expect_has(out, "\n  jobs: 1 in the set, 1 admitted, 1 finished\n");
    /* 150 s = 2.5 minutes */
    expect_has(out, "\n  completion time: mean 2.5 min, median 2.5 min, "
                    "95th percentile 2.5 min\n");
    free(out);
    free(err);
}
END_TEST

/* Submitted at T0 + 500, inside the trace (T0 .. T0 + 1000): without
 * --start the replay starts there.  Both nodes are idle from T0 + 100;
 * the job (100 samples at 2/s) runs from T0 + 500 to T0 + 550 on both,
 * and the replay ends with the last job's work: 2 x 50 = 100 idle
 * node-seconds, all allocated, harvest 1, completion 50 s.  With --start
 * T0 the window adds T0 + 100 .. T0 + 500 with both nodes idle: 900 idle
 * node-seconds, harvest 100 / 900.  With --align-jobs the start is T0 and
 * the job is moved there: it starts at T0 + 100 and is done at +150. */
START_TEST(test_default_start_first_submission)
{
    const char *jobs = jobs1("mid.jobs", "1612988900", "100");
    char args[4096], *out, *err;

    snprintf(args, sizeof args,
             "replay -q --strict --allocator dp --trace %s "
             "--jobs %s",
             trace2(), jobs);
    ck_assert_int_eq(run(args, &out, &err), 0);
    ck_assert_str_eq(err, "");
    expect_has(out, " events, from 2021-02-10 20:28:20 UTC, to ");
    /* 100 node-s / 3600 = 0.02778 node-hours, all used */
    expect_has(out, "\n  idle node-hours: 0.0278 offered, 0.0278 used, "
                    "harvest ratio 100.0%\n");
    expect_has(out, "\n  completion time: mean 50 s, median 50 s, 95th "
                    "percentile 50 s\n");
    free(out);
    free(err);

    snprintf(args, sizeof args,
             "replay -q --strict --allocator dp --trace %s "
             "--jobs %s --start " T0,
             trace2(), jobs);
    ck_assert_int_eq(run(args, &out, &err), 0);
    expect_has(out, " events, from 2021-02-10 20:20:00 UTC, to ");
    /* 900 node-s = 0.25 node-hours, 100 of them used: 11.1% */
    expect_has(out, "\n  idle node-hours: 0.25 offered, 0.0278 used, "
                    "harvest ratio 11.1%\n");
    expect_has(out, "\n  completion time: mean 50 s, median 50 s, 95th "
                    "percentile 50 s\n");
    free(out);
    free(err);

    snprintf(args, sizeof args,
             "replay -q --strict --allocator dp --trace %s "
             "--jobs %s --align-jobs",
             trace2(), jobs);
    ck_assert_int_eq(run(args, &out, &err), 0);
    expect_has(out, " events, from 2021-02-10 20:20:00 UTC, to ");
    expect_has(out, "\n  completion time: mean 2.5 min, median 2.5 min, "
                    "95th percentile 2.5 min\n");
    free(out);
    free(err);
}
END_TEST

/* Submitted a day before the trace starts: admitted at its start, but
 * the times mean nothing; warned, "before". */
START_TEST(test_jobs_before_window)
{
    const char *jobs = jobs1("early.jobs", "1612902000", "100");
    char args[4096], *out, *err;

    snprintf(args, sizeof args,
             "replay -q --strict --allocator dp --trace %s --jobs %s", trace2(),
             jobs);
    ck_assert_int_eq(run(args, &out, &err), 1);
    expect_has(err, "UTC) lie before the replayed window");
    expect_has(out, "\n  jobs: 1 in the set, 1 admitted, ");
    free(out);
    free(err);
}
END_TEST

/* Admitted at T0 but 1e6 samples at 2/s take 500,000 s, the trace 1,000:
 * no job finished, the completion measures are none (the JSON summary
 * keeps its numbers), warned; --strict still writes the summary. */
START_TEST(test_no_job_finished)
{
    const char *jobs = jobs1("long.jobs", T0, "1e6");
    const char *summ = tu_tmp("summary.json");
    char args[4096], *out, *err, *json;

    snprintf(args, sizeof args, "replay -q --allocator dp --trace %s --jobs %s",
             trace2(), jobs);
    ck_assert_int_eq(run(args, &out, &err), 0);
    expect_has(err, "warning: no job finished: the completion measures");
    ck_assert_ptr_null(strstr(err, "admitted"));
    ck_assert_ptr_null(strstr(err, "submissions"));
    expect_has(out, "\n  jobs: 1 in the set, 1 admitted, 0 finished\n");
    expect_has(out, "\n  completion time: mean none, median none, 95th "
                    "percentile none\n");
    expect_has(out, "\n  makespan: none\n");
    free(out);
    free(err);

    snprintf(args, sizeof args,
             "replay -q --strict --allocator dp --trace %s --jobs %s "
             "--summary %s",
             trace2(), jobs, summ);
    ck_assert_int_eq(run(args, &out, &err), 1);
    expect_has(err, "no job finished");
    json = tu_slurp(summ);
    ck_assert_ptr_nonnull(json);
    expect_has(json, "\"jobs_finished\": 0,");
    free(json);
    free(out);
    free(err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("honest");
    TCase *tc = tcase_create("honest");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_progress_trace_ends_first);
    tcase_add_test(tc, test_jobs_after_window);
    tcase_add_test(tc, test_default_start_first_submission);
    tcase_add_test(tc, test_jobs_before_window);
    tcase_add_test(tc, test_no_job_finished);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
