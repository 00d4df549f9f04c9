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
#include "engine/predict.h"
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

/* The replay's outputs, each a sink (formats/records.h). */
struct outputs {
    struct rec_sink steps, joblog, h5s, summary, batsim;
    struct rec_sink *sinks[5]; /* those opened, in order */
    size_t n;
    struct h5out *h5; /* borrowed from h5s, or NULL */
    char *dump_dir;   /* owned: --dump-instances, or NULL */
};

/* Creates the folders the options name and opens every output as a
 * sink into out (zeroed by the caller), the HDF5 file's root attributes
 * written.  Returns 0 or an error code (in e); what was opened is in out
 * either way. */
static int open_outputs(struct replay_opts *o, int argc, char **argv,
                        const struct replay_args *a, struct outputs *out,
                        struct bfs_error *e)
{
    int rc = 0;

    if (o->dump_dir) {
        if (mkdir(o->dump_dir, 0777) != 0 && errno != EEXIST)
            rc = bfs_fail(e, BFS_EIO, "--dump-instances: cannot create %s: %s",
                          o->dump_dir, strerror(errno));
        o->instance = instance_dump;
        o->instance_arg = out->dump_dir = xstrdup(o->dump_dir);
    }
    if (rc == 0 && o->alloc.mps_dir && mkdir(o->alloc.mps_dir, 0777) != 0 &&
        errno != EEXIST)
        rc = bfs_fail(e, BFS_EIO, "--write-mps: cannot create %s: %s",
                      o->alloc.mps_dir, strerror(errno));
    if (rc == 0 && o->steps_path &&
        (rc = steps_open(o->steps_path, &out->steps, e)) == 0)
        out->sinks[out->n++] = &out->steps;
    if (rc == 0 && a->job_log &&
        (rc = (o->belief.kind == BELIEF_LEARN
                   ? joblog_open_learned
                   : joblog_open)(a->job_log, &out->joblog, e)) == 0)
        out->sinks[out->n++] = &out->joblog;
    if (rc == 0 && a->batsim_jobs &&
        (rc = batsim_jobs_open(a->batsim_jobs, &out->batsim, e)) == 0)
        out->sinks[out->n++] = &out->batsim;
    if (rc == 0 && a->output &&
        (rc = h5out_open(a->output, &out->h5, e)) == 0) {
        h5out_sink(out->h5, &out->h5s);
        out->sinks[out->n++] = &out->h5s;
        if (replay_h5_attrs(out->h5, argc, argv, a, o) != 0) {
            *e = *h5out_error(out->h5);
            rc = e->code ? e->code : BFS_EIO;
        }
    }
    if (rc == 0 && a->summary &&
        (rc = rec_text_open(a->summary, "", &out->summary, e)) == 0)
        out->sinks[out->n++] = &out->summary;
    return rc;
}

/* Opens every output as a sink, runs the replay, and commits the outputs
 * only if the replay and every output succeeded: first every one is
 * finished (written, flushed, synced), then every one is renamed over its
 * path.  On any error none is left behind.  Returns a CMD_* exit status
 * (errors are reported); with --strict, CMD_FAIL after a warning
 * (replay_warnings), the outputs written. */
static int run_replay(struct replay_opts *o, int argc, char **argv,
                      const struct replay_args *a)
{
    struct outputs out;
    struct replay_stats st;
    struct bfs_error e;
    int rc;

    bfs_error_clear(&e);
    memset(&out, 0, sizeof out);
    rc = open_outputs(o, argc, argv, a, &out, &e);
    if (rc == 0) {
        o->sinks = out.sinks;
        o->n_sinks = out.n;
        rc = replay_run(o, &st, &e);
        if (o->progress)
            fputs("\r\033[K", stderr);
        if (rc && !e.msg[0]) /* a sink failed: its finish says why */
            rec_sinks_finish(out.sinks, out.n, 1, &e);
    }
    if (rc == 0 && out.h5 && replay_h5_summary(out.h5, &st) != 0) {
        e = *h5out_error(out.h5);
        rc = e.code ? e.code : BFS_EIO;
    }
    if (rc == 0 && a->summary)
        rc = replay_write_summary(rec_text_file(&out.summary), a->summary, a,
                                  &st, &e);
    if (rc == 0)
        rc = rec_sinks_finish(out.sinks, out.n, st.partial, &e);
    if (rc == 0)
        rc = rec_sinks_commit(out.sinks, out.n, &e);
    rec_sinks_abort(out.sinks, out.n); /* what was not committed */
    xfree(out.dump_dir);
    if (rc)
        return cmd_report(&e, rc);
    if (!a->summary)
        replay_print_report(o, &st);
    if (replay_warnings(&st) && a->strict)
        return CMD_FAIL;
    if (st.partial) {
        fprintf(stderr, "bfsim replay: interrupted; results are partial\n");
        return 130;
    }
    return CMD_OK;
}

/* The inputs not given (the bundled ones) and those named by a bundled
 * name, into o; *trace and *jobs get the paths made (malloc'd, or NULL).
 * Returns CMD_OK, or the exit status after the error is reported (then
 * nothing is left allocated). */
static int bundled_inputs(struct replay_opts *o, char **trace, char **jobs)
{
    struct bfs_error e;
    int rc;

    bfs_error_clear(&e);
    *trace = *jobs = NULL;
    if (!o->trace_path)
        o->trace_path = *trace = cmd_data_path(OPTIONS_BUNDLED_TRACE);
    else if ((rc = cmd_bundled_trace("--trace", o->trace_path, trace, &e)))
        return cmd_report(&e, rc);
    else if (*trace)
        o->trace_path = *trace;
    if (!o->jobs_path)
        o->jobs_path = *jobs = cmd_data_path(OPTIONS_BUNDLED_JOBS);
    else if ((rc = cmd_bundled_jobs("--jobs", o->jobs_path, jobs, &e))) {
        xfree(*trace);
        *trace = NULL;
        return cmd_report(&e, rc);
    } else if (*jobs)
        o->jobs_path = *jobs;
    return CMD_OK;
}

/* Every file read and written, checked before any is opened: CMD_OK or
 * CMD_USAGE (cmd_check_paths). */
static int check_paths(const struct replay_opts *o, const struct replay_args *a)
{
    const struct bfs_paths_role roles[] = {
        {"--trace", o->trace_path, 0, NULL},
        {"--jobs", o->jobs_path, 0, NULL},
        {"--curves", o->curves_path, 0, NULL},
        {"--belief",
         o->belief.kind != BELIEF_FILE    ? NULL
         : predict_source(o->belief.path) ? predict_source(o->belief.path)
                                          : o->belief.path,
         0, NULL},
        {"--belief-curves", o->belief.curves, 0, NULL},
        {"--belief-prior",
         predict_source(o->belief.prior_path)
             ? predict_source(o->belief.prior_path)
             : o->belief.prior_path,
         0, NULL},
        {"--steps", o->steps_path, 1, NULL},
        {"--summary", a->summary, 1, NULL},
        {"--job-log", a->job_log, 1, NULL},
        {"-o", a->output, 1, NULL},
        {"--batsim-jobs", a->batsim_jobs, 1, NULL},
        {"--dump-instances", o->dump_dir, 1, "evt-*.json"},
    };

    return cmd_check_paths("replay", roles, sizeof roles / sizeof *roles);
}

int cmd_replay(int argc, char **argv)
{
    struct replay_args args;
    struct replay_opts o;
    struct progress pg;
    char *trace, *jobs;
    int rc;

    rc = parse_args(argc, argv, &args);
    if (rc != CMD_OK || args.help)
        return rc;
    o = args.replay;
    if (o.has_start && o.has_end && o.end < o.start) {
        fprintf(stderr, "bfsim replay: --end is before --start\n");
        return CMD_USAGE;
    }
    if ((rc = bundled_inputs(&o, &trace, &jobs)) != CMD_OK)
        return rc;
    if ((rc = check_paths(&o, &args)) == CMD_OK) {
        signal(SIGINT, on_sigint);
        signal(SIGTERM, on_sigint); /* scancel, a batch system's time limit */
        o.stop = &stop_flag;
        if (!args.quiet && isatty(STDERR_FILENO)) {
            pg.start = pg.last = bfs_now();
            o.progress = show_progress;
            o.progress_arg = &pg;
        }
        rc = run_replay(&o, argc, argv, &args);
    }
    xfree(trace);
    xfree(jobs);
    return rc;
}
