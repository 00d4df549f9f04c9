/* cmd_sweep.c - `bfsim sweep`: options, progress and failure reports.
 * Expanding the configuration (sweep/sweep.c), running the replays
 * (sweep/run.c, sweep/work.c) and writing the results table
 * (sweep/table.c) are sweep/'s.
 *
 * Exit status: 0 when every run this invocation started succeeded (and
 * the table was written), 1 when a run failed or the configuration or an
 * output is bad, 2 for a usage error (an output folder that holds another
 * configuration's sweep among them), 130 when interrupted by SIGINT or
 * SIGTERM (the table of what is complete is still written).  A worker
 * (--worker) exits 0 when the sweep is done with every run complete, 1
 * when runs were given up after --retries, 130 when stopped (its runs
 * are pending again); --status exits 1 when runs were given up.
 */
#include "config.h"

#include "cli/cmd.h"
#include "engine/options.h"
#include "sweep/claim.h"
#include "sweep/sweep.h"
#include "base/util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t stop_flag;

static void on_stop(int sig)
{
    (void)sig;
    stop_flag = 1;
}

/* SIGINT and SIGTERM set stop_flag; SIGCHLD's default action (the
 * sweep's executors wait for their runs themselves). */
static void catch_stop(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGCHLD, SIG_DFL);
}

/* The running bfsim: /proc/self/exe, else the program's argv[0]. */
static char *self_exe(char **argv)
{
    static const char deleted[] = " (deleted)";
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    const char *a0;
    char *r;

    if (n > 0) {
        size_t len = (size_t)n, dl = sizeof deleted - 1;
        buf[n] = '\0';
        /* Replaced while running (make install): run the new one. */
        if (len > dl && strcmp(buf + len - dl, deleted) == 0)
            buf[len - dl] = '\0';
        return xstrdup(buf);
    }
    /* main() passes argv + 1, so argv[-1] is the program's own argv[0]. */
    a0 = argv[-1];
    if (strchr(a0, '/') && (r = realpath(a0, NULL)) != NULL)
        return r;
    return xstrdup(a0);
}

static char *default_outdir(const char *config)
{
    size_t n = strlen(config);

    if (n > 5 && strcmp(config + n - 5, ".json") == 0)
        n -= 5;
    return xasprintf("%.*s.sweep", (int)n, config);
}

struct progress {
    const struct sweep *s;
    const char *outdir; /* as the user gave it */
    size_t n_todo, n_ended, n_ok, n_failed, n_interrupted, n_busy;
    int quiet;
};

/* A run another live process holds (a sweep still running it): skipped,
 * always said, since the sweep then ends incomplete (status 1). */
static void on_busy(void *arg, size_t r, const char *holder)
{
    struct progress *pg = arg;

    pg->n_busy++;
    fprintf(stderr,
            "bfsim sweep: run %s skipped: it is running (lock held by %s)\n",
            pg->s->runs[r].hex, holder);
}

static void on_done(void *arg, size_t r, int st, int complete, double seconds)
{
    struct progress *pg = arg;
    const char *id = pg->s->runs[r].hex;
    char why[64], *opts, *dir, *log, *tail;

    pg->n_ended++;
    if (complete && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        pg->n_ok++;
        if (!pg->quiet)
            fprintf(stderr, "bfsim sweep: [%zu/%zu] %s done in %.1f s\n",
                    pg->n_ended, pg->n_todo, id, seconds);
        return;
    }
    if (stop_flag && ((WIFEXITED(st) && WEXITSTATUS(st) == 130) ||
                      (WIFSIGNALED(st) &&
                       (WTERMSIG(st) == SIGINT || WTERMSIG(st) == SIGTERM)))) {
        pg->n_interrupted++;
        if (!pg->quiet)
            fprintf(stderr, "bfsim sweep: [%zu/%zu] %s interrupted\n",
                    pg->n_ended, pg->n_todo, id);
        return;
    }
    pg->n_failed++;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        snprintf(why, sizeof why, "it wrote no complete summary");
    else if (WIFEXITED(st))
        snprintf(why, sizeof why, "exit status %d", WEXITSTATUS(st));
    else if (WIFSIGNALED(st))
        snprintf(why, sizeof why, "killed by signal %d", WTERMSIG(st));
    else
        snprintf(why, sizeof why, "wait status %d", st);
    opts = sweep_describe(pg->s, r);
    dir = sweep_run_dir(pg->s, r, pg->outdir);
    log = xasprintf("%s/log.txt", dir);
    fprintf(stderr, "bfsim sweep: run %s failed (%s): %s\n", id, why,
            opts[0] ? opts : "(no options)");
    tail = sweep_log_tail(log, 10);
    if (tail && tail[0]) {
        fprintf(stderr, "  the end of %s:\n", log);
        for (char *line = strtok(tail, "\n"); line; line = strtok(NULL, "\n"))
            fprintf(stderr, "    %s\n", line);
    }
    xfree(tail);
    xfree(log);
    xfree(dir);
    xfree(opts);
}

static void list_runs(const struct sweep *s, const char *outdir, size_t si,
                      size_t sn)
{
    for (size_t r = 0; r < s->n_runs; r++) {
        char *d;
        if (r % sn != si)
            continue;
        d = sweep_describe(s, r);
        printf("%s\t%s\t%s\n", s->runs[r].hex,
               sweep_run_complete(s, r, outdir) ? "complete" : "pending", d);
        xfree(d);
    }
}

static void on_claimed(void *arg, size_t r, int gen, int takeover)
{
    struct progress *pg = arg;

    if (!pg->quiet)
        fprintf(stderr, "bfsim sweep: %s claimed (claim.%d%s)\n",
                pg->s->runs[r].hex, gen,
                takeover ? ", taken over from a stale claim" : "");
}

static void on_reconciled(void *arg, size_t r, int gen)
{
    struct progress *pg = arg;

    if (!pg->quiet)
        fprintf(stderr,
                "bfsim sweep: %s reconciled as done (claim.%d, whose "
                "worker died after its replay had completed the run, "
                "was left open)\n",
                pg->s->runs[r].hex, gen);
}

/* A run given up: always said (the worker then exits 1), once per run. */
static void on_gave_up(void *arg, size_t r, int n_failed)
{
    struct progress *pg = arg;
    char *opts = sweep_describe(pg->s, r), *dir;

    dir = sweep_run_dir(pg->s, r, pg->outdir);
    fprintf(stderr,
            "bfsim sweep: warning: run %s given up after %d failed "
            "attempts: %s; see %s/log.txt\n",
            pg->s->runs[r].hex, n_failed, opts[0] ? opts : "(no options)", dir);
    xfree(dir);
    xfree(opts);
}

/* The time --status estimates is left: n[state] runs by claim state,
 * n_done of them done by their workers in done_secs, and left_running
 * seconds the running ones still need at that pace. */
static void print_time_left(const size_t n[5], size_t n_done, double done_secs,
                            double left_running)
{
    if (n[CLAIM_PENDING] + n[CLAIM_STALE] + n[CLAIM_RUNNING] == 0)
        printf("time left: none\n");
    else if (!n_done)
        printf("time left: unknown (no run done yet)\n");
    else {
        /* the runs left at the mean pace of the done ones, spread over
         * the runs going on now (at least one) */
        double mean = done_secs / (double)n_done;
        double par = n[CLAIM_RUNNING] ? (double)n[CLAIM_RUNNING] : 1;
        double left = ((double)(n[CLAIM_PENDING] + n[CLAIM_STALE]) * mean +
                       left_running) /
                      par;
        printf("time left: about %.0f s (%zu runs done in %.1f s each on "
               "average, %zu running)\n",
               left, n_done, mean, n[CLAIM_RUNNING]);
    }
}

/* --status: what the claims and summaries say, on standard output. */
static int print_status(const struct sweep *s, const char *outdir, double lease,
                        int retries)
{
    size_t n[5] = {0}, n_done = 0;
    double done_secs = 0, now = claim_now(), left_running = 0;
    static const char *const names[] = {"pending", "running", "stale", "failed",
                                        "complete"};
    struct bfs_error e;
    int status = CMD_OK;

    bfs_error_clear(&e);
    printf("%s: %zu runs in %s\n", s->path, s->n_runs, outdir);
    for (int pass = 0; pass < 2; pass++) {
        for (size_t r = 0; r < s->n_runs; r++) {
            char *dir = sweep_run_dir(s, r, outdir);
            struct claim_info c;
            enum claim_state st;
            int rc = claim_read(dir, &c, &e);

            if (rc) {
                xfree(dir);
                return cmd_report(&e, rc);
            }
            st = sweep_run_complete(s, r, outdir)
                     ? CLAIM_COMPLETED
                     : claim_state_of(&c, lease, retries, now);
            if (pass == 0) {
                n[st]++;
                if (st == CLAIM_COMPLETED && c.gen >= 0 &&
                    c.end == CLAIM_DONE) {
                    n_done++;
                    done_secs += c.seconds;
                }
            } else if (st == CLAIM_RUNNING || st == CLAIM_STALE) {
                printf("  %s %s host %s pid %ld, heartbeat %.0f s ago, "
                       "claimed %.0f s ago\n",
                       s->runs[r].hex, names[st], c.host, c.pid, now - c.beat,
                       now - c.start);
                if (st == CLAIM_RUNNING && n_done)
                    left_running +=
                        fmax(0, done_secs / (double)n_done - (now - c.start));
            } else if (st == CLAIM_GAVE_UP) {
                printf("  %s failed %d times: see %s/log.txt\n", s->runs[r].hex,
                       c.n_failed, dir);
                status = CMD_FAIL;
            }
            xfree(dir);
        }
        if (pass == 0)
            for (int k = 0; k < 5; k++)
                printf("%-9s %zu\n", names[k], n[k]);
    }
    print_time_left(n, n_done, done_secs, left_running);
    return status;
}

static int write_table(const struct sweep *s, const char *outdir, int quiet)
{
    struct bfs_error e;
    size_t rows;
    int rc;

    bfs_error_clear(&e);
    rc = sweep_write_table(s, outdir, &rows, &e);
    if (rc)
        return cmd_report(&e, rc);
    if (!quiet)
        fprintf(stderr,
                "bfsim sweep: %zu of %zu runs complete; table %s/results.csv "
                "and results.h5\n",
                rows, s->n_runs, outdir);
    return CMD_OK;
}

/* The progress of n_todo runs (pg) and what every executor of them
 * shares (x: stopped by stop_flag, each end reported to on_done with
 * pg). */
static void exec_init(struct progress *pg, struct sweep_exec *x,
                      const struct sweep *s, const char *outdir, size_t n_todo,
                      int quiet)
{
    pg->s = s;
    pg->outdir = outdir;
    pg->n_todo = n_todo;
    pg->quiet = quiet;
    x->stop = &stop_flag;
    x->done = on_done;
    x->arg = pg;
}

/* --worker: claims and runs runs until the sweep is done, then writes the
 * table.  Exit status: 0 when every run is complete, 1 when runs were
 * given up (or an error), 130 when stopped. */
static int run_worker(const struct sweep *s, const char *config,
                      const char *outdir, const char *abs_out,
                      const char *workdir, const char *prog, int jobs,
                      double lease, int retries, int quiet)
{
    struct progress pg = {0};
    struct sweep_exec x = {0};
    struct sweep_work_result res;
    struct bfs_error e;
    size_t *order = xcalloc(s->n_runs + 1, sizeof *order);
    int rc, status = CMD_OK;
    double t0 = bfs_now();

    bfs_error_clear(&e);
    sweep_order(s, order);
    if (!quiet)
        fprintf(stderr,
                "bfsim sweep: %s: worker %ld of a sweep of %zu runs, %d at a "
                "time, lease %g s, in %s\n",
                config, (long)getpid(), s->n_runs, jobs, lease, outdir);
    catch_stop();
    exec_init(&pg, &x, s, outdir, s->n_runs, quiet);
    x.prog = prog;
    x.outdir = abs_out;
    x.workdir = workdir;
    x.jobs = jobs;
    x.claimed = on_claimed;
    x.reconciled = on_reconciled;
    x.gave_up = on_gave_up;
    x.lease = lease;
    x.retries = retries;
    rc = sweep_work(s, order, s->n_runs, &x, &res, &e);
    xfree(order);
    if (rc)
        status = cmd_report(&e, rc);
    if (!quiet || res.n_failed)
        fprintf(stderr,
                "bfsim sweep: worker %ld ends after %.1f s: it completed %zu "
                "runs; the sweep has %zu of %zu complete, %zu given up\n",
                (long)getpid(), bfs_now() - t0, res.n_ran, res.n_complete,
                s->n_runs, res.n_failed);
    if (stop_flag) {
        fprintf(stderr, "bfsim sweep: worker interrupted; its runs are "
                        "pending again\n");
        return 130;
    }
    /* The sweep is done (every run complete or given up): whoever ends
     * here writes the table; all such tables are the same. */
    if (rc == 0 && write_table(s, outdir, quiet) != CMD_OK)
        status = CMD_FAIL;
    if (res.n_failed && status == CMD_OK)
        status = CMD_FAIL;
    return status;
}

/* The line on standard error that starts a sweep's runs: how many, how
 * many complete and to run (n_todo), at once, where. */
static void announce(const struct sweep *s, const struct sweep_args *a,
                     const char *config, const char *outdir, size_t n_shard,
                     size_t n_complete, size_t n_todo)
{
    if (a->sharded)
        fprintf(stderr, "bfsim sweep: %s: shard %zu/%zu has %zu of %zu runs",
                config, a->shard_i, a->shard_n, n_shard, s->n_runs);
    else
        fprintf(stderr, "bfsim sweep: %s: %zu runs", config, s->n_runs);
    if (s->n_excluded)
        fprintf(stderr, " (%zu combinations excluded)", s->n_excluded);
    fprintf(stderr, "; %zu complete, %zu to run, %d at a time, in %s\n",
            n_complete, n_todo, a->jobs, outdir);
}

/* Runs the runs of shard a->shard_i/a->shard_n not yet complete, a->jobs
 * at a time, then writes the table.  Returns a CMD_* exit status (130
 * when stopped by a signal). */
static int run_local(struct sweep *s, const struct sweep_args *a,
                     const char *config, const char *outdir,
                     const char *abs_out, const char *workdir, const char *prog)
{
    struct progress pg = {0};
    struct sweep_exec x = {0};
    struct bfs_error e;
    size_t n_shard = 0, n_complete = 0, *todo, n_todo = 0;
    int rc, status = CMD_OK;
    double t0;

    todo = xcalloc(s->n_runs + 1, sizeof *todo);
    for (size_t r = 0; r < s->n_runs; r++) {
        if (r % a->shard_n != a->shard_i)
            continue;
        n_shard++;
        if (sweep_run_complete(s, r, abs_out))
            n_complete++;
        else
            todo[n_todo++] = r;
    }
    if (!a->quiet)
        announce(s, a, config, outdir, n_shard, n_complete, n_todo);
    catch_stop();
    exec_init(&pg, &x, s, outdir, n_todo, a->quiet);
    x.prog = prog;
    x.outdir = abs_out;
    x.workdir = workdir;
    x.jobs = a->jobs;
    x.busy = on_busy;
    t0 = bfs_now();
    bfs_error_clear(&e);
    if ((rc = sweep_exec(s, todo, n_todo, &x, &e)) != 0)
        status = cmd_report(&e, rc);
    if (!a->quiet || pg.n_failed)
        fprintf(stderr,
                "bfsim sweep: %zu of %zu runs ended in %.1f s: %zu ok, %zu "
                "failed%s\n",
                pg.n_ended, n_todo, bfs_now() - t0, pg.n_ok, pg.n_failed,
                pg.n_interrupted ? ", some interrupted" : "");
    xfree(todo);
    if (write_table(s, outdir, a->quiet) != CMD_OK)
        status = CMD_FAIL;
    if (stop_flag) {
        fprintf(stderr, "bfsim sweep: interrupted; run the same command again "
                        "to resume\n");
        return 130;
    }
    return (pg.n_failed || pg.n_busy) && status == CMD_OK ? CMD_FAIL : status;
}

/* What the options ask of the loaded sweep s, its table in outdir.
 * Returns a CMD_* exit status. */
static int sweep_do(struct sweep *s, const struct sweep_args *a,
                    const char *config, const char *outdir, const char *prog)
{
    struct bfs_error e;
    char *abs_out = NULL, *workdir = NULL;
    int rc, status;

    bfs_error_clear(&e);
    if (a->list) {
        if ((rc = sweep_bind(s, outdir, 0, &e)) != 0)
            return cmd_report(&e, rc);
        list_runs(s, outdir, a->shard_i, a->shard_n);
        return CMD_OK;
    }
    /* the folder is this sweep's (or becomes it), not another's */
    if ((rc = sweep_prepare(outdir, &abs_out, &e)) != 0 ||
        (rc = sweep_bind(s, outdir, !a->status, &e)) != 0)
        status = cmd_report(&e, rc);
    else if (a->merge)
        status = write_table(s, outdir, a->quiet);
    else if (a->status)
        status = print_status(s, outdir, a->lease, a->retries);
    else if (!(workdir = realpath(s->dir, NULL)))
        status = cmd_report(
            &e, bfs_fail_at(&e, BFS_EIO, s->dir, 0, "%s", strerror(errno)));
    else if (a->worker)
        status = run_worker(s, config, outdir, abs_out, workdir, prog, a->jobs,
                            a->lease, a->retries, a->quiet);
    else
        status = run_local(s, a, config, outdir, abs_out, workdir, prog);
    xfree(workdir);
    xfree(abs_out);
    return status;
}

int cmd_sweep(int argc, char **argv)
{
    struct sweep s = {0};
    struct sweep_args a;
    struct bfs_error e;
    const char *config;
    char *outdir, *prog;
    int rc, first, status;

    if (!cmd_parse(&options_sweep, NULL, argc, argv, &a, &first, &status))
        return status;
    if (first >= argc)
        return cmd_usage_error("sweep", "%s", "no configuration file");
    if (argc - first > 1)
        return cmd_usage_error("sweep", "unexpected argument '%s'",
                               argv[first + 1]);
    config = argv[first];
    {
        const struct bfs_paths_role roles[] = {{"CONFIG", config, 0, NULL},
                                               {"--out", a.out, 1, NULL}};
        if ((rc = cmd_check_paths("sweep", roles, 2)) != 0)
            return rc;
    }
    bfs_error_clear(&e);
    if ((rc = sweep_load(config, &s, &e)) != 0)
        return cmd_report(&e, rc);
    prog = self_exe(argv);
    outdir = a.out ? xstrdup(a.out) : default_outdir(config);
    if ((rc = sweep_check_keys(&s, &e)) != 0)
        status = cmd_report(&e, rc);
    else
        status = sweep_do(&s, &a, config, outdir, prog);
    xfree(outdir);
    xfree(prog);
    sweep_release(&s);
    return status;
}
