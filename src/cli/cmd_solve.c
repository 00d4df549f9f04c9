/* cmd_solve.c - `bfsim solve FILE`: solve one allocation instance.
 *
 * Reads an instance file (instance.h), builds the allocator the options
 * name (the replay's defaults otherwise), solves once and prints the
 * status, the objective and bound, each job's new count and the times,
 * as text or as one JSON object.  A solve that ends infeasible, at a
 * limit or in a solver failure is a result, printed with exit status 0;
 * exit status 1 is for unreadable input and 2 for bad usage.
 */
#include "config.h"

#include "alloc/alloc.h"
#include "alloc/bench.h"
#include "cli/cmd.h"
#include "alloc/instance.h"
#include "engine/options.h"
#include "base/csv.h"
#include "base/out.h"
#include "formats/h5tables.h"
#include "base/util.h"
#include "solver/solver.h"

#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int bad_usage(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

static int bad_usage(const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "bfsim solve: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry `bfsim solve --help'.\n");
    return CMD_USAGE;
}

/* `--solver NAME,help`: bfsim's options and the backend's parameters. */
static int solver_help(const char *spec)
{
    size_t len = strcspn(spec, ","), n;
    char *name = xmalloc(len + 1);
    const struct solver_param *t;

    memcpy(name, spec, len);
    name[len] = '\0';
    t = solver_params_table(name, &n);
    if (!t) {
        fprintf(stderr,
                "bfsim solve: solver '%s' is not compiled into this "
                "build\n",
                name);
        xfree(name);
        return CMD_USAGE;
    }
    printf("Options of --solver %s,KEY=VALUE,... (bfsim's):\n", name);
    printf("  %-26s %s\n", "isolate=yes|no",
           "solve in a child process (default: yes for cbc, no for glpk)");
    printf("  %-26s %s\n", "start=yes|no",
           "start from dp's optimum where the solver takes it, and");
    printf("  %-26s %s\n", "",
           "leave out the counts no allocation tied with it uses");
    printf("  %-26s %s\n", "aggregate=auto|yes|no",
           "count model, one type: one integer per class of alike jobs");
    printf("  %-26s %s\n", "",
           "and count (auto: when a class has two jobs; default auto)");
    printf("Parameters of %s (applied after bfsim's own settings, in this "
           "order):\n",
           name);
    for (size_t i = 0; i < n; i++) {
        char v[256];
        if (t[i].kind == SOLVER_PARAM_WORD)
            snprintf(v, sizeof v, "%s=%s", t[i].key, t[i].words);
        else
            snprintf(v, sizeof v, "%s=%s in [%g, %g]", t[i].key,
                     t[i].kind == SOLVER_PARAM_INT ? "INT" : "REAL", t[i].min,
                     t[i].max);
        printf("  %s\n      %s\n", v, t[i].help);
    }
    xfree(name);
    return fflush(stdout) == 0 ? CMD_OK : CMD_FAIL;
}

/* The solver's log (--log-level), on standard error. */
static void solver_log(const char *text)
{
    fputs(text, stderr);
}

/* ---- one run's measures ------------------------------------------------ */

/* How a run's measure is read from its struct bench_row. */
enum run_type {
    RUN_STATUS, /* the status, as text */
    RUN_REAL,   /* a double field; NaN: unknown */
    RUN_COUNT,  /* a long field; -1: unknown (NaN in the tables) */
    RUN_SIZE,   /* a size_t field */
    RUN_TIME,   /* bench_time: an unproven run counts the time limit */
    RUN_TEXT    /* a char array field */
};

/* One measure of a run: a column of the corpus's rows (CSV and HDF5)
 * and a key of a single solve's JSON object, from this one list, in its
 * order.  Adding a measure is adding a row. */
static const struct run_col {
    const char *name;
    enum run_type type;
    size_t offset;   /* of the field in struct bench_row */
    int corpus_only; /* not in a single solve's JSON */
} run_cols[] = {
#define AT(field) offsetof(struct bench_row, field)
    {"status", RUN_STATUS, AT(status), 0},
    {"objective", RUN_REAL, AT(objective), 0},
    {"bound", RUN_REAL, AT(bound), 0},
    {"time_s", RUN_TIME, 0, 1},
    {"build_s", RUN_REAL, AT(build_s), 0},
    {"solve_s", RUN_REAL, AT(solve_s), 0},
    {"cpu_s", RUN_REAL, AT(cpu_s), 0},
    {"ipc_s", RUN_REAL, AT(ipc_s), 0},
    {"nodes", RUN_COUNT, AT(nodes), 0},
    {"iterations", RUN_COUNT, AT(iters), 0},
    {"root_bound", RUN_REAL, AT(root_bound), 0},
    {"root_cuts", RUN_COUNT, AT(cuts), 0},
    {"mip_solves", RUN_SIZE, AT(mip_solves), 0},
    {"rows", RUN_SIZE, AT(rows), 0},
    {"cols", RUN_SIZE, AT(cols), 0},
    {"nnz", RUN_SIZE, AT(nnz), 0},
    {"note", RUN_TEXT, AT(note), 0},
#undef AT
};
#define N_RUN_COLS (sizeof run_cols / sizeof *run_cols)

/* The table kind of a measure: H5COL_TEXT, H5COL_INT or H5COL_REAL. */
static int run_kind(const struct run_col *c)
{
    return c->type == RUN_STATUS || c->type == RUN_TEXT ? H5COL_TEXT
           : c->type == RUN_SIZE                        ? H5COL_INT
                                                        : H5COL_REAL;
}

/* The measure c of run w as the table kind says (time_limit: what an
 * unproven run counts). */
static const char *run_text(const struct run_col *c, const struct bench_row *w)
{
    const char *f = (const char *)w + c->offset;

    return c->type == RUN_STATUS ? solve_status_name(w->status) : f;
}

static int64_t run_int(const struct run_col *c, const struct bench_row *w)
{
    return (int64_t) *
           (const size_t *)(const void *)((const char *)w + c->offset);
}

static double run_real(const struct run_col *c, const struct bench_row *w,
                       double time_limit)
{
    const char *f = (const char *)w + c->offset;
    long n;

    if (c->type == RUN_TIME)
        return bench_time(w, time_limit);
    if (c->type == RUN_REAL)
        return *(const double *)(const void *)f;
    n = *(const long *)(const void *)f;
    return n < 0 ? nan("") : (double)n;
}

/* A single solve's result r as a corpus's run (bench.c's rules: the
 * objective and a finite bound only with counts). */
static void result_row(const struct alloc_result *r, struct bench_row *w)
{
    int solved = r->status == SOLVE_OPTIMAL || r->status == SOLVE_FEASIBLE;

    *w = (struct bench_row){
        .done = 1,
        .status = r->status,
        .objective = solved ? r->objective : nan(""),
        .bound = solved && isfinite(r->bound) ? r->bound : nan(""),
        .build_s = r->build_s,
        .solve_s = r->solve_s,
        .cpu_s = r->cpu_s,
        .ipc_s = r->ipc_s,
        .nodes = r->nodes,
        .iters = r->iters,
        .root_bound = r->root_bound,
        .cuts = r->cuts,
        .mip_solves = r->mip_solves,
        .rows = r->rows,
        .cols = r->cols,
        .nnz = r->nnz,
    };
}

/* A number for JSON: null when absent or not finite. */
static json_t *num(int have, double v)
{
    return have && isfinite(v) ? json_real(v) : json_null();
}

/* The measures of run w into the JSON object root, in run_cols' order:
 * unknown reals as null. */
static void json_measures(json_t *root, const struct bench_row *w)
{
    for (size_t k = 0; k < N_RUN_COLS; k++) {
        const struct run_col *c = &run_cols[k];
        json_t *v;
        if (c->corpus_only)
            continue;
        if (run_kind(c) == H5COL_TEXT)
            v = json_string(run_text(c, w));
        else if (run_kind(c) == H5COL_INT)
            v = json_integer((json_int_t)run_int(c, w));
        else
            v = num(1, run_real(c, w, 0));
        json_object_set_new(root, c->name, v);
    }
}

/* A single solve as one JSON object: the file and the allocator, the
 * run's measures (run_cols), then the new counts (and types). */
static void print_json(const char *path, const struct alloc_opts *o,
                       const struct instance *in, const struct alloc_result *r)
{
    json_t *root = json_object(), *counts = json_array();
    struct bench_row w;
    char *s;
    int solved = r->status == SOLVE_OPTIMAL || r->status == SOLVE_FEASIBLE;

    json_object_set_new(root, "file", json_string(path));
    json_object_set_new(root, "allocator", json_string(o->name));
    if (strcmp(o->name, "milp") == 0) {
        json_object_set_new(root, "model", json_string(o->model));
        json_object_set_new(root, "solver", json_string(o->solver));
    }
    json_object_set_new(root, "cap", json_integer(in->p.cap));
    result_row(r, &w);
    json_measures(root, &w);
    for (size_t j = 0; solved && j < in->p.n_jobs; j++)
        json_array_append_new(counts, json_integer(r->counts[j]));
    json_object_set_new(root, "counts", solved ? counts : json_null());
    if (!solved)
        json_decref(counts);
    if (in->p.n_types > 1) { /* node types: each job's, -1 when idle */
        json_t *types = json_array();
        for (size_t j = 0; solved && j < in->p.n_jobs; j++)
            json_array_append_new(types, json_integer(r->types[j]));
        json_object_set_new(root, "types", solved ? types : json_null());
        if (!solved)
            json_decref(types);
    }
    s = json_dumps(root, JSON_REAL_PRECISION(17));
    if (s)
        puts(s);
    free(s);
    json_decref(root);
}

/* The name of node type t of in, or its number; "-" for t < 0.  The
 * buffer holds the number (at least 16 bytes). */
static const char *type_name(const struct instance *in, int t, char *buf,
                             size_t size)
{
    if (t < 0)
        return "-";
    if (in->type_names)
        return in->type_names[t];
    snprintf(buf, size, "%d", t);
    return buf;
}

/* The job table of a solve with node types: each job's current and new
 * type beside its counts. */
static void print_typed_jobs(const struct instance *in,
                             const struct alloc_result *r)
{
    char b1[16], b2[16];

    printf("\n%-5s %-20s %6s %6s %6s %-10s %6s %s\n", "job", "name", "jmin",
           "jmax", "cur", "on", "new", "type");
    for (size_t j = 0; j < in->p.n_jobs; j++) {
        const struct alloc_job *jb = &in->p.jobs[j];
        printf("%-5zu %-20s %6d %6d %6d %-10s %6d %s\n", j,
               in->names[j] ? in->names[j] : "-", jb->jmin, jb->jmax, jb->cur,
               type_name(in, jb->cur > 0 ? jb->ctype : -1, b1, sizeof b1),
               r->counts[j], type_name(in, r->types[j], b2, sizeof b2));
    }
}

static void print_text(const char *path, const struct alloc_opts *o,
                       const struct instance *in, const struct alloc_result *r)
{
    int solved = r->status == SOLVE_OPTIMAL || r->status == SOLVE_FEASIBLE;

    printf("instance   %s: %zu jobs, pool %d, Tfwd %.17g, cap %d\n", path,
           in->p.n_jobs, in->p.pool, in->p.tfwd, in->p.cap);
    if (in->p.n_types > 1) {
        char b[16];
        printf("types     ");
        for (int t = 0; t < in->p.n_types; t++)
            printf("%s %s %d", t ? "," : "", type_name(in, t, b, sizeof b),
                   in->p.pools[t]);
        printf(" (idle nodes)\n");
    }
    if (strcmp(o->name, "milp") == 0)
        printf("allocator  milp (model %s, solver %s)\n", o->model, o->solver);
    else
        printf("allocator  %s\n", o->name);
    printf("status     %s\n", solve_status_name(r->status));
    if (solved) {
        printf("objective  %.17g\n", r->objective);
        if (isfinite(r->bound))
            printf("bound      %.17g\n", r->bound);
    }
    printf("times      build %.6f s, solve %.6f s", r->build_s, r->solve_s);
    if (r->mip_solves)
        printf(" (solver CPU %.6f s, isolation %.6f s)", r->cpu_s, r->ipc_s);
    printf("\n");
    if (r->rows || r->cols)
        printf("model      %zu rows, %zu columns, %zu nonzeros\n", r->rows,
               r->cols, r->nnz);
    if (r->mip_solves) {
        printf("work       %zu MILP solve%s", r->mip_solves,
               r->mip_solves == 1 ? "" : "s");
        if (r->nodes >= 0)
            printf(", %ld nodes", r->nodes);
        if (r->iters >= 0)
            printf(", %ld simplex iterations", r->iters);
        if (!isnan(r->root_bound))
            printf(", root bound %.17g", r->root_bound);
        if (r->cuts >= 0)
            printf(", %ld root cuts", r->cuts);
        printf("\n");
    }
    if (!solved)
        return;
    if (in->p.n_types > 1) {
        print_typed_jobs(in, r);
        return;
    }
    printf("\n%-5s %-20s %6s %6s %6s %6s\n", "job", "name", "jmin", "jmax",
           "cur", "new");
    for (size_t j = 0; j < in->p.n_jobs; j++) {
        const struct alloc_job *jb = &in->p.jobs[j];
        printf("%-5zu %-20s %6d %6d %6d %6d\n", j,
               in->names[j] ? in->names[j] : "-", jb->jmin, jb->jmax, jb->cur,
               r->counts[j]);
    }
}

/* ---- a corpus ----------------------------------------------------------- */

/* At most this many --config. */
/* A corpus run: the command line's settings and what the run measured
 * besides its table. */
struct corpus_args {
    struct solve_args s; /* the command line */
    int bigm;            /* -1 the file's, 0 exact, 1 legacy */
    double load0;        /* the load average at the start */
};

/* Columns of a table under construction, each one array of n_rows
 * values, all written from this one description (CSV, HDF5). */
#define TAB_MAX_COLS 24
struct table {
    struct h5col cols[TAB_MAX_COLS];
    void *mem[TAB_MAX_COLS]; /* owned: each column's values */
    size_t n_cols, n_rows;
};

static void *table_col(struct table *t, const char *name, int kind)
{
    size_t size = kind == H5COL_INT    ? sizeof(int64_t)
                  : kind == H5COL_REAL ? sizeof(double)
                                       : sizeof(const char *);
    void *v = xcalloc(t->n_rows + 1, size);

    assert(t->n_cols < TAB_MAX_COLS);
    t->cols[t->n_cols] = (struct h5col){name, kind, v};
    t->mem[t->n_cols++] = v;
    return v;
}

static int64_t *tcol_int(struct table *t, const char *name)
{
    return table_col(t, name, H5COL_INT);
}

static double *tcol_real(struct table *t, const char *name)
{
    return table_col(t, name, H5COL_REAL);
}

static const char **tcol_text(struct table *t, const char *name)
{
    return table_col(t, name, H5COL_TEXT);
}

static void table_release(struct table *t)
{
    for (size_t k = 0; k < t->n_cols; k++)
        xfree(t->mem[k]);
    memset(t, 0, sizeof *t);
}

/* Writes table t to path as CSV: a header of the column names, a line
 * per row; a NaN is an empty field. */
static int table_csv(const struct table *t, const char *path,
                     struct bfs_error *e)
{
    struct bfs_out out;
    int rc = bfs_out_open(&out, path, e);

    if (rc)
        return rc;
    for (size_t k = 0; k < t->n_cols; k++)
        fprintf(out.fp, "%s%s", k ? "," : "", t->cols[k].name);
    fputc('\n', out.fp);
    for (size_t r = 0; r < t->n_rows; r++)
        for (size_t k = 0; k < t->n_cols; k++) {
            const struct h5col *c = &t->cols[k];
            if (k)
                fputc(',', out.fp);
            if (c->kind == H5COL_TEXT) {
                const char *v = ((const char *const *)c->data)[r];
                csv_field(out.fp, v ? v : "");
            } else if (c->kind == H5COL_INT)
                fprintf(out.fp, "%" PRId64, ((const int64_t *)c->data)[r]);
            else if (!isnan(((const double *)c->data)[r]))
                fprintf(out.fp, "%.17g", ((const double *)c->data)[r]);
            if (k + 1 == t->n_cols)
                fputc('\n', out.fp);
        }
    rc = bfs_out_commit(&out, e);
    if (rc)
        bfs_out_abort(&out);
    return rc;
}

/* The runs: one row per instance, configuration, seed and repeat; the
 * run's place, then its measures (run_cols). */
static void rows_table(const struct bench *b, const struct bench_params *q,
                       struct table *t)
{
    const char **inst, **cfg;
    int64_t *seed, *rep;
    void *col[N_RUN_COLS];

    t->n_rows = b->n_inst * b->n_cfg * b->n_seeds * b->n_repeat;
    inst = tcol_text(t, "instance");
    cfg = tcol_text(t, "config");
    seed = tcol_int(t, "seed");
    rep = tcol_int(t, "repeat");
    for (size_t m = 0; m < N_RUN_COLS; m++)
        col[m] = table_col(t, run_cols[m].name, run_kind(&run_cols[m]));
    for (size_t k = 0; k < t->n_rows; k++) {
        size_t r = k % b->n_repeat, s = k / b->n_repeat % b->n_seeds;
        size_t c = k / (b->n_repeat * b->n_seeds) % b->n_cfg;
        size_t i = k / (b->n_repeat * b->n_seeds * b->n_cfg);
        const struct bench_row *w = &b->rows[k];

        assert(bench_index(b, i, c, s, r) == k);
        inst[k] = b->paths[i];
        cfg[k] = b->cfg[c].label;
        seed[k] = bench_seed(b, s);
        rep[k] = (int64_t)r;
        for (size_t m = 0; m < N_RUN_COLS; m++) {
            const struct run_col *rc = &run_cols[m];
            if (run_kind(rc) == H5COL_TEXT)
                ((const char **)col[m])[k] = run_text(rc, w);
            else if (run_kind(rc) == H5COL_INT)
                ((int64_t *)col[m])[k] = run_int(rc, w);
            else
                ((double *)col[m])[k] = run_real(rc, w, q->time_limit);
        }
    }
}

static const char *verdict_name(int v)
{
    return v == BENCH_WIN ? "win" : v == BENCH_LOSS ? "loss" : "tie";
}

/* Per instance and configuration: medians, spreads and the verdict
 * against the first configuration ("-" for the first). */
static void cells_table(const struct bench *b, const struct bench_params *q,
                        struct table *t)
{
    const char **inst, **cfg, **verdict;
    int64_t *runs, *proven, *aff, *same;
    double *tm, *tlo, *thi, *nm, *nlo, *nhi;

    t->n_rows = b->n_inst * b->n_cfg;
    inst = tcol_text(t, "instance");
    cfg = tcol_text(t, "config");
    runs = tcol_int(t, "runs");
    proven = tcol_int(t, "proven");
    tm = tcol_real(t, "time_median_s");
    tlo = tcol_real(t, "time_min_s");
    thi = tcol_real(t, "time_max_s");
    nm = tcol_real(t, "nodes_median");
    nlo = tcol_real(t, "nodes_min");
    nhi = tcol_real(t, "nodes_max");
    same = tcol_int(t, "nodes_repeatable");
    aff = tcol_int(t, "affected");
    verdict = tcol_text(t, "verdict");
    for (size_t i = 0; i < b->n_inst; i++) {
        struct bench_cell ref;
        int a = bench_affected(b, i, q);
        bench_cell(b, i, 0, q, &ref);
        for (size_t c = 0; c < b->n_cfg; c++) {
            size_t k = i * b->n_cfg + c;
            struct bench_cell x;
            bench_cell(b, i, c, q, &x);
            inst[k] = b->paths[i];
            cfg[k] = b->cfg[c].label;
            runs[k] = (int64_t)x.runs;
            proven[k] = (int64_t)x.proven;
            tm[k] = x.t_med;
            tlo[k] = x.t_min;
            thi[k] = x.t_max;
            nm[k] = x.n_med;
            nlo[k] = x.n_min;
            nhi[k] = x.n_max;
            same[k] = x.n_same;
            aff[k] = a;
            verdict[k] =
                c == 0 ? "-"
                       : verdict_name(bench_verdict(&x, &ref, q->threshold));
        }
    }
}

/* Per configuration: bench_summarize's statistics, sum[c]. */
static void summary_table(const struct bench *b,
                          const struct bench_summary *sum, struct table *t)
{
    const char **cfg;
    int64_t *solved, *limit, *failed, *aff, *wins, *ties, *losses;
    double *sgm, *sgn, *sgma, *sgna;

    t->n_rows = b->n_cfg;
    cfg = tcol_text(t, "config");
    solved = tcol_int(t, "solved");
    limit = tcol_int(t, "limit");
    failed = tcol_int(t, "failed");
    sgm = tcol_real(t, "sgm_time_s");
    sgn = tcol_real(t, "sgm_nodes");
    aff = tcol_int(t, "affected");
    sgma = tcol_real(t, "sgm_time_affected_s");
    sgna = tcol_real(t, "sgm_nodes_affected");
    wins = tcol_int(t, "wins");
    ties = tcol_int(t, "ties");
    losses = tcol_int(t, "losses");
    for (size_t c = 0; c < b->n_cfg; c++) {
        cfg[c] = b->cfg[c].label;
        solved[c] = (int64_t)sum[c].solved;
        limit[c] = (int64_t)sum[c].limit;
        failed[c] = (int64_t)sum[c].failed;
        sgm[c] = sum[c].sgm_s;
        sgn[c] = sum[c].sgm_nodes;
        aff[c] = (int64_t)sum[c].affected;
        sgma[c] = sum[c].sgm_s_aff;
        sgna[c] = sum[c].sgm_nodes_aff;
        wins[c] = (int64_t)sum[c].wins;
        ties[c] = (int64_t)sum[c].ties;
        losses[c] = (int64_t)sum[c].losses;
    }
}

/* The one-minute load average, or NaN. */
static double load_now(void)
{
    double l;

    return getloadavg(&l, 1) == 1 ? l : nan("");
}

/* The run's settings, one "key value" per item, the HDF5 file's root
 * attributes: the version, the solvers, the recorded options (their
 * records, options_record) and the load.  Returns the number of pairs
 * written to kv (each value in its own buffer of buf). */
#define HEAD_MAX 32
static size_t head_attrs(const struct corpus_args *ca, double load1,
                         const char *kv[2 * HEAD_MAX], char buf[HEAD_MAX][96])
{
    struct summary_value v[HEAD_MAX];
    size_t n = 0, m;

#define HEAD(key, ...)                                                         \
    do {                                                                       \
        snprintf(buf[n], sizeof buf[n], __VA_ARGS__);                          \
        kv[2 * n] = key;                                                       \
        kv[2 * n + 1] = buf[n];                                                \
        n++;                                                                   \
    } while (0)
    HEAD("bfsim_version", "%s", PACKAGE_VERSION);
    for (size_t k = 0; k < solver_count() && k < 2; k++)
        HEAD(k == 0 ? "solver0" : "solver1", "%s %s", solver_backend_name(k),
             solver_version(solver_backend_name(k)));
    m = options_record(&options_solve, &ca->s, v, HEAD_MAX - 5);
    for (size_t k = 0; k < m; k++) {
        if (v[k].type == SUMMARY_REAL)
            HEAD(v[k].key, "%.17g", v[k].v.d);
        else if (v[k].type == SUMMARY_TEXT)
            HEAD(v[k].key, "%s", v[k].v.s);
        else
            HEAD(v[k].key, "%" PRId64, v[k].v.i);
    }
    HEAD("load_start", "%.2f", ca->load0);
    HEAD("load_end", "%.2f", load1);
#undef HEAD
    return n;
}

static void print_head(const struct bench *b, const struct alloc_opts *o,
                       const struct corpus_args *ca, double load1)
{
    printf("corpus: %zu instances, %zu configurations, %zu repeat%s, ",
           b->n_inst, b->n_cfg, b->n_repeat, b->n_repeat == 1 ? "" : "s");
    if (ca->s.seeds)
        printf("seeds 1..%d", ca->s.seeds);
    else
        printf("the solvers' own seeds");
    printf(", runs in an order shuffled by seed %" PRIu64 "\n", b->order_seed);
    printf("solvers:");
    for (size_t k = 0; k < solver_count(); k++)
        printf("%s %s %s", k ? "," : "", solver_backend_name(k),
               solver_version(solver_backend_name(k)));
    if (solver_count() == 0)
        printf(" none");
    printf("; threads %d (0: the solver's default); time limit %g s; gap "
           "%g\n",
           o->threads, o->time_limit, o->gap_rel);
    printf("statistics: time shift %g s, node shift %g, a verdict needs "
           "a %g%% margin between the runs, affected from %g s\n",
           ca->s.q.shift_s, ca->s.q.shift_nodes, 100 * ca->s.q.threshold,
           ca->s.q.affected_s);
    printf("load average: %.2f at the start, %.2f at the end\n", ca->load0,
           load1);
}

/* A real number of the summary in w columns with p decimals, "-" when
 * NaN. */
static void print_num(int w, int p, double v)
{
    if (isnan(v))
        printf(" %*s", w, "-");
    else
        printf(" %*.*f", w, p, v);
}

static void print_table(const struct bench *b, const struct bench_summary *sum)
{
    size_t w = strlen("configuration");

    for (size_t c = 0; c < b->n_cfg; c++)
        if (strlen(b->cfg[c].label) > w)
            w = strlen(b->cfg[c].label);
    printf("%-*s %6s %5s %6s %10s %9s %8s %10s %9s %5s %5s %6s\n", (int)w,
           "configuration", "solved", "limit", "failed", "sgm_time_s",
           "sgm_nodes", "affected", "aff_time_s", "aff_nodes", "wins", "ties",
           "losses");
    for (size_t c = 0; c < b->n_cfg; c++) {
        const struct bench_summary *s = &sum[c];
        printf("%-*s %6zu %5zu %6zu", (int)w, b->cfg[c].label, s->solved,
               s->limit, s->failed);
        print_num(10, 6, s->sgm_s);
        print_num(9, 1, s->sgm_nodes);
        printf(" %8zu", s->affected);
        print_num(10, 6, s->sgm_s_aff);
        print_num(9, 1, s->sgm_nodes_aff);
        if (c == 0)
            printf(" %5s %5s %6s\n", "-", "-", "-");
        else
            printf(" %5zu %5zu %6zu\n", s->wins, s->ties, s->losses);
    }
}

/* --detail: each affected instance, a line per configuration. */
static void print_detail(const struct bench *b, const struct bench_params *q)
{
    printf("\naffected instances (time median [min..max] s; nodes median "
           "[min..max]; verdict against the first configuration):\n");
    for (size_t i = 0; i < b->n_inst; i++) {
        struct bench_cell ref;
        if (!bench_affected(b, i, q))
            continue;
        printf("%s\n", b->paths[i]);
        bench_cell(b, i, 0, q, &ref);
        for (size_t c = 0; c < b->n_cfg; c++) {
            struct bench_cell x;
            bench_cell(b, i, c, q, &x);
            printf("  %-30s %.6f [%.6f..%.6f]", b->cfg[c].label, x.t_med,
                   x.t_min, x.t_max);
            if (isnan(x.n_med))
                printf("  nodes -");
            else
                printf("  nodes %g [%g..%g]%s", x.n_med, x.n_min, x.n_max,
                       x.n_same ? "" : " (varies over repeats)");
            if (x.proven != x.runs)
                printf("  %zu of %zu runs unproven", x.runs - x.proven, x.runs);
            printf("  %s\n",
                   c ? verdict_name(bench_verdict(&x, &ref, q->threshold))
                     : "-");
        }
    }
}

/* The corpus of the n_paths instance files and the configurations
 * (those of --config, or the one the options o give) into b, ready to
 * run.  Returns 0 or an error code (in e). */
static int corpus_load(struct bench *b, int n_paths, char **paths,
                       const struct alloc_opts *o, const struct corpus_args *ca,
                       struct bfs_error *e)
{
    int rc = 0;

    b->n_repeat = (size_t)ca->s.repeat;
    b->n_seeds = ca->s.seeds ? (size_t)ca->s.seeds : 1;
    b->seeded = ca->s.seeds > 0;
    b->order_seed = ca->s.order_seed;
    for (int k = 0; k < n_paths && rc == 0; k++)
        rc = bench_add_path(b, paths[k], ca->bigm, e);
    if (rc == 0 && ca->s.configs.n == 0) {
        /* the one configuration the options give */
        char text[512];
        if (o->name && strcmp(o->name, "milp") != 0)
            snprintf(text, sizeof text, "%s", o->name);
        else
            snprintf(text, sizeof text, "milp:%s:%s",
                     o->model ? o->model : "count", o->solver ? o->solver : "");
        rc = bench_add_config(b, text, o, e);
    }
    for (size_t c = 0; c < ca->s.configs.n && rc == 0; c++)
        rc = bench_add_config(b, ca->s.configs.v[c], o, e);
    return rc;
}

/* Prints on standard error each instance where two exact configurations
 * proved different optimal objectives; returns how many instances. */
static size_t disagreements(const struct bench *b, double tol)
{
    size_t bad = 0;

    for (size_t i = 0; i < b->n_inst; i++) {
        int any = 0;
        for (size_t c1 = 0; c1 < b->n_cfg; c1++) {
            size_t r0;
            if (!bench_disagree(b, i, c1, tol, &r0))
                continue;
            any = 1;
            fprintf(stderr,
                    "bfsim solve: %s: '%s' and '%s' both proved "
                    "different optimal objectives\n",
                    b->paths[i], b->cfg[r0].label, b->cfg[c1].label);
        }
        bad += any;
    }
    return bad;
}

/* The corpus's results b written: the tables (--csv, -o) and the report
 * on standard output; *bad gets the instances where configurations
 * disagree.  Returns 0 or an error code (in e). */
static int corpus_write(const struct bench *b, const struct alloc_opts *o,
                        const struct corpus_args *ca, double load1, size_t *bad,
                        struct bfs_error *e)
{
    struct table rows = {0}, cells = {0}, summ = {0};
    struct bench_summary *sum = xcalloc(b->n_cfg + 1, sizeof *sum);
    int rc = 0;

    rows_table(b, &ca->s.q, &rows);
    cells_table(b, &ca->s.q, &cells);
    for (size_t c = 0; c < b->n_cfg; c++)
        bench_summarize(b, c, &ca->s.q, &sum[c]);
    summary_table(b, sum, &summ);
    if (ca->s.csv)
        rc = table_csv(&rows, ca->s.csv, e);
    if (rc == 0 && ca->s.h5) {
        const struct h5tab tabs[] = {
            {"rows", rows.n_rows, rows.cols, rows.n_cols},
            {"instances", cells.n_rows, cells.cols, cells.n_cols},
            {"summary", summ.n_rows, summ.cols, summ.n_cols},
        };
        const char *kv[2 * HEAD_MAX];
        char buf[HEAD_MAX][96];
        size_t n = head_attrs(ca, load1, kv, buf);
        rc = h5tables_write(ca->s.h5, tabs, 3, kv, n, e);
    }
    if (rc == 0) {
        print_head(b, o, ca, load1);
        print_table(b, sum);
        if (ca->s.detail)
            print_detail(b, &ca->s.q);
        *bad = disagreements(b, ca->s.tol);
        printf("disagreements: %zu\n", *bad);
        if (fflush(stdout) != 0)
            rc = bfs_fail(e, BFS_EIO, "cannot write the table");
    }
    xfree(sum);
    table_release(&summ);
    table_release(&cells);
    table_release(&rows);
    return rc;
}

static int solve_corpus(int n_paths, char **paths, const struct alloc_opts *o,
                        struct corpus_args *ca)
{
    struct bench b;
    struct bfs_error e;
    size_t bad = 0;
    double load1;
    int rc;

    bfs_error_clear(&e);
    bench_init(&b);
    ca->s.q.time_limit = o->time_limit;
    rc = corpus_load(&b, n_paths, paths, o, ca, &e);
    ca->load0 = load_now();
    if (rc == 0)
        rc = bench_run(&b, ca->s.jobs, &e);
    load1 = load_now();
    if (rc == 0)
        rc = corpus_write(&b, o, ca, load1, &bad, &e);
    bench_release(&b);
    if (rc)
        return cmd_report(&e, rc);
    if (bad) {
        fprintf(stderr,
                "bfsim solve: %zu instance%s where configurations proven "
                "optimal disagree beyond the tolerance %g\n",
                bad, bad == 1 ? "" : "s", ca->s.tol);
        return CMD_FAIL;
    }
    return CMD_OK;
}

/* The corpus's outputs against its instance files (a folder's *.json)
 * and each other: 0 or CMD_USAGE (cmd_check_paths). */
static int check_paths(int n_paths, char **paths, const struct corpus_args *ca)
{
    struct bfs_paths_role *r = xcalloc((size_t)n_paths + 2, sizeof *r);
    int rc;

    for (int k = 0; k < n_paths; k++)
        r[k] = (struct bfs_paths_role){"FILE", paths[k], 0, "*.json"};
    r[n_paths] = (struct bfs_paths_role){"--csv", ca->s.csv, 1, NULL};
    r[n_paths + 1] = (struct bfs_paths_role){"-o", ca->s.h5, 1, NULL};
    rc = cmd_check_paths("solve", r, (size_t)n_paths + 2);
    xfree(r);
    return rc;
}

/* Solves the one instance in path with the options a.  Returns a CMD_*
 * exit status (errors reported). */
static int solve_one(const char *path, struct solve_args *a)
{
    struct alloc_opts *o = &a->alloc;
    struct instance in;
    struct allocator *al = NULL;
    struct alloc_result r;
    struct bfs_error e;
    int rc, *counts, *types;

    bfs_error_clear(&e);
    rc = instance_read(path, &in, &e);
    if (rc)
        return cmd_report(&e, rc);
    if (a->big_m)
        in.p.cap = strcmp(a->big_m, "legacy") == 0 ? (in.p.pool + 1) / 2 : 0;
    rc = allocator_create(o, &al, &e);
    if (rc) {
        instance_release(&in);
        return cmd_report(&e, rc);
    }
    if (o->mps_dir) {
        char *stem = bench_stem(path);
        allocator_set_tag(al, stem);
        xfree(stem);
    }
    counts = xcalloc(in.p.n_jobs + 1, sizeof *counts);
    types = xcalloc(in.p.n_jobs + 1, sizeof *types);
    memset(&r, 0, sizeof r);
    r.counts = counts;
    r.types = types;
    rc = allocator_solve(al, &in.p, &r, &e);
    if (rc == 0) {
        (a->json ? print_json : print_text)(path, o, &in, &r);
        if (fflush(stdout) != 0)
            rc = bfs_fail(&e, BFS_EIO, "cannot write the result");
    }
    xfree(types);
    xfree(counts);
    allocator_free(al);
    instance_release(&in);
    return rc ? cmd_report(&e, rc) : CMD_OK;
}

/* The corpus over the n operands: the options that do not fit one
 * checked, then solve_corpus.  Returns a CMD_* exit status. */
static int corpus(int n, char **operands, struct solve_args *a, int named)
{
    struct corpus_args ca;
    int rc;

    if (n == 0)
        return bad_usage("missing instance files or directory");
    if (a->json)
        return bad_usage("--json is for one instance; use --csv over a "
                         "corpus");
    if (a->configs.n > 0 && named)
        return bad_usage("--config replaces --allocator, --model and "
                         "--solver");
    memset(&ca, 0, sizeof ca);
    ca.s = *a;
    ca.bigm = a->big_m ? strcmp(a->big_m, "legacy") == 0 : -1;
    rc = check_paths(n, operands, &ca);
    return rc ? rc : solve_corpus(n, operands, &a->alloc, &ca);
}

/* The option of a corpus given for one instance, or NULL. */
static const char *corpus_only(const struct solve_args *a)
{
    return a->csv           ? "--csv"
           : a->h5          ? "-o"
           : a->jobs != 1   ? "-j"
           : a->detail      ? "--detail"
           : a->seeds       ? "--seeds"
           : a->repeat != 1 ? "--repeat"
                            : NULL;
}

int cmd_solve(int argc, char **argv)
{
    struct solve_args a;
    struct bfs_error e;
    struct stat sb;
    unsigned char given[64];
    const char *extra;
    int help, first, named = 0;

    assert(options_solve.count <= sizeof given);

    bfs_error_clear(&e);
    if (options_parse(&options_solve, argc, argv, &a, given, &help, &first, &e))
        return bad_usage("%s", e.msg);
    if (help)
        return options_help(&options_solve, stdout) ? CMD_FAIL : CMD_OK;
    a.alloc.solver_log = solver_log;
    if (a.alloc.solver && options_solver_wants_help(a.alloc.solver))
        return solver_help(a.alloc.solver);
    if (a.alloc.mps_dir && mkdir(a.alloc.mps_dir, 0777) != 0 &&
        errno != EEXIST) {
        fprintf(stderr, "bfsim solve: --write-mps: cannot create %s: %s\n",
                a.alloc.mps_dir, strerror(errno));
        return CMD_FAIL;
    }
    for (size_t i = 0; i < options_solve.count; i++)
        named |= given[i] &&
                 (strcmp(options_solve.table[i].name, "allocator") == 0 ||
                  strcmp(options_solve.table[i].name, "model") == 0 ||
                  strcmp(options_solve.table[i].name, "solver") == 0);
    if (a.configs.n > 0 || argc - first > 1 ||
        (first < argc && stat(argv[first], &sb) == 0 && S_ISDIR(sb.st_mode)))
        return corpus(argc - first, argv + first, &a, named);
    if ((extra = corpus_only(&a)) != NULL)
        return bad_usage("%s is for a corpus (several files, a directory or "
                         "--config)",
                         extra);
    if (first != argc - 1)
        return bad_usage("%s", "missing instance file");
    return solve_one(argv[first], &a);
}
