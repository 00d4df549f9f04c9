/* cmd_replay.c - `bfsim replay`: options, the human report and the JSON
 * summary.  The replay itself is replay_run() in the library.  The
 * options are the table of engine/options.c: getopt's table and the help
 * are built from it here, so this file names no option. */
#include "config.h"

#include "alloc/instance.h"
#include "cli/cmd.h"
#include "cli/replay_out.h"
#include "formats/h5out.h"
#include "formats/jobs.h"
#include "engine/options.h"
#include "engine/replay.h"
#include "base/out.h"
#include "base/util.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Reads the command line into a (options_parse over options_replay).
 * Returns CMD_OK (with a->help set when -h was given: the help is then
 * printed) or CMD_USAGE, the problem printed. */
static int parse_args(int argc, char **argv, struct replay_args *a)
{
    struct bfs_error e;
    int operand;

    bfs_error_clear(&e);
    if (options_parse(&options_replay, argc, argv, a, NULL, &a->help, &operand,
                      &e) != 0)
        return cmd_usage_error("replay", "%s", e.msg);
    if (a->help)
        return options_help(&options_replay, stdout) == 0 ? CMD_OK : CMD_FAIL;
    if (operand < argc)
        return cmd_usage_error("replay", "unexpected argument '%s'",
                               argv[operand]);
    return CMD_OK;
}

/* Opens every output as a sink (formats/records.h), runs the replay, and
 * commits the outputs only if the replay and every output succeeded:
 * first every one is finished (written, flushed, synced), then every one
 * is renamed over its path.  On any error none is left behind.  Returns
 * a CMD_* exit status (errors are reported); with strict, CMD_FAIL after
 * a warning (replay_warnings), the outputs written. */
static int run_replay(struct replay_opts *o, int argc, char **argv,
                      const struct replay_args *a)
{
    const char *summary = a->summary, *job_log = a->job_log;
    const char *h5path = a->output, *batsim = a->batsim_jobs;
    struct rec_sink steps_s, joblog_s, h5_s, summary_s, batsim_s, *sinks[5];
    struct replay_stats st;
    struct bfs_error e;
    struct h5out *h5 = NULL;
    char *dump_dir = NULL;
    size_t n = 0;
    int rc = 0;

    bfs_error_clear(&e);
    if (o->dump_dir) {
        if (mkdir(o->dump_dir, 0777) != 0 && errno != EEXIST)
            rc = bfs_fail(&e, BFS_EIO, "--dump-instances: cannot create %s: %s",
                          o->dump_dir, strerror(errno));
        o->instance = instance_dump;
        o->instance_arg = dump_dir = xstrdup(o->dump_dir);
    }
    if (rc == 0 && o->alloc.mps_dir && mkdir(o->alloc.mps_dir, 0777) != 0 &&
        errno != EEXIST)
        rc = bfs_fail(&e, BFS_EIO, "--write-mps: cannot create %s: %s",
                      o->alloc.mps_dir, strerror(errno));
    if (rc == 0 && o->steps_path &&
        (rc = steps_open(o->steps_path, &steps_s, &e)) == 0)
        sinks[n++] = &steps_s;
    if (rc == 0 && job_log &&
        (rc = (o->belief.kind == BELIEF_LEARN
                   ? joblog_open_learned
                   : joblog_open)(job_log, &joblog_s, &e)) == 0)
        sinks[n++] = &joblog_s;
    if (rc == 0 && batsim &&
        (rc = batsim_jobs_open(batsim, &batsim_s, &e)) == 0)
        sinks[n++] = &batsim_s;
    if (rc == 0 && h5path && (rc = h5out_open(h5path, &h5, &e)) == 0) {
        h5out_sink(h5, &h5_s);
        sinks[n++] = &h5_s;
        if (replay_h5_attrs(h5, argc, argv, a, o) != 0) {
            e = *h5out_error(h5);
            rc = e.code ? e.code : BFS_EIO;
        }
    }
    if (rc == 0 && summary &&
        (rc = rec_text_open(summary, "", &summary_s, &e)) == 0)
        sinks[n++] = &summary_s;
    if (rc == 0) {
        o->sinks = sinks;
        o->n_sinks = n;
        rc = replay_run(o, &st, &e);
        if (o->progress)
            fputs("\r\033[K", stderr);
        if (rc && !e.msg[0]) /* a sink failed: its finish says why */
            rec_sinks_finish(sinks, n, 1, &e);
    }
    if (rc == 0 && h5 && replay_h5_summary(h5, &st) != 0) {
        e = *h5out_error(h5);
        rc = e.code ? e.code : BFS_EIO;
    }
    if (rc == 0 && summary)
        rc = replay_write_summary(rec_text_file(&summary_s), summary, a, &st,
                                  &e);
    if (rc == 0)
        rc = rec_sinks_finish(sinks, n, st.partial, &e);
    if (rc == 0)
        rc = rec_sinks_commit(sinks, n, &e);
    rec_sinks_abort(sinks, n); /* what was not committed */
    xfree(dump_dir);
    if (rc)
        return cmd_report(&e, rc);
    if (!summary)
        replay_print_report(o, &st);
    if (replay_warnings(&st) && a->strict)
        return CMD_FAIL;
    if (st.partial) {
        fprintf(stderr, "bfsim replay: interrupted; results are partial\n");
        return 130;
    }
    return CMD_OK;
}

int cmd_replay(int argc, char **argv)
{
    struct replay_args args;
    struct replay_opts o;
    struct progress pg;
    struct bfs_error e;
    const char *summary = NULL, *job_log = NULL;
    const char *h5path = NULL;
    char *trace = NULL, *jobs = NULL;
    int quiet = 0, rc;

    rc = parse_args(argc, argv, &args);
    if (rc != CMD_OK || args.help)
        return rc;
    o = args.replay;
    summary = args.summary;
    job_log = args.job_log;
    h5path = args.output;
    quiet = args.quiet;
    if (o.has_start && o.has_end && o.end < o.start) {
        fprintf(stderr, "bfsim replay: --end is before --start\n");
        return CMD_USAGE;
    }
    bfs_error_clear(&e);
    if (!o.trace_path)
        o.trace_path = trace = cmd_data_path(OPTIONS_BUNDLED_TRACE);
    else if ((rc = cmd_bundled_trace("--trace", o.trace_path, &trace, &e)))
        return cmd_report(&e, rc);
    else if (trace)
        o.trace_path = trace;
    if (!o.jobs_path)
        o.jobs_path = jobs = cmd_data_path(OPTIONS_BUNDLED_JOBS);
    else if ((rc = cmd_bundled_jobs("--jobs", o.jobs_path, &jobs, &e))) {
        xfree(trace);
        return cmd_report(&e, rc);
    } else if (jobs)
        o.jobs_path = jobs;
    {
        /* every file read and written, checked before any is opened */
        const struct bfs_paths_role roles[] = {
            {"--trace", o.trace_path, 0, NULL},
            {"--jobs", o.jobs_path, 0, NULL},
            {"--curves", o.curves_path, 0, NULL},
            {"--belief", o.belief.kind == BELIEF_FILE ? o.belief.path : NULL, 0,
             NULL},
            {"--belief-curves", o.belief.curves, 0, NULL},
            {"--belief-prior", o.belief.prior_path, 0, NULL},
            {"--steps", o.steps_path, 1, NULL},
            {"--summary", summary, 1, NULL},
            {"--job-log", job_log, 1, NULL},
            {"-o", h5path, 1, NULL},
            {"--batsim-jobs", args.batsim_jobs, 1, NULL},
            {"--dump-instances", o.dump_dir, 1, "evt-*.json"},
        };
        rc = cmd_check_paths("replay", roles, sizeof roles / sizeof *roles);
        if (rc) {
            xfree(trace);
            xfree(jobs);
            return rc;
        }
    }

    signal(SIGINT, on_sigint);
    signal(SIGTERM, on_sigint); /* scancel, a batch system's time limit */
    o.stop = &stop_flag;
    if (!quiet && isatty(STDERR_FILENO)) {
        pg.start = pg.last = bfs_now();
        o.progress = show_progress;
        o.progress_arg = &pg;
    }
    rc = run_replay(&o, argc, argv, &args);
    xfree(trace);
    xfree(jobs);
    return rc;
}
