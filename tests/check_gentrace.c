/* check_gentrace.c - the synthetic trace generator: option parsing,
 * determinism (same seed, same bytes), and the statistics of what it
 * draws, measured on its output with traceinfo (tolerances are several
 * standard errors wide but fail on any real bias). */
#include "config.h"

#include "formats/gentrace.h"
#include "testutil.h"
#include "formats/traceinfo.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#define T0 1609459200 /* 2021-01-01 00:00:00 */

static void dist(const char *spec, int busy, struct gentrace_dist *d)
{
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_msg(gentrace_dist_parse(spec, busy, d, &e) == 0, "%s: %s", spec,
                  e.msg);
}

/* Generates a trace and returns its statistics. */
static void gen_info(const char *name, size_t nodes, int64_t duration,
                     uint64_t seed, const struct gentrace_dist *idle,
                     const struct gentrace_dist *busy, struct traceinfo *ti)
{
    struct gentrace_opts o = {nodes, T0, duration, seed, idle, busy, NULL, 0};
    struct traceinfo_opts io;
    struct bfs_error e;
    const char *p = tu_tmp(name);

    bfs_error_clear(&e);
    ck_assert_msg(gentrace_write(p, &o, NULL, &e) == 0, "%s", e.msg);
    traceinfo_opts_init(&io);
    ck_assert_msg(traceinfo_compute(p, &io, ti, &e) == 0, "%s", e.msg);
}

/* Whether two files hold the same bytes. */
static int same_bytes(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int ca, cb, same = 1;

    ck_assert_ptr_nonnull(fa);
    ck_assert_ptr_nonnull(fb);
    do {
        ca = getc(fa);
        cb = getc(fb);
        if (ca != cb)
            same = 0;
    } while (same && ca != EOF);
    fclose(fa);
    fclose(fb);
    return same;
}

static double rel_err(double got, double want)
{
    return fabs(got - want) / want;
}

START_TEST(test_dist_parse)
{
    static const char *const bad[] = {
        "exp",          "exp:",
        "exp:-1",       "exp:abc",
        "lognormal:6",  "lognormal:6,-1",
        "lognormal:,1", "gamma:1,2",
        "empirical:",   "",
    };
    struct gentrace_dist d;
    struct bfs_error e;
    const char *missing = tu_tmp("missing.trace");
    char spec[4300];

    dist("exp:600", 0, &d);
    ck_assert_int_eq(d.kind, GENTRACE_EXP);
    ck_assert_double_eq(gentrace_dist_mean(&d), 600);
    gentrace_dist_release(&d);
    dist("exp:10m", 0, &d);
    ck_assert_double_eq(gentrace_dist_mean(&d), 600);
    gentrace_dist_release(&d);
    dist("lognormal:6,1", 0, &d);
    ck_assert_double_eq_tol(gentrace_dist_mean(&d), exp(6.5), 1e-9);
    gentrace_dist_release(&d);
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        bfs_error_clear(&e);
        ck_assert_msg(gentrace_dist_parse(bad[k], 0, &d, &e) < 0,
                      "'%s' accepted", bad[k]);
        ck_assert_msg(e.msg[0] != '\0', "'%s': no message", bad[k]);
    }
    snprintf(spec, sizeof spec, "empirical:%s", missing);
    bfs_error_clear(&e);
    ck_assert_int_eq(gentrace_dist_parse(spec, 0, &d, &e), BFS_EIO);
    ck_assert_ptr_nonnull(strstr(e.msg, missing));
}
END_TEST

START_TEST(test_deterministic)
{
    struct gentrace_dist idle, busy;
    struct gentrace_opts o;
    struct bfs_error e;
    const char *p[4] = {tu_tmp("d1.trace.gz"), tu_tmp("d2.trace.gz"),
                        tu_tmp("d3.trace.gz"), tu_tmp("d4.trace")};
    struct gentrace_stats st;
    char *text;

    dist("exp:20m", 0, &idle);
    dist("lognormal:8,1.5", 1, &busy);
    memset(&o, 0, sizeof o);
    o.nodes = 50;
    o.start = T0;
    o.duration = 2 * 86400;
    o.idle = &idle;
    o.busy = &busy;
    bfs_error_clear(&e);
    for (int k = 0; k < 4; k++) {
        o.seed = k == 2 ? 43 : 42;
        ck_assert_msg(gentrace_write(p[k], &o, &st, &e) == 0, "%s", e.msg);
    }
    ck_assert_uint_gt(st.events, 10);
    /* Same seed: same bytes; another seed: another trace. */
    ck_assert_int_eq(same_bytes(p[0], p[1]), 1);
    ck_assert_int_eq(same_bytes(p[0], p[2]), 0);
    text = tu_slurp(p[3]);
    ck_assert_int_eq(strncmp(text, "bfsim-trace 1\n", 14), 0);
    free(text);
    gentrace_dist_release(&idle);
    gentrace_dist_release(&busy);
}
END_TEST

/* A trace that would end after 9999 could not be read back: refused
 * before anything is written.  253402300799 - 100 + 100 is the last
 * second allowed; one more is out. */
START_TEST(test_time_range)
{
    struct gentrace_dist idle, busy;
    struct gentrace_opts o;
    struct gentrace_stats st;
    struct bfs_error e;
    const char *p = tu_tmp("late.trace");

    dist("exp:1h", 0, &idle);
    dist("exp:1h", 1, &busy);
    memset(&o, 0, sizeof o);
    o.nodes = 2;
    o.start = 253402300799 - 100;
    o.duration = 101;
    o.idle = &idle;
    o.busy = &busy;
    bfs_error_clear(&e);
    ck_assert_int_eq(gentrace_write(p, &o, &st, &e), BFS_EUSAGE);
    ck_assert_msg(strstr(e.msg, "ends after 9999-12-31 23:59:59") != NULL, "%s",
                  e.msg);
    ck_assert_int_eq(tu_exists(p), 0);
    o.duration = 100;
    ck_assert_msg(gentrace_write(p, &o, &st, &e) == 0, "%s", e.msg);
    gentrace_dist_release(&idle);
    gentrace_dist_release(&busy);
}
END_TEST

START_TEST(test_exp_statistics)
{
    /* 200 nodes for 30 days, holes and busy intervals exp:600: about
     * 430,000 holes, so the mean's standard error is 600/sqrt(430000) =
     * 0.9 s (0.15%); 1% is a wide but failing bound.  The median of an
     * exponential is 600 ln 2 = 415.9 s.  Each node is idle half of the
     * time: the pool averages 100 nodes. */
    struct gentrace_dist d;
    struct traceinfo ti;

    dist("exp:600", 0, &d);
    gen_info("exp.trace.gz", 200, 30 * 86400, 1, &d, &d, &ti);
    ck_assert_int_eq(ti.start, T0);
    ck_assert_int_eq(ti.end, T0 + 30 * 86400);
    ck_assert_uint_gt(ti.holes.count, 400000);
    ck_assert_msg(
        rel_err((double)ti.holes.sum / (double)ti.holes.count, 600) < 0.01,
        "hole mean %f", (double)ti.holes.sum / (double)ti.holes.count);
    ck_assert_msg(rel_err((double)ti.busy.sum / (double)ti.busy.count, 600) <
                      0.01,
                  "busy mean %f", (double)ti.busy.sum / (double)ti.busy.count);
    ck_assert_msg(rel_err((double)ti.hole_pct[2], 600 * log(2.0)) < 0.02,
                  "hole median %" PRId64, ti.hole_pct[2]);
    ck_assert_msg(rel_err(ti.pool_mean, 100) < 0.03, "pool %f", ti.pool_mean);
    traceinfo_release(&ti);
    gentrace_dist_release(&d);
}
END_TEST

START_TEST(test_lognormal_statistics)
{
    /* Holes lognormal:6,0.5: median e^6 = 403.4 s, mean e^6.125 = 457.1
     * s; busy exp:1h.  100 nodes, 60 days: about 128,000 holes. */
    struct gentrace_dist idle, busy;
    struct traceinfo ti;

    dist("lognormal:6,0.5", 0, &idle);
    dist("exp:1h", 1, &busy);
    gen_info("logn.trace.gz", 100, 60 * 86400, 5, &idle, &busy, &ti);
    ck_assert_uint_gt(ti.holes.count, 100000);
    ck_assert_msg(rel_err((double)ti.hole_pct[2], exp(6.0)) < 0.02,
                  "median %" PRId64, ti.hole_pct[2]);
    ck_assert_msg(rel_err((double)ti.holes.sum / (double)ti.holes.count,
                          exp(6.125)) < 0.02,
                  "mean %f", (double)ti.holes.sum / (double)ti.holes.count);
    traceinfo_release(&ti);
    gentrace_dist_release(&idle);
    gentrace_dist_release(&busy);
}
END_TEST

START_TEST(test_empirical)
{
    /* Source: node a has complete holes 100, 100, 100 and 1000 and
     * complete busy intervals 50, 50, 500 (its busy time before the first
     * join and node b's open hole do not count). */
    const char *src = tu_write("emp-src.trace", "bfsim-trace 1\n"
                                                "node a\nnode b\n"
                                                "1000 +0\n"
                                                "1100 -0\n"
                                                "1150 +0 +1\n"
                                                "1250 -0\n"
                                                "1300 +0\n"
                                                "1400 -0\n"
                                                "1900 +0\n"
                                                "2900 -0\n"
                                                "3000\n");
    struct gentrace_dist idle, busy;
    struct traceinfo ti;
    char spec[4300];
    uint64_t n100, n1000;

    snprintf(spec, sizeof spec, "empirical:%s", src);
    dist(spec, 0, &idle);
    dist(spec, 1, &busy);
    ck_assert_uint_eq(idle.n, 2);
    ck_assert_int_eq(idle.values[0], 100);
    ck_assert_uint_eq(idle.cum[0], 3);
    ck_assert_int_eq(idle.values[1], 1000);
    ck_assert_uint_eq(idle.cum[1], 4);
    ck_assert_uint_eq(busy.n, 2);
    ck_assert_int_eq(busy.values[0], 50);
    ck_assert_uint_eq(busy.cum[0], 2);
    ck_assert_int_eq(busy.values[1], 500);
    ck_assert_uint_eq(busy.cum[1], 3);
    ck_assert_double_eq(gentrace_dist_mean(&idle), 325);
    ck_assert_double_eq(gentrace_dist_mean(&busy), 200);

    /* 100 nodes for 10 days, a 525 s mean cycle: about 160,000 holes,
     * all 100 or 1000 s long but those cut at the start and end, three
     * times as many of 100 as of 1000. */
    gen_info("emp.trace.gz", 100, 10 * 86400, 9, &idle, &busy, &ti);
    n100 = ti.holes.dense[100];
    n1000 = ti.holes.dense[1000];
    ck_assert_uint_gt(ti.holes.count, 150000);
    ck_assert_uint_ge(n100 + n1000 + 200, ti.holes.count);
    ck_assert_msg(rel_err((double)n100 / (double)n1000, 3.0) < 0.05,
                  "%" PRIu64 " / %" PRIu64, n100, n1000);
    ck_assert_uint_ge(ti.busy.dense[50] + ti.busy.dense[500], ti.busy.count);
    traceinfo_release(&ti);
    gentrace_dist_release(&idle);
    gentrace_dist_release(&busy);
}
END_TEST

START_TEST(test_empirical_summit)
{
    /* The bundled trace has 423,354 leaves, each closing a complete hole,
     * and 423,502 joins, of which the 4,680 first joins of the nodes ever
     * idle do not close a busy interval: 418,822 busy intervals. */
    const char *summit = tu_src("traces/summit-2021-02.trace.gz");
    struct gentrace_dist idle, busy;
    struct traceinfo ti;
    char spec[4300];
    int64_t want;

    snprintf(spec, sizeof spec, "empirical:%s", summit);
    dist(spec, 0, &idle);
    dist(spec, 1, &busy);
    ck_assert_uint_eq(idle.cum[idle.n - 1], 423354);
    ck_assert_uint_eq(busy.cum[busy.n - 1], 418822);
    /* The source's median hole (nearest rank 211,677). */
    want = 0;
    for (size_t k = 0; k < idle.n; k++)
        if (idle.cum[k] >= 211677) {
            want = idle.values[k];
            break;
        }
    gen_info("emp-summit.trace.gz", 500, 20 * 86400, 3, &idle, &busy, &ti);
    ck_assert_uint_gt(ti.holes.count, 50000);
    ck_assert_msg(rel_err((double)ti.hole_pct[2], (double)want) < 0.03,
                  "median %" PRId64 " vs %" PRId64, ti.hole_pct[2], want);
    traceinfo_release(&ti);
    gentrace_dist_release(&idle);
    gentrace_dist_release(&busy);
}
END_TEST

START_TEST(test_node_streams)
{
    /* Node i's timeline depends on the seed and i only: the first 10
     * nodes of a 25-node trace are the 10-node trace. */
    struct gentrace_dist d;
    struct traceinfo a, b;
    struct traceinfo_opts io;
    struct gentrace_opts o;
    struct bfs_error e;
    const char *p = tu_tmp("n25.trace");

    dist("exp:300", 0, &d);
    gen_info("n10.trace", 10, 86400, 77, &d, &d, &a);
    memset(&o, 0, sizeof o);
    o.nodes = 25;
    o.start = T0;
    o.duration = 86400;
    o.seed = 77;
    o.idle = o.busy = &d;
    bfs_error_clear(&e);
    ck_assert_int_eq(gentrace_write(p, &o, NULL, &e), 0);
    traceinfo_opts_init(&io);
    io.count = 10;
    ck_assert_int_eq(traceinfo_compute(p, &io, &b, &e), 0);
    ck_assert_int_eq(a.idle_node_s, b.idle_node_s);
    ck_assert_uint_eq(a.joins, b.joins);
    ck_assert_uint_eq(a.leaves, b.leaves);
    ck_assert_uint_eq(a.events_changed, b.events_changed);
    ck_assert_uint_eq(a.holes.count, b.holes.count);
    traceinfo_release(&a);
    traceinfo_release(&b);
    gentrace_dist_release(&d);
}
END_TEST

START_TEST(test_simultaneous_changes)
{
    /* Very short lengths make many nodes change at the same second: each
     * becomes one event, which the reader (inside traceinfo) validates. */
    struct gentrace_dist d;
    struct traceinfo ti;

    dist("exp:2", 0, &d);
    gen_info("short.trace", 50, 3600, 11, &d, &d, &ti);
    ck_assert_uint_le(ti.events, 3601);
    ck_assert_uint_gt(ti.joins + ti.leaves, 2 * ti.events);
    traceinfo_release(&ti);
    gentrace_dist_release(&d);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gentrace");
    TCase *tc = tcase_create("gentrace");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_dist_parse);
    tcase_add_test(tc, test_deterministic);
    tcase_add_test(tc, test_time_range);
    tcase_add_test(tc, test_exp_statistics);
    tcase_add_test(tc, test_lognormal_statistics);
    tcase_add_test(tc, test_empirical);
    tcase_add_test(tc, test_empirical_summit);
    tcase_add_test(tc, test_node_streams);
    tcase_add_test(tc, test_simultaneous_changes);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
