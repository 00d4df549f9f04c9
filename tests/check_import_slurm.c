/* check_import_slurm.c - Slurm accounting output to traces.
 *
 * Small logs written here with the expected events worked out by hand in
 * the comments, and, when the published data is there, the TACC
 * Lonestar6 log, whose idle node-seconds are checked against machine
 * size x span - sum of NNodes x run time computed by a few lines of
 * Python straight from the log.
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

/* 2023-01-01 00:00:00 UTC. */
#define T0 INT64_C(1672531200)

/* A trace as text, one "+SECONDS-FROM-T0 +i -j" line per event. */
struct readback {
    char text[4096];
    char names[512]; /* the node names, blank-separated */
    uint64_t idle_node_s;
    size_t nodes, events;
};

static void read_trace(const char *path, int64_t t0, struct readback *rb)
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
    for (size_t i = 0; i < rb->nodes && i < 40; i++) {
        size_t n = strlen(rb->names);
        snprintf(rb->names + n, sizeof rb->names - n, "%s%s", i ? " " : "",
                 trace_node_name(r, i));
    }
    while ((rc = trace_next(r, &ev, &e)) == 1) {
        if (rb->events > 0)
            rb->idle_node_s += (uint64_t)idle * (uint64_t)(ev.time - prev);
        idle += ev.n_join;
        idle -= ev.n_leave;
        prev = ev.time;
        rb->events++;
        if (len < sizeof rb->text - 256) {
            len += (size_t)snprintf(rb->text + len, sizeof rb->text - len,
                                    "%" PRId64, ev.time - t0);
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

/* The trace the last convert() wrote. */
static const char *last_out;

/* Converts text (written to a file; NULL: use path) with options
 * "name=value;..." and reads the trace back, times from t0. */
static int convert(const char *text, const char *path, const char *opts,
                   int64_t t0, struct import_log_report *rep,
                   struct readback *rb, struct bfs_error *e)
{
    static int n;
    char name[64];
    const char *in, *out;
    struct import_log_opts o;
    struct import_stats st;
    int rc;

    snprintf(name, sizeof name, "log%d.txt", n);
    in = text ? tu_write(name, text) : path;
    snprintf(name, sizeof name, "out%d.trace.gz", n++);
    out = last_out = tu_tmp(name);
    tu_import_opts(opts, &o);
    bfs_error_clear(e);
    rc = import_slurm(in, out, NULL, &o, &st, rep, e);
    if (rc == 0) {
        read_trace(out, t0, rb);
        ck_assert_uint_eq(st.events, rb->events);
        ck_assert_uint_eq(rep->idle_node_s, rb->idle_node_s);
    } else {
        ck_assert_int_eq(tu_exists(out), 0);
    }
    return rc;
}

/* sacct --parsable2 with NodeList; seconds after T0:
 *
 *   100 [10, 60) gpu1 gpu3; its steps are ignored
 *   101 [20, 40) gpu3, shared with 100
 *   102 pending (never ran), 103 cancelled at start (0 s),
 *   104 running since 50 on gpu2-gpu4: ends at the log's end, 100 (job
 *       107's End is the latest time in the log)
 *   105 End before Start, skipped
 *   106 [15, 25) gpu10; NNodes 2 disagrees with its NodeList (noted)
 *   107 [90, 100) gpu2, shared with 104
 *
 * Nodes, numeric-aware order: gpu1 gpu2 gpu3 gpu4 gpu10 = 0..4.
 * 10: 100 takes 0 and 2, the trace opens with 1, 3, 4 idle; 15: 106
 * takes 4; 20: 101 on 2 (held already): no change; 25: 4 free; 40: 101
 * leaves 2 still held by 100; 50: 104 takes 1, 2 (held), 3; 60: 100 frees
 * 0 (2 stays with 104); 90: 107 on 1 (held); 100: 104 and 107 end.
 * Idle: [10,15) 3*5 + [15,25) 2*10 + [25,50) 3*25 + [50,60) 1*10 +
 * [60,100) 2*40 = 200. */
static const char *const parsable =
    "JobID|JobName|State|Submit|Start|End|NNodes|NodeList\n"
    "100|a|COMPLETED|2023-01-01T00:00:00|2023-01-01T00:00:10|"
    "2023-01-01T00:01:00|2|gpu[1,3]\n"
    "100.batch|batch|COMPLETED|x|y|z|1|gpu1\n"
    "100.0|hostname|COMPLETED|x|y|z|2|gpu[1,3]\n"
    "101|b|COMPLETED|2023-01-01T00:00:05|2023-01-01T00:00:20|"
    "2023-01-01T00:00:40|1|gpu3\n"
    "102|c|PENDING|2023-01-01T00:00:06|Unknown|Unknown|1|None assigned\n"
    "103|d|CANCELLED by 5|2023-01-01T00:00:07|2023-01-01T00:00:30|"
    "2023-01-01T00:00:30|1|None assigned\n"
    "104|e|RUNNING|2023-01-01T00:00:08|2023-01-01T00:00:50|Unknown|3|"
    "gpu[2-4]\n"
    "105|f|FAILED|2023-01-01T00:00:09|2023-01-01T00:01:10|"
    "2023-01-01T00:01:05|1|gpu1\n"
    "\n"
    "106|g|COMPLETED|2023-01-01T00:00:09|2023-01-01T00:00:15|"
    "2023-01-01T00:00:25|2|gpu10\n"
    "107|h|COMPLETED|2023-01-01T00:00:10|2023-01-01T00:01:30|"
    "2023-01-01T00:01:40|1|gpu2\n";

START_TEST(test_parsable_nodelist)
{
    struct import_log_report r;
    struct readback rb;
    struct bfs_error e;

    ck_assert_msg(convert(parsable, NULL, NULL, T0, &r, &rb, &e) == 0, "%s",
                  e.msg);
    ck_assert_str_eq(rb.names, "gpu1 gpu2 gpu3 gpu4 gpu10");
    ck_assert_str_eq(rb.text, "10 +1 +3 +4\n"
                              "15 -4\n"
                              "25 +4\n"
                              "50 -1 -3\n"
                              "60 +0\n"
                              "100 +1 +2 +3\n");
    ck_assert_uint_eq(rb.idle_node_s, 200);
    ck_assert_uint_eq(r.records, 10);
    ck_assert_uint_eq(r.jobs, 5);
    ck_assert_uint_eq(r.steps, 2);
    ck_assert_uint_eq(r.never_ran, 1);
    ck_assert_uint_eq(r.zero_run, 1);
    ck_assert_uint_eq(r.running, 1);
    ck_assert_uint_eq(r.bad_interval, 1);
    ck_assert_uint_eq(r.nnodes_mismatch, 1);
    ck_assert_uint_eq(r.no_nodes, 0);
    ck_assert_uint_eq(r.malformed, 0);
    ck_assert_int_eq(r.log_end, T0 + 100);
    ck_assert_str_eq(r.nodes_from, "NodeList names in the log");
    /* Rows come in Submit order: the starts follow it. */
    ck_assert_int_eq(r.submit_lag, 0);

    /* Local time one hour ahead of UTC: everything an hour earlier. */
    ck_assert_msg(convert(parsable, NULL, "tz-offset=+01:00", T0 - 3600, &r,
                          &rb, &e) == 0,
                  "%s", e.msg);
    ck_assert_str_eq(rb.text, "10 +1 +3 +4\n"
                              "15 -4\n"
                              "25 +4\n"
                              "50 -1 -3\n"
                              "60 +0\n"
                              "100 +1 +2 +3\n");
}
END_TEST

/* The same log with --nodes-file "gpu10 gpu4 gpu3" (indices 0, 1, 2):
 * gpu1 and gpu2 are not part of it and are ignored (3 mentions), and job
 * 107, on gpu2 only, has no node left.
 * 10: 100 takes 2 (0, 1 idle); 15: 106 takes 0; 25: 0 free; 50: 104
 * takes 1 (and 2, held); 100: 1, 2 free.  Idle: 2*5 + 1*10 + 2*25 + 1*50
 * = 120. */
START_TEST(test_nodes_file)
{
    struct import_log_report r;
    struct readback rb;
    struct bfs_error e;
    char opt[512];

    snprintf(opt, sizeof opt, "nodes-file=%s",
             tu_write("nodes.txt", "# the partition\ngpu10\n\n gpu4 \ngpu3\n"));
    ck_assert_msg(convert(parsable, NULL, opt, T0, &r, &rb, &e) == 0, "%s",
                  e.msg);
    ck_assert_str_eq(rb.names, "gpu10 gpu4 gpu3");
    ck_assert_str_eq(rb.text, "10 +0 +1\n"
                              "15 -0\n"
                              "25 +0\n"
                              "50 -1\n"
                              "100 +1 +2\n");
    ck_assert_uint_eq(rb.idle_node_s, 120);
    ck_assert_uint_eq(r.outside_nodes, 3);
    ck_assert_uint_eq(r.no_nodes, 1);
    ck_assert_uint_eq(r.jobs, 4);
    ck_assert_str_eq(r.nodes_from, "--nodes-file");

    snprintf(opt, sizeof opt, "nodes-file=%s",
             tu_write("nodes2.txt", "a\nb\na\n"));
    ck_assert_int_eq(convert(parsable, NULL, opt, T0, &r, &rb, &e), BFS_EPARSE);
    ck_assert_msg(strstr(e.msg, "nodes2.txt:3: node 'a' listed twice") != NULL,
                  "%s", e.msg);
}
END_TEST

/* Fixed-width sacct output with counts only, after a line that is not
 * the header, with a row split by tabs and one with a field too many.
 *   200 [0, 60) 2 nodes, 201 [30, 120) 3 nodes, 202 [60, 90) 1 node.
 * Peak use: 5 nodes at 30 (at 60, 200 ends before 202 starts).  First
 * fit: 0: n0 n1 (2, 3, 4 idle); 30: n2 n3 n4; 60: 200 frees n0 n1 and
 * 202 takes n0: only n1 changes; 90: n0; 120: n2 n3 n4.
 * Idle: 3*30 + 0*30 + 1*30 + 2*30 = 180. */
static char *fixed_log(void)
{
    char *s = xmalloc(4096);
    int n = 0;

    n += sprintf(s + n, "42\n%12s %19s %19s %8s\n", "JobID", "Start", "End",
                 "NNodes");
    n += sprintf(s + n, "------------ ------------------- "
                        "------------------- --------\n");
    n += sprintf(s + n, "%12s %19s %19s %8s\n", "200", "2023-01-01T00:00:00",
                 "2023-01-01T00:01:00", "2");
    n += sprintf(s + n, "%12s %19s %19s %8s\n", "201", "2023-01-01T00:00:30",
                 "2023-01-01T00:02:00", "3");
    n += sprintf(s + n, "%-12s %19s %19s %8s\n", "201.batch",
                 "2023-01-01T00:00:30", "2023-01-01T00:02:00", "1");
    n += sprintf(s + n, "202\t2023-01-01T00:01:00\t2023-01-01T00:01:30\t1\n");
    n += sprintf(s + n, "203\txaa\t2023-01-01T00:01:00\t2023-01-01T00:01:30"
                        "\t1\n");
    sprintf(s + n, "%12s %19s %19s %8s\n", "204", "Unknown", "Unknown", "1");
    return s;
}

START_TEST(test_fixed_counts)
{
    struct import_log_report r;
    struct readback rb;
    struct bfs_error e;
    char *log = fixed_log();

    ck_assert_msg(convert(log, NULL, NULL, T0, &r, &rb, &e) == 0, "%s", e.msg);
    ck_assert_str_eq(rb.names, "n0 n1 n2 n3 n4");
    ck_assert_str_eq(rb.text, "0 +2 +3 +4\n"
                              "30 -2 -3 -4\n"
                              "60 +1\n"
                              "90 +0\n"
                              "120 +2 +3 +4\n");
    ck_assert_uint_eq(rb.idle_node_s, 180);
    ck_assert_uint_eq(r.records, 6);
    ck_assert_uint_eq(r.jobs, 3);
    ck_assert_uint_eq(r.steps, 1);
    ck_assert_uint_eq(r.never_ran, 1);
    ck_assert_uint_eq(r.malformed, 1);
    ck_assert_uint_eq(r.first_malformed, 8);
    ck_assert_str_eq(r.nodes_from, "peak concurrent use in the log");
    ck_assert_int_eq(r.submit_lag, -1);

    /* Four nodes: 201 gets the two free ones (one node for 90 s lost). */
    ck_assert_msg(convert(log, NULL, "machine-nodes=4", T0, &r, &rb, &e) == 0,
                  "%s", e.msg);
    ck_assert_str_eq(rb.text, "0 +2 +3\n"
                              "30 -2 -3\n"
                              "60 +1\n"
                              "90 +0\n"
                              "120 +2 +3\n");
    ck_assert_uint_eq(r.truncated, 1);
    ck_assert_uint_eq(r.lost_node_s, 90);
    xfree(log);
}
END_TEST

/* Rows out of start order, no Submit: A [100, 200) n1, B [0, 50) n2,
 * C [60, 300) n1.  The scan measures the lag (100 s) and the events come
 * out in time order: 0: B on n2 (n1 idle); 50: n2 free; 60: C takes n1;
 * 100: A shares n1; 200: n1 still C's; 300: n1 free.
 * Idle: 1*50 + 2*10 + 1*240 = 310. */
START_TEST(test_unsorted)
{
    struct import_log_report r;
    struct readback rb;
    struct bfs_error e;
    const char *log = "JobID|Start|End|NodeList|\n"
                      "1|1672531300|1672531400|n1|\n"
                      "2|1672531200|1672531250|n2|\n"
                      "3|1672531260|1672531500|n1|\n";

    ck_assert_msg(convert(log, NULL, NULL, T0, &r, &rb, &e) == 0, "%s", e.msg);
    ck_assert_str_eq(rb.text, "0 +0\n"
                              "50 +1\n"
                              "60 -0\n"
                              "300 +0\n");
    ck_assert_uint_eq(rb.idle_node_s, 310);
    ck_assert_int_eq(r.reorder_lag, 100);
    ck_assert_int_eq(r.submit_lag, -1);
}
END_TEST

/* Runs a conversion expected to fail with a message containing want. */
static void expect_error(const char *log, const char *opts, int code,
                         const char *want)
{
    struct import_log_report r;
    struct readback rb;
    struct bfs_error e;

    ck_assert_int_eq(convert(log, NULL, opts, T0, &r, &rb, &e), code);
    ck_assert_msg(strstr(e.msg, want) != NULL, "'%s' lacks '%s'", e.msg, want);
}

START_TEST(test_errors)
{
    struct import_log_opts o;
    struct bfs_error e;

    expect_error("1|2|3\n", NULL, BFS_EPARSE,
                 ".txt: no header line naming a JobID column (for sacct "
                 "--noheader output, name its fields with --columns");
    expect_error("JobID|Start|NNodes\n1|2|3\n", NULL, BFS_EPARSE,
                 ":1: the header has no End column");
    expect_error("JobID|Start|End\n1|2|3\n", NULL, BFS_EPARSE,
                 ":1: the header has neither NNodes nor NodeList");
    expect_error("JobID|Start|End|NNodes\n1|yesterday|3|1\n", NULL, BFS_EPARSE,
                 ":2: Start is not a time: 'yesterday'");
    expect_error("JobID|Start|End|NodeList\n1|1|3|n[3-1]\n", NULL, BFS_EPARSE,
                 ":2: host list 'n[3-1]': reversed range at column 3");
    expect_error("JobID|Start|End|NodeList\n1|1|3|n1\n", "machine-nodes=3",
                 BFS_EINVAL, "--machine-nodes is for logs without NodeList");
    expect_error("       JobID        NodeList      Start        End\n"
                 "------------ --------------- ---------- ----------\n"
                 "           1 nid[00001-0000+          1          2\n",
                 NULL, BFS_EPARSE,
                 ":3: NodeList 'nid[00001-0000+' is "
                 "truncated");
    expect_error("       JobID      Start        End   NNodes\n"
                 "           1          1          2        1\n",
                 NULL, BFS_EPARSE,
                 ":2: expected the line of dashes under the header");
    expect_error("JobID|Start|End|NNodes\n1|5|5|1\n", NULL, BFS_EINVAL,
                 "no job ran");
    import_log_opts_init(&o);
    bfs_error_clear(&e);
    ck_assert_int_eq(
        import_slurm("-", tu_tmp("x.trace"), NULL, &o, NULL, NULL, &e),
        BFS_EINVAL);
    ck_assert_msg(strstr(e.msg, "not standard input") != NULL, "%s", e.msg);
}
END_TEST

/* The parsable log of test_parsable_nodelist without its header line
 * (sacct --noheader), with trailing_pipe: every row ending in '|' as
 * sacct --parsable writes it.  malloc'd. */
static char *headerless(int trailing_pipe)
{
    const char *body = strchr(parsable, '\n') + 1;
    char *out = xmalloc(2 * strlen(body) + 1), *o = out;

    for (const char *p = body; *p; p++) {
        if (*p == '\n' && trailing_pipe && p > body && p[-1] != '\n')
            *o++ = '|';
        *o++ = *p;
    }
    *o = '\0';
    return out;
}

/* sacct --noheader output read with --columns: the same trace as the log
 * with its header (test_parsable_nodelist: events and 200 idle
 * node-seconds worked out by hand there), with names in any case and
 * width suffixes, --parsable2 or --parsable; a header that names the
 * same fields is skipped. */
START_TEST(test_columns)
{
    static const char *const lists[] = {
        "JobID,JobName,State,Submit,Start,End,NNodes,NodeList",
        "jobid%20,JOBNAME%-30,state,Submit%19,start,end,nnodes%8,"
        "nodelist%100",
    };
    static const char *const want = "10 +1 +3 +4\n"
                                    "15 -4\n"
                                    "25 +4\n"
                                    "50 -1 -3\n"
                                    "60 +0\n"
                                    "100 +1 +2 +3\n";
    struct import_log_report r;
    struct readback rb;
    struct bfs_error e;
    char opts[256];

    for (int pipe = 0; pipe < 2; pipe++) {
        char *log = headerless(pipe);
        for (size_t k = 0; k < 2; k++) {
            snprintf(opts, sizeof opts, "columns=%s", lists[k]);
            ck_assert_msg(convert(log, NULL, opts, T0, &r, &rb, &e) == 0, "%s",
                          e.msg);
            ck_assert_str_eq(rb.text, want);
            ck_assert_uint_eq(rb.idle_node_s, 200);
            ck_assert_uint_eq(r.records, 10);
            ck_assert_uint_eq(r.steps, 2);
            ck_assert_uint_eq(r.malformed, 0);
        }
        xfree(log);
    }
    /* the header and --columns agree: the header is skipped */
    snprintf(opts, sizeof opts, "columns=%s", lists[1]);
    ck_assert_msg(convert(parsable, NULL, opts, T0, &r, &rb, &e) == 0, "%s",
                  e.msg);
    ck_assert_str_eq(rb.text, want);
    ck_assert_uint_eq(r.records, 10);
    /* ... or not: an error at the header's line */
    expect_error(parsable,
                 "columns=JobID,JobName,Submit,State,Start,End,NNodes,"
                 "NodeList",
                 BFS_EPARSE,
                 ":1: the header's field 3 is State, --columns names Submit");
    expect_error(parsable,
                 "columns=JobID,JobName,State,Submit,Start,End,NNodes",
                 BFS_EPARSE,
                 ":1: the header's field 8 is NodeList, --columns names "
                 "(none)");
    /* a row of the wrong field count is skipped and counted, as with a
     * header */
    ck_assert_msg(convert("1|2023-01-01T00:00:10|2023-01-01T00:00:20|1\n"
                          "2|2023-01-01T00:00:10|2023-01-01T00:00:30|1|x\n"
                          "3|2023-01-01T00:00:15|2023-01-01T00:00:30|1\n",
                          NULL, "columns=JobID,Start,End,NNodes", T0, &r, &rb,
                          &e) == 0,
                  "%s", e.msg);
    /* two nodes (peak); 10-15 one idle, 15-20 none, 20-30 one: 15 */
    ck_assert_uint_eq(rb.nodes, 2);
    ck_assert_uint_eq(rb.idle_node_s, 15);
    ck_assert_uint_eq(r.malformed, 1);
}
END_TEST

/* A bad --columns is a usage error naming the problem. */
START_TEST(test_columns_bad)
{
    static const struct {
        const char *list, *want;
    } bad[] = {
        {"JobID,Start,Ende,NNodes",
         "--columns: 'Ende' is not a sacct field (sacct --helpformat lists "
         "them)"},
        {"Start,End,NNodes", "--columns: no JobID field (nor JobIDRaw)"},
        {"JobID,Start,NodeList", "--columns: no End field"},
        {"JobID,Start,End,State",
         "--columns: no NNodes field (nor AllocNodes, nor NodeList)"},
        {"JobID,,Start,End,NNodes", "--columns: field 2 is empty"},
        {"JobID%x,Start,End,NNodes",
         "--columns: 'JobID%x': a width is %N or %-N"},
        {"JobID%,Start,End,NNodes",
         "--columns: 'JobID%': a width is %N or %-N"},
        {"", "--columns: field 1 is empty"},
    };
    struct import_log_opts o;
    struct bfs_error e;

    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        import_log_opts_init(&o);
        bfs_error_clear(&e);
        ck_assert_int_eq(import_log_opts_set(&o, "columns", bad[k].list, &e),
                         BFS_EUSAGE);
        ck_assert_str_eq(e.msg, bad[k].want);
        ck_assert_ptr_null(o.columns);
    }
    import_log_opts_init(&o);
    ck_assert_int_eq(
        import_log_opts_set(&o, "columns", "jobidraw,START,End,AllocNodes", &e),
        0);
    /* node types from the partition need Partition and NodeList */
    o.types_from_partition = 1;
    bfs_error_clear(&e);
    ck_assert_int_eq(import_slurm(tu_write("cp.txt", "1|1|2|1\n"),
                                  tu_tmp("cp.trace"), NULL, &o, NULL, NULL, &e),
                     BFS_EPARSE);
    ck_assert_ptr_nonnull(strstr(e.msg, "--columns has no Partition column"));
}
END_TEST

/* Sizes bounded by the input's meaning.  Without NodeList the machine is
 * the peak use, so one row's NNodes made it: 11624779 gave a 490 MB
 * trace.  With --machine-nodes the row is a job larger than the machine,
 * counted.  A host list or the distinct names are bounded the same way. */
START_TEST(test_limits)
{
    struct import_log_report r;
    struct readback rb;
    struct bfs_error e;

    expect_error("JobID|Start|End|NNodes\n1|1|9|two\n", NULL, BFS_EPARSE,
                 ".txt:2: NNodes is not a node count: 'two'");
    expect_error("JobID|Start|End|NNodes\n1|1|9|0x10\n", NULL, BFS_EPARSE,
                 ".txt:2: NNodes is not a node count: '0x10'");
    expect_error("JobID|Start|End|NNodes\n1|1|9|11624779\n", NULL, BFS_ERANGE,
                 ".txt:2: NNodes 11624779 is more than --max-nodes 1048576, "
                 "the largest machine bfsim infers from a log: give the "
                 "machine's size with --machine-nodes");
    expect_error("JobID|Start|End|NNodes\n1|1|9|2\n2|1|9|4\n", "max-nodes=3",
                 BFS_ERANGE, ".txt:3: NNodes 4 is more than --max-nodes 3");
    /* Two rows of 2 nodes over [2, 8): 4 at once. */
    expect_error("JobID|Start|End|NNodes\n1|1|9|2\n2|2|8|2\n", "max-nodes=3",
                 BFS_ERANGE,
                 ".txt: the jobs use 4 nodes at once, more than --max-nodes 3");
    expect_error("JobID|Start|End|NodeList\n1|1|9|a[1-3222222,5]\n", NULL,
                 BFS_EPARSE,
                 ".txt:2: host list 'a[1-3222222,5]': more than 1048576 hosts "
                 "(the limit --max-nodes sets) at column 3");
    expect_error("JobID|Start|End|NodeList\n1|1|9|n[1-2]\n2|1|9|n[2-4]\n",
                 "max-nodes=3", BFS_ERANGE,
                 ".txt:3: the NodeList column names more than --max-nodes 3 "
                 "distinct nodes");

    /* Job 1 needs 11624779 of the 4 nodes: counted, skipped; job 2 takes
     * 1 node over [2, 8): idle 3 * 6 = 18 node-s over [2, 8) (the trace
     * starts at the first job's start, 2). */
    ck_assert_int_eq(convert("JobID|Start|End|NNodes\n1|1|9|11624779\n"
                             "2|2|8|1\n",
                             NULL, "machine-nodes=4", 0, &r, &rb, &e),
                     0);
    ck_assert_uint_eq(r.oversized, 1);
    ck_assert_uint_eq(r.nodes, 4);
}
END_TEST

/* sacct --parsable2 cannot quote: a '|' in JobName made the row one field
 * too long, and the job was dropped as malformed.  The other columns hold
 * no '|', so the extra field is JobName's.  Job 1 runs on 1 node over
 * [1, 9) and job 2 ("x|y|z", two extra fields) on 1 node over [1, 5),
 * --machine-nodes 2: idle 0 over [1, 5) and 1 node over [5, 9) = 4. */
START_TEST(test_pipe_in_jobname)
{
    struct import_log_report r;
    struct readback rb;
    struct bfs_error e;

    ck_assert_int_eq(convert("JobID|JobName|Start|End|NNodes\n"
                             "1|a|1|9|1\n"
                             "2|x|y|z|1|5|1\n",
                             NULL, "machine-nodes=2", 0, &r, &rb, &e),
                     0);
    ck_assert_uint_eq(r.malformed, 0);
    ck_assert_uint_eq(r.jobs, 2);
    ck_assert_uint_eq(r.idle_node_s, 4);
}
END_TEST

/* A NUL byte in a sacct row used to drop the row silently (the next row
 * glued onto it); now it is an error at its line. */
START_TEST(test_nul_row)
{
    static const char text[] = "JobID|Start|End|NNodes\n1|1|9|1\n"
                               "2|2|8|1\0x\n3|3|7|1\n";
    const char *p = tu_write_bytes("nul.log", text, sizeof text - 1);
    struct import_log_report r;
    struct readback rb;
    struct bfs_error e;
    char want[4200];

    ck_assert_int_eq(convert(NULL, p, NULL, 0, &r, &rb, &e), BFS_EPARSE);
    snprintf(want, sizeof want, "%s:3: NUL byte at column 8", p);
    ck_assert_str_eq(e.msg, want);
}
END_TEST

/* Outage marking and a window work here as for SWF (the engine is
 * shared): the parsable log between 20 and 80, outages of at least 3 of
 * the 5 nodes idle for 20 s.  Idle after 20 (100 holds 0 and 2, 106
 * holds 4): 1, 3; after 25: 1, 3, 4; after 50: 4; after 60: 0, 4.  The
 * candidate [25, 50) lasts 25 s: an outage; at 25 the offered 1 and 3
 * leave, at 50 the idle node 4 joins.  Removed 3*25; offered 2*5 + 0*25
 * + 1*10 + 2*20. */
START_TEST(test_window_outage)
{
    struct import_log_report r;
    struct readback rb;
    struct bfs_error e;

    ck_assert_msg(convert(parsable, NULL,
                          "start=1672531220;end=1672531280;outage-threshold="
                          "0.6;outage-min-duration=20",
                          T0, &r, &rb, &e) == 0,
                  "%s", e.msg);
    ck_assert_str_eq(rb.text, "20 +1 +3\n"
                              "25 -1 -3\n"
                              "50 +4\n"
                              "60 +0\n"
                              "80\n");
    ck_assert_uint_eq(r.outages, 1);
    ck_assert_uint_eq(r.outage_node_s, 3 * 25);
    ck_assert_uint_eq(rb.idle_node_s, 2 * 5 + 1 * 10 + 2 * 20);
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

/* ---- the published log --------------------------------------------- */

/* sum over job rows of NNodes x (End - Start), straight from the log. */
static const char *const busy_py =
    "import gzip,sys,datetime as d\n"
    "f=gzip.open(sys.argv[1],'rt')\n"
    "busy=0\n"
    "t=lambda s:int(d.datetime.strptime(s,'%Y-%m-%dT%H:%M:%S')"
    ".replace(tzinfo=d.timezone.utc).timestamp())\n"
    "for i,l in enumerate(f):\n"
    "  v=l.rstrip('\\n').split('\\t')\n"
    "  if i<3 or len(v)!=10 or '.' in v[0]: continue\n"
    "  a,b=t(v[3]),t(v[5])\n"
    "  if b>a: busy+=int(v[9])*(b-a)\n"
    "print(busy)\n";

START_TEST(test_published)
{
    const char *log = tu_shared_file("slurm/tacc_ls6_a100_slurm.log.gz");
    struct import_log_report r;
    struct readback rb;
    struct bfs_error e;
    char cmd[4096], line[64];
    FILE *p;
    long long busy = -1;

    if (!log || !tu_exists(log)) {
        fputs("../shared/data absent: test_published skipped\n", stderr);
        return;
    }
    ck_assert_msg(convert(NULL, log, NULL, 0, &r, &rb, &e) == 0, "%s", e.msg);
    replay_ok(last_out);
    ck_assert_uint_eq(r.records, 24777);
    ck_assert_uint_eq(r.malformed, 1);
    ck_assert_uint_eq(r.first_malformed, 19706);
    ck_assert_uint_eq(r.jobs + r.zero_run + r.malformed, r.records);
    ck_assert_uint_eq(r.truncated + r.dropped, 0);
    ck_assert_int_eq(r.submit_lag, 0);
    fprintf(stderr,
            "ls6: %zu nodes, %zu events, %zu jobs, %.1f idle node-hours, "
            "at most %zu jobs held\n",
            rb.nodes, rb.events, r.jobs, (double)r.idle_node_s / 3600.0,
            r.peak_jobs);
    if (system("python3 -c 'import gzip' >/dev/null 2>&1") != 0) {
        fputs("python3 missing: busy node-seconds check skipped\n", stderr);
        return;
    }
    snprintf(cmd, sizeof cmd, "python3 '%s' '%s'", tu_write("busy.py", busy_py),
             log);
    p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    if (fgets(line, sizeof line, p))
        busy = strtoll(line, NULL, 10);
    ck_assert_int_eq(pclose(p), 0);
    /* Every job fits on the peak-sized machine and lies in the span. */
    ck_assert_int_eq((long long)(rb.nodes * (uint64_t)(r.end - r.start)) - busy,
                     (long long)rb.idle_node_s);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("import_slurm");
    TCase *tc = tcase_create("slurm");

    tcase_add_test(tc, test_parsable_nodelist);
    tcase_add_test(tc, test_nodes_file);
    tcase_add_test(tc, test_fixed_counts);
    tcase_add_test(tc, test_unsorted);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_columns);
    tcase_add_test(tc, test_columns_bad);
    tcase_add_test(tc, test_nul_row);
    tcase_add_test(tc, test_limits);
    tcase_add_test(tc, test_pipe_in_jobname);
    tcase_add_test(tc, test_window_outage);
    tu_add_shared_test(tc, test_published, 0, 0);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
