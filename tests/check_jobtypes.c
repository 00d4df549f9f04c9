/* check_jobtypes.c - tests of node types in job sets (src/formats/jobs.c,
 * tools/DESIGN.md "Node types").
 *
 * The speed and curve@TYPE columns of native job files on small
 * hand-written files; one loop test per bad input, asserting the whole
 * "file:line: problem" message; the write/read round trip, bit for bit,
 * and the exact text written; job_type_tables against tables computed by
 * hand (in the comments) for every objective; the bundled
 * heterogeneous job sets against the published measurements their speed
 * factors come from and the job set their curves come from; and the
 * Summit node-type map against the trace's node list, through the C
 * host-list reader (the map was written by a Python script).
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/hostlist.h"
#include "formats/jobs.h"
#include "formats/trace.h"
#include "testjobs.h"
#include "testutil.h"

#define HEAD "# bfsim-jobs 1\njob,tsub,jmin,jmax,pmax,tcup,tcdw,curve"
#define REF "0:0:0 1:10:4 2:16:6 4:28:9"

static void load_ok(const char *path, struct jobset *js)
{
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_msg(jobset_load(path, NULL, js, &e) == 0, "%s", e.msg);
}

/* The type named name of job j, or NULL. */
static const struct job_type *find_type(const struct job *j, const char *name)
{
    for (size_t k = 0; k < j->n_types; k++)
        if (strcmp(j->types[k].type, name) == 0)
            return &j->types[k];
    return NULL;
}

/* ---- reading --------------------------------------------------------- */

START_TEST(test_read_types)
{
    /* Columns in another order; the type columns between others. */
    const char *p =
        tu_write("t.jobs",
                 "# bfsim-jobs 1\n"
                 "curve@T4,job,tsub,jmin,jmax,pmax,tcup,tcdw,speed,curve,note\n"
                 /* factors, one 0 (dropped), names out of order */
                 ",A,0,1,4,100,1,1,V100:1  A100:2.5\tK80:0," REF ",x\n"
                 "# a comment\n"
                 /* a curve and a factor */
                 "0:0:0 1:4:1 2:8:3 4:12:5,B,0,1,4,100,1,1,A100:0.5," REF ",\n"
                 /* nothing listed: blank fields */
                 " ,C,0,1,4,100,1,1,  ," REF ",\n");
    struct jobset js;
    const struct job *a, *b, *c;

    load_ok(p, &js);
    ck_assert_uint_eq(js.n, 3);
    a = &js.jobs[0];
    b = &js.jobs[1];
    c = &js.jobs[2];
    /* Sorted by name, K80:0 left out. */
    ck_assert_uint_eq(a->n_types, 2);
    ck_assert_str_eq(a->types[0].type, "A100");
    ck_assert(a->types[0].speed == 2.5);
    ck_assert_uint_eq(a->types[0].curve.n, 0);
    ck_assert_str_eq(a->types[1].type, "V100");
    ck_assert(a->types[1].speed == 1);
    ck_assert_ptr_null(find_type(a, "K80"));
    ck_assert_uint_eq(a->line, 3);

    ck_assert_uint_eq(b->n_types, 2);
    ck_assert_str_eq(b->types[0].type, "A100");
    ck_assert(b->types[0].speed == 0.5);
    ck_assert_str_eq(b->types[1].type, "T4");
    ck_assert_uint_eq(b->types[1].curve.n, 4);
    ck_assert(b->types[1].curve.N[3] == 4);
    ck_assert(b->types[1].curve.P[3] == 12);
    ck_assert(b->types[1].curve.O[2] == 3);
    ck_assert_uint_eq(b->line, 5);

    ck_assert_uint_eq(c->n_types, 0);
    ck_assert_ptr_null(c->types);
    jobset_release(&js);
    ck_assert_uint_eq(js.n, 0);
}
END_TEST

/* A file without type columns, or with empty ones, lists no type. */
START_TEST(test_read_untyped)
{
    const char *p = tu_write("u.jobs", HEAD ",speed,curve@A100\n"
                                            "A,0,1,4,100,1,1," REF ",,\n");
    struct jobset js;

    load_ok(p, &js);
    ck_assert_uint_eq(js.jobs[0].n_types, 0);
    jobset_release(&js);
    load_ok(tu_good_jobs(), &js);
    ck_assert_uint_eq(js.jobs[0].n_types, 0);
    jobset_release(&js);
}
END_TEST

/* ---- bad input ------------------------------------------------------- */

#define ROW "A,0,1,2,100,1,1,0:0:0 1:1:1 2:2:2"

static const struct {
    const char *text;
    size_t line;
    const char *msg;
} bad[] = {
    /* header */
    {HEAD ",curve@\n", 2, "column \"curve@\": the node type name is empty"},
    {HEAD ",curve@A B\n", 2,
     "column \"curve@A B\": the node type name holds a blank"},
    {HEAD ",curve@A:B\n", 2,
     "column \"curve@A:B\": the node type name holds ':'"},
    {HEAD ",curve@A,speed,curve@B,curve@A\n", 2,
     "column curve@A appears twice"},
    {HEAD ",speed,speed\n", 2, "column speed appears twice"},
    /* speed entries */
    {HEAD ",speed\n" ROW ",V100\n", 3,
     "speed entry \"V100\" of job A is not TYPE:FACTOR"},
    {HEAD ",speed\n" ROW ",V100:1:2\n", 3,
     "speed entry \"V100:1:2\" of job A is not TYPE:FACTOR"},
    {HEAD ",speed\n" ROW ",:1\n", 3,
     "speed entry \":1\" of job A: the node type name is empty"},
    {HEAD ",speed\n" ROW ",V100:\n", 3,
     "speed factor \"\" for node type V100 of job A is not a number"},
    {HEAD ",speed\n" ROW ",V100:fast\n", 3,
     "speed factor \"fast\" for node type V100 of job A is not a number"},
    {HEAD ",speed\n" ROW ",V100:inf\n", 3,
     "speed factor \"inf\" for node type V100 of job A is not a finite "
     "number"},
    {HEAD ",speed\n" ROW ",V100:nan\n", 3,
     "speed factor \"nan\" for node type V100 of job A is not a finite "
     "number"},
    {HEAD ",speed\n" ROW ",V100:-0.5\n", 3,
     "speed factor -0.5 for node type V100 of job A is negative"},
    {HEAD ",speed\n" ROW ",V100:1 A100:2 V100:1\n", 3,
     "node type V100 appears twice in the speed of job A"},
    {HEAD ",speed\n" ROW ",V100:1e308\n", 3,
     "speed factor 1e+308 for node type V100 of job A makes its curve "
     "overflow (P or O times the factor is not finite)"},
    /* a factor and a curve, even a factor of 0 */
    {HEAD ",speed,curve@A100\n" ROW ",A100:0,0:0:0 2:1:1\n", 3,
     "node type A100 of job A has both a speed factor and a curve "
     "(curve@A100)"},
    /* the type curves follow the reference curve's rules */
    {HEAD ",curve@A100\n" ROW ",1:1:1 2:2:2\n", 3,
     "curve@A100 of job A has no point N=0"},
    {HEAD ",curve@A100\n" ROW ",0:0:0 1:1:1\n", 3,
     "curve@A100 of job A ends at N=1, below Jmax 2"},
    {HEAD ",curve@A100\n" ROW ",0:0:0 2:-1:1\n", 3,
     "curve@A100 of job A: negative P -1 at N=2"},
    {HEAD ",curve@A100\n" ROW ",0:0:0 2:1\n", 3,
     "curve@A100 point \"2:1\" of job A is not N:P:O"},
    {HEAD ",curve@A100\n" ROW ",0:0:0 2:1:1 2:3:3\n", 3,
     "curve@A100 of job A: N 2 does not exceed the previous N 2"},
    /* listed, none usable; the error is on the job's own line */
    {HEAD ",speed\n" ROW ",V100:1\n"
          "A2,0,1,2,100,1,1,0:0:0 2:2:2,A100:0 V100:0\n",
     4,
     "job A2 lists node types but can run on none (every speed factor is "
     "0)"},
};

START_TEST(test_bad)
{
    struct jobset js = {.n = 42, .jobs = (struct job *)&js};
    struct bfs_error e;
    char name[32], want[1024];
    const char *p;
    int rc;

    snprintf(name, sizeof name, "bad%d.jobs", _i);
    p = tu_write(name, bad[_i].text);
    bfs_error_clear(&e);
    rc = jobset_load(p, NULL, &js, &e);
    ck_assert_int_lt(rc, 0);
    ck_assert_int_eq(e.code, rc);
    ck_assert_uint_eq(js.n, 42);
    snprintf(want, sizeof want, "%s:%zu: %s", p, bad[_i].line, bad[_i].msg);
    ck_assert_str_eq(e.msg, want);
}
END_TEST

/* ---- writing ----------------------------------------------------------- */

/* Types and factors that need 17 digits read back to the same doubles;
 * the text written is the one below, and writing what was read gives it
 * again. */
START_TEST(test_round_trip)
{
    const char *p1 = tu_tmp("rt1.jobs"), *p2 = tu_tmp("rt2.jobs");
    const char *in =
        tu_write("rt.jobs",
                 HEAD ",curve@B,speed,\"curve@x,y\"\n"
                      "J1,0,1,2,100,1,1,0:0:0 2:2:2,0:0:0 2:0.1:-3,A:0.1,\n"
                      "J2,0,1,2,100,1,1,0:0:0 2:2:2,,B:1 A:0.3333333333333333,"
                      "0:0:0 1:5:5 3:7:1\n"
                      "J3,0,1,2,100,1,1,0:0:0 2:2:2,,,\n");
    static const char want[] =
        "# bfsim-jobs 1\n"
        "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve,speed,curve@B,\"curve@x,y\"\n"
        "J1,0,1,2,100,1,1,0:0:0 2:2:2,A:0.1,0:0:0 2:0.1:-3,\n"
        "J2,0,1,2,100,1,1,0:0:0 2:2:2,A:0.3333333333333333 B:1,,"
        "0:0:0 1:5:5 3:7:1\n"
        "J3,0,1,2,100,1,1,0:0:0 2:2:2,,,\n";
    struct jobset a, b;
    struct bfs_error e;
    char *t1, *t2;

    load_ok(in, &a);
    bfs_error_clear(&e);
    ck_assert_msg(jobset_write(p1, &a, NULL, &e) == 0, "%s", e.msg);
    t1 = tu_slurp(p1);
    ck_assert_str_eq(t1, want);
    load_ok(p1, &b);
    ck_assert_uint_eq(a.n, b.n);
    for (size_t i = 0; i < a.n; i++) {
        const struct job *x = &a.jobs[i], *y = &b.jobs[i];
        ck_assert_uint_eq(x->n_types, y->n_types);
        for (size_t k = 0; k < x->n_types; k++) {
            const struct job_type *s = &x->types[k], *t = &y->types[k];
            ck_assert_str_eq(s->type, t->type);
            ck_assert(memcmp(&s->speed, &t->speed, sizeof s->speed) == 0);
            ck_assert_uint_eq(s->curve.n, t->curve.n);
            for (size_t m = 0; m < s->curve.n; m++) {
                ck_assert(s->curve.N[m] == t->curve.N[m]);
                ck_assert(memcmp(&s->curve.P[m], &t->curve.P[m],
                                 sizeof(double)) == 0);
                ck_assert(memcmp(&s->curve.O[m], &t->curve.O[m],
                                 sizeof(double)) == 0);
            }
        }
    }
    ck_assert(b.jobs[1].types[0].speed == 1.0 / 3);
    ck_assert(b.jobs[0].types[1].curve.P[1] == 0.1);
    ck_assert_msg(jobset_write(p2, &b, NULL, &e) == 0, "%s", e.msg);
    t2 = tu_slurp(p2);
    ck_assert_str_eq(t1, t2);
    free(t1);
    free(t2);
    jobset_release(&a);
    jobset_release(&b);
}
END_TEST

/* A set without types is written without the type columns. */
START_TEST(test_write_untyped)
{
    const char *p = tu_tmp("u.jobs");
    struct jobset js;
    struct bfs_error e;
    char *t;

    load_ok(tu_good_jobs(), &js);
    bfs_error_clear(&e);
    ck_assert_msg(jobset_write(p, &js, NULL, &e) == 0, "%s", e.msg);
    t = tu_slurp(p);
    ck_assert_str_eq(t, TU_GOOD_JOBS);
    free(t);
    jobset_release(&js);
}
END_TEST

/* Names and factors the reader would refuse are not written. */
START_TEST(test_write_bad_types)
{
    static const struct {
        const char *type;
        double speed;
        const char *msg;
    } t[] = {
        {"", 1, "job A: node type name \"\" cannot be written (it is empty)"},
        {"a b", 1,
         "job A: node type name \"a b\" cannot be written (it holds a "
         "blank)"},
        {"a:b", 1,
         "job A: node type name \"a:b\" cannot be written (it holds ':')"},
        {"a\nb", 1,
         "job A: node type name \"a\nb\" cannot be written (it holds a line "
         "break)"},
        {"V100", 0, "job A: speed factor 0 for node type V100 is not > 0"},
    };
    const char *p = tu_tmp("w.jobs");
    char want[256];

    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        struct jobset js;
        char name[16];
        struct job_type jt = {name, t[i].speed, {0}};
        struct bfs_error e;

        snprintf(name, sizeof name, "%s", t[i].type);
        load_ok(tu_good_jobs(), &js);
        js.jobs[0].n_types = 1;
        js.jobs[0].types = &jt;
        bfs_error_clear(&e);
        ck_assert_int_eq(jobset_write(p, &js, NULL, &e), BFS_EINVAL);
        snprintf(want, sizeof want, "%s: %s", p, t[i].msg);
        ck_assert_str_eq(e.msg, want);
        ck_assert(!tu_exists(p));
        js.jobs[0].n_types = 0;
        js.jobs[0].types = NULL;
        jobset_release(&js);
    }
}
END_TEST

/* ---- job_type_tables ------------------------------------------------- */

/* Job J: jmax 4, reference curve REF (P 0 10 16 28 at N 0 1 2 4, O 0 4 6
 * 9), so P(1) = 10 and, between 2 and 4, P(3) = 16 + 12/2 = 22 and O(3)
 * = 6 + 3/2 = 7.5.  On A100 factor 2.5, on T4 its own curve (P 0 4 8 12
 * at N 0 1 2 4, O 0 1 3 5: P(3) = 10, O(3) = 4); K80 not listed (0). */
static const char jt_text[] =
    HEAD ",speed,curve@T4\n"
         "J,0,1,4,100,1,1," REF ",A100:2.5 K80:0,0:0:0 1:4:1 2:8:3 4:12:5\n"
         "U,0,1,4,100,1,1," REF ",,\n"
         "Z,0,1,2,100,1,1,0:0:0 1:0:1 2:4:2,A100:2,\n";

static const struct {
    const char *type;
    int objective;
    double p[5], o[5];
} tables[] = {
    /* Reference: P; O by objective. */
    {NULL, JOB_OBJ_FILE, {0, 10, 16, 22, 28}, {0, 4, 6, 7.5, 9}},
    {NULL, JOB_OBJ_THROUGHPUT, {0, 10, 16, 22, 28}, {0, 10, 16, 22, 28}},
    /* P / 10 */
    {NULL, JOB_OBJ_SPEEDUP, {0, 10, 16, 22, 28}, {0, 1, 1.6, 2.2, 2.8}},
    /* log(1 + P / 10): ln 2, ln 2.6, ln 3.2, ln 3.8 (Python's math.log) */
    {NULL,
     JOB_OBJ_PROP_FAIR,
     {0, 10, 16, 22, 28},
     {0, 0.6931471805599453, 0.9555114450274363, 1.1631508098056809,
      1.33500106673234}},
    /* A100: P = 2.5 P_ref = 0 25 40 55 70; file: 2.5 O_ref. */
    {"A100", JOB_OBJ_FILE, {0, 25, 40, 55, 70}, {0, 10, 15, 18.75, 22.5}},
    {"A100", JOB_OBJ_THROUGHPUT, {0, 25, 40, 55, 70}, {0, 25, 40, 55, 70}},
    /* against the reference P(1) = 10, not the type's 25 */
    {"A100", JOB_OBJ_SPEEDUP, {0, 25, 40, 55, 70}, {0, 2.5, 4, 5.5, 7}},
    /* ln 3.5, ln 5, ln 6.5, ln 8 */
    {"A100",
     JOB_OBJ_PROP_FAIR,
     {0, 25, 40, 55, 70},
     {0, 1.252762968495368, 1.6094379124341003, 1.8718021769015913,
      2.0794415416798357}},
    /* T4: its own curve; file: its own O column. */
    {"T4", JOB_OBJ_FILE, {0, 4, 8, 10, 12}, {0, 1, 3, 4, 5}},
    {"T4", JOB_OBJ_THROUGHPUT, {0, 4, 8, 10, 12}, {0, 4, 8, 10, 12}},
    {"T4", JOB_OBJ_SPEEDUP, {0, 4, 8, 10, 12}, {0, 0.4, 0.8, 1, 1.2}},
    /* ln 1.4, ln 1.8, ln 2, ln 2.2 */
    {"T4",
     JOB_OBJ_PROP_FAIR,
     {0, 4, 8, 10, 12},
     {0, 0.3364722366212129, 0.5877866649021191, 0.6931471805599453,
      0.7884573603642703}},
};

START_TEST(test_tables)
{
    const char *path = tu_write("jt.jobs", jt_text);
    struct jobset js;
    struct bfs_error e;
    double p[5], o[5];
    int log = tables[_i].objective == JOB_OBJ_PROP_FAIR;

    load_ok(path, &js);
    bfs_error_clear(&e);
    ck_assert_int_eq(job_type_tables(&js.jobs[0], tables[_i].type,
                                     tables[_i].objective, p, o, path, &e),
                     1);
    for (int n = 0; n <= 4; n++) {
        /* Exact: the products and quotients are correctly rounded, as
         * the literals are; the logarithms to 1e-15. */
        ck_assert_msg(p[n] == tables[_i].p[n], "p[%d] = %.17g", n, p[n]);
        if (log)
            ck_assert_double_eq_tol(o[n], tables[_i].o[n], 1e-15);
        else
            ck_assert_msg(o[n] == tables[_i].o[n], "o[%d] = %.17g", n, o[n]);
    }
    jobset_release(&js);
}
END_TEST

/* Type NULL gives job_objective_table's tables to the bit, for a typed
 * and an untyped job; an untyped job runs on any type with them. */
START_TEST(test_tables_reference)
{
    const char *path = tu_write("jt.jobs", jt_text);
    struct jobset js;
    struct bfs_error e;
    double p[5], o[5], want[5];

    load_ok(path, &js);
    for (size_t i = 0; i < 2; i++)
        for (int obj = 0; obj < JOB_N_OBJECTIVES; obj++) {
            const char *types[] = {NULL, "A100", "whatever"};
            bfs_error_clear(&e);
            ck_assert_int_eq(
                job_objective_table(&js.jobs[i], obj, want, path, &e), 0);
            for (size_t t = 0; t < 3; t++) {
                /* J runs on A100 at another speed and not on "whatever". */
                if (i == 0 && t > 0)
                    continue;
                ck_assert_int_eq(
                    job_type_tables(&js.jobs[i], types[t], obj, p, o, path, &e),
                    1);
                ck_assert(memcmp(o, want, sizeof o) == 0);
                for (int n = 0; n <= 4; n++)
                    ck_assert(p[n] == tables[0].p[n]);
            }
        }
    jobset_release(&js);
}
END_TEST

/* A type the job does not list, or lists with factor 0, is one it does
 * not run on: 0, tables untouched. */
START_TEST(test_tables_unusable)
{
    const char *path = tu_write("jt.jobs", jt_text);
    const char *types[] = {"K80", "V100", "a100"};
    struct jobset js;
    struct bfs_error e;
    double p[5], o[5];

    load_ok(path, &js);
    for (size_t t = 0; t < 3; t++) {
        for (int n = 0; n < 5; n++)
            p[n] = o[n] = -7;
        bfs_error_clear(&e);
        ck_assert_int_eq(job_type_tables(&js.jobs[0], types[t], JOB_OBJ_FILE, p,
                                         o, path, &e),
                         0);
        for (int n = 0; n < 5; n++)
            ck_assert(p[n] == -7 && o[n] == -7);
    }
    /* A factor of 0 set in memory counts as not listed too. */
    js.jobs[0].types[0].speed = 0;
    ck_assert_str_eq(js.jobs[0].types[0].type, "A100");
    ck_assert_int_eq(
        job_type_tables(&js.jobs[0], "A100", JOB_OBJ_FILE, p, o, path, &e), 0);
    ck_assert(p[0] == -7);
    jobset_release(&js);
}
END_TEST

/* A shallow copy with a lower jmax asks for fewer entries. */
START_TEST(test_tables_jmax)
{
    const char *path = tu_write("jt.jobs", jt_text);
    struct jobset js;
    struct job d;
    struct bfs_error e;
    double p[5], o[5];

    load_ok(path, &js);
    d = js.jobs[0];
    d.jmax = 2;
    for (int n = 0; n < 5; n++)
        p[n] = o[n] = -7;
    bfs_error_clear(&e);
    ck_assert_int_eq(
        job_type_tables(&d, "A100", JOB_OBJ_THROUGHPUT, p, o, path, &e), 1);
    ck_assert(p[2] == 40 && o[2] == 40);
    ck_assert(p[3] == -7 && o[3] == -7);
    jobset_release(&js);
}
END_TEST

/* The speed-up is over the reference's P(1): undefined when it is 0,
 * even on a type where the job is fast. */
START_TEST(test_tables_undefined)
{
    const char *path = tu_write("jt.jobs", jt_text);
    struct jobset js;
    struct bfs_error e;
    double p[3], o[3];
    char want[512];

    load_ok(path, &js);
    bfs_error_clear(&e);
    ck_assert_int_eq(
        job_type_tables(&js.jobs[2], "A100", JOB_OBJ_PROP_FAIR, p, o, path, &e),
        BFS_EINVAL);
    snprintf(want, sizeof want,
             "%s:5: job Z: P(1) = 0, so its speed-up (--objective prop-fair) "
             "is undefined",
             path);
    ck_assert_str_eq(e.msg, want);
    /* The file objective needs no P(1): 2 O = 0 2 4. */
    ck_assert_int_eq(
        job_type_tables(&js.jobs[2], "A100", JOB_OBJ_FILE, p, o, path, &e), 1);
    ck_assert(p[1] == 0 && p[2] == 8);
    ck_assert(o[0] == 0 && o[1] == 2 && o[2] == 4);
    jobset_release(&js);
}
END_TEST

/* ---- the bundled heterogeneous sets ----------------------------------- */

/* Per model (the i-th job's is models[i mod 5]): the best samples/s on
 * one GPU (hetero_best_by_workers.csv, workers=1) on Sia's azure V100, Sia's
 * dgx-ext A100 and Pollux's T4, and the factors A100 / V100 and T4 /
 * V100 to 4 significant digits, worked out by hand:
 * bert 140.4415 / 42.23526 = 3.3252, 13.02202 / 42.23526 = 0.30832. */
static const struct {
    const char *model;
    double v100, a100, t4;
    double fa100, ft4;
} hetero[] = {
    {"bert", 42.23526, 140.4415, 13.02202, 3.325, 0.3083},
    {"cifar10", 4738.18, 10062.55, 1461.352, 2.124, 0.3084},
    {"deepspeech2", 80.71959, 77.50461, 35.66085, 0.9602, 0.4418},
    {"imagenet", 673.2372, 1034.011, 216.5602, 1.536, 0.3217},
    {"yolov3", 71.57609, 81.40967, 27.94233, 1.137, 0.3904},
};

static const struct {
    const char *file, *ref;
    size_t n;
} hetero_sets[] = {
    {"datasets/hetero-10J.jobs", "datasets/hps-shufflenet-10J.jobs", 10},
    {"datasets/hetero-1000J.jobs.gz", "datasets/hps-shufflenet-1000J.jobs.gz",
     1000},
};

START_TEST(test_hetero_factors)
{
    /* The rounded factors are the published ratios. */
    for (size_t m = 0; m < 5; m++) {
        double ra = hetero[m].a100 / hetero[m].v100;
        double rt = hetero[m].t4 / hetero[m].v100;
        ck_assert_msg(fabs(hetero[m].fa100 - ra) <= 5e-4 * ra, "%s",
                      hetero[m].model);
        ck_assert_msg(fabs(hetero[m].ft4 - rt) <= 5e-4 * rt, "%s",
                      hetero[m].model);
    }
}
END_TEST

START_TEST(test_hetero_set)
{
    struct jobset js, ref;

    load_ok(tu_src(hetero_sets[_i].file), &js);
    load_ok(tu_src(hetero_sets[_i].ref), &ref);
    ck_assert_uint_eq(js.n, hetero_sets[_i].n);
    ck_assert_uint_eq(ref.n, js.n);
    for (size_t i = 0; i < js.n; i++) {
        const struct job *j = &js.jobs[i], *r = &ref.jobs[i];
        size_t m = i % 5;

        /* The reference set's job, unchanged... */
        tu_assert_same_job(j, r);
        /* ... on three types, at its model's factors. */
        ck_assert_uint_eq(j->n_types, 3);
        ck_assert_str_eq(j->types[0].type, "A100");
        ck_assert_str_eq(j->types[1].type, "T4");
        ck_assert_str_eq(j->types[2].type, "V100");
        ck_assert_msg(j->types[0].speed == hetero[m].fa100, "job %s", j->name);
        ck_assert_msg(j->types[1].speed == hetero[m].ft4, "job %s", j->name);
        ck_assert(j->types[2].speed == 1);
    }
    jobset_release(&js);
    jobset_release(&ref);
}
END_TEST

/* datasets/summit-2types.map names every node of the Summit trace once:
 * rows a-e V100, f-h A100.  The trace has, per row, 36, 36, 26, 35, 26,
 * 37, 37 and 30 cabinets of 18 nodes: 2,862 V100 (161 cabinets) and
 * 1,872 A100 (104). */
START_TEST(test_summit_map)
{
    const char *trace = tu_src("traces/summit-2021-02.trace.gz");
    const char *map = tu_src("datasets/summit-2types.map");
    struct trace_reader *r;
    struct hostlist_index *ix = hostlist_index_new();
    struct hostlist h;
    struct bfs_error e;
    size_t n, *hits, v100 = 0, a100 = 0, lines = 0;
    char *text = tu_slurp(map), *line, *next;

    ck_assert_ptr_nonnull(text);
    bfs_error_clear(&e);
    ck_assert_msg(trace_open(trace, &r, &e) == 0, "%s", e.msg);
    n = trace_node_count(r);
    ck_assert_uint_eq(n, 4734);
    for (size_t i = 0; i < n; i++)
        ck_assert(hostlist_index_add(ix, trace_node_name(r, i), i) == 1);
    hits = xcalloc(n, sizeof *hits);
    hostlist_init(&h);
    for (line = text; *line; line = next) {
        char *w[3];
        size_t nw;

        next = strchr(line, '\n');
        ck_assert_ptr_nonnull(next); /* every line ends */
        *next++ = '\0';
        nw = bfs_split_ws(line, w, 3);
        ck_assert_uint_eq(nw, 2);
        ck_assert(strcmp(w[1], "V100") == 0 || strcmp(w[1], "A100") == 0);
        lines++;
        hostlist_clear(&h);
        ck_assert_msg(
            hostlist_expand(&h, w[0], 100000, "limit", map, lines, &e) == 0,
            "%s", e.msg);
        for (size_t k = 0; k < h.n; k++) {
            size_t i = hostlist_index_find(ix, h.names[k]);
            ck_assert_msg(i != (size_t)-1, "%s is not in the trace",
                          h.names[k]);
            hits[i]++;
            *(w[1][0] == 'V' ? &v100 : &a100) += 1;
            /* The rule: the cabinet row letter. */
            ck_assert_int_eq(w[1][0] == 'A', h.names[k][0] >= 'f');
        }
    }
    ck_assert_uint_eq(lines, 8);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(hits[i] == 1, "%s named %zu times", trace_node_name(r, i),
                      hits[i]);
    ck_assert_uint_eq(v100, 2862);
    ck_assert_uint_eq(a100, 1872);
    hostlist_release(&h);
    free(hits);
    free(text);
    hostlist_index_free(ix);
    trace_close(r);
}
END_TEST

static Suite *jobtypes_suite(void)
{
    Suite *s = suite_create("jobtypes");
    TCase *tc;

    tc = tcase_create("read");
    tcase_add_test(tc, test_read_types);
    tcase_add_test(tc, test_read_untyped);
    tcase_add_loop_test(tc, test_bad, 0, (int)(sizeof bad / sizeof bad[0]));
    suite_add_tcase(s, tc);

    tc = tcase_create("write");
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_write_untyped);
    tcase_add_test(tc, test_write_bad_types);
    suite_add_tcase(s, tc);

    tc = tcase_create("tables");
    tcase_add_loop_test(tc, test_tables, 0,
                        (int)(sizeof tables / sizeof tables[0]));
    tcase_add_test(tc, test_tables_reference);
    tcase_add_test(tc, test_tables_unusable);
    tcase_add_test(tc, test_tables_jmax);
    tcase_add_test(tc, test_tables_undefined);
    suite_add_tcase(s, tc);

    tc = tcase_create("datasets");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_hetero_factors);
    tcase_add_loop_test(tc, test_hetero_set, 0,
                        (int)(sizeof hetero_sets / sizeof hetero_sets[0]));
    tcase_add_test(tc, test_summit_map);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(jobtypes_suite());
}
