/* cmd_sweep.c - `bfsim sweep`: options, progress and failure reports.
 * Expanding the configuration, running the replays and writing the
 * results table are sweep.c's.
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
#include "sweep/claim.h"
#include "sweep/sweep.h"
#include "base/util.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fputs("Usage: bfsim sweep CONFIG.json [-j N] [--shard I/N] [--out DIR]\n"
          "                   [--merge] [--list] [-q]\n"
          "       bfsim sweep CONFIG.json --worker [-j N] [--lease S] "
          "[--retries N]\n"
          "                   [--out DIR] [-q]\n"
          "       bfsim sweep CONFIG.json --status [--lease S] [--retries N]"
          "\n"
          "\n"
          "Run `bfsim replay` over every combination of the option values in\n"
          "CONFIG.json, each run a separate process, and gather the runs'\n"
          "summaries into one table.  Resumable: runs already complete are\n"
          "skipped, so rerunning the same command finishes an interrupted or\n"
          "extended sweep.\n"
          "\n"
          "CONFIG.json is an object whose keys are replay options without "
          "their\n"
          "dashes.  A string or number is the option's argument, true gives "
          "a\n"
          "flag, false leaves it out; an array of such values is swept.  "
          "Relative\n"
          "paths are relative to the configuration's directory.  \"exclude\": "
          "[{...}]\n"
          "drops the combinations matching every key/value of an entry:\n"
          "\n"
          "  {\"trace\": \"t.trace.gz\", \"allocator\": [\"dp\", \"even\"],\n"
          "   \"tfwd\": [10, 60], \"apply-feasible\": [false, true],\n"
          "   \"exclude\": [{\"allocator\": \"even\", \"apply-feasible\": "
          "true}]}\n"
          "\n"
          "Runs go in expansion order: keys in file order, the last varying\n"
          "fastest.  A run's id is a hash of its options, independent of the\n"
          "keys' order and of the other values; its files are in\n"
          "DIR/runs/ID/: options.json, summary.json, run.h5, log.txt.  The\n"
          "table DIR/results.csv and DIR/results.h5 has one row per complete\n"
          "run: id, the options, then every measure of its summary.\n"
          "\n"
          "Options:\n"
          "  -j N               run up to N replays at once (default 1)\n"
          "  --shard I/N        run only the runs whose index in expansion "
          "order\n"
          "                     is I modulo N (0 <= I < N): disjoint slices "
          "for\n"
          "                     job arrays; then --merge\n"
          "  --out DIR          output directory (default: CONFIG without "
          ".json,\n"
          "                     plus .sweep)\n"
          "  --merge            run nothing; write the table of the complete "
          "runs\n"
          "  --worker           share the sweep with other workers (any "
          "number,\n"
          "                     any host, any time): claim runs one by one, "
          "longest\n"
          "                     expected first, through DIR/runs/ID/claim.N; "
          "end when\n"
          "                     no run is pending or held by a live worker, "
          "then\n"
          "                     write the table\n"
          "  --lease S          a worker's claim is stale, and taken over, "
          "when its\n"
          "                     heartbeat (every S/3 s) is older than S "
          "seconds\n"
          "                     (default 30)\n"
          "  --retries N        retry a failed run N times, then give it up "
          "(default 1)\n"
          "  --status           run nothing; count the runs complete, "
          "running,\n"
          "                     stale, pending and failed, and estimate the "
          "time left\n"
          "  --list             run nothing; print each run's id, status\n"
          "                     (complete or pending) and options\n"
          "  -q, --quiet        print only failures\n"
          "  -h, --help         show this help\n"
          "\n"
          "DIR/sweep.txt records which configuration DIR holds: one that "
          "would\n"
          "leave runs of it out of the table is refused (status 2); the "
          "same\n"
          "configuration resumes, and one that adds values extends it.  A "
          "worker\n"
          "finding a complete run whose worker died before ending its claim\n"
          "reconciles it as done without running it again.\n"
          "\n"
          "SIGINT or SIGTERM stops the sweep: the running replays get SIGINT "
          "and\n"
          "write partial results, the table of the complete runs is written, "
          "and\n"
          "the exit status is 130.  A failed run is reported with the end of "
          "its\n"
          "log; the others go on, and the exit status is 1.\n",
          f);
}

static volatile sig_atomic_t stop_flag;

static void on_stop(int sig)
{
    (void)sig;
    stop_flag = 1;
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
    char *p;

    if (n > 5 && strcmp(config + n - 5, ".json") == 0)
        n -= 5;
    p = xmalloc(n + 8);
    memcpy(p, config, n);
    strcpy(p + n, ".sweep");
    return p;
}

static int parse_shard(const char *s, size_t *i, size_t *n)
{
    const char *slash = strchr(s, '/');
    char buf[64];
    int64_t a, b;

    if (!slash || (size_t)(slash - s) >= sizeof buf)
        return -1;
    memcpy(buf, s, (size_t)(slash - s));
    buf[slash - s] = '\0';
    if (bfs_parse_i64(buf, &a) || bfs_parse_i64(slash + 1, &b) || b < 1 ||
        a < 0 || a >= b)
        return -1;
    *i = (size_t)a;
    *n = (size_t)b;
    return 0;
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
    log = xmalloc(strlen(dir) + 16);
    sprintf(log, "%s/log.txt", dir);
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
    struct sigaction sa;
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
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGCHLD, SIG_DFL); /* sweep_work waits for its runs itself */
    pg.s = s;
    pg.outdir = outdir;
    pg.n_todo = s->n_runs;
    pg.quiet = quiet;
    x.prog = prog;
    x.outdir = abs_out;
    x.workdir = workdir;
    x.jobs = jobs;
    x.stop = &stop_flag;
    x.done = on_done;
    x.claimed = on_claimed;
    x.reconciled = on_reconciled;
    x.gave_up = on_gave_up;
    x.arg = &pg;
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

int cmd_sweep(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"shard", required_argument, NULL, 'S'},
        {"out", required_argument, NULL, 'O'},
        {"merge", no_argument, NULL, 'M'},
        {"list", no_argument, NULL, 'L'},
        {"worker", no_argument, NULL, 'W'},
        {"lease", required_argument, NULL, 'E'},
        {"retries", required_argument, NULL, 'R'},
        {"status", no_argument, NULL, 'T'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct sweep s = {0};
    struct bfs_error e;
    struct progress pg = {0};
    struct sweep_exec x = {0};
    struct sigaction sa;
    const char *config, *out_arg = NULL;
    char *outdir = NULL, *prog = NULL, *abs_out = NULL, *workdir = NULL;
    size_t shard_i = 0, shard_n = 1, n_shard = 0, n_complete = 0, *todo = NULL,
           n_todo = 0;
    int64_t jobs = 1, retries = 1;
    double lease = 30;
    int worker = 0, show_status = 0, lease_set = 0, retries_set = 0;
    int merge = 0, list = 0, quiet = 0, c, rc, status = CMD_OK, sharded = 0;
    double t0;

    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":j:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'j':
            if (bfs_parse_i64(optarg, &jobs) || jobs < 1 || jobs > 4096)
                return cmd_usage_error("sweep",
                                       "-j: '%s' is not a count of "
                                       "1 to 4096 runs",
                                       optarg);
            break;
        case 'S':
            if (parse_shard(optarg, &shard_i, &shard_n))
                return cmd_usage_error("sweep",
                                       "--shard: '%s' is not I/N with "
                                       "0 <= I < N",
                                       optarg);
            sharded = 1;
            break;
        case 'O':
            out_arg = optarg;
            break;
        case 'M':
            merge = 1;
            break;
        case 'L':
            list = 1;
            break;
        case 'q':
            quiet = 1;
            break;
        case 'W':
            worker = 1;
            break;
        case 'T':
            show_status = 1;
            break;
        case 'E':
            if (bfs_parse_double(optarg, &lease) || !(lease >= 0.1) ||
                lease > 1e9)
                return cmd_usage_error("sweep",
                                       "--lease: '%s' is not a number of "
                                       "seconds from 0.1",
                                       optarg);
            lease_set = 1;
            break;
        case 'R':
            if (bfs_parse_i64(optarg, &retries) || retries < 0 ||
                retries > 1000)
                return cmd_usage_error("sweep",
                                       "--retries: '%s' is not a count of "
                                       "0 to 1000",
                                       optarg);
            retries_set = 1;
            break;
        case 'h':
            usage(stdout);
            return CMD_OK;
        default:
            return cmd_option_error("sweep", c, argv);
        }
    }
    if (optind >= argc)
        return cmd_usage_error("sweep", "%s", "no configuration file");
    if (argc - optind > 1)
        return cmd_usage_error("sweep", "unexpected argument '%s'",
                               argv[optind + 1]);
    if (merge && list)
        return cmd_usage_error("sweep", "%s",
                               "--merge and --list do not go together");
    if (merge && sharded)
        return cmd_usage_error("sweep", "%s",
                               "--merge collects every shard: no --shard");
    if (merge + list + worker + show_status > 1)
        return cmd_usage_error("sweep", "%s",
                               "--merge, --list, --worker and --status do "
                               "not go together");
    if ((lease_set || retries_set) && !worker && !show_status)
        return cmd_usage_error("sweep", "%s",
                               "--lease and --retries go with --worker or "
                               "--status");
    if ((worker || show_status) && sharded)
        return cmd_usage_error("sweep", "%s",
                               "workers share the whole sweep: no --shard");
    config = argv[optind];
    {
        const struct bfs_paths_role roles[] = {{"CONFIG", config, 0, NULL},
                                               {"--out", out_arg, 1, NULL}};
        if ((rc = cmd_check_paths("sweep", roles, 2)) != 0)
            return rc;
    }

    bfs_error_clear(&e);
    if ((rc = sweep_load(config, &s, &e)) != 0)
        return cmd_report(&e, rc);
    prog = self_exe(argv);
    if ((rc = sweep_check_keys(&s, &e)) != 0) {
        status = cmd_report(&e, rc);
        goto done;
    }
    outdir = out_arg ? xstrdup(out_arg) : default_outdir(config);

    if (list) {
        if ((rc = sweep_bind(&s, outdir, 0, &e)) != 0)
            status = cmd_report(&e, rc);
        else
            list_runs(&s, outdir, shard_i, shard_n);
        goto done;
    }
    /* the folder is this sweep's (or becomes it), not another's */
    if ((rc = sweep_prepare(outdir, &abs_out, &e)) != 0 ||
        (rc = sweep_bind(&s, outdir, !show_status, &e)) != 0) {
        status = cmd_report(&e, rc);
        goto done;
    }
    if (merge) {
        status = write_table(&s, outdir, quiet);
        goto done;
    }
    if (show_status) {
        status = print_status(&s, outdir, lease, (int)retries);
        goto done;
    }
    if (!(workdir = realpath(s.dir, NULL))) {
        status = cmd_report(
            &e, bfs_fail_at(&e, BFS_EIO, s.dir, 0, "%s", strerror(errno)));
        goto done;
    }

    if (worker) {
        status = run_worker(&s, config, outdir, abs_out, workdir, prog,
                            (int)jobs, lease, (int)retries, quiet);
        goto done;
    }
    todo = xcalloc(s.n_runs + 1, sizeof *todo);
    for (size_t r = 0; r < s.n_runs; r++) {
        if (r % shard_n != shard_i)
            continue;
        n_shard++;
        if (sweep_run_complete(&s, r, abs_out))
            n_complete++;
        else
            todo[n_todo++] = r;
    }
    if (!quiet) {
        if (sharded)
            fprintf(stderr,
                    "bfsim sweep: %s: shard %zu/%zu has %zu of %zu runs",
                    config, shard_i, shard_n, n_shard, s.n_runs);
        else
            fprintf(stderr, "bfsim sweep: %s: %zu runs", config, s.n_runs);
        if (s.n_excluded)
            fprintf(stderr, " (%zu combinations excluded)", s.n_excluded);
        fprintf(stderr, "; %zu complete, %zu to run, %d at a time, in %s\n",
                n_complete, n_todo, (int)jobs, outdir);
    }

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGCHLD, SIG_DFL); /* sweep_exec waits for its runs itself */
    pg.s = &s;
    pg.outdir = outdir;
    pg.n_todo = n_todo;
    pg.quiet = quiet;
    x.prog = prog;
    x.outdir = abs_out;
    x.workdir = workdir;
    x.jobs = (int)jobs;
    x.stop = &stop_flag;
    x.done = on_done;
    x.busy = on_busy;
    x.arg = &pg;
    t0 = bfs_now();
    rc = sweep_exec(&s, todo, n_todo, &x, &e);
    if (rc)
        status = cmd_report(&e, rc);
    if (!quiet || pg.n_failed)
        fprintf(stderr,
                "bfsim sweep: %zu of %zu runs ended in %.1f s: %zu ok, %zu "
                "failed%s\n",
                pg.n_ended, n_todo, bfs_now() - t0, pg.n_ok, pg.n_failed,
                pg.n_interrupted ? ", some interrupted" : "");
    if (write_table(&s, outdir, quiet) != CMD_OK)
        status = CMD_FAIL;
    if (stop_flag) {
        fprintf(stderr, "bfsim sweep: interrupted; run the same command again "
                        "to resume\n");
        status = 130;
    } else if ((pg.n_failed || pg.n_busy) && status == CMD_OK) {
        status = CMD_FAIL;
    }

done:
    xfree(todo);
    xfree(workdir);
    xfree(abs_out);
    xfree(outdir);
    xfree(prog);
    sweep_release(&s);
    return status;
}
