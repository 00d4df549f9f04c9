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
#include "cli/cmd.h"
#include "alloc/instance.h"
#include "base/util.h"
#include "solver/solver.h"

#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "Usage: bfsim solve [OPTIONS] FILE\n"
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
               "                    ',start=no' to solve the plain node "
               "model on CBC,\n"
               "                    without dp's optimum as its start, and "
               "the solver's own\n"
               "                    parameters as ',KEY=VALUE' "
               "(',help' lists them)\n"
               "  --model NAME      count or node (milp; default: count)\n"
               "  --time-limit S    wall-clock seconds per solve (default: "
               "10)\n"
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
               "  -h, --help        print this help\n");
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
    OPT_JSON
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
           "node model: start from dp's optimum where the solver takes it");
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

int cmd_solve(int argc, char **argv)
{
    struct alloc_opts o;
    struct instance in;
    struct allocator *a = NULL;
    struct alloc_result r;
    struct bfs_error e;
    const char *bigm = NULL, *path, *milp_only = NULL;
    int json = 0, c, rc, *counts;

    alloc_opts_default(&o);
    o.solver_log = solver_log;
    bfs_error_clear(&e);
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1)
        switch (c) {
        case OPT_ALLOC:
            o.name = optarg;
            break;
        case OPT_SOLVER:
            milp_only = "--solver";
            o.solver = optarg;
            break;
        case OPT_MODEL:
            milp_only = "--model";
            o.model = optarg;
            break;
        case OPT_TIME:
            milp_only = "--time-limit";
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
    if (optind != argc - 1)
        return bad_usage("%s", optind < argc ? "give one instance file"
                                             : "missing instance file");
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
