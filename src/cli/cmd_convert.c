/* cmd_convert.c - `bfsim convert`: foreign logs to native traces, and
 * BFTrainer job tables to native job files.
 *
 * Trace formats are rows of the table `formats` below: a name for
 * --from, what INPUT is, the options only that format takes (name,
 * metavar, help) and a run function that calls the importer (import.h).
 * Options of every format are offered to getopt_long; after parsing, the
 * ones given must belong to the chosen format.  To add a format, add its
 * options array, a run function and one row.
 *
 * Node types: --node-types FILE (a mapping, nodetypes.h) and --type-from
 * RULE are options of every format that names its nodes; convert loads
 * the mapping and hands it to the importer.  Slurm alone takes
 * --type-from partition without a mapping (its Partition column); SWF
 * takes --partition-nodes instead.
 */
#include "config.h"

#include "cli/cmd.h"
#include "import/import.h"
#include "formats/jobs.h"
#include "formats/nodetypes.h"
#include "base/util.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A format-specific option. */
struct convert_opt {
    const char *name; /* long option, without "--" */
    const char *arg;  /* metavar, or NULL for a flag (value "1") */
    const char *help;
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

struct convert_format {
    const char *name;  /* --from NAME */
    const char *input; /* what INPUT names */
    const char *summary;
    const struct convert_opt *opts; /* ends with {NULL} */
    int multi;                      /* takes several INPUTs */
    int (*run)(const struct convert_args *a, struct import_stats *st,
               struct bfs_error *e);
};

/* ---- node types -------------------------------------------------------- */

#define NODE_TYPES_OPT                                                         \
    {                                                                          \
        "node-types", "FILE", "node types: sinfo output or HOSTLIST TYPE"      \
    }
#define TYPE_OPTS                                                              \
    NODE_TYPES_OPT,                                                            \
    {                                                                          \
        "type-from", "RULE", "sinfo's gres (default)/features/partition"       \
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

static const struct convert_opt bftrainer_opts[] = {TYPE_OPTS,
                                                    {NULL, NULL, NULL}};

static int run_bftrainer(const struct convert_args *a, struct import_stats *st,
                         struct bfs_error *e)
{
    struct import_log_opts o;
    struct nodetypes *nt;
    int rc;

    import_log_opts_init(&o);
    if ((rc = types_from_args(a, bftrainer_opts, 0, &o, &nt, e)) != 0)
        return rc;
    rc = import_bftrainer_typed(a->input, a->output, a->comments, nt, st, e);
    nodetypes_free(nt);
    return rc;
}

/* ---- swf, slurm: job logs (import_swf.c, import_slurm.c) ------------- */

static const struct convert_opt swf_opts[] = {
    {"procs-per-node", "P", "default: MaxProcs / MaxNodes, else 1"},
    {"machine-nodes", "N", "default: header MaxNodes"},
    {"max-nodes", "N", "largest MaxNodes taken (default 1048576)"},
    {"placement", "RULE", "first-fit (default) or contiguous"},
    {"overflow", "RULE", "truncate (default) or skip"},
    {"start", "TIME", "window start (UTC or Unix s)"},
    {"end", "TIME", "window end (default: last job end)"},
    {"outage-threshold", "F", "idle fraction marking an outage"},
    {"outage-min-duration", "D", "for at least D (s/m/h/d; default 1h)"},
    {"partition-nodes", "LIST", "NAME=COUNT[:PPN],... nodes per partition"},
    {NULL, NULL, NULL}};

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

typedef int (*log_importer)(const char *, const char *, const char *const *,
                            const struct import_log_opts *,
                            struct import_stats *, struct import_log_report *,
                            struct bfs_error *);

static int run_log(const struct convert_args *a, const struct convert_opt *opts,
                   log_importer import, struct import_stats *st,
                   struct bfs_error *e)
{
    struct import_log_opts o;
    struct import_log_report r;
    struct nodetypes *nt;
    int rc;

    if ((rc = log_opts_from_args(a, opts, import == import_slurm, &o, &nt,
                                 e)) != 0)
        return rc;
    rc = import(a->input, a->output, a->comments, &o, st, &r, e);
    nodetypes_free(nt);
    if (rc == 0 && !a->quiet)
        import_log_report_write(&r, stderr);
    if (rc == 0)
        import_log_warnings(&r, stderr);
    return rc;
}

static int run_swf(const struct convert_args *a, struct import_stats *st,
                   struct bfs_error *e)
{
    return run_log(a, swf_opts, import_swf, st, e);
}

static const struct convert_opt slurm_opts[] = {
    {"machine-nodes", "N", "without NodeList (default: peak use)"},
    {"max-nodes", "N", "largest machine inferred (default 1048576)"},
    {"nodes-file", "FILE", "node names, one a line, in order"},
    {"tz-offset", "OFF", "local - UTC: seconds or +HH:MM (default 0)"},
    {"columns", "LIST",
     "fields of a file without header, as given\n"
     "                                    to sacct "
     "--format (JobID,Start,...)"},
    {"placement", "RULE", "first-fit (default) or contiguous"},
    {"overflow", "RULE", "truncate (default) or skip"},
    {"start", "TIME", "window start (UTC or Unix s)"},
    {"end", "TIME", "window end (default: last job end)"},
    {"outage-threshold", "F", "idle fraction marking an outage"},
    {"outage-min-duration", "D", "for at least D (s/m/h/d; default 1h)"},
    NODE_TYPES_OPT,
    {"type-from", "RULE", "gres|features|partition (see bfsim(1))"},
    {NULL, NULL, NULL}};

static int run_slurm(const struct convert_args *a, struct import_stats *st,
                     struct bfs_error *e)
{
    return run_log(a, slurm_opts, import_slurm, st, e);
}

/* ---- pbs, lsf: accounting logs (import_pbs.c, import_lsf.c) ---------- */

#define ACCT_OPTS                                                              \
    {"nodes-file", "FILE", "the machine: names, or pbsnodes -av output"},      \
        {"machine-nodes", "N", "hosts named + unseen nodes up to N"},          \
        {"max-nodes", "N", "largest machine inferred (default 1048576)"},      \
        {"skip-bad", NULL, "skip malformed records (counted)"},                \
        {"start", "TIME", "window start (UTC or Unix s)"},                     \
        {"end", "TIME", "window end (default: last run end)"},                 \
        {"outage-threshold", "F", "idle fraction marking an outage"},          \
        {"outage-min-duration", "D", "for at least D (s/m/h/d; default 1h)"},  \
        TYPE_OPTS

static const struct convert_opt pbs_opts[] = {
    {"tz", "ZONE", "zone of the time stamps (default UTC)"},
    {"placement", "RULE", "runs without hosts: first-fit or contiguous"},
    {"overflow", "RULE", "truncate (default) or skip"},
    ACCT_OPTS,
    {NULL, NULL, NULL}};

static const struct convert_opt lsf_opts[] = {ACCT_OPTS, {NULL, NULL, NULL}};

typedef int (*acct_importer)(const char *const *, size_t, const char *,
                             const char *const *,
                             const struct import_log_opts *,
                             struct import_stats *, struct import_acct_report *,
                             struct bfs_error *);

static int run_acct(const struct convert_args *a,
                    const struct convert_opt *opts, acct_importer import,
                    struct import_stats *st, struct bfs_error *e)
{
    struct import_log_opts o;
    struct import_acct_report r;
    struct nodetypes *nt;
    int rc;

    if ((rc = log_opts_from_args(a, opts, 0, &o, &nt, e)) != 0)
        return rc;
    rc = import(a->inputs, a->n_inputs, a->output, a->comments, &o, st, &r, e);
    nodetypes_free(nt);
    if (rc == 0 && !a->quiet)
        import_acct_report_write(&r, stderr);
    if (rc == 0)
        import_acct_warnings(&r, stderr);
    return rc;
}

static int run_pbs(const struct convert_args *a, struct import_stats *st,
                   struct bfs_error *e)
{
    return run_acct(a, pbs_opts, import_pbs, st, e);
}

static int run_lsf(const struct convert_args *a, struct import_stats *st,
                   struct bfs_error *e)
{
    return run_acct(a, lsf_opts, import_lsf, st, e);
}

/* ---- batsim, batsim-events (import_batsim.c) ------------------------- */

static const struct convert_opt batsim_opts[] = {
    {"events", "FILE", "also Batsim external events (JSON lines)"},
    {"machine-nodes", "N", "default: largest resource id + 1"},
    {"max-nodes", "N", "largest machine inferred (default 1048576)"},
    {"origin", "TIME", "Unix time of simulation time 0 (default 0)"},
    {"start", "TIME", "window start (default: simulation time 0)"},
    {"end", "TIME", "window end (default: latest time read)"},
    {"outage-threshold", "F", "idle fraction marking an outage"},
    {"outage-min-duration", "D", "for at least D (s/m/h/d; default 1h)"},
    TYPE_OPTS,
    {NULL, NULL, NULL}};

/* batsim_opts less --events. */
static const struct convert_opt *const batsim_events_opts = batsim_opts + 1;

static int run_batsim_common(const struct convert_args *a,
                             const struct convert_opt *opts, int events_input,
                             struct import_stats *st, struct bfs_error *e)
{
    struct import_log_opts o;
    struct import_batsim_report r;
    struct nodetypes *nt;
    const char *events = events_input ? a->input : NULL;
    int rc;

    if ((rc = log_opts_from_args(a, opts, 0, &o, &nt, e)) != 0)
        return rc;
    if (value_of(a, opts, "events"))
        events = value_of(a, opts, "events");
    rc = import_batsim(events_input ? NULL : a->input, events, a->output,
                       a->comments, &o, st, &r, e);
    nodetypes_free(nt);
    if (rc == 0 && !a->quiet)
        import_batsim_report_write(&r, stderr);
    if (rc == 0)
        import_batsim_warnings(&r, stderr);
    return rc;
}

static int run_batsim(const struct convert_args *a, struct import_stats *st,
                      struct bfs_error *e)
{
    return run_batsim_common(a, batsim_opts, 0, st, e);
}

static int run_batsim_events(const struct convert_args *a,
                             struct import_stats *st, struct bfs_error *e)
{
    return run_batsim_common(a, batsim_events_opts, 1, st, e);
}

/* ---- elastisim (import_elastisim.c) ------------------------------------ */

static const struct convert_opt elastisim_opts[] = {
    {"max-nodes", "N", "most nodes named (default 1048576)"},
    {"origin", "TIME", "Unix time of simulation time 0 (default 0)"},
    {"start", "TIME", "window start (default: simulation time 0)"},
    {"end", "TIME", "window end (default: latest time read)"},
    {"outage-threshold", "F", "idle fraction marking an outage"},
    {"outage-min-duration", "D", "for at least D (s/m/h/d; default 1h)"},
    TYPE_OPTS,
    {NULL, NULL, NULL}};

static int run_elastisim(const struct convert_args *a, struct import_stats *st,
                         struct bfs_error *e)
{
    struct import_log_opts o;
    struct import_elastisim_report r;
    struct nodetypes *nt;
    int rc;

    if ((rc = log_opts_from_args(a, elastisim_opts, 0, &o, &nt, e)) != 0)
        return rc;
    rc = import_elastisim(a->input, a->output, a->comments, &o, st, &r, e);
    nodetypes_free(nt);
    if (rc == 0 && !a->quiet)
        import_elastisim_report_write(&r, stderr);
    if (rc == 0)
        import_log_warnings(&r.log, stderr);
    return rc;
}

/* ---- native ------------------------------------------------------------ */

static const struct convert_opt native_opts[] = {{NULL, NULL, NULL}};

static int run_native(const struct convert_args *a, struct import_stats *st,
                      struct bfs_error *e)
{
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
     bftrainer_opts, 0, run_bftrainer},
    {"swf", "FILE",
     "Standard Workload Format job log (Parallel Workloads\n"
     "             Archive); nodes placed by a rule (see bfsim(1))",
     swf_opts, 0, run_swf},
    {"slurm", "FILE",
     "Slurm accounting: sacct --parsable2 or fixed-width\n"
     "             output (JobID, Start, End, NNodes or NodeList)",
     slurm_opts, 0, run_slurm},
    {"pbs", "FILE|DIR ...",
     "PBS Pro / OpenPBS / Torque accounting logs (daily\n"
     "             files, or their folder): S, E, R, D, A records",
     pbs_opts, 1, run_pbs},
    {"lsf", "FILE|DIR ...",
     "LSF lsb.acct files: JOB_FINISH records (start, end,\n"
     "             execHosts)",
     lsf_opts, 1, run_lsf},
    {"batsim", "FILE",
     "Batsim jobs.csv output (allocated_resources interval\n"
     "             sets); a node is busy while a job holds it",
     batsim_opts, 0, run_batsim},
    {"batsim-events", "FILE",
     "Batsim external events (JSON lines): a node is busy\n"
     "             from machine_unavailable to machine_available",
     batsim_events_opts, 0, run_batsim_events},
    {"elastisim", "FILE",
     "ElastiSim node utilization (Time,Node,State,...): a\n"
     "             node is busy while allocated or reserved",
     elastisim_opts, 0, run_elastisim},
    {"native", "FILE",
     "a native trace, copied line for line into OUT's\n"
     "             compression (by suffix): .gz <-> .zst, ...",
     native_opts, 0, run_native},
};
#define N_FORMATS (sizeof formats / sizeof *formats)

static void usage(FILE *f)
{
    fputs("Usage: bfsim convert --from FORMAT INPUT... -o OUT.trace[.gz|.zst] "
          "[OPTIONS]\n"
          "       bfsim convert --jobs BOUNDS.csv --curves LONG.csv "
          "-o OUT.jobs [OPTIONS]\n"
          "\n"
          "Converts a foreign node log to a native trace (bfsim-trace 1), or\n"
          "a BFTrainer job set (bounds table + long curve table) to a native\n"
          "job file (bfsim-jobs 1).  One INPUT, but pbs and lsf take several\n"
          "files or folders, read together.  The output is written\n"
          "atomically: nothing appears at OUT unless the whole input\n"
          "converted.  An OUT ending in .gz, .zst, .xz or .bz2 is compressed\n"
          "with gzip, zstd, xz or bzip2.  Inputs may be compressed with any\n"
          "of them (told by content, not by name).\n"
          "\n"
          "Options:\n"
          "  --from FORMAT      input trace format (see below)\n"
          "  --jobs FILE        convert a job set: its bounds table (or a\n"
          "                     native job file, rewritten)\n"
          "  --curves FILE      the job set's long curve table "
          "(job,bp,N,P,O,...)\n"
          "  -o, --output OUT   output file (required; '-' = standard "
          "output)\n"
          "  --comment TEXT     add a '#' comment line to the output header\n"
          "                     (repeatable; say where the data came from)\n"
          "  -q, --quiet        do not print the summary on standard error\n"
          "  -h, --help         show this help\n"
          "\n"
          "Formats (--from):\n",
          f);
    for (size_t i = 0; i < N_FORMATS; i++) {
        fprintf(f, "  %-10s INPUT = %s\n", formats[i].name, formats[i].input);
        fprintf(f, "             %s\n", formats[i].summary);
        for (const struct convert_opt *o = formats[i].opts; o->name; o++) {
            char lhs[64];
            snprintf(lhs, sizeof lhs, "--%s%s%s", o->name, o->arg ? " " : "",
                     o->arg ? o->arg : "");
            fprintf(f, "             %-22s %s\n", lhs, o->help);
        }
    }
}

enum {
    OPT_FROM = 256,
    OPT_JOBS,
    OPT_CURVES,
    OPT_COMMENT,
    OPT_FORMAT /* any format-specific option */
};

/* A format-specific option as given on the command line. */
struct given {
    const char *name;
    const char *value;
};

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
    char *bft[3] = {NULL, NULL, NULL}, **names;
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
        if (!o->arg || strcmp(o->arg, "FILE") != 0)
            continue;
        names[i] = xmalloc(strlen(o->name) + 3);
        sprintf(names[i], "--%s", o->name);
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
    for (size_t i = 0; i < k; i++)
        xfree(names[i]);
    xfree(names);
    xfree(r);
    return status;
}

static int convert_jobs(const char *bounds, const char *curves, const char *out,
                        const char *const *comments, int quiet)
{
    struct bfs_error e;
    struct jobset js;
    int rc;

    bfs_error_clear(&e);
    rc = jobset_load(bounds, curves, &js, &e);
    if (rc)
        return cmd_report(&e, rc);
    rc = jobset_write(out, &js, comments, &e);
    if (rc == 0 && !quiet)
        fprintf(stderr, "bfsim: wrote %s: %zu jobs\n", out, js.n);
    jobset_release(&js);
    return rc ? cmd_report(&e, rc) : CMD_OK;
}

int cmd_convert(int argc, char **argv)
{
    static const struct option common[] = {
        {"from", required_argument, NULL, OPT_FROM},
        {"jobs", required_argument, NULL, OPT_JOBS},
        {"curves", required_argument, NULL, OPT_CURVES},
        {"output", required_argument, NULL, 'o'},
        {"comment", required_argument, NULL, OPT_COMMENT},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
    };
    const size_t n_common = sizeof common / sizeof *common;
    struct option *longopts;
    struct given *given;
    const char **comments, **values = NULL;
    const char *from = NULL, *jobs = NULL, *curves = NULL, *out = NULL;
    const struct convert_format *fmt = NULL;
    size_t n_opts = n_common, n_given = 0, n_comments = 0, k;
    int quiet = 0, c, idx, status = CMD_OK;
    char auto_comment[640] = "", b1[256], b2[256];

    for (size_t i = 0; i < N_FORMATS; i++)
        for (const struct convert_opt *o = formats[i].opts; o->name; o++)
            n_opts++;
    longopts = xcalloc(n_opts + 1, sizeof *longopts);
    memcpy(longopts, common, sizeof common);
    k = n_common;
    for (size_t i = 0; i < N_FORMATS; i++)
        for (const struct convert_opt *o = formats[i].opts; o->name; o++) {
            longopts[k].name = o->name;
            longopts[k].has_arg = o->arg ? required_argument : no_argument;
            longopts[k].val = OPT_FORMAT;
            k++;
        }
    given = xcalloc((size_t)argc + 1, sizeof *given);
    comments = xcalloc((size_t)argc + 2, sizeof *comments);
    comments[n_comments++] = auto_comment; /* filled after parsing */

    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:qh", longopts, &idx)) != -1) {
        switch (c) {
        case OPT_FROM:
            from = optarg;
            break;
        case OPT_JOBS:
            jobs = optarg;
            break;
        case OPT_CURVES:
            curves = optarg;
            break;
        case 'o':
            out = optarg;
            break;
        case OPT_COMMENT:
            comments[n_comments++] = optarg;
            break;
        case 'q':
            quiet = 1;
            break;
        case 'h':
            usage(stdout);
            goto done;
        case OPT_FORMAT:
            given[n_given].name = longopts[idx].name;
            given[n_given].value = optarg ? optarg : "1";
            n_given++;
            break;
        default:
            status = cmd_option_error("convert", c, argv);
            goto done;
        }
    }
    if (!out) {
        status = cmd_usage_error("convert", "%s", "no output file (-o OUT)");
        goto done;
    }
    if (!from == !jobs) {
        status = cmd_usage_error("convert", "%s",
                                 "give one of --from FORMAT or --jobs FILE");
        goto done;
    }

    if (jobs) {
        if (curves)
            snprintf(auto_comment, sizeof auto_comment,
                     "converted by bfsim %s: bfsim convert --jobs %s "
                     "--curves %s",
                     PACKAGE_VERSION, base_name(jobs, b1),
                     base_name(curves, b2));
        else
            snprintf(auto_comment, sizeof auto_comment,
                     "converted by bfsim %s: bfsim convert --jobs %s",
                     PACKAGE_VERSION, base_name(jobs, b1));
        if (optind < argc || n_given > 0) {
            status = cmd_usage_error(
                "convert", "unexpected argument '%s' with --jobs",
                optind < argc ? argv[optind] : given[0].name);
            goto done;
        }
        {
            const struct bfs_paths_role roles[] = {
                {"--jobs", jobs, 0, NULL},
                {"--curves", curves, 0, NULL},
                {"-o", out, 1, NULL},
            };
            status = cmd_check_paths("convert", roles, 3);
        }
        if (status == CMD_OK)
            status = convert_jobs(jobs, curves, out, comments, quiet);
        goto done;
    }

    if (curves) {
        status = cmd_usage_error("convert", "%s", "--curves goes with --jobs");
        goto done;
    }
    for (size_t i = 0; i < N_FORMATS; i++)
        if (strcmp(formats[i].name, from) == 0)
            fmt = &formats[i];
    if (!fmt) {
        status = cmd_usage_error("convert", "unknown format '%s' (see --help)",
                                 from);
        goto done;
    }
    if (argc - optind < 1 || (argc - optind > 1 && !fmt->multi)) {
        status =
            cmd_usage_error("convert", "%s",
                            argc - optind == 0 ? "no INPUT given"
                                               : "more than one INPUT given");
        goto done;
    }
    /* Resolve the format-specific options against the chosen format. */
    k = 0;
    for (const struct convert_opt *o = fmt->opts; o->name; o++)
        k++;
    values = xcalloc(k + 1, sizeof *values);
    for (size_t g = 0; g < n_given; g++) {
        size_t j = 0;
        const struct convert_opt *o;
        for (o = fmt->opts; o->name; o++, j++)
            if (strcmp(o->name, given[g].name) == 0)
                break;
        if (!o->name) {
            status =
                cmd_usage_error("convert", "--%s is not an option of --from %s",
                                given[g].name, fmt->name);
            goto done;
        }
        values[j] = given[g].value;
    }

    if ((status = check_paths(fmt, (const char *const *)argv + optind,
                              (size_t)(argc - optind), values, out)) != CMD_OK)
        goto done;
    snprintf(auto_comment, sizeof auto_comment,
             "converted by bfsim %s: bfsim convert --from %s %s%s",
             PACKAGE_VERSION, fmt->name, base_name(argv[optind], b1),
             argc - optind > 1 ? " ..." : "");
    {
        struct convert_args a = {argv[optind],
                                 (const char *const *)argv + optind,
                                 (size_t)(argc - optind),
                                 out,
                                 comments,
                                 values,
                                 quiet};
        struct import_stats st = {0};
        struct bfs_error e;
        char t0[BFS_TIME_LEN], t1[BFS_TIME_LEN];
        int rc;

        bfs_error_clear(&e);
        rc = fmt->run(&a, &st, &e);
        if (rc) {
            status = cmd_report(&e, rc);
            goto done;
        }
        if (!quiet)
            fprintf(stderr,
                    "bfsim: wrote %s: %zu nodes, %zu events, %zu changes "
                    "(%zu joins, %zu leaves), %s .. %s UTC, at most %zu "
                    "idle\n",
                    out, st.nodes, st.events, st.joins + st.leaves, st.joins,
                    st.leaves, bfs_time_format(st.first_time, t0),
                    bfs_time_format(st.last_time, t1), st.max_idle);
        if (!quiet && st.types)
            fprintf(stderr,
                    "bfsim: %zu node types (bfsim info %s lists them)\n",
                    st.types, out);
        if (st.types_unused)
            fprintf(stderr,
                    "bfsim: warning: %zu nodes of the node-type file are not "
                    "in the trace\n",
                    st.types_unused);
    }

done:
    xfree(values);
    xfree(comments);
    xfree(given);
    xfree(longopts);
    return status;
}
