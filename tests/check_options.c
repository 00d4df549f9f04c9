/* check_options.c - the table of `bfsim replay`'s options
 * (engine/options.h) and what is derived from it: the parsers, getopt's
 * table (every option accepted by the program), the help (every option
 * with its default) and the man page (every option documented, nothing
 * documented that is not an option).
 *
 * The expected defaults and example arguments are written here by hand;
 * each list must name every entry of the table that needs one, so that a
 * new option without a test fails. */
#include "config.h"

#include "engine/options.h"
#include "formats/jobs.h"
#include "testutil.h"

#include <check.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* Runs "bfsim ARGS" capturing standard output and error; returns the
 * exit status. */
static int run(const char *args, char **out, char **err)
{
    const char *of = tu_tmp("stdout.txt"), *ef = tu_tmp("stderr.txt");
    char *cmd = xmalloc(strlen(args) + strlen(of) + strlen(ef) + 4096);
    int st;

    sprintf(cmd, "%s %s >%s 2>%s", tu_bfsim(), args, of, ef);
    st = system(cmd);
    free(cmd);
    *out = tu_slurp(of);
    *err = tu_slurp(ef);
    ck_assert_ptr_nonnull(*out);
    ck_assert_ptr_nonnull(*err);
    ck_assert_msg(WIFEXITED(st), "bfsim %s did not exit normally", args);
    return WEXITSTATUS(st);
}

/* The entries the sweep sets itself, by hand. */
static const char *const managed[] = {
    "steps", "summary", "job-log", "output", "quiet", "help", "batsim-jobs"};

static int is_managed(const char *name)
{
    for (size_t i = 0; i < sizeof managed / sizeof *managed; i++)
        if (strcmp(managed[i], name) == 0)
            return 1;
    return 0;
}

/* ---- the table ----------------------------------------------------------- */

START_TEST(test_table)
{
    size_t n_managed = 0;

    for (size_t i = 0; i < options_count; i++) {
        const struct options_entry *o = &options_table[i];

        /* a custom record has its parser; a typed one a field */
        ck_assert(o->type != OPTIONS_CUSTOM || o->parse != NULL);
        ck_assert(o->type == OPTIONS_CUSTOM || o->parse == NULL);
        ck_assert_msg(!o->arg ==
                          (o->type == OPTIONS_FLAG || o->type == OPTIONS_HELP),
                      "--%s: a flag takes no argument", o->name);
        ck_assert_msg(o->help && o->help[0], "%s: no help", o->name);
        ck_assert_int_lt((int)o->group, OPTIONS_N_GROUPS);
        /* the help shows the groups in table order */
        if (i > 0)
            ck_assert_int_ge((int)o->group, (int)options_table[i - 1].group);
        for (const char *p = o->name; *p; p++)
            ck_assert_msg(islower((unsigned char)*p) || *p == '-',
                          "%s: not a long option name", o->name);
        for (size_t j = 0; j < i; j++) {
            ck_assert_str_ne(o->name, options_table[j].name);
            if (o->short_name)
                ck_assert_int_ne(o->short_name, options_table[j].short_name);
        }
        ck_assert_ptr_eq(options_find(o->name), o);
        if (o->short_name)
            ck_assert_ptr_eq(options_find_short(o->short_name), o);
        ck_assert_int_eq(o->sweep_managed, is_managed(o->name));
        n_managed += o->sweep_managed != 0;
    }
    ck_assert_uint_eq(n_managed, sizeof managed / sizeof *managed);
    ck_assert_ptr_null(options_find("tf"));
    ck_assert_ptr_null(options_find(""));
    ck_assert_ptr_null(options_find_short('x'));
    ck_assert_ptr_null(options_find_short(0));
    ck_assert_int_eq(options_find_short('o')->sweep_managed, 1);
    ck_assert_str_eq(options_find_short('o')->name, "output");
    ck_assert_str_eq(options_find_short('q')->name, "quiet");
    ck_assert_str_eq(options_find_short('h')->name, "help");
    ck_assert_str_eq(options_group_name(OPTIONS_INPUT), "Input");
    ck_assert_str_eq(options_group_name(OPTIONS_POLICY), "Policy");
    ck_assert_str_eq(options_group_name(OPTIONS_OUTPUT), "Output");
}
END_TEST

/* Parses "--name arg" into a fresh default set; returns the problem. */
static const char *parse1(struct replay_args *a, const char *name,
                          const char *arg)
{
    const struct options_entry *o = options_find(name);

    ck_assert_msg(o != NULL, "no option %s", name);
    options_default(a);
    return options_set(o, a, arg);
}

START_TEST(test_parsers)
{
    struct replay_args a;

    ck_assert_ptr_null(parse1(&a, "tfwd", "7.5"));
    ck_assert_double_eq(a.replay.tfwd, 7.5);
    ck_assert_ptr_null(parse1(&a, "max-jobs", "0"));
    ck_assert_int_eq(a.replay.max_jobs, 0);
    ck_assert_ptr_null(parse1(&a, "nodes", "100:10"));
    ck_assert_uint_eq(a.replay.node_skip, 100);
    ck_assert_uint_eq(a.replay.node_count, 10);
    ck_assert_ptr_null(parse1(&a, "nodes", "64"));
    ck_assert_uint_eq(a.replay.node_skip, 0);
    ck_assert_uint_eq(a.replay.node_count, 64);
    /* 2021-02-10 is day 18668 of the epoch: 18668 * 86400 = 1612915200,
     * plus 20 h 21 min 15 s = 73275 s */
    ck_assert_ptr_null(parse1(&a, "start", "2021-02-10 20:21:15"));
    ck_assert_int_eq(a.replay.has_start, 1);
    ck_assert_int_eq(a.replay.start, 1612988475);
    ck_assert_ptr_null(parse1(&a, "end", "1612988500"));
    ck_assert_int_eq(a.replay.has_end, 1);
    ck_assert_int_eq(a.replay.end, 1612988500);
    ck_assert_ptr_null(parse1(&a, "objective", "speedup"));
    ck_assert_int_eq(a.replay.objective, JOB_OBJ_SPEEDUP);
    ck_assert_ptr_null(parse1(&a, "tie-break", "random:12"));
    ck_assert_int_eq(a.replay.tie_break.kind, TIEBREAK_RANDOM);
    ck_assert(a.replay.tie_break.seed == 12);
    ck_assert_ptr_null(parse1(&a, "tie-break", "least-remaining"));
    ck_assert_int_eq(a.replay.tie_break.kind, TIEBREAK_LEAST_REMAINING);
    ck_assert_ptr_null(parse1(&a, "node-pick", "oracle"));
    ck_assert_int_eq(a.replay.node_pick.kind, NODEPICK_ORACLE);
    ck_assert_ptr_null(parse1(&a, "node-pick", "random:9"));
    ck_assert_int_eq(a.replay.node_pick.kind, NODEPICK_RANDOM);
    ck_assert(a.replay.node_pick.seed == 9);
    ck_assert_int_eq(a.replay.hints, HINTS_OFF);
    ck_assert_ptr_null(parse1(&a, "hints", "predicted"));
    ck_assert_int_eq(a.replay.hints, HINTS_PREDICTED);
    ck_assert_int_eq(a.replay.belief.kind, BELIEF_TRUE);
    ck_assert_ptr_null(parse1(&a, "belief", "learn:power"));
    ck_assert_int_eq(a.replay.belief.kind, BELIEF_LEARN);
    ck_assert_int_eq(a.replay.belief.model, CURVEFIT_POWER);
    ck_assert_ptr_null(parse1(&a, "observe-noise", "0.25:9"));
    ck_assert_double_eq(a.replay.belief.noise, 0.25);
    ck_assert_uint_eq(a.replay.belief.seed, 9);
    ck_assert_ptr_null(parse1(&a, "belief", "b.jobs"));
    ck_assert_int_eq(a.replay.belief.kind, BELIEF_FILE);
    ck_assert_str_eq(a.replay.belief.path, "b.jobs");
    ck_assert_ptr_null(parse1(&a, "compat", "bftrainer"));
    ck_assert_int_eq(a.replay.mode, REPLAY_COMPAT);
    ck_assert_ptr_null(parse1(&a, "big-m", "legacy"));
    ck_assert_int_eq(a.replay.legacy_cap, 1);
    ck_assert_ptr_null(parse1(&a, "big-m", "exact"));
    ck_assert_int_eq(a.replay.legacy_cap, 0);
    ck_assert_ptr_null(parse1(&a, "time-limit", "0.5"));
    ck_assert_double_eq(a.replay.alloc.time_limit, 0.5);
    ck_assert_ptr_null(parse1(&a, "gap", "0"));
    ck_assert_double_eq(a.replay.alloc.gap_rel, 0.0);
    ck_assert_ptr_null(parse1(&a, "allocator", "dp"));
    ck_assert_str_eq(a.replay.alloc.name, "dp");
    ck_assert_ptr_null(parse1(&a, "solver", "glpk"));
    ck_assert_str_eq(a.replay.alloc.solver, "glpk");
    ck_assert_ptr_null(parse1(&a, "model", "node"));
    ck_assert_str_eq(a.replay.alloc.model, "node");
    ck_assert_ptr_null(parse1(&a, "trace", "t.gz"));
    ck_assert_str_eq(a.replay.trace_path, "t.gz");
    ck_assert_ptr_null(parse1(&a, "jobs", "j.jobs"));
    ck_assert_str_eq(a.replay.jobs_path, "j.jobs");
    ck_assert_ptr_null(parse1(&a, "curves", "c.csv"));
    ck_assert_str_eq(a.replay.curves_path, "c.csv");
    ck_assert_ptr_null(parse1(&a, "steps", "s.csv"));
    ck_assert_str_eq(a.replay.steps_path, "s.csv");
    ck_assert_ptr_null(parse1(&a, "dump-instances", "d"));
    ck_assert_str_eq(a.replay.dump_dir, "d");
    ck_assert_ptr_null(parse1(&a, "summary", "-"));
    ck_assert_str_eq(a.summary, "-");
    ck_assert_ptr_null(parse1(&a, "job-log", "l.csv"));
    ck_assert_str_eq(a.job_log, "l.csv");
    ck_assert_ptr_null(parse1(&a, "output", "r.h5"));
    ck_assert_str_eq(a.output, "r.h5");
    ck_assert_ptr_null(parse1(&a, "align-jobs", NULL));
    ck_assert_int_eq(a.replay.align_jobs, 1);
    ck_assert_ptr_null(parse1(&a, "apply-feasible", NULL));
    ck_assert_int_eq(a.replay.apply_feasible, 1);
    ck_assert_ptr_null(parse1(&a, "quiet", NULL));
    ck_assert_int_eq(a.quiet, 1);
    ck_assert_ptr_null(parse1(&a, "help", NULL));
    ck_assert_int_eq(options_find("help")->type, OPTIONS_HELP);

    ck_assert_ptr_nonnull(parse1(&a, "tfwd", "0"));
    ck_assert_ptr_nonnull(parse1(&a, "tfwd", "-1"));
    ck_assert_ptr_nonnull(parse1(&a, "tfwd", "ten"));
    ck_assert_ptr_nonnull(parse1(&a, "max-jobs", "-1"));
    ck_assert_ptr_nonnull(parse1(&a, "max-jobs", "2.5"));
    ck_assert_ptr_nonnull(parse1(&a, "nodes", "0"));
    ck_assert_ptr_nonnull(parse1(&a, "nodes", "3:0"));
    ck_assert_ptr_nonnull(parse1(&a, "nodes", "-1:3"));
    ck_assert_ptr_nonnull(parse1(&a, "start", "yesterday"));
    ck_assert_ptr_nonnull(parse1(&a, "end", "2021-02-30 00:00:00x"));
    ck_assert_ptr_nonnull(parse1(&a, "objective", "fairness"));
    ck_assert_ptr_nonnull(parse1(&a, "compat", "other"));
    ck_assert_ptr_nonnull(parse1(&a, "tie-break", "random"));
    ck_assert_ptr_nonnull(parse1(&a, "tie-break", "shortest"));
    ck_assert_ptr_nonnull(parse1(&a, "node-pick", "newest"));
    ck_assert_ptr_nonnull(parse1(&a, "hints", "Oracle"));
    ck_assert_ptr_nonnull(parse1(&a, "belief", "learn:linear"));
    ck_assert_ptr_nonnull(parse1(&a, "observe-noise", "-1"));
    ck_assert_ptr_nonnull(parse1(&a, "observe-noise", "0.1:x"));
    ck_assert_ptr_nonnull(parse1(&a, "explore", "1.5"));
    ck_assert_ptr_null(parse1(&a, "explore", "1:4"));
    ck_assert_double_eq(a.replay.belief.explore, 1.0);
    ck_assert_uint_eq(a.replay.belief.explore_seed, 4);
    ck_assert_int_eq(a.replay.belief.explore_rule, EXPLORE_EPS);
    ck_assert_ptr_null(parse1(&a, "explore", "thompson:7"));
    ck_assert_int_eq(a.replay.belief.explore_rule, EXPLORE_THOMPSON);
    ck_assert_uint_eq(a.replay.belief.explore_seed, 7);
    ck_assert_ptr_null(parse1(&a, "explore", "ucb"));
    ck_assert_int_eq(a.replay.belief.explore_rule, EXPLORE_UCB);
    ck_assert_double_eq(a.replay.belief.explore_k, 1.0);
    ck_assert_ptr_null(parse1(&a, "explore", "ucb:2.5"));
    ck_assert_double_eq(a.replay.belief.explore_k, 2.5);
    ck_assert_ptr_nonnull(parse1(&a, "explore", "ucb:-1"));
    ck_assert_ptr_nonnull(parse1(&a, "explore", "ucb:x"));
    ck_assert_ptr_nonnull(parse1(&a, "explore", "thompson:x"));
    ck_assert_ptr_nonnull(parse1(&a, "explore", "thompsonx"));
    ck_assert_ptr_null(parse1(&a, "belief-pool", "alone"));
    ck_assert_int_eq(a.replay.belief.pool, POOL_ALONE);
    ck_assert_ptr_null(parse1(&a, "belief-pool", "family"));
    ck_assert_int_eq(a.replay.belief.pool, POOL_FEATURE);
    ck_assert_str_eq(a.replay.belief.pool_column, "family");
    ck_assert_ptr_null(parse1(&a, "belief-pool", "off"));
    ck_assert_int_eq(a.replay.belief.pool, POOL_OFF);
    ck_assert_ptr_nonnull(parse1(&a, "belief-pool", ""));
    ck_assert_ptr_nonnull(parse1(&a, "big-m", "Legacy"));
    ck_assert_ptr_nonnull(parse1(&a, "time-limit", "0"));
    ck_assert_ptr_nonnull(parse1(&a, "gap", "-0.1"));
}
END_TEST

/* OPTIONS_TIME, through info's --end and gen-trace's --start: both
 * forms parse into the int64_t field, anything else is refused with the
 * field untouched, and the value shows as the UTC date ("" when out of
 * range, as info's default end is). */
START_TEST(test_time_records)
{
    const struct options_entry *end = options_lookup(&options_info, "end");
    const struct options_entry *start =
        options_lookup(&options_gentrace, "start");
    struct info_args i;
    struct gentrace_args g;
    char buf[64];

    ck_assert_ptr_nonnull(end);
    ck_assert_ptr_nonnull(start);
    ck_assert_int_eq(end->type, OPTIONS_TIME);
    ck_assert_int_eq(start->type, OPTIONS_TIME);
    options_info.defaults(&i);
    options_value(end, &i, buf, sizeof buf);
    ck_assert_str_eq(buf, "");
    /* 2021-02-10 20:21:15 is 18668 * 86400 + 73275 (test_parsers) */
    ck_assert_ptr_null(options_set(end, &i, "2021-02-10T20:21:15"));
    ck_assert_int_eq(i.o.end, 1612988475);
    ck_assert_ptr_nonnull(options_set(end, &i, "noon"));
    ck_assert_int_eq(i.o.end, 1612988475);
    options_gentrace.defaults(&g);
    ck_assert_ptr_null(options_set(start, &g, "86399"));
    ck_assert_int_eq(g.o.start, 86399);
    options_value(start, &g, buf, sizeof buf);
    ck_assert_str_eq(buf, "1970-01-01 23:59:59");
}
END_TEST

/* The defaults the help must show, by hand: what `bfsim replay` does
 * without options (README, bfsim(1)). */
static const struct {
    const char *name, *def;
} defaults[] = {
    {"trace", "the bundled Summit trace, traces/summit-2021-02.trace.gz"},
    {"jobs", "the bundled 10-job ShuffleNet set, "
             "datasets/hps-shufflenet-10J.jobs"},
    {"start", "the later of the trace's start and the first submission"},
    {"end", "the trace's end"},
    {"nodes", "all"},
    {"max-jobs", "10"},
    {"tfwd", "10"},
    {"objective", "file"},
    {"tie-break", "first-admitted"},
    {"node-pick", "longest-idle"},
    {"hints", "off"},
    {"belief", "true"},
    {"observe-noise", "0:1"},
    {"explore", "0:1"},
    {"belief-pool", "off"},
    {"types-aware", "yes"},
#if defined(HAVE_CBC) || defined(HAVE_GLPK)
    {"allocator", "milp"},
#else
    {"allocator", "dp"},
#endif
#if defined(HAVE_CBC)
    {"solver", "cbc"},
#elif defined(HAVE_GLPK)
    {"solver", "glpk"},
#else
    {"solver", "none compiled in"},
#endif
    {"model", "count"},
    {"time-limit", "10"},
    {"gap", "1e-08"},
    {"big-m", "exact"},
};

/* The help's paragraph for option o, its lines joined by single spaces
 * (malloc'd), or NULL when the help lacks it; *pos gets its offset. */
static char *help_entry(const char *help, const struct options_entry *o,
                        size_t *pos)
{
    char head[128], *r;
    const char *p, *end;
    size_t n = 0;

    if (o->short_name)
        snprintf(head, sizeof head, "\n  -%c, --%s%s%s", o->short_name, o->name,
                 o->arg ? " " : "", o->arg ? o->arg : "");
    else
        snprintf(head, sizeof head, "\n  --%s%s%s", o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
    if (!(p = strstr(help, head)) ||
        (p[strlen(head)] != ' ' && p[strlen(head)] != '\n'))
        return NULL;
    *pos = (size_t)(p - help);
    p += strlen(head);
    /* up to the next option or the blank line ending the group */
    for (end = p; *end; end++)
        if (end[0] == '\n' &&
            (end[1] == '\n' || end[1] == '\0' ||
             (end[1] == ' ' && end[2] == ' ' && end[3] == '-')))
            break;
    r = xmalloc((size_t)(end - p) + 1);
    for (; p < end; p++)
        if (!isspace((unsigned char)*p))
            r[n++] = *p;
        else if (n && r[n - 1] != ' ')
            r[n++] = ' ';
    while (n && r[n - 1] == ' ')
        n--;
    r[n] = '\0';
    return r;
}

START_TEST(test_help)
{
    char *out, *err;
    size_t heading[OPTIONS_N_GROUPS + 1], n_defaults = 0;

    ck_assert_int_eq(run("replay --help", &out, &err), 0);
    ck_assert_str_eq(err, "");
    ck_assert_msg(strncmp(out, "Usage: bfsim replay", 19) == 0, "%s", out);
    for (int g = 0; g < OPTIONS_N_GROUPS; g++) {
        char h[64];
        const char *p;
        snprintf(h, sizeof h, "\n\n%s:\n",
                 options_group_name((enum options_group)g));
        p = strstr(out, h);
        ck_assert_msg(p != NULL, "no heading %s", h);
        heading[g] = (size_t)(p - out);
    }
    heading[OPTIONS_N_GROUPS] = strlen(out);
    for (size_t i = 0; i < options_count; i++) {
        const struct options_entry *o = &options_table[i];
        const char *want = NULL;
        char *text, def[512];
        size_t pos;

        text = help_entry(out, o, &pos);
        ck_assert_msg(text != NULL, "--%s is not in the help", o->name);
        ck_assert_msg(pos > heading[o->group] && pos < heading[o->group + 1],
                      "--%s is not under %s", o->name,
                      options_group_name(o->group));
        for (size_t d = 0; d < sizeof defaults / sizeof *defaults; d++)
            if (strcmp(defaults[d].name, o->name) == 0)
                want = defaults[d].def;
        if (want) {
            snprintf(def, sizeof def, "(default: %s)", want);
            ck_assert_msg(strstr(text, def) != NULL,
                          "--%s: expected '%s' in '%s'", o->name, def, text);
            n_defaults++;
        } else {
            ck_assert_msg(strstr(text, "(default:") == NULL,
                          "--%s shows a default the test does not know: %s",
                          o->name, text);
        }
        free(text);
    }
    /* every default listed above belongs to an option of the table */
    ck_assert_uint_eq(n_defaults, sizeof defaults / sizeof *defaults);
    free(out);
    free(err);
}
END_TEST

/* ---- getopt's table ------------------------------------------------------ */

/* An argument for every option that takes one, by hand. */
static const struct {
    const char *name, *arg;
} examples[] = {
    {"trace", "t.trace"},       {"jobs", "j.jobs"},
    {"curves", "c.csv"},        {"start", "'2021-02-10 20:21:15'"},
    {"end", "1612988500"},      {"nodes", "100:10"},
    {"max-jobs", "0"},          {"tfwd", "60"},
    {"objective", "prop-fair"}, {"allocator", "dp"},
    {"solver", "glpk"},         {"model", "node"},
    {"time-limit", "1.5"},      {"gap", "0.01"},
    {"compat", "bftrainer"},    {"big-m", "legacy"},
    {"steps", "s.csv"},         {"summary", "s.json"},
    {"job-log", "l.csv"},       {"output", "r.h5"},
    {"dump-instances", "inst"}, {"tie-break", "random:3"},
    {"node-pick", "predicted"}, {"batsim-jobs", "b.csv"},
    {"hints", "oracle"},        {"belief", "learn:interp"},
    {"belief-prior", "p.jobs"}, {"observe-noise", "0.1:7"},
    {"explore", "0.05:3"},      {"belief-curves", "bc.csv"},
    {"write-mps", "mps"},       {"types-aware", "no"},
    {"label", "baseline"},      {"belief-pool", "family"},
};

/* Every option of the table is accepted by the program: "bfsim replay
 * --NAME ARG --help" shows the help and exits 0 (the options before
 * --help are parsed; --help then stops before anything runs). */
START_TEST(test_getopt)
{
    size_t n_args = 0;
    char args[512], *out, *err;

    for (size_t i = 0; i < options_count; i++) {
        const struct options_entry *o = &options_table[i];
        const char *arg = NULL;
        int st;

        for (size_t k = 0; k < sizeof examples / sizeof *examples; k++)
            if (strcmp(examples[k].name, o->name) == 0)
                arg = examples[k].arg;
        ck_assert_msg(!arg == !o->arg, "--%s: example and table disagree",
                      o->name);
        n_args += arg != NULL;
        snprintf(args, sizeof args, "replay --%s%s%s --help", o->name,
                 arg ? " " : "", arg ? arg : "");
        st = run(args, &out, &err);
        ck_assert_msg(st == 0 && strncmp(out, "Usage: bfsim replay", 19) == 0,
                      "bfsim %s: exit %d, %s", args, st, err);
        free(out);
        free(err);
        if (o->short_name) {
            snprintf(args, sizeof args, "replay -%c%s%s --help", o->short_name,
                     arg ? " " : "", arg ? arg : "");
            st = run(args, &out, &err);
            ck_assert_msg(st == 0, "bfsim %s: exit %d, %s", args, st, err);
            free(out);
            free(err);
        }
        if (o->arg) {
            /* the argument is required */
            snprintf(args, sizeof args, "replay --%s", o->name);
            ck_assert_int_eq(run(args, &out, &err), 2);
            ck_assert_msg(strstr(err, o->name) != NULL, "%s", err);
        } else {
            /* a flag takes none */
            snprintf(args, sizeof args, "replay --%s=1 --help", o->name);
            ck_assert_int_eq(run(args, &out, &err), 2);
            ck_assert_msg(strstr(err, o->name) != NULL, "%s", err);
        }
        free(out);
        free(err);
    }
    ck_assert_uint_eq(n_args, sizeof examples / sizeof *examples);
}
END_TEST

/* Usage errors: exit status 2, the option and the value named. */
START_TEST(test_usage_errors)
{
    static const struct {
        const char *args, *want1, *want2;
    } bad[] = {
        {"replay --max-jobs -1", "--max-jobs", "'-1'"},
        {"replay --tfwd 0", "--tfwd", "'0'"},
        {"replay --nodes 3:0", "--nodes", "'3:0'"},
        {"replay --start yesterday", "--start", "'yesterday'"},
        {"replay --objective fairness", "--objective", "'fairness'"},
        {"replay --compat other", "--compat", "'other'"},
        {"replay --big-m huge", "--big-m", "'huge'"},
        {"replay --gap -1", "--gap", "'-1'"},
        {"replay --time-limit 0", "--time-limit", "'0'"},
        {"replay --no-such-option", "--no-such-option", "unknown"},
        {"replay -qx", "-x", "unknown"},
        {"replay -o", "-o", "needs a value"},
        {"replay stray", "stray", "unexpected"},
        {"replay --start 1612988500 --end 1612988400", "--end", "--start"},
    };
    char *out, *err;

    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int st = run(bad[i].args, &out, &err);
        ck_assert_msg(st == 2, "%s: exit %d", bad[i].args, st);
        ck_assert_msg(strstr(err, bad[i].want1) && strstr(err, bad[i].want2),
                      "%s: expected %s and %s in: %s", bad[i].args,
                      bad[i].want1, bad[i].want2, err);
        ck_assert_str_eq(out, "");
        free(out);
        free(err);
    }
}
END_TEST

/* options_check on --allocator NAME and one more option: 0, or the
 * usage error's message in msg. */
static int check_with(const char *alloc, const char *name, const char *arg,
                      char msg[1024])
{
    struct replay_args a;
    unsigned char *given = xcalloc(options_count + 1, 1);
    const struct options_entry *o = options_find(name);
    struct bfs_error e;
    int rc;

    options_default(&a);
    ck_assert_ptr_null(options_set(options_find("allocator"), &a, alloc));
    ck_assert_ptr_null(options_set(o, &a, arg));
    given[options_find("allocator") - options_table] = 1;
    given[o - options_table] = 1;
    bfs_error_clear(&e);
    rc = options_check(&a, given, &e);
    snprintf(msg, 1024, "%s", e.msg);
    xfree(given);
    return rc;
}

/* --time-limit configures the MILP and dp, and even would ignore it;
 * the MILP's own options stay refused with dp. */
START_TEST(test_check_allocator_options)
{
    char msg[1024];

    ck_assert_int_eq(check_with("dp", "time-limit", "0.5", msg), 0);
    ck_assert_int_eq(check_with("even", "time-limit", "0.5", msg), BFS_EUSAGE);
    ck_assert_str_eq(msg, "--time-limit is an option of --allocator milp or "
                          "dp; --allocator even would ignore it");
    ck_assert_int_eq(check_with("dp", "gap", "0.1", msg), BFS_EUSAGE);
    ck_assert_str_eq(msg, "--gap is an option of --allocator milp; "
                          "--allocator dp would ignore it");
    ck_assert_int_eq(check_with("greedy", "tfwd", "10", msg), BFS_EUSAGE);
    ck_assert_str_eq(msg, "--allocator: unknown allocator 'greedy' (known: "
                          "even, dp, milp)");
}
END_TEST

/* ---- the man page -------------------------------------------------------- */

/* Every option of the table has a paragraph (a .TP head) in the man
 * page's REPLAY section, and every option such a head names is in the
 * table. */
START_TEST(test_man_page)
{
    char *man = tu_slurp(tu_src("src/cli/bfsim.1"));
    char *sec, *end, *line;
    int *seen = xcalloc(options_count, sizeof *seen);

    ck_assert_ptr_nonnull(man);
    sec = strstr(man, "\n.SH REPLAY\n");
    ck_assert_ptr_nonnull(sec);
    sec += 1;
    end = strstr(sec + 4, "\n.SH ");
    ck_assert_ptr_nonnull(end);
    *end = '\0';
    for (line = strstr(sec, "\n.TP\n"); line; line = strstr(line, "\n.TP\n")) {
        char *head = line + 5, *eol = strchr(head, '\n'), *p;
        int named = 0;

        ck_assert_ptr_nonnull(eol);
        *eol = '\0';
        for (p = strstr(head, "\\-\\-"); p; p = strstr(p, "\\-\\-")) {
            char name[64];
            size_t n = 0;
            const struct options_entry *o;

            for (p += 4; n + 1 < sizeof name; p++) {
                if (p[0] == '\\' && p[1] == '-')
                    name[n++] = '-', p++;
                else if (islower((unsigned char)*p))
                    name[n++] = *p;
                else
                    break;
            }
            name[n] = '\0';
            o = options_find(name);
            ck_assert_msg(o != NULL, "bfsim.1 documents --%s, not an option",
                          name);
            seen[o - options_table] = 1;
            named = 1;
            if (o->short_name) {
                char s[8];
                snprintf(s, sizeof s, "\\-%c", o->short_name);
                ck_assert_msg(strstr(head, s) != NULL,
                              "bfsim.1: --%s without -%c", name, o->short_name);
            }
        }
        ck_assert_msg(named, "bfsim.1: a REPLAY paragraph names no option: %s",
                      head);
        line = eol;
        *eol = '\n';
    }
    for (size_t i = 0; i < options_count; i++)
        ck_assert_msg(seen[i], "--%s has no paragraph in bfsim.1's REPLAY",
                      options_table[i].name);
    free(seen);
    free(man);
}
END_TEST

/* ---- every command's records ------------------------------------------- */

/* text with the man page's escapes: "-" as "\-". */
static void man_escape(const char *text, char *out, size_t size)
{
    size_t n = 0;

    for (const char *p = text; *p && n + 3 < size; p++) {
        if (*p == '-')
            out[n++] = '\\';
        out[n++] = *p;
    }
    out[n] = '\0';
}

/* Whether the lines from line up to its second newline hold every
 * word of the argument arg ("[SKIP:]COUNT": skip and count), lower-cased
 * as the man page writes metavariables between its font escapes. */
static int line_has(const char *line, const char *arg)
{
    const char *eol = strchr(line, '\n');
    char *two, word[64];
    int ok = 1;

    if (eol && strchr(eol + 1, '\n'))
        eol = strchr(eol + 1, '\n');
    two = xmalloc((eol ? (size_t)(eol - line) : strlen(line)) + 1);
    memcpy(two, line, eol ? (size_t)(eol - line) : strlen(line));
    two[eol ? eol - line : (ptrdiff_t)strlen(line)] = '\0';
    for (const char *p = arg; *p && ok;) {
        size_t n = 0;
        while (*p && !isalpha((unsigned char)*p))
            p++;
        while (isalpha((unsigned char)*p) && n + 1 < sizeof word)
            word[n++] = (char)tolower((unsigned char)*p++);
        word[n] = '\0';
        ok = n == 0 || strstr(two, word) != NULL;
    }
    free(two);
    return ok;
}

/* The section of the man page (its text) for command name: from ".SH
 * NAME" (upper-cased) to the next ".SH", malloc'd. */
static char *man_section(const char *man, const char *name)
{
    char head[64], *r;
    const char *p, *end;
    size_t n = 0;

    n = (size_t)snprintf(head, sizeof head, "\n.SH ");
    for (const char *q = name; *q; q++)
        head[n++] = (char)toupper((unsigned char)*q);
    head[n] = '\0';
    p = strstr(man, head);
    ck_assert_msg(p != NULL, "bfsim.1 has no section %s", head + 5);
    end = strstr(p + 1, "\n.SH ");
    ck_assert_ptr_nonnull(end);
    r = xmalloc((size_t)(end - p) + 1);
    memcpy(r, p, (size_t)(end - p));
    r[end - p] = '\0';
    return r;
}

/* Whether sec documents o: names it (--NAME, or -C for a record with a
 * short name) and, when o takes an argument, names the argument's words
 * on the line of a mention or the line after it. */
static int man_documents(const char *sec, const struct options_entry *o)
{
    char name[80], esc[200];

    for (int form = 0; form < 2; form++) {
        const char *p;
        if (form == 0)
            snprintf(name, sizeof name, "--%s", o->name);
        else if (o->short_name)
            snprintf(name, sizeof name, "-%c", o->short_name);
        else
            break;
        man_escape(name, esc, sizeof esc);
        for (p = strstr(sec, esc); p; p = strstr(p + 1, esc)) {
            const char *bol = p;
            char after = p[strlen(esc)];
            if (after == '\\' || islower((unsigned char)after))
                continue; /* a longer option's name */
            if (!o->arg)
                return 1;
            while (bol > sec && bol[-1] != '\n')
                bol--;
            if (line_has(bol, o->arg))
                return 1;
        }
    }
    return 0;
}

/* Every record of every command: its names unique in its command, its
 * head ("--NAME ARG") in the command's --help, and a mention in the
 * command's section of bfsim(1) with its argument's name (the help
 * options excepted: bfsim(1) says once that every command has one). */
START_TEST(test_every_command)
{
    char *man = tu_slurp(tu_src("src/cli/bfsim.1")), missing[4096] = "";
    size_t n_missing = 0;

    ck_assert_ptr_nonnull(man);
    ck_assert_uint_ge(options_n_commands, 1);
    for (size_t c = 0; c < options_n_commands; c++) {
        const struct options_command *cmd = options_commands[c];
        char args[128], *out, *err, *sec = man_section(man, cmd->name);
        int helps = 0;

        snprintf(args, sizeof args, "%s --help", cmd->name);
        ck_assert_msg(run(args, &out, &err) == 0, "bfsim %s: %s", args, err);
        for (size_t i = 0; i < cmd->count; i++) {
            const struct options_entry *o = &cmd->table[i];
            size_t pos;
            char *text = help_entry(out, o, &pos);

            ck_assert_msg(text != NULL, "%s --%s: not in its --help", cmd->name,
                          o->name);
            ck_assert_msg(strstr(text, o->help) || strlen(o->help) > 60,
                          "%s --%s: its help text is not its record's",
                          cmd->name, o->name);
            free(text);
            ck_assert_ptr_eq(options_lookup(cmd, o->name), o);
            if (o->short_name)
                ck_assert_ptr_eq(options_lookup_short(cmd, o->short_name), o);
            ck_assert(o->type != OPTIONS_CUSTOM || o->parse != NULL);
            ck_assert_msg(!o->recorded || o->key || o->record,
                          "%s --%s: recorded under no name", cmd->name,
                          o->name);
            /* a flag takes no argument (a format's may be either) */
            ck_assert_msg(o->type == OPTIONS_KEYED ||
                              !o->arg == (o->type == OPTIONS_FLAG ||
                                          o->type == OPTIONS_HELP),
                          "%s --%s: a flag takes no argument", cmd->name,
                          o->name);
            if (o->type == OPTIONS_HELP) {
                helps++;
                continue;
            }
            if (!man_documents(sec, o)) {
                size_t len = strlen(missing);
                snprintf(missing + len, sizeof missing - len, " %s:--%s%s%s",
                         cmd->name, o->name, o->arg ? " " : "",
                         o->arg ? o->arg : "");
                n_missing++;
            }
        }
        ck_assert_int_eq(helps, 1);
        free(sec);
        free(out);
        free(err);
    }
    ck_assert_msg(n_missing == 0, "bfsim.1 does not document:%s", missing);
    free(man);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("options");
    TCase *tc = tcase_create("table");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_table);
    tcase_add_test(tc, test_parsers);
    tcase_add_test(tc, test_time_records);
    tcase_add_test(tc, test_help);
    tcase_add_test(tc, test_getopt);
    tcase_add_test(tc, test_usage_errors);
    tcase_add_test(tc, test_check_allocator_options);
    tcase_add_test(tc, test_man_page);
    tcase_add_test(tc, test_every_command);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
