/* check_import_batsim.c - Batsim's jobs.csv and external events to
 * traces (import/import_batsim.c).
 *
 * The inputs are small files written here from Batsim's documentation
 * (docs/output-jobs.rst: the columns in the order Batsim 5 writes them;
 * docs/input-events.rst of Batsim 4: its example file; Batsim 5's generic
 * events), with the expected events worked out by hand in the comments.
 * A trace is compared as text, one "SECONDS +joined -left" line per
 * event, the times counted from the simulation's time 0.
 */
#include "config.h"

#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "import/import.h"
#include "formats/trace.h"
#include "testimport.h"
#include "testutil.h"

/* Converts jobs and/or events text (NULL: not given) with options
 * "name=value;..." and returns the trace as text (malloc'd), or NULL
 * with the error in *e (and then checks that nothing was written). */
static char *convert(const char *jobs, const char *events, const char *opts,
                     struct import_batsim_report *rep, size_t *nodes,
                     struct bfs_error *e)
{
    static int n;
    char name[64];
    const char *jp = NULL, *ep = NULL, *out;
    struct import_log_opts o;
    struct import_batsim_report r;
    int rc;

    snprintf(name, sizeof name, "jobs%d.csv", n);
    if (jobs)
        jp = tu_write(name, jobs);
    snprintf(name, sizeof name, "events%d.txt", n);
    if (events)
        ep = tu_write(name, events);
    snprintf(name, sizeof name, "out%d.trace", n++);
    out = tu_tmp(name);
    tu_import_opts(opts, &o);
    bfs_error_clear(e);
    rc = import_batsim(jp, ep, out, NULL, &o, NULL, rep ? rep : &r, e);
    if (rc != 0) {
        ck_assert_int_eq(tu_exists(out), 0);
        return NULL;
    }
    return tu_trace_text(out, o.origin, nodes, NULL);
}

#define HEADER5                                                                \
    "job_id,workload_name,profile,submission_time,"                            \
    "requested_number_of_resources,requested_time,success,final_state,"        \
    "starting_time,execution_time,finish_time,waiting_time,turnaround_time,"   \
    "stretch,allocated_resources,consumed_energy,metadata\n"

/* Batsim 5's jobs.csv, rows in finishing order as Batsim writes them:
 *
 *   job 2 on {2, 3} from 10 to 30; job 1 on {0, 1, 4} from 0 to 40;
 *   job 3 rejected (empty times and allocation).
 *
 * Five nodes (the largest id named is 4).  t=0: job 1 takes 0, 1, 4: nodes 2, 3
 * idle; t=10: job 2 takes 2, 3; t=30: they join; t=40: 0, 1, 4 join, the
 * trace's end. */
#define JOBS5                                                                  \
    HEADER5                                                                    \
    "2,w0,delay,5.000000,2,100.000000,1,COMPLETED_SUCCESSFULLY,10.000000,"     \
    "20.000000,30.000000,5.000000,25.000000,1.250000,2-3,-1.000000,\n"         \
    "1,w0,delay,0.000000,3,100.000000,1,COMPLETED_SUCCESSFULLY,0.000000,"      \
    "40.000000,40.000000,0.000000,40.000000,1.000000,0-1 4,-1.000000,\n"       \
    "3,w0,delay,1.000000,8,100.000000,0,REJECTED,,,,,,,,,\n"

START_TEST(test_jobs)
{
    struct import_batsim_report r;
    struct bfs_error e;
    size_t nodes;
    char *t = convert(JOBS5, NULL, NULL, &r, &nodes, &e);

    ck_assert_msg(t != NULL, "%s", e.msg);
    ck_assert_str_eq(t, "0 +2 +3\n"
                        "10 -2 -3\n"
                        "30 +2 +3\n"
                        "40 +0 +1 +4\n");
    ck_assert_uint_eq(nodes, 5);
    ck_assert_str_eq(r.log.nodes_from, "largest resource id + 1");
    ck_assert_uint_eq(r.rows, 3);
    ck_assert_uint_eq(r.jobs, 2);
    ck_assert_uint_eq(r.not_run, 1);
    /* idle node-seconds: 2 x 10 + 0 x 20 + 2 x 10 = 40 */
    ck_assert_uint_eq(r.log.idle_node_s, 40);
    free(t);

    /* --machine-nodes 8: nodes 5..7 never used are idle throughout;
     * --origin moves every time */
    t = convert(JOBS5, NULL, "machine-nodes=8;origin=1612988400", &r, &nodes,
                &e);
    ck_assert_msg(t != NULL, "%s", e.msg);
    ck_assert_str_eq(t, "0 +2 +3 +5 +6 +7\n"
                        "10 -2 -3\n"
                        "30 +2 +3\n"
                        "40 +0 +1 +4\n");
    ck_assert_uint_eq(nodes, 8);
    ck_assert_int_eq(r.log.start, 1612988400);
    ck_assert_int_eq(r.log.end, 1612988440);
    free(t);
}
END_TEST

/* The columns without profile (as older Batsim documentation lists
 * them), fractional times rounded to the nearest second, metadata
 * holding unquoted commas, quoted fields, a job of 0.05 s that rounds to
 * 0 s (skipped), and bfsim's own --batsim-jobs columns (no final_state).
 *
 *   a: {0} [1.4, 5.6) -> [1, 6);  b: {1} [0.4, 0.45) -> [0, 0): 0 s;
 *   c: {1} [2, 3.5) -> [2, 4).  Two nodes.
 * t=1: 0 leaves (the span starts at simulation time 0, all idle);
 * t=2: 1 leaves; t=4: 1 joins; t=6: 0 joins. */
START_TEST(test_jobs_forms)
{
    struct import_batsim_report r;
    struct bfs_error e;
    size_t nodes;
    char *t = convert(
        "job_id,workload_name,submission_time,requested_number_of_resources,"
        "requested_time,success,final_state,starting_time,execution_time,"
        "finish_time,waiting_time,turnaround_time,stretch,"
        "allocated_resources,consumed_energy,metadata\n"
        "a,w,0,1,10,1,COMPLETED_SUCCESSFULLY,1.4,4.2,5.6,1.4,5.6,1,0,-1,"
        "{\"x\": 1, \"y\": 2}\n"
        "\"b\",w,0,1,10,1,COMPLETED_KILLED,0.4,0.05,0.45,0,0.45,1,\"1\",-1,\n"
        "c,w,0,1,10,1,COMPLETED_WALLTIME_REACHED,2,1.5,3.5,2,3.5,1,1,-1,\n",
        NULL, NULL, &r, &nodes, &e);

    ck_assert_msg(t != NULL, "%s", e.msg);
    ck_assert_str_eq(t, "0 +0 +1\n"
                        "1 -0\n"
                        "2 -1\n"
                        "4 +1\n"
                        "6 +0\n");
    ck_assert_uint_eq(r.jobs, 2);
    ck_assert_uint_eq(r.zero_run, 1);
    free(t);

    /* the --batsim-jobs header; "A!0" rows of one job */
    t = convert("job_id,workload_name,submission_time,"
                "requested_number_of_resources,starting_time,"
                "execution_time,finish_time,waiting_time,"
                "allocated_resources\n"
                "A!0,A,0,2,0,100,100,0,0-1\n"
                "A!1,A,0,4,100,100,200,100,0-3\n"
                "A!2,A,0,3,200,100,300,200,1-3\n",
                NULL, NULL, &r, &nodes, &e);
    ck_assert_msg(t != NULL, "%s", e.msg);
    /* t=0 A takes 0, 1 (2, 3 idle); t=100: 2, 3 taken as well (0 and 1
     * change holding but stay busy); t=200: 0 joins; t=300: 1-3 join */
    ck_assert_str_eq(t, "0 +2 +3\n"
                        "100 -2 -3\n"
                        "200 +0\n"
                        "300 +1 +2 +3\n");
    free(t);
}
END_TEST

/* The example file of Batsim 4's external-events page, on 4 hosts:
 *
 *   0: 0 unavailable; 10: 0 available; 20: 0, 1, 3 unavailable;
 *   250: 0, 1 available; 300: 3 available.
 *
 * t=0: 1, 2, 3 idle; 10: 0 joins; 20: 0, 1, 3 leave; 250: 0, 1 join;
 * 300: 3 joins. */
#define EVENTS4                                                                \
    "{\"type\": \"machine_unavailable\", \"resources\": \"0\", "               \
    "\"timestamp\" : 0}\n"                                                     \
    "{\"type\": \"machine_available\", \"resources\": \"0\", "                 \
    "\"timestamp\" : 10}\n"                                                    \
    "{\"type\": \"machine_unavailable\", \"resources\": \"0-1 3\", "           \
    "\"timestamp\" : 20}\n"                                                    \
    "{\"type\": \"machine_available\", \"resources\": \"0 1\", "               \
    "\"timestamp\" : 250}\n"                                                   \
    "{\"type\": \"machine_available\", \"resources\": \"3\", "                 \
    "\"timestamp\" : 300}\n"
#define EVENTS4_TRACE "0 +1 +2 +3\n10 +0\n20 -0 -1 -3\n250 +0 +1\n300 +3\n"

START_TEST(test_events)
{
    struct import_batsim_report r;
    struct bfs_error e;
    size_t nodes;
    char *t = convert(NULL, EVENTS4, "machine-nodes=4", &r, &nodes, &e);

    ck_assert_msg(t != NULL, "%s", e.msg);
    ck_assert_str_eq(t, EVENTS4_TRACE);
    ck_assert_uint_eq(r.events, 5);
    ck_assert_uint_eq(r.unavailable, 2);
    ck_assert_uint_eq(r.available, 3);
    /* periods: 0 [0,10), 0 [20,250), 1 [20,250), 3 [20,300) */
    ck_assert_uint_eq(r.periods, 4);
    ck_assert_uint_eq(r.open_at_end, 0);
    free(t);

    /* Batsim sorts the events itself: the same lines reversed give the
     * same trace */
    t = convert(NULL,
                "{\"type\": \"machine_available\", \"resources\": \"3\", "
                "\"timestamp\" : 300}\n"
                "{\"type\": \"machine_available\", \"resources\": \"0 1\", "
                "\"timestamp\" : 250}\n"
                "{\"type\": \"machine_unavailable\", \"resources\": \"0-1 "
                "3\", \"timestamp\" : 20}\n"
                "{\"type\": \"machine_available\", \"resources\": \"0\", "
                "\"timestamp\" : 10}\n"
                "{\"type\": \"machine_unavailable\", \"resources\": \"0\", "
                "\"timestamp\" : 0}\n",
                "machine-nodes=4", &r, &nodes, &e);
    ck_assert_msg(t != NULL, "%s", e.msg);
    ck_assert_str_eq(t, EVENTS4_TRACE);
    free(t);
}
END_TEST

/* Batsim 5 generic events whose data is a machine event, one whose data
 * is anything else (ignored), a repeated unavailable (no change) and a
 * period left open (until the latest time in the input, 40):
 *
 *   5: 1 unavailable; 7: 1 unavailable again; 12.6: 1 available (13);
 *   30: 0 unavailable, never available again; 40: a generic event.
 *
 * Two nodes: t=0 both idle; 5: 1 leaves; 13: 1 joins; 30: 0 leaves; 40:
 * the end, where 0's open period ends (so it joins at the last event,
 * which offers no time). */
START_TEST(test_events_generic)
{
    struct import_batsim_report r;
    struct bfs_error e;
    size_t nodes;
    char *t = convert(
        NULL,
        "{\"type\": \"generic\", \"timestamp\": 5.0, \"data\": "
        "\"{\\\"type\\\": "
        "\\\"machine_unavailable\\\", \\\"resources\\\": \\\"1\\\"}\"}\n"
        "{\"type\": \"machine_unavailable\", \"resources\": \"1\", "
        "\"timestamp\": 7}\n"
        "{\"type\": \"generic\", \"timestamp\": 12.6, \"data\": "
        "\"{\\\"type\\\": "
        "\\\"machine_available\\\", \\\"resources\\\": \\\"1\\\"}\"}\n"
        "\n"
        "{\"type\": \"machine_unavailable\", \"resources\": \"0\", "
        "\"timestamp\": 30}\n"
        "{\"type\": \"generic\", \"timestamp\": 40.0, \"data\": \"some "
        "data\"}\n",
        NULL, &r, &nodes, &e);

    ck_assert_msg(t != NULL, "%s", e.msg);
    ck_assert_str_eq(t, "0 +0 +1\n"
                        "5 -1\n"
                        "13 +1\n"
                        "30 -0\n"
                        "40 +0\n");
    ck_assert_uint_eq(nodes, 2);
    ck_assert_uint_eq(r.ignored, 1);
    ck_assert_uint_eq(r.unavailable, 3);
    ck_assert_uint_eq(r.open_at_end, 1);
    free(t);
}
END_TEST

/* jobs.csv and events together: a node is idle only when no job holds it
 * and it is available.  JOBS5 (job 1 on 0, 1, 4 over [0, 40), job 2 on
 * 2, 3 over [10, 30)) with node 5 unavailable over [0, 10) and nodes 3, 5
 * over [20, 50):
 *
 *   [0,10) idle {2,3}; [10,20) {5}; [20,30) {}; [30,40) {2} (3 is still
 *   unavailable); [40,50) {0,1,2,4}; 50: 3 and 5 join, the end. */
#define EVENTS_MIX                                                             \
    "{\"type\": \"machine_unavailable\", \"resources\": \"5\", "               \
    "\"timestamp\": 0}\n"                                                      \
    "{\"type\": \"machine_available\", \"resources\": \"5\", "                 \
    "\"timestamp\": 10}\n"                                                     \
    "{\"type\": \"machine_unavailable\", \"resources\": \"3 5\", "             \
    "\"timestamp\": 20}\n"                                                     \
    "{\"type\": \"machine_available\", \"resources\": \"3 5\", "               \
    "\"timestamp\": 50}\n"

START_TEST(test_combined)
{
    struct import_batsim_report r;
    struct bfs_error e;
    size_t nodes;
    char *t = convert(JOBS5, EVENTS_MIX, NULL, &r, &nodes, &e);

    ck_assert_msg(t != NULL, "%s", e.msg);
    ck_assert_str_eq(t, "0 +2 +3\n"
                        "10 +5 -2 -3\n"
                        "20 -5\n"
                        "30 +2\n"
                        "40 +0 +1 +4\n"
                        "50 +3 +5\n");
    ck_assert_uint_eq(nodes, 6);
    /* idle node-s: 2x10 + 1x10 + 0 + 1x10 + 4x10 = 80 */
    ck_assert_uint_eq(r.log.idle_node_s, 80);
    free(t);
}
END_TEST

/* Expects the conversion to fail with a message holding want. */
static void expect_error(const char *jobs, const char *events, const char *opts,
                         const char *want)
{
    struct bfs_error e;
    size_t nodes;
    char *t = convert(jobs, events, opts, NULL, &nodes, &e);

    ck_assert_msg(t == NULL, "converted, expected '%s'", want);
    ck_assert_msg(strstr(e.msg, want) != NULL, "'%s' lacks '%s'", e.msg, want);
}

#define ROW5(start, finish, alloc)                                             \
    "7,w,p,0,1,10,1,COMPLETED_SUCCESSFULLY," start ",1," finish                \
    ",0,1,1," alloc ",-1,\n"

START_TEST(test_errors)
{
    /* bad interval sets, with file, line and column */
    expect_error(HEADER5 ROW5("0", "1", "0-"), NULL, NULL,
                 ".csv:2: interval set '0-': expected the range's upper bound "
                 "at column 3");
    expect_error(HEADER5 ROW5("0", "1", "0") ROW5("0", "1", "3-1"), NULL, NULL,
                 ".csv:3: interval set '3-1': reversed range");
    expect_error(HEADER5 ROW5("0", "1", "n1"), NULL, NULL,
                 "expected a resource id at column 1");
    /* resources beyond the machine's size */
    expect_error(HEADER5 ROW5("0", "1", "0-3 8"), NULL, "machine-nodes=8",
                 ".csv:2: interval set '0-3 8': resource 8 at column 5 is "
                 "beyond the machine's 8 nodes (--machine-nodes)");
    expect_error(NULL,
                 "{\"type\": \"machine_unavailable\", \"resources\": \"4\", "
                 "\"timestamp\": 0}\n",
                 "machine-nodes=4", ".txt:1: interval set '4': resource 4");
    /* times */
    expect_error(HEADER5 ROW5("10", "5", "0"), NULL, NULL,
                 ".csv:2: job 7 finishes (finish_time 5) before it starts "
                 "(starting_time 10)");
    expect_error(HEADER5 ROW5("ten", "5", "0"), NULL, NULL,
                 ".csv:2: starting_time is not a number: 'ten'");
    expect_error(HEADER5 ROW5("-1", "5", "0"), NULL, NULL,
                 "starting_time -1 is out of range");
    expect_error(NULL,
                 "{\"type\": \"machine_unavailable\", \"resources\": \"0\", "
                 "\"timestamp\": -3}\n",
                 NULL, ".txt:1: timestamp -3 is out of range");
    /* the file's shape */
    expect_error("job_id,starting_time,finish_time\n1,0,1\n", NULL, NULL,
                 ".csv:1: no column allocated_resources in the header");
    expect_error(HEADER5 "7,w,p,0,1\n", NULL, NULL,
                 ".csv:2: 5 fields, but the header has 17");
    expect_error("job_id,starting_time,finish_time,allocated_resources\n"
                 "1,0,1,0,extra\n",
                 NULL, NULL, ".csv:2: 5 fields, but the header has 4");
    expect_error("", NULL, NULL, "empty file");
    expect_error(HEADER5, NULL, NULL, "nothing to convert");
    /* events */
    expect_error(NULL,
                 "{\"type\": \"machine_unavailable\", \"resources\": \"0\", "
                 "\"timestamp\": 0}\n"
                 "{\"type\": \"machine_down\", \"resources\": \"0\", "
                 "\"timestamp\": 5}\n",
                 NULL,
                 ".txt:2: unknown event type 'machine_down' (bfsim reads "
                 "machine_unavailable, machine_available and generic)");
    expect_error(NULL, "{\"type\": \"machine_available\", \"timestamp\": 5}\n",
                 NULL,
                 ".txt:1: a machine_available event needs a string "
                 "\"resources\"");
    expect_error(NULL, "{\"type\": \"machine_available\"}\n", NULL,
                 "needs a string \"type\" and a number \"timestamp\"");
    expect_error(NULL, "{\"type\": \"generic\", \"timestamp\": 1\n", NULL,
                 ".txt:1: not a JSON object");
    expect_error(NULL, "[1, 2]\n", NULL, ".txt:1: an event is a JSON object");
    expect_error(NULL,
                 "{\"type\": \"machine_available\", \"resources\": \"0\", "
                 "\"timestamp\": 1, \"timestamp\": 2}\n",
                 NULL, ".txt:1: not a JSON object: duplicate");
}
END_TEST

/* Convert, then replay: the trace of test_combined (simulation time 0 at
 * T = 1612988400) given to one job A that takes every idle node (1..6
 * nodes, never done, no rescaling cost).  A holds what is idle:
 *
 *   [0,10) {2,3}; [10,20) {5}; [20,30) nothing; [30,40) {2};
 *   [40,50) {0,1,2,4}
 *
 * and bfsim's own Batsim-style jobs.csv lists exactly these holdings,
 * 2x10 + 1x10 + 1x10 + 4x10 = 80 node-seconds, the trace's idle
 * node-seconds. */
START_TEST(test_convert_replay)
{
    const char *jobs = tu_write("mix.csv", JOBS5);
    const char *events = tu_write("mix.txt", EVENTS_MIX);
    const char *trace = tu_tmp("mix.trace");
    const char *set =
        tu_write("a.jobs", "# bfsim-jobs 1\n"
                           "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                           "A,1612988400,1,6,1e9,0,0,0:0:0 1:1:1 6:6:6\n");
    const char *out = tu_tmp("out.csv");
    char args[4096], *err, *text;

    snprintf(args, sizeof args,
             "convert --from batsim %s --events %s --origin 1612988400 "
             "--machine-nodes 6 -o %s",
             jobs, events, trace);
    ck_assert_int_eq(tu_bfsim_run(args, &err), 0);
    ck_assert_msg(strstr(err, "bfsim: batsim jobs.csv: 3 rows, 2 jobs "
                              "converted; skipped: 1 never ran") != NULL,
                  "%s", err);
    ck_assert_msg(strstr(err, "warning") == NULL, "%s", err);
    free(err);
    snprintf(args, sizeof args,
             "replay -q --allocator dp --trace %s --jobs %s --batsim-jobs %s "
             "--summary /dev/null",
             trace, set, out);
    ck_assert_int_eq(tu_bfsim_run(args, &err), 0);
    free(err);
    text = tu_slurp(out);
    ck_assert_ptr_nonnull(text);
    ck_assert_str_eq(text, "job_id,workload_name,submission_time,"
                           "requested_number_of_resources,starting_time,"
                           "execution_time,finish_time,waiting_time,"
                           "allocated_resources\n"
                           "A!0,A,0,2,0,10,10,0,2-3\n"
                           "A!1,A,0,1,10,10,20,10,5\n"
                           "A!2,A,0,1,30,10,40,30,2\n"
                           "A!3,A,0,4,40,10,50,40,0-2 4\n");
    free(text);

    /* the machine's size inferred: a warning naming --machine-nodes */
    snprintf(args, sizeof args, "convert -q --from batsim %s -o %s", jobs,
             tu_tmp("mix2.trace"));
    ck_assert_int_eq(tu_bfsim_run(args, &err), 0);
    ck_assert_msg(strstr(err,
                         "bfsim: warning: the machine's size was taken "
                         "as the largest resource id + 1 (5 nodes)") != NULL,
                  "%s", err);
    free(err);

    /* an error: exit 1, file and line, no output */
    snprintf(args, sizeof args,
             "convert --from batsim-events %s --machine-nodes 4 -o %s", events,
             tu_tmp("bad.trace"));
    ck_assert_int_eq(tu_bfsim_run(args, &err), 1);
    ck_assert_msg(strstr(err,
                         "mix.txt:1: interval set '5': resource 5 at "
                         "column 1 is beyond the machine's 4 nodes") != NULL,
                  "%s", err);
    ck_assert_int_eq(tu_exists(tu_tmp("bad.trace")), 0);
    free(err);

    /* --events is not an option of batsim-events */
    snprintf(args, sizeof args,
             "convert --from batsim-events %s --events %s -o %s", events,
             events, tu_tmp("bad.trace"));
    ck_assert_int_eq(tu_bfsim_run(args, &err), 2);
    free(err);
}
END_TEST

/* `bfsim info` on Batsim's (and ElastiSim's) files fails (status 1) and names
 * the converter; a CSV that lacks allocated_resources gets no hint. */
START_TEST(test_info_hints)
{
    static const struct {
        const char *name, *text, *from, *title;
    } cases[] = {
        {"j.csv", JOBS5, "batsim", "looks like a Batsim jobs.csv;"},
        {"e.txt", EVENTS4, "batsim-events",
         "looks like a Batsim external-events file;"},
        {"nu.csv",
         "Time,Node,State,Running jobs,Expected jobs\n0,n0,free,none,none\n",
         "elastisim", "looks like an ElastiSim node-utilization file;"},
    };
    char args[4096], want[4096], *err;

    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        const char *path = tu_write(cases[k].name, cases[k].text);
        snprintf(args, sizeof args, "info %s", path);
        ck_assert_int_eq(tu_bfsim_run(args, &err), 1);
        ck_assert_msg(strstr(err, cases[k].title) != NULL, "%s", err);
        snprintf(want, sizeof want, "    bfsim convert --from %s %s -o ",
                 cases[k].from, path);
        ck_assert_msg(strstr(err, want) != NULL, "%s", err);
        free(err);
    }
    snprintf(args, sizeof args, "info %s",
             tu_write("n.csv", "job_id,starting_time,finish_time\n1,0,1\n"));
    ck_assert_int_eq(tu_bfsim_run(args, &err), 1);
    ck_assert_ptr_null(strstr(err, "convert"));
    free(err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("import_batsim");
    TCase *tc = tcase_create("import_batsim");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_jobs);
    tcase_add_test(tc, test_jobs_forms);
    tcase_add_test(tc, test_events);
    tcase_add_test(tc, test_events_generic);
    tcase_add_test(tc, test_combined);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_convert_replay);
    tcase_add_test(tc, test_info_hints);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
