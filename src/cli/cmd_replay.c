/* cmd_replay.c - `bfsim replay`: options, the human report and the JSON
 * summary.  The replay itself is replay_run() in the library. */
#include "config.h"

#include "cli/cmd.h"
#include "formats/h5out.h"
#include "formats/jobs.h"
#include "engine/replay.h"
#include "base/util.h"

#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define DEFAULT_TRACE "traces/summit-2021-02.trace.gz"
#define DEFAULT_JOBS "datasets/hps-shufflenet-10J.jobs"

static void usage(FILE *f)
{
    fprintf(
        f,
        "Usage: bfsim replay [OPTIONS]\n"
        "\n"
        "Replay a node idle/preempt trace with elastic training jobs and\n"
        "report what a backfill trainer would have done.\n"
        "\n"
        "Input:\n"
        "  --trace FILE       native trace (default: the bundled Summit "
        "trace,\n"
        "                     " DEFAULT_TRACE ")\n"
        "  --jobs FILE        job set: native, or a BFTrainer bounds table\n"
        "                     (default: " DEFAULT_JOBS ")\n"
        "  --curves FILE      BFTrainer long curve table for --jobs\n"
        "  --start TIME       replay from TIME: 'YYYY-MM-DD HH:MM:SS' (UTC) "
        "or\n"
        "                     Unix seconds (default: the trace's first time)\n"
        "  --end TIME         last event time replayed (default: the trace's "
        "end)\n"
        "  --nodes [SKIP:]COUNT  use COUNT nodes of the trace's node order\n"
        "                     after skipping SKIP (default: all)\n"
        "  --align-jobs       shift the job set's submission times so that "
        "the\n"
        "                     first is the replay's start\n"
        "\n"
        "Policy:\n"
        "  --max-jobs N       jobs in the system at once, 0 = no limit "
        "(default 10)\n"
        "  --tfwd SECONDS     allocator's forward-looking horizon (default "
        "10)\n"
        "  --objective NAME   metric O(n) maximised: file (default: the job\n"
        "                     file's O column), throughput, speedup,\n"
        "                     prop-fair\n"
        "  --allocator NAME   milp (default), dp, or even (the published\n"
        "                     replayer's even-share baseline)\n"
        "  --solver NAME      MILP backend: cbc (default), glpk; options\n"
        "                     after commas: isolate=yes|no (a child\n"
        "                     process per solver), start=yes|no (node\n"
        "                     model on CBC: start from dp's optimum)\n"
        "  --model NAME       MILP formulation: count (default), node\n"
        "  --time-limit S     wall-clock limit per solve, seconds (default "
        "10)\n"
        "  --gap G            relative MIP gap\n"
        "  --apply-feasible   apply answers found at the time limit (default\n"
        "                     mode; the compatible mode never does)\n"
        "  --compat bftrainer reproduce the published BFTrainer replayer\n"
        "  --big-m legacy|exact  legacy caps every change at (N+1)/2 nodes\n"
        "                     per job and event, as the published MILP did\n"
        "                     (default: exact)\n"
        "\n"
        "Output:\n"
        "  --steps FILE       one CSV row per event, BFTrainer's columns\n"
        "  --summary FILE     JSON summary ('-' for standard output); without\n"
        "                     it a short report goes to standard output\n"
        "  --job-log FILE     one CSV row per job of the set\n"
        "  -o, --output FILE  HDF5 file with the event, solve, allocation and\n"
        "                     job tables and the run's options as attributes\n"
        "  --dump-instances DIR  write every allocation instance solved as\n"
        "                     DIR/evt-NNNNNN.json, for `bfsim solve`\n"
        "  -q, --quiet        no progress line on standard error\n"
        "  -h, --help         this help\n");
}

/* ---- the per-job CSV ------------------------------------------------ */

struct joblog {
    struct bfs_out out;
    struct bfs_error e;
};

static void put_time(FILE *f, int64_t t)
{
    char ts[BFS_TIME_LEN];

    if (t >= 0)
        fputs(bfs_time_format(t, ts), f);
    fputc(',', f);
}

static int joblog_job(void *arg, const struct replay_jobrec *j)
{
    struct joblog *jl = arg;
    FILE *f = jl->out.fp;

    fprintf(f, "%s,", j->name);
    put_time(f, j->tsub);
    put_time(f, j->admitted);
    put_time(f, j->first_start);
    put_time(f, j->finished);
    if (j->finished >= 0)
        fprintf(f, "%" PRId64, j->finished - j->tsub);
    fprintf(f, ",%.17g,%.17g,%zu,%zu,%.17g,%.17g,%.17g\n", j->samples,
            j->node_seconds, j->rescales, j->preemptions, j->paused_s,
            j->lost_rescale, j->lost_preempt);
    return ferror(f) ? BFS_EIO : 0;
}

static int joblog_open(struct joblog *jl, const char *path)
{
    bfs_error_clear(&jl->e);
    if (bfs_out_open(&jl->out, path, &jl->e))
        return -1;
    fputs("job,tsub,admitted,first_start,finished,completion_s,samples,"
          "node_seconds,rescales,preemptions,paused_s,lost_rescale,"
          "lost_preempt\n",
          jl->out.fp);
    return 0;
}

/* ---- the HDF5 file ---------------------------------------------------- */

/* CRC-32 (zlib's) of a file's bytes as 8 hex digits, or "unreadable". */
static void file_crc(const char *path, char out[16])
{
    FILE *f = fopen(path, "rb");
    unsigned char buf[65536];
    uLong crc = crc32(0L, Z_NULL, 0);
    size_t n;

    if (!f) {
        strcpy(out, "unreadable");
        return;
    }
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        crc = crc32(crc, buf, (uInt)n);
    fclose(f);
    snprintf(out, 16, "%08lx", (unsigned long)crc);
}

/* Root attributes: version, command line, every option, input CRCs. */
static int h5_attrs(struct h5out *h, int argc, char **argv,
                    const struct replay_opts *o)
{
    char *cmdline, crc[16];
    size_t len = 1;
    int rc = 0;

    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 3;
    cmdline = xmalloc(len + 8);
    strcpy(cmdline, "bfsim");
    for (int i = 0; i < argc; i++) {
        strcat(cmdline, " ");
        strcat(cmdline, argv[i]);
    }
    rc = rc ? rc : h5out_attr_str(h, "bfsim_version", PACKAGE_VERSION);
    rc = rc ? rc : h5out_attr_str(h, "command_line", cmdline);
    rc = rc ? rc : h5out_attr_str(h, "trace", o->trace_path);
    rc = rc ? rc : h5out_attr_str(h, "jobs", o->jobs_path);
    file_crc(o->trace_path, crc);
    rc = rc ? rc : h5out_attr_str(h, "trace_crc32", crc);
    file_crc(o->jobs_path, crc);
    rc = rc ? rc : h5out_attr_str(h, "jobs_crc32", crc);
    if (o->curves_path) {
        rc = rc ? rc : h5out_attr_str(h, "curves", o->curves_path);
        file_crc(o->curves_path, crc);
        rc = rc ? rc : h5out_attr_str(h, "curves_crc32", crc);
    }
    rc =
        rc ? rc
           : h5out_attr_str(h, "mode",
                            o->mode == REPLAY_COMPAT ? "bftrainer" : "default");
    rc = rc ? rc : h5out_attr_str(h, "allocator", o->alloc.name);
    rc = rc ? rc
            : h5out_attr_str(h, "objective", job_objective_name(o->objective));
    rc = rc ? rc : h5out_attr_str(h, "solver", o->alloc.solver);
    rc = rc ? rc : h5out_attr_str(h, "model", o->alloc.model);
    rc = rc ? rc
            : h5out_attr_str(h, "big_m", o->legacy_cap ? "legacy" : "exact");
    rc = rc ? rc : h5out_attr_double(h, "tfwd", o->tfwd);
    rc = rc ? rc : h5out_attr_double(h, "time_limit", o->alloc.time_limit);
    rc = rc ? rc : h5out_attr_double(h, "gap", o->alloc.gap_rel);
    rc = rc ? rc : h5out_attr_int(h, "max_jobs", o->max_jobs);
    rc = rc ? rc : h5out_attr_int(h, "apply_feasible", o->apply_feasible);
    rc = rc ? rc : h5out_attr_int(h, "node_skip", (int64_t)o->node_skip);
    rc = rc ? rc : h5out_attr_int(h, "node_count", (int64_t)o->node_count);
    if (o->has_start)
        rc = rc ? rc : h5out_attr_int(h, "start", o->start);
    if (o->has_end)
        rc = rc ? rc : h5out_attr_int(h, "end", o->end);
    xfree(cmdline);
    return rc;
}

/* The summary's numbers as attributes of /summary. */
static int h5_summary(struct h5out *h, const struct replay_stats *st)
{
    const struct {
        const char *key;
        double v;
    } d[] = {
        {"samples_trained", st->samples_trained},
        {"rescale_cost", st->rescale_cost},
        {"preempt_cost", st->preempt_cost},
        {"idle_node_seconds", st->idle_node_seconds},
        {"allocated_node_seconds", st->allocated_node_seconds},
        {"jct_mean_seconds", st->jct_mean},
        {"jct_median_seconds", st->jct_median},
        {"jct_p95_seconds", st->jct_p95},
        {"fairness_jain", st->fairness},
        {"efficiency", st->efficiency},
        {"solve_seconds_median", st->solve_s_median},
        {"solve_seconds_p95", st->solve_s_p95},
        {"solve_seconds_max", st->solve_s_max},
        {"wall_seconds", st->wall_seconds},
    };
    const struct {
        const char *key;
        int64_t v;
    } n[] = {
        {"events", (int64_t)st->events},
        {"jobs_admitted", (int64_t)st->jobs_admitted},
        {"jobs_finished", (int64_t)st->jobs_finished},
        {"first_time", st->first_time},
        {"last_event_time", st->last_event_time},
        {"makespan_seconds", st->makespan},
        {"rescales", (int64_t)st->rescales},
        {"preemptions", (int64_t)st->preemptions},
        {"solves", (int64_t)st->solves},
    };
    int rc = 0;

    for (size_t i = 0; i < sizeof d / sizeof *d && !rc; i++)
        rc = h5out_summary_double(h, d[i].key, d[i].v);
    for (size_t i = 0; i < sizeof n / sizeof *n && !rc; i++)
        rc = h5out_summary_int(h, n[i].key, n[i].v);
    for (int s = 0; s < ALLOC_N_STATUSES && !rc; s++) {
        char key[64];
        snprintf(key, sizeof key, "solves_%s", alloc_status_name(s));
        rc = h5out_summary_int(h, key, (int64_t)st->solves_by_status[s]);
    }
    return rc;
}

static volatile sig_atomic_t stop_flag;

static void on_sigint(int sig)
{
    (void)sig;
    stop_flag = 1;
}

struct progress {
    double start, last;
};

static void show_progress(void *arg, size_t events, int64_t now, double done)
{
    struct progress *pg = arg;
    double t = bfs_now(), el;
    char ts[BFS_TIME_LEN], eta[32] = "?";

    if (t - pg->last < 0.5)
        return;
    pg->last = t;
    el = t - pg->start;
    if (done > 0.001)
        snprintf(eta, sizeof eta, "%.0f s", el * (1.0 - done) / done);
    fprintf(stderr,
            "\r%zu events, at %s, %.0f events/s, %.0f%% done, %s left   ",
            events, bfs_time_format(now, ts), (double)events / el, 100.0 * done,
            eta);
}

static json_t *summary_json(const struct replay_opts *o,
                            const struct replay_stats *st)
{
    char t0[BFS_TIME_LEN], t1[BFS_TIME_LEN];
    json_t *root, *by = json_object();
    double ratio = st->idle_node_seconds > 0
                       ? st->allocated_node_seconds / st->idle_node_seconds
                       : 0.0;

    for (int s = 0; s < ALLOC_N_STATUSES; s++)
        json_object_set_new(by, alloc_status_name(s),
                            json_integer((json_int_t)st->solves_by_status[s]));
    root = json_pack(
        "{s:s, s:s, s:s, s:b, s:I, s:I, s:I, s:I, s:I, s:s, s:s, s:f, s:f, "
        "s:f, s:f, s:f, s:f, s:I, s:I}",
        "bfsim_version", PACKAGE_VERSION, "mode",
        o->mode == REPLAY_COMPAT ? "bftrainer" : "default", "allocator",
        o->alloc.name, "partial", st->partial, "events", (json_int_t)st->events,
        "nodes", (json_int_t)st->trace_nodes, "jobs_total",
        (json_int_t)st->jobs_total, "jobs_admitted",
        (json_int_t)st->jobs_admitted, "jobs_finished",
        (json_int_t)st->jobs_finished, "first_time",
        bfs_time_format(st->first_time, t0), "last_event_time",
        bfs_time_format(st->last_event_time, t1), "samples_trained",
        st->samples_trained, "rescale_cost", st->rescale_cost, "preempt_cost",
        st->preempt_cost, "idle_node_seconds", st->idle_node_seconds,
        "allocated_node_seconds", st->allocated_node_seconds, "harvest_ratio",
        ratio, "rescales", (json_int_t)st->rescales, "preemptions",
        (json_int_t)st->preemptions);
    json_object_set_new(root, "objective",
                        json_string(job_objective_name(o->objective)));
    json_object_set_new(root, "solves", json_integer((json_int_t)st->solves));
    json_object_set_new(root, "solves_by_status", by);
    json_object_set_new(root, "solve_seconds_median",
                        json_real(st->solve_s_median));
    json_object_set_new(root, "solve_seconds_p95", json_real(st->solve_s_p95));
    json_object_set_new(root, "solve_seconds_max", json_real(st->solve_s_max));
    json_object_set_new(root, "jct_mean_seconds", json_real(st->jct_mean));
    json_object_set_new(root, "jct_median_seconds", json_real(st->jct_median));
    json_object_set_new(root, "jct_p95_seconds", json_real(st->jct_p95));
    json_object_set_new(root, "makespan_seconds",
                        json_integer((json_int_t)st->makespan));
    json_object_set_new(root, "fairness_jain", json_real(st->fairness));
    json_object_set_new(root, "efficiency", json_real(st->efficiency));
    json_object_set_new(root, "max_model_rows",
                        json_integer((json_int_t)st->max_rows));
    json_object_set_new(root, "max_model_cols",
                        json_integer((json_int_t)st->max_cols));
    json_object_set_new(root, "max_model_nnz",
                        json_integer((json_int_t)st->max_nnz));
    json_object_set_new(root, "wall_seconds", json_real(st->wall_seconds));
    json_object_set_new(root, "events_per_second",
                        json_real(st->events_per_second));
    json_object_set_new(root, "peak_rss_kib",
                        json_integer((json_int_t)st->peak_rss_kib));
    return root;
}

static int write_summary(const char *path, const struct replay_opts *o,
                         const struct replay_stats *st)
{
    struct bfs_error e;
    struct bfs_out out;
    json_t *root = summary_json(o, st);
    int rc;

    bfs_error_clear(&e);
    rc = bfs_out_open(&out, path, &e);
    if (rc == 0) {
        if (json_dumpf(root, out.fp,
                       JSON_INDENT(2) | JSON_REAL_PRECISION(17)) ||
            fputc('\n', out.fp) == EOF) {
            bfs_out_abort(&out);
            rc = bfs_fail(&e, BFS_EIO, "%s: write error", path);
        } else {
            rc = bfs_out_commit(&out, &e);
        }
    }
    json_decref(root);
    return rc ? cmd_report(&e, rc) : CMD_OK;
}

static void print_report(const struct replay_opts *o,
                         const struct replay_stats *st)
{
    char t0[BFS_TIME_LEN], t1[BFS_TIME_LEN];
    double offered = st->idle_node_seconds / 3600.0;
    double used = st->allocated_node_seconds / 3600.0;

    printf("bfsim replay (%s mode, allocator %s, objective %s)%s\n",
           o->mode == REPLAY_COMPAT ? "bftrainer" : "default", o->alloc.name,
           job_objective_name(o->objective),
           st->partial ? " - INTERRUPTED, partial results" : "");
    printf("  trace            %s (%zu nodes)\n", o->trace_path,
           st->trace_nodes);
    printf("  jobs             %s (%zu jobs)\n", o->jobs_path, st->jobs_total);
    printf("  replayed         %s .. %s, %zu events\n",
           bfs_time_format(st->first_time, t0),
           bfs_time_format(st->last_event_time, t1), st->events);
    printf("  jobs             %zu admitted, %zu finished\n", st->jobs_admitted,
           st->jobs_finished);
    printf(
        "  idle node-hours  %.1f offered, %.1f used (harvest ratio %.1f%%)\n",
        offered, used, offered > 0 ? 100.0 * used / offered : 0.0);
    printf("  samples          %.6g trained, %.6g lost to rescaling, %.6g to "
           "preemption\n",
           st->samples_trained, st->rescale_cost, st->preempt_cost);
    printf("  rescales         %zu, preemptions %zu, efficiency %.1f%%\n",
           st->rescales, st->preemptions, 100.0 * st->efficiency);
    printf("  completion time  mean %.0f s, median %.0f s, p95 %.0f s; "
           "makespan %" PRId64 " s\n",
           st->jct_mean, st->jct_median, st->jct_p95, st->makespan);
    printf("  fairness         %.3f (Jain's index of node shares)\n",
           st->fairness);
    printf("  allocator        %zu calls, solve time median %.3g s, max %.3g "
           "s\n",
           st->solves, st->solve_s_median, st->solve_s_max);
    printf("  wall time        %.2f s (%.0f events/s, peak memory %ld MiB)\n",
           st->wall_seconds, st->events_per_second, st->peak_rss_kib / 1024);
}

enum {
    OPT_TRACE = 256,
    OPT_JOBS,
    OPT_CURVES,
    OPT_START,
    OPT_END,
    OPT_NODES,
    OPT_MAX_JOBS,
    OPT_TFWD,
    OPT_OBJECTIVE,
    OPT_DUMP,
    OPT_ALLOCATOR,
    OPT_COMPAT,
    OPT_BIG_M,
    OPT_STEPS,
    OPT_SUMMARY,
    OPT_JOB_LOG,
    OPT_SOLVER,
    OPT_MODEL,
    OPT_TIME_LIMIT,
    OPT_GAP,
    OPT_APPLY_FEASIBLE,
    OPT_ALIGN_JOBS,
};

int cmd_replay(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"trace", required_argument, NULL, OPT_TRACE},
        {"jobs", required_argument, NULL, OPT_JOBS},
        {"curves", required_argument, NULL, OPT_CURVES},
        {"start", required_argument, NULL, OPT_START},
        {"end", required_argument, NULL, OPT_END},
        {"nodes", required_argument, NULL, OPT_NODES},
        {"max-jobs", required_argument, NULL, OPT_MAX_JOBS},
        {"tfwd", required_argument, NULL, OPT_TFWD},
        {"objective", required_argument, NULL, OPT_OBJECTIVE},
        {"dump-instances", required_argument, NULL, OPT_DUMP},
        {"allocator", required_argument, NULL, OPT_ALLOCATOR},
        {"compat", required_argument, NULL, OPT_COMPAT},
        {"big-m", required_argument, NULL, OPT_BIG_M},
        {"steps", required_argument, NULL, OPT_STEPS},
        {"summary", required_argument, NULL, OPT_SUMMARY},
        {"job-log", required_argument, NULL, OPT_JOB_LOG},
        {"output", required_argument, NULL, 'o'},
        {"solver", required_argument, NULL, OPT_SOLVER},
        {"model", required_argument, NULL, OPT_MODEL},
        {"time-limit", required_argument, NULL, OPT_TIME_LIMIT},
        {"gap", required_argument, NULL, OPT_GAP},
        {"apply-feasible", no_argument, NULL, OPT_APPLY_FEASIBLE},
        {"align-jobs", no_argument, NULL, OPT_ALIGN_JOBS},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct replay_opts o;
    struct replay_stats st;
    struct bfs_error e;
    struct progress pg;
    const char *summary = NULL, *job_log = NULL;
    struct joblog jl;
    struct replay_sink jl_sink = {.arg = &jl, .job = joblog_job};
    const struct replay_sink *sinks[2];
    const char *h5path = NULL;
    struct h5out *h5 = NULL;
    struct replay_sink h5_sink;
    char *trace = NULL, *jobs = NULL;
    int quiet = 0, c, rc;

    replay_opts_default(&o);
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:qh", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_TRACE:
            o.trace_path = optarg;
            break;
        case OPT_JOBS:
            o.jobs_path = optarg;
            break;
        case OPT_CURVES:
            o.curves_path = optarg;
            break;
        case OPT_START:
        case OPT_END:
            if (bfs_time_parse(optarg, c == OPT_START ? &o.start : &o.end)) {
                fprintf(stderr,
                        "bfsim replay: --%s: '%s' is neither "
                        "'YYYY-MM-DD HH:MM:SS' nor Unix seconds\n",
                        c == OPT_START ? "start" : "end", optarg);
                return CMD_USAGE;
            }
            *(c == OPT_START ? &o.has_start : &o.has_end) = 1;
            break;
        case OPT_NODES:
            if (cmd_parse_nodes(optarg, &o.node_skip, &o.node_count)) {
                fprintf(stderr,
                        "bfsim replay: --nodes: '%s' is not [SKIP:]COUNT "
                        "with COUNT >= 1\n",
                        optarg);
                return CMD_USAGE;
            }
            break;
        case OPT_MAX_JOBS:
            if (bfs_parse_int(optarg, &o.max_jobs) || o.max_jobs < 0) {
                fprintf(stderr,
                        "bfsim replay: --max-jobs: '%s' is not a count\n",
                        optarg);
                return CMD_USAGE;
            }
            break;
        case OPT_TFWD:
            if (bfs_parse_double(optarg, &o.tfwd) || !(o.tfwd > 0)) {
                fprintf(stderr,
                        "bfsim replay: --tfwd: '%s' is not a positive number "
                        "of seconds\n",
                        optarg);
                return CMD_USAGE;
            }
            break;
        case OPT_OBJECTIVE:
            o.objective = job_objective_parse(optarg);
            if (o.objective < 0) {
                fprintf(stderr,
                        "bfsim replay: --objective: unknown metric '%s' "
                        "(known: file, throughput, speedup, prop-fair)\n",
                        optarg);
                return CMD_USAGE;
            }
            break;
        case OPT_DUMP:
            o.dump_dir = optarg;
            break;
        case OPT_ALLOCATOR:
            o.alloc.name = optarg;
            break;
        case OPT_COMPAT:
            if (strcmp(optarg, "bftrainer") != 0) {
                fprintf(stderr,
                        "bfsim replay: --compat: unknown mode '%s' (known: "
                        "bftrainer)\n",
                        optarg);
                return CMD_USAGE;
            }
            o.mode = REPLAY_COMPAT;
            break;
        case OPT_BIG_M:
            if (strcmp(optarg, "legacy") != 0 && strcmp(optarg, "exact") != 0) {
                fprintf(stderr,
                        "bfsim replay: --big-m: '%s' is neither legacy nor "
                        "exact\n",
                        optarg);
                return CMD_USAGE;
            }
            o.legacy_cap = strcmp(optarg, "legacy") == 0;
            break;
        case OPT_STEPS:
            o.steps_path = optarg;
            break;
        case OPT_SUMMARY:
            summary = optarg;
            break;
        case OPT_JOB_LOG:
            job_log = optarg;
            break;
        case 'o':
            h5path = optarg;
            break;
        case OPT_SOLVER:
            o.alloc.solver = optarg;
            break;
        case OPT_MODEL:
            o.alloc.model = optarg;
            break;
        case OPT_TIME_LIMIT:
        case OPT_GAP: {
            double v;
            if (bfs_parse_double(optarg, &v) || v < 0 ||
                (c == OPT_TIME_LIMIT && v == 0)) {
                fprintf(stderr, "bfsim replay: --%s: '%s' is not a %s\n",
                        c == OPT_GAP ? "gap" : "time-limit", optarg,
                        c == OPT_GAP ? "gap >= 0" : "positive time");
                return CMD_USAGE;
            }
            *(c == OPT_GAP ? &o.alloc.gap_rel : &o.alloc.time_limit) = v;
            break;
        }
        case OPT_APPLY_FEASIBLE:
            o.apply_feasible = 1;
            break;
        case OPT_ALIGN_JOBS:
            o.align_jobs = 1;
            break;
        case 'q':
            quiet = 1;
            break;
        case 'h':
            usage(stdout);
            return CMD_OK;
        default:
            fprintf(stderr, "bfsim replay: unknown or incomplete option '%s'\n",
                    argv[optind - 1]);
            usage(stderr);
            return CMD_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "bfsim replay: unexpected argument '%s'\n",
                argv[optind]);
        return CMD_USAGE;
    }
    if (!o.trace_path)
        o.trace_path = trace = cmd_data_path(DEFAULT_TRACE);
    if (!o.jobs_path)
        o.jobs_path = jobs = cmd_data_path(DEFAULT_JOBS);
    if (o.has_start && o.has_end && o.end < o.start) {
        fprintf(stderr, "bfsim replay: --end is before --start\n");
        return CMD_USAGE;
    }

    signal(SIGINT, on_sigint);
    signal(SIGTERM, on_sigint); /* scancel, a batch system's time limit */
    o.stop = &stop_flag;
    if (!quiet && isatty(STDERR_FILENO)) {
        pg.start = pg.last = bfs_now();
        o.progress = show_progress;
        o.progress_arg = &pg;
    }
    o.sinks = sinks;
    if (job_log) {
        if (joblog_open(&jl, job_log))
            return cmd_report(&jl.e, BFS_EIO);
        sinks[o.n_sinks++] = &jl_sink;
    }
    bfs_error_clear(&e);
    if (h5path) {
        if (h5out_open(h5path, &h5, &e) || h5_attrs(h5, argc, argv, &o)) {
            if (h5)
                e = *h5out_error(h5);
            h5out_abort(h5);
            if (job_log)
                bfs_out_abort(&jl.out);
            return cmd_report(&e, BFS_EIO);
        }
        h5out_sink(h5, &h5_sink);
        sinks[o.n_sinks++] = &h5_sink;
    }
    rc = replay_run(&o, &st, &e);
    if (o.progress)
        fputs("\r\033[K", stderr);
    if (h5) {
        if (rc == 0 && h5_summary(h5, &st) != 0)
            rc = BFS_EIO;
        if (rc == 0)
            rc = h5out_finish(h5, st.partial, &e);
        else {
            if (!e.msg[0])
                e = *h5out_error(h5);
            h5out_abort(h5);
        }
    }
    if (job_log) {
        if (rc == 0)
            rc = bfs_out_commit(&jl.out, &e);
        else
            bfs_out_abort(&jl.out);
    }
    if (rc) {
        rc = cmd_report(&e, rc);
    } else if (summary) {
        rc = write_summary(summary, &o, &st);
    } else {
        print_report(&o, &st);
        rc = CMD_OK;
    }
    if (rc == CMD_OK && st.partial) {
        fprintf(stderr, "bfsim replay: interrupted; results are partial\n");
        rc = 130;
    }
    xfree(trace);
    xfree(jobs);
    return rc;
}
