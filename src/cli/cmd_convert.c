/* cmd_convert.c - `bfsim convert`: foreign logs to native traces, and
 * BFTrainer job tables to native job files.
 *
 * Trace formats are rows of the table `formats` below: a name for
 * --from, what INPUT is, the options only that format takes (name and
 * this format's note) and a run function that calls the importer
 * (import.h).  Every option, the formats' too, is a record of
 * engine/options_convert.c (its argument's name, a generic help) read by
 * the one parser; after parsing, the format options given must belong to
 * the chosen format.  To add a format, add its options array, a run
 * function and one row (and a record for an option no format had).
 *
 * Node types: --node-types FILE (a mapping, nodetypes.h) and --type-from
 * RULE are options of every format that names its nodes; convert loads
 * the mapping and hands it to the importer.  Slurm alone takes
 * --type-from partition without a mapping (its Partition column); SWF
 * takes --partition-nodes instead.
 */
#include "config.h"

#include "cli/cmd.h"
#include "engine/options.h"
#include "import/import.h"
#include "formats/jobs.h"
#include "formats/nodetypes.h"
#include "base/util.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A format-specific option: its record (engine/options_convert.c) names
 * its argument. */
struct convert_opt {
    const char *name; /* long option, without "--" */
    const char *help; /* this format's note */
};

/* What a format's run function gets. */
struct convert_args {
    const char *input;         /* the first of inputs */
    const char *const *inputs; /* every INPUT given */
    size_t n_inputs;
    const char *output;
    const char *const *comments; /* NULL-terminated */
    /* values[k]: the value given to the format's opts[k], or NULL. */
    const char *const *values;
    int quiet; /* -q given: print nothing but errors */
};

/* The importers run_log and run_acct call. */
typedef int (*log_importer)(const char *, const char *, const char *const *,
                            const struct import_log_opts *,
                            struct import_stats *, struct import_log_report *,
                            struct bfs_error *);

typedef int (*acct_importer)(const char *const *, size_t, const char *,
                             const char *const *,
                             const struct import_log_opts *,
                             struct import_stats *, struct import_acct_report *,
                             struct bfs_error *);

struct convert_format {
    const char *name;  /* --from NAME */
    const char *input; /* what INPUT names */
    const char *summary;
    const struct convert_opt *opts; /* ends with {NULL} */
    int multi;                      /* takes several INPUTs */
    /* Converts a->input(s) as format f with the import options o (read
     * from a by log_opts_from_args); 0 or a negative BFS_E* code. */
    int (*run)(const struct convert_args *a, const struct convert_format *f,
               const struct import_log_opts *o, struct import_stats *st,
               struct bfs_error *e);
    log_importer log;   /* run_log's importer */
    acct_importer acct; /* run_acct's importer */
};

/* ---- node types -------------------------------------------------------- */

#define NODE_TYPES_OPT                                                         \
    {                                                                          \
        "node-types", "node types: sinfo output or HOSTLIST TYPE"              \
    }
#define TYPE_OPTS                                                              \
    NODE_TYPES_OPT,                                                            \
    {                                                                          \
        "type-from", "sinfo's gres (default)/features/partition"               \
    }

/* The outage options every log format takes. */
#define OUTAGE_OPTS                                                            \
    {"outage-threshold", "idle fraction marking an outage"},                   \
    {                                                                          \
        "outage-min-duration", "for at least D (s/m/h/d; default 1h)"          \
    }

/* The value given to the option name of opts, or NULL. */
static const char *value_of(const struct convert_args *a,
                            const struct convert_opt *opts, const char *name)
{
    for (size_t k = 0; opts[k].name; k++)
        if (a->values[k] && strcmp(opts[k].name, name) == 0)
            return a->values[k];
    return NULL;
}

/* Whether convert takes the option itself rather than
 * import_log_opts_set. */
static int own_option(const char *name)
{
    return strcmp(name, "events") == 0 || strcmp(name, "node-types") == 0 ||
           strcmp(name, "type-from") == 0;
}

/* Reads --node-types and --type-from into o: the mapping is loaded into
 * *nt (free with nodetypes_free; NULL when none); --type-from partition
 * alone sets o->types_from_partition when partition_ok (Slurm), and is a
 * usage error otherwise, as is any other rule without a mapping. */
static int types_from_args(const struct convert_args *a,
                           const struct convert_opt *opts, int partition_ok,
                           struct import_log_opts *o, struct nodetypes **nt,
                           struct bfs_error *e)
{
    const char *file = value_of(a, opts, "node-types");
    const char *from = value_of(a, opts, "type-from");
    enum nodetypes_rule rule = NODETYPES_RULE_DEFAULT;
    int rc;

    *nt = NULL;
    if (from && (rc = nodetypes_rule_parse(from, &rule, e)) != 0)
        return rc;
    if (file) {
        if ((rc = nodetypes_load(file, rule, nt, e)) != 0)
            return rc;
        o->node_types = *nt;
        return 0;
    }
    if (from && rule == NODETYPES_RULE_PARTITION && partition_ok) {
        o->types_from_partition = 1;
        return 0;
    }
    if (from)
        return bfs_fail(e, BFS_EUSAGE,
                        "--type-from %s needs --node-types FILE%s", from,
                        partition_ok ? " (only 'partition' is read from the "
                                       "log)"
                                     : "");
    return 0;
}

/* ---- bftrainer --------------------------------------------------------- */

static const struct convert_opt bftrainer_opts[] = {TYPE_OPTS, {NULL, NULL}};

static int run_bftrainer(const struct convert_args *a,
                         const struct convert_format *f,
                         const struct import_log_opts *o,
                         struct import_stats *st, struct bfs_error *e)
{
    (void)f;
    return import_bftrainer_typed(a->input, a->output, a->comments,
                                  o->node_types, st, e);
}

/* ---- swf, slurm: job logs (import_swf.c, import_slurm.c) ------------- */

static const struct convert_opt swf_opts[] = {
    {"procs-per-node", "default: MaxProcs / MaxNodes, else 1"},
    {"machine-nodes", "default: header MaxNodes"},
    {"max-nodes", "largest MaxNodes taken (default 1048576)"},
    {"placement", "first-fit (default) or contiguous"},
    {"overflow", "truncate (default) or skip"},
    {"start", "window start (UTC or Unix s)"},
    {"end", "window end (default: last job end)"},
    OUTAGE_OPTS,
    {"partition-nodes", "NAME=COUNT[:PPN],... nodes per partition"},
    {NULL, NULL}};

/* Sets *o to the defaults, then to the values given to opts (the
 * format's options table) but those convert takes itself (own_option),
 * then the node types (types_from_args: *nt, partition_ok).  Returns 0,
 * or the error of import_log_opts_set or types_from_args. */
static int log_opts_from_args(const struct convert_args *a,
                              const struct convert_opt *opts, int partition_ok,
                              struct import_log_opts *o, struct nodetypes **nt,
                              struct bfs_error *e)
{
    int rc;

    *nt = NULL;
    import_log_opts_init(o);
    for (size_t k = 0; opts[k].name; k++)
        if (a->values[k] && !own_option(opts[k].name) &&
            (rc = import_log_opts_set(o, opts[k].name, a->values[k], e)) != 0)
            return rc;
    return types_from_args(a, opts, partition_ok, o, nt, e);
}

/* swf, slurm: f->log. */
static int run_log(const struct convert_args *a, const struct convert_format *f,
                   const struct import_log_opts *o, struct import_stats *st,
                   struct bfs_error *e)
{
    struct import_log_report r;
    int rc;

    rc = f->log(a->input, a->output, a->comments, o, st, &r, e);
    if (rc == 0 && !a->quiet)
        import_log_report_write(&r, stderr);
    if (rc == 0)
        import_log_warnings(&r, stderr);
    return rc;
}

static const struct convert_opt slurm_opts[] = {
    {"machine-nodes", "without NodeList (default: peak use)"},
    {"max-nodes", "largest machine inferred (default 1048576)"},
    {"nodes-file", "node names, one a line, in order"},
    {"tz-offset", "local - UTC: seconds or +HH:MM (default 0)"},
    {"columns", "fields of a file without header, as given\n"
                "                                    to sacct "
                "--format (JobID,Start,...)"},
    {"placement", "first-fit (default) or contiguous"},
    {"overflow", "truncate (default) or skip"},
    {"start", "window start (UTC or Unix s)"},
    {"end", "window end (default: last job end)"},
    OUTAGE_OPTS,
    NODE_TYPES_OPT,
    {"type-from", "gres|features|partition (see bfsim(1))"},
    {NULL, NULL}};

/* ---- pbs, lsf: accounting logs (import_pbs.c, import_lsf.c) ---------- */

#define ACCT_OPTS                                                              \
    {"nodes-file", "the machine: names, or pbsnodes -av output"},              \
        {"machine-nodes", "hosts named + unseen nodes up to N"},               \
        {"max-nodes", "largest machine inferred (default 1048576)"},           \
        {"skip-bad", "skip malformed records (counted)"},                      \
        {"start", "window start (UTC or Unix s)"},                             \
        {"end", "window end (default: last run end)"}, OUTAGE_OPTS, TYPE_OPTS

static const struct convert_opt pbs_opts[] = {
    {"tz", "zone of the time stamps (default UTC)"},
    {"placement", "runs without hosts: first-fit or contiguous"},
    {"overflow", "truncate (default) or skip"},
    ACCT_OPTS,
    {NULL, NULL}};

static const struct convert_opt lsf_opts[] = {ACCT_OPTS, {NULL, NULL}};

/* pbs, lsf: f->acct. */
static int run_acct(const struct convert_args *a,
                    const struct convert_format *f,
                    const struct import_log_opts *o, struct import_stats *st,
                    struct bfs_error *e)
{
    struct import_acct_report r;
    int rc;

    rc = f->acct(a->inputs, a->n_inputs, a->output, a->comments, o, st, &r, e);
    if (rc == 0 && !a->quiet)
        import_acct_report_write(&r, stderr);
    if (rc == 0)
        import_acct_warnings(&r, stderr);
    return rc;
}

/* ---- batsim, batsim-events (import_batsim.c) ------------------------- */

/* The options of the simulators' outputs (batsim, elastisim) but their
 * node counts: time 0, the window, outages and node types. */
#define SIM_OPTS                                                               \
    {"origin", "Unix time of simulation time 0 (default 0)"},                  \
        {"start", "window start (default: simulation time 0)"},                \
        {"end", "window end (default: latest time read)"}, OUTAGE_OPTS,        \
        TYPE_OPTS

static const struct convert_opt batsim_opts[] = {
    {"events", "also Batsim external events (JSON lines)"},
    {"machine-nodes", "default: largest resource id + 1"},
    {"max-nodes", "largest machine inferred (default 1048576)"},
    SIM_OPTS,
    {NULL, NULL}};

/* batsim_opts less --events. */
static const struct convert_opt *const batsim_events_opts = batsim_opts + 1;

/* batsim, and batsim-events (f->opts is batsim_events_opts): INPUT is
 * then the events file. */
static int run_batsim(const struct convert_args *a,
                      const struct convert_format *f,
                      const struct import_log_opts *o, struct import_stats *st,
                      struct bfs_error *e)
{
    struct import_batsim_report r;
    int events_input = f->opts == batsim_events_opts;
    const char *events = events_input ? a->input : NULL;
    int rc;

    if (value_of(a, f->opts, "events"))
        events = value_of(a, f->opts, "events");
    rc = import_batsim(events_input ? NULL : a->input, events, a->output,
                       a->comments, o, st, &r, e);
    if (rc == 0 && !a->quiet)
        import_batsim_report_write(&r, stderr);
    if (rc == 0)
        import_batsim_warnings(&r, stderr);
    return rc;
}

/* ---- elastisim (import_elastisim.c) ------------------------------------ */

static const struct convert_opt elastisim_opts[] = {
    {"max-nodes", "most nodes named (default 1048576)"},
    SIM_OPTS,
    {NULL, NULL}};

static int run_elastisim(const struct convert_args *a,
                         const struct convert_format *f,
                         const struct import_log_opts *o,
                         struct import_stats *st, struct bfs_error *e)
{
    struct import_elastisim_report r;
    int rc;

    (void)f;
    rc = import_elastisim(a->input, a->output, a->comments, o, st, &r, e);
    if (rc == 0 && !a->quiet)
        import_elastisim_report_write(&r, stderr);
    if (rc == 0)
        import_log_warnings(&r.log, stderr);
    return rc;
}

/* ---- native ------------------------------------------------------------ */

static const struct convert_opt native_opts[] = {{NULL, NULL}};

static int run_native(const struct convert_args *a,
                      const struct convert_format *f,
                      const struct import_log_opts *o, struct import_stats *st,
                      struct bfs_error *e)
{
    (void)f;
    (void)o;
    if (a->comments[1])
        return bfs_fail(e, BFS_EUSAGE,
                        "--comment: --from native copies the trace's text "
                        "as it is");
    return import_native(a->input, a->output, st, e);
}

/* ---- the table --------------------------------------------------------- */

static const struct convert_format formats[] = {
    {"bftrainer", "DIR",
     "BFTrainer node matrix export: DIR holds nodes.csv,\n"
     "             rows.csv and transitions.csv[.gz] (or INPUT is the\n"
     "             transitions file)",
     bftrainer_opts, 0, .run = run_bftrainer},
    {"swf", "FILE",
     "Standard Workload Format job log (Parallel Workloads\n"
     "             Archive); nodes placed by a rule (see bfsim(1))",
     swf_opts, 0, .run = run_log, .log = import_swf},
    {"slurm", "FILE",
     "Slurm accounting: sacct --parsable2 or fixed-width\n"
     "             output (JobID, Start, End, NNodes or NodeList)",
     slurm_opts, 0, .run = run_log, .log = import_slurm},
    {"pbs", "FILE|DIR ...",
     "PBS Pro / OpenPBS / Torque accounting logs (daily\n"
     "             files, or their folder): S, E, R, D, A records",
     pbs_opts, 1, .run = run_acct, .acct = import_pbs},
    {"lsf", "FILE|DIR ...",
     "LSF lsb.acct files: JOB_FINISH records (start, end,\n"
     "             execHosts)",
     lsf_opts, 1, .run = run_acct, .acct = import_lsf},
    {"batsim", "FILE",
     "Batsim jobs.csv output (allocated_resources interval\n"
     "             sets); a node is busy while a job holds it",
     batsim_opts, 0, .run = run_batsim},
    {"batsim-events", "FILE",
     "Batsim external events (JSON lines): a node is busy\n"
     "             from machine_unavailable to machine_available",
     batsim_events_opts, 0, .run = run_batsim},
    {"elastisim", "FILE",
     "ElastiSim node utilization (Time,Node,State,...): a\n"
     "             node is busy while allocated or reserved",
     elastisim_opts, 0, .run = run_elastisim},
    {"native", "FILE",
     "a native trace, copied line for line into OUT's\n"
     "             compression (by suffix): .gz <-> .zst, ...",
     native_opts, 0, .run = run_native},
};
#define N_FORMATS (sizeof formats / sizeof *formats)

/* The argument's name of the format option name (its record), or NULL
 * for a flag. */
static const char *arg_of(const char *name)
{
    const struct options_entry *o = options_lookup(&options_convert, name);

    return o ? o->arg : NULL;
}

/* The help: the records (options_help), then each format with its
 * options and their notes. */
static int usage(FILE *f)
{
    if (options_help(&options_convert, f) != 0)
        return CMD_FAIL;
    fputs("\nFormats (--from):\n", f);
    for (size_t i = 0; i < N_FORMATS; i++) {
        fprintf(f, "  %-10s INPUT = %s\n", formats[i].name, formats[i].input);
        fprintf(f, "             %s\n", formats[i].summary);
        for (const struct convert_opt *o = formats[i].opts; o->name; o++) {
            const char *arg = arg_of(o->name);
            char lhs[64];
            snprintf(lhs, sizeof lhs, "--%s%s%s", o->name, arg ? " " : "",
                     arg ? arg : "");
            fprintf(f, "             %-22s %s\n", lhs, o->help);
        }
    }
    return fflush(f) == 0 ? CMD_OK : CMD_FAIL;
}

/* The last component of a path, for provenance comments that do not
 * depend on where the input sat ("dir/" gives "dir"). */
static const char *base_name(const char *path, char buf[256])
{
    size_t n = strlen(path);
    const char *p;

    while (n > 1 && path[n - 1] == '/')
        n--;
    p = path + n;
    while (p > path && p[-1] != '/')
        p--;
    snprintf(buf, 256, "%.*s", (int)(path + n - p), p);
    return buf;
}

/* Checks the output against the input, the files the format's FILE
 * options name (values[k] for fmt->opts[k]) and, for bftrainer, the
 * files read beside the input (cmd_check_paths).  Returns a CMD_*
 * status. */
static int check_paths(const struct convert_format *fmt,
                       const char *const *inputs, size_t n_inputs,
                       const char *const *values, const char *out)
{
    const char *input = inputs[0];
    struct bfs_paths_role *r;
    char *bft[3] = {NULL, NULL}, **names;
    size_t n = 0, k = 0;
    int status;

    for (const struct convert_opt *o = fmt->opts; o->name; o++)
        k++;
    r = xcalloc(k + n_inputs + 5, sizeof *r);
    names = xcalloc(k + 1, sizeof *names);
    for (size_t i = 0; i < n_inputs; i++)
        r[n++] = (struct bfs_paths_role){"INPUT", inputs[i], 0, NULL};
    for (size_t i = 0; i < k; i++) {
        const struct convert_opt *o = &fmt->opts[i];
        const char *arg = arg_of(o->name);
        if (!arg || strcmp(arg, "FILE") != 0)
            continue;
        names[i] = xasprintf("--%s", o->name);
        r[n++] = (struct bfs_paths_role){names[i], values[i], 0, NULL};
    }
    if (fmt->run == run_bftrainer && *input) {
        import_bftrainer_inputs(input, &bft[0], &bft[1], &bft[2]);
        for (int i = 0; i < 3; i++)
            r[n++] = (struct bfs_paths_role){"INPUT", bft[i], 0, NULL};
    }
    r[n++] = (struct bfs_paths_role){"-o", out, 1, NULL};
    status = cmd_check_paths("convert", r, n);
    for (int i = 0; i < 3; i++)
        xfree(bft[i]);
    xfree_strv(names, k);
    xfree(r);
    return status;
}

/* --jobs: the job set of a->jobs (and a->curves) rewritten as a native
 * job file.  Returns a CMD_* exit status. */
static int convert_jobs(const struct convert_cmdline *a, int n_operands,
                        char **operands)
{
    const char *comments[OPTIONS_MAX_LIST + 2] = {0};
    char auto_comment[640], b1[256], b2[256];
    struct bfs_error e;
    struct jobset js;
    int rc;

    if (n_operands > 0 || a->format.n > 0)
        return cmd_usage_error(
            "convert", "unexpected argument '%s' with --jobs",
            n_operands > 0 ? operands[0] : a->format.name[0]);
    {
        const struct bfs_paths_role roles[] = {
            {"--jobs", a->jobs, 0, NULL},
            {"--curves", a->curves, 0, NULL},
            {"-o", a->output, 1, NULL},
        };
        if ((rc = cmd_check_paths("convert", roles, 3)) != CMD_OK)
            return rc;
    }
    snprintf(auto_comment, sizeof auto_comment,
             "converted by bfsim %s: bfsim convert --jobs %s%s%s",
             PACKAGE_VERSION, base_name(a->jobs, b1),
             a->curves ? " --curves " : "",
             a->curves ? base_name(a->curves, b2) : "");
    comments[0] = auto_comment;
    for (size_t k = 0; k < a->comments.n; k++)
        comments[k + 1] = a->comments.v[k];
    bfs_error_clear(&e);
    rc = jobset_load(a->jobs, a->curves, &js, &e);
    if (rc)
        return cmd_report(&e, rc);
    rc = jobset_write(a->output, &js, comments, &e);
    if (rc == 0 && !a->quiet)
        fprintf(stderr, "bfsim: wrote %s: %zu jobs\n", a->output, js.n);
    jobset_release(&js);
    return rc ? cmd_report(&e, rc) : CMD_OK;
}

/* The format-specific options given (a->format) as values[k] for
 * fmt->opts[k] (values: one more than fmt's options).  Returns CMD_OK,
 * or CMD_USAGE after naming an option fmt does not take. */
static int format_values(const struct convert_cmdline *a,
                         const struct convert_format *fmt, const char **values)
{
    for (size_t g = 0; g < a->format.n; g++) {
        size_t j = 0;
        const struct convert_opt *o;
        for (o = fmt->opts; o->name; o++, j++)
            if (strcmp(o->name, a->format.name[g]) == 0)
                break;
        if (!o->name)
            return cmd_usage_error("convert",
                                   "--%s is not an option of --from %s",
                                   a->format.name[g], fmt->name);
        values[j] = a->format.value[g];
    }
    return CMD_OK;
}

/* The summary on standard error of a trace written. */
static void report(const char *out, const struct import_stats *st, int quiet)
{
    char t0[BFS_TIME_LEN], t1[BFS_TIME_LEN];

    if (!quiet)
        fprintf(stderr,
                "bfsim: wrote %s: %zu nodes, %zu events, %zu changes "
                "(%zu joins, %zu leaves), %s .. %s UTC, at most %zu "
                "idle\n",
                out, st->nodes, st->events, st->joins + st->leaves, st->joins,
                st->leaves, bfs_time_format(st->first_time, t0),
                bfs_time_format(st->last_time, t1), st->max_idle);
    if (!quiet && st->types)
        fprintf(stderr, "bfsim: %zu node types (bfsim info %s lists them)\n",
                st->types, out);
    if (st->types_unused)
        fprintf(stderr,
                "bfsim: warning: %zu nodes of the node-type file are not "
                "in the trace\n",
                st->types_unused);
}

/* --from: the n INPUTs converted by fmt.  Returns a CMD_* exit status. */
static int convert_trace(const struct convert_cmdline *c,
                         const struct convert_format *fmt, int n, char **inputs)
{
    const char *comments[OPTIONS_MAX_LIST + 2] = {0}, **values;
    char auto_comment[640], b1[256];
    struct import_stats st = {0};
    struct bfs_error e;
    size_t k = 0;
    int rc, status;

    for (const struct convert_opt *o = fmt->opts; o->name; o++)
        k++;
    values = xcalloc(k + 1, sizeof *values);
    if ((status = format_values(c, fmt, values)) != CMD_OK ||
        (status = check_paths(fmt, (const char *const *)inputs, (size_t)n,
                              values, c->output)) != CMD_OK)
        goto done;
    snprintf(auto_comment, sizeof auto_comment,
             "converted by bfsim %s: bfsim convert --from %s %s%s",
             PACKAGE_VERSION, fmt->name, base_name(inputs[0], b1),
             n > 1 ? " ..." : "");
    comments[0] = auto_comment;
    for (size_t i = 0; i < c->comments.n; i++)
        comments[i + 1] = c->comments.v[i];
    {
        struct convert_args a = {inputs[0], (const char *const *)inputs,
                                 (size_t)n, c->output,
                                 comments,  values,
                                 c->quiet};
        struct import_log_opts o;
        struct nodetypes *nt;

        bfs_error_clear(&e);
        rc = log_opts_from_args(&a, fmt->opts, fmt->log == import_slurm, &o,
                                &nt, &e);
        if (rc == 0) {
            rc = fmt->run(&a, fmt, &o, &st, &e);
            nodetypes_free(nt);
        }
        if (rc != 0)
            status = cmd_report(&e, rc);
        else
            report(c->output, &st, c->quiet);
    }
done:
    xfree(values);
    return status;
}

int cmd_convert(int argc, char **argv)
{
    struct convert_cmdline a;
    const struct convert_format *fmt = NULL;
    int first, n, status;

    if (!cmd_parse(&options_convert, usage, argc, argv, &a, &first, &status))
        return status;
    n = argc - first;
    if (a.jobs)
        return convert_jobs(&a, n, argv + first);
    if (a.curves)
        return cmd_usage_error("convert", "%s", "--curves goes with --jobs");
    for (size_t i = 0; i < N_FORMATS; i++)
        if (strcmp(formats[i].name, a.from) == 0)
            fmt = &formats[i];
    if (!fmt)
        return cmd_usage_error("convert", "unknown format '%s' (see --help)",
                               a.from);
    if (n < 1 || (n > 1 && !fmt->multi))
        return cmd_usage_error("convert", "%s",
                               n == 0 ? "no INPUT given"
                                      : "more than one INPUT given");
    return convert_trace(&a, fmt, n, argv + first);
}
