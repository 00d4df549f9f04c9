/* check_import_elastisim.c - ElastiSim's node-utilization output to
 * traces (formats/import_elastisim.c).
 *
 * The input is written here from ElastiSim's documentation (the page
 * "Simulation results": columns Time, Node, State, Running jobs,
 * Expected jobs; one row per change of a node's state; states free,
 * allocated, reserved), with the expected events worked out by hand in
 * the comments, times counted from simulation time 0.
 */
#include "config.h"

#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/import.h"
#include "formats/trace.h"
#include "testutil.h"

/* The trace at path as text, one "SECONDS +joined -left" line per event,
 * times minus t0; *names gets the node names, blank-separated. */
static char *trace_text(const char *path, int64_t t0, char names[256])
{
    struct trace_reader *r;
    struct trace_event ev;
    struct bfs_error e;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    int rc;

    bfs_error_clear(&e);
    ck_assert_msg(trace_open(path, &r, &e) == 0, "%s", e.msg);
    names[0] = '\0';
    for (size_t i = 0; i < trace_node_count(r); i++) {
        size_t n = strlen(names);
        snprintf(names + n, 256 - n, "%s%s", i ? " " : "",
                 trace_node_name(r, i));
    }
    while ((rc = trace_next(r, &ev, &e)) == 1) {
        fprintf(f, "%" PRId64, ev.time - t0);
        for (size_t k = 0; k < ev.n_join; k++)
            fprintf(f, " +%" PRIu32, ev.join[k]);
        for (size_t k = 0; k < ev.n_leave; k++)
            fprintf(f, " -%" PRIu32, ev.leave[k]);
        fputc('\n', f);
    }
    ck_assert_msg(rc == 0, "%s", e.msg);
    trace_close(r);
    fclose(f);
    return text;
}

/* Converts text with options "name=value;..."; returns the trace as text
 * or NULL with the error in *e (nothing written then). */
static char *convert(const char *text, const char *opts,
                     struct import_elastisim_report *rep, char names[256],
                     struct bfs_error *e)
{
    static int n;
    char name[64], buf[512], *save = NULL;
    const char *in, *out;
    struct import_log_opts o;
    struct import_elastisim_report r;

    snprintf(name, sizeof name, "nu%d.csv", n);
    in = tu_write(name, text);
    snprintf(name, sizeof name, "out%d.trace", n++);
    out = tu_tmp(name);
    import_log_opts_init(&o);
    snprintf(buf, sizeof buf, "%s", opts ? opts : "");
    for (char *kv = strtok_r(buf, ";", &save); kv;
         kv = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(kv, '=');
        ck_assert_ptr_nonnull(eq);
        *eq = '\0';
        ck_assert_int_eq(import_log_opts_set(&o, kv, eq + 1, NULL), 0);
    }
    bfs_error_clear(e);
    if (import_elastisim(in, out, NULL, &o, NULL, rep ? rep : &r, e) != 0) {
        ck_assert_int_eq(tu_exists(out), 0);
        return NULL;
    }
    return trace_text(out, o.origin, names);
}

#define HEADER "Time,Node,State,Running jobs,Expected jobs\n"

/* Four nodes listed free at time 0; job 0 on node_0 and node_1 over
 * [10.2, 40); job 1 reserves node_3 at 25 while starting on node_2, then
 * runs on both from 30 to 55.7; job 2 takes node_0 at 60, the last row.
 * Busy periods (times rounded): node_0 and node_1 [10, 40); node_2 and
 * node_3 [25, 56) (reserved counts as busy); node_0 from 60, the end.
 *
 *   0: all idle; 10: 0, 1 leave; 25: 2, 3 leave; 40: 0, 1 join;
 *   56: 2, 3 join; 60: the end (node_0 busy from then: no time left).
 *
 * Idle node-seconds: 4x10 + 2x15 + 0x15 + 2x16 + 4x4 = 118. */
#define ROWS                                                                   \
    HEADER "0,node_0,free,none,none\n"                                         \
           "0,node_1,free,none,none\n"                                         \
           "0,node_2,free,none,none\n"                                         \
           "0,node_3,free,none,none\n"                                         \
           "10.2,node_0,allocated,0,none\n"                                    \
           "10.2,node_1,allocated,0,none\n"                                    \
           "25,node_2,allocated,1,none\n"                                      \
           "25,node_3,reserved,none,1\n"                                       \
           "30,node_3,allocated,1,none\n"                                      \
           "40,node_0,free,none,none\n"                                        \
           "40,node_1,free,none,none\n"                                        \
           "55.7,node_2,free,none,none\n"                                      \
           "55.7,node_3,free,none,none\n"                                      \
           "60,node_0,allocated,2,none\n"

START_TEST(test_rows)
{
    struct import_elastisim_report r;
    struct bfs_error e;
    char names[256];
    char *t = convert(ROWS, NULL, &r, names, &e);

    ck_assert_msg(t != NULL, "%s", e.msg);
    ck_assert_str_eq(t, "0 +0 +1 +2 +3\n"
                        "10 -0 -1\n"
                        "25 -2 -3\n"
                        "40 +0 +1\n"
                        "56 +2 +3\n"
                        "60\n");
    ck_assert_str_eq(names, "node_0 node_1 node_2 node_3");
    ck_assert_uint_eq(r.rows, 14);
    ck_assert_uint_eq(r.reserved, 1);
    ck_assert_uint_eq(r.allocated, 5);
    ck_assert_uint_eq(r.periods, 4);
    ck_assert_uint_eq(r.open_at_end, 1);
    ck_assert_uint_eq(r.log.idle_node_s, 118);
    free(t);

    /* --origin and --end: node_0 busy from 60 to the end at 70, where its
     * period ends (it joins at the last event, which offers no time) */
    t = convert(ROWS, "origin=1612988400;end=1612988470", &r, names, &e);
    ck_assert_msg(t != NULL, "%s", e.msg);
    ck_assert_str_eq(t, "0 +0 +1 +2 +3\n"
                        "10 -0 -1\n"
                        "25 -2 -3\n"
                        "40 +0 +1\n"
                        "56 +2 +3\n"
                        "60 -0\n"
                        "70 +0\n");
    free(t);
}
END_TEST

static void expect_error(const char *text, const char *want)
{
    struct bfs_error e;
    char names[256];
    char *t = convert(text, NULL, NULL, names, &e);

    ck_assert_msg(t == NULL, "converted, expected '%s'", want);
    ck_assert_msg(strstr(e.msg, want) != NULL, "'%s' lacks '%s'", e.msg, want);
}

START_TEST(test_errors)
{
    expect_error(HEADER "0,a,free,none,none\n"
                        "20,a,allocated,1,none\n"
                        "10,a,free,none,none\n",
                 ".csv:4: Time 10 is before the previous row's");
    expect_error(HEADER "0,a,busy,none,none\n",
                 ".csv:2: unknown State 'busy' (free, allocated or reserved)");
    expect_error(HEADER "x,a,free,none,none\n",
                 ".csv:2: Time is not a number: 'x'");
    expect_error(HEADER "-5,a,free,none,none\n", ".csv:2: Time -5 is out");
    expect_error(HEADER "0,a b,free,none,none\n",
                 ".csv:2: node name 'a b' is empty or holds a blank");
    expect_error(HEADER "0,a,free,none\n",
                 ".csv:2: 4 fields, but the header has 5");
    expect_error("Time,Host,State\n0,a,free\n",
                 ".csv:1: no column Node in the header");
    expect_error("", "empty file");
    expect_error(HEADER "0,a,free,none,none\n", "nothing to convert");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("import_elastisim");
    TCase *tc = tcase_create("import_elastisim");

    tcase_add_test(tc, test_rows);
    tcase_add_test(tc, test_errors);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
