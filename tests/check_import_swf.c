/* check_import_swf.c - SWF logs to traces.
 *
 * Small logs written here, with the expected events worked out by hand in
 * the comments, and, when the published data is there, every SWF log of
 * ../shared/data/swf: each converts, the converted trace reads back, and
 * its idle node-seconds (integrated here from the trace, and as `bfsim
 * info` computes them) equal those of tools/swf-idle-hours, an independent
 * computation straight from the log.
 */
#include "config.h"

#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "testimport.h"
#include "testutil.h"
#include "formats/trace.h"
#include "formats/traceinfo.h"

/* A trace as text, one "TIME +i -j" line per event, and its integral. */
struct readback {
    char text[8192];
    uint64_t idle_node_s;
    size_t nodes, events;
    char first_name[32], last_name[32];
};

static void read_trace(const char *path, struct readback *rb)
{
    struct trace_reader *r;
    struct trace_event ev;
    struct bfs_error e;
    size_t len = 0, idle = 0;
    int64_t prev = 0;
    int rc;

    memset(rb, 0, sizeof *rb);
    bfs_error_clear(&e);
    ck_assert_msg(trace_open(path, &r, &e) == 0, "%s", e.msg);
    rb->nodes = trace_node_count(r);
    snprintf(rb->first_name, sizeof rb->first_name, "%s",
             trace_node_name(r, 0));
    snprintf(rb->last_name, sizeof rb->last_name, "%s",
             trace_node_name(r, rb->nodes - 1));
    while ((rc = trace_next(r, &ev, &e)) == 1) {
        if (rb->events > 0)
            rb->idle_node_s += (uint64_t)idle * (uint64_t)(ev.time - prev);
        idle += ev.n_join;
        idle -= ev.n_leave;
        prev = ev.time;
        rb->events++;
        if (len < sizeof rb->text - 256) {
            len += (size_t)snprintf(rb->text + len, sizeof rb->text - len,
                                    "%" PRId64, ev.time);
            for (size_t k = 0; k < ev.n_join && len < sizeof rb->text - 32; k++)
                len += (size_t)snprintf(rb->text + len, sizeof rb->text - len,
                                        " +%" PRIu32, ev.join[k]);
            for (size_t k = 0; k < ev.n_leave && len < sizeof rb->text - 32;
                 k++)
                len += (size_t)snprintf(rb->text + len, sizeof rb->text - len,
                                        " -%" PRIu32, ev.leave[k]);
            len +=
                (size_t)snprintf(rb->text + len, sizeof rb->text - len, "\n");
        }
    }
    ck_assert_msg(rc == 0, "%s", e.msg);
    trace_close(r);
}

/* Converts text (written to a file) with options "name=value;..." and
 * reads the trace back.  Returns the importer's code. */
static int convert(const char *text, const char *opts,
                   struct import_log_report *rep, struct readback *rb,
                   struct bfs_error *e)
{
    static int n;
    char name[64];
    const char *in, *out;
    struct import_log_opts o;
    struct import_stats st;
    int rc;

    snprintf(name, sizeof name, "log%d.swf", n);
    in = tu_write(name, text);
    snprintf(name, sizeof name, "out%d.trace", n++);
    out = tu_tmp(name);
    tu_import_opts(opts, &o);
    bfs_error_clear(e);
    rc = import_swf(in, out, NULL, &o, &st, rep, e);
    if (rc == 0) {
        read_trace(out, rb);
        ck_assert_uint_eq(st.events, rb->events);
        ck_assert_uint_eq(st.nodes, rb->nodes);
        ck_assert_uint_eq(rep->idle_node_s, rb->idle_node_s);
    } else {
        ck_assert_int_eq(tu_exists(out), 0);
    }
    return rc;
}

/* MaxNodes 4, MaxProcs 8: 2 processors per node; times from 1000.
 *
 *   job 1: [1010, 1110), 3 procs -> 2 nodes
 *   job 2: submitted 5, wait -1 (started at submission): [1005, 1055),
 *          1 node
 *   job 3: ran 0 s (skipped)
 *   job 4: [1055, 1115), 2 nodes; starts the second job 2 ends
 *   job 5: submit -1 (skipped), job 6: run time -1 (skipped),
 *   job 7: processors -1 (skipped)
 *   job 8: [1060, 1090), 4 nodes, but none is free then: dropped
 *   job 9: [1110, 1120), 1 node; starts the second job 1 ends
 *
 * First fit: 1005 job 2 takes n0 (the trace opens: n1-n3 idle); 1010 job
 * 1 takes n1, n2; 1055 job 2 frees n0 and job 4 takes n0 and n3: only n3
 * changes; 1060 nothing free for job 8; 1110 job 1 frees n1, n2 and job 9
 * takes n1: n2 joins; 1115 job 4 frees n0, n3; 1120 job 9 frees n1.
 * Idle node-seconds: 3*5 + 1*45 + 0*55 + 1*5 + 3*5 = 80.  Job 8's 4 nodes
 * for 30 s were not placed: 120 node-seconds. */
static const char *const small_swf =
    "; Version: 2.2\n"
    "; UnixStartTime: 1000\n"
    "; MaxNodes: 4 (all of them)\n"
    "; MaxProcs: 8\n"
    ";\n"
    "1 0 10 100 3 -1 -1 3 200 -1 1 1 1 1 1 1 -1 -1\n"
    "2 5 -1 50 2 10.5 -1 2 60 -1 1 2 1 1 1 1 -1 -1\n"
    "\n"
    "3 20 0 0 2 -1 -1 2 60 -1 0 2 1 1 1 1 -1 -1\n"
    "4 30 25 60 4 -1 -1 4 60 -1 1 3 1 1 1 1 -1 -1\n"
    "5 -1 -1 -1 -1 -1 -1 -1 -1 -1 5 3 1 1 1 1 -1 -1\n"
    "6 40 10 -1 2 -1 -1 2 60 -1 5 3 1 1 1 1 -1 -1\n"
    "7 50 10 40 -1 -1 -1 2 60 -1 5 3 1 1 1 1 -1 -1\n"
    "8 60 0 30 8 -1 -1 8 60 -1 1 4 1 1 1 1 -1 -1\n"
    "; a comment among the jobs\n"
    "9 70 40 10 2 -1 -1 2 60 -1 1 4 1 1 1 1 -1 -1\n";

START_TEST(test_small_first_fit)
{
    struct import_log_report r;
    struct readback rb;
    struct bfs_error e;

    ck_assert_msg(convert(small_swf, NULL, &r, &rb, &e) == 0, "%s", e.msg);
    ck_assert_str_eq(rb.text, "1005 +1 +2 +3\n"
                              "1010 -1 -2\n"
                              "1055 -3\n"
                              "1110 +2\n"
                              "1115 +0 +3\n"
                              "1120 +1\n");
    ck_assert_uint_eq(rb.idle_node_s, 80);
    ck_assert_uint_eq(rb.nodes, 4);
    ck_assert_str_eq(rb.first_name, "n0");
    ck_assert_str_eq(rb.last_name, "n3");
    ck_assert_uint_eq(r.records, 9);
    ck_assert_uint_eq(r.jobs, 5);
    ck_assert_uint_eq(r.unknown_submit, 1);
    ck_assert_uint_eq(r.unknown_run, 1);
    ck_assert_uint_eq(r.zero_run, 1);
    ck_assert_uint_eq(r.unknown_size, 1);
    ck_assert_uint_eq(r.wait_unknown, 1);
    ck_assert_uint_eq(r.placed, 4);
    ck_assert_uint_eq(r.dropped, 1);
    ck_assert_uint_eq(r.truncated, 0);
    ck_assert_uint_eq(r.oversized, 0);
    ck_assert_uint_eq(r.lost_node_s, 120);
    ck_assert_int_eq(r.procs_per_node, 2);
    ck_assert_int_eq(r.unix_start, 1000);
    ck_assert_int_eq(r.start, 1005);
    ck_assert_int_eq(r.end, 1120);
    ck_assert_str_eq(r.nodes_from, "header MaxNodes");
}
END_TEST

/* Five nodes, one processor each, times from 0.
 *
 *   A [0, 100) 1 node, B [1, 11) 1, C [2, 102) 1, D [20, 50) 2,
 *   E [21, 26) 3 nodes.
 *
 * A, B, C take n0, n1, n2; at 11 B frees n1: free {1, 3, 4}.  D needs 2:
 * first fit n1, n3; contiguous the run n3, n4.  E needs 3 with one node
 * free: truncated to it (n4, or n1 when contiguous), 2 * 5 = 10
 * node-seconds lost; with --overflow skip it gets none (15 lost).
 * Idle: [0,1) 4, [1,2) 3, [2,11) 2*9, [11,20) 3*9, [20,21) 1, [21,26) 0,
 * [26,50) 1*24, [50,100) 3*50, [100,102) 4*2: 235 node-seconds. */
static const char *const five_swf =
    "; MaxNodes: 5\n"
    "1 0 0 100 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
    "2 1 0 10 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
    "3 2 0 100 1 -1 -1 1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
    "4 20 0 30 2 -1 -1 2 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
    "5 21 0 5 3 -1 -1 3 -1 -1 1 1 1 -1 -1 -1 -1 -1\n";

START_TEST(test_placement)
{
    struct import_log_report r;
    struct readback rb;
    struct bfs_error e;

    ck_assert_msg(convert(five_swf, NULL, &r, &rb, &e) == 0, "%s", e.msg);
    ck_assert_str_eq(rb.text, "0 +1 +2 +3 +4\n"
                              "1 -1\n"
                              "2 -2\n"
                              "11 +1\n"
                              "20 -1 -3\n"
                              "21 -4\n"
                              "26 +4\n"
                              "50 +1 +3\n"
                              "100 +0\n"
                              "102 +2\n");
    ck_assert_uint_eq(rb.idle_node_s, 235);
    ck_assert_uint_eq(r.truncated, 1);
    ck_assert_uint_eq(r.lost_node_s, 10);
    ck_assert_uint_eq(r.fragmented, 0);
    ck_assert_int_eq(r.procs_per_node, 1);

    ck_assert_msg(convert(five_swf, "placement=contiguous", &r, &rb, &e) == 0,
                  "%s", e.msg);
    ck_assert_str_eq(rb.text, "0 +1 +2 +3 +4\n"
                              "1 -1\n"
                              "2 -2\n"
                              "11 +1\n"
                              "20 -3 -4\n"
                              "21 -1\n"
                              "26 +1\n"
                              "50 +3 +4\n"
                              "100 +0\n"
                              "102 +2\n");
    ck_assert_uint_eq(rb.idle_node_s, 235);
    ck_assert_uint_eq(r.truncated, 1);
    ck_assert_uint_eq(r.fragmented, 0);

    /* Skip: E gets nothing, so nothing changes at 21 and 26. */
    ck_assert_msg(convert(five_swf, "overflow=skip", &r, &rb, &e) == 0, "%s",
                  e.msg);
    ck_assert_str_eq(rb.text, "0 +1 +2 +3 +4\n"
                              "1 -1\n"
                              "2 -2\n"
                              "11 +1\n"
                              "20 -1 -3\n"
                              "50 +1 +3\n"
                              "100 +0\n"
                              "102 +2\n");
    ck_assert_uint_eq(rb.idle_node_s, 240);
    ck_assert_uint_eq(r.dropped, 1);
    ck_assert_uint_eq(r.lost_node_s, 15);
}
END_TEST

/* Contiguous placement with no run long enough: four nodes, A [0, 10) and
 * C [0, 10) take n0, n1 ... here B [0, 5) 1 node takes n1 and frees it at
 * 5, leaving {1, 3} free beside A on n0 and C on n2: D [6, 8) 2 nodes is
 * fragmented and falls back to first fit (n1, n3). */
START_TEST(test_fragmented)
{
    struct import_log_report r;
    struct readback rb;
    struct bfs_error e;
    const char *log = "; MaxNodes: 4\n"
                      "1 0 0 10 1 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
                      "2 0 0 5 1 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
                      "3 0 0 10 1 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
                      "4 6 0 2 2 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n";

    ck_assert_msg(convert(log, "placement=contiguous", &r, &rb, &e) == 0, "%s",
                  e.msg);
    ck_assert_str_eq(rb.text, "0 +3\n"
                              "5 +1\n"
                              "6 -1 -3\n"
                              "8 +1 +3\n"
                              "10 +0 +2\n");
    ck_assert_uint_eq(r.fragmented, 1);
    ck_assert_uint_eq(r.placed, 4);
}
END_TEST

/* The five-node log with a window: at 10 (before B frees n1) n3 and n4
 * are idle; the trace closes at 60 without a change.  Idle: [10,11) 2,
 * [11,20) 27, [20,21) 1, [21,26) 0, [26,50) 24, [50,60) 30: 84. */
START_TEST(test_window)
{
    struct import_log_report r;
    struct readback rb;
    struct bfs_error e;

    ck_assert_msg(convert(five_swf, "start=10;end=60", &r, &rb, &e) == 0, "%s",
                  e.msg);
    ck_assert_str_eq(rb.text, "10 +3 +4\n"
                              "11 +1\n"
                              "20 -1 -3\n"
                              "21 -4\n"
                              "26 +4\n"
                              "50 +1 +3\n"
                              "60\n");
    ck_assert_uint_eq(rb.idle_node_s, 84);
    ck_assert_int_eq(r.start, 10);
    ck_assert_int_eq(r.end, 60);

    /* A window starting on an event second opens with the state after it;
     * one past the last job end is idle everywhere. */
    ck_assert_msg(convert(five_swf, "start=1970-01-01 00:00:11;end=110", &r,
                          &rb, &e) == 0,
                  "%s", e.msg);
    ck_assert_str_eq(rb.text, "11 +1 +3 +4\n"
                              "20 -1 -3\n"
                              "21 -4\n"
                              "26 +4\n"
                              "50 +1 +3\n"
                              "100 +0\n"
                              "102 +2\n"
                              "110\n");
}
END_TEST

/* Outages on the five-node log, threshold 0.6: at least 3 nodes idle.
 * True idle after each event: 0:4 1:3 2:2 11:3 20:1 21:0 26:1 50:3 100:4
 * 102:5.  Candidates: [0, 2), [11, 20), [50, 102 the end).
 *
 * Minimum 20 s: only [50, 102) is long enough; at 50 the offered node n4
 * leaves; nothing more is offered; the trace closes at 102.  Removed:
 * 3*50 + 4*2 = 158; offered 235 - 158 = 77.
 *
 * Minimum 5 s: [11, 20) too: n3, n4 leave at 11; at 20 the nodes idle
 * then (n4) join.  Removed 27 + 158 = 185, offered 50. */
START_TEST(test_outage)
{
    struct import_log_report r;
    struct readback rb;
    struct bfs_error e;

    ck_assert_msg(convert(five_swf,
                          "outage-threshold=0.6;outage-min-duration=20", &r,
                          &rb, &e) == 0,
                  "%s", e.msg);
    ck_assert_str_eq(rb.text, "0 +1 +2 +3 +4\n"
                              "1 -1\n"
                              "2 -2\n"
                              "11 +1\n"
                              "20 -1 -3\n"
                              "21 -4\n"
                              "26 +4\n"
                              "50 -4\n"
                              "102\n");
    ck_assert_uint_eq(r.outages, 1);
    ck_assert_uint_eq(r.outage_nodes, 3);
    ck_assert_uint_eq(r.outage_node_s, 158);
    ck_assert_uint_eq(rb.idle_node_s, 77);

    ck_assert_msg(convert(five_swf,
                          "outage-threshold=0.6;outage-min-duration=5s", &r,
                          &rb, &e) == 0,
                  "%s", e.msg);
    ck_assert_str_eq(rb.text, "0 +1 +2 +3 +4\n"
                              "1 -1\n"
                              "2 -2\n"
                              "11 -3 -4\n"
                              "20 +4\n"
                              "21 -4\n"
                              "26 +4\n"
                              "50 -4\n"
                              "102\n");
    ck_assert_uint_eq(r.outages, 2);
    ck_assert_uint_eq(r.outage_node_s, 185);
    ck_assert_uint_eq(rb.idle_node_s, 50);
}
END_TEST

/* Partial executions: job 2 has a summary line (status 1) then two parts
 * (status 2, 3): the parts are the intervals, the summary is dropped.
 * Job 3's parts come before its summary.  Two nodes.
 *   job 1 [0, 10) on n0; job 2 parts [1, 3) and [5, 7) on n1;
 *   job 3 parts [20, 25), [30, 32) on n0. */
START_TEST(test_partial)
{
    struct import_log_report r;
    struct readback rb;
    struct bfs_error e;
    const char *log = "; MaxNodes: 2\n"
                      "1 0 0 10 1 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
                      "2 1 0 4 1 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n"
                      "2 1 0 2 1 -1 -1 -1 -1 -1 2 1 1 -1 -1 -1 -1 -1\n"
                      "2 1 4 2 1 -1 -1 -1 -1 -1 3 1 1 -1 -1 -1 -1 -1\n"
                      "3 20 0 5 1 -1 -1 -1 -1 -1 2 1 1 -1 -1 -1 -1 -1\n"
                      "3 20 10 2 1 -1 -1 -1 -1 -1 3 1 1 -1 -1 -1 -1 -1\n"
                      "3 20 0 7 1 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n";

    ck_assert_msg(convert(log, NULL, &r, &rb, &e) == 0, "%s", e.msg);
    ck_assert_str_eq(rb.text, "0 +1\n"
                              "1 -1\n"
                              "3 +1\n"
                              "5 -1\n"
                              "7 +1\n"
                              "10 +0\n"
                              "20 -0\n"
                              "25 +0\n"
                              "30 -0\n"
                              "32 +0\n");
    ck_assert_uint_eq(r.partial_summary, 2);
    ck_assert_uint_eq(r.jobs, 5);
}
END_TEST

/* Options override the header; procs-per-node rounds up; names pad to the
 * machine's width; a header without MaxNodes and MaxProcs needs
 * --machine-nodes. */
START_TEST(test_machine)
{
    struct import_log_report r;
    struct readback rb;
    struct bfs_error e;
    const char *log = "; MaxProcs: 96\n"
                      "1 0 0 10 9 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n";

    ck_assert_msg(convert(log, "procs-per-node=4", &r, &rb, &e) == 0, "%s",
                  e.msg);
    /* 96 / 4 = 24 nodes, n00..n23; 9 processors need 3 nodes. */
    ck_assert_uint_eq(rb.nodes, 24);
    ck_assert_str_eq(rb.first_name, "n00");
    ck_assert_str_eq(rb.last_name, "n23");
    ck_assert_uint_eq(rb.idle_node_s, 21 * 10);
    ck_assert_str_eq(r.nodes_from, "header MaxProcs / processors per node");

    ck_assert_msg(
        convert(log, "machine-nodes=101;procs-per-node=10", &r, &rb, &e) == 0,
        "%s", e.msg);
    ck_assert_uint_eq(rb.nodes, 101);
    ck_assert_str_eq(rb.last_name, "n100");
    ck_assert_uint_eq(rb.idle_node_s, 100 * 10);

    /* MaxProcs / MaxNodes not exact: rounded down, and said so. */
    ck_assert_msg(convert("; MaxNodes: 3\n; MaxProcs: 10\n"
                          "1 0 0 10 4 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n",
                          NULL, &r, &rb, &e) == 0,
                  "%s", e.msg);
    ck_assert_int_eq(r.procs_per_node, 3);
    ck_assert_str_eq(r.ppn_from, "MaxProcs 10 / MaxNodes 3, rounded down");
    ck_assert_uint_eq(rb.idle_node_s, 1 * 10);

    ck_assert_int_eq(convert("1 0 0 10 4 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n",
                             NULL, &r, &rb, &e),
                     BFS_EINVAL);
    ck_assert_msg(strstr(e.msg, "give --machine-nodes") != NULL, "%s", e.msg);
}
END_TEST

START_TEST(test_errors)
{
    struct import_log_report r;
    struct readback rb;
    struct bfs_error e;

    ck_assert_int_eq(convert("; MaxNodes: 2\n"
                             "1 0 0 10 1 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1\n",
                             NULL, &r, &rb, &e),
                     BFS_EPARSE);
    ck_assert_msg(strstr(e.msg, ".swf:2: 17 fields, expected 18") != NULL, "%s",
                  e.msg);

    ck_assert_int_eq(convert("; MaxNodes: 2\n"
                             "1 0 0 10 1 -1 -1 -1 -1 -1 1 1 x -1 -1 -1 -1 -1\n",
                             NULL, &r, &rb, &e),
                     BFS_EPARSE);
    ck_assert_msg(strstr(e.msg, ":2: field 13 is not a number: 'x'") != NULL,
                  "%s", e.msg);

    /* Line 3 was submitted before line 2 and starts before it. */
    ck_assert_int_eq(convert("; MaxNodes: 2\n"
                             "1 100 0 10 1 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 "
                             "-1\n"
                             "2 50 0 10 1 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 "
                             "-1\n",
                             NULL, &r, &rb, &e),
                     BFS_EPARSE);
    ck_assert_msg(strstr(e.msg, ":3: job 2 starts at 1970-01-01 00:00:50 UTC, "
                                "before times already written") != NULL,
                  "%s", e.msg);

    /* strtod would read 0x10 as 16 processors. */
    ck_assert_int_eq(convert("; MaxNodes: 2\n"
                             "1 0 0 10 0x10 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 "
                             "-1\n",
                             NULL, &r, &rb, &e),
                     BFS_EPARSE);
    ck_assert_msg(strstr(e.msg, ":2: field 5 is not a number: '0x10'") != NULL,
                  "%s", e.msg);

    /* INT64_MAX as the time origin: submit 0 + wait 0 + run 10 overflowed
     * (UBSan) and wrapped; now the header line is refused. */
    ck_assert_int_eq(convert("; MaxNodes: 2\n"
                             "; UnixStartTime: 9223372036854775807\n"
                             "1 0 0 10 1 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n",
                             NULL, &r, &rb, &e),
                     BFS_ERANGE);
    ck_assert_msg(strstr(e.msg, ".swf:2: UnixStartTime 9223372036854775807 is "
                                "out of range") != NULL,
                  "%s", e.msg);
    ck_assert_int_eq(convert("; UnixStartTime: soon\n; MaxNodes: 2\n"
                             "1 0 0 10 1 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n",
                             NULL, &r, &rb, &e),
                     BFS_EPARSE);
    ck_assert_msg(strstr(e.msg, ".swf:1: UnixStartTime is not an integer: "
                                "'soon'") != NULL,
                  "%s", e.msg);
    /* The largest origin, plus submit 1 + run 1, passes the end of 9999
     * (253402300799) by 2 s. */
    ck_assert_int_eq(convert("; MaxNodes: 2\n"
                             "; UnixStartTime: 253402300799\n"
                             "7 1 0 1 1 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n",
                             NULL, &r, &rb, &e),
                     BFS_ERANGE);
    ck_assert_msg(strstr(e.msg, ".swf:3: job 7 ends after the year 9999 "
                                "(UnixStartTime + submit + wait + run = "
                                "253402300801)") != NULL,
                  "%s", e.msg);

    /* MaxNodes 11624779 in a 60-byte file would make a trace of 11.6
     * million nodes: refused unless --machine-nodes gives the size. */
    ck_assert_int_eq(convert("; MaxNodes: 11624779\n"
                             "1 0 0 10 1 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n",
                             NULL, &r, &rb, &e),
                     BFS_ERANGE);
    ck_assert_msg(strstr(e.msg, ".swf: the machine would have 11624779 nodes "
                                "(header MaxNodes), more than --max-nodes "
                                "1048576: give its size with --machine-nodes, "
                                "or raise --max-nodes") != NULL,
                  "%s", e.msg);
    ck_assert_int_eq(convert("; MaxNodes: 11624779\n"
                             "1 0 0 10 1 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n",
                             "machine-nodes=2", &r, &rb, &e),
                     0);
    ck_assert_int_eq(convert("; MaxNodes: 5\n"
                             "1 0 0 10 1 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n",
                             "max-nodes=4", &r, &rb, &e),
                     BFS_ERANGE);

    /* No job ran. */
    ck_assert_int_eq(convert("; MaxNodes: 2\n"
                             "1 0 0 0 1 -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 -1\n",
                             NULL, &r, &rb, &e),
                     BFS_EINVAL);
    ck_assert_msg(strstr(e.msg, "no job ran") != NULL, "%s", e.msg);

    /* A missing file. */
    {
        struct import_log_opts o;
        import_log_opts_init(&o);
        bfs_error_clear(&e);
        ck_assert_int_eq(import_swf(tu_tmp("missing.swf"), tu_tmp("x.trace"),
                                    NULL, &o, NULL, NULL, &e),
                         BFS_EIO);
    }
}
END_TEST

START_TEST(test_options)
{
    struct import_log_opts o;
    struct bfs_error e;

    import_log_opts_init(&o);
    bfs_error_clear(&e);
    ck_assert_int_eq(import_log_opts_set(&o, "placement", "best-fit", &e),
                     BFS_EUSAGE);
    ck_assert_int_eq(import_log_opts_set(&o, "outage-threshold", "1.5", NULL),
                     BFS_EUSAGE);
    ck_assert_int_eq(import_log_opts_set(&o, "outage-threshold", "0", NULL),
                     BFS_EUSAGE);
    ck_assert_int_eq(import_log_opts_set(&o, "outage-min-duration", "2h", NULL),
                     0);
    ck_assert_int_eq(o.outage_min, 7200);
    ck_assert_int_eq(import_log_opts_set(&o, "outage-min-duration", "1d", NULL),
                     0);
    ck_assert_int_eq(o.outage_min, 86400);
    ck_assert_int_eq(import_log_opts_set(&o, "outage-min-duration", "h", NULL),
                     BFS_EUSAGE);
    ck_assert_int_eq(import_log_opts_set(&o, "tz-offset", "-06:00", NULL), 0);
    ck_assert_int_eq(o.tz_offset, -21600);
    ck_assert_int_eq(import_log_opts_set(&o, "tz-offset", "3600", NULL), 0);
    ck_assert_int_eq(o.tz_offset, 3600);
    ck_assert_int_eq(import_log_opts_set(&o, "tz-offset", "6:00", NULL),
                     BFS_EUSAGE);
    ck_assert_int_eq(import_log_opts_set(&o, "machine-nodes", "0", NULL),
                     BFS_EUSAGE);
    ck_assert_int_eq(
        import_log_opts_set(&o, "start", "2022-01-01 00:00:00", NULL), 0);
    ck_assert_int_eq(o.start, 1640995200);
    ck_assert_int_eq(import_log_opts_set(&o, "end", "1640995200", NULL), 0);
    ck_assert_int_eq(import_swf("x", "y", NULL, &o, NULL, NULL, &e),
                     BFS_EUSAGE);
}
END_TEST

/* Replays a converted trace with the bundled 10-job set through the
 * bfsim program, when it has been built (`make check` builds it). */
static void replay_ok(const char *trace)
{
    const char *top = getenv("BFS_TOP_BUILDDIR");
    char prog[4096], cmd[8192];

    snprintf(prog, sizeof prog, "%s/bfsim", top && *top ? top : ".");
    if (!tu_exists(prog)) {
        fprintf(stderr, "%s missing: replay of %s skipped\n", prog, trace);
        return;
    }
    snprintf(cmd, sizeof cmd,
             "'%s' replay -q --trace '%s' --jobs '%s' >/dev/null", prog, trace,
             tu_src("datasets/hps-shufflenet-10J.jobs"));
    ck_assert_msg(system(cmd) == 0, "%s failed", cmd);
}

/* ---- the published logs -------------------------------------------- */

static const char *const swf_logs[] = {
    "theta_2022.swf.gz",
    "LLNL-Thunder-2007-1.1-cln.swf.gz",
    "LLNL-Atlas-2006-2.1-cln.swf.gz",
    "CEA-Curie-2011-2.1-cln.swf.gz",
    "CTC-SP2-1996-3.1-cln.swf.gz",
    "SDSC-SP2-1998-4.2-cln.swf.gz",
};

/* idle_node_seconds as tools/swf-idle-hours computes it, or -1. */
static int64_t script_idle(const char *log, const char *args)
{
    char cmd[4096], line[256];
    FILE *p;
    int64_t v = -1;

    snprintf(cmd, sizeof cmd, "python3 '%s' %s '%s'",
             tu_src("tools/swf-idle-hours"), args, log);
    p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    while (fgets(line, sizeof line, p))
        if (strncmp(line, "idle_node_seconds ", 18) == 0)
            v = strtoll(line + 18, NULL, 10);
    ck_assert_int_eq(pclose(p), 0);
    return v;
}

static int have_python(void)
{
    return system("python3 -c 'import gzip' >/dev/null 2>&1") == 0;
}

/* The hand-made logs agree with the script too. */
START_TEST(test_script_small)
{
    struct import_log_report r;
    struct readback rb;
    struct bfs_error e;
    const char *p;

    if (!have_python()) {
        fputs("python3 missing: test_script_small skipped\n", stderr);
        return;
    }
    ck_assert_int_eq(convert(small_swf, NULL, &r, &rb, &e), 0);
    p = tu_write("small.swf", small_swf);
    ck_assert_int_eq(script_idle(p, ""), 80);
    p = tu_write("five.swf", five_swf);
    ck_assert_int_eq(script_idle(p, ""), 235);
    ck_assert_int_eq(script_idle(p, "--overflow skip"), 240);
    ck_assert_int_eq(script_idle(p, "--start 10 --end 60"), 84);
    ck_assert_int_eq(script_idle(p, "--start 11 --end 110"),
                     4 * 0 + 3 * 9 + 1 + 0 + 24 + 150 + 8 + 5 * 8);
}
END_TEST

/* A small LCG, so that runs are reproducible everywhere. */
static int rnd(uint64_t *seed, int n)
{
    return (int)((tu_lcg(seed) >> 33) % (uint64_t)n);
}

/* Random small logs with many ties, unknown fields, oversized jobs and
 * partial executions: the trace's idle node-seconds equal the script's,
 * in both overflow modes, with and without a window; first fit and
 * contiguous placement give the same counts; with outage marking, the
 * offered and the removed node-seconds add up to the unmarked total. */
START_TEST(test_random)
{
    uint64_t seed = 12345;
    char *log = xmalloc(65536);

    if (!have_python()) {
        fputs("python3 missing: test_random skipped\n", stderr);
        xfree(log);
        return;
    }
#define RND(n) rnd(&seed, n)
    for (int round = 0; round < 12; round++) {
        struct import_log_report r, r2;
        struct readback rb, rb2;
        struct bfs_error e;
        char name[64], opt[128], args[128];
        const char *path;
        int len = 0, submit = 0;
        int64_t start, end;

        len += sprintf(log + len, "; UnixStartTime: 1000\n; MaxNodes: 6\n"
                                  "; MaxProcs: 12\n");
        for (int j = 1; j <= 50; j++) {
            int wait = RND(6) == 0 ? -1 : RND(20);
            int run = RND(10) == 0 ? -1 : RND(30);
            int procs = RND(12) == 0 ? -1 : 1 + RND(14);
            submit += RND(4);
            if (RND(10) == 0) {
                /* a summary line and two parts */
                len += sprintf(log + len,
                               "%d %d %d %d %d -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 "
                               "-1 -1\n",
                               j, submit, wait, run, procs);
                len += sprintf(log + len,
                               "%d %d %d %d %d -1 -1 -1 -1 -1 2 1 1 -1 -1 -1 "
                               "-1 -1\n",
                               j, submit, RND(5), 1 + RND(5), procs);
                len += sprintf(log + len,
                               "%d %d %d %d %d -1 -1 -1 -1 -1 3 1 1 -1 -1 -1 "
                               "-1 -1\n",
                               j, submit, 10 + RND(5), 1 + RND(5), procs);
                continue;
            }
            len += sprintf(log + len,
                           "%d %d %d %d %d -1 -1 -1 -1 -1 1 1 1 -1 -1 -1 -1 "
                           "-1\n",
                           j, RND(15) == 0 ? -1 : submit, wait, run, procs);
        }
        snprintf(name, sizeof name, "random%d.swf", round);
        path = tu_write(name, log);

        ck_assert_msg(convert(log, NULL, &r, &rb, &e) == 0, "%s", e.msg);
        ck_assert_int_eq(script_idle(path, ""), (int64_t)rb.idle_node_s);
        ck_assert_msg(convert(log, "placement=contiguous", &r2, &rb2, &e) == 0,
                      "%s", e.msg);
        ck_assert_uint_eq(rb2.idle_node_s, rb.idle_node_s);
        ck_assert_uint_eq(r2.truncated, r.truncated);
        ck_assert_msg(convert(log, "overflow=skip", &r2, &rb2, &e) == 0, "%s",
                      e.msg);
        ck_assert_int_eq(script_idle(path, "--overflow skip"),
                         (int64_t)rb2.idle_node_s);
        ck_assert_msg(convert(log, "outage-threshold=0.5;outage-min-duration=7",
                              &r2, &rb2, &e) == 0,
                      "%s", e.msg);
        ck_assert_uint_eq(rb2.idle_node_s + r2.outage_node_s, rb.idle_node_s);

        start = r.start + RND(30) - 5;
        end = start + 1 + RND(80);
        snprintf(opt, sizeof opt, "start=%" PRId64 ";end=%" PRId64, start, end);
        snprintf(args, sizeof args, "--start %" PRId64 " --end %" PRId64, start,
                 end);
        ck_assert_msg(convert(log, opt, &r2, &rb2, &e) == 0, "%s", e.msg);
        ck_assert_int_eq(script_idle(path, args), (int64_t)rb2.idle_node_s);
    }
#undef RND
    xfree(log);
}
END_TEST

START_TEST(test_published)
{
    const char *log = tu_shared_file("swf");
    struct import_log_opts o;
    struct import_log_report r;
    struct import_stats st;
    struct traceinfo_opts to;
    struct traceinfo ti;
    struct readback rb;
    struct bfs_error e;
    char name[128], path[4096];
    const char *out;
    double t0;

    if (!log || !tu_exists(log)) {
        fputs("../shared/data absent: test_published skipped\n", stderr);
        return;
    }
    snprintf(path, sizeof path, "%s/%s", log, swf_logs[_i]);
    snprintf(name, sizeof name, "%s.trace", swf_logs[_i]);
    out = tu_tmp(name);
    import_log_opts_init(&o);
    bfs_error_clear(&e);
    t0 = bfs_now();
    ck_assert_msg(import_swf(path, out, NULL, &o, &st, &r, &e) == 0, "%s",
                  e.msg);
    fprintf(stderr,
            "%s: %zu nodes, %zu events, %zu jobs, %.1f idle node-hours, "
            "%.2f s\n",
            swf_logs[_i], st.nodes, st.events, r.jobs,
            (double)r.idle_node_s / 3600.0, bfs_now() - t0);
    read_trace(out, &rb);
    ck_assert_uint_eq(rb.events, st.events);
    ck_assert_uint_eq(rb.idle_node_s, r.idle_node_s);
    /* What `bfsim info` reports. */
    traceinfo_opts_init(&to);
    ck_assert_msg(traceinfo_compute(out, &to, &ti, &e) == 0, "%s", e.msg);
    ck_assert_int_eq(ti.idle_node_s, (int64_t)rb.idle_node_s);
    traceinfo_release(&ti);
    replay_ok(out);
    if (!have_python()) {
        fputs("python3 missing: script comparison skipped\n", stderr);
        return;
    }
    ck_assert_int_eq(script_idle(path, ""), (int64_t)rb.idle_node_s);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("import_swf");
    TCase *tc = tcase_create("small");
    TCase *pub = tcase_create("published");

    tcase_add_test(tc, test_small_first_fit);
    tcase_add_test(tc, test_placement);
    tcase_add_test(tc, test_fragmented);
    tcase_add_test(tc, test_window);
    tcase_add_test(tc, test_outage);
    tcase_add_test(tc, test_partial);
    tcase_add_test(tc, test_machine);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_options);
    tcase_add_test(tc, test_script_small);
    tcase_add_test(tc, test_random);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    tu_add_shared_test(pub, test_published, 0,
                       (int)(sizeof swf_logs / sizeof *swf_logs));
    tcase_set_timeout(pub, 600);
    suite_add_tcase(s, pub);
    return tu_run(s);
}
