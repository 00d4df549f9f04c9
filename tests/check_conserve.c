/* check_conserve.c - conservation laws on replays of the bundled data.
 *
 * Each test runs the bfsim program on the bundled Summit trace with a
 * bundled job set (one mode, one allocator), asks for every output
 * (--steps, --job-log, --summary, -o) and checks, from the outputs alone
 * and independently of the simulator's own totals:
 *
 * (a) nodes: every step row has nNrun <= nNd, the pool changes only by
 *     the trace's joins and departures, the integrals over time of the
 *     pool and of the nodes in use equal the summary's idle and
 *     allocated node-seconds exactly, and allocated <= offered;
 * (b) work: every finished job did exactly its Pmax (the job file's, read
 *     here by our own parser), to a few ulps;
 * (c) rates: the samples trained plus the samples lost to rescaling and
 *     preemption equal the integral of the jobs' rates over time, up to
 *     the overshoot at completion, which is bounded.
 *
 * The rate of job j between two events is recomputed from the HDF5 file's
 * /allocations table (the count j holds from each event on) and the job's
 * curve interpolated here: P_j(n) if n >= Jmin_j, else 0.  Its integral
 * over the replay is I_j; the step log's Rate column must equal the sum
 * over jobs of these rates after every event.
 *
 * Definitions (bfsim(1), MEASURES; replay.c): with t_0 the start time
 * (the summary's first_time), t_1..t_K the step rows' times and X_k a
 * row's value (X_0 the state at t_0),
 *     idle_node_seconds      = sum_{k=1..K} (t_k - t_{k-1}) * nNd_{k-1}
 *     allocated_node_seconds = sum_{k=1..K} (t_k - t_{k-1}) * nNrun_{k-1}
 * (the pool and the nodes in use are constant between events).  Both are
 * sums of integers below 2^53, so they are compared exactly.  nNd_0 is
 * recovered from the first row: the pool changes only by the trace's
 * departures and joins, nNd_k = nNd_{k-1} - Nleft_k + Njoin_k, which is
 * checked for every later row.  nNrun_0 is the sum of the counts the
 * /allocations table gives at event 0.
 *
 * The rate identity, per job j, with L_j = lost_rescale_j + lost_preempt_j
 * from the job log and S_j its samples:
 *
 *     I_j = S_j + L_j + V_j
 *
 * where V_j is the work a job was credited with beyond Pmax and that was
 * removed at its completion (0 for a job that did not finish).
 *
 * Default mode (tools/DESIGN.md, "default mode"): a job's rate is set at every
 * event; a pause (rescale, preemption) keeps the rate and loses
 * rate x paused time, which is what L_j counts; the job completes at the
 * first whole second at or after its work reaches Pmax, and its rate runs
 * until that event.  So 0 <= V_j < R_j, R_j the job's rate in the
 * interval before its completion event (less than one second of rate).
 * Summed: sum_k (t_k - t_{k-1}) Rate_{k-1} = samples_trained +
 * rescale_cost + preempt_cost + sum_j V_j.  (The step log's ReScost and
 * PreCost are the objective's costs in this mode, O-based, not samples
 * lost, so they do not enter.)
 *
 * Compatible mode (tools/DESIGN.md, steps 1-3): at event k every active job
 * gets progress (t_k - t_{k-1}) rate_j - pend_j - pre_j, pend_j being the
 * rescale cost decided at event k-1 and pre_j its preemption cost at k;
 * a job whose accumulated work reaches Pmax at event k finishes there and
 * its overshoot V_j = A_j(k) - Pmax is removed from the row's Thr.  Since
 * A_j(k-1) < Pmax and the costs are >= 0, 0 <= V_j < (t_k - t_{k-1})
 * R_j.  Summed over the step log:
 *
 *     sum_{k=1..K} (t_k - t_{k-1}) Rate_{k-1}
 *         = sum_{k=1..K} Thr_k + C_0 + sum_{k=1..K-1} ReScost_k
 *           + sum_{k=1..K} PreCost_k + sum_j V_j
 *
 * where Rate_0 is the sum of the rates at t0 (from /allocations at event
 * 0) and C_0 = sum_j P_j(n_j) Tcup_j over the jobs running at t0, the
 * initial map's start-up cost, which no row shows (t0 has no row); it is
 * charged at event 1.  ReScost_k is charged at event k+1, so the last
 * row's is never charged: summary rescale_cost = C_0 + sum_{k<K}
 * ReScost_k, preempt_cost = sum_k PreCost_k.  An exact check of V_j needs
 * a column the outputs do not have (the overshoot removed per job, or per
 * event); the bound above is checked instead.
 *
 * The step log prints with %f, so sums of its columns carry an absolute
 * error of 5e-7 per row (times the interval for Rate); the tolerances
 * below say so.
 */
#include "config.h"

#include "solver/solver.h"
#include "testjson.h"
#include "testutil.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <hdf5.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#define TRACE "traces/summit-2021-02.trace.gz"
#define JOBS10 "datasets/hps-shufflenet-10J.jobs"
#define JOBS1000 "datasets/hps-shufflenet-1000J.jobs.gz"
#define MAX_JOBS 10 /* bfsim's default --max-jobs */

/* One replay to check. */
struct rcase {
    const char *name;      /* names its output files */
    const char *jobs;      /* relative to the source tree */
    int compat;            /* --compat bftrainer */
    const char *allocator; /* dp, even, milp */
    const char *solver;    /* milp backend, or NULL */
    const char *nodes;     /* --nodes, or NULL for all */
    const char *end;       /* --end, or NULL for the trace's end */
    const char *start;     /* --start, or NULL for the trace's start */
};

/* The full trace with both job sets and the fast exact allocator (the
 * compatible mode's 1000-job replay on the first 1000 nodes, which is
 * twice as fast under AddressSanitizer and still finishes every job), a
 * node subset that leaves jobs unfinished at the trace's end, one cut by
 * --end, and the other allocators on small pools.  1613010075 =
 * 2021-02-11 02:21:15, six hours after the first submission. */
static const struct rcase cases[] = {
    {"10J-default-dp", JOBS10, 0, "dp", NULL, NULL, NULL, NULL},
    {"10J-compat-dp", JOBS10, 1, "dp", NULL, NULL, NULL, NULL},
    /* jobs admitted at t0: the README's reproduction of the published
     * replayer, and both modes from the same start on every node */
    {"10J-compat-even-10-start", JOBS10, 1, "even", NULL, "10", NULL,
     "2021-02-10 20:21:15"},
    {"10J-compat-dp-start", JOBS10, 1, "dp", NULL, NULL, NULL,
     "2021-02-10 20:21:15"},
    {"10J-default-dp-start", JOBS10, 0, "dp", NULL, NULL, NULL,
     "2021-02-10 20:21:15"},
    {"1000J-default-dp", JOBS1000, 0, "dp", NULL, NULL, NULL, NULL},
    {"1000J-compat-dp-1000", JOBS1000, 1, "dp", NULL, "1000", NULL, NULL},
    {"1000J-default-dp-300-200", JOBS1000, 0, "dp", NULL, "300:200", NULL,
     NULL},
    {"1000J-compat-dp-end", JOBS1000, 1, "dp", NULL, "1000:500", "1613010075",
     NULL},
    {"10J-default-even-64", JOBS10, 0, "even", NULL, "64", NULL, NULL},
    {"10J-compat-even-64", JOBS10, 1, "even", NULL, "64", NULL, NULL},
    {"1000J-default-even-64", JOBS1000, 0, "even", NULL, "64", "1613010075",
     NULL},
    {"1000J-compat-even-64", JOBS1000, 1, "even", NULL, "64", "1613010075",
     NULL},
    {"10J-default-glpk-64", JOBS10, 0, "milp", "glpk", "64", NULL, NULL},
    {"10J-compat-glpk-64", JOBS10, 1, "milp", "glpk", "64", NULL, NULL},
    {"10J-default-cbc-128", JOBS10, 0, "milp", "cbc", "128", "1613010075",
     NULL},
    {"10J-compat-cbc-128", JOBS10, 1, "milp", "cbc", "128", "1613010075", NULL},
};
#define N_CASES (sizeof cases / sizeof cases[0])

/* ---- running bfsim ---------------------------------------------------- */

/* Runs bfsim with argv (argv[0] included, NULL-terminated), standard
 * output to /dev/null and standard error to errpath; returns the wait
 * status. */
static int run_bfsim(char *const argv[], const char *errpath)
{
    pid_t pid;
    int st;

    fflush(NULL);
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int out = open("/dev/null", O_WRONLY);
        int err = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
            _exit(127);
        close(out);
        close(err);
        execv(argv[0], argv);
        _exit(127);
    }
    while (waitpid(pid, &st, 0) < 0)
        ck_assert_int_eq(errno, EINTR);
    return st;
}

/* ---- small parsers (our own, not the library's) ------------------------ */

/* A time field that may be empty (-1). */
static int64_t parse_opt_time(const char *s)
{
    return *s ? tu_parse_time(s) : -1;
}

static double parse_num(const char *s)
{
    char *end;
    double v;

    errno = 0;
    v = strtod(s, &end);
    ck_assert_msg(errno == 0 && end != s && *end == '\0', "bad number '%s'", s);
    return v;
}

static long parse_long(const char *s)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    ck_assert_msg(errno == 0 && end != s && *end == '\0', "bad integer '%s'",
                  s);
    return v;
}

/* Splits line at sep in place (empty fields kept); returns the count. */
static size_t split(char *line, char sep, char **f, size_t max)
{
    size_t n = 0;

    for (;;) {
        char *c = strchr(line, sep);
        if (n < max)
            f[n] = line;
        n++;
        if (!c)
            break;
        *c = '\0';
        line = c + 1;
    }
    return n;
}

/* Strips a trailing newline (and CR); returns the line. */
static char *chomp(char *s)
{
    size_t n = strlen(s);

    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

/* ---- the job set ------------------------------------------------------- */

struct jdef {
    char name[64];
    int64_t tsub;
    int jmin, jmax;
    double pmax, tcup, tcdw;
    double *p;    /* owned; P(n), n = 0..jmax, interpolated here */
    double pbest; /* max of P(n) */
};

struct jset {
    struct jdef *j; /* owned */
    size_t n;
};

/* P(n) by linear interpolation between the curve's breakpoints. */
static void curve_table(struct jdef *d, char *curve)
{
    char *bp[512];
    double N[512], P[512];
    size_t nb = split(curve, ' ', bp, 512);

    ck_assert_uint_le(nb, 512);
    for (size_t i = 0; i < nb; i++) {
        char *f[3];
        ck_assert_uint_eq(split(bp[i], ':', f, 3), 3);
        N[i] = parse_num(f[0]);
        P[i] = parse_num(f[1]);
    }
    d->p = xmalloc(((size_t)d->jmax + 1) * sizeof *d->p);
    for (int n = 0; n <= d->jmax; n++) {
        size_t i = 0;
        while (i + 1 < nb && N[i + 1] < n)
            i++;
        ck_assert_msg(i + 1 < nb || N[i] == n, "curve of %s ends before %d",
                      d->name, n);
        if (N[i] == n)
            d->p[n] = P[i];
        else
            d->p[n] = P[i] + (P[i + 1] - P[i]) * ((double)n - N[i]) /
                                 (N[i + 1] - N[i]);
        d->pbest = fmax(d->pbest, d->p[n]);
    }
}

static void jset_load(const char *path, struct jset *js)
{
    gzFile g = gzopen(path, "rb");
    char line[65536], *f[64];
    int col[8], have_header = 0;
    static const char *const names[8] = {"job",  "tsub", "jmin", "jmax",
                                         "pmax", "tcup", "tcdw", "curve"};
    size_t cap = 0;

    ck_assert_msg(g != NULL, "cannot open %s", path);
    memset(js, 0, sizeof *js);
    while (gzgets(g, line, sizeof line)) {
        size_t nf;
        struct jdef *d;
        chomp(line);
        if (line[0] == '#' || line[0] == '\0')
            continue;
        nf = split(line, ',', f, 64);
        ck_assert_uint_le(nf, 64);
        if (!have_header) {
            for (int c = 0; c < 8; c++) {
                col[c] = -1;
                for (size_t i = 0; i < nf; i++)
                    if (strcmp(f[i], names[c]) == 0)
                        col[c] = (int)i;
                ck_assert_msg(col[c] >= 0, "%s: no column %s", path, names[c]);
            }
            have_header = 1;
            continue;
        }
        BFS_GROW(js->j, cap, js->n + 1);
        d = &js->j[js->n++];
        memset(d, 0, sizeof *d);
        snprintf(d->name, sizeof d->name, "%s", f[col[0]]);
        d->tsub = tu_parse_time(f[col[1]]);
        d->jmin = (int)parse_long(f[col[2]]);
        d->jmax = (int)parse_long(f[col[3]]);
        d->pmax = parse_num(f[col[4]]);
        d->tcup = parse_num(f[col[5]]);
        d->tcdw = parse_num(f[col[6]]);
        curve_table(d, f[col[7]]);
    }
    gzclose(g);
    ck_assert_uint_gt(js->n, 0);
}

static void jset_free(struct jset *js)
{
    for (size_t i = 0; i < js->n; i++)
        free(js->j[i].p);
    free(js->j);
}

/* ---- the outputs ------------------------------------------------------- */

/* One row of the step log. */
struct row {
    int64_t t;
    double thr, rate, rescost, precost;
    long evt, nleft, npre, njoin, njob, nnd, njrun, nnrun;
};

static struct row *read_steps(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "r");
    char line[4096], *f[16];
    struct row *rows = NULL;
    size_t cap = 0;

    ck_assert_msg(fp != NULL, "no step log %s", path);
    *n = 0;
    ck_assert_ptr_nonnull(fgets(line, sizeof line, fp));
    ck_assert_str_eq(chomp(line), "evtTime,Thr,Rate,ReScost,evt,Nleft,Npre,"
                                  "Njoin,nJob,nNd,nJrun,nNrun,PreCost");
    while (fgets(line, sizeof line, fp)) {
        struct row *r;
        ck_assert_msg(strchr(line, '\n') != NULL, "%s: cut line", path);
        ck_assert_uint_eq(split(chomp(line), ',', f, 16), 13);
        BFS_GROW(rows, cap, *n + 1);
        r = &rows[(*n)++];
        r->t = tu_parse_time(f[0]);
        r->thr = parse_num(f[1]);
        r->rate = parse_num(f[2]);
        r->rescost = parse_num(f[3]);
        r->evt = parse_long(f[4]);
        r->nleft = parse_long(f[5]);
        r->npre = parse_long(f[6]);
        r->njoin = parse_long(f[7]);
        r->njob = parse_long(f[8]);
        r->nnd = parse_long(f[9]);
        r->njrun = parse_long(f[10]);
        r->nnrun = parse_long(f[11]);
        r->precost = parse_num(f[12]);
    }
    fclose(fp);
    return rows;
}

/* One row of the job log. */
struct jrow {
    int64_t tsub, admitted, first_start, finished;
    double samples, node_seconds, paused_s, lost_rescale, lost_preempt;
    long rescales, preemptions;
};

static struct jrow *read_joblog(const char *path, const struct jset *js)
{
    FILE *fp = fopen(path, "r");
    char line[4096], *f[16];
    struct jrow *rows = xcalloc(js->n, sizeof *rows);
    size_t n = 0;

    ck_assert_msg(fp != NULL, "no job log %s", path);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, fp));
    ck_assert_str_eq(chomp(line),
                     "job,tsub,admitted,first_start,finished,completion_s,"
                     "samples,node_seconds,rescales,preemptions,paused_s,"
                     "lost_rescale,lost_preempt,starts");
    while (fgets(line, sizeof line, fp)) {
        struct jrow *r;
        ck_assert_msg(strchr(line, '\n') != NULL, "%s: cut line", path);
        ck_assert_uint_eq(split(chomp(line), ',', f, 16), 14);
        ck_assert_uint_lt(n, js->n);
        ck_assert_str_eq(f[0], js->j[n].name);
        r = &rows[n++];
        r->tsub = tu_parse_time(f[1]);
        r->admitted = parse_opt_time(f[2]);
        r->first_start = parse_opt_time(f[3]);
        r->finished = parse_opt_time(f[4]);
        if (r->finished >= 0)
            ck_assert_int_eq(parse_long(f[5]), r->finished - r->tsub);
        else
            ck_assert_str_eq(f[5], "");
        r->samples = parse_num(f[6]);
        r->node_seconds = parse_num(f[7]);
        r->rescales = parse_long(f[8]);
        r->preemptions = parse_long(f[9]);
        r->paused_s = parse_num(f[10]);
        r->lost_rescale = parse_num(f[11]);
        r->lost_preempt = parse_num(f[12]);
    }
    fclose(fp);
    ck_assert_uint_eq(n, js->n); /* one row per job of the set */
    return rows;
}

/* A row of /allocations: job holds count nodes from event evt on. */
struct arow {
    int64_t evt, time, job, count;
};

static struct arow *read_allocs(const char *path, size_t *n, size_t *n_events)
{
    hid_t f, d, sp, mt;
    hsize_t dims[1] = {0};
    struct arow *rows;

    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    ck_assert_msg(f >= 0, "cannot open %s", path);
    mt = H5Tcreate(H5T_COMPOUND, sizeof(struct arow));
    H5Tinsert(mt, "evt", offsetof(struct arow, evt), H5T_NATIVE_INT64);
    H5Tinsert(mt, "time", offsetof(struct arow, time), H5T_NATIVE_INT64);
    H5Tinsert(mt, "job", offsetof(struct arow, job), H5T_NATIVE_INT64);
    H5Tinsert(mt, "count", offsetof(struct arow, count), H5T_NATIVE_INT64);
    d = H5Dopen2(f, "/allocations", H5P_DEFAULT);
    ck_assert_int_ge(d, 0);
    sp = H5Dget_space(d);
    ck_assert_int_eq(H5Sget_simple_extent_ndims(sp), 1);
    H5Sget_simple_extent_dims(sp, dims, NULL);
    H5Sclose(sp);
    *n = (size_t)dims[0];
    rows = xcalloc(*n + 1, sizeof *rows);
    if (*n)
        ck_assert_int_ge(H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows),
                         0);
    H5Dclose(d);
    H5Tclose(mt);
    /* The /events table has one row per step row. */
    d = H5Dopen2(f, "/events", H5P_DEFAULT);
    ck_assert_int_ge(d, 0);
    sp = H5Dget_space(d);
    H5Sget_simple_extent_dims(sp, dims, NULL);
    *n_events = (size_t)dims[0];
    H5Sclose(sp);
    H5Dclose(d);
    H5Fclose(f);
    return rows;
}

/* |a - b| <= tol, with a message. */
#define NEAR(a, b, tol, ...)                                                   \
    ck_assert_msg(fabs((a) - (b)) <= (tol), __VA_ARGS__)

/* ---- the test ---------------------------------------------------------- */

/* A copy of s that lives until exit, for an argv. */
static const char *out_path(const struct rcase *c, const char *what)
{
    char name[256];
    snprintf(name, sizeof name, "%s.%s", c->name, what);
    return tu_tmp(name);
}

START_TEST(conservation)
{
    const struct rcase *c = &cases[_i];
    const char *steps = out_path(c, "steps.csv");
    const char *jlog = out_path(c, "jobs.csv");
    const char *summ = out_path(c, "summary.json");
    const char *h5 = out_path(c, "h5");
    const char *errf = out_path(c, "stderr");
    char *argv[40];
    int argc = 0, st;
    struct jset js;
    struct row *rows;
    struct jrow *jr;
    struct arow *al;
    size_t K, n_al, n_h5ev, a = 0;
    json_t *sum;
    int64_t t0, t_end, idle = 0, used = 0, nnd0, *ns;
    int *count;
    double *I, *rate_before, lhs = 0.0, sum_thr = 0.0, sum_res = 0.0;
    double sum_pre = 0.0, sum_s = 0.0, sum_lr = 0.0, sum_lp = 0.0;
    double sum_v = 0.0, v_max = 0.0, print_tol, prev_rsum = 0.0, wall, t_run;
    double pend0 = 0.0; /* compat: start-up costs decided at t0 */
    size_t n_fin = 0;
    int all_done;

    if (c->solver && !solver_find(c->solver)) {
        printf("%s: skipped, solver %s not compiled in\n", c->name, c->solver);
        return;
    }
    argv[argc++] = tu_arg(tu_bfsim());
    argv[argc++] = tu_arg("replay");
    argv[argc++] = tu_arg("-q");
    argv[argc++] = tu_arg("--trace");
    argv[argc++] = tu_arg(tu_src(TRACE));
    argv[argc++] = tu_arg("--jobs");
    argv[argc++] = tu_arg(tu_src(c->jobs));
    argv[argc++] = tu_arg("--allocator");
    argv[argc++] = tu_arg(c->allocator);
    if (c->solver) {
        argv[argc++] = tu_arg("--solver");
        argv[argc++] = tu_arg(c->solver);
        /* a generous limit: a time-limited answer would be kept or
         * applied, and conservation must hold either way, but the runs
         * should be the same on a loaded machine */
        argv[argc++] = tu_arg("--time-limit");
        argv[argc++] = tu_arg("60");
    }
    if (c->compat) {
        argv[argc++] = tu_arg("--compat");
        argv[argc++] = tu_arg("bftrainer");
    }
    if (c->nodes) {
        argv[argc++] = tu_arg("--nodes");
        argv[argc++] = tu_arg(c->nodes);
    }
    if (c->end) {
        argv[argc++] = tu_arg("--end");
        argv[argc++] = tu_arg(c->end);
    }
    if (c->start) {
        argv[argc++] = tu_arg("--start");
        argv[argc++] = tu_arg(c->start);
    }
    argv[argc++] = tu_arg("--steps");
    argv[argc++] = tu_arg(steps);
    argv[argc++] = tu_arg("--job-log");
    argv[argc++] = tu_arg(jlog);
    argv[argc++] = tu_arg("--summary");
    argv[argc++] = tu_arg(summ);
    argv[argc++] = tu_arg("-o");
    argv[argc++] = tu_arg(h5);
    argv[argc] = NULL;
    t_run = bfs_now();
    st = run_bfsim(argv, errf);
    wall = bfs_now() - t_run;
    {
        char *msg = tu_slurp(errf);
        ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
                      "%s: bfsim failed (status %d): %s", c->name, st,
                      msg ? msg : "");
        /* -q and no terminal: nothing on standard error */
        ck_assert_msg(msg && msg[0] == '\0', "%s: stderr has '%s'", c->name,
                      msg ? msg : "");
        free(msg);
    }

    jset_load(tu_src(c->jobs), &js);
    rows = read_steps(steps, &K);
    jr = read_joblog(jlog, &js);
    al = read_allocs(h5, &n_al, &n_h5ev);
    sum = tu_load_json(summ);
    ck_assert(json_is_false(json_object_get(sum, "partial")));
    ck_assert_uint_gt(K, 0);
    ck_assert_int_eq(tu_jnum(sum, "events"), (double)K);
    ck_assert_uint_eq(n_h5ev, K);
    ck_assert_int_eq(tu_jnum(sum, "jobs_total"), (double)js.n);
    t0 = tu_jtime(sum, "first_time");
    t_end = tu_jtime(sum, "last_event_time");
    ck_assert_int_eq(t_end, rows[K - 1].t);
    /* %f: 5e-7 per printed number; Rate's error grows with the interval */
    print_tol = 1e-6 * (double)K + 1e-6 * (double)(t_end - t0);

    /* ---- (a) nodes -------------------------------------------------- */
    nnd0 = rows[0].nnd + rows[0].nleft - rows[0].njoin;
    ck_assert_int_ge(nnd0, 0);
    for (size_t k = 0; k < K; k++) {
        const struct row *r = &rows[k];
        ck_assert_int_eq(r->evt, (long)k + 1);
        ck_assert_int_gt(r->t, k ? rows[k - 1].t : t0);
        ck_assert_msg(r->nnrun <= r->nnd,
                      "%s evt %ld: %ld nodes in use, %ld "
                      "in the pool",
                      c->name, r->evt, r->nnrun, r->nnd);
        ck_assert_int_le(r->njob, MAX_JOBS);
        if (k > 0)
            ck_assert_msg(r->nnd == rows[k - 1].nnd - r->nleft + r->njoin,
                          "%s evt %ld: pool %ld, was %ld, -%ld +%ld", c->name,
                          r->evt, r->nnd, rows[k - 1].nnd, r->nleft, r->njoin);
    }

    /* Replays the /allocations table event by event: counts, rates and
     * node-seconds per job. */
    count = xcalloc(js.n + 1, sizeof *count);
    ns = xcalloc(js.n + 1, sizeof *ns);
    I = xcalloc(js.n + 1, sizeof *I);
    rate_before = xcalloc(js.n + 1, sizeof *rate_before);
    for (size_t j = 0; j < js.n; j++)
        n_fin += jr[j].finished >= 0;
    all_done = n_fin == js.n;
    n_fin = 0;
    for (size_t k = 0; k <= K; k++) {
        int64_t tk = k ? rows[k - 1].t : t0, dt = k < K ? rows[k].t - tk : 0;
        long nrun = 0, jrun = 0, njob = 0;
        double rsum = 0.0;
        for (; a < n_al && (size_t)al[a].evt == k; a++) {
            ck_assert_int_eq(al[a].time, tk);
            ck_assert_int_ge(al[a].job, 0);
            ck_assert_int_lt(al[a].job, (int64_t)js.n);
            ck_assert_int_ge(al[a].count, 0);
            ck_assert_int_le(al[a].count, js.j[al[a].job].jmax);
            count[al[a].job] = (int)al[a].count;
        }
        for (size_t j = 0; j < js.n; j++) {
            const struct jdef *d = &js.j[j];
            double r = count[j] >= d->jmin ? d->p[count[j]] : 0.0;
            nrun += count[j];
            jrun += count[j] > 0;
            rsum += r;
            if (jr[j].admitted >= 0 && jr[j].admitted <= tk &&
                (jr[j].finished < 0 || jr[j].finished > tk))
                njob++;
            if (k < K) {
                I[j] += r * (double)dt;
                ns[j] += count[j] * dt;
                /* the interval that ends at the job's completion */
                if (jr[j].finished == rows[k].t)
                    rate_before[j] = c->compat ? r * (double)dt : r;
            }
        }
        if (k == 0) {
            /* the state at t0 has no row.  The compatible mode's jobs
             * running at t0 pay a start-up cost rate x Tcup, charged at
             * the first event (tools/DESIGN.md, "Initial map") */
            for (size_t j = 0; j < js.n && c->compat; j++)
                if (count[j] >= js.j[j].jmin)
                    pend0 += js.j[j].p[count[j]] * js.j[j].tcup;
            idle += dt * nnd0;
            used += dt * nrun;
            lhs += (double)dt * rsum;
            prev_rsum = rsum;
            continue;
        }
        {
            const struct row *r = &rows[k - 1];
            ck_assert_msg(nrun == r->nnrun,
                          "%s evt %ld: /allocations has %ld nodes in use, "
                          "the step log %ld",
                          c->name, r->evt, nrun, r->nnrun);
            ck_assert_msg(njob == r->njob,
                          "%s evt %ld: %ld jobs in the system by the job "
                          "log, %ld in the step log",
                          c->name, r->evt, njob, r->njob);
            if (!c->compat || r->njob > 0) /* compat: stale nJrun quirk */
                ck_assert_int_eq(jrun, r->njrun);
            if (c->compat && all_done && k == K)
                /* tools/DESIGN.md step 5: the last row's Rate is the sum of the
                 * rates set at the previous event */
                NEAR(prev_rsum, r->rate, 1e-6 + 1e-12 * prev_rsum,
                     "%s evt %ld (last): rates %.17g, Rate %.17g", c->name,
                     r->evt, prev_rsum, r->rate);
            else
                NEAR(rsum, r->rate, 1e-6 + 1e-12 * rsum,
                     "%s evt %ld: rates %.17g, Rate %.17g", c->name, r->evt,
                     rsum, r->rate);
            idle += dt * r->nnd;
            used += dt * r->nnrun;
            lhs += (double)dt * r->rate;
        }
        prev_rsum = rsum;
    }
    ck_assert_uint_eq(a, n_al); /* every allocation row read, in order */
    ck_assert_msg(used <= idle, "%s: allocated %lld > offered %lld", c->name,
                  (long long)used, (long long)idle);
    /* exact: sums of integers */
    ck_assert_msg(tu_jnum(sum, "idle_node_seconds") == (double)idle,
                  "%s: idle_node_seconds %.17g, integral %lld", c->name,
                  tu_jnum(sum, "idle_node_seconds"), (long long)idle);
    ck_assert_msg(tu_jnum(sum, "allocated_node_seconds") == (double)used,
                  "%s: allocated_node_seconds %.17g, integral %lld", c->name,
                  tu_jnum(sum, "allocated_node_seconds"), (long long)used);
    {
        int64_t ns_all = 0;
        for (size_t j = 0; j < js.n; j++) {
            ck_assert_msg(jr[j].node_seconds == (double)ns[j],
                          "%s: job %s node_seconds %.17g, /allocations %lld",
                          c->name, js.j[j].name, jr[j].node_seconds,
                          (long long)ns[j]);
            ns_all += ns[j];
        }
        ck_assert_int_eq(ns_all, used);
    }

    /* ---- (b) work --------------------------------------------------- */
    for (size_t j = 0; j < js.n; j++) {
        const struct jdef *d = &js.j[j];
        ck_assert_int_eq(jr[j].tsub, d->tsub);
        if (jr[j].admitted < 0) {
            ck_assert_int_eq(jr[j].finished, -1);
            ck_assert(jr[j].samples == 0.0 && ns[j] == 0);
            continue;
        }
        ck_assert_int_ge(jr[j].admitted, d->tsub);
        if (jr[j].finished < 0) {
            ck_assert_msg(jr[j].samples < d->pmax,
                          "%s: unfinished job %s "
                          "did %.17g of %.17g samples",
                          c->name, d->name, jr[j].samples, d->pmax);
            continue;
        }
        n_fin++;
        ck_assert_int_gt(jr[j].finished, jr[j].admitted);
        ck_assert_int_le(jr[j].finished, t_end);
        ck_assert_msg(fabs(jr[j].samples - d->pmax) <=
                          4 * DBL_EPSILON * d->pmax,
                      "%s: job %s finished with %.17g samples, Pmax %.17g",
                      c->name, d->name, jr[j].samples, d->pmax);
    }
    ck_assert_int_eq(tu_jnum(sum, "jobs_finished"), (double)n_fin);

    /* ---- (c) rates ------------------------------------------------- */
    for (size_t j = 0; j < js.n; j++) {
        const struct jdef *d = &js.j[j];
        double L = jr[j].lost_rescale + jr[j].lost_preempt;
        double V = I[j] - jr[j].samples - L, tol = 1e-9 * d->pmax;
        sum_s += jr[j].samples;
        sum_lr += jr[j].lost_rescale;
        sum_lp += jr[j].lost_preempt;
        ck_assert(jr[j].lost_rescale >= 0 && jr[j].lost_preempt >= 0);
        if (!c->compat) {
            /* a pause per rescale or preemption at most, extended not
             * added to; it loses the rate it pauses at */
            ck_assert_double_le(jr[j].paused_s,
                                (double)jr[j].rescales *
                                        fmax(d->tcup, d->tcdw) +
                                    (double)jr[j].preemptions * d->tcdw);
            ck_assert_double_le(L, jr[j].paused_s * d->pbest * 1.000001 + tol);
        }
        if (jr[j].finished < 0) {
            NEAR(V, 0.0, tol,
                 "%s: job %s (unfinished): rate integral %.17g, samples "
                 "%.17g + lost %.17g",
                 c->name, d->name, I[j], jr[j].samples, L);
            continue;
        }
        /* rate_before: R_j (default) or (t_k - t_{k-1}) R_j (compat) of
         * the interval ending at the completion event */
        ck_assert_msg(V >= -tol && V <= rate_before[j] + tol,
                      "%s: job %s: rate integral %.17g - samples %.17g - "
                      "lost %.17g = %.17g, not in [0, %.17g]",
                      c->name, d->name, I[j], jr[j].samples, L, V,
                      rate_before[j]);
        sum_v += V;
        v_max += rate_before[j];
    }
    for (size_t k = 0; k < K; k++) {
        sum_thr += rows[k].thr;
        sum_pre += rows[k].precost;
        if (k + 1 < K)
            sum_res += rows[k].rescost;
    }
    sum_res += pend0;
    {
        double tot = fmax(1.0, sum_s), tol = 1e-9 * tot + print_tol;
        double I_all = 0.0;
        for (size_t j = 0; j < js.n; j++)
            I_all += I[j];
        NEAR(lhs, I_all, tol, "%s: sum dt Rate %.17g, job rates %.17g", c->name,
             lhs, I_all);
        NEAR(sum_thr, sum_s, tol, "%s: sum Thr %.17g, job samples %.17g",
             c->name, sum_thr, sum_s);
        NEAR(tu_jnum(sum, "samples_trained"), sum_s, 1e-9 * tot,
             "%s: samples_trained %.17g, job samples %.17g", c->name,
             tu_jnum(sum, "samples_trained"), sum_s);
        NEAR(tu_jnum(sum, "rescale_cost"), sum_lr, 1e-9 * tot,
             "%s: rescale_cost %.17g, jobs' %.17g", c->name,
             tu_jnum(sum, "rescale_cost"), sum_lr);
        NEAR(tu_jnum(sum, "preempt_cost"), sum_lp, 1e-9 * tot,
             "%s: preempt_cost %.17g, jobs' %.17g", c->name,
             tu_jnum(sum, "preempt_cost"), sum_lp);
        if (c->compat) {
            /* the step log alone: Thr, ReScost charged, PreCost */
            double resid = lhs - sum_thr - sum_res - sum_pre;
            NEAR(sum_res, sum_lr, tol,
                 "%s: start-up costs + sum ReScost (charged) %.17g, "
                 "jobs' lost_rescale %.17g",
                 c->name, sum_res, sum_lr);
            NEAR(sum_pre, sum_lp, tol,
                 "%s: sum PreCost %.17g, jobs' "
                 "lost_preempt %.17g",
                 c->name, sum_pre, sum_lp);
            NEAR(resid, sum_v, tol,
                 "%s: step-log residual %.17g, jobs' "
                 "overshoot %.17g",
                 c->name, resid, sum_v);
            ck_assert_msg(resid >= -tol && resid <= v_max + tol,
                          "%s: overshoot %.17g not in [0, %.17g]", c->name,
                          resid, v_max);
        } else {
            double resid = lhs - tu_jnum(sum, "samples_trained") -
                           tu_jnum(sum, "rescale_cost") -
                           tu_jnum(sum, "preempt_cost");
            ck_assert_msg(resid >= -tol && resid <= v_max + tol,
                          "%s: sum dt Rate - samples - lost = %.17g, not in "
                          "[0, %.17g] (under one second of rate per finished "
                          "job)",
                          c->name, resid, v_max);
        }
        /* BFS_TEST_VERBOSE=1 shows each case's figures */
        if (getenv("BFS_TEST_VERBOSE"))
            printf("%-22s %5.2f s + %5.2f s: %zu events, %zu of %zu jobs done, "
                   "node-s "
                   "%lld of %lld, rate integral %.6g = samples %.6g + lost "
                   "%.6g + overshoot %.6g (bound %.6g), start-up cost %.6g\n",
                   c->name, wall, bfs_now() - wall - t_run, K, n_fin, js.n,
                   (long long)used, (long long)idle, lhs, sum_s,
                   sum_lr + sum_lp, lhs - sum_s - sum_lr - sum_lp, v_max,
                   pend0);
        if (sum_s + sum_lr + sum_lp > 0)
            NEAR(tu_jnum(sum, "efficiency"), sum_s / (sum_s + sum_lr + sum_lp),
                 1e-12, "%s: efficiency", c->name);
    }

    json_decref(sum);
    free(count);
    free(ns);
    free(I);
    free(rate_before);
    free(al);
    free(jr);
    free(rows);
    jset_free(&js);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("conserve");
    TCase *tc = tcase_create("bundled");

    tcase_add_loop_test(tc, conservation, 0, (int)N_CASES);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
