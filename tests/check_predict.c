/* check_predict.c - curves predicted from job features (engine/predict.h):
 * the regression recovers a known linear map exactly, ridge shrinks as
 * its closed form says, leaving a group out predicts the held-out curve
 * worked out by hand, the predictor file reads back to the same bits and
 * a bad one is refused with its file and line, and a replay believing a
 * prediction equal to the truth steps as one believing the truth.
 *
 * Every expected value is computed here from the Amdahl form P(n) =
 * P(1) n / (1 + s (n - 1)) and the stated closed forms, not by the code
 * under test.
 */
#include "config.h"

#include "engine/belief.h"
#include "engine/predict.h"
#include "engine/replay.h"
#include "formats/jobs.h"
#include "testreplay.h"
#include "testutil.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEAD_X "# bfsim-jobs 1\njob,tsub,jmin,jmax,pmax,tcup,tcdw,curve,x1,x2\n"
#define HEAD_F                                                                 \
    "# bfsim-jobs 1\njob,tsub,jmin,jmax,pmax,tcup,tcdw,curve,family\n"

/* Appends to buf a job line name,...,curve at counts 1, 2, 4, 8 of the
 * Amdahl curve (p1, s), then ",tail". */
static void add_job(char *buf, size_t size, const char *name, double p1,
                    double s, const char *tail)
{
    size_t n = strlen(buf);

    n += (size_t)snprintf(buf + n, size - n, "%s,1612988475,1,8,1e8,0,0,0:0:0",
                          name);
    for (int k = 1; k <= 8; k *= 2) {
        double p = p1 * k / (1 + s * (k - 1));
        n += (size_t)snprintf(buf + n, size - n, " %d:%.17g:%.17g", k, p, p);
    }
    snprintf(buf + n, size - n, ",%s\n", tail);
}

static void load(const char *name, const char *text, struct jobset *js)
{
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_msg(jobset_load(tu_write(name, text), NULL, js, &e) == 0, "%s",
                  e.msg);
}

static double logit(double s)
{
    return log(s / (1 - s));
}

/* Five curves whose log P(1) = 6 + 0.01 x1 - 0.3 x2 and logit s = -3 +
 * 0.02 x1 + 0.5 x2 exactly: with ridge 0 the fit recovers the map, so a
 * new job (x1 50, x2 4) gets P(1) = exp(5.3) and s = 1/2 (logit 0).  A
 * categorical feature, one-hot beside the intercept, is collinear at
 * ridge 0: refused. */
START_TEST(test_exact_recovery)
{
    static const double x[5][2] = {{10, 1}, {20, 3}, {40, 2}, {80, 5}, {30, 0}};
    char buf[8192] = HEAD_X, tail[64], name[16];
    struct jobset js, one;
    struct predictor p;
    struct bfs_error e;
    double p1, s;

    for (int i = 0; i < 5; i++) {
        double l1 = 6 + 0.01 * x[i][0] - 0.3 * x[i][1];
        double l2 = -3 + 0.02 * x[i][0] + 0.5 * x[i][1];
        snprintf(name, sizeof name, "J%d", i);
        snprintf(tail, sizeof tail, "%g,%g", x[i][0], x[i][1]);
        add_job(buf, sizeof buf, name, exp(l1), 1 / (1 + exp(-l2)), tail);
    }
    load("lin.jobs", buf, &js);
    load("new.jobs", HEAD_X "N,0,1,8,1,0,0,0:0:0 8:1:1,50,4\n", &one);
    bfs_error_clear(&e);
    ck_assert_msg(predictor_fit(&js, NULL, 0, "lin.jobs", &p, &e) == 0, "%s",
                  e.msg);
    ck_assert_uint_eq(p.n_terms, 2);
    ck_assert_ptr_null(p.terms[0].level);
    ck_assert_int_eq(
        predictor_params(&p, &one, &one.jobs[0], "new", &p1, &s, &e), 0);
    ck_assert_double_eq_tol(log(p1), 5.3, 1e-9);
    ck_assert_double_eq_tol(s, 0.5, 1e-9);
    /* The corpus's own jobs, too. */
    ck_assert_int_eq(
        predictor_params(&p, &js, &js.jobs[3], "lin.jobs", &p1, &s, &e), 0);
    ck_assert_double_eq_tol(log(p1), 6 + 0.8 - 1.5, 1e-9);
    ck_assert_double_eq_tol(logit(s), -3 + 1.6 + 2.5, 1e-9);
    predictor_release(&p);
    jobset_release(&one);
    jobset_release(&js);

    load("cat.jobs",
         HEAD_F "A,0,1,2,1,0,0,0:0:0 1:10:10 2:15:15,a\n"
                "B,0,1,2,1,0,0,0:0:0 1:20:20 2:30:30,b\n",
         &js);
    bfs_error_clear(&e);
    ck_assert_int_eq(predictor_fit(&js, NULL, 0, "cat.jobs", &p, &e),
                     BFS_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, "collinear"));
    jobset_release(&js);
}
END_TEST

/* Ridge on one categorical feature, two values of m = 2 curves each,
 * targets yA = log 100 and yB = log 400 (s = 0.1 for all): minimising
 * sum (y - w0 - wA [A] - wB [B])^2 + L (wA^2 + wB^2) gives w0 = (yA +
 * yB) / 2 = log 200 and wA = m (yA - w0) / (m + L) = -2 log 2 / 3 at L =
 * 1, so A's P(1) is 200 * 2^(-2/3); at L = 0.5, 200 * 2^(-0.8). */
START_TEST(test_ridge_shrinks)
{
    char buf[8192] = HEAD_F;
    struct jobset js;
    struct predictor p;
    struct bfs_error e;
    double p1, s;

    add_job(buf, sizeof buf, "A1", 100, 0.1, "A");
    add_job(buf, sizeof buf, "B1", 400, 0.1, "B");
    add_job(buf, sizeof buf, "A2", 100, 0.1, "A");
    add_job(buf, sizeof buf, "B2", 400, 0.1, "B");
    load("ridge.jobs", buf, &js);
    bfs_error_clear(&e);
    ck_assert_int_eq(predictor_fit(&js, NULL, 1, "ridge.jobs", &p, &e), 0);
    ck_assert_uint_eq(p.n_terms, 2);
    ck_assert_str_eq(p.terms[0].level, "A");
    ck_assert_str_eq(p.terms[1].level, "B");
    ck_assert_double_eq_tol(p.w0[0], log(200), 1e-12);
    ck_assert_double_eq_tol(p.w0[1], logit(0.1), 1e-9);
    ck_assert_int_eq(
        predictor_params(&p, &js, &js.jobs[0], "ridge.jobs", &p1, &s, &e), 0);
    ck_assert_double_eq_tol(p1, 200 * pow(2, -2.0 / 3), 1e-9);
    ck_assert_double_eq_tol(s, 0.1, 1e-9);
    predictor_release(&p);
    ck_assert_int_eq(predictor_fit(&js, NULL, 0.5, "ridge.jobs", &p, &e), 0);
    ck_assert_int_eq(
        predictor_params(&p, &js, &js.jobs[3], "ridge.jobs", &p1, &s, &e), 0);
    ck_assert_double_eq_tol(p1, 200 * pow(2, 0.8), 1e-9);
    predictor_release(&p);
    jobset_release(&js);
}
END_TEST

/* Leave one family out on three curves, one a family:
 *   A  1:250 2:400          (amdahl: P(1) 250, s 0.25)
 *   B  P(1) 100, s 0.1      C  P(1) 400, s 0.5
 * Holding out A, the fit on B and C has w0 = the mean of their targets
 * (one curve a value: by symmetry, whatever the ridge), A's value is
 * unseen: P(1) = sqrt(100 * 400) = 200 and logit s = (logit 0.1 +
 * logit 0.5) / 2 = -log 3, s = 1/4.  So A is predicted 200 at 1 (error
 * 50 / 250 = 0.2) and 400 / 1.25 = 320 at 2 (80 / 400 = 0.2): MAPE 0.2;
 * the intercept-only fit is the same here.  Every curve is in the "all"
 * row: 3 curves, 2 + 4 + 4 points. */
START_TEST(test_logo_hand)
{
    char buf[8192] = HEAD_F "A,1612988475,1,2,1e8,0,0,0:0:0 1:250:250 "
                            "2:400:400,A\n";
    struct jobset js;
    struct predict_logo_row *rows, all;
    struct bfs_error e;
    size_t n;

    add_job(buf, sizeof buf, "B", 100, 0.1, "B");
    add_job(buf, sizeof buf, "C", 400, 0.5, "C");
    load("logo.jobs", buf, &js);
    bfs_error_clear(&e);
    ck_assert_msg(
        predict_logo(&js, "family", 1, "logo.jobs", &rows, &n, &all, &e) == 0,
        "%s", e.msg);
    ck_assert_uint_eq(n, 3);
    ck_assert_str_eq(rows[0].group, "A");
    ck_assert_uint_eq(rows[0].curves, 1);
    ck_assert_uint_eq(rows[0].points, 2);
    ck_assert_double_eq_tol(rows[0].mape, 0.2, 1e-12);
    ck_assert_double_eq_tol(rows[0].max_ape, 0.2, 1e-12);
    ck_assert_double_eq_tol(rows[0].naive_mape, 0.2, 1e-12);
    ck_assert_str_eq(rows[2].group, "C");
    ck_assert_uint_eq(all.curves, 3);
    ck_assert_uint_eq(all.points, 10);
    bfs_error_clear(&e);
    ck_assert_double_eq_tol(
        all.mape, (rows[0].mape + rows[1].mape + rows[2].mape) / 3, 1e-15);
    xfree(rows);
    /* No such column; one group only. */
    ck_assert_int_eq(
        predict_logo(&js, "size", 1, "logo.jobs", &rows, &n, &all, &e),
        BFS_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, "no feature column 'size'"));
    jobset_release(&js);
    load("one.jobs", HEAD_F "A,0,1,2,1,0,0,0:0:0 1:10:10 2:15:15,a\n", &js);
    bfs_error_clear(&e);
    ck_assert_int_eq(
        predict_logo(&js, "family", 1, "one.jobs", &rows, &n, &all, &e),
        BFS_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, "needs two"));
    jobset_release(&js);
}
END_TEST

/* Written and read back, a predictor has the same bits, and a quoted
 * value reads back as itself. */
START_TEST(test_file_round_trip)
{
    char buf[8192] = "# bfsim-jobs 1\njob,tsub,jmin,jmax,pmax,tcup,tcdw,"
                     "curve,family,bs\n";
    const char *path = tu_tmp("rt.pred");
    const char *comments[] = {"a comment", NULL};
    struct jobset js;
    struct predictor p, q;
    struct bfs_error e;

    add_job(buf, sizeof buf, "A", 100, 0.1, "\"res,net\",32");
    add_job(buf, sizeof buf, "B", 300, 0.3, "vgg,64");
    add_job(buf, sizeof buf, "C", 700, 0.2, "vgg,");
    load("rt.jobs", buf, &js);
    bfs_error_clear(&e);
    ck_assert_int_eq(predictor_fit(&js, NULL, 0.7, "rt.jobs", &p, &e), 0);
    ck_assert_int_eq(predictor_write(path, &p, comments, &e), 0);
    ck_assert_msg(predictor_read(path, &q, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(q.n_terms, 3);
    ck_assert(q.ridge == 0.7);
    ck_assert(memcmp(p.w0, q.w0, sizeof p.w0) == 0);
    for (size_t t = 0; t < p.n_terms; t++) {
        ck_assert_str_eq(p.terms[t].feature, q.terms[t].feature);
        ck_assert_int_eq(!p.terms[t].level, !q.terms[t].level);
        if (p.terms[t].level)
            ck_assert_str_eq(p.terms[t].level, q.terms[t].level);
        ck_assert(memcmp(p.terms[t].w, q.terms[t].w, sizeof p.terms[t].w) == 0);
        ck_assert(p.terms[t].mean == q.terms[t].mean);
        ck_assert(p.terms[t].sd == q.terms[t].sd);
    }
    ck_assert_str_eq(q.terms[0].level, "res,net");
    ck_assert_ptr_null(q.terms[2].level); /* bs: numeric, mean 48 */
    ck_assert_double_eq(q.terms[2].mean, 48);
    ck_assert_double_eq(q.terms[2].sd, 16);
    predictor_release(&q);
    predictor_release(&p);
    jobset_release(&js);
}
END_TEST

#define MAGIC PREDICT_MAGIC "\n"
#define ML "model,amdahl\nlink,log-p1,logit-s\n"

/* Bad predictor files: each refused with its file, line and problem. */
START_TEST(test_bad_files)
{
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"# bfsim-jobs 1\n", ":1: not a predictor file"},
        {MAGIC "model,power\n", ":2: model 'power'"},
        {MAGIC "model,amdahl\nlink,log-p1,s\n", ":3: link 'log-p1,s'"},
        {MAGIC "# c\nfoo,1\n", ":3: unknown record 'foo'"},
        {MAGIC ML "intercept,1\n", ":4: record intercept has 2 fields, not 3"},
        {MAGIC ML "intercept,1,x\n",
         ":4: field 3 of the intercept record ('x') is not a finite number"},
        {MAGIC ML "intercept,1,2\nintercept,1,2\n",
         ":5: a second intercept record"},
        {MAGIC ML "ridge,-1\n", ":4: ridge -1 is negative"},
        {MAGIC ML "intercept,1,2\nnumeric,b,1,0,1,1\n",
         ":5: feature b: standard deviation 0 is not > 0"},
        {MAGIC ML "intercept,1,2\nlevel,f,a,1,1\nlevel,f,a,2,2\n",
         ":6: feature f: a second term for value 'a'"},
        {MAGIC ML "intercept,1,2\nlevel,f,a,1,1\nnumeric,f,0,1,2,2\n",
         ":6: feature f: a second numeric term"},
        {MAGIC ML "intercept,1,2\nlevel,,a,1,1\n",
         ":5: a level record with an empty feature name"},
        {MAGIC ML "intercept,1,2\nlevel,\"f,1,1\n", ":5: column 7"},
        {MAGIC ML "\n", ":4: no intercept record before the end of the file"},
        {MAGIC "link,log-p1,logit-s\nintercept,1,2\n",
         ":3: no model record before the end of the file"},
        {"", "empty file"},
    };
    char name[32];

    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct predictor p;
        struct bfs_error e;
        const char *path;

        snprintf(name, sizeof name, "bad%zu.pred", i);
        path = tu_write(name, bad[i].text);
        bfs_error_clear(&e);
        ck_assert_int_eq(predictor_read(path, &p, &e), BFS_EPARSE);
        ck_assert_msg(strstr(e.msg, name) && strstr(e.msg, bad[i].want),
                      "case %zu: '%s' lacks '%s'", i, e.msg, bad[i].want);
    }
}
END_TEST

/* A corpus curve without two counts, and a numeric feature's value that
 * is not a number in a job to predict: refused at their lines. */
START_TEST(test_bad_jobs)
{
    struct jobset js, x;
    struct predictor p;
    struct bfs_error e;
    double p1, s;

    load("short.jobs",
         HEAD_F "A,0,1,2,1,0,0,0:0:0 1:10:10 2:15:15,a\n"
                "B,0,1,2,1,0,0,0:0:0 1:0:0 2:20:20,b\n",
         &js);
    bfs_error_clear(&e);
    ck_assert_int_eq(predictor_fit(&js, NULL, 1, "short.jobs", &p, &e),
                     BFS_EINVAL);
    ck_assert_ptr_nonnull(
        strstr(e.msg, "short.jobs:4: job B: fewer than two counts"));
    jobset_release(&js);
    load("num.jobs",
         HEAD_X "A,0,1,2,1,0,0,0:0:0 1:10:10 2:15:15,1,2\n"
                "B,0,1,2,1,0,0,0:0:0 1:10:10 2:20:20,3,5\n",
         &js);
    ck_assert_int_eq(predictor_fit(&js, NULL, 1, "num.jobs", &p, &e), 0);
    load("nan.jobs", HEAD_X "C,0,1,2,1,0,0,0:0:0 2:1:1,big,\n", &x);
    bfs_error_clear(&e);
    ck_assert_int_eq(
        predictor_params(&p, &x, &x.jobs[0], "nan.jobs", &p1, &s, &e),
        BFS_EINVAL);
    ck_assert_msg(
        strstr(e.msg, "nan.jobs:3: job C: feature x1 is 'big', not a number"),
        "%s", e.msg);
    /* A blank value is no value: C's x2 contributes nothing. */
    predictor_release(&p);
    jobset_release(&x);
    jobset_release(&js);
}
END_TEST

/* Replays the bundled trace with jobs under belief (NULL: true); returns
 * the step log. */
static char *replay_steps(const char *jobs, const char *belief, const char *tag,
                          struct replay_stats *st)
{
    struct replay_opts o;
    struct bfs_error e;
    char name[64];
    const char *steps;
    char *out;

    snprintf(name, sizeof name, "%s.steps", tag);
    steps = tu_tmp(name);
    replay_opts_default(&o);
    o.alloc.name = "dp";
    o.trace_path = tu_src("traces/summit-2021-02.trace.gz");
    o.jobs_path = jobs;
    if (belief)
        ck_assert_int_eq(belief_opts_parse(belief, &o.belief), 0);
    bfs_error_clear(&e);
    ck_assert_msg(tu_replay(&o, steps, st, &e) == 0, "%s", e.msg);
    out = tu_slurp(steps);
    ck_assert_ptr_nonnull(out);
    return out;
}

/* A predictor (written by hand) whose curves are the job set's own:
 * log P(1) = 7 + 0.5 [family = a], logit s = -2 - 1 [family = a], and
 * the truth written at every count 0..8 from the same parameters.  The
 * replay with --belief predict:FILE steps as with --belief true, with no
 * belief error; one with another intercept does not match the truth. */
START_TEST(test_replay_equal_prediction)
{
    static const char *const fam[3] = {"a", "b", ""};
    const char *pred = tu_write("eq.pred", MAGIC ML "ridge,1\n"
                                                    "intercept,7,-2\n"
                                                    "level,family,a,0.5,-1\n");
    const char *off = tu_write("off.pred", MAGIC ML "intercept,7.1,-2\n"
                                                    "level,family,a,0.5,-1\n");
    char buf[8192] = HEAD_F, arg[4200];
    const char *jobs;
    struct jobset js, bel;
    struct replay_stats st;
    struct bfs_error e;
    char *t, *f;

    for (int j = 0; j < 3; j++) {
        double l1 = 7 + (j == 0 ? 0.5 : 0), l2 = -2 - (j == 0 ? 1 : 0);
        double p1 = exp(l1), s = 1 / (1 + exp(-l2));
        size_t n = strlen(buf);

        n += (size_t)snprintf(buf + n, sizeof buf - n,
                              "J%d,%d,1,8,3e7,18,12,0:0:0", j,
                              1612988475 + 600 * j);
        for (int k = 1; k <= 8; k++) {
            double p = k / ((s / p1) * k + (1 - s) / p1);
            n += (size_t)snprintf(buf + n, sizeof buf - n, " %d:%.17g:%.17g", k,
                                  p, p);
        }
        snprintf(buf + n, sizeof buf - n, ",%s\n", fam[j]);
    }
    jobs = tu_write("eq.jobs", buf);
    /* The predicted curves are the truth's, bit for bit. */
    load("eq.jobs", buf, &js);
    bfs_error_clear(&e);
    ck_assert_msg(predict_jobset(pred, &js, "eq.jobs", &bel, &e) == 0, "%s",
                  e.msg);
    ck_assert_uint_eq(bel.n, 3);
    for (size_t j = 0; j < 3; j++) {
        ck_assert_str_eq(bel.jobs[j].name, js.jobs[j].name);
        ck_assert_uint_eq(bel.jobs[j].curve.n, 9);
        for (size_t k = 0; k < 9; k++)
            ck_assert(bel.jobs[j].curve.P[k] == js.jobs[j].curve.P[k]);
    }
    jobset_release(&bel);
    jobset_release(&js);

    t = replay_steps(jobs, NULL, "eq-t", &st);
    snprintf(arg, sizeof arg, "predict:%s", pred);
    f = replay_steps(jobs, arg, "eq-p", &st);
    ck_assert_ptr_nonnull(strstr(t, "\n2021-02-10 20:24:07,")); /* a step */
    ck_assert_str_eq(t, f);
    ck_assert_str_eq(st.belief, arg);
    ck_assert_double_eq(st.belief_error_final, 0.0);
    free(f);
    snprintf(arg, sizeof arg, "predict:%s", off);
    f = replay_steps(jobs, arg, "eq-o", &st);
    /* Every job believed exp(0.1) = 1.105 times too fast at every count
     * (P(n) is proportional to P(1) at a fixed s), so the error of every
     * job that ran is exp(0.1) - 1, and so is their node-second-weighted
     * mean. */
    ck_assert_double_eq_tol(st.belief_error_final, exp(0.1) - 1, 1e-9);
    free(f);
    free(t);
}
END_TEST

static Suite *predict_suite(void)
{
    Suite *s = suite_create("predict");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, test_exact_recovery);
    tcase_add_test(tc, test_ridge_shrinks);
    tcase_add_test(tc, test_logo_hand);
    tcase_add_test(tc, test_file_round_trip);
    tcase_add_test(tc, test_bad_files);
    tcase_add_test(tc, test_bad_jobs);
    tcase_add_test(tc, test_replay_equal_prediction);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(predict_suite());
}
