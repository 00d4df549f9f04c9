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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void usage(FILE *f)
{
    fprintf(f, "Usage: bfsim solve [OPTIONS] FILE\n"
               "       bfsim solve [OPTIONS] [--config C]... FILE|DIR...\n"
               "\n"
               "Solve one allocation instance (a bfsim-instance JSON file, "
               "'-' for standard\n"
               "input, as written by `bfsim replay --dump-instances`) and "
               "print every job's\n"
               "new node count.\n"
               "\n"
               "Options:\n"
               "  --allocator NAME  dp, milp or even (default: milp, or dp "
               "when no MILP\n"
               "                    solver is compiled in)\n"
               "  --solver NAME     cbc or glpk (milp; default: cbc, else "
               "glpk); append\n"
               "                    ',isolate=yes' or ',isolate=no' to run "
               "each solve in a\n"
               "                    child process or not (default: yes for "
               "cbc, no for glpk),\n"
               "                    ',start=no' to solve the plain "
               "models,\n"
               "                    without dp's optimum as their start "
               "nor the counts it\n"
               "                    rules out, ',aggregate=no' (or yes; "
               "default auto) not\n"
               "                    to group alike jobs into classes in "
               "the count model,\n"
               "                    and the solver's own\n"
               "                    parameters as ',KEY=VALUE' "
               "(',help' lists them)\n"
               "  --model NAME      count or node (milp; default: count)\n"
               "  --time-limit S    wall-clock seconds per solve (milp, "
               "dp; default: 10)\n"
               "  --gap G           relative MIP gap (default: 1e-8)\n"
               "  --big-m MODE      legacy: cap every job's change at "
               "floor((N+1)/2) nodes,\n"
               "                    as the published replayer's big-M does; "
               "exact: no cap\n"
               "                    (default: the file's \"cap\")\n"
               "  --threads N       solver threads where the solver has them "
               "(CBC)\n"
               "  --log-level N     solver output (default: 0, silent)\n"
               "  --json            print the result as one JSON object\n"
               "  --write-mps DIR   write every MILP handed to the solver "
               "to DIR (created) as\n"
               "                    free MPS, STEM.K.mps (STEM the file's "
               "name without .json, K\n"
               "                    the MILP's number: 1 the objective, 2 "
               "the tie-break, 3 on\n"
               "                    its certificates; over a corpus "
               "STEM.cC.K.mps, C the\n"
               "                    configuration's number, from its first "
               "run); a maximisation\n"
               "                    is written as the minimisation of the "
               "negated objective\n"
               "  -h, --help        print this help\n"
               "\n"
               "Over a corpus (several files, a directory of *.json files "
               "or --config):\n"
               "every instance is solved by every configuration, under "
               "each seed, --repeat\n"
               "times, in one order shuffled by --order-seed, with the same "
               "options.  A MILP\n"
               "configuration solves the whole model unless it says "
               "start=yes.  Times are\n"
               "measured where the solver runs (build + solve; an unproven "
               "run counts the\n"
               "time limit).  Per configuration: instances solved, at a "
               "limit, failed, the\n"
               "shifted geometric means of the median times and nodes, the "
               "same over the\n"
               "affected instances, and wins, ties and losses against the "
               "first configuration:\n"
               "a win or loss needs every run of one faster than every run "
               "of the other by\n"
               "more than --threshold (so the medians differ by more, and "
               "the spreads do not\n"
               "overlap); times that tie are decided by node counts that "
               "differ the same way\n"
               "in every run.  Two exact configurations (not even) proven "
               "optimal with\n"
               "different objectives exit with status 1.\n"
               "  --config C        ALLOC[:MODEL][:SOLVER[,KEY=VALUE...]], "
               "e.g. dp, milp:cbc,\n"
               "                    milp:node:glpk, 'milp:cbc,cuts=off' "
               "(repeatable; default: the\n"
               "                    one --allocator, --model and --solver "
               "give)\n"
               "  --repeat N        solve each instance N times per "
               "configuration and seed\n"
               "                    (default: 1)\n"
               "  --seeds K         run each configuration under solver "
               "seeds 1..K (CBC's random\n"
               "                    seeds; GLPK sees the model's rows and "
               "columns permuted);\n"
               "                    verdicts use the median over seeds "
               "(default: the solvers'\n"
               "                    own seed, no permutation)\n"
               "  --order-seed S    seed of the shuffled order of the runs "
               "(default: 1)\n"
               "  --threshold F     relative margin between the runs a "
               "verdict needs (default: 0.1)\n"
               "  --shift S         shift of the time's geometric mean, "
               "seconds (default: 0.01)\n"
               "  --node-shift N    shift of the nodes' geometric mean "
               "(default: 10)\n"
               "  --affected S      an instance is affected when some "
               "configuration's median\n"
               "                    time is at least S seconds or node "
               "counts differ (default: 0.1)\n"
               "  --detail          print every affected instance's medians, "
               "spreads and verdicts\n"
               "  -j N              solve in N processes (default: 1)\n"
               "  --csv FILE        one row per run ('-': standard output)\n"
               "  -o, --output FILE the runs, the instances and the table as "
               "HDF5 datasets\n"
               "                    /rows, /instances and /summary\n"
               "  --tolerance T     relative tolerance of the agreement "
               "check (default: 1e-6)\n");
}

enum {
    OPT_ALLOC = 1,
    OPT_SOLVER,
    OPT_MODEL,
    OPT_TIME,
    OPT_GAP,
    OPT_BIGM,
    OPT_THREADS,
    OPT_LOG,
    OPT_JSON,
    OPT_CONFIG,
    OPT_CSV,
    OPT_SHIFT,
    OPT_NODE_SHIFT,
    OPT_TOL,
    OPT_REPEAT,
    OPT_SEEDS,
    OPT_ORDER_SEED,
    OPT_THRESHOLD,
    OPT_AFFECTED,
    OPT_DETAIL,
    OPT_MPS
};

static const struct option longopts[] = {
    {"allocator", required_argument, NULL, OPT_ALLOC},
    {"solver", required_argument, NULL, OPT_SOLVER},
    {"model", required_argument, NULL, OPT_MODEL},
    {"time-limit", required_argument, NULL, OPT_TIME},
    {"gap", required_argument, NULL, OPT_GAP},
    {"big-m", required_argument, NULL, OPT_BIGM},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"log-level", required_argument, NULL, OPT_LOG},
    {"json", no_argument, NULL, OPT_JSON},
    {"config", required_argument, NULL, OPT_CONFIG},
    {"csv", required_argument, NULL, OPT_CSV},
    {"output", required_argument, NULL, 'o'},
    {"shift", required_argument, NULL, OPT_SHIFT},
    {"node-shift", required_argument, NULL, OPT_NODE_SHIFT},
    {"tolerance", required_argument, NULL, OPT_TOL},
    {"repeat", required_argument, NULL, OPT_REPEAT},
    {"seeds", required_argument, NULL, OPT_SEEDS},
    {"order-seed", required_argument, NULL, OPT_ORDER_SEED},
    {"threshold", required_argument, NULL, OPT_THRESHOLD},
    {"affected", required_argument, NULL, OPT_AFFECTED},
    {"detail", no_argument, NULL, OPT_DETAIL},
    {"write-mps", required_argument, NULL, OPT_MPS},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

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

/* Whether the solver spec "NAME,OPT,..." has the item "help". */
static int wants_help(const char *spec)
{
    for (const char *p = strchr(spec, ','); p; p = strchr(p + 1, ','))
        if (strncmp(p + 1, "help", 4) == 0 && (p[5] == ',' || p[5] == '\0'))
            return 1;
    return 0;
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

/* A number for JSON: null when absent or not finite. */
static json_t *num(int have, double v)
{
    return have && isfinite(v) ? json_real(v) : json_null();
}

static void print_json(const char *path, const struct alloc_opts *o,
                       const struct instance *in, const struct alloc_result *r)
{
    json_t *root = json_object(), *counts = json_array();
    char *s;
    int solved = r->status == SOLVE_OPTIMAL || r->status == SOLVE_FEASIBLE;

    json_object_set_new(root, "file", json_string(path));
    json_object_set_new(root, "allocator", json_string(o->name));
    if (strcmp(o->name, "milp") == 0) {
        json_object_set_new(root, "model", json_string(o->model));
        json_object_set_new(root, "solver", json_string(o->solver));
    }
    json_object_set_new(root, "cap", json_integer(in->p.cap));
    json_object_set_new(root, "status",
                        json_string(solve_status_name(r->status)));
    json_object_set_new(root, "objective", num(solved, r->objective));
    json_object_set_new(root, "bound", num(solved, r->bound));
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
    json_object_set_new(root, "build_s", json_real(r->build_s));
    json_object_set_new(root, "solve_s", json_real(r->solve_s));
    json_object_set_new(root, "cpu_s", json_real(r->cpu_s));
    json_object_set_new(root, "ipc_s", json_real(r->ipc_s));
    json_object_set_new(root, "mip_solves",
                        json_integer((json_int_t)r->mip_solves));
    json_object_set_new(root, "nodes", num(r->nodes >= 0, (double)r->nodes));
    json_object_set_new(root, "iterations",
                        num(r->iters >= 0, (double)r->iters));
    json_object_set_new(root, "root_bound", num(1, r->root_bound));
    json_object_set_new(root, "root_cuts", num(r->cuts >= 0, (double)r->cuts));
    json_object_set_new(root, "rows", json_integer((json_int_t)r->rows));
    json_object_set_new(root, "cols", json_integer((json_int_t)r->cols));
    json_object_set_new(root, "nnz", json_integer((json_int_t)r->nnz));
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
#define CORPUS_MAX_CONFIGS 64

/* What corpus mode takes from the command line. */
struct corpus_args {
    const char *configs[CORPUS_MAX_CONFIGS]; /* borrowed from argv */
    size_t n_configs;
    int jobs;
    const char *csv; /* or NULL */
    const char *h5;  /* or NULL */
    struct bench_params q;
    double tol;
    int bigm;   /* -1 the file's, 0 exact, 1 legacy */
    int repeat; /* >= 1 */
    int seeds;  /* 0: the solver's own seed; k: seeds 1..k */
    int detail; /* print the affected instances */
    uint64_t order_seed;
    double load0; /* the load average at the start */
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

/* A count that may be unknown (-1): NaN in a table then. */
static double known(long v)
{
    return v < 0 ? nan("") : (double)v;
}

/* The runs: one row per instance, configuration, seed and repeat. */
static void rows_table(const struct bench *b, const struct bench_params *q,
                       struct table *t)
{
    const char **inst, **cfg, **st;
    int64_t *seed, *rep, *mips, *rows, *cols, *nnz;
    double *obj, *bnd, *time, *build, *solve, *cpu, *ipc, *nodes, *iters, *root,
        *cuts;

    t->n_rows = b->n_inst * b->n_cfg * b->n_seeds * b->n_repeat;
    inst = tcol_text(t, "instance");
    cfg = tcol_text(t, "config");
    seed = tcol_int(t, "seed");
    rep = tcol_int(t, "repeat");
    st = tcol_text(t, "status");
    obj = tcol_real(t, "objective");
    bnd = tcol_real(t, "bound");
    time = tcol_real(t, "time_s");
    build = tcol_real(t, "build_s");
    solve = tcol_real(t, "solve_s");
    cpu = tcol_real(t, "cpu_s");
    ipc = tcol_real(t, "ipc_s");
    nodes = tcol_real(t, "nodes");
    iters = tcol_real(t, "iterations");
    root = tcol_real(t, "root_bound");
    cuts = tcol_real(t, "root_cuts");
    mips = tcol_int(t, "mip_solves");
    rows = tcol_int(t, "rows");
    cols = tcol_int(t, "cols");
    nnz = tcol_int(t, "nnz");
    for (size_t i = 0; i < b->n_inst; i++)
        for (size_t c = 0; c < b->n_cfg; c++)
            for (size_t s = 0; s < b->n_seeds; s++)
                for (size_t r = 0; r < b->n_repeat; r++) {
                    size_t k = bench_index(b, i, c, s, r);
                    const struct bench_row *w = &b->rows[k];
                    inst[k] = b->paths[i];
                    cfg[k] = b->cfg[c].label;
                    seed[k] = bench_seed(b, s);
                    rep[k] = (int64_t)r;
                    st[k] = solve_status_name(w->status);
                    obj[k] = w->objective;
                    bnd[k] = w->bound;
                    time[k] = bench_time(w, q->time_limit);
                    build[k] = w->build_s;
                    solve[k] = w->solve_s;
                    cpu[k] = w->cpu_s;
                    ipc[k] = w->ipc_s;
                    nodes[k] = known(w->nodes);
                    iters[k] = known(w->iters);
                    root[k] = w->root_bound;
                    cuts[k] = known(w->cuts);
                    mips[k] = (int64_t)w->mip_solves;
                    rows[k] = (int64_t)w->rows;
                    cols[k] = (int64_t)w->cols;
                    nnz[k] = (int64_t)w->nnz;
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

/* The run's settings, one "key value" per item: the table's head and
 * the HDF5 file's root attributes.  Returns the number of pairs written
 * to kv (each value in its own buffer of buf). */
#define HEAD_MAX 16
static size_t head_attrs(const struct bench *b, const struct alloc_opts *o,
                         const struct corpus_args *ca, double load1,
                         const char *kv[2 * HEAD_MAX], char buf[HEAD_MAX][96])
{
    size_t n = 0;

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
    HEAD("threads", "%d", o->threads);
    HEAD("time_limit", "%.17g", o->time_limit);
    HEAD("gap", "%.17g", o->gap_rel);
    HEAD("repeat", "%zu", b->n_repeat);
    HEAD("seeds", "%d", ca->seeds);
    HEAD("order_seed", "%" PRIu64, b->order_seed);
    HEAD("shift_s", "%.17g", ca->q.shift_s);
    HEAD("shift_nodes", "%.17g", ca->q.shift_nodes);
    HEAD("threshold", "%.17g", ca->q.threshold);
    HEAD("affected_s", "%.17g", ca->q.affected_s);
    HEAD("tolerance", "%.17g", ca->tol);
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
    if (ca->seeds)
        printf("seeds 1..%d", ca->seeds);
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
           ca->q.shift_s, ca->q.shift_nodes, 100 * ca->q.threshold,
           ca->q.affected_s);
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

static int solve_corpus(int n_paths, char **paths, const struct alloc_opts *o,
                        struct corpus_args *ca)
{
    struct bench b;
    struct bfs_error e;
    struct table rows, cells, summ;
    struct bench_summary *sum = NULL;
    size_t bad = 0;
    double load1;
    int rc = 0;

    bfs_error_clear(&e);
    bench_init(&b);
    memset(&rows, 0, sizeof rows);
    memset(&cells, 0, sizeof cells);
    memset(&summ, 0, sizeof summ);
    b.n_repeat = (size_t)ca->repeat;
    b.n_seeds = ca->seeds ? (size_t)ca->seeds : 1;
    b.seeded = ca->seeds > 0;
    b.order_seed = ca->order_seed;
    ca->q.time_limit = o->time_limit;
    for (int k = 0; k < n_paths && rc == 0; k++)
        rc = bench_add_path(&b, paths[k], ca->bigm, &e);
    if (rc == 0 && ca->n_configs == 0) {
        /* the one configuration the options give */
        char text[512];
        if (o->name && strcmp(o->name, "milp") != 0)
            snprintf(text, sizeof text, "%s", o->name);
        else
            snprintf(text, sizeof text, "milp:%s:%s",
                     o->model ? o->model : "count", o->solver ? o->solver : "");
        rc = bench_add_config(&b, text, o, &e);
    }
    for (size_t c = 0; c < ca->n_configs && rc == 0; c++)
        rc = bench_add_config(&b, ca->configs[c], o, &e);
    ca->load0 = load_now();
    if (rc == 0)
        rc = bench_run(&b, ca->jobs, &e);
    load1 = load_now();
    if (rc == 0) {
        rows_table(&b, &ca->q, &rows);
        cells_table(&b, &ca->q, &cells);
        sum = xcalloc(b.n_cfg + 1, sizeof *sum);
        for (size_t c = 0; c < b.n_cfg; c++)
            bench_summarize(&b, c, &ca->q, &sum[c]);
        summary_table(&b, sum, &summ);
    }
    if (rc == 0 && ca->csv)
        rc = table_csv(&rows, ca->csv, &e);
    if (rc == 0 && ca->h5) {
        const struct h5tab tabs[] = {
            {"rows", rows.n_rows, rows.cols, rows.n_cols},
            {"instances", cells.n_rows, cells.cols, cells.n_cols},
            {"summary", summ.n_rows, summ.cols, summ.n_cols},
        };
        const char *kv[2 * HEAD_MAX];
        char buf[HEAD_MAX][96];
        size_t n = head_attrs(&b, o, ca, load1, kv, buf);
        rc = h5tables_write(ca->h5, tabs, 3, kv, n, &e);
    }
    if (rc == 0) {
        print_head(&b, o, ca, load1);
        print_table(&b, sum);
        if (ca->detail)
            print_detail(&b, &ca->q);
        for (size_t i = 0; i < b.n_inst; i++) {
            int any = 0;
            for (size_t c1 = 0; c1 < b.n_cfg; c1++) {
                size_t r0;
                if (!bench_disagree(&b, i, c1, ca->tol, &r0))
                    continue;
                any = 1;
                fprintf(stderr,
                        "bfsim solve: %s: '%s' and '%s' both proved "
                        "different optimal objectives\n",
                        b.paths[i], b.cfg[r0].label, b.cfg[c1].label);
            }
            bad += any;
        }
        printf("disagreements: %zu\n", bad);
        if (fflush(stdout) != 0)
            rc = bfs_fail(&e, BFS_EIO, "cannot write the table");
    }
    xfree(sum);
    table_release(&summ);
    table_release(&cells);
    table_release(&rows);
    bench_release(&b);
    if (rc)
        return cmd_report(&e, rc);
    if (bad) {
        fprintf(stderr,
                "bfsim solve: %zu instance%s where configurations proven "
                "optimal disagree beyond the tolerance %g\n",
                bad, bad == 1 ? "" : "s", ca->tol);
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
    r[n_paths] = (struct bfs_paths_role){"--csv", ca->csv, 1, NULL};
    r[n_paths + 1] = (struct bfs_paths_role){"-o", ca->h5, 1, NULL};
    rc = cmd_check_paths("solve", r, (size_t)n_paths + 2);
    xfree(r);
    return rc;
}

int cmd_solve(int argc, char **argv)
{
    struct alloc_opts o;
    struct instance in;
    struct allocator *a = NULL;
    struct alloc_result r;
    struct bfs_error e;
    const char *bigm = NULL, *path, *milp_only = NULL;
    int json = 0, c, rc, *counts, *types, corpus, named = 0, timed = 0;
    struct corpus_args ca = {
        .jobs = 1, .tol = 1e-6, .repeat = 1, .order_seed = 1};
    struct stat sb;

    bench_params_default(&ca.q);
    alloc_opts_default(&o);
    o.solver_log = solver_log;
    bfs_error_clear(&e);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "hj:o:", longopts, NULL)) != -1)
        switch (c) {
        case OPT_CONFIG:
            if (ca.n_configs == CORPUS_MAX_CONFIGS)
                return bad_usage("more than %d --config", CORPUS_MAX_CONFIGS);
            ca.configs[ca.n_configs++] = optarg;
            break;
        case 'j':
            if (bfs_parse_int(optarg, &ca.jobs) || ca.jobs < 1)
                return bad_usage("-j: '%s' is not a count >= 1", optarg);
            break;
        case OPT_CSV:
            ca.csv = optarg;
            break;
        case 'o':
            ca.h5 = optarg;
            break;
        case OPT_SHIFT:
            if (bfs_parse_double(optarg, &ca.q.shift_s) || !(ca.q.shift_s > 0))
                return bad_usage("--shift: '%s' is not a positive number "
                                 "of seconds",
                                 optarg);
            break;
        case OPT_NODE_SHIFT:
            if (bfs_parse_double(optarg, &ca.q.shift_nodes) ||
                !(ca.q.shift_nodes > 0))
                return bad_usage("--node-shift: '%s' is not a positive "
                                 "number",
                                 optarg);
            break;
        case OPT_REPEAT:
            if (bfs_parse_int(optarg, &ca.repeat) || ca.repeat < 1 ||
                ca.repeat > 1000)
                return bad_usage("--repeat: '%s' is not a count from 1 to "
                                 "1000",
                                 optarg);
            break;
        case OPT_SEEDS:
            if (bfs_parse_int(optarg, &ca.seeds) || ca.seeds < 1 ||
                ca.seeds > 1000)
                return bad_usage("--seeds: '%s' is not a count from 1 to "
                                 "1000",
                                 optarg);
            break;
        case OPT_ORDER_SEED: {
            int64_t v;
            if (bfs_parse_i64(optarg, &v) || v < 0)
                return bad_usage("--order-seed: '%s' is not a number >= 0",
                                 optarg);
            ca.order_seed = (uint64_t)v;
            break;
        }
        case OPT_THRESHOLD:
            if (bfs_parse_double(optarg, &ca.q.threshold) ||
                !(ca.q.threshold >= 0))
                return bad_usage("--threshold: '%s' is not a number >= 0",
                                 optarg);
            break;
        case OPT_AFFECTED:
            if (bfs_parse_double(optarg, &ca.q.affected_s) ||
                !(ca.q.affected_s >= 0))
                return bad_usage("--affected: '%s' is not a number of "
                                 "seconds >= 0",
                                 optarg);
            break;
        case OPT_DETAIL:
            ca.detail = 1;
            break;
        case OPT_MPS:
            milp_only = "--write-mps";
            o.mps_dir = optarg;
            break;
        case OPT_TOL:
            if (bfs_parse_double(optarg, &ca.tol) || !(ca.tol >= 0))
                return bad_usage("--tolerance: '%s' is not a number >= 0",
                                 optarg);
            break;
        case OPT_ALLOC:
            named = 1;
            o.name = optarg;
            break;
        case OPT_SOLVER:
            named = 1;
            milp_only = "--solver";
            o.solver = optarg;
            break;
        case OPT_MODEL:
            named = 1;
            milp_only = "--model";
            o.model = optarg;
            break;
        case OPT_TIME: /* the MILP's and dp's */
            timed = 1;
            if (bfs_parse_double(optarg, &o.time_limit) || !(o.time_limit > 0))
                return bad_usage("--time-limit: '%s' is not a positive "
                                 "number of seconds",
                                 optarg);
            break;
        case OPT_GAP:
            milp_only = "--gap";
            if (bfs_parse_double(optarg, &o.gap_rel) || o.gap_rel < 0)
                return bad_usage("--gap: '%s' is not a number >= 0", optarg);
            break;
        case OPT_BIGM:
            if (strcmp(optarg, "legacy") != 0 && strcmp(optarg, "exact") != 0)
                return bad_usage("--big-m: '%s' is not legacy or exact",
                                 optarg);
            bigm = optarg;
            break;
        case OPT_THREADS:
            milp_only = "--threads";
            if (bfs_parse_int(optarg, &o.threads) || o.threads < 0)
                return bad_usage("--threads: '%s' is not a count", optarg);
            break;
        case OPT_LOG:
            milp_only = "--log-level";
            if (bfs_parse_int(optarg, &o.log_level) || o.log_level < 0)
                return bad_usage("--log-level: '%s' is not a level", optarg);
            break;
        case OPT_JSON:
            json = 1;
            break;
        case 'h':
            usage(stdout);
            return CMD_OK;
        default:
            return bad_usage("unknown or incomplete option '%s'",
                             argv[optind - 1]);
        }
    if (o.solver && wants_help(o.solver))
        return solver_help(o.solver);
    /* An option the allocator would ignore is a usage error. */
    if (milp_only && o.name && strcmp(o.name, "milp") != 0)
        return bad_usage("%s is an option of --allocator milp; --allocator "
                         "%s would ignore it",
                         milp_only, o.name);
    if (timed && o.name && strcmp(o.name, "even") == 0)
        return bad_usage("--time-limit is an option of --allocator milp or "
                         "dp; --allocator even would ignore it");
    if (o.mps_dir && mkdir(o.mps_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "bfsim solve: --write-mps: cannot create %s: %s\n",
                o.mps_dir, strerror(errno));
        return CMD_FAIL;
    }
    corpus =
        ca.n_configs > 0 || argc - optind > 1 ||
        (optind < argc && stat(argv[optind], &sb) == 0 && S_ISDIR(sb.st_mode));
    if (corpus) {
        if (optind == argc)
            rc = bad_usage("missing instance files or directory");
        else if (json)
            rc = bad_usage("--json is for one instance; use --csv over a "
                           "corpus");
        else if (ca.n_configs > 0 && named)
            rc = bad_usage("--config replaces --allocator, --model and "
                           "--solver");
        else {
            ca.bigm = bigm ? strcmp(bigm, "legacy") == 0 : -1;
            rc = check_paths(argc - optind, argv + optind, &ca);
            if (rc == 0)
                rc = solve_corpus(argc - optind, argv + optind, &o, &ca);
        }
        return rc;
    }
    if (ca.csv || ca.h5 || ca.jobs != 1 || ca.repeat != 1 || ca.seeds ||
        ca.detail)
        return bad_usage("%s is for a corpus (several files, a directory or "
                         "--config)",
                         ca.csv         ? "--csv"
                         : ca.h5        ? "-o"
                         : ca.jobs != 1 ? "-j"
                         : ca.detail    ? "--detail"
                         : ca.seeds     ? "--seeds"
                                        : "--repeat");
    if (optind != argc - 1)
        return bad_usage("%s", "missing instance file");
    path = argv[optind];
    rc = instance_read(path, &in, &e);
    if (rc)
        return cmd_report(&e, rc);
    if (bigm)
        in.p.cap = strcmp(bigm, "legacy") == 0 ? (in.p.pool + 1) / 2 : 0;
    rc = allocator_create(&o, &a, &e);
    if (rc) {
        instance_release(&in);
        return cmd_report(&e, rc);
    }
    if (o.mps_dir) {
        char *stem = bench_stem(path);
        allocator_set_tag(a, stem);
        xfree(stem);
    }
    counts = xcalloc(in.p.n_jobs + 1, sizeof *counts);
    types = xcalloc(in.p.n_jobs + 1, sizeof *types);
    memset(&r, 0, sizeof r);
    r.counts = counts;
    r.types = types;
    rc = allocator_solve(a, &in.p, &r, &e);
    if (rc == 0) {
        if (json)
            print_json(path, &o, &in, &r);
        else
            print_text(path, &o, &in, &r);
        if (fflush(stdout) != 0) {
            bfs_fail(&e, BFS_EIO, "cannot write the result");
            rc = BFS_EIO;
        }
    }
    xfree(types);
    xfree(counts);
    allocator_free(a);
    instance_release(&in);
    return rc ? cmd_report(&e, rc) : CMD_OK;
}
