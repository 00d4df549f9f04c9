/* check_ckpt.c - tests of the default mode's checkpoints (default.c;
 * tools/DESIGN.md, "Checkpoints").
 *
 * Each case replays a hand-written trace of one or two nodes and a job
 * of one curve point per count (P(1) = 10 samples/s, P(2) = 16), and
 * compares the summary's measures and the job log with values worked
 * out by hand in the comments: the issue's case (interval 600 s, free
 * writes, preempted at 1,000 s: 400 s of training lost), one with write
 * and restart costs and a second stop, one that finishes (the write
 * pause delays its completion), a shrink that keeps Jmin (Tcdw as
 * without checkpoints, then a stop before any checkpoint), two jobs
 * whose job-log checkpoint columns sum to the measures, a blank
 * ckpt_interval giving the same step log as no column, and the
 * compatible mode's refusal.  T = 1612988400 = 2021-02-10 20:20:00.
 */
#include "config.h"

#include "engine/replay.h"
#include "formats/jobs.h"
#include "formats/records.h"
#include "testreplay.h"
#include "testutil.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#define HEAD                                                                   \
    "# bfsim-jobs 1\n"                                                         \
    "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve,ckpt_interval,ckpt_write,"        \
    "ckpt_restart\n"

/* Replays as tu_replay_joblog and returns the job log's second line,
 * the job's row (owned by the caller). */
static char *replay(const char *name, const char *trace, const char *jobs,
                    struct replay_stats *st)
{
    char *log = tu_replay_joblog(name, trace, jobs, st), *row;

    ck_assert_ptr_nonnull(log);
    row = strchr(log, '\n');
    ck_assert_ptr_nonnull(row);
    row = xstrdup(row + 1);
    free(log);
    return row;
}

/* The issue's case.  A alone on n0 from T at P(1) = 10; interval 600 s,
 * writes free.  It trains 600 s (6,000 samples), writes a checkpoint of
 * 6,000 at T+600, trains 400 s more (10,000) and loses n0 at T+1000: it
 * goes back to 6,000, losing 400 s x 10 = 4,000 samples.  n0 comes back
 * at T+1100: A restarts from its checkpoint (no restart cost) and the
 * trace ends there. */
START_TEST(test_issue_case)
{
    struct replay_stats st;
    char *row =
        replay("issue",
               "bfsim-trace 1\nnode n0\n"
               "1612988400 +0\n1612989400 -0\n1612989500 +0\n",
               HEAD "A,1612988400,1,1,1e6,4,2,0:0:0 1:10:1,600,0,\n", &st);

    ck_assert_int_eq(st.ckpt, 1);
    ck_assert_double_eq(st.samples_trained, 10000.0);
    ck_assert_double_eq(st.ckpt_lost_samples, 400.0 * 10);
    ck_assert_double_eq(st.ckpt_pause_cost, 0.0);
    ck_assert_double_eq(st.ckpt_write_node_seconds, 0.0);
    ck_assert_uint_eq(st.ckpt_writes, 1);
    ck_assert_uint_eq(st.ckpt_restarts, 1);
    /* no Tcdw pause at the stop: nothing lost to preemption */
    ck_assert_double_eq(st.preempt_cost, 0.0);
    /* samples 6000, 1000 node-s, 1 preemption, never paused, 2 starts;
     * 4,000 lost to its restart, none in pauses, 1 write, 1 restart */
    ck_assert_str_eq(row, "A,2021-02-10 20:20:00,2021-02-10 20:20:00,"
                          "2021-02-10 20:20:00,,,6000,1000,0,1,0,0,0,2,"
                          "4000,0,1,1\n");
    free(row);
}
END_TEST

/* Write 50 s, restart 30 s, Tcdw 2 (not paid at a stop).  A on n0:
 *   [T, T+600)      trains 600 s: 6,000; a write begins (checkpoint 6,000)
 *   [T+600, T+650)  the write: 50 s x 10 = 500 lost, 50 node-s writing
 *   [T+650, T+1000) trains 350 s: 9,500; n0 leaves: back to 6,000, 3,500
 *                   lost
 *   T+1100          n0 back: restart, paused to T+1130 (300 lost)
 *   [T+1130, T+1730) trains 600 s: 12,000; write to T+1780 (500 lost)
 *   [T+1780, T+2000) trains 220 s: 14,200; n0 leaves: back to 12,000,
 *                   2,200 lost.
 * Trained 9,500 + 8,200 = 17,700; lost to restarts 5,700; to checkpoint
 * pauses 1,300; 100 node-s writing; 2 writes, 1 restart; paused 130 s.
 * Check: 1,900 s on a node at 10 = 19,000 = 17,700 + 1,300. */
START_TEST(test_costs)
{
    struct replay_stats st;
    char *row =
        replay("costs",
               "bfsim-trace 1\nnode n0\n"
               "1612988400 +0\n1612989400 -0\n1612989500 +0\n"
               "1612990400 -0\n",
               HEAD "A,1612988400,1,1,1e6,4,2,0:0:0 1:10:1,600,50,30\n", &st);

    ck_assert_double_eq(st.samples_trained, 17700.0);
    ck_assert_double_eq(st.ckpt_lost_samples, 5700.0);
    ck_assert_double_eq(st.ckpt_pause_cost, 1300.0);
    ck_assert_double_eq(st.ckpt_write_node_seconds, 100.0);
    ck_assert_uint_eq(st.ckpt_writes, 2);
    ck_assert_uint_eq(st.ckpt_restarts, 1);
    ck_assert_double_eq(st.preempt_cost, 0.0);
    ck_assert_double_eq(st.rescale_cost, 0.0);
    ck_assert_str_eq(row, "A,2021-02-10 20:20:00,2021-02-10 20:20:00,"
                          "2021-02-10 20:20:00,,,12000,1900,0,2,130,0,0,2,"
                          "5700,1300,2,1\n");
    free(row);
}
END_TEST

/* Pmax 7,000, write 50 s: 6,000 by T+600, the write to T+650, then 100 s
 * to 7,000: done at T+750 (completion 750 s), one checkpoint. */
START_TEST(test_completion)
{
    struct replay_stats st;
    char *row =
        replay("done",
               "bfsim-trace 1\nnode n0\n"
               "1612988400 +0\n1612990400 -0\n",
               HEAD "A,1612988400,1,1,7000,4,2,0:0:0 1:10:1,600,50,30\n", &st);

    ck_assert_uint_eq(st.jobs_finished, 1);
    ck_assert_double_eq(st.jct_mean, 750.0);
    ck_assert_uint_eq(st.ckpt_writes, 1);
    ck_assert_double_eq(st.ckpt_pause_cost, 500.0);
    ck_assert_double_eq(st.ckpt_lost_samples, 0.0);
    ck_assert_str_eq(row, "A,2021-02-10 20:20:00,2021-02-10 20:20:00,"
                          "2021-02-10 20:20:00,2021-02-10 20:32:30,750,7000,"
                          "750,0,0,50,0,0,1,0,500,1,0\n");
    free(row);
}
END_TEST

/* A shrink that keeps Jmin pays Tcdw as without checkpoints; a stop
 * before the first checkpoint goes back to 0.  A (Jmin 1, Jmax 2,
 * Tcdw 5, interval 1,000) on n0 n1 at P(2) = 16 for 100 s: 1,600.  n1
 * leaves: A keeps 1 node, pauses 5 s at P(1) = 10 (50 lost to
 * preemption), trains 195 s: 3,550 (295 s of training, no checkpoint).
 * n0 leaves at T+300: back to 0, 3,550 lost; no restart is due.  Node-s
 * 2 x 100 + 1 x 200 = 400; paused 5 s, 2 preemptions, 1 start. */
START_TEST(test_shrink_then_stop)
{
    struct replay_stats st;
    char *row = replay(
        "shrink",
        "bfsim-trace 1\nnode n0\nnode n1\n"
        "1612988400 +0 +1\n1612988500 -1\n1612988700 -0\n",
        HEAD "A,1612988400,1,2,1e6,4,5,0:0:0 1:10:1 2:16:2,1000,0,7\n", &st);

    ck_assert_double_eq(st.samples_trained, 3550.0);
    ck_assert_double_eq(st.preempt_cost, 50.0);
    ck_assert_double_eq(st.ckpt_lost_samples, 3550.0);
    ck_assert_uint_eq(st.ckpt_writes, 0);
    ck_assert_uint_eq(st.ckpt_restarts, 0);
    ck_assert_str_eq(row, "A,2021-02-10 20:20:00,2021-02-10 20:20:00,"
                          "2021-02-10 20:20:00,,,0,400,0,2,5,0,50,1,"
                          "3550,0,0,0\n");
    free(row);
}
END_TEST

/* Two jobs, the per-job columns summing to the measures.  n0 and n1 up
 * from T, both leave at T+1000; A and B (Jmax 1) hold one each at
 * P(1) = 10.
 *   A, interval 600, free writes: 6,000 at T+600 (a write), 10,000 at
 *     T+1000, back to 6,000: 4,000 lost, 1 write.
 *   B, interval 300, write 10 s: trains [T, T+300) 3,000, writes to
 *     T+310 (100 lost), trains to T+610 (6,000), writes to T+620 (100),
 *     trains to T+920 (9,000), writes to T+930 (100), trains 70 s to
 *     9,700; at T+1000 back to 9,000 (its write ended at T+930): 700
 *     lost, 300 in pauses, 3 writes, 30 s paused.
 * The measures: 4,700 lost to restarts, 300 to pauses, 4 writes, no
 * restart (the trace ends). */
START_TEST(test_per_job_sums)
{
    struct replay_stats st;
    char *log = tu_replay_joblog(
        "twojobs",
        "bfsim-trace 1\nnode n0\nnode n1\n"
        "1612988400 +0 +1\n1612989400 -0 -1\n",
        HEAD "A,1612988400,1,1,1e6,4,2,0:0:0 1:10:1,600,0,\n"
             "B,1612988400,1,1,1e6,4,2,0:0:0 1:10:1,300,10,5\n",
        &st);

    ck_assert_str_eq(
        log, "job,tsub,admitted,first_start,finished,completion_s,samples,"
             "node_seconds,rescales,preemptions,paused_s,lost_rescale,"
             "lost_preempt,starts,ckpt_lost_samples,ckpt_pause_cost,"
             "ckpt_writes,ckpt_restarts\n"
             "A,2021-02-10 20:20:00,2021-02-10 20:20:00,2021-02-10 20:20:00,"
             ",,6000,1000,0,1,0,0,0,1,4000,0,1,0\n"
             "B,2021-02-10 20:20:00,2021-02-10 20:20:00,2021-02-10 20:20:00,"
             ",,9000,1000,0,1,30,0,0,1,700,300,3,0\n");
    ck_assert_double_eq(st.ckpt_lost_samples, 4000.0 + 700.0);
    ck_assert_double_eq(st.ckpt_pause_cost, 0.0 + 300.0);
    ck_assert_uint_eq(st.ckpt_writes, 1 + 3);
    ck_assert_uint_eq(st.ckpt_restarts, 0);
    free(log);
}
END_TEST

/* A blank ckpt_interval is no checkpoints: the step log and the job log
 * are those of the same job file without the columns, and the
 * checkpoint measures are absent. */
START_TEST(test_blank_is_none)
{
    const char *trace = "bfsim-trace 1\nnode n0\nnode n1\n"
                        "1612988400 +0 +1\n1612988500 -1\n1612988600 -0\n"
                        "1612988650 +0 +1\n";
    struct replay_stats st;
    char *a =
        replay("blank", trace,
               HEAD "A,1612988400,1,2,1e6,4,5,0:0:0 1:10:1 2:16:2,,,\n", &st);
    char *b;

    ck_assert_int_eq(st.ckpt, 0);
    b = replay("plain", trace,
               "# bfsim-jobs 1\njob,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
               "A,1612988400,1,2,1e6,4,5,0:0:0 1:10:1 2:16:2\n",
               &st);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    a = tu_slurp(tu_tmp("blank.csv"));
    b = tu_slurp(tu_tmp("plain.csv"));
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
}
END_TEST

/* The compatible mode refuses a job with checkpoints, naming the file,
 * the job's line and the job. */
START_TEST(test_compat_refuses)
{
    const char *jobs = tu_write("compat.jobs", HEAD
                                "A,1612988400,1,1,1e6,4,2,0:0:0 1:10:1,,,\n"
                                "B,1612988400,1,1,1e6,4,2,0:0:0 "
                                "1:10:1,600,0,0\n");
    struct replay_opts o;
    struct replay_stats st;
    struct bfs_error e;
    char want[4096];

    replay_opts_default(&o);
    o.mode = REPLAY_COMPAT;
    o.alloc.name = "even";
    o.trace_path =
        tu_write("compat.trace", "bfsim-trace 1\nnode n0\n1612988400 +0\n");
    o.jobs_path = jobs;
    bfs_error_clear(&e);
    ck_assert_int_eq(tu_replay(&o, NULL, &st, &e), BFS_EINVAL);
    snprintf(want, sizeof want,
             "%s:4: job B has checkpoints (ckpt_interval), which the "
             "compatible mode (--compat), the published replayer's "
             "semantics, does not model; replay it in the default mode",
             jobs);
    ck_assert_str_eq(e.msg, want);
}
END_TEST

/* The columns are read and written back: convert's round trip. */
START_TEST(test_columns_round_trip)
{
    const char *p = tu_write("rt.jobs", HEAD "A,0,1,1,5,4,2,0:0:0 1:10:1,,,\n"
                                             "B,0,1,1,5,4,2,0:0:0 "
                                             "1:10:1,600.5,0.25,\n");
    const char *q = tu_tmp("rt-back.jobs");
    struct jobset js;
    struct bfs_error e;
    char *text;

    bfs_error_clear(&e);
    ck_assert_msg(jobset_load(p, NULL, &js, &e) == 0, "%s", e.msg);
    ck_assert(js.jobs[0].ckpt_interval == 0);
    ck_assert(js.jobs[1].ckpt_interval == 600.5);
    ck_assert(js.jobs[1].ckpt_write == 0.25);
    ck_assert(js.jobs[1].ckpt_restart == 0);
    ck_assert_uint_eq(js.n_features, 0);
    ck_assert_msg(jobset_write(q, &js, NULL, &e) == 0, "%s", e.msg);
    text = tu_slurp(q);
    ck_assert_str_eq(text, HEAD "A,0,1,1,5,4,2,0:0:0 1:10:1,,,\n"
                                "B,0,1,1,5,4,2,0:0:0 1:10:1,600.5,0.25,0\n");
    free(text);
    jobset_release(&js);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ckpt");
    TCase *tc = tcase_create("default");

    tcase_add_test(tc, test_issue_case);
    tcase_add_test(tc, test_costs);
    tcase_add_test(tc, test_completion);
    tcase_add_test(tc, test_shrink_then_stop);
    tcase_add_test(tc, test_per_job_sums);
    tcase_add_test(tc, test_blank_is_none);
    tcase_add_test(tc, test_compat_refuses);
    tcase_add_test(tc, test_columns_round_trip);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
