/* check_import_bftrainer.c - the BFTrainer matrix export importer: a small
 * hand-made export converted to the exact expected trace text, every
 * inconsistency reported with file and line, and (when the published data
 * is there) the real Summit export's counts. */
#include "config.h"

#include "import/import.h"
#include "testutil.h"
#include "formats/trace.h"

#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

/* A 3-node export: nodes.csv lists the columns out of order on purpose.
 *   row 0 t=1000: all busy (no change)
 *   row 1 t=1060: x0 and x2 become idle       -> idle {0,2}
 *   row 2 t=1200: x0 taken back, x1 idle      -> idle {1,2}
 *   row 3 t=1500: x1, x2 taken back, x0 idle  -> idle {0}   */
static const char *nodes_csv = "col_idx,node\n"
                               "1,x1\n"
                               "0,x0\n"
                               "2,x2\n";
static const char *rows_csv = "row,time,epoch_s,n_idle,n_join_0to1,"
                              "n_leave_1to0\n"
                              "0,1970-01-01 00:16:40,1000,0,0,0\n"
                              "1,1970-01-01 00:17:40,1060,2,2,0\n"
                              "2,1970-01-01 00:20:00,1200,2,1,1\n"
                              "3,1970-01-01 00:25:00,1500,1,1,2\n";
static const char *trans_csv = "row,epoch_s,col_idx,node,new_state\n"
                               "1,1060,2,x2,1\n"
                               "1,1060,0,x0,1\n"
                               "2,1200,0,x0,0\n"
                               "2,1200,1,x1,1\n"
                               "3,1500,1,x1,0\n"
                               "3,1500,2,x2,0\n"
                               "3,1500,0,x0,1\n";
static const char *expected = "bfsim-trace 1\n"
                              "# hand-made\n"
                              "node x0\nnode x1\nnode x2\n"
                              "1000\n"
                              "1060 +0 +2\n"
                              "1200 -0 +1\n"
                              "1500 -1 -2 +0\n";

/* Makes directory name in the temporary area with the three files. */
static const char *make_export(const char *name, const char *nodes,
                               const char *rows, const char *trans)
{
    const char *dir = tu_tmp(name);
    char rel[256];

    ck_assert_int_eq(mkdir(dir, 0777), 0);
    snprintf(rel, sizeof rel, "%s/nodes.csv", name);
    tu_write(rel, nodes);
    snprintf(rel, sizeof rel, "%s/rows.csv", name);
    tu_write(rel, rows);
    snprintf(rel, sizeof rel, "%s/transitions.csv", name);
    tu_write(rel, trans);
    return dir;
}

START_TEST(test_small_export)
{
    static const char *const comments[] = {"hand-made", NULL};
    const char *dir = make_export("ok", nodes_csv, rows_csv, trans_csv);
    const char *out = tu_tmp("ok.trace");
    struct import_stats st;
    struct bfs_error e;
    char *text;

    bfs_error_clear(&e);
    ck_assert_msg(import_bftrainer(dir, out, comments, &st, &e) == 0, "%s",
                  e.msg);
    text = tu_slurp(out);
    ck_assert_str_eq(text, expected);
    free(text);
    ck_assert_uint_eq(st.nodes, 3);
    ck_assert_uint_eq(st.events, 4);
    ck_assert_uint_eq(st.joins, 4);
    ck_assert_uint_eq(st.leaves, 3);
    ck_assert_int_eq(st.first_time, 1000);
    ck_assert_int_eq(st.last_time, 1500);
    ck_assert_uint_eq(st.max_idle, 2);
}
END_TEST

START_TEST(test_gzip_and_file_argument)
{
    /* transitions.csv.gz found in the directory, and named directly. */
    static const char *const comments[] = {"hand-made", NULL};
    const char *dir = tu_tmp("gz");
    char path[4300];
    const char *out = tu_tmp("gz.trace.gz");
    struct bfs_error e;
    gzFile gz;
    char *text;
    struct trace_reader *r;
    struct trace_event ev;
    int n = 0;

    ck_assert_int_eq(mkdir(dir, 0777), 0);
    tu_write("gz/nodes.csv", nodes_csv);
    tu_write("gz/rows.csv", rows_csv);
    snprintf(path, sizeof path, "%s/transitions.csv.gz", dir);
    gz = gzopen(path, "wb");
    ck_assert_ptr_nonnull(gz);
    ck_assert_int_eq(gzputs(gz, trans_csv), (int)strlen(trans_csv));
    ck_assert_int_eq(gzclose(gz), Z_OK);

    bfs_error_clear(&e);
    ck_assert_msg(import_bftrainer(dir, out, comments, NULL, &e) == 0, "%s",
                  e.msg);
    ck_assert_msg(
        import_bftrainer(path, tu_tmp("gz2.trace"), comments, NULL, &e) == 0,
        "%s", e.msg);
    text = tu_slurp(tu_tmp("gz2.trace"));
    ck_assert_str_eq(text, expected);
    free(text);
    ck_assert_int_eq(trace_open(out, &r, &e), 0);
    while (trace_next(r, &ev, &e) == 1)
        n++;
    trace_close(r);
    ck_assert_int_eq(n, 4);
}
END_TEST

/* Copies made by subst, freed at the end of the test. */
static char *copies[32];
static size_t n_copies;

/* Replaces the first occurrence of from by to in a copy of s. */
static const char *subst(const char *s, const char *from, const char *to)
{
    const char *p = strstr(s, from);
    char *r;

    ck_assert_ptr_nonnull(p);
    ck_assert_uint_lt(n_copies, 32);
    r = xmalloc(strlen(s) + strlen(to) + 1);
    sprintf(r, "%.*s%s%s", (int)(p - s), s, to, p + strlen(from));
    copies[n_copies++] = r;
    return r;
}

/* Asserts that the export fails with "DIR/FILE:LINE: ...what..." and
 * leaves no output. */
static void expect_bad(const char *name, const char *nodes, const char *rows,
                       const char *trans, const char *file, int line,
                       const char *what)
{
    const char *dir = make_export(name, nodes, rows, trans);
    char out[4300], where[4300];
    struct bfs_error e;

    snprintf(out, sizeof out, "%s/out.trace", dir);
    snprintf(where, sizeof where, "%s/%s:%d: ", dir, file, line);
    bfs_error_clear(&e);
    ck_assert_msg(import_bftrainer(dir, out, NULL, NULL, &e) < 0,
                  "%s: accepted", name);
    ck_assert_msg(strstr(e.msg, where) == e.msg, "%s: '%s' lacks '%s'", name,
                  e.msg, where);
    ck_assert_msg(strstr(e.msg, what) != NULL, "%s: '%s' lacks '%s'", name,
                  e.msg, what);
    ck_assert_int_eq(tu_exists(out), 0);
}

START_TEST(test_bad_exports)
{
    expect_bad("b1", "col_idx,name\n0,x0\n", rows_csv, trans_csv, "nodes.csv",
               1, "no column 'node'");
    expect_bad("b2", subst(nodes_csv, "2,x2", "1,x2"), rows_csv, trans_csv,
               "nodes.csv", 4, "col_idx 1 repeated (first on line 2)");
    expect_bad("b3", subst(nodes_csv, "2,x2", "7,x2"), rows_csv, trans_csv,
               "nodes.csv", 4, "col_idx 7 out of range");
    expect_bad("b4", nodes_csv, subst(rows_csv, "2,1970", "5,1970"), trans_csv,
               "rows.csv", 4, "row 5 out of sequence");
    expect_bad("b5", nodes_csv, subst(rows_csv, "00:20:00", "00:20:01"),
               trans_csv, "rows.csv", 4, "does not match epoch_s 1200");
    expect_bad("b6", nodes_csv, subst(rows_csv, "1200,2,1,1", "1200,3,1,1"),
               trans_csv, "rows.csv", 4,
               "row 2 says 1 joins, 1 leaves, 3 idle; the transitions give "
               "1, 1, 2");
    expect_bad("b7", nodes_csv, rows_csv, subst(trans_csv, "0,x0,0", "0,x1,0"),
               "transitions.csv", 4, "node 'x1' does not match col_idx 0");
    expect_bad("b8", nodes_csv, rows_csv, subst(trans_csv, "1,x1,1", "1,x1,0"),
               "transitions.csv", 5, "x1 (col_idx 1) is taken back but is not");
    expect_bad("b9", nodes_csv, rows_csv,
               subst(trans_csv, "1,1060,0,x0,1", "1,1060,2,x2,0"),
               "transitions.csv", 3, "changes twice in row 1");
    expect_bad("b10", nodes_csv, rows_csv,
               subst(trans_csv, "2,1200,1,x1,1", "2,1201,1,x1,1"),
               "transitions.csv", 5, "epoch_s 1201 differs from row 2");
    expect_bad("b11", nodes_csv, rows_csv,
               subst(trans_csv, "3,1500,2,x2,0", "2,1200,2,x2,0"),
               "transitions.csv", 7, "row 2 out of order (after row 3)");
    expect_bad(
        "b12", nodes_csv, rows_csv,
        subst(trans_csv, "3,1500,0,x0,1\n", "3,1500,0,x0,1\n9,9,0,x0,0\n"),
        "transitions.csv", 9, "row 9 is not in");
    expect_bad("b13", nodes_csv, rows_csv,
               subst(trans_csv, "1,x1,0", "1,x1,zero"), "transitions.csv", 6,
               "new_state 'zero' is not an integer");
    expect_bad("b14", nodes_csv, rows_csv, subst(trans_csv, "1,x1,0", "1,x1"),
               "transitions.csv", 6, "4 fields, the header has 5");
    expect_bad("b15", nodes_csv, subst(rows_csv, "1060,2,2,0", "1000,2,2,0"),
               trans_csv, "rows.csv", 3, "does not match epoch_s 1000");
    /* A repeated name was reported against the output file (by the trace
     * writer). */
    expect_bad("b16", subst(nodes_csv, "2,x2", "2,x1"), rows_csv, trans_csv,
               "nodes.csv", 4, "node name 'x1' repeated (first on line 2)");
    /* Row 2's transitions after row 3's: row 2 then finds none and its
     * counts disagree, which was blamed on rows.csv:4; the cause is line 7
     * of transitions.csv (row 2 after row 3). */
    expect_bad("b17", nodes_csv, rows_csv,
               "row,epoch_s,col_idx,node,new_state\n"
               "1,1060,2,x2,1\n"
               "1,1060,0,x0,1\n"
               "3,1500,1,x1,0\n"
               "3,1500,2,x2,0\n"
               "3,1500,0,x0,1\n"
               "2,1200,0,x0,0\n"
               "2,1200,1,x1,1\n",
               "transitions.csv", 7, "row 2 out of order (after row 3)");
    while (n_copies > 0)
        free(copies[--n_copies]);
}
END_TEST

/* The same export saved by a spreadsheet: a byte-order mark, quoted
 * fields, CRLF: the same trace. */
START_TEST(test_quoted_export)
{
    const char *dir = make_export(
        "quoted",
        "\xEF\xBB\xBF\"col_idx\",\"node\"\r\n\"1\",\"x1\"\r\n"
        "\"0\",\"x0\"\r\n\"2\",\"x2\"\r\n",
        rows_csv, subst(trans_csv, "1,1060,2,x2,1", "\"1\",1060,2,\"x2\",1"));
    const char *out = tu_tmp("quoted.trace");
    struct import_stats st;
    struct bfs_error e;
    static const char *const comments[] = {"hand-made", NULL};
    char *text;

    bfs_error_clear(&e);
    ck_assert_msg(import_bftrainer(dir, out, comments, &st, &e) == 0, "%s",
                  e.msg);
    text = tu_slurp(out);
    ck_assert_str_eq(text, expected);
    free(text);
    expect_bad("q2", nodes_csv, rows_csv,
               subst(trans_csv, "1,1060,2,x2,1", "1,1060,2,\"x2,1"),
               "transitions.csv", 2, "column 10: a quoted field must end");
    while (n_copies > 0)
        free(copies[--n_copies]);
}
END_TEST

START_TEST(test_missing_files)
{
    const char *dir = tu_tmp("none");
    struct bfs_error e;

    ck_assert_int_eq(mkdir(dir, 0777), 0);
    bfs_error_clear(&e);
    ck_assert_int_eq(
        import_bftrainer(dir, tu_tmp("none.trace"), NULL, NULL, &e), BFS_EIO);
    ck_assert_ptr_nonnull(strstr(e.msg, "nodes.csv"));
}
END_TEST

START_TEST(test_real_summit)
{
    const char *dir = tu_shared_file("summit-2021-02");
    const char *out = tu_tmp("summit.trace.gz");
    struct import_stats st;
    struct trace_reader *r;
    struct trace_event ev;
    struct bfs_error e;
    size_t events = 0, changes = 0;
    int rc;

    if (!dir) {
        fprintf(stderr, "test_real_summit: skipped, no ../shared/data\n");
        return;
    }
    bfs_error_clear(&e);
    ck_assert_msg(import_bftrainer(dir, out, NULL, &st, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(st.events, 23883);
    ck_assert_uint_eq(st.nodes, 4734);
    ck_assert_uint_eq(st.joins + st.leaves, 846856);
    ck_assert_int_eq(st.first_time, 1612915732); /* 2021-02-10 00:08:52 */
    ck_assert_int_eq(st.last_time, 1614205169);  /* 2021-02-24 22:19:29 */

    /* The written trace reads back with the same counts. */
    ck_assert_int_eq(trace_open(out, &r, &e), 0);
    ck_assert_uint_eq(trace_node_count(r), 4734);
    ck_assert_str_eq(trace_node_name(r, 0), "c05n06");
    ck_assert_str_eq(trace_node_name(r, 4733), "d08n14");
    while ((rc = trace_next(r, &ev, &e)) == 1) {
        if (events == 0)
            ck_assert_uint_eq(ev.n_join + ev.n_leave, 0);
        events++;
        changes += ev.n_join + ev.n_leave;
    }
    ck_assert_int_eq(rc, 0);
    trace_close(r);
    ck_assert_uint_eq(events, 23883);
    ck_assert_uint_eq(changes, 846856);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("import_bftrainer");
    TCase *tc = tcase_create("small");
    TCase *real = tcase_create("real");

    tcase_add_test(tc, test_small_export);
    tcase_add_test(tc, test_gzip_and_file_argument);
    tcase_add_test(tc, test_bad_exports);
    tcase_add_test(tc, test_quoted_export);
    tcase_add_test(tc, test_missing_files);
    suite_add_tcase(s, tc);
    /* Converting 846,856 changes takes about a second (more under
     * sanitizers). */
    tcase_set_timeout(real, 120);
    tu_add_shared_test(real, test_real_summit, 0, 0);
    suite_add_tcase(s, real);
    return tu_run(s);
}
