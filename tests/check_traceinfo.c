/* check_traceinfo.c - trace statistics: small traces worked out by hand
 * (the arithmetic is in the comments), the exact histogram, and the
 * figures the published data README gives for the bundled Summit trace
 * (computed there independently of this code). */
#include "config.h"

#include "testutil.h"
#include "formats/traceinfo.h"

#include <math.h>
#include <string.h>

/* Trace A, 3 nodes:
 *   t=100 +a           idle {a}
 *   t=160 +b           idle {a,b}
 *   t=200 -a +c        idle {b,c}
 *   t=400 -b           idle {c}
 *   t=500 +a           idle {a,c}
 *   t=700 (no change)  marks the end */
static const char *trace_a = "bfsim-trace 1\n"
                             "node a\nnode b\nnode c\n"
                             "100 +0\n"
                             "160 +1\n"
                             "200 -0 +2\n"
                             "400 -1\n"
                             "500 +0\n"
                             "700\n";

static void compute(const char *path, const struct traceinfo_opts *o,
                    struct traceinfo *ti)
{
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_msg(traceinfo_compute(path, o, ti, &e) == 0, "%s", e.msg);
}

START_TEST(test_whole_trace)
{
    /* Window [100, 700], 600 s.  Pool: 1 for 60 s, 2 for 40 s, 2 for
     * 200 s, 1 for 100 s, 2 for 200 s: 1040 node-s, mean 1040/600; 160 s at
     * size 1, 440 s at size 2, so p5 (30 s) and p25 (150 s) are 1, the
     * median (300 s) and above 2.  Holes: a [100,200] 100, b [160,400]
     * 240, c [200,700] 500 and a [500,700] 200, both cut at the end;
     * sorted 100 200 240 500: nearest ranks ceil(.05*4)=1 -> 100,
     * ceil(.25*4)=1 -> 100, 2 -> 200, 3 -> 240, ceil(3.8)=4 -> 500.
     * Busy: a from 200 to 500, 300 s. */
    const char *p = tu_write("a.trace", trace_a);
    struct traceinfo_opts o;
    struct traceinfo ti;

    traceinfo_opts_init(&o);
    compute(p, &o, &ti);
    ck_assert_uint_eq(ti.nodes, 3);
    ck_assert_uint_eq(ti.nodes_total, 3);
    ck_assert_int_eq(ti.start, 100);
    ck_assert_int_eq(ti.end, 700);
    ck_assert_uint_eq(ti.events, 6);
    ck_assert_uint_eq(ti.events_changed, 5);
    ck_assert_uint_eq(ti.joins, 4);
    ck_assert_uint_eq(ti.leaves, 2);
    ck_assert_int_eq(ti.idle_node_s, 1040);
    ck_assert_double_eq_tol(ti.pool_mean, 1040.0 / 600.0, 1e-12);
    ck_assert_uint_eq(ti.pool_min, 1);
    ck_assert_uint_eq(ti.pool_max, 2);
    ck_assert_uint_eq(ti.pool_pct[0], 1);
    ck_assert_uint_eq(ti.pool_pct[1], 1);
    ck_assert_uint_eq(ti.pool_pct[2], 2);
    ck_assert_uint_eq(ti.pool_pct[3], 2);
    ck_assert_uint_eq(ti.pool_pct[4], 2);
    ck_assert_uint_eq(ti.pool_start, 1);
    ck_assert_uint_eq(ti.pool_end, 2);
    ck_assert_uint_eq(ti.nodes_ever_idle, 3);

    ck_assert_uint_eq(ti.holes.count, 4);
    ck_assert_int_eq(ti.holes.sum, 1040); /* = idle node-s */
    ck_assert_uint_eq(ti.holes_cut_start, 0);
    ck_assert_uint_eq(ti.holes_cut_end, 2);
    ck_assert_int_eq(ti.holes.min, 100);
    ck_assert_int_eq(ti.holes.max, 500);
    ck_assert_int_eq(ti.hole_pct[0], 100);
    ck_assert_int_eq(ti.hole_pct[1], 100);
    ck_assert_int_eq(ti.hole_pct[2], 200);
    ck_assert_int_eq(ti.hole_pct[3], 240);
    ck_assert_int_eq(ti.hole_pct[4], 500);
    ck_assert_int_eq(ti.hole_p99, 500);
    /* < 2 min: 100 of 1040; < 5 min: 100+200+240; < 10 min: all. */
    ck_assert_double_eq_tol(ti.hole_short_share[0], 100.0 / 1040, 1e-12);
    ck_assert_double_eq_tol(ti.hole_short_share[1], 540.0 / 1040, 1e-12);
    ck_assert_double_eq_tol(ti.hole_short_share[2], 1.0, 1e-12);
    /* log2 bins: 100 in [64,128), 200 and 240 in [128,256), 500 in
     * [256,512). */
    ck_assert_uint_eq(ti.holes.bin_count[6], 1);
    ck_assert_uint_eq(ti.holes.bin_count[7], 2);
    ck_assert_int_eq(ti.holes.bin_sum[7], 440);
    ck_assert_uint_eq(ti.holes.bin_count[8], 1);

    ck_assert_uint_eq(ti.busy.count, 1);
    ck_assert_int_eq(ti.busy.sum, 300);
    traceinfo_release(&ti);
}
END_TEST

START_TEST(test_window)
{
    /* Window [180, 450]: at 180 a and b are idle (since 100 and 160).
     * Events in it: 200 and 400 (500 is past the end).  Pool: 2 for 20 s,
     * 2 for 200 s, 1 for 50 s: 490 node-s over 270 s.  Holes: a [180,200]
     * 20 and b [180,400] 220, cut at the start; c [200,450] 250, cut at
     * the end.  a leaves at 200 and is still busy at 450: no complete
     * busy interval. */
    const char *p = tu_write("w.trace", trace_a);
    struct traceinfo_opts o;
    struct traceinfo ti;

    traceinfo_opts_init(&o);
    o.start = 180;
    o.end = 450;
    compute(p, &o, &ti);
    ck_assert_int_eq(ti.start, 180);
    ck_assert_int_eq(ti.end, 450);
    ck_assert_uint_eq(ti.events, 2);
    ck_assert_uint_eq(ti.joins, 1);
    ck_assert_uint_eq(ti.leaves, 2);
    ck_assert_int_eq(ti.idle_node_s, 490);
    ck_assert_double_eq_tol(ti.pool_mean, 490.0 / 270.0, 1e-12);
    ck_assert_uint_eq(ti.pool_start, 2);
    ck_assert_uint_eq(ti.pool_end, 1);
    ck_assert_uint_eq(ti.holes.count, 3);
    ck_assert_int_eq(ti.holes.sum, 490);
    ck_assert_uint_eq(ti.holes_cut_start, 2);
    ck_assert_uint_eq(ti.holes_cut_end, 1);
    ck_assert_int_eq(ti.holes.min, 20);
    ck_assert_int_eq(ti.holes.max, 250);
    ck_assert_uint_eq(ti.busy.count, 0);
    ck_assert_uint_eq(ti.nodes_ever_idle, 3);
    traceinfo_release(&ti);

    /* A window start before the trace and an end after it are clipped.
     * With a start at 400, where b leaves, the state at the start is the
     * one after that event: only c is idle. */
    traceinfo_opts_init(&o);
    o.start = 0;
    o.end = 10000;
    compute(p, &o, &ti);
    ck_assert_int_eq(ti.start, 100);
    ck_assert_int_eq(ti.end, 700);
    ck_assert_int_eq(ti.idle_node_s, 1040);
    traceinfo_release(&ti);
    traceinfo_opts_init(&o);
    o.start = 400;
    compute(p, &o, &ti);
    /* [400,500): {c}; [500,700]: {a,c}: 100 + 400 node-s. */
    ck_assert_uint_eq(ti.pool_start, 1);
    ck_assert_int_eq(ti.idle_node_s, 500);
    ck_assert_uint_eq(ti.nodes_ever_idle, 2);
    ck_assert_uint_eq(ti.events, 3); /* 400, 500, 700 */
    traceinfo_release(&ti);
}
END_TEST

START_TEST(test_subset)
{
    /* Nodes 1:2 = b and c.  Pool: 0 for 60 s, 1 for 40 s, 2 for 200 s,
     * 1 for 300 s: 740 node-s; sizes 0: 60 s, 1: 340 s, 2: 200 s, so p5
     * (30 s) is 0, p25 (150 s) and the median (300 s) are 1, p75 (450 s)
     * and p95 are 2.  Events with a change of b or c: 160, 200, 400. */
    const char *p = tu_write("s.trace", trace_a);
    struct traceinfo_opts o;
    struct traceinfo ti;

    traceinfo_opts_init(&o);
    o.skip = 1;
    o.count = 2;
    compute(p, &o, &ti);
    ck_assert_uint_eq(ti.nodes, 2);
    ck_assert_uint_eq(ti.events, 6);
    ck_assert_uint_eq(ti.events_changed, 3);
    ck_assert_uint_eq(ti.joins, 2);
    ck_assert_uint_eq(ti.leaves, 1);
    ck_assert_int_eq(ti.idle_node_s, 740);
    ck_assert_uint_eq(ti.pool_min, 0);
    ck_assert_uint_eq(ti.pool_max, 2);
    ck_assert_uint_eq(ti.pool_pct[0], 0);
    ck_assert_uint_eq(ti.pool_pct[1], 1);
    ck_assert_uint_eq(ti.pool_pct[2], 1);
    ck_assert_uint_eq(ti.pool_pct[3], 2);
    ck_assert_uint_eq(ti.pool_pct[4], 2);
    ck_assert_uint_eq(ti.holes.count, 2);
    ck_assert_int_eq(ti.holes.sum, 740);
    ck_assert_uint_eq(ti.holes_cut_end, 1);
    ck_assert_uint_eq(ti.nodes_ever_idle, 2);
    traceinfo_release(&ti);
}
END_TEST

START_TEST(test_errors)
{
    const char *p = tu_write("e.trace", trace_a);
    const char *bad = tu_write("bad.trace", "bfsim-trace 1\nnode a\n"
                                            "10 +0\n20 +0\n");
    const char *none = tu_write("none.trace", "bfsim-trace 1\nnode a\n");
    struct traceinfo_opts o;
    struct traceinfo ti;
    struct bfs_error e;
    char where[4200];

    traceinfo_opts_init(&o);
    bfs_error_clear(&e);
    ck_assert_int_lt(traceinfo_compute(bad, &o, &ti, &e), 0);
    snprintf(where, sizeof where, "%s:4: ", bad);
    ck_assert_msg(strstr(e.msg, where) == e.msg, "'%s'", e.msg);
    bfs_error_clear(&e);
    ck_assert_int_lt(traceinfo_compute(none, &o, &ti, &e), 0);
    ck_assert_ptr_nonnull(strstr(e.msg, "no events"));

    o.start = 800;
    bfs_error_clear(&e);
    ck_assert_int_lt(traceinfo_compute(p, &o, &ti, &e), 0);
    ck_assert_ptr_nonnull(strstr(e.msg, "starts after"));
    traceinfo_opts_init(&o);
    o.end = 50;
    bfs_error_clear(&e);
    ck_assert_int_lt(traceinfo_compute(p, &o, &ti, &e), 0);
    ck_assert_ptr_nonnull(strstr(e.msg, "ends before"));
    traceinfo_opts_init(&o);
    o.skip = 2;
    o.count = 2;
    bfs_error_clear(&e);
    ck_assert_int_lt(traceinfo_compute(p, &o, &ti, &e), 0);
    ck_assert_ptr_nonnull(strstr(e.msg, "does not fit"));
}
END_TEST

START_TEST(test_hist)
{
    /* 3, 3, 5 go to the dense counts; 2^20+7, 2^21, 2^21 are kept one by
     * one.  Sorted: 3 3 5 1048583 2097152 2097152. */
    struct traceinfo_hist h;
    int64_t *v;
    uint64_t *cum;
    size_t n;

    memset(&h, 0, sizeof h);
    traceinfo_hist_add(&h, 2097152);
    traceinfo_hist_add(&h, 3);
    traceinfo_hist_add(&h, 1048583);
    traceinfo_hist_add(&h, 0); /* ignored */
    traceinfo_hist_add(&h, 5);
    traceinfo_hist_add(&h, 2097152);
    traceinfo_hist_add(&h, 3);
    ck_assert_uint_eq(h.count, 6);
    ck_assert_int_eq(h.min, 3);
    ck_assert_int_eq(h.max, 2097152);
    ck_assert_int_eq(traceinfo_hist_kth(&h, 1), 3);
    ck_assert_int_eq(traceinfo_hist_kth(&h, 2), 3);
    ck_assert_int_eq(traceinfo_hist_kth(&h, 3), 5);
    ck_assert_int_eq(traceinfo_hist_kth(&h, 4), 1048583);
    ck_assert_int_eq(traceinfo_hist_kth(&h, 6), 2097152);
    ck_assert_int_eq(traceinfo_hist_percentile(&h, 50), 5); /* rank 3 */
    ck_assert_int_eq(traceinfo_hist_percentile(&h, 51), 1048583);
    ck_assert_int_eq(traceinfo_hist_sum_below(&h, 5), 6);
    ck_assert_int_eq(traceinfo_hist_sum_below(&h, 2097152), 1048594);
    n = traceinfo_hist_cdf(&h, &v, &cum);
    ck_assert_uint_eq(n, 4);
    ck_assert_int_eq(v[0], 3);
    ck_assert_uint_eq(cum[0], 2);
    ck_assert_int_eq(v[1], 5);
    ck_assert_uint_eq(cum[1], 3);
    ck_assert_int_eq(v[2], 1048583);
    ck_assert_uint_eq(cum[2], 4);
    ck_assert_int_eq(v[3], 2097152);
    ck_assert_uint_eq(cum[3], 6);
    free(v);
    free(cum);
    traceinfo_hist_release(&h);
}
END_TEST

START_TEST(test_summit)
{
    /* The published figures (data README): 358.18 h from 2021-02-10
     * 00:08:52 to 2021-02-24 22:19:29; 140,182 idle node-hours; mean idle
     * pool 391.4 nodes; 4,680 nodes idle at least once. */
    const char *p = tu_src("traces/summit-2021-02.trace.gz");
    struct traceinfo_opts o;
    struct traceinfo ti;
    json_t *j;

    traceinfo_opts_init(&o);
    compute(p, &o, &ti);
    ck_assert_uint_eq(ti.nodes, 4734);
    ck_assert_int_eq(ti.start, 1612915732);
    ck_assert_int_eq(ti.end, 1614205169);
    ck_assert_double_eq(round((double)(ti.end - ti.start) / 36.0) / 100.0,
                        358.18);
    ck_assert_double_eq(round((double)ti.idle_node_s / 3600.0), 140182.0);
    ck_assert_double_eq(round(ti.pool_mean * 10.0) / 10.0, 391.4);
    ck_assert_uint_eq(ti.nodes_ever_idle, 4680);
    ck_assert_uint_eq(ti.events, 23883);
    ck_assert_uint_eq(ti.joins + ti.leaves, 846856);
    /* Every idle second belongs to one hole. */
    ck_assert_int_eq(ti.holes.sum, ti.idle_node_s);

    j = traceinfo_json(&ti);
    ck_assert_ptr_nonnull(j);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "nodes_ever_idle")),
                     4680);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "span_s")), 1289437);
    ck_assert_ptr_nonnull(
        json_object_get(json_object_get(j, "holes"), "histogram"));
    ck_assert_ptr_nonnull(json_object_get(json_object_get(j, "pool"), "p95"));
    json_decref(j);
    traceinfo_release(&ti);

    /* The published replayer's start, row 1000 at 2021-02-10 20:21:15,
     * has 228 idle nodes. */
    o.start = 1612988475;
    compute(p, &o, &ti);
    ck_assert_uint_eq(ti.pool_start, 228);
    traceinfo_release(&ti);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("traceinfo");
    TCase *tc = tcase_create("small");
    TCase *big = tcase_create("summit");

    tcase_add_test(tc, test_whole_trace);
    tcase_add_test(tc, test_window);
    tcase_add_test(tc, test_subset);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_hist);
    suite_add_tcase(s, tc);
    tcase_set_timeout(big, 60);
    tcase_add_test(big, test_summit);
    suite_add_tcase(s, big);
    return tu_run(s);
}
