/* check_jobs.c - tests of src/formats/jobs.c.
 *
 * curve_eval against values computed by hand (exact where the arithmetic
 * is exact) and against numpy.interp's formula evaluated independently in
 * double precision (hex literals); native and BFTrainer parsing on small
 * hand-written files; one loop test per bad input, asserting the whole
 * "file:line: problem" message; and, when the published data is there,
 * the bundled datasets against their source CSV pairs, number for number.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/jobs.h"
#include "testjobs.h"
#include "testutil.h"

/* ---- curve_eval ---------------------------------------------------- */

static double shuf_N[] = {0, 1, 2, 4, 8, 16, 32, 64};
static double shuf_P[] = {0,       2831,    5259,    9988,
                          20379.2, 38895.3, 74125.1, 145081.5};
/* ImageNet AlexNet speed-up curve (ImageNet-spdup, job J00000). */
static double spd_O[] = {0,
                         1,
                         1.8371256306831758,
                         2.9606762891234379,
                         5.6898373926608858,
                         10.400531249560805,
                         18.377580706365155,
                         28.408556209857629};

static const struct curve shuf = {8, shuf_N, shuf_P, spd_O};

START_TEST(test_eval_breakpoints)
{
    for (size_t i = 0; i < 8; i++) {
        ck_assert(curve_eval(&shuf, shuf_P, shuf_N[i]) == shuf_P[i]);
        ck_assert(curve_eval(&shuf, spd_O, shuf_N[i]) == spd_O[i]);
    }
}
END_TEST

START_TEST(test_eval_between)
{
    /* slope (9988 - 5259) / 2 = 2364.5, all exact. */
    ck_assert(curve_eval(&shuf, shuf_P, 3) == 7623.5);
    /* 2831 + 0.5 * 2428 */
    ck_assert(curve_eval(&shuf, shuf_P, 1.5) == 4045);
    ck_assert(curve_eval(&shuf, shuf_P, 0.5) == 1415.5);
    /* 9988 + 2 * (20379.2 - 9988) / 4 = 15183.6 */
    ck_assert_double_eq_tol(curve_eval(&shuf, shuf_P, 6), 15183.6, 1e-9);
    /* 74125.1 + 16 * (145081.5 - 74125.1) / 32 = 109603.3 */
    ck_assert_double_eq_tol(curve_eval(&shuf, shuf_P, 48), 109603.3, 1e-9);
}
END_TEST

START_TEST(test_eval_numpy_bits)
{
    /* slope * (x - N[i]) + y[i] in double precision, computed outside
     * bfsim; at these x the blend y[i] (1 - t) + y[i+1] t differs in the
     * last bit, so the test tells the formulas apart. */
    static const struct {
        double x, want;
    } t[] = {
        {3, 0x1.330f2fc89058dp+1},  {7, 0x1.407ba6e6eefe2p+2},
        {10, 0x1.b7854c41cffb9p+2}, {20, 0x1.8ca2263778dd1p+3},
        {33, 0x1.2b0e89127242fp+4}, {40, 0x1.4e2a4a1bf0ee9p+4},
        {63, 0x1.c1857b3b236bcp+4},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        ck_assert_msg(curve_eval(&shuf, spd_O, t[i].x) == t[i].want,
                      "O(%g) = %a, want %a", t[i].x,
                      curve_eval(&shuf, spd_O, t[i].x), t[i].want);
}
END_TEST

START_TEST(test_eval_outside)
{
    /* numpy.interp's fill values: the end points (documented, not used
     * by valid jobs, which never run above N[n-1] >= Jmax). */
    ck_assert(curve_eval(&shuf, shuf_P, -1) == 0);
    ck_assert(curve_eval(&shuf, shuf_P, 65) == 145081.5);
    ck_assert(curve_eval(&shuf, shuf_P, 1e9) == 145081.5);
}
END_TEST

START_TEST(test_eval_two_points)
{
    double N[] = {0, 4}, P[] = {0, 10};
    struct curve c = {2, N, P, P};

    ck_assert(curve_eval(&c, P, 0) == 0);
    ck_assert(curve_eval(&c, P, 1) == 2.5);
    ck_assert(curve_eval(&c, P, 3) == 7.5);
    ck_assert(curve_eval(&c, P, 4) == 10);
}
END_TEST

/* ---- helpers ------------------------------------------------------- */

/* Whether two jobs are identical, every number bit for bit. */
static int same_job(const struct job *a, const struct job *b, char *why,
                    size_t len)
{
    const struct curve *x = &a->curve, *y = &b->curve;

#define DIFF(cond, what)                                                       \
    do {                                                                       \
        if (cond) {                                                            \
            snprintf(why, len, "job %s: %s differs", a->name, what);           \
            return 0;                                                          \
        }                                                                      \
    } while (0)
    DIFF(strcmp(a->name, b->name) != 0, "name");
    DIFF(a->tsub != b->tsub, "tsub");
    DIFF(a->jmin != b->jmin || a->jmax != b->jmax, "jmin/jmax");
    DIFF(memcmp(&a->pmax, &b->pmax, sizeof a->pmax) != 0, "pmax");
    DIFF(memcmp(&a->tcup, &b->tcup, sizeof a->tcup) != 0, "tcup");
    DIFF(memcmp(&a->tcdw, &b->tcdw, sizeof a->tcdw) != 0, "tcdw");
    DIFF(x->n != y->n, "curve length");
    DIFF(memcmp(x->N, y->N, x->n * sizeof *x->N) != 0, "curve N");
    DIFF(memcmp(x->P, y->P, x->n * sizeof *x->P) != 0, "curve P");
    DIFF(memcmp(x->O, y->O, x->n * sizeof *x->O) != 0, "curve O");
#undef DIFF
    return 1;
}

static void assert_same_set(const struct jobset *a, const struct jobset *b)
{
    char why[256];

    ck_assert_uint_eq(a->n, b->n);
    for (size_t i = 0; i < a->n; i++)
        ck_assert_msg(same_job(&a->jobs[i], &b->jobs[i], why, sizeof why), "%s",
                      why);
}

static void load_ok(const char *path, const char *curves, struct jobset *js)
{
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_msg(jobset_load(path, curves, js, &e) == 0, "%s", e.msg);
}

/* ---- native files -------------------------------------------------- */

START_TEST(test_native_read)
{
    /* Columns in another order, an extra column, comments, blank lines,
     * CRLF line ends, a date for tsub, a non-concave curve. */
    const char *p = tu_write(
        "a.jobs", "# bfsim-jobs 1\n"
                  "# made by hand\n"
                  "\n"
                  "tcdw,job,curve,note,tsub,jmin,jmax,pmax,tcup\r\n"
                  "12,A,0:0:0 1:10:1 3:20:1.5,x,1612988475,1,3,1000,18\r\n"
                  "# between jobs\n"
                  "0.5,B,0:0:0 2:8:2 4:30:2.5 8:31:9,,2021-02-10 20:21:15,2,"
                  "8,1.3e8,0\n");
    struct jobset js;

    load_ok(p, NULL, &js);
    ck_assert_uint_eq(js.n, 2);
    ck_assert_str_eq(js.jobs[0].name, "A");
    ck_assert_int_eq(js.jobs[0].tsub, 1612988475);
    ck_assert_int_eq(js.jobs[0].jmin, 1);
    ck_assert_int_eq(js.jobs[0].jmax, 3);
    ck_assert(js.jobs[0].pmax == 1000);
    ck_assert(js.jobs[0].tcup == 18);
    ck_assert(js.jobs[0].tcdw == 12);
    ck_assert_uint_eq(js.jobs[0].line, 5);
    ck_assert_uint_eq(js.jobs[0].curve.n, 3);
    ck_assert(js.jobs[0].curve.N[2] == 3);
    ck_assert(js.jobs[0].curve.P[2] == 20);
    ck_assert(js.jobs[0].curve.O[2] == 1.5);
    ck_assert(curve_eval(&js.jobs[0].curve, js.jobs[0].curve.P, 2) == 15);
    ck_assert_str_eq(js.jobs[1].name, "B");
    ck_assert_int_eq(js.jobs[1].tsub, 1612988475);
    ck_assert_int_eq(js.jobs[1].jmin, 2);
    ck_assert(js.jobs[1].pmax == 1.3e8);
    ck_assert(js.jobs[1].tcdw == 0.5);
    ck_assert_uint_eq(js.jobs[1].line, 7);
    ck_assert_uint_eq(js.jobs[1].curve.n, 4);
    jobset_release(&js);
    ck_assert_uint_eq(js.n, 0);
    ck_assert_ptr_null(js.jobs);
}
END_TEST

static double round_trip_values[] = {0.1,
                                     1.0 / 3,
                                     2.0 / 3,
                                     1e-300,
                                     0x1p-1022,
                                     123456789.123456789,
                                     1e22,
                                     0x1p60,
                                     9007199254740993.0,
                                     7115.3000000000002,
                                     1.8371256306831758,
                                     18.72210569,
                                     1e15 + 0.5,
                                     0x1.fffffffffffffp+1023};

START_TEST(test_native_round_trip)
{
    size_t nv = sizeof round_trip_values / sizeof round_trip_values[0];
    struct jobset js = {0}, back, again;
    const char *p1 = tu_tmp("rt1.jobs"), *p2 = tu_tmp("rt2.jobs");
    const char *comments[] = {"first comment", "two\nlines", NULL};
    struct bfs_error e;
    char *t1, *t2;

    /* One job per value, the value in every double field. */
    js.n = nv;
    js.jobs = xcalloc(nv, sizeof *js.jobs);
    for (size_t i = 0; i < nv; i++) {
        struct job *j = &js.jobs[i];
        double v = round_trip_values[i];
        char name[32];

        snprintf(name, sizeof name, "job-%zu:x", i);
        j->name = xstrdup(name);
        j->tsub = (int64_t)i * 1000 - 5;
        j->jmin = 1;
        j->jmax = 2;
        j->pmax = v;
        j->tcup = v;
        j->tcdw = (double)i;
        j->curve.n = 3;
        j->curve.N = xcalloc(3, sizeof(double));
        j->curve.P = xcalloc(3, sizeof(double));
        j->curve.O = xcalloc(3, sizeof(double));
        j->curve.N[1] = 1;
        j->curve.N[2] = 2;
        j->curve.P[1] = v;
        j->curve.P[2] = v;
        j->curve.O[1] = -v;
        j->curve.O[2] = v;
    }
    bfs_error_clear(&e);
    ck_assert_msg(jobset_write(p1, &js, comments, &e) == 0, "%s", e.msg);
    load_ok(p1, NULL, &back);
    assert_same_set(&js, &back);
    ck_assert_msg(jobset_write(p2, &back, comments, &e) == 0, "%s", e.msg);
    load_ok(p2, NULL, &again);
    assert_same_set(&js, &again);
    t1 = tu_slurp(p1);
    t2 = tu_slurp(p2);
    ck_assert_str_eq(t1, t2);
    /* The exact text of the first lines and of a few numbers. */
    ck_assert_msg(strncmp(t1,
                          "# bfsim-jobs 1\n# first comment\n# two\n# lines\n"
                          "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                          "job-0:x,-5,1,2,0.1,0.1,0,0:0:0 1:0.1:-0.1 "
                          "2:0.1:0.1\n"
                          "job-1:x,995,1,2,0.3333333333333333,",
                          strlen("# bfsim-jobs 1\n# first comment\n# two\n"
                                 "# lines\njob,tsub,jmin,jmax,pmax,tcup,"
                                 "tcdw,curve\njob-0:x,-5,1,2,0.1,0.1,0,0:0:0 "
                                 "1:0.1:-0.1 2:0.1:0.1\njob-1:x,995,1,2,"
                                 "0.3333333333333333,")) == 0,
                  "%s", t1);
    ck_assert_ptr_nonnull(strstr(t1, ",1e+22,"));
    ck_assert_ptr_nonnull(strstr(t1, ",1.152921504606847e+18,"));
    ck_assert_ptr_nonnull(strstr(t1, ",7115.3,"));
    ck_assert_ptr_nonnull(strstr(t1, ",18.72210569,"));
    free(t1);
    free(t2);
    jobset_release(&again);
    jobset_release(&back);
    jobset_release(&js);
}
END_TEST

START_TEST(test_write_bad_name)
{
    /* what the reader cannot take back; "a,b", "#x" and " " are quoted
     * (check_csv.c) */
    static const char *const bad[] = {"", "a\nb", "a\rb", "\n"};

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        double N[] = {0, 1}, P[] = {0, 1};
        struct job j = {.name = (char *)(uintptr_t)bad[i],
                        .jmin = 1,
                        .jmax = 1,
                        .pmax = 1,
                        .curve = {2, N, P, P},
                        .line = 1};
        struct jobset js = {.n = 1, .jobs = &j};
        const char *p = tu_tmp("bad-name.jobs");
        struct bfs_error e;

        bfs_error_clear(&e);
        ck_assert_int_eq(jobset_write(p, &js, NULL, &e), BFS_EINVAL);
        ck_assert_ptr_nonnull(strstr(e.msg, "cannot be written"));
        ck_assert(!tu_exists(p));
    }
}
END_TEST

/* ---- features -------------------------------------------------------- */

#define GOOD_CURVE_F "0:0:0 1:2:2 2:3:3"

/* Two feature columns, one numeric (params) and one categorical
 * (family), before and after the job's columns; B's family is blank (a
 * blank of spaces), C's params empty.  Written and read back, the same
 * values; the header names the features after the job's columns. */
START_TEST(test_features)
{
    const char *p = tu_write("feat.jobs",
                             "# bfsim-jobs 1\n"
                             "params,job,tsub,jmin,jmax,pmax,tcup,tcdw,curve,"
                             "family\n"
                             "61100840,A,0,1,2,5,1,1," GOOD_CURVE_F ",alexnet\n"
                             "2.5e7,B,0,1,2,5,1,1," GOOD_CURVE_F ",  \n"
                             ",C,0,1,2,5,1,1," GOOD_CURVE_F ",\"res,net\"\n");
    const char *q = tu_tmp("feat-back.jobs");
    struct jobset js, back;
    struct bfs_error e;
    char *text;

    load_ok(p, NULL, &js);
    ck_assert_uint_eq(js.n, 3);
    ck_assert_uint_eq(js.n_features, 2);
    ck_assert_str_eq(js.feature_names[0], "params");
    ck_assert_str_eq(js.feature_names[1], "family");
    ck_assert_str_eq(job_feature(&js, &js.jobs[0], "params"), "61100840");
    ck_assert_str_eq(job_feature(&js, &js.jobs[0], "family"), "alexnet");
    ck_assert_str_eq(job_feature(&js, &js.jobs[1], "params"), "2.5e7");
    ck_assert_ptr_null(job_feature(&js, &js.jobs[1], "family"));
    ck_assert_ptr_null(job_feature(&js, &js.jobs[2], "params"));
    ck_assert_str_eq(job_feature(&js, &js.jobs[2], "family"), "res,net");
    ck_assert_ptr_null(job_feature(&js, &js.jobs[0], "dataset"));
    ck_assert_ptr_null(job_feature(&js, &js.jobs[0], "pmax"));

    bfs_error_clear(&e);
    ck_assert_msg(jobset_write(q, &js, NULL, &e) == 0, "%s", e.msg);
    text = tu_slurp(q);
    ck_assert_str_eq(text, "# bfsim-jobs 1\n"
                           "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve,params,"
                           "family\n"
                           "A,0,1,2,5,1,1," GOOD_CURVE_F ",61100840,alexnet\n"
                           "B,0,1,2,5,1,1," GOOD_CURVE_F ",2.5e7,\n"
                           "C,0,1,2,5,1,1," GOOD_CURVE_F ",,\"res,net\"\n");
    free(text);
    load_ok(q, NULL, &back);
    assert_same_set(&js, &back);
    ck_assert_uint_eq(back.n_features, 2);
    ck_assert_str_eq(back.feature_names[0], "params");
    ck_assert_str_eq(back.feature_names[1], "family");
    for (size_t i = 0; i < 3; i++)
        for (size_t k = 0; k < 2; k++) {
            const char *x = job_feature(&js, &js.jobs[i], js.feature_names[k]);
            const char *y =
                job_feature(&back, &back.jobs[i], back.feature_names[k]);
            if (x == NULL)
                ck_assert_ptr_null(y);
            else
                ck_assert_str_eq(x, y);
        }
    /* A feature named as a column bfsim reads cannot be written. */
    {
        char *keep = js.feature_names[1];
        js.feature_names[1] = (char *)(uintptr_t) "tcup";
        ck_assert_int_eq(jobset_write(q, &js, NULL, &e), BFS_EINVAL);
        char want[4096];
        snprintf(want, sizeof want,
                 "%s: feature name \"tcup\" cannot be written (it is a "
                 "column bfsim reads)",
                 q);
        ck_assert_str_eq(e.msg, want);
        js.feature_names[1] = keep;
    }
    jobset_release(&back);
    jobset_release(&js);
    ck_assert_uint_eq(js.n_features, 0);
    ck_assert_ptr_null(js.feature_names);
}
END_TEST

/* ---- BFTrainer pairs ------------------------------------------------- */

START_TEST(test_bftrainer_pair)
{
    /* Tsub_epoch_s wins over Tsub; curves of B come first in the long
     * table; extra columns on both sides. */
    const char *b = tu_write(
        "p-bnd.csv", "job,Tcup,Tcdw,Jmin,Jmax,Pmax,Tsub,Tsub_epoch_s,extra\n"
                     "A,18,12,1,2,130000000,2021-02-10 20:21:15,1612988475,y\n"
                     "B,17.5,11.25,2,4.0,1e6,2021-02-10 20:21:51,100,z\n");
    const char *c = tu_write("p-long.csv", "Tsub,O,P,N,bp,job\n"
                                           "t,0,0,0,0,B\n"
                                           "t,1,2.5,2,1,B\n"
                                           "t,1.5,4,4,2,B\n"
                                           "t,0,0,0,0,A\n"
                                           "t,2831,2831,1,1,A\n"
                                           "t,5259,5259,2,2,A\n"
                                           "t,9988,9988,4,3,A\n");
    struct jobset js;

    load_ok(b, c, &js);
    ck_assert_uint_eq(js.n, 2);
    ck_assert_str_eq(js.jobs[0].name, "A");
    ck_assert_int_eq(js.jobs[0].tsub, 1612988475);
    ck_assert_uint_eq(js.jobs[0].line, 2);
    ck_assert_uint_eq(js.jobs[0].curve.n, 4);
    ck_assert(curve_eval(&js.jobs[0].curve, js.jobs[0].curve.P, 3) == 7623.5);
    ck_assert_str_eq(js.jobs[1].name, "B");
    ck_assert_int_eq(js.jobs[1].tsub, 100);
    ck_assert_int_eq(js.jobs[1].jmin, 2);
    ck_assert_int_eq(js.jobs[1].jmax, 4);
    ck_assert(js.jobs[1].pmax == 1e6);
    ck_assert(js.jobs[1].tcup == 17.5);
    ck_assert(js.jobs[1].tcdw == 11.25);
    ck_assert_uint_eq(js.jobs[1].curve.n, 3);
    ck_assert(js.jobs[1].curve.O[2] == 1.5);
    ck_assert(curve_eval(&js.jobs[1].curve, js.jobs[1].curve.P, 3) == 3.25);
    jobset_release(&js);
}
END_TEST

/* The pair as a spreadsheet or pandas may save it: a byte-order mark,
 * every field quoted, CRLF, a comma inside a quoted name.  Same values as
 * written plainly: A Tcup 18, Tcdw 12, Jmin 1, Jmax 2, Pmax 130000000,
 * tsub 1612988475, curve 0:0, 1:2831, 2:5259. */
START_TEST(test_bftrainer_quoted)
{
    const char *b = tu_write(
        "q-bnd.csv",
        "\xEF\xBB\xBF\"job\",\"Tcup\",\"Tcdw\",\"Jmin\",\"Jmax\",\"Pmax\","
        "\"Tsub\",\"Tsub_epoch_s\"\r\n"
        "\"A, v2\",\"18\",\"12\",\"1\",\"2\",\"130000000\","
        "\"2021-02-10 20:21:15\",\"1612988475\"\r\n");
    const char *c = tu_write("q-long.csv", "\xEF\xBB\xBFjob,bp,N,P,O,Tsub\r\n"
                                           "\"A, v2\",0,0,0,0,t\r\n"
                                           "\"A, v2\",1,1,2831,2831,t\r\n"
                                           "\"A, v2\",2,2,5259,5259,t\r\n");
    struct jobset js;

    load_ok(b, c, &js);
    ck_assert_uint_eq(js.n, 1);
    ck_assert_str_eq(js.jobs[0].name, "A, v2");
    ck_assert(js.jobs[0].tcup == 18);
    ck_assert(js.jobs[0].tcdw == 12);
    ck_assert_int_eq(js.jobs[0].jmin, 1);
    ck_assert_int_eq(js.jobs[0].jmax, 2);
    ck_assert(js.jobs[0].pmax == 130000000);
    ck_assert_int_eq(js.jobs[0].tsub, 1612988475);
    ck_assert_uint_eq(js.jobs[0].curve.n, 3);
    ck_assert(js.jobs[0].curve.P[2] == 5259);
    jobset_release(&js);
}
END_TEST

START_TEST(test_bftrainer_tsub_only)
{
    const char *b =
        tu_write("t-bnd.csv", "job,Tcup,Tcdw,Jmin,Jmax,Pmax,Tsub\n"
                              "A,18,12,1,1,5,2021-02-10 20:21:15\n");
    const char *c = tu_write("t-long.csv", "job,bp,N,P,O\n"
                                           "A,0,0,0,0\n"
                                           "A,1,1,3,3\n");
    struct jobset js;

    load_ok(b, c, &js);
    ck_assert_uint_eq(js.n, 1);
    ck_assert_int_eq(js.jobs[0].tsub, 1612988475);
    jobset_release(&js);
}
END_TEST

/* ---- bad input ------------------------------------------------------- */

#define NATIVE_HEAD "# bfsim-jobs 1\njob,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
#define FEAT_HEAD "# bfsim-jobs 1\njob,tsub,jmin,jmax,pmax,tcup,tcdw,curve,"
#define GOOD_CURVE "0:0:0 1:2:2 2:3:3"
#define BOUNDS_HEAD "job,Tcup,Tcdw,Jmin,Jmax,Pmax,Tsub,Tsub_epoch_s\n"
#define LONG_HEAD "job,bp,N,P,O,Tsub\n"
#define LONG_A "A,0,0,0,0,t\nA,1,1,2,2,t\nA,2,2,3,3,t\n"

static const struct bad_case {
    const char *main;   /* native file or bounds table */
    const char *curves; /* long curve table, NULL for a native file */
    int in_curves;      /* whether the error names the curve table */
    size_t line;        /* 0: no line in the message */
    const char *msg;
} bad[] = {
    /* form and header */
    {"", NULL, 0, 0, "empty file"},
    {"# bfsim-jobs 2\n", NULL, 0, 1,
     "bad magic line \"# bfsim-jobs 2\" (expected \"# bfsim-jobs 1\")"},
    {"# bfsim-jobs 1\n# only comments\n", NULL, 0, 2,
     "missing header line after \"# bfsim-jobs 1\""},
    {"hello,world\n", NULL, 0, 1,
     "not a job file: the first line is neither \"# bfsim-jobs 1\" nor a "
     "BFTrainer bounds header (job,Tcup,Tcdw,Jmin,Jmax,Pmax,Tsub,...)"},
    {"job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n", NULL, 0, 1,
     "missing magic line \"# bfsim-jobs 1\" before the header of a native "
     "job file"},
    {"# bfsim-jobs 1\njob,tsub,jmin,jmax,pmax,tcdw,curve\n", NULL, 0, 2,
     "missing column tcup"},
    {"# bfsim-jobs 1\njob,tsub,jmin,jmax,pmax,tcup,tcdw,curve,jmin\n", NULL, 0,
     2, "column jmin appears twice"},
    {NATIVE_HEAD, NULL, 0, 0, "no jobs"},
    /* feature columns */
    {FEAT_HEAD "model,params,model\n", NULL, 0, 2,
     "column model appears twice"},
    {FEAT_HEAD "model family\n", NULL, 0, 2,
     "column 9 \"model family\": the feature name holds a blank"},
    {FEAT_HEAD "\n", NULL, 0, 2, "column 9 \"\": the feature name is empty"},
    {FEAT_HEAD "a:b\n", NULL, 0, 2,
     "column 9 \"a:b\": the feature name holds ':'"},
    /* checkpoint columns */
    {FEAT_HEAD "ckpt_interval,ckpt_write\nA,0,1,2,5,1,1," GOOD_CURVE ",,3\n",
     NULL, 0, 3, "job A: ckpt_write without ckpt_interval"},
    {FEAT_HEAD "ckpt_restart\nA,0,1,2,5,1,1," GOOD_CURVE ",3\n", NULL, 0, 3,
     "job A: ckpt_restart without ckpt_interval"},
    {FEAT_HEAD "ckpt_interval\nA,0,1,2,5,1,1," GOOD_CURVE ",0\n", NULL, 0, 3,
     "job A: ckpt_interval 0 is not > 0"},
    {FEAT_HEAD "ckpt_interval,ckpt_write\nA,0,1,2,5,1,1," GOOD_CURVE ",60,-1\n",
     NULL, 0, 3, "job A: ckpt_write -1 is not >= 0"},
    {FEAT_HEAD "ckpt_interval\nA,0,1,2,5,1,1," GOOD_CURVE ",soon\n", NULL, 0, 3,
     "ckpt_interval \"soon\" is not a number"},
    {NATIVE_HEAD, "x.csv", 0, 0, "a native job file takes no curve table"},
    {BOUNDS_HEAD "A,18,12,1,2,5,t,0\n", NULL, 0, 0,
     "a BFTrainer bounds table needs its long curve table (job,bp,N,P,O)"},
    {"job,Tcup,Tcdw,Jmin,Pmax,Tsub\n", "", 0, 1, "missing column Jmax"},
    {"job,Tcup,Tcdw,Jmin,Jmax,Pmax\n", "", 0, 1, "missing column Tsub"},
    {BOUNDS_HEAD, LONG_HEAD, 0, 0, "no jobs"},
    /* fields of a job */
    {NATIVE_HEAD "A,0,1,2,5,1,1\n", NULL, 0, 3, "expected 8 fields, found 7"},
    {NATIVE_HEAD "A,0,1,2,5,1,1," GOOD_CURVE ",x\n", NULL, 0, 3,
     "expected 8 fields, found 9"},
    {NATIVE_HEAD ",0,1,2,5,1,1," GOOD_CURVE "\n", NULL, 0, 3, "empty job name"},
    {NATIVE_HEAD "A,yesterday,1,2,5,1,1," GOOD_CURVE "\n", NULL, 0, 3,
     "tsub \"yesterday\" is not a time (YYYY-MM-DD HH:MM:SS, UTC, or Unix "
     "seconds)"},
    {NATIVE_HEAD "A,0,1,2,abc,1,1," GOOD_CURVE "\n", NULL, 0, 3,
     "pmax \"abc\" is not a number"},
    {NATIVE_HEAD "A,0,1,2,5,inf,1," GOOD_CURVE "\n", NULL, 0, 3,
     "tcup \"inf\" is not a finite number"},
    {NATIVE_HEAD "A,0,1,2,5,1,," GOOD_CURVE "\n", NULL, 0, 3,
     "tcdw \"\" is not a number"},
    {NATIVE_HEAD "A,0,1.5,2,5,1,1," GOOD_CURVE "\n", NULL, 0, 3,
     "jmin \"1.5\" is not an integer"},
    {NATIVE_HEAD "A,0,1,1e10,5,1,1," GOOD_CURVE "\n", NULL, 0, 3,
     "jmax \"1e10\" is out of range"},
    {NATIVE_HEAD "A,0,0,2,5,1,1," GOOD_CURVE "\n", NULL, 0, 3,
     "jmin 0 is below 1"},
    {NATIVE_HEAD "A,0,5,4,5,1,1," GOOD_CURVE "\n", NULL, 0, 3,
     "jmin 5 > jmax 4"},
    {NATIVE_HEAD "A,0,1,2,0,1,1," GOOD_CURVE "\n", NULL, 0, 3,
     "pmax 0 is not positive"},
    {NATIVE_HEAD "A,0,1,2,-5,1,1," GOOD_CURVE "\n", NULL, 0, 3,
     "pmax -5 is not positive"},
    {NATIVE_HEAD "A,0,1,2,5,-1,1," GOOD_CURVE "\n", NULL, 0, 3,
     "tcup -1 is negative"},
    {NATIVE_HEAD "A,0,1,2,5,1,-0.5," GOOD_CURVE "\n", NULL, 0, 3,
     "tcdw -0.5 is negative"},
    {NATIVE_HEAD "A,0,1,2,5,1,1," GOOD_CURVE "\nA,0,1,2,5,1,1," GOOD_CURVE "\n",
     NULL, 0, 4, "duplicate job name A (first on line 3)"},
    /* native curves */
    {NATIVE_HEAD "A,0,1,2,5,1,1,\n", NULL, 0, 3,
     "curve of job A has no point N=0"},
    {NATIVE_HEAD "A,0,1,2,5,1,1,1:2:2 2:3:3\n", NULL, 0, 3,
     "curve of job A has no point N=0"},
    {NATIVE_HEAD "A,0,1,2,5,1,1,0:1:0 1:2:2 2:3:3\n", NULL, 0, 3,
     "curve of job A: point N=0 has P 1 and O 0, both must be 0"},
    {NATIVE_HEAD "A,0,1,2,5,1,1,0:0:0 1.5:2:2 2:3:3\n", NULL, 0, 3,
     "curve of job A: N 1.5 is not a node count (an integer >= 0)"},
    {NATIVE_HEAD "A,0,1,2,5,1,1,0:0:0 2:2:2 2:3:3\n", NULL, 0, 3,
     "curve of job A: N 2 does not exceed the previous N 2"},
    {NATIVE_HEAD "A,0,1,2,5,1,1,0:0:0 2:2:2 1:3:3\n", NULL, 0, 3,
     "curve of job A: N 1 does not exceed the previous N 2"},
    {NATIVE_HEAD "A,0,1,2,5,1,1,0:0:0 1:-2:2 2:3:3\n", NULL, 0, 3,
     "curve of job A: negative P -2 at N=1"},
    {NATIVE_HEAD "A,0,1,4,5,1,1," GOOD_CURVE "\n", NULL, 0, 3,
     "curve of job A ends at N=2, below Jmax 4"},
    {NATIVE_HEAD "A,0,1,2,5,1,1,0:0:0 1:2 2:3:3\n", NULL, 0, 3,
     "curve point \"1:2\" of job A is not N:P:O"},
    {NATIVE_HEAD "A,0,1,2,5,1,1,0:0:0 1:x:2 2:3:3\n", NULL, 0, 3,
     "P \"x\" is not a number"},
    /* BFTrainer pairs */
    {BOUNDS_HEAD "A,18,12,1,2,5,t,soon\n", LONG_HEAD LONG_A, 0, 2,
     "Tsub_epoch_s \"soon\" is not an integer number of seconds"},
    {"job,Tcup,Tcdw,Jmin,Jmax,Pmax,Tsub\nA,18,12,1,2,5,2021-13-01 00:00:00\n",
     LONG_HEAD LONG_A, 0, 2,
     "Tsub \"2021-13-01 00:00:00\" is not a time (YYYY-MM-DD HH:MM:SS, UTC, "
     "or Unix seconds)"},
    {BOUNDS_HEAD "A,18,12,3,2,5,t,0\n", LONG_HEAD LONG_A, 0, 2,
     "Jmin 3 > Jmax 2"},
    {BOUNDS_HEAD "A,18,12,1,2,0,t,0\n", LONG_HEAD LONG_A, 0, 2,
     "Pmax 0 is not positive"},
    {BOUNDS_HEAD "A,18,12,1,2,5,t,0\nB,18,12,1,2,5,t,0\nA,1,1,1,2,5,t,0\n",
     LONG_HEAD LONG_A, 0, 4, "duplicate job name A (first on line 2)"},
    {BOUNDS_HEAD "A,18,12,1,2,5,t,0\nB,18,12,1,2,5,t,0\n", LONG_HEAD LONG_A, 0,
     3, "job B has no curve in %C"},
    {BOUNDS_HEAD "A,18,12,1,2,5,t,0\n",
     LONG_HEAD LONG_A "C,0,0,0,0,t\nC,1,2,1,1,t\n", 1, 5,
     "curve for unknown job C (not in %B)"},
    {BOUNDS_HEAD "A,18,12,1,2,5,t,0\n", LONG_HEAD LONG_A LONG_A, 1, 5,
     "second curve for job A (first on line 2)"},
    {BOUNDS_HEAD "A,18,12,1,2,5,t,0\n", "", 1, 0, "empty file"},
    {BOUNDS_HEAD "A,18,12,1,2,5,t,0\n", "job,bp,N,O\n", 1, 1,
     "missing column P"},
    {BOUNDS_HEAD "A,18,12,1,2,5,t,0\n", LONG_HEAD "A,0,0,0,0\n", 1, 2,
     "expected 6 fields, found 5"},
    {BOUNDS_HEAD "A,18,12,1,2,5,t,0\n", LONG_HEAD "A,x,0,0,0,t\n", 1, 2,
     "bp \"x\" is not an integer >= 0"},
    {BOUNDS_HEAD "A,18,12,1,2,5,t,0\n", LONG_HEAD "A,1,1,2,2,t\n", 1, 2,
     "curve of job A starts at bp 1, not 0"},
    {BOUNDS_HEAD "A,18,12,1,2,5,t,0\n", LONG_HEAD "A,0,0,0,0,t\nA,2,1,2,2,t\n",
     1, 3, "curve of job A: bp 2 follows bp 0 (bp must run 0, 1, 2, ...)"},
    {BOUNDS_HEAD "A,18,12,1,2,5,t,0\n", LONG_HEAD "A,0,0,0,0,t\nB,1,1,2,2,t\n",
     1, 3, "curve of job B starts at bp 1, not 0"},
    {BOUNDS_HEAD "A,18,12,1,2,5,t,0\n", LONG_HEAD "A,0,1,2,2,t\n", 1, 2,
     "curve of job A has no point N=0"},
    {BOUNDS_HEAD "A,18,12,1,2,5,t,0\n",
     LONG_HEAD "A,0,0,0,0,t\nA,1,1,2,2,t\nA,2,1.25,3,3,t\n", 1, 4,
     "curve of job A: N 1.25 is not a node count (an integer >= 0)"},
    {BOUNDS_HEAD "A,18,12,1,2,5,t,0\n",
     LONG_HEAD "A,0,0,0,0,t\nA,1,2,2,2,t\nA,2,1,3,3,t\n", 1, 4,
     "curve of job A: N 1 does not exceed the previous N 2"},
    {BOUNDS_HEAD "A,18,12,1,2,5,t,0\n",
     LONG_HEAD "A,0,0,0,0,t\nA,1,1,-1e-9,2,t\nA,2,2,3,3,t\n", 1, 3,
     "curve of job A: negative P -1e-09 at N=1"},
    {BOUNDS_HEAD "A,18,12,1,2,5,t,0\n", LONG_HEAD "A,0,0,0,0,t\nA,1,1,x,2,t\n",
     1, 3, "P \"x\" is not a number"},
    {BOUNDS_HEAD "A,18,12,1,3,5,t,0\n", LONG_HEAD LONG_A, 1, 4,
     "curve of job A ends at N=2, below Jmax 3"},
};

/* Replaces %B and %C in a message template by the two file paths. */
static char *expand(const char *tmpl, const char *b, const char *c)
{
    char *out = xmalloc(strlen(tmpl) + strlen(b) + strlen(c) + 1), *o = out;

    while (*tmpl) {
        if (tmpl[0] == '%' && (tmpl[1] == 'B' || tmpl[1] == 'C')) {
            const char *s = tmpl[1] == 'B' ? b : c;
            o += sprintf(o, "%s", s);
            tmpl += 2;
        } else {
            *o++ = *tmpl++;
        }
    }
    *o = '\0';
    return out;
}

START_TEST(test_bad_input)
{
    const struct bad_case *t = &bad[_i];
    char name[64], want[4096];
    const char *main_path, *curves_path = NULL, *where;
    struct jobset js = {.n = 42, .jobs = (struct job *)&js};
    struct bfs_error e;
    char *msg;
    int rc;

    snprintf(name, sizeof name, "bad%d.%s", _i, t->curves ? "csv" : "jobs");
    main_path = tu_write(name, t->main);
    if (t->curves) {
        /* "x.csv" stands for a curve table that is never opened. */
        if (strcmp(t->curves, "x.csv") == 0) {
            curves_path = t->curves;
        } else {
            snprintf(name, sizeof name, "bad%d-long.csv", _i);
            curves_path = tu_write(name, t->curves);
        }
    }
    bfs_error_clear(&e);
    rc = jobset_load(main_path, curves_path, &js, &e);
    ck_assert_int_lt(rc, 0);
    ck_assert_int_eq(e.code, rc);
    /* Nothing written on failure. */
    ck_assert_uint_eq(js.n, 42);
    ck_assert_ptr_eq(js.jobs, (struct job *)&js);
    where = t->in_curves ? curves_path : main_path;
    msg = expand(t->msg, main_path, curves_path ? curves_path : "");
    if (t->line)
        snprintf(want, sizeof want, "%s:%zu: %s", where, t->line, msg);
    else
        snprintf(want, sizeof want, "%s: %s", where, msg);
    ck_assert_str_eq(e.msg, want);
    free(msg);
}
END_TEST

/* A NUL byte in a job file is an error at its line, in a native file and
 * in either table of a BFTrainer pair. */
START_TEST(test_nul_byte)
{
    static const char native[] = "# bfsim-jobs 1\n"
                                 "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                                 "A,0,1,1,10,0,0,0:0:0 1:1:\0\n";
    static const char bounds[] = BOUNDS_HEAD "A,18,12,1,2,5,t,0\0\n";
    static const char longt[] = LONG_HEAD "A,0,0,0,0,t\nA,1,1,2\0,2,t\n";
    const char *nat = tu_write_bytes("nul.jobs", native, sizeof native - 1);
    const char *b = tu_write_bytes("nulb.csv", bounds, sizeof bounds - 1);
    const char *bok = tu_write("okb.csv", BOUNDS_HEAD "A,18,12,1,2,5,t,0\n");
    const char *l = tu_write_bytes("null.csv", longt, sizeof longt - 1);
    const char *lok = tu_write("okl.csv", LONG_HEAD LONG_A);
    struct jobset js;
    struct bfs_error e;
    char want[4200];

    bfs_error_clear(&e);
    ck_assert_int_eq(jobset_load(nat, NULL, &js, &e), BFS_EPARSE);
    snprintf(want, sizeof want, "%s:3: NUL byte at column 26", nat);
    ck_assert_str_eq(e.msg, want);
    bfs_error_clear(&e);
    ck_assert_int_eq(jobset_load(b, lok, &js, &e), BFS_EPARSE);
    snprintf(want, sizeof want, "%s:2: NUL byte at column 18", b);
    ck_assert_str_eq(e.msg, want);
    bfs_error_clear(&e);
    ck_assert_int_eq(jobset_load(bok, l, &js, &e), BFS_EPARSE);
    snprintf(want, sizeof want, "%s:3: NUL byte at column 8", l);
    ck_assert_str_eq(e.msg, want);
}
END_TEST

START_TEST(test_missing_file)
{
    struct jobset js;
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_int_eq(jobset_load(tu_tmp("no-such.jobs"), NULL, &js, &e),
                     BFS_EIO);
    ck_assert_ptr_nonnull(strstr(e.msg, "no-such.jobs"));
}
END_TEST

/* ---- bundled datasets ----------------------------------------------- */

static const struct dataset {
    const char *bundled;
    const char *bounds;
    const char *curves;
} datasets[] = {
    {"datasets/hps-shufflenet-10J.jobs", "jobs/hps-shufflenet-Jbnd-10J.csv",
     "jobs/hps-shufflenet-JNPs-10J-long.csv"},
    {"datasets/hps-shufflenet-1000J.jobs.gz",
     "jobs/hps-shufflenet-Jbnd-1000J.csv",
     "jobs/hps-shufflenet-JNPs-1000J-long.csv"},
    {"datasets/imagenet-imgps-1001J.jobs.gz",
     "jobs/ImageNet-imgps-Jbnd-1001J.csv",
     "jobs/ImageNet-imgps-JNPs-1001J-long.csv"},
    {"datasets/imagenet-spdup-1001J.jobs.gz",
     "jobs/ImageNet-spdup-Jbnd-1001J.csv",
     "jobs/ImageNet-spdup-JNPs-1001J-long.csv"},
};

/* Loads a bundled set, and its source pair when the data is there
 * (returns 0 and prints a note when it is not). */
static int load_pair(const struct dataset *d, struct jobset *native,
                     struct jobset *pair)
{
    const char *b = tu_shared_file(d->bounds);

    load_ok(tu_src(d->bundled), NULL, native);
    if (!b) {
        printf("# %s: published data absent, source comparison skipped\n",
               d->bundled);
        return 0;
    }
    load_ok(b, tu_shared_file(d->curves), pair);
    return 1;
}

START_TEST(test_dataset_matches_source)
{
    struct jobset native, pair;

    if (load_pair(&datasets[_i], &native, &pair)) {
        assert_same_set(&native, &pair);
        jobset_release(&pair);
    }
    jobset_release(&native);
}
END_TEST

START_TEST(test_dataset_comments)
{
    char *text = tu_slurp(tu_src("datasets/hps-shufflenet-10J.jobs"));

    ck_assert_ptr_nonnull(text);
    ck_assert(strncmp(text, JOBS_MAGIC "\n", strlen(JOBS_MAGIC) + 1) == 0);
    ck_assert_ptr_nonnull(strstr(text, "BFTrainer/Replayer"));
    ck_assert_ptr_nonnull(strstr(text, "arXiv:2106.12091"));
    ck_assert_ptr_nonnull(strstr(text, "hps-shufflenet-Jbnd-10J.csv"));
    free(text);
}
END_TEST

/* Facts from the data README, checked by hand against the CSV files.
 * The 1,000 jobs are "one every 36 s" only roughly: they span exactly
 * 10 h, 999 gaps of 36 s or (36 of them) 37 s, rounded from 36.036 s. */
static void assert_shufflenet(const struct jobset *js, size_t n, int64_t gap)
{
    size_t longer = 0;

    ck_assert_uint_eq(js->n, n);
    ck_assert_int_eq(js->jobs[0].tsub, 1612988475);
    for (size_t i = 0; i < n; i++) {
        const struct job *j = &js->jobs[i];
        char name[16];

        snprintf(name, sizeof name, "J%05zu", i);
        ck_assert_str_eq(j->name, name);
        if (i > 0) {
            int64_t d = j->tsub - js->jobs[i - 1].tsub;
            ck_assert(d == gap || (n == 1000 && d == gap + 1));
            longer += d == gap + 1;
        }
        ck_assert_int_eq(j->jmin, 1);
        ck_assert_int_eq(j->jmax, 64);
        ck_assert(j->pmax == 1.3e8);
        ck_assert(j->tcup == 18);
        ck_assert(j->tcdw == 12);
        ck_assert_uint_eq(j->curve.n, 8);
        for (size_t k = 0; k < 8; k++) {
            ck_assert(j->curve.N[k] == shuf_N[k]);
            ck_assert(j->curve.P[k] == shuf_P[k]);
            ck_assert(j->curve.O[k] == shuf_P[k]);
        }
        ck_assert(curve_eval(&j->curve, j->curve.P, 3) == 7623.5);
    }
    ck_assert_uint_eq(longer, n == 1000 ? 36 : 0);
    /* Both sets end 10 h after the first job: 2021-02-11 06:21:15. */
    ck_assert_int_eq(js->jobs[n - 1].tsub, 1613024475);
}

START_TEST(test_dataset_shufflenet_10)
{
    struct jobset js;

    load_ok(tu_src("datasets/hps-shufflenet-10J.jobs"), NULL, &js);
    assert_shufflenet(&js, 10, 4000);
    {
        int64_t t;
        ck_assert_int_eq(bfs_time_parse("2021-02-10 20:21:15", &t), 0);
        ck_assert_int_eq(js.jobs[0].tsub, t);
    }
    jobset_release(&js);
}
END_TEST

START_TEST(test_dataset_shufflenet_1000)
{
    struct jobset js;

    load_ok(tu_src("datasets/hps-shufflenet-1000J.jobs.gz"), NULL, &js);
    assert_shufflenet(&js, 1000, 36);
    jobset_release(&js);
}
END_TEST

START_TEST(test_dataset_imagenet)
{
    static const char *const models[7] = {"AlexNet",  "vgg16",    "resnet18",
                                          "DenseNet", "mnasnet1", "shufflenet",
                                          "mobilenet"};
    const char *file = _i ? "datasets/imagenet-spdup-1001J.jobs.gz"
                          : "datasets/imagenet-imgps-1001J.jobs.gz";
    struct jobset js;

    load_ok(tu_src(file), NULL, &js);
    ck_assert_uint_eq(js.n, 1001);
    for (size_t i = 0; i < js.n; i++) {
        const struct job *j = &js.jobs[i];
        char name[64];

        snprintf(name, sizeof name, "J%05zu-%s", i, models[i % 7]);
        ck_assert_str_eq(j->name, name);
        ck_assert_int_eq(j->tsub, 1612988475 + (int64_t)i * 36);
        ck_assert_int_eq(j->jmin, 1);
        ck_assert_int_eq(j->jmax, 64);
        ck_assert(j->pmax == 1.3e8);
        ck_assert_uint_eq(j->curve.n, 8);
        ck_assert(j->curve.N[7] == 64);
        /* O is the throughput, or the speed-up over one node. */
        if (_i == 0)
            ck_assert(memcmp(j->curve.O, j->curve.P, 8 * sizeof(double)) == 0);
        else
            ck_assert(j->curve.O[1] == 1);
    }
    /* First job by hand: AlexNet, 7115.3 images/s on one node. */
    ck_assert(js.jobs[0].curve.P[1] == 7115.3);
    ck_assert(js.jobs[0].tcup == 17.78804344);
    ck_assert(js.jobs[0].tcdw == 11.27313994);
    if (_i == 1)
        ck_assert(js.jobs[0].curve.O[2] == 1.8371256306831758);
    jobset_release(&js);
}
END_TEST

/* imagenet-features-1001J is imagenet-imgps-1001J job for job (compared
 * field by field) with the features family (the name's model in lower
 * case, written out here by hand), source, dataset and gpu. */
START_TEST(test_dataset_imagenet_features)
{
    static const char *const family[7] = {"alexnet",  "vgg16",    "resnet18",
                                          "densenet", "mnasnet1", "shufflenet",
                                          "mobilenet"};
    struct jobset js, ref;

    load_ok(tu_src("datasets/imagenet-features-1001J.jobs.gz"), NULL, &js);
    load_ok(tu_src("datasets/imagenet-imgps-1001J.jobs.gz"), NULL, &ref);
    ck_assert_uint_eq(js.n, 1001);
    ck_assert_uint_eq(ref.n, 1001);
    for (size_t i = 0; i < js.n; i++) {
        const struct job *j = &js.jobs[i], *r = &ref.jobs[i];

        tu_assert_same_job(j, r);
        ck_assert_str_eq(job_feature(&js, j, "family"), family[i % 7]);
        ck_assert_str_eq(job_feature(&js, j, "source"), "bftrainer");
        ck_assert_str_eq(job_feature(&js, j, "dataset"), "imagenet");
        ck_assert_str_eq(job_feature(&js, j, "gpu"), "v100");
        ck_assert_ptr_null(job_feature(&ref, r, "family"));
    }
    jobset_release(&js);
    jobset_release(&ref);
}
END_TEST

/* ---- objective metrics ---------------------------------------------- */

/* Job A: Jmin 1, Jmax 4, curve 0:0:0 1:100:7 2:150:9 4:200:10, so
 * P = 0, 100, 150, 175, 200 and the O column 0, 7, 9, 9.5, 10.  Job B
 * starts at Jmin 4 with breakpoints 0:0:0 4:400:1: P(1) = 100 by
 * interpolation, so its speed-ups are n.  Job C has P(1) = 0. */
#define OBJ_JOBS                                                               \
    "# bfsim-jobs 1\n"                                                         \
    "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"                                \
    "A,0,1,4,1000,1,1,0:0:0 1:100:7 2:150:9 4:200:10\n"                        \
    "B,0,4,4,1000,1,1,0:0:0 4:400:1\n"                                         \
    "C,0,2,2,1000,1,1,0:0:0 1:0:0 2:50:1\n"

START_TEST(test_objective_tables)
{
    static const double want[JOB_N_OBJECTIVES][5] = {
        [JOB_OBJ_FILE] = {0, 7, 9, 9.5, 10},
        [JOB_OBJ_THROUGHPUT] = {0, 100, 150, 175, 200},
        [JOB_OBJ_SPEEDUP] = {0, 1, 1.5, 1.75, 2},
        /* log(1 + S): ln 2, ln 2.5, ln 2.75, ln 3 */
        [JOB_OBJ_PROP_FAIR] = {0, 0.69314718055994531, 0.91629073187415511,
                               1.0116009116784799, 1.0986122886681098},
    };
    struct jobset js;
    struct bfs_error e;
    double o[5];

    load_ok(tu_write("obj.jobs", OBJ_JOBS), NULL, &js);
    for (int k = 0; k < JOB_N_OBJECTIVES; k++) {
        ck_assert_int_eq(job_objective_parse(job_objective_name(k)), k);
        ck_assert_int_eq(job_objective_table(&js.jobs[0], k, o, "x", &e), 0);
        for (int n = 0; n <= 4; n++)
            ck_assert_msg(fabs(o[n] - want[k][n]) <= 1e-15 * (1 + want[k][n]),
                          "%s O(%d) = %.17g, want %.17g", job_objective_name(k),
                          n, o[n], want[k][n]);
    }
    ck_assert_int_eq(
        job_objective_table(&js.jobs[1], JOB_OBJ_SPEEDUP, o, "x", &e), 0);
    ck_assert_double_eq(o[4], 4.0);
    ck_assert_double_eq(o[2], 2.0);
    ck_assert_int_eq(job_objective_parse("fairness"), -1);
    jobset_release(&js);
}
END_TEST

/* A speed-up over P(1) = 0 is an error naming the file, line and job. */
START_TEST(test_objective_undefined)
{
    struct jobset js;
    struct bfs_error e;
    double o[3];

    load_ok(tu_write("obj0.jobs", OBJ_JOBS), NULL, &js);
    ck_assert_int_eq(job_objective_table(&js.jobs[2], JOB_OBJ_THROUGHPUT, o,
                                         "obj0.jobs", &e),
                     0);
    bfs_error_clear(&e);
    ck_assert_int_eq(
        job_objective_table(&js.jobs[2], JOB_OBJ_PROP_FAIR, o, "obj0.jobs", &e),
        BFS_EINVAL);
    ck_assert_msg(strstr(e.msg, "obj0.jobs:5:") && strstr(e.msg, "job C") &&
                      strstr(e.msg, "prop-fair"),
                  "%s", e.msg);
    jobset_release(&js);
}
END_TEST

static Suite *jobs_suite(void)
{
    Suite *s = suite_create("jobs");
    TCase *tc;

    tc = tcase_create("curve");
    tcase_add_test(tc, test_eval_breakpoints);
    tcase_add_test(tc, test_eval_between);
    tcase_add_test(tc, test_eval_numpy_bits);
    tcase_add_test(tc, test_eval_outside);
    tcase_add_test(tc, test_eval_two_points);
    suite_add_tcase(s, tc);

    tc = tcase_create("native");
    tcase_add_test(tc, test_native_read);
    tcase_add_test(tc, test_native_round_trip);
    tcase_add_test(tc, test_write_bad_name);
    tcase_add_test(tc, test_features);
    suite_add_tcase(s, tc);

    tc = tcase_create("objective");
    tcase_add_test(tc, test_objective_tables);
    tcase_add_test(tc, test_objective_undefined);
    suite_add_tcase(s, tc);

    tc = tcase_create("bftrainer");
    tcase_add_test(tc, test_bftrainer_pair);
    tcase_add_test(tc, test_bftrainer_quoted);
    tcase_add_test(tc, test_bftrainer_tsub_only);
    suite_add_tcase(s, tc);

    tc = tcase_create("bad");
    tcase_add_loop_test(tc, test_bad_input, 0,
                        (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(tc, test_nul_byte);
    tcase_add_test(tc, test_missing_file);
    suite_add_tcase(s, tc);

    tc = tcase_create("datasets");
    tcase_set_timeout(tc, 60);
    tu_add_shared_test(tc, test_dataset_matches_source, 0,
                       (int)(sizeof datasets / sizeof datasets[0]));
    tcase_add_test(tc, test_dataset_comments);
    tcase_add_test(tc, test_dataset_shufflenet_10);
    tcase_add_test(tc, test_dataset_shufflenet_1000);
    tcase_add_loop_test(tc, test_dataset_imagenet, 0, 2);
    tcase_add_test(tc, test_dataset_imagenet_features);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(jobs_suite());
}
