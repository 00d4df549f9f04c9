/* check_trace.c - the native trace reader and writer: round trips (plain
 * and gzip), the exact text written, and every kind of bad input, which
 * must give a negative code and a message naming the file and line. */
#include "config.h"

#include "testutil.h"
#include "formats/trace.h"

#include <dirent.h>
#include <stdint.h>
#include <string.h>

/* Reads a whole trace; returns the first negative code (message in e),
 * or the number of events read. */
static int read_all(const char *path, struct bfs_error *e)
{
    struct trace_reader *r;
    struct trace_event ev;
    int rc, n = 0;

    bfs_error_clear(e);
    rc = trace_open(path, &r, e);
    if (rc)
        return rc;
    while ((rc = trace_next(r, &ev, e)) == 1)
        n++;
    trace_close(r);
    return rc < 0 ? rc : n;
}

/* Asserts that the trace text fails with "FILE:LINE:" and what. */
static void expect_bad(const char *name, const char *text, int line,
                       const char *what)
{
    struct bfs_error e;
    const char *p = tu_write(name, text);
    char where[4200];
    int rc = read_all(p, &e);

    snprintf(where, sizeof where, "%s:%d: ", p, line);
    ck_assert_msg(rc < 0, "%s: accepted", name);
    ck_assert_msg(strstr(e.msg, where) != NULL, "%s: '%s' lacks '%s'", name,
                  e.msg, where);
    ck_assert_msg(strstr(e.msg, what) != NULL, "%s: '%s' lacks '%s'", name,
                  e.msg, what);
}

static const char *const names3[] = {"a", "b", "c"};

/* The events of the round trip, with unsorted input arrays. */
static void write_sample(const char *path)
{
    static const char *const comments[] = {"made by check_trace", "two\nlines",
                                           NULL};
    struct trace_writer *w;
    struct bfs_error e;
    uint32_t j1[] = {2, 0}, j2[] = {1}, l2[] = {0}, j4[] = {0}, l4[] = {2, 1};

    bfs_error_clear(&e);
    ck_assert_int_eq(trace_writer_open(path, names3, 3, comments, &w, &e), 0);
    ck_assert_int_eq(trace_writer_event(w, 100, j1, 2, NULL, 0, &e), 0);
    ck_assert_int_eq(trace_writer_event(w, 150, j2, 1, l2, 1, &e), 0);
    ck_assert_int_eq(trace_writer_event(w, 200, NULL, 0, NULL, 0, &e), 0);
    ck_assert_int_eq(trace_writer_event(w, 300, j4, 1, l4, 2, &e), 0);
    ck_assert_int_eq(trace_writer_finish(w, &e), 0);
}

static void check_sample(const char *path)
{
    struct trace_reader *r;
    struct trace_event ev;
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_int_eq(trace_open(path, &r, &e), 0);
    ck_assert_str_eq(trace_path(r), path);
    ck_assert_uint_eq(trace_node_count(r), 3);
    ck_assert_str_eq(trace_node_name(r, 0), "a");
    ck_assert_str_eq(trace_node_name(r, 2), "c");

    ck_assert_int_eq(trace_next(r, &ev, &e), 1);
    ck_assert_int_eq(ev.time, 100);
    ck_assert_uint_eq(ev.n_join, 2);
    ck_assert_uint_eq(ev.join[0], 0);
    ck_assert_uint_eq(ev.join[1], 2);
    ck_assert_uint_eq(ev.n_leave, 0);
    ck_assert_int_eq(trace_node_idle(r, 0), 1);
    ck_assert_int_eq(trace_node_idle(r, 1), 0);

    ck_assert_int_eq(trace_next(r, &ev, &e), 1);
    ck_assert_int_eq(ev.time, 150);
    ck_assert_uint_eq(ev.n_join, 1);
    ck_assert_uint_eq(ev.join[0], 1);
    ck_assert_uint_eq(ev.n_leave, 1);
    ck_assert_uint_eq(ev.leave[0], 0);

    ck_assert_int_eq(trace_next(r, &ev, &e), 1);
    ck_assert_int_eq(ev.time, 200);
    ck_assert_uint_eq(ev.n_join + ev.n_leave, 0);

    ck_assert_int_eq(trace_next(r, &ev, &e), 1);
    ck_assert_int_eq(ev.time, 300);
    ck_assert_uint_eq(ev.n_join, 1);
    ck_assert_uint_eq(ev.join[0], 0);
    ck_assert_uint_eq(ev.n_leave, 2);
    ck_assert_uint_eq(ev.leave[0], 1);
    ck_assert_uint_eq(ev.leave[1], 2);
    ck_assert_int_eq(trace_node_idle(r, 0), 1);
    ck_assert_int_eq(trace_node_idle(r, 1), 0);
    ck_assert_int_eq(trace_node_idle(r, 2), 0);

    ck_assert_int_eq(trace_next(r, &ev, &e), 0);
    ck_assert_int_eq(trace_next(r, &ev, &e), 0);
    trace_close(r);
}

START_TEST(test_roundtrip_plain)
{
    const char *p = tu_tmp("rt.trace");
    char *text;

    write_sample(p);
    text = tu_slurp(p);
    ck_assert_ptr_nonnull(text);
    /* Leaves first, then joins, each ascending. */
    ck_assert_str_eq(text, "bfsim-trace 1\n"
                           "# made by check_trace\n"
                           "# two\n"
                           "# lines\n"
                           "node a\nnode b\nnode c\n"
                           "100 +0 +2\n"
                           "150 -0 +1\n"
                           "200\n"
                           "300 -1 -2 +0\n");
    free(text);
    check_sample(p);
}
END_TEST

START_TEST(test_roundtrip_gzip)
{
    const char *p = tu_tmp("rt.trace.gz");
    unsigned char *text;

    write_sample(p);
    text = (unsigned char *)tu_slurp(p);
    ck_assert_ptr_nonnull(text);
    ck_assert_int_eq(text[0], 0x1f);
    ck_assert_int_eq(text[1], 0x8b);
    free(text);
    check_sample(p);
}
END_TEST

START_TEST(test_reader_lenient_layout)
{
    /* Comments, blank lines, extra blanks and CRLF are fine. */
    struct bfs_error e;
    const char *p = tu_write("ok.trace", "bfsim-trace 1\r\n"
                                         "# c\n"
                                         "\n"
                                         "node  x \n"
                                         "node y\n"
                                         "  # more\n"
                                         "10\t+1   +0\n"
                                         "\n"
                                         "# between events\n"
                                         "20 -1\r\n");
    ck_assert_int_eq(read_all(p, &e), 2);
}
END_TEST

START_TEST(test_reader_no_events)
{
    struct bfs_error e;
    const char *p = tu_write("noev.trace", "bfsim-trace 1\nnode x\n");

    ck_assert_int_eq(read_all(p, &e), 0);
}
END_TEST

START_TEST(test_bad_inputs)
{
    expect_bad("empty.trace", "", 1, "empty file");
    expect_bad("magic.trace", "bfsim-trace 2\nnode a\n", 1,
               "not a bfsim trace");
    expect_bad("dup.trace", "bfsim-trace 1\nnode a\nnode b\nnode a\n", 4,
               "duplicate node name 'a' (first on line 2)");
    expect_bad("nonodes.trace", "bfsim-trace 1\n# x\n5 \n", 3,
               "no 'node NAME' line");
    /* "node a b" is node a of type b (trace.h): three fields are one too
     * many. */
    expect_bad("nodeline.trace", "bfsim-trace 1\nnode a b c\n", 2,
               "expected 'node NAME'");
    expect_bad("order.trace", "bfsim-trace 1\nnode a\n10 +0\n10 -0\n", 4,
               "time 10 is not after the previous event's 10 (line 3)");
    expect_bad("back.trace", "bfsim-trace 1\nnode a\n10 +0\n9 -0\n", 4,
               "not after");
    expect_bad("range.trace", "bfsim-trace 1\nnode a\nnode b\n10 +2\n", 4,
               "out of range");
    expect_bad("huge.trace", "bfsim-trace 1\nnode a\n10 +99999999999\n", 3,
               "out of range");
    expect_bad("joinidle.trace",
               "bfsim-trace 1\nnode a\nnode b\n10 +1\n20 +1\n", 5,
               "node 1 (b) becomes idle (+1) but is already idle");
    expect_bad("leavebusy.trace", "bfsim-trace 1\nnode a\nnode b\n10 -0\n", 4,
               "node 0 (a) is taken back (-0) but is not idle");
    expect_bad("twice.trace", "bfsim-trace 1\nnode a\n10 +0 -0\n", 3,
               "node 0 (a) appears twice in one event");
    expect_bad("twice2.trace", "bfsim-trace 1\nnode a\n10 +0 +0\n", 3,
               "appears twice");
    expect_bad("garbage.trace", "bfsim-trace 1\nnode a\n10 +0 x1\n", 3,
               "bad change 'x1'");
    expect_bad("garbage2.trace", "bfsim-trace 1\nnode a\n10 +0x\n", 3,
               "bad change '+0x'");
    expect_bad("sign.trace", "bfsim-trace 1\nnode a\n10 +\n", 3,
               "bad change '+'");
    expect_bad("time.trace", "bfsim-trace 1\nnode a\n1e5 +0\n", 3,
               "bad event time '1e5'");
    /* INT64_MAX made `bfsim info` print a span of 2.5e15 hours (the
     * subtraction overflowed); times end with the year 9999. */
    expect_bad("max.trace",
               "bfsim-trace 1\nnode a\n10 +0\n9223372036854775807 -0\n", 4,
               "event time 9223372036854775807 is out of range (Unix seconds "
               "within +-253402300799, years -6000 to 9999)");
    expect_bad("min.trace", "bfsim-trace 1\nnode a\n-253402300800 +0\n", 3,
               "event time -253402300800 is out of range");
    expect_bad("late.trace", "bfsim-trace 1\nnode a\n10 +0\nnode b\n", 4,
               "node line after the first event");
}
END_TEST

/* The event line's one-pass parsing (plain digits by hand, anything
 * else by the general rules): leading zeros, tabs, trailing blanks, an
 * index token of 11 digits and a time of 16 (past the hand-parsed
 * lengths) read as the general rules read them.  Expected, by hand, on
 * 12 nodes:
 *   t=10: joins {0, 5, 11}            (+0 +11 +05)
 *   t=20: joins {3}, leaves {0, 11}   (-11 +3 -0)
 *   t=30: joins {10}, leaves {5}      (15-digit time; +00000000010)
 *   t=40: joins {11}                  (16-digit time) */
/* A bad event line changes no node's idle flag, even after the changes
 * before its bad token were read: after "10 +0" (node 0 idle), the line
 * "20 +1 -0 +2 +2" fails on its second +2 having joined 1 and 2 and
 * taken 0 back, and "20 -0 +1 -0" on its second -0: every flag is as
 * after line 4 (by hand: 0 idle, 1 and 2 not). */
static void expect_flags_kept(const char *name, const char *line)
{
    char text[200];
    struct trace_reader *r;
    struct trace_event ev;
    struct bfs_error e;

    snprintf(text, sizeof text,
             "bfsim-trace 1\nnode a\nnode b\nnode c\n10 +0\n%s\n", line);
    bfs_error_clear(&e);
    ck_assert_int_eq(trace_open(tu_write(name, text), &r, &e), 0);
    ck_assert_int_eq(trace_next(r, &ev, &e), 1);
    ck_assert_int_eq(trace_next(r, &ev, &e), BFS_EPARSE);
    ck_assert_ptr_nonnull(strstr(e.msg, "appears twice in one event"));
    ck_assert_int_eq(trace_node_idle(r, 0), 1);
    ck_assert_int_eq(trace_node_idle(r, 1), 0);
    ck_assert_int_eq(trace_node_idle(r, 2), 0);
    trace_close(r);
}

START_TEST(test_bad_line_keeps_flags)
{
    expect_flags_kept("undo1.trace", "20 +1 -0 +2 +2");
    expect_flags_kept("undo2.trace", "20 -0 +1 -0");
}
END_TEST

START_TEST(test_parse_forms)
{
    static const uint32_t j[4][3] = {{0, 5, 11}, {3}, {10}, {11}};
    static const uint32_t l[4][2] = {{0}, {0, 11}, {5}, {0}};
    static const size_t nj[4] = {3, 1, 1, 1}, nl[4] = {0, 2, 1, 0};
    struct trace_reader *r;
    struct trace_event ev;
    struct bfs_error e;
    const char *p =
        tu_write("forms.trace", "bfsim-trace 1\n"
                                "node n0\nnode n1\nnode n2\nnode n3\nnode n4\n"
                                "node n5\nnode n6\nnode n7\nnode n8\nnode n9\n"
                                "node n10\nnode n11\n"
                                "0000000010 +0 +11\t+05\n"
                                "20\t-11  +3 -0\t \n"
                                "000000000000030 +00000000010 -5\n"
                                "0000000000000040 +11\n");

    bfs_error_clear(&e);
    ck_assert_int_eq(trace_open(p, &r, &e), 0);
    for (size_t k = 0; k < 4; k++) {
        ck_assert_int_eq(trace_next(r, &ev, &e), 1);
        ck_assert_int_eq(ev.time, 10 * (int64_t)(k + 1));
        ck_assert_uint_eq(ev.line, 14 + k);
        ck_assert_uint_eq(ev.n_join, nj[k]);
        ck_assert_uint_eq(ev.n_leave, nl[k]);
        for (size_t i = 0; i < nj[k]; i++)
            ck_assert_uint_eq(ev.join[i], j[k][i]);
        for (size_t i = 0; i < nl[k]; i++)
            ck_assert_uint_eq(ev.leave[i], l[k][i]);
    }
    ck_assert_int_eq(trace_next(r, &ev, &e), 0);
    trace_close(r);
    /* Malformed tokens the one-pass parser hands to the general rules. */
    expect_bad("glued.trace", "bfsim-trace 1\nnode a\nnode b\n10 +1-0\n", 4,
               "bad change '+1-0'");
    expect_bad("letter.trace", "bfsim-trace 1\nnode a\n10 -a\n", 3,
               "bad change '-a'");
    expect_bad("tabsign.trace", "bfsim-trace 1\nnode a\n10 -\t+0\n", 3,
               "bad change '-'");
    expect_bad("twosign.trace", "bfsim-trace 1\nnode a\n10 ++0\n", 3,
               "bad change '++0'");
    expect_bad("edge.trace", "bfsim-trace 1\nnode a\nnode b\n10 +0 +2\n", 4,
               "out of range (the trace has 2 nodes, 0..1)");
    expect_bad("u32.trace", "bfsim-trace 1\nnode a\n10 +4294967296\n", 3,
               "out of range");
    expect_bad("ohtime.trace", "bfsim-trace 1\nnode a\n1O +0\n", 3,
               "bad event time '1O'");
    expect_bad("signtime.trace", "bfsim-trace 1\nnode a\n+ +0\n", 3,
               "bad event time '+'");
}
END_TEST

/* A NUL byte in a comment used to cut the comment and glue the next line
 * (the event at 20) onto it, so the trace read one event fewer: now it
 * is an error at the comment's line. */
START_TEST(test_nul_in_comment)
{
    static const char text[] = "bfsim-trace 1\nnode a\n10 +0\n"
                               "# cut\0here\n20 -0\n";
    struct bfs_error e;
    const char *p = tu_write_bytes("nul.trace", text, sizeof text - 1);
    char want[4200];

    ck_assert_int_eq(read_all(p, &e), BFS_EPARSE);
    snprintf(want, sizeof want, "%s:4: NUL byte at column 6", p);
    ck_assert_str_eq(e.msg, want);
}
END_TEST

START_TEST(test_truncated_gzip)
{
    const char *p = tu_tmp("trunc.trace.gz");
    const char *names[300];
    char buf[300][8];
    struct trace_writer *w;
    struct bfs_error e;
    uint8_t idle[300] = {0};
    char where[4200];
    FILE *f;
    long size;
    int rc;

    for (int i = 0; i < 300; i++) {
        snprintf(buf[i], sizeof buf[i], "n%d", i);
        names[i] = buf[i];
    }
    bfs_error_clear(&e);
    ck_assert_int_eq(trace_writer_open(p, names, 300, NULL, &w, &e), 0);
    for (uint32_t t = 0; t < 2000; t++) {
        /* Node i alternates: even visits join, odd visits leave. */
        uint32_t i = (t * 7919u) % 300u;
        if (idle[i])
            ck_assert_int_eq(
                trace_writer_event(w, 1000 + t, NULL, 0, &i, 1, &e), 0);
        else
            ck_assert_int_eq(
                trace_writer_event(w, 1000 + t, &i, 1, NULL, 0, &e), 0);
        idle[i] ^= 1;
    }
    ck_assert_int_eq(trace_writer_finish(w, &e), 0);
    ck_assert_int_eq(read_all(p, &e), 2000);

    f = fopen(p, "r+b");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
    size = ftell(f);
    ck_assert_int_gt(size, 1000);
    ck_assert_int_eq(ftruncate(fileno(f), size / 2), 0);
    fclose(f);
    rc = read_all(p, &e);
    ck_assert_int_lt(rc, 0);
    snprintf(where, sizeof where, "%s:", p);
    ck_assert_msg(strstr(e.msg, where) == e.msg, "'%s'", e.msg);
    ck_assert_msg(strstr(e.msg, "unexpected end of compressed data"), "'%s'",
                  e.msg);
}
END_TEST

/* Whether the temporary directory holds a file starting with prefix. */
static int leftover(const char *prefix)
{
    const char *dir = tu_tmp("");
    DIR *d = opendir(dir);
    struct dirent *de;
    int found = 0;

    ck_assert_ptr_nonnull(d);
    while ((de = readdir(d)))
        if (strncmp(de->d_name, prefix, strlen(prefix)) == 0)
            found = 1;
    closedir(d);
    return found;
}

START_TEST(test_writer_errors)
{
    static const char *const dup[] = {"a", "b", "a"};
    static const char *const blank[] = {"a", "b c"};
    static const char *const empty[] = {"a", ""};
    const char *p = tu_tmp("werr.trace.gz");
    struct trace_writer *w;
    struct bfs_error e;
    uint32_t zero = 0, one = 1, three = 3, twice[] = {1, 1};

    bfs_error_clear(&e);
    ck_assert_int_lt(trace_writer_open(p, dup, 3, NULL, &w, &e), 0);
    ck_assert_ptr_nonnull(strstr(e.msg, "duplicate node name 'a'"));
    bfs_error_clear(&e);
    ck_assert_int_lt(trace_writer_open(p, blank, 2, NULL, &w, &e), 0);
    ck_assert_ptr_nonnull(strstr(e.msg, "blank"));
    bfs_error_clear(&e);
    ck_assert_int_lt(trace_writer_open(p, empty, 2, NULL, &w, &e), 0);
    bfs_error_clear(&e);
    ck_assert_int_lt(trace_writer_open(p, names3, 0, NULL, &w, &e), 0);

#define EXPECT_EVENT_FAILS(call, what)                                         \
    do {                                                                       \
        bfs_error_clear(&e);                                                   \
        ck_assert_int_eq(trace_writer_open(p, names3, 3, NULL, &w, &e), 0);    \
        ck_assert_int_eq(trace_writer_event(w, 10, &zero, 1, NULL, 0, &e), 0); \
        ck_assert_int_lt(call, 0);                                             \
        ck_assert_msg(strstr(e.msg, what) != NULL, "'%s'", e.msg);             \
        ck_assert_msg(strstr(e.msg, p) == e.msg, "'%s'", e.msg);               \
        /* The writer stays failed and commits nothing. */                     \
        ck_assert_int_lt(trace_writer_event(w, 99, NULL, 0, NULL, 0, &e), 0);  \
        ck_assert_int_lt(trace_writer_finish(w, &e), 0);                       \
        ck_assert_int_eq(tu_exists(p), 0);                                     \
        ck_assert_int_eq(leftover("werr.trace"), 0);                           \
    } while (0)

    EXPECT_EVENT_FAILS(trace_writer_event(w, 10, &one, 1, NULL, 0, &e),
                       "not after");
    EXPECT_EVENT_FAILS(trace_writer_event(w, 20, &zero, 1, NULL, 0, &e),
                       "node 0 (a) becomes idle but is already idle");
    EXPECT_EVENT_FAILS(trace_writer_event(w, 20, NULL, 0, &one, 1, &e),
                       "node 1 (b) is taken back but is not idle");
    EXPECT_EVENT_FAILS(trace_writer_event(w, 20, twice, 2, NULL, 0, &e),
                       "appears twice");
    EXPECT_EVENT_FAILS(trace_writer_event(w, 20, NULL, 0, &zero, 1, &e) == 0
                           ? trace_writer_event(w, 30, &one, 1, &one, 1, &e)
                           : 0,
                       "appears twice");
    EXPECT_EVENT_FAILS(trace_writer_event(w, 20, &three, 1, NULL, 0, &e),
                       "out of range");
#undef EXPECT_EVENT_FAILS

    /* Abort leaves nothing behind either. */
    ck_assert_int_eq(trace_writer_open(p, names3, 3, NULL, &w, &e), 0);
    trace_writer_abort(w);
    trace_writer_abort(NULL);
    ck_assert_int_eq(tu_exists(p), 0);
    ck_assert_int_eq(leftover("werr.trace"), 0);
}
END_TEST

START_TEST(test_missing_file)
{
    struct trace_reader *r;
    struct bfs_error e;
    const char *p = tu_tmp("absent.trace");

    bfs_error_clear(&e);
    ck_assert_int_eq(trace_open(p, &r, &e), BFS_EIO);
    ck_assert_ptr_nonnull(strstr(e.msg, p));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("trace");
    TCase *tc = tcase_create("trace");

    tcase_add_test(tc, test_roundtrip_plain);
    tcase_add_test(tc, test_roundtrip_gzip);
    tcase_add_test(tc, test_reader_lenient_layout);
    tcase_add_test(tc, test_reader_no_events);
    tcase_add_test(tc, test_bad_inputs);
    tcase_add_test(tc, test_bad_line_keeps_flags);
    tcase_add_test(tc, test_parse_forms);
    tcase_add_test(tc, test_nul_in_comment);
    tcase_add_test(tc, test_truncated_gzip);
    tcase_add_test(tc, test_writer_errors);
    tcase_add_test(tc, test_missing_file);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
