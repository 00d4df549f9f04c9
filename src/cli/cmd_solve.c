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
#include "base/out.h"
#include "formats/h5tables.h"
#include "base/util.h"
#include "solver/solver.h"

#include <getopt.h>
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
               "                    rules out, and the solver's own\n"
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
               "  -h, --help        print this help\n"
               "\n"
               "Over a corpus (several files, a directory of *.json files "
               "or --config):\n"
               "every instance is solved by every configuration with the "
               "same options, and\n"
               "a table per configuration is printed: optimal, limit "
               "(feasible or no-solution),\n"
               "failed, the shifted geometric mean of the times (unproven "
               "ones count the time\n"
               "limit), wins and losses against the first configuration "
               "(10%% faster or slower).\n"
               "Two exact configurations (not even) proven optimal with "
               "different objectives\n"
               "exit with status 1.\n"
               "  --config C        ALLOC[:MODEL][:SOLVER[,KEY=VALUE...]], "
               "e.g. dp, milp:cbc,\n"
               "                    milp:node:glpk, 'milp:cbc,cuts=off' "
               "(repeatable; default: the\n"
               "                    one --allocator, --model and --solver "
               "give)\n"
               "  -j N              solve in N processes (default: 1)\n"
               "  --csv FILE        one row per instance and configuration "
               "('-': standard output)\n"
               "  -o, --output FILE the rows and the table as HDF5 "
               "datasets /rows and /summary\n"
               "  --shift S         shift of the geometric mean, seconds "
               "(default: 10)\n"
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
    OPT_TOL
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
    {"tolerance", required_argument, NULL, OPT_TOL},
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
    json_object_set_new(root, "build_s", json_real(r->build_s));
    json_object_set_new(root, "solve_s", json_real(r->solve_s));
    json_object_set_new(root, "rows", json_integer((json_int_t)r->rows));
    json_object_set_new(root, "cols", json_integer((json_int_t)r->cols));
    json_object_set_new(root, "nnz", json_integer((json_int_t)r->nnz));
    s = json_dumps(root, JSON_REAL_PRECISION(17));
    if (s)
        puts(s);
    free(s);
    json_decref(root);
}

static void print_text(const char *path, const struct alloc_opts *o,
                       const struct instance *in, const struct alloc_result *r)
{
    int solved = r->status == SOLVE_OPTIMAL || r->status == SOLVE_FEASIBLE;

    printf("instance   %s: %zu jobs, pool %d, Tfwd %.17g, cap %d\n", path,
           in->p.n_jobs, in->p.pool, in->p.tfwd, in->p.cap);
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
    printf("times      build %.6f s, solve %.6f s\n", r->build_s, r->solve_s);
    if (r->rows || r->cols)
        printf("model      %zu rows, %zu columns, %zu nonzeros\n", r->rows,
               r->cols, r->nnz);
    if (!solved)
        return;
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
    double shift, tol;
    int bigm; /* -1 the file's, 0 exact, 1 legacy */
};

/* A number for the CSV: empty when NaN. */
static void csv_num(FILE *f, double v)
{
    if (isnan(v))
        fputc(',', f);
    else
        fprintf(f, ",%.17g", v);
}

static int write_csv(const struct bench *b, const char *path,
                     struct bfs_error *e)
{
    struct bfs_out out;
    int rc = bfs_out_open(&out, path, e);

    if (rc)
        return rc;
    fprintf(out.fp, "instance,config,status,objective,bound,time_s,build_s,"
                    "solve_s,rows,cols,nnz\n");
    for (size_t i = 0; i < b->n_inst; i++)
        for (size_t c = 0; c < b->n_cfg; c++) {
            const struct bench_row *r = &b->rows[i * b->n_cfg + c];
            /* labels may hold commas: quote them */
            fprintf(out.fp, "%s,\"%s\",%s", b->paths[i], b->cfg[c].label,
                    solve_status_name(r->status));
            csv_num(out.fp, r->objective);
            csv_num(out.fp, r->bound);
            fprintf(out.fp, ",%.6f,%.6f,%.6f,%zu,%zu,%zu\n",
                    r->build_s + r->solve_s, r->build_s, r->solve_s, r->rows,
                    r->cols, r->nnz);
        }
    rc = bfs_out_commit(&out, e);
    if (rc)
        bfs_out_abort(&out);
    return rc;
}

/* The rows and the table per configuration as /rows and /summary of an
 * HDF5 file, with the run's options as root attributes. */
static int write_h5(const struct bench *b, const struct alloc_opts *o,
                    const struct corpus_args *ca, struct bfs_error *e)
{
    size_t n = b->n_inst * b->n_cfg, nc = b->n_cfg;
    const char **inst = xcalloc(n + 1, sizeof *inst);
    const char **cfg = xcalloc(n + 1, sizeof *cfg);
    const char **st = xcalloc(n + 1, sizeof *st);
    double *d = xcalloc(5 * (n + 1), sizeof *d);
    int64_t *iv = xcalloc(3 * (n + 1), sizeof *iv);
    const char **sc = xcalloc(nc + 1, sizeof *sc);
    int64_t *si = xcalloc(6 * (nc + 1), sizeof *si);
    double *sg = xcalloc(nc + 1, sizeof *sg);
    char tl[64], sh[64], tol[64], gap[64];
    int rc;

    for (size_t k = 0; k < n; k++) {
        const struct bench_row *r = &b->rows[k];
        inst[k] = b->paths[k / nc];
        cfg[k] = b->cfg[k % nc].label;
        st[k] = solve_status_name(r->status);
        d[k] = r->objective;
        d[n + 1 + k] = r->bound;
        d[2 * (n + 1) + k] = r->build_s + r->solve_s;
        d[3 * (n + 1) + k] = r->build_s;
        d[4 * (n + 1) + k] = r->solve_s;
        iv[k] = (int64_t)r->rows;
        iv[n + 1 + k] = (int64_t)r->cols;
        iv[2 * (n + 1) + k] = (int64_t)r->nnz;
    }
    for (size_t c = 0; c < nc; c++) {
        struct bench_summary s;
        bench_summarize(b, c, o->time_limit, ca->shift, 1.1, &s);
        sc[c] = b->cfg[c].label;
        si[c] = (int64_t)s.optimal;
        si[nc + 1 + c] = (int64_t)s.infeasible;
        si[2 * (nc + 1) + c] = (int64_t)s.limit;
        si[3 * (nc + 1) + c] = (int64_t)s.failed;
        si[4 * (nc + 1) + c] = (int64_t)s.wins;
        si[5 * (nc + 1) + c] = (int64_t)s.losses;
        sg[c] = s.sgm_s;
    }
    {
        const struct h5col rows[] = {
            {"instance", H5COL_TEXT, inst},
            {"config", H5COL_TEXT, cfg},
            {"status", H5COL_TEXT, st},
            {"objective", H5COL_REAL, d},
            {"bound", H5COL_REAL, d + n + 1},
            {"time_s", H5COL_REAL, d + 2 * (n + 1)},
            {"build_s", H5COL_REAL, d + 3 * (n + 1)},
            {"solve_s", H5COL_REAL, d + 4 * (n + 1)},
            {"rows", H5COL_INT, iv},
            {"cols", H5COL_INT, iv + n + 1},
            {"nnz", H5COL_INT, iv + 2 * (n + 1)},
        };
        const struct h5col summ[] = {
            {"config", H5COL_TEXT, sc},
            {"optimal", H5COL_INT, si},
            {"infeasible", H5COL_INT, si + nc + 1},
            {"limit", H5COL_INT, si + 2 * (nc + 1)},
            {"failed", H5COL_INT, si + 3 * (nc + 1)},
            {"sgm_time_s", H5COL_REAL, sg},
            {"wins", H5COL_INT, si + 4 * (nc + 1)},
            {"losses", H5COL_INT, si + 5 * (nc + 1)},
        };
        const struct h5tab tabs[] = {
            {"rows", n, rows, sizeof rows / sizeof *rows},
            {"summary", nc, summ, sizeof summ / sizeof *summ},
        };
        const char *attrs[10];
        snprintf(tl, sizeof tl, "%.17g", o->time_limit);
        snprintf(sh, sizeof sh, "%.17g", ca->shift);
        snprintf(tol, sizeof tol, "%.17g", ca->tol);
        snprintf(gap, sizeof gap, "%.17g", o->gap_rel);
        attrs[0] = "bfsim_version";
        attrs[1] = PACKAGE_VERSION;
        attrs[2] = "time_limit";
        attrs[3] = tl;
        attrs[4] = "gap";
        attrs[5] = gap;
        attrs[6] = "shift";
        attrs[7] = sh;
        attrs[8] = "tolerance";
        attrs[9] = tol;
        rc = h5tables_write(ca->h5, tabs, 2, attrs, 5, e);
    }
    xfree(sg);
    xfree(si);
    xfree(sc);
    xfree(iv);
    xfree(d);
    xfree(st);
    xfree(cfg);
    xfree(inst);
    return rc;
}

static void print_table(const struct bench *b, const struct alloc_opts *o,
                        const struct corpus_args *ca)
{
    size_t w = strlen("configuration");

    for (size_t c = 0; c < b->n_cfg; c++)
        if (strlen(b->cfg[c].label) > w)
            w = strlen(b->cfg[c].label);
    printf("corpus: %zu instances, %zu configurations, time limit %g s, "
           "shift %g s\n",
           b->n_inst, b->n_cfg, o->time_limit, ca->shift);
    printf("%-*s %8s %6s %7s %12s %5s %6s\n", (int)w, "configuration",
           "optimal", "limit", "failed", "sgm_time_s", "wins", "losses");
    for (size_t c = 0; c < b->n_cfg; c++) {
        struct bench_summary s;
        bench_summarize(b, c, o->time_limit, ca->shift, 1.1, &s);
        printf("%-*s %8zu %6zu %7zu %12.6f", (int)w, b->cfg[c].label, s.optimal,
               s.limit, s.failed, s.sgm_s);
        if (c == 0)
            printf(" %5s %6s\n", "-", "-");
        else
            printf(" %5zu %6zu\n", s.wins, s.losses);
    }
}

static int solve_corpus(int n_paths, char **paths, const struct alloc_opts *o,
                        const struct corpus_args *ca)
{
    struct bench b;
    struct bfs_error e;
    size_t bad = 0;
    int rc = 0;

    bfs_error_clear(&e);
    bench_init(&b);
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
    if (rc == 0)
        rc = bench_run(&b, ca->jobs, &e);
    if (rc == 0 && ca->csv)
        rc = write_csv(&b, ca->csv, &e);
    if (rc == 0 && ca->h5)
        rc = write_h5(&b, o, ca, &e);
    if (rc == 0) {
        print_table(&b, o, ca);
        for (size_t i = 0; i < b.n_inst; i++) {
            const struct bench_row *row = &b.rows[i * b.n_cfg];
            int any = 0;
            for (size_t c1 = 1; c1 < b.n_cfg; c1++) {
                size_t r0;
                if (!bench_disagree(&b, i, c1, ca->tol, &r0))
                    continue;
                any = 1;
                fprintf(stderr,
                        "bfsim solve: %s: '%s' and '%s' both proved "
                        "optimal objectives %.17g and %.17g\n",
                        b.paths[i], b.cfg[r0].label, b.cfg[c1].label,
                        row[r0].objective, row[c1].objective);
            }
            bad += any;
        }
        printf("disagreements: %zu\n", bad);
        if (fflush(stdout) != 0)
            rc = bfs_fail(&e, BFS_EIO, "cannot write the table");
    }
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
    int json = 0, c, rc, *counts, corpus, named = 0, timed = 0;
    struct corpus_args ca = {.jobs = 1, .shift = 10.0, .tol = 1e-6};
    struct stat sb;

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
            if (bfs_parse_double(optarg, &ca.shift) || !(ca.shift > 0))
                return bad_usage("--shift: '%s' is not a positive number "
                                 "of seconds",
                                 optarg);
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
    if (ca.csv || ca.h5 || ca.jobs != 1)
        return bad_usage("%s is for a corpus (several files, a directory or "
                         "--config)",
                         ca.csv  ? "--csv"
                         : ca.h5 ? "-o"
                                 : "-j");
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
    counts = xcalloc(in.p.n_jobs + 1, sizeof *counts);
    memset(&r, 0, sizeof r);
    r.counts = counts;
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
    xfree(counts);
    allocator_free(a);
    instance_release(&in);
    return rc ? cmd_report(&e, rc) : CMD_OK;
}
