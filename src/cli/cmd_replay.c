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
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The help's layout: option names from column 2, text from HELP_COL,
 * lines at most HELP_WIDTH characters. */
#define HELP_COL 21
#define HELP_WIDTH 78

/* One option of the help: "  -o, --output FILE  TEXT (default: D)",
 * the text wrapped at word boundaries. */
static void usage_entry(FILE *f, const struct options_entry *o,
                        const struct replay_args *d)
{
    char left[128], def[256], text[1024];
    const char *p = text;
    size_t col;
    int first = 1;

    if (o->short_name)
        snprintf(left, sizeof left, "  -%c, --%s%s%s", o->short_name, o->name,
                 o->arg ? " " : "", o->arg ? o->arg : "");
    else
        snprintf(left, sizeof left, "  --%s%s%s", o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
    if (o->show_default) {
        o->show_default(d, def, sizeof def);
        snprintf(text, sizeof text, "%s (default: %s)", o->help, def);
    } else {
        snprintf(text, sizeof text, "%s", o->help);
    }
    col = strlen(left);
    fputs(left, f);
    if (col + 2 <= HELP_COL) {
        fprintf(f, "%*s", (int)(HELP_COL - col), "");
        col = HELP_COL;
    } else {
        fputs("  ", f);
        col += 2;
    }
    while (*p) {
        size_t w = strcspn(p, " ");
        if (!first && col + 1 + w > HELP_WIDTH) {
            fprintf(f, "\n%*s", HELP_COL, "");
            col = HELP_COL;
            first = 1;
        }
        if (!first) {
            fputc(' ', f);
            col++;
        }
        fwrite(p, 1, w, f);
        col += w;
        first = 0;
        for (p += w; *p == ' '; p++)
            ;
    }
    fputc('\n', f);
}

/* The help: every entry of options_table, by group, with the defaults
 * options_default() sets. */
static void usage(FILE *f)
{
    struct replay_args d;

    options_default(&d);
    fputs("Usage: bfsim replay [OPTIONS]\n"
          "\n"
          "Replay a node idle/preempt trace with elastic training jobs and\n"
          "report what a backfill trainer would have done.\n",
          f);
    for (int g = 0; g < OPTIONS_N_GROUPS; g++) {
        fprintf(f, "\n%s:\n", options_group_name((enum options_group)g));
        for (size_t i = 0; i < options_count; i++)
            if ((int)options_table[i].group == g)
                usage_entry(f, &options_table[i], &d);
    }
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

/* Reads the command line into a, from the defaults, with getopt_long
 * over a table built from options_table.  Returns CMD_OK (with a->help
 * set when -h was given: the help is then printed) or CMD_USAGE, the
 * problem printed. */
static int parse_args(int argc, char **argv, struct replay_args *a)
{
    struct option *lo = xcalloc(options_count + 1, sizeof *lo);
    unsigned char *given = xcalloc(options_count + 1, 1);
    char *shorts = xmalloc(3 * options_count + 2), *sp = shorts;
    const struct options_entry *o;
    const char *problem;
    int c, rc = CMD_OK;

    options_default(a);
    *sp++ = ':'; /* ':' for a missing argument, '?' for an unknown option */
    for (size_t i = 0; i < options_count; i++) {
        o = &options_table[i];
        lo[i].name = o->name;
        lo[i].has_arg = o->arg ? required_argument : no_argument;
        lo[i].val = o->short_name ? o->short_name : 256 + (int)i;
        if (o->short_name) {
            *sp++ = (char)o->short_name;
            if (o->arg)
                *sp++ = ':';
        }
    }
    *sp = '\0';
    opterr = 0;
    optind = 0;
    while (!a->help && (c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
        if (c == ':') {
            rc = cmd_usage_error("replay", "option '%s' needs a value",
                                 argv[optind - 1]);
            break;
        }
        o = c >= 256 ? &options_table[c - 256] : options_find_short(c);
        if (!o && optopt > 0 && optopt < 256 && !options_find_short(optopt)) {
            /* an unknown letter, maybe inside "-qx" */
            rc = cmd_usage_error("replay", "unknown option '-%c'", optopt);
            break;
        }
        if (!o) {
            rc = cmd_usage_error("replay", "unknown or incomplete option '%s'",
                                 argv[optind - 1]);
            break;
        }
        if ((problem = o->parse(a, o->arg ? optarg : NULL)) != NULL) {
            rc = cmd_usage_error("replay", "--%s: '%s' %s", o->name, optarg,
                                 problem);
            break;
        }
        given[o - options_table] = 1;
    }
    if (rc == CMD_OK && !a->help) {
        struct bfs_error e;
        bfs_error_clear(&e);
        if (options_check(a, given, &e) != 0)
            rc = cmd_usage_error("replay", "%s", e.msg);
    }
    if (rc == CMD_OK && a->help)
        usage(stdout);
    else if (rc == CMD_OK && optind < argc)
        rc =
            cmd_usage_error("replay", "unexpected argument '%s'", argv[optind]);
    xfree(given);
    xfree(shorts);
    xfree(lo);
    return rc;
}

/* Opens every output as a sink (formats/records.h), runs the replay, and
 * commits the outputs only if the replay and every output succeeded:
 * first every one is finished (written, flushed, synced), then every one
 * is renamed over its path.  On any error none is left behind.  Returns
 * a CMD_* exit status (errors are reported); with strict, CMD_FAIL after
 * a warning (replay_warnings), the outputs written. */
static int run_replay(struct replay_opts *o, int argc, char **argv,
                      const char *summary, const char *job_log,
                      const char *h5path, int strict, const char *batsim)
{
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
        if (replay_h5_attrs(h5, argc, argv, o) != 0) {
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
        rc = replay_write_summary(rec_text_file(&summary_s), summary, &st, &e);
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
    if (replay_warnings(&st) && strict)
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
    rc = run_replay(&o, argc, argv, summary, job_log, h5path, args.strict,
                    args.batsim_jobs);
    xfree(trace);
    xfree(jobs);
    return rc;
}
