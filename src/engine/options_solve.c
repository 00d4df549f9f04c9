/* options_solve.c - the records of `bfsim solve`'s options.
 *
 * Design: as engine/options.c for the replay: one const array of typed
 * records over struct solve_args, from which cli/cmd_solve.c's getopt
 * table and help are derived (options_parse, options_help).  What the
 * records cannot say (a corpus's options given for one instance, --json
 * over a corpus) is checked by the command, which knows its operands.
 * Nothing here prints.
 */
#include "config.h"

#include "engine/options.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

static void solve_defaults(void *v)
{
    struct solve_args *a = v;

    memset(a, 0, sizeof *a);
    alloc_opts_default(&a->alloc);
    bench_params_default(&a->q);
    a->jobs = 1;
    a->tol = 1e-6;
    a->repeat = 1;
    a->order_seed = 1;
}

int options_solver_wants_help(const char *spec)
{
    for (const char *p = strchr(spec, ','); p; p = strchr(p + 1, ','))
        if (strncmp(p + 1, "help", 4) == 0 && (p[5] == ',' || p[5] == '\0'))
            return 1;
    return 0;
}

/* ---- parsers and shown values -------------------------------------------- */

static const char *p_big_m(void *v, const char *s)
{
    struct solve_args *a = v;

    if (strcmp(s, "legacy") != 0 && strcmp(s, "exact") != 0)
        return "is not legacy or exact";
    a->big_m = s;
    return NULL;
}

static const char *p_order_seed(void *v, const char *s)
{
    struct solve_args *a = v;
    int64_t n;

    if (bfs_parse_i64(s, &n) || n < 0)
        return "is not a number >= 0";
    a->order_seed = (uint64_t)n;
    return NULL;
}

static void d_name(const char *name, char *b, size_t n)
{
    snprintf(b, n, "%s", name ? name : "none compiled in");
}

static void d_allocator(const void *v, char *b, size_t n)
{
    d_name(((const struct solve_args *)v)->alloc.name, b, n);
}

static void d_solver(const void *v, char *b, size_t n)
{
    d_name(((const struct solve_args *)v)->alloc.solver, b, n);
}

static void d_big_m(const void *v, char *b, size_t n)
{
    const char *m = ((const struct solve_args *)v)->big_m;

    snprintf(b, n, "%s", m ? m : "the file's \"cap\"");
}

static void d_seeds(const void *v, char *b, size_t n)
{
    int k = ((const struct solve_args *)v)->seeds;

    if (k)
        snprintf(b, n, "%d", k);
    else
        snprintf(b, n, "the solvers' own seed, no permutation");
}

static void d_order_seed(const void *v, char *b, size_t n)
{
    snprintf(b, n, "%" PRIu64, ((const struct solve_args *)v)->order_seed);
}

static void d_config(const void *v, char *b, size_t n)
{
    const struct solve_args *a = v;

    if (a->configs.n)
        snprintf(b, n, "%zu configurations", a->configs.n);
    else
        snprintf(b, n, "the one --allocator, --model and --solver give");
}

/* The seed of the runs' order, recorded as an integer. */
static size_t r_order_seed(const void *v, struct summary_value *out)
{
    out->key = "order_seed";
    out->type = SUMMARY_INT;
    out->v.i = (int64_t)((const struct solve_args *)v)->order_seed;
    return 1;
}

/* ---- the check ----------------------------------------------------------- */

/* The options only the MILP reads. */
static const char *const milp_only[] = {"solver",  "model",     "gap",
                                        "threads", "log-level", "write-mps"};

static int solve_check(const void *v, const unsigned char *given,
                       struct bfs_error *e)
{
    const struct solve_args *a = v;
    const char *alloc = a->alloc.name;

    if (a->alloc.solver && options_solver_wants_help(a->alloc.solver))
        return 0; /* the command shows the solver's parameters */
    for (size_t i = 0; alloc && i < options_solve.count; i++) {
        const char *name = options_solve.table[i].name;
        if (!given[i])
            continue;
        for (size_t k = 0; k < sizeof milp_only / sizeof *milp_only; k++)
            if (strcmp(name, milp_only[k]) == 0 && strcmp(alloc, "milp") != 0)
                return bfs_fail(e, BFS_EUSAGE,
                                "--%s is an option of --allocator milp; "
                                "--allocator %s would ignore it",
                                name, alloc);
        if (strcmp(name, "time-limit") == 0 && strcmp(alloc, "even") == 0)
            return bfs_fail(e, BFS_EUSAGE,
                            "--time-limit is an option of --allocator milp or "
                            "dp; --allocator even would ignore it");
    }
    return 0;
}

/* ---- the records --------------------------------------------------------- */

/* Recorded: the corpus's settings, the HDF5 file's root attributes. */

#define ONE 0    /* the solve's options */
#define CORPUS 1 /* a corpus's */
#define F(member) .field = offsetof(struct solve_args, member)
#define STRING(member) .type = OPTIONS_STRING, F(member)
#define COUNT(member, low, high, problem)                                      \
    .type = OPTIONS_INT, F(member), .lo = low, .hi = high, .bad = problem
#define REAL(member, low, open, problem)                                       \
    .type = OPTIONS_DOUBLE, F(member), .lo = low, .hi = HUGE_VAL,              \
    .lo_open = open, .bad = problem

static const struct options_entry solve_table[] = {
    {"allocator", 0, "NAME", ONE, STRING(alloc.name), .show = d_allocator,
     .show_default = 1, .help = "dp, milp or even"},
    {"solver", 0, "NAME", ONE, STRING(alloc.solver), .show = d_solver,
     .show_default = 1,
     .help = "cbc or glpk (milp); append ',isolate=yes' or ',isolate=no' to "
             "run each solve in a child process or not (default: yes for "
             "cbc, no for glpk), ',start=no' to solve the plain models, "
             "without dp's optimum as their start nor the counts it rules "
             "out, ',aggregate=no' (or yes; default auto) not to group "
             "alike jobs into classes in the count model, and the solver's "
             "own parameters as ',KEY=VALUE' (',help' lists them)"},
    {"model", 0, "NAME", ONE, STRING(alloc.model), .show_default = 1,
     .help = "count or node (milp)"},
    {"time-limit", 0, "S", ONE,
     REAL(alloc.time_limit, 0, 1, "is not a positive number of seconds"),
     .show_default = 1, .help = "wall-clock seconds per solve (milp, dp)",
     .recorded = 1, .key = "time_limit"},
    {"gap", 0, "G", ONE, REAL(alloc.gap_rel, 0, 0, "is not a number >= 0"),
     .show_default = 1, .help = "relative MIP gap", .recorded = 1,
     .key = "gap"},
    {"big-m", 0, "legacy|exact", ONE, .type = OPTIONS_CUSTOM, .parse = p_big_m,
     .show = d_big_m, .show_default = 1,
     .help = "legacy: cap every job's change at floor((N+1)/2) nodes, as the "
             "published replayer's big-M does; exact: no cap"},
    {"threads", 0, "N", ONE, COUNT(alloc.threads, 0, INT_MAX, "is not a count"),
     .help = "solver threads where the solver has them (CBC)", .recorded = 1,
     .key = "threads"},
    {"log-level", 0, "N", ONE,
     COUNT(alloc.log_level, 0, INT_MAX, "is not a level"), .show_default = 1,
     .help = "solver output, 0 silent"},
    {"json", 0, NULL, ONE, .type = OPTIONS_FLAG, F(json),
     .help = "print the result as one JSON object"},
    {"write-mps", 0, "DIR", ONE, STRING(alloc.mps_dir),
     .help = "write every MILP handed to the solver to DIR (created) as free "
             "MPS, STEM.K.mps (STEM the file's name without .json, K the "
             "MILP's number: 1 the objective, 2 the tie-break, 3 on its "
             "certificates; over a corpus STEM.cC.K.mps, C the "
             "configuration's number, from its first run); a maximisation is "
             "written as the minimisation of the negated objective"},
    {"help", 'h', NULL, ONE, .type = OPTIONS_HELP, .help = "print this help"},

    {"config", 0, "C", CORPUS, .type = OPTIONS_LIST, F(configs),
     .show = d_config, .show_default = 1,
     .help = "ALLOC[:MODEL][:SOLVER[,KEY=VALUE...]], e.g. dp, milp:cbc, "
             "milp:node:glpk, 'milp:cbc,cuts=off' (repeatable)"},
    {"repeat", 0, "N", CORPUS,
     COUNT(repeat, 1, 1000, "is not a count from 1 to 1000"), .show_default = 1,
     .help = "solve each instance N times per configuration and seed",
     .recorded = 1, .key = "repeat"},
    {"seeds", 0, "K", CORPUS,
     COUNT(seeds, 1, 1000, "is not a count from 1 to 1000"), .show = d_seeds,
     .show_default = 1,
     .help = "run each configuration under solver seeds 1..K (CBC's random "
             "seeds; GLPK sees the model's rows and columns permuted); "
             "verdicts use the median over seeds",
     .recorded = 1, .key = "seeds"},
    {"order-seed", 0, "S", CORPUS, .type = OPTIONS_CUSTOM,
     .parse = p_order_seed, .show = d_order_seed, .show_default = 1,
     .help = "seed of the shuffled order of the runs", .recorded = 1,
     .record = r_order_seed},
    {"threshold", 0, "F", CORPUS,
     REAL(q.threshold, 0, 0, "is not a number >= 0"), .show_default = 1,
     .help = "relative margin between the runs a verdict needs", .recorded = 1,
     .key = "threshold"},
    {"shift", 0, "S", CORPUS,
     REAL(q.shift_s, 0, 1, "is not a positive number of seconds"),
     .show_default = 1, .help = "shift of the time's geometric mean, seconds",
     .recorded = 1, .key = "shift_s"},
    {"node-shift", 0, "N", CORPUS,
     REAL(q.shift_nodes, 0, 1, "is not a positive number"), .show_default = 1,
     .help = "shift of the nodes' geometric mean", .recorded = 1,
     .key = "shift_nodes"},
    {"affected", 0, "S", CORPUS,
     REAL(q.affected_s, 0, 0, "is not a number of seconds >= 0"),
     .show_default = 1,
     .help = "an instance is affected when some configuration's median time "
             "is at least S seconds or node counts differ",
     .recorded = 1, .key = "affected_s"},
    {"detail", 0, NULL, CORPUS, .type = OPTIONS_FLAG, F(detail),
     .help = "print every affected instance's medians, spreads and verdicts"},
    {"jobs", 'j', "N", CORPUS, COUNT(jobs, 1, INT_MAX, "is not a count >= 1"),
     .show_default = 1, .help = "solve in N processes"},
    {"csv", 0, "FILE", CORPUS, STRING(csv),
     .help = "one row per run ('-': standard output)"},
    {"output", 'o', "FILE", CORPUS, STRING(h5),
     .help = "the runs, the instances and the table as HDF5 datasets /rows, "
             "/instances and /summary"},
    {"tolerance", 0, "T", CORPUS, REAL(tol, 0, 0, "is not a number >= 0"),
     .show_default = 1, .help = "relative tolerance of the agreement check",
     .recorded = 1, .key = "tolerance"},
};

static const char *const solve_groups[] = {
    "Options:",
    "Over a corpus (several files, a directory of *.json files or --config):\n"
    "every instance is solved by every configuration, under each seed, "
    "--repeat\n"
    "times, in one order shuffled by --order-seed, with the same options.  "
    "A MILP\n"
    "configuration solves the whole model unless it says start=yes.  Times "
    "are\n"
    "measured where the solver runs (build + solve; an unproven run counts "
    "the\n"
    "time limit).  Per configuration: instances solved, at a limit, failed, "
    "the\n"
    "shifted geometric means of the median times and nodes, the same over "
    "the\n"
    "affected instances, and wins, ties and losses against the first "
    "configuration:\n"
    "a win or loss needs every run of one faster than every run of the "
    "other by\n"
    "more than --threshold (so the medians differ by more, and the spreads "
    "do not\n"
    "overlap); times that tie are decided by node counts that differ the "
    "same way\n"
    "in every run.  Two exact configurations (not even) proven optimal "
    "with\n"
    "different objectives exit with status 1.",
};

const struct options_command options_solve = {
    .name = "solve",
    .synopsis = "Usage: bfsim solve [OPTIONS] FILE\n"
                "       bfsim solve [OPTIONS] [--config C]... FILE|DIR...\n"
                "\n"
                "Solve one allocation instance (a bfsim-instance JSON file, "
                "'-' for standard\n"
                "input, as written by `bfsim replay --dump-instances`) and "
                "print every job's\n"
                "new node count.\n",
    OPTIONS_RECORDS(solve_table, solve_groups, solve_args, solve_defaults,
                    solve_check),
};
