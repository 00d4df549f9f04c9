/* options.c - the table of `bfsim replay`'s options.
 *
 * Design: one const array of entries, tmux-style, each naming its own
 * parser and default printer; everything else about an option (getopt's
 * table, the help, a sweep's key check) is derived by the code that
 * iterates the array.  A parser writes one field (or two) of struct
 * replay_args and returns NULL or the problem with its argument; the
 * caller words the usage error ("--tfwd: 'x' is not ..."), so every
 * message names the option and the value the same way.  A default
 * printer reads the struct options_default() filled, never a literal,
 * so the help shows what the code does.  Nothing here prints.
 */
#include "config.h"

#include "engine/options.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "formats/jobs.h"

void options_default(struct replay_args *a)
{
    memset(a, 0, sizeof *a);
    replay_opts_default(&a->replay);
}

int options_parse_nodes(const char *s, size_t *skip, size_t *count)
{
    const char *colon = strchr(s, ':');
    int64_t a = 0, b;
    char buf[64];

    if (colon) {
        if ((size_t)(colon - s) >= sizeof buf)
            return -1;
        memcpy(buf, s, (size_t)(colon - s));
        buf[colon - s] = '\0';
        if (bfs_parse_i64(buf, &a) || a < 0)
            return -1;
        s = colon + 1;
    }
    if (bfs_parse_i64(s, &b) || b < 1)
        return -1;
    *skip = (size_t)a;
    *count = (size_t)b;
    return 0;
}

/* ---- parsers ------------------------------------------------------------- */

static const char *p_trace(struct replay_args *a, const char *s)
{
    a->replay.trace_path = s;
    return NULL;
}

static const char *p_jobs(struct replay_args *a, const char *s)
{
    a->replay.jobs_path = s;
    return NULL;
}

static const char *p_curves(struct replay_args *a, const char *s)
{
    a->replay.curves_path = s;
    return NULL;
}

static const char *const not_a_time =
    "is neither 'YYYY-MM-DD HH:MM:SS' nor Unix seconds";

static const char *p_start(struct replay_args *a, const char *s)
{
    if (bfs_time_parse(s, &a->replay.start))
        return not_a_time;
    a->replay.has_start = 1;
    return NULL;
}

static const char *p_end(struct replay_args *a, const char *s)
{
    if (bfs_time_parse(s, &a->replay.end))
        return not_a_time;
    a->replay.has_end = 1;
    return NULL;
}

static const char *p_nodes(struct replay_args *a, const char *s)
{
    if (options_parse_nodes(s, &a->replay.node_skip, &a->replay.node_count))
        return "is not [SKIP:]COUNT with COUNT >= 1";
    return NULL;
}

static const char *p_align_jobs(struct replay_args *a, const char *s)
{
    (void)s;
    a->replay.align_jobs = 1;
    return NULL;
}

static const char *p_max_jobs(struct replay_args *a, const char *s)
{
    if (bfs_parse_int(s, &a->replay.max_jobs) || a->replay.max_jobs < 0)
        return "is not a count";
    return NULL;
}

static const char *p_tfwd(struct replay_args *a, const char *s)
{
    if (bfs_parse_double(s, &a->replay.tfwd) || !(a->replay.tfwd > 0))
        return "is not a positive number of seconds";
    return NULL;
}

static const char *p_objective(struct replay_args *a, const char *s)
{
#define OBJ_NAME(name, text) " " text
    a->replay.objective = job_objective_parse(s);
    if (a->replay.objective < 0)
        return "is not a metric (known:" JOB_OBJECTIVES(OBJ_NAME) ")";
    return NULL;
#undef OBJ_NAME
}

static const char *p_tie_break(struct replay_args *a, const char *s)
{
    if (tiebreak_parse(s, &a->replay.tie_break))
        return "is not a rule (known: first-admitted least-remaining "
               "most-remaining fewest-node-seconds random:SEED)";
    return NULL;
}

static const char *p_node_pick(struct replay_args *a, const char *s)
{
    if (nodepick_parse(s, &a->replay.node_pick))
        return "is not a rule (known: longest-idle lowest-index random:SEED "
               "oracle predicted)";
    return NULL;
}

static const char *p_hints(struct replay_args *a, const char *s)
{
    if (nodepick_hints_parse(s, &a->replay.hints))
        return "is not a source of hints (known: off oracle predicted)";
    return NULL;
}

static const char *p_belief(struct replay_args *a, const char *s)
{
#define BELIEF_MODEL(name, text) " learn:" text
    if (belief_opts_parse(s, &a->replay.belief))
        return "is not a belief (known: true FILE" CURVEFIT_MODELS(
            BELIEF_MODEL) ")";
    return NULL;
#undef BELIEF_MODEL
}

static const char *p_belief_curves(struct replay_args *a, const char *s)
{
    a->replay.belief.curves = s;
    return NULL;
}

static const char *p_belief_prior(struct replay_args *a, const char *s)
{
    a->replay.belief.prior_path = s;
    return NULL;
}

/* X[:SEED] with X a number in [lo, hi) into *x and *seed (kept when
 * SEED is not given). */
static const char *number_seed(const char *s, double lo, double hi, double *x,
                               uint64_t *seed)
{
    const char *colon = strchr(s, ':');
    char buf[64];
    double v;
    uint64_t sd = *seed;

    if (colon) {
        int64_t n;
        if (bfs_parse_i64(colon + 1, &n) || n < 0)
            return "SEED is not a count";
        sd = (uint64_t)n;
    }
    if (strlen(s) >= sizeof buf)
        return "is too long";
    memcpy(buf, s, strlen(s) + 1);
    if (colon)
        buf[colon - s] = '\0';
    if (bfs_parse_double(buf, &v) || !(v >= lo) || !(v < hi))
        return "is out of range";
    *x = v;
    *seed = sd;
    return NULL;
}

static const char *p_observe_noise(struct replay_args *a, const char *s)
{
    if (number_seed(s, 0, 10, &a->replay.belief.noise, &a->replay.belief.seed))
        return "is not SIGMA[:SEED] (SIGMA a number in [0, 10), SEED a "
               "count)";
    return NULL;
}

static const char *p_explore(struct replay_args *a, const char *s)
{
    if (number_seed(s, 0, 1.0000001, &a->replay.belief.explore,
                    &a->replay.belief.explore_seed) ||
        a->replay.belief.explore > 1)
        return "is not EPS[:SEED] (EPS a probability in [0, 1], SEED a "
               "count)";
    return NULL;
}

/* The allocator, solver and model names are checked when the allocator
 * is created (a name may be known but not compiled in). */
static const char *p_allocator(struct replay_args *a, const char *s)
{
    a->replay.alloc.name = s;
    return NULL;
}

static const char *p_solver(struct replay_args *a, const char *s)
{
    a->replay.alloc.solver = s;
    return NULL;
}

static const char *p_model(struct replay_args *a, const char *s)
{
    a->replay.alloc.model = s;
    return NULL;
}

static const char *p_time_limit(struct replay_args *a, const char *s)
{
    double v;

    if (bfs_parse_double(s, &v) || !(v > 0))
        return "is not a positive number of seconds";
    a->replay.alloc.time_limit = v;
    return NULL;
}

static const char *p_gap(struct replay_args *a, const char *s)
{
    double v;

    if (bfs_parse_double(s, &v) || v < 0)
        return "is not a gap >= 0";
    a->replay.alloc.gap_rel = v;
    return NULL;
}

static const char *p_apply_feasible(struct replay_args *a, const char *s)
{
    (void)s;
    a->replay.apply_feasible = 1;
    return NULL;
}

static const char *p_compat(struct replay_args *a, const char *s)
{
    if (strcmp(s, "bftrainer") != 0)
        return "is not a compatible mode (known: bftrainer)";
    a->replay.mode = REPLAY_COMPAT;
    return NULL;
}

static const char *p_types_aware(struct replay_args *a, const char *s)
{
    if (strcmp(s, "yes") != 0 && strcmp(s, "no") != 0)
        return "is neither yes nor no";
    a->replay.types_aware = strcmp(s, "yes") == 0;
    return NULL;
}

static const char *p_mixed_types(struct replay_args *a, const char *s)
{
    (void)s;
    a->replay.mixed_types = 1;
    return NULL;
}

static const char *p_big_m(struct replay_args *a, const char *s)
{
    if (strcmp(s, "legacy") != 0 && strcmp(s, "exact") != 0)
        return "is neither legacy nor exact";
    a->replay.legacy_cap = strcmp(s, "legacy") == 0;
    return NULL;
}

static const char *p_steps(struct replay_args *a, const char *s)
{
    a->replay.steps_path = s;
    return NULL;
}

static const char *p_summary(struct replay_args *a, const char *s)
{
    a->summary = s;
    return NULL;
}

static const char *p_job_log(struct replay_args *a, const char *s)
{
    a->job_log = s;
    return NULL;
}

static const char *p_output(struct replay_args *a, const char *s)
{
    a->output = s;
    return NULL;
}

static const char *p_dump(struct replay_args *a, const char *s)
{
    a->replay.dump_dir = s;
    return NULL;
}

static const char *p_write_mps(struct replay_args *a, const char *s)
{
    a->replay.alloc.mps_dir = s;
    return NULL;
}

static const char *p_quiet(struct replay_args *a, const char *s)
{
    (void)s;
    a->quiet = 1;
    return NULL;
}

static const char *p_strict(struct replay_args *a, const char *s)
{
    (void)s;
    a->strict = 1;
    return NULL;
}

static const char *p_batsim_jobs(struct replay_args *a, const char *s)
{
    a->batsim_jobs = s;
    return NULL;
}

static const char *p_help(struct replay_args *a, const char *s)
{
    (void)s;
    a->help = 1;
    return NULL;
}

/* ---- defaults as the help shows them ------------------------------------- */

static void d_trace(const struct replay_args *d, char *b, size_t n)
{
    if (d->replay.trace_path)
        snprintf(b, n, "%s", d->replay.trace_path);
    else
        snprintf(b, n, "the bundled Summit trace, %s", OPTIONS_BUNDLED_TRACE);
}

static void d_jobs(const struct replay_args *d, char *b, size_t n)
{
    if (d->replay.jobs_path)
        snprintf(b, n, "%s", d->replay.jobs_path);
    else
        snprintf(b, n, "the bundled 10-job ShuffleNet set, %s",
                 OPTIONS_BUNDLED_JOBS);
}

static void show_time(int has, int64_t t, const char *none, char *b, size_t n)
{
    char ts[BFS_TIME_LEN];

    if (has)
        snprintf(b, n, "%s", bfs_time_format(t, ts));
    else
        snprintf(b, n, "%s", none);
}

static void d_start(const struct replay_args *d, char *b, size_t n)
{
    show_time(d->replay.has_start, d->replay.start,
              "the later of the trace's start and the first submission", b, n);
}

static void d_end(const struct replay_args *d, char *b, size_t n)
{
    show_time(d->replay.has_end, d->replay.end, "the trace's end", b, n);
}

static void d_nodes(const struct replay_args *d, char *b, size_t n)
{
    if (d->replay.node_count)
        snprintf(b, n, "%zu:%zu", d->replay.node_skip, d->replay.node_count);
    else if (d->replay.node_skip)
        snprintf(b, n, "all after the first %zu", d->replay.node_skip);
    else
        snprintf(b, n, "all");
}

static void d_max_jobs(const struct replay_args *d, char *b, size_t n)
{
    snprintf(b, n, "%d", d->replay.max_jobs);
}

static void d_tfwd(const struct replay_args *d, char *b, size_t n)
{
    snprintf(b, n, "%g", d->replay.tfwd);
}

static void d_objective(const struct replay_args *d, char *b, size_t n)
{
    snprintf(b, n, "%s", job_objective_name(d->replay.objective));
}

static void d_tie_break(const struct replay_args *d, char *b, size_t n)
{
    snprintf(b, n, "%s", d->replay.tie_break.name);
}

static void d_node_pick(const struct replay_args *d, char *b, size_t n)
{
    snprintf(b, n, "%s", d->replay.node_pick.name);
}

static void d_types_aware(const struct replay_args *d, char *b, size_t n)
{
    snprintf(b, n, "%s", d->replay.types_aware ? "yes" : "no");
}

static void d_hints(const struct replay_args *d, char *b, size_t n)
{
    snprintf(b, n, "%s", nodepick_hints_name(d->replay.hints));
}

static void d_belief(const struct replay_args *d, char *b, size_t n)
{
    snprintf(b, n, "%s", belief_opts_name(&d->replay.belief));
}

static void d_observe_noise(const struct replay_args *d, char *b, size_t n)
{
    snprintf(b, n, "%g:%" PRIu64, d->replay.belief.noise,
             d->replay.belief.seed);
}

static void d_explore(const struct replay_args *d, char *b, size_t n)
{
    snprintf(b, n, "%g:%" PRIu64, d->replay.belief.explore,
             d->replay.belief.explore_seed);
}

static void show_name(const char *name, char *b, size_t n)
{
    snprintf(b, n, "%s", name ? name : "none compiled in");
}

static void d_allocator(const struct replay_args *d, char *b, size_t n)
{
    show_name(d->replay.alloc.name, b, n);
}

static void d_solver(const struct replay_args *d, char *b, size_t n)
{
    show_name(d->replay.alloc.solver, b, n);
}

static void d_model(const struct replay_args *d, char *b, size_t n)
{
    show_name(d->replay.alloc.model, b, n);
}

static void d_time_limit(const struct replay_args *d, char *b, size_t n)
{
    snprintf(b, n, "%g", d->replay.alloc.time_limit);
}

static void d_gap(const struct replay_args *d, char *b, size_t n)
{
    snprintf(b, n, "%g", d->replay.alloc.gap_rel);
}

static void d_big_m(const struct replay_args *d, char *b, size_t n)
{
    snprintf(b, n, "%s", d->replay.legacy_cap ? "legacy" : "exact");
}

/* ---- the table ----------------------------------------------------------- */

#define IN OPTIONS_INPUT
#define POL OPTIONS_POLICY
#define OUT OPTIONS_OUTPUT

/* Columns: long name, short name, argument (NULL: a flag), group, set
 * by the sweep itself, parser, default printer (NULL: none shown), help.
 * Within a group, the order is the help's. */
const struct options_entry options_table[] = {
    {"trace", 0, "FILE", IN, 0, p_trace, d_trace, "native trace"},
    {"jobs", 0, "FILE", IN, 0, p_jobs, d_jobs,
     "job set: native, or a BFTrainer bounds table"},
    {"curves", 0, "FILE", IN, 0, p_curves, NULL,
     "BFTrainer long curve table for --jobs"},
    {"start", 0, "TIME", IN, 0, p_start, d_start,
     "replay from TIME: 'YYYY-MM-DD HH:MM:SS' (UTC) or Unix seconds"},
    {"end", 0, "TIME", IN, 0, p_end, d_end, "last event time replayed"},
    {"nodes", 0, "[SKIP:]COUNT", IN, 0, p_nodes, d_nodes,
     "use COUNT nodes of the trace's node order after skipping SKIP"},
    {"align-jobs", 0, NULL, IN, 0, p_align_jobs, NULL,
     "shift the job set's submission times so that the first is the "
     "replay's start"},

    {"max-jobs", 0, "N", POL, 0, p_max_jobs, d_max_jobs,
     "jobs in the system at once, 0 = no limit"},
    {"tfwd", 0, "SECONDS", POL, 0, p_tfwd, d_tfwd,
     "allocator's forward-looking horizon"},
    {"objective", 0, "NAME", POL, 0, p_objective, d_objective,
     "metric O(n) maximised: file (the job file's O column), throughput, "
     "speedup, prop-fair"},
    {"tie-break", 0, "RULE", POL, 0, p_tie_break, d_tie_break,
     "which equally good allocation the exact allocators return: "
     "first-admitted, least-remaining, most-remaining, fewest-node-seconds "
     "or random:SEED"},
    {"node-pick", 0, "RULE", POL, 0, p_node_pick, d_node_pick,
     "which free nodes a growing job takes and which a shrinking job gives "
     "back: longest-idle, lowest-index, random:SEED, oracle (the trace's "
     "future) or predicted (from its past)"},
    {"hints", 0, "SOURCE", POL, 0, p_hints, d_hints,
     "what the allocator's horizon term knows of each node's remaining idle "
     "time: off (every node stays for Tfwd), oracle (the trace's future) or "
     "predicted (from its past), taken in the --node-pick order"},
    {"belief", 0, "SOURCE", POL, 0, p_belief, d_belief,
     "what the allocator believes of the jobs' curves: true (the job "
     "set's), FILE (a job file's curves, matched by name) or learn:MODEL "
     "(amdahl, power or interp, refitted as the job runs); the training "
     "follows the job set's curves"},
    {"belief-curves", 0, "FILE", POL, 0, p_belief_curves, NULL,
     "BFTrainer long curve table for a --belief FILE that is a bounds "
     "table"},
    {"belief-prior", 0, "FILE", POL, 0, p_belief_prior, NULL,
     "learn: a job file whose curves are the priors; without one, a "
     "linear curve through the job's first observation"},
    {"observe-noise", 0, "SIGMA[:SEED]", POL, 0, p_observe_noise,
     d_observe_noise,
     "learn: each observed rate is multiplied by exp(SIGMA z), z a seeded "
     "standard normal draw"},
    {"explore", 0, "EPS[:SEED]", POL, 0, p_explore, d_explore,
     "learn: at each decision, a job observed at fewer than three counts "
     "is shown, with probability EPS, its believed O doubled at the counts "
     "it has not tried"},
    {"types-aware", 0, "yes|no", POL, 0, p_types_aware, d_types_aware,
     "on a trace with node types: no decides as if every node were of one "
     "type, the training still paced by the types the jobs get"},
    {"mixed-types", 0, NULL, POL, 0, p_mixed_types, NULL,
     "on a trace with node types: a job may hold nodes of several types at "
     "once, paced by its slowest (milp's count model only)"},
    {"allocator", 0, "NAME", POL, 0, p_allocator, d_allocator,
     "milp (the exact MILP), dp (the exact dynamic programme) or even (the "
     "published replayer's even-share baseline)"},
    {"solver", 0, "NAME", POL, 0, p_solver, d_solver,
     "MILP backend, cbc or glpk, and options after commas: isolate=yes|no "
     "(a child process per solve), start=yes|no (count model, and node model "
     "on CBC: start from dp's optimum; the count model then leaves out the "
     "counts no tied allocation uses), and the solver's own KEY=VALUE "
     "parameters "
     "(`bfsim solve --solver cbc,help` lists them)"},
    {"model", 0, "NAME", POL, 0, p_model, d_model,
     "MILP formulation: count or node"},
    {"time-limit", 0, "SECONDS", POL, 0, p_time_limit, d_time_limit,
     "wall-clock limit per solve (milp and dp)"},
    {"gap", 0, "G", POL, 0, p_gap, d_gap, "relative MIP gap"},
    {"apply-feasible", 0, NULL, POL, 0, p_apply_feasible, NULL,
     "apply answers found at the time limit (default mode; the compatible "
     "mode never does)"},
    {"compat", 0, "bftrainer", POL, 0, p_compat, NULL,
     "reproduce the published BFTrainer replayer"},
    {"big-m", 0, "legacy|exact", POL, 0, p_big_m, d_big_m,
     "legacy caps every change at (N+1)/2 nodes per job and event, as the "
     "published MILP did"},

    {"steps", 0, "FILE", OUT, 1, p_steps, NULL,
     "one CSV row per event, BFTrainer's columns"},
    {"summary", 0, "FILE", OUT, 1, p_summary, NULL,
     "JSON summary ('-' for standard output); without it a report "
     "of every measure goes to standard output"},
    {"job-log", 0, "FILE", OUT, 1, p_job_log, NULL,
     "one CSV row per job of the set"},
    {"output", 'o', "FILE", OUT, 1, p_output, NULL,
     "HDF5 file with the event, solve, allocation and job tables and the "
     "run's options as attributes"},
    {"dump-instances", 0, "DIR", OUT, 0, p_dump, NULL,
     "write every allocation instance solved as DIR/evt-NNNNNN.json, for "
     "`bfsim solve`: the problem itself, before any reduction"},
    {"write-mps", 0, "DIR", OUT, 0, p_write_mps, NULL,
     "milp: write every MILP handed to the solver as DIR/evt-NNNNNN.K.mps "
     "in free MPS (K: 1 the objective, 2 the tie-break, 3 on its "
     "certificates), after its solve, with its status and objective in a "
     "comment; a maximisation is written as the minimisation of the "
     "negated objective"},
    {"quiet", 'q', NULL, OUT, 1, p_quiet, NULL,
     "no progress line on standard error"},
    {"help", 'h', NULL, OUT, 1, p_help, NULL, "this help"},
    {"strict", 0, NULL, OUT, 0, p_strict, NULL,
     "exit with status 1 after a warning (allocator calls not proven "
     "optimal, no job admitted, submissions outside the window, no job "
     "finished); the outputs are written"},
    {"batsim-jobs", 0, "FILE", OUT, 1, p_batsim_jobs, NULL,
     "the jobs' node-level schedule as a Batsim-style jobs.csv: a row per "
     "job and interval with the same nodes, allocated_resources an "
     "interval set of node positions"},
};

const size_t options_count = sizeof options_table / sizeof *options_table;

const char *options_group_name(enum options_group g)
{
    static const char *const names[OPTIONS_N_GROUPS] = {"Input", "Policy",
                                                        "Output"};
    return (unsigned)g < OPTIONS_N_GROUPS ? names[g] : "?";
}

/* The options that configure some allocators only, and which (a list
 * the message quotes: "milp or dp").  --apply-feasible is not one: it is
 * a policy for time-limited answers, which even never gives, so it
 * changes nothing there rather than being ignored (and a sweep may cross
 * it with every allocator). */
static const struct {
    const char *option, *allocators;
} only_for[] = {{"solver", "milp"},
                {"model", "milp"},
                {"time-limit", "milp or dp"},
                {"gap", "milp"}};

/* Whether name is one of the words of list ("milp or dp"). */
static int among(const char *list, const char *name)
{
    size_t n = strlen(name);

    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

int options_check(const struct replay_args *a, const unsigned char *given,
                  struct bfs_error *e)
{
    const char *alloc = a->replay.alloc.name;

    for (size_t i = 0; i < options_count; i++) {
        if (given[i] && a->replay.belief.kind != BELIEF_FILE &&
            strcmp(options_table[i].name, "belief-curves") == 0)
            return bfs_fail(e, BFS_EUSAGE,
                            "--belief-curves is an option of --belief FILE; "
                            "--belief %s would ignore it",
                            belief_opts_name(&a->replay.belief));
        if (given[i] && a->replay.belief.kind != BELIEF_LEARN &&
            (strcmp(options_table[i].name, "belief-prior") == 0 ||
             strcmp(options_table[i].name, "observe-noise") == 0 ||
             strcmp(options_table[i].name, "explore") == 0))
            return bfs_fail(e, BFS_EUSAGE,
                            "--%s is an option of --belief learn:MODEL; "
                            "--belief %s would ignore it",
                            options_table[i].name,
                            belief_opts_name(&a->replay.belief));
        if (!given[i] || !alloc)
            continue;
        for (size_t k = 0; k < sizeof only_for / sizeof *only_for; k++)
            if (strcmp(options_table[i].name, only_for[k].option) == 0 &&
                !among(only_for[k].allocators, alloc))
                return bfs_fail(e, BFS_EUSAGE,
                                "--%s is an option of --allocator %s; "
                                "--allocator %s would ignore it",
                                only_for[k].option, only_for[k].allocators,
                                alloc);
    }
    /* unknown names now, before any input is read */
    return alloc_check_names(&a->replay.alloc, e);
}

const struct options_entry *options_find(const char *name)
{
    for (size_t i = 0; i < options_count; i++)
        if (strcmp(options_table[i].name, name) == 0)
            return &options_table[i];
    return NULL;
}

const struct options_entry *options_find_short(int c)
{
    for (size_t i = 0; c && i < options_count; i++)
        if (options_table[i].short_name == c)
            return &options_table[i];
    return NULL;
}
