/* cmd_replay.c - `bfsim replay`: options, the human report and the JSON
 * summary.  The replay itself is replay_run() in the library. */
#include "config.h"

#include "cli/cmd.h"
#include "cli/replay_out.h"
#include "formats/h5out.h"
#include "formats/jobs.h"
#include "engine/replay.h"
#include "base/out.h"
#include "base/util.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
        if (h5out_open(h5path, &h5, &e) ||
            replay_h5_attrs(h5, argc, argv, &o)) {
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
        if (rc == 0 && replay_h5_summary(h5, &st) != 0)
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
        rc = replay_write_summary(summary, &o, &st);
    } else {
        replay_print_report(&o, &st);
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
