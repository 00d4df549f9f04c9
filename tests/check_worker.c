/* check_worker.c - pull-based sweep workers: the claim primitives
 * (exclusive claim, a takeover race of two takers, who may still hold a
 * claim, retries running out), the claim order's cost model, a run given
 * up and named, and four workers on one sweep of 48 runs of very
 * different costs, two of them killed with SIGKILL at seeded random
 * moments and two more started, whose table must equal a single
 * process's and whose claim records must show every run completed once,
 * by its last claim, and never held by two live workers at once.  Then
 * chosen moments, with a replay held on a FIFO: a worker stalled
 * (SIGSTOP) while its replay runs and taken over, a worker killed between
 * its replay's end and its claim's end, and complete runs left with open
 * claims.
 *
 * The claim files are read here with a parser written for the test
 * (claim_file_read), not with claim_read.
 */
#include "config.h"

#include "sweep/claim.h"
#include "sweep/sweep.h"
#include "testsweep.h"

#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- helpers ------------------------------------------------------------- */

/* One claim file as the test reads it. */
struct rec {
    long pid;
    double start, end, beat; /* end < 0: no end line */
    char status[32];
    int reconciled; /* the end line says "reconciled" */
};

/* Reads dir/claim.gen; returns 0 when it does not exist. */
static int claim_file_read(const char *dir, int gen, struct rec *r)
{
    char name[32], line[256];
    const char *p;
    struct stat st;
    FILE *f;
    int lines = 0;

    snprintf(name, sizeof name, "claim.%d", gen);
    p = tu_path_in(dir, name);
    if (stat(p, &st) != 0)
        return 0;
    memset(r, 0, sizeof *r);
    r->end = -1;
    r->beat = (double)st.st_mtim.tv_sec + (double)st.st_mtim.tv_nsec * 1e-9;
    f = fopen(p, "r");
    ck_assert_ptr_nonnull(f);
    while (fgets(line, sizeof line, f)) {
        double t, s;
        char w[32], note[32];
        int n;
        lines++;
        if (lines == 1)
            ck_assert_str_eq(line, "bfsim-claim 1\n");
        else if (strncmp(line, "pid ", 4) == 0)
            r->pid = atol(line + 4);
        else if (strncmp(line, "start ", 6) == 0)
            r->start = atof(line + 6);
        else if ((n = sscanf(line, "end %lf %31s %lf %31s", &t, w, &s, note)) >=
                 3) {
            ck_assert_msg(r->end < 0, "%s: two end lines", p);
            r->end = t;
            snprintf(r->status, sizeof r->status, "%s", w);
            r->reconciled = n == 4 && strcmp(note, "reconciled") == 0;
        } else
            ck_assert_msg(strncmp(line, "host ", 5) == 0, "%s: line '%s'", p,
                          line);
    }
    fclose(f);
    ck_assert_int_ge(lines, 4);
    return 1;
}

static void set_mtime(const char *path, double ago)
{
    struct timespec ts[2];
    double t = claim_now() - ago;

    ts[0].tv_sec = ts[1].tv_sec = (time_t)t;
    ts[0].tv_nsec = ts[1].tv_nsec = (long)((t - (double)(time_t)t) * 1e9);
    ck_assert_int_eq(utimensat(AT_FDCWD, path, ts, 0), 0);
}

/* ---- claim primitives ---------------------------------------------------- */

START_TEST(test_claim_exclusive)
{
    const char *d = tu_dir("excl");
    struct bfs_error e;
    struct claim_info c;
    struct rec r;
    double now = claim_now();

    bfs_error_clear(&e);
    ck_assert_int_eq(claim_read(d, &c, &e), 0);
    ck_assert_int_eq(c.gen, -1);
    ck_assert_int_eq(claim_state_of(&c, 10, 1, now), CLAIM_PENDING);
    ck_assert_int_eq(claim_take(d, 0, "hostA", 111, now, &e), 0);
    /* the second taker of claim.0 loses, and the file is the first's */
    ck_assert_int_eq(claim_take(d, 0, "hostB", 222, now, &e), 1);
    ck_assert_int_eq(claim_file_read(d, 0, &r), 1);
    ck_assert_int_eq(r.pid, 111);
    ck_assert(r.end < 0);
    ck_assert_int_eq(claim_read(d, &c, &e), 0);
    ck_assert_int_eq(c.gen, 0);
    ck_assert_str_eq(c.host, "hostA");
    ck_assert_int_eq(c.pid, 111);
    ck_assert_int_eq(c.end, CLAIM_OPEN);
    /* written a moment ago: running within a 10 s lease */
    ck_assert_int_eq(claim_state_of(&c, 10, 1, claim_now()), CLAIM_RUNNING);
    /* a heartbeat 20 s old is stale for a 10 s lease; a beat renews it */
    set_mtime(tu_path_in(d, "claim.0"), 20);
    ck_assert_int_eq(claim_read(d, &c, &e), 0);
    ck_assert_int_eq(claim_state_of(&c, 10, 1, claim_now()), CLAIM_STALE);
    ck_assert_int_eq(claim_beat(d, 0, &e), 0);
    ck_assert_int_eq(claim_read(d, &c, &e), 0);
    ck_assert_int_eq(claim_state_of(&c, 10, 1, claim_now()), CLAIM_RUNNING);
    /* ended done: no longer open, pending as far as the claims go (the
     * summary decides completeness) */
    ck_assert_int_eq(claim_finish(d, 0, CLAIM_DONE, 1.5, &e), 0);
    ck_assert_int_eq(claim_file_read(d, 0, &r), 1);
    ck_assert_str_eq(r.status, "done");
    ck_assert_int_eq(claim_read(d, &c, &e), 0);
    ck_assert_int_eq(c.end, CLAIM_DONE);
    ck_assert(c.seconds == 1.5);
    /* a malformed claim is an error naming it */
    tu_write_at(tu_path_in(d, "claim.1"), "not a claim\n");
    ck_assert_int_eq(claim_read(d, &c, &e), BFS_EPARSE);
    ck_assert_ptr_nonnull(strstr(e.msg, "claim.1"));
}
END_TEST

/* Two processes see the same stale claim.0 and both try to take it over
 * (claim.1) at the same moment: exactly one wins, every time, and the
 * old owner's heartbeat then reports the claim lost. */
START_TEST(test_takeover_race)
{
    for (int round = 0; round < 40; round++) {
        char name[32];
        const char *d;
        struct bfs_error e;
        int pipefd[2], ready[2], wins = 0, losses = 0;
        char buf[2];
        pid_t kids[2];
        struct rec r;

        snprintf(name, sizeof name, "race%d", round);
        d = tu_dir(name);
        bfs_error_clear(&e);
        ck_assert_int_eq(claim_take(d, 0, "dead", 1, claim_now(), &e), 0);
        set_mtime(tu_path_in(d, "claim.0"), 100);
        ck_assert_int_eq(pipe(pipefd), 0);
        ck_assert_int_eq(pipe(ready), 0);
        for (int k = 0; k < 2; k++) {
            kids[k] = fork();
            ck_assert_int_ge(kids[k], 0);
            if (kids[k] == 0) {
                struct claim_info c;
                char go;
                close(pipefd[1]);
                close(ready[0]);
                /* both see claim.0 stale, then wait for the same start
                 * signal and race for claim.1 */
                if (claim_read(d, &c, &e) != 0)
                    _exit(5);
                if (claim_state_of(&c, 10, 1, claim_now()) != CLAIM_STALE)
                    _exit(4);
                if (write(ready[1], "r", 1) != 1)
                    _exit(6);
                if (read(pipefd[0], &go, 1) != 1)
                    _exit(3);
                _exit(claim_take(d, c.gen + 1, "taker", (long)getpid(),
                                 claim_now(), &e) == 0
                          ? 0
                          : 1);
            }
        }
        close(pipefd[0]);
        close(ready[1]);
        /* both have seen claim.0 stale and wait: go */
        for (int k = 0; k < 2; k++)
            ck_assert_int_eq(read(ready[0], buf, 1), 1);
        close(ready[0]);
        ck_assert_int_eq(write(pipefd[1], "gg", 2), 2);
        close(pipefd[1]);
        for (int k = 0; k < 2; k++) {
            int st;
            ck_assert_int_eq(waitpid(kids[k], &st, 0), kids[k]);
            ck_assert(WIFEXITED(st));
            ck_assert_int_le(WEXITSTATUS(st), 1);
            wins += WEXITSTATUS(st) == 0;
            losses += WEXITSTATUS(st) == 1;
        }
        ck_assert_int_eq(wins, 1);
        ck_assert_int_eq(losses, 1);
        /* claim.1 names the winner; there is no claim.2 */
        ck_assert_int_eq(claim_file_read(d, 1, &r), 1);
        ck_assert(r.pid == kids[0] || r.pid == kids[1]);
        ck_assert_int_eq(claim_file_read(d, 2, &r), 0);
        /* the old owner's next heartbeat: lost */
        ck_assert_int_eq(claim_beat(d, 0, &e), 1);
    }
}
END_TEST

/* Who may still hold a claim (claim_holder_live): on this host, a live
 * process (this one) and not a process that has ended; on another host,
 * whoever beat within the lease; never an ended claim.  A claim.N+1
 * supersedes claim.N; a reconciled claim reads as done. */
START_TEST(test_claim_holder)
{
    const char *d = tu_dir("holder");
    struct bfs_error e;
    struct claim_info c;
    char host[256];
    pid_t gone = fork();
    struct rec r;

    ck_assert_int_ge(gone, 0);
    if (gone == 0)
        _exit(0);
    ck_assert_int_eq(waitpid(gone, NULL, 0), gone);
    claim_host(host, sizeof host);
    bfs_error_clear(&e);
    ck_assert_int_eq(claim_take(d, 0, host, (long)getpid(), claim_now(), &e),
                     0);
    set_mtime(tu_path_in(d, "claim.0"), 100); /* stale, yet alive here */
    ck_assert_int_eq(claim_read_one(d, 0, &c, &e), 0);
    ck_assert_int_eq(c.gen, 0);
    ck_assert(claim_holder_live(&c, 10, claim_now()));
    c.pid = gone;
    ck_assert(!claim_holder_live(&c, 10, claim_now()));
    snprintf(c.host, sizeof c.host, "not-%.200s", host);
    ck_assert(!claim_holder_live(&c, 10, claim_now())); /* 100 s silent */
    ck_assert(claim_holder_live(&c, 200, claim_now()));
    ck_assert_int_eq(claim_superseded(d, 0), 0);
    ck_assert_int_eq(claim_read_one(d, 1, &c, &e), 0);
    ck_assert_int_eq(c.gen, -1);
    ck_assert_int_eq(claim_take(d, 1, "other", 7, claim_now(), &e), 0);
    ck_assert_int_eq(claim_superseded(d, 0), 1);
    ck_assert_int_eq(claim_reconciled(d, 1, 2.5, &e), 0);
    ck_assert_int_eq(claim_file_read(d, 1, &r), 1);
    ck_assert_str_eq(r.status, "done");
    ck_assert(r.reconciled);
    ck_assert_int_eq(claim_read(d, &c, &e), 0);
    ck_assert_int_eq(c.gen, 1);
    ck_assert_int_eq(c.end, CLAIM_DONE);
    ck_assert(c.reconciled && c.seconds == 2.5);
    ck_assert(!claim_holder_live(&c, 200, claim_now())); /* ended */
}
END_TEST

/* --retries 1: two failed attempts give the run up; --retries 2 would
 * allow a third. */
START_TEST(test_retries_state)
{
    const char *d = tu_dir("retries");
    struct bfs_error e;
    struct claim_info c;

    bfs_error_clear(&e);
    for (int g = 0; g < 2; g++) {
        ck_assert_int_eq(claim_take(d, g, "h", 5, claim_now(), &e), 0);
        ck_assert_int_eq(claim_finish(d, g, CLAIM_FAILED, 0.1, &e), 0);
        ck_assert_int_eq(claim_read(d, &c, &e), 0);
        ck_assert_int_eq(c.n_failed, g + 1);
    }
    ck_assert_int_eq(claim_state_of(&c, 10, 1, claim_now()), CLAIM_GAVE_UP);
    ck_assert_int_eq(claim_state_of(&c, 10, 2, claim_now()), CLAIM_PENDING);
    /* a stopped or lost attempt does not count */
    ck_assert_int_eq(claim_take(d, 2, "h", 5, claim_now(), &e), 0);
    ck_assert_int_eq(claim_finish(d, 2, CLAIM_STOPPED, 0.1, &e), 0);
    ck_assert_int_eq(claim_read(d, &c, &e), 0);
    ck_assert_int_eq(c.n_failed, 2);
    ck_assert_int_eq(claim_state_of(&c, 10, 2, claim_now()), CLAIM_PENDING);
}
END_TEST

/* ---- through the program ------------------------------------------------- */

/* How many times needle occurs in text. */
static int count_of(const char *text, const char *needle)
{
    int n = 0;

    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static int run_cmd(const char *cmd)
{
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* `bfsim sweep CFG --worker --retries 2 --lease 5 --out D/o`, from "/",
 * its outputs in D/NAME.out and D/NAME.err; returns its exit status. */
static int retry_worker(const char *cfg, const char *d, const char *name)
{
    char cmd[4096];

    snprintf(cmd, sizeof cmd,
             "cd / && %s sweep %s --worker --retries 2 --lease 5 --out %s/o "
             ">%s/%s.out 2>%s/%s.err",
             tu_bfsim(), cfg, d, d, name, d, name);
    return run_cmd(cmd);
}

START_TEST(test_retries_worker)
{
    const char *d = tu_dir("wretry"), *cfg = tu_path_in(d, "f.json");
    char cmd[4096];
    struct rec r;
    char *err, *out, bad[256] = "", want[300];
    int failed_dirs = 0;

    tu_tiny_inputs(d);
    tu_write_at(cfg, "{\"trace\": \"tiny.trace\", \"jobs\": \"tiny.jobs\",\n"
                     " \"compat\": \"bftrainer\", \"allocator\": \"even\",\n"
                     " \"tfwd\": [10, -1]}\n");
    ck_assert_int_eq(retry_worker(cfg, d, "w"), 1);
    err = tu_slurp(tu_path_in(d, "w.err"));
    /* three attempts of the bad run, each reported with its log */
    ck_assert_ptr_nonnull(strstr(err, "failed"));
    ck_assert_ptr_nonnull(strstr(err, "log.txt"));
    ck_assert_ptr_nonnull(strstr(err, "1 given up"));
    /* the bad run has claims 0..2, all failed; the good one claim.0 done */
    {
        char id_line[256];
        FILE *f;
        snprintf(cmd, sizeof cmd, "ls %s/o/runs > %s/ids", d, d);
        ck_assert_int_eq(run_cmd(cmd), 0);
        f = fopen(tu_path_in(d, "ids"), "r");
        ck_assert_ptr_nonnull(f);
        while (fgets(id_line, sizeof id_line, f)) {
            char sub[300];
            const char *rd;
            id_line[strcspn(id_line, "\n")] = '\0';
            snprintf(sub, sizeof sub, "o/runs/%s", id_line);
            rd = tu_path_in(d, sub);
            ck_assert_int_eq(claim_file_read(rd, 0, &r), 1);
            if (strcmp(r.status, "failed") == 0) {
                failed_dirs++;
                snprintf(bad, sizeof bad, "%s", id_line);
                for (int g = 1; g < 3; g++) {
                    ck_assert_int_eq(claim_file_read(rd, g, &r), 1);
                    ck_assert_str_eq(r.status, "failed");
                }
                ck_assert_int_eq(claim_file_read(rd, 3, &r), 0);
            } else {
                ck_assert_str_eq(r.status, "done");
                ck_assert_int_eq(claim_file_read(rd, 1, &r), 0);
            }
        }
        fclose(f);
    }
    ck_assert_int_eq(failed_dirs, 1);
    /* the worker met the run given up and named it, once */
    snprintf(want, sizeof want, "run %s given up", bad);
    ck_assert_int_eq(count_of(err, want), 1);
    free(err);
    /* so does a worker started on the finished sweep, which exits 1 */
    ck_assert_int_eq(retry_worker(cfg, d, "w2"), 1);
    err = tu_slurp(tu_path_in(d, "w2.err"));
    ck_assert_ptr_nonnull(err);
    ck_assert_msg(count_of(err, want) == 1, "second worker: %s", err);
    free(err);
    /* --status counts them: 1 complete, 1 failed, exit 1 */
    snprintf(cmd, sizeof cmd,
             "cd / && %s sweep %s --status --retries 2 --out %s/o "
             ">%s/s.out 2>&1",
             tu_bfsim(), cfg, d, d);
    ck_assert_int_eq(run_cmd(cmd), 1);
    out = tu_slurp(tu_path_in(d, "s.out"));
    ck_assert_ptr_nonnull(strstr(out, "pending   0\n"));
    ck_assert_ptr_nonnull(strstr(out, "failed    1\n"));
    ck_assert_ptr_nonnull(strstr(out, "complete  1\n"));
    ck_assert_ptr_nonnull(strstr(out, "failed 3 times"));
    free(out);
    /* usage: workers take the whole sweep */
    snprintf(cmd, sizeof cmd,
             "cd / && %s sweep %s --worker --shard 0/2 >/dev/null 2>&1",
             tu_bfsim(), cfg);
    ck_assert_int_eq(run_cmd(cmd), 2);
    snprintf(cmd, sizeof cmd,
             "cd / && %s sweep %s --worker --lease 0 >/dev/null 2>&1",
             tu_bfsim(), cfg);
    ck_assert_int_eq(run_cmd(cmd), 2);
    snprintf(cmd, sizeof cmd,
             "cd / && %s sweep %s --lease 5 --list >/dev/null 2>&1", tu_bfsim(),
             cfg);
    ck_assert_int_eq(run_cmd(cmd), 2);
    snprintf(cmd, sizeof cmd,
             "cd / && %s sweep %s --worker --status >/dev/null 2>&1",
             tu_bfsim(), cfg);
    ck_assert_int_eq(run_cmd(cmd), 2);
}
END_TEST

/* The cost model on allocator x nodes, by hand: W = 1 (even), 10 (dp),
 * 100 (milp); run index = 4 x allocator + 2 x nodes + tfwd, costs
 * (even,4)=4, (even,2)=2, (dp,4)=40, (dp,2)=20, (milp,4)=400,
 * (milp,2)=200; "tfwd" enters no cost, so its two values tie and keep
 * expansion order.  Claim order: 400 (runs 8, 9), 200 (10, 11), 40 (4,
 * 5), 20 (6, 7), 4 (0, 1), 2 (2, 3). */
START_TEST(test_order)
{
    const char *d = tu_dir("order"), *cfg = tu_path_in(d, "o.json");
    struct sweep s;
    struct bfs_error e;
    size_t order[12];
    static const size_t want[12] = {8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3};

    tu_write_at(cfg, "{\"allocator\": [\"even\", \"dp\", \"milp\"],\n"
                     " \"nodes\": [4, 2], \"tfwd\": [10, 60]}\n");
    bfs_error_clear(&e);
    ck_assert_int_eq(sweep_load(cfg, &s, &e), 0);
    ck_assert_uint_eq(s.n_runs, 12);
    ck_assert(sweep_cost(&s, 0) == 4);
    ck_assert(sweep_cost(&s, 6) == 20); /* (dp, 2, 10) */
    ck_assert(sweep_cost(&s, 8) == 400);
    sweep_order(&s, order);
    for (size_t i = 0; i < 12; i++)
        ck_assert_uint_eq(order[i], want[i]);
    sweep_release(&s);
    /* model node, and an end - start window of 3600 s */
    tu_write_at(cfg, "{\"allocator\": \"milp\", \"model\": [\"count\", "
                     "\"node\"], \"start\": 1000, \"end\": 4600}\n");
    ck_assert_int_eq(sweep_load(cfg, &s, &e), 0);
    ck_assert(sweep_cost(&s, 0) == 100.0 * 3600);
    ck_assert(sweep_cost(&s, 1) == 1000.0 * 3600);
    sweep_order(&s, order);
    ck_assert_uint_eq(order[0], 1);
    ck_assert_uint_eq(order[1], 0);
    sweep_release(&s);
}
END_TEST

/* ---- four workers, two killed -------------------------------------------- */

/* A CSV table (no quoted fields) without its machine columns. */
static char *csv_without_machine(const char *path)
{
    char *text = tu_slurp(path), *res, *line, *save = NULL;
    int keep[512], row = 0;
    size_t len = 0, dropped = 0;

    ck_assert_msg(text != NULL, "cannot read %s", path);
    ck_assert_ptr_null(strchr(text, '"'));
    res = xcalloc(strlen(text) + 2, 1);
    for (line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save), row++) {
        char *f[512];
        size_t nf = bfs_split(line, ',', f, 512);
        ck_assert_uint_le(nf, 512);
        for (size_t c = 0; c < nf; c++) {
            if (row == 0) {
                keep[c] = !tu_machine_column(f[c]);
                dropped += !keep[c];
            }
            if (keep[c])
                len += (size_t)sprintf(res + len, "%s%s", c ? "," : "", f[c]);
        }
        res[len++] = '\n';
    }
    ck_assert_uint_eq(dropped, TU_MACHINE_COLS);
    free(text);
    return res;
}

/* Starts `bfsim sweep CFG --worker --lease LEASE --out OUT`, its standard
 * output and error to log; returns its pid. */
static pid_t start_worker_lease(const char *cfg, const char *out,
                                const char *log, const char *lease)
{
    pid_t p = fork();

    ck_assert_int_ge(p, 0);
    if (p == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (fd < 0 || dup2(fd, STDERR_FILENO) < 0 ||
            dup2(fd, STDOUT_FILENO) < 0)
            _exit(126);
        execl(tu_bfsim(), "bfsim", "sweep", cfg, "--worker", "--lease", lease,
              "--out", out, (char *)NULL);
        _exit(127);
    }
    return p;
}

static pid_t start_worker(const char *cfg, const char *out, const char *log)
{
    return start_worker_lease(cfg, out, log, "2");
}

/* Waits for the worker pid and returns its exit status (-1: killed). */
static int wait_worker(pid_t pid)
{
    int st;

    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Whether the worker pid holds an open claim (one without an end line)
 * of a run under out/runs.  Reads the claims as text, without asserting:
 * a claim's end line may be half written while it is read. */
static int holds_open_claim(const char *out, pid_t pid)
{
    const char *runs = tu_path_in(out, "runs");
    char want[32];
    DIR *d = opendir(runs);
    struct dirent *e;
    int found = 0;

    if (!d)
        return 0;
    snprintf(want, sizeof want, "\npid %ld\n", (long)pid);
    while (!found && (e = readdir(d))) {
        const char *rd = tu_path_in(runs, e->d_name);
        char name[32], *text;
        int gen = 0;
        if (e->d_name[0] == '.')
            continue;
        /* the run's current claim is its last */
        for (;; gen++) {
            struct stat st;
            snprintf(name, sizeof name, "claim.%d", gen + 1);
            if (stat(tu_path_in(rd, name), &st) != 0)
                break;
        }
        snprintf(name, sizeof name, "claim.%d", gen);
        text = tu_slurp(tu_path_in(rd, name));
        found = text && strstr(text, want) && !strstr(text, "\nend ");
        free(text);
    }
    closedir(d);
    return found;
}

/* 3 allocators x 2 node counts x 2 job limits x 4 horizons = 48 runs of
 * the bundled Summit trace over 3 hours: even and dp take hundredths of
 * a second, milp on 32 nodes with 40 jobs seconds. */
START_TEST(test_kill_workers)
{
    const char *d = tu_dir("kill"), *cfg = tu_path_in(d, "g.json");
    const char *wout = tu_path_in(d, "w"), *one = tu_path_in(d, "one");
    char text[2048], cmd[4096], *a, *b;
    pid_t w[6], killed[2];
    unsigned seed = 16;
    size_t n_runs = 0, takeovers = 0;
    FILE *f;
    char id[64];

    snprintf(text, sizeof text,
             "{\"trace\": \"%s\",\n \"jobs\": \"%s\",\n"
             " \"start\": \"2021-02-10 20:21:15\",\n"
             " \"end\": \"2021-02-10 23:21:15\",\n"
             " \"allocator\": [\"even\", \"dp\", \"milp\"],\n"
             " \"nodes\": [8, 32], \"max-jobs\": [10, 40],\n"
             " \"tfwd\": [10, 60, 300, 1000]}\n",
             tu_src("traces/summit-2021-02.trace.gz"),
             tu_src("datasets/imagenet-imgps-1001J.jobs.gz"));
    tu_write_at(cfg, text);
    for (int i = 0; i < 4; i++) {
        char name[32];
        snprintf(name, sizeof name, "w%d.log", i);
        w[i] = start_worker(cfg, wout, tu_path_in(d, name));
    }
    /* SIGKILL workers 0 and 2 at seeded moments 0.3 to 1.5 s apart, each
     * at the first instant from then on when it holds an open claim (on a
     * loaded machine a worker may not have claimed anything yet, and
     * a kill between runs would leave nothing to take over) */
    killed[0] = w[0];
    killed[1] = w[2];
    for (int k = 0; k < 2; k++) {
        double wait_s = 0.3 + 1.2 * (double)rand_r(&seed) / RAND_MAX;
        struct timespec ts = {(time_t)wait_s,
                              (long)((wait_s - (double)(time_t)wait_s) * 1e9)};
        struct timespec poll = {0, 2000000};
        int st, tries = 0;
        nanosleep(&ts, NULL);
        while (!holds_open_claim(wout, killed[k]) && tries++ < 30000)
            nanosleep(&poll, NULL);
        ck_assert_msg(tries <= 30000, "worker %d never held a claim", k);
        ck_assert_int_eq(kill(killed[k], SIGKILL), 0);
        ck_assert_int_eq(waitpid(killed[k], &st, 0), killed[k]);
        ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    }
    w[4] = start_worker(cfg, wout, tu_path_in(d, "w4.log"));
    w[5] = start_worker(cfg, wout, tu_path_in(d, "w5.log"));
    for (int i = 1; i < 6; i++) {
        int st;
        if (i == 2)
            continue;
        ck_assert_int_eq(waitpid(w[i], &st, 0), w[i]);
        ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
                      "worker %d: status %d", i, st);
    }

    /* the table equals a single process's, machine columns aside */
    snprintf(cmd, sizeof cmd, "%s sweep %s -q -j 2 --out %s", tu_bfsim(), cfg,
             one);
    ck_assert_int_eq(run_cmd(cmd), 0);
    a = csv_without_machine(tu_path_in(wout, "results.csv"));
    b = csv_without_machine(tu_path_in(one, "results.csv"));
    ck_assert_str_eq(a, b);
    free(a);
    free(b);

    /* the claim records, run by run */
    snprintf(cmd, sizeof cmd, "ls %s/runs > %s/ids", wout, d);
    ck_assert_int_eq(run_cmd(cmd), 0);
    f = fopen(tu_path_in(d, "ids"), "r");
    ck_assert_ptr_nonnull(f);
    while (fgets(id, sizeof id, f)) {
        char sub[128];
        const char *rd;
        struct rec prev, cur;
        int gen, done = 0;

        id[strcspn(id, "\n")] = '\0';
        snprintf(sub, sizeof sub, "runs/%s", id);
        rd = tu_path_in(wout, sub);
        n_runs++;
        for (gen = 0; claim_file_read(rd, gen, &cur); gen++) {
            if (gen > 0) {
                /* the previous holder was no longer live when this claim
                 * began: it had ended, or its last heartbeat was a lease
                 * (2 s) before; and only a killed worker leaves a claim
                 * without an end */
                double last = prev.end >= 0 ? prev.end : prev.beat;
                ck_assert_msg(cur.start >= last,
                              "run %s: claim.%d starts at %.3f, before "
                              "claim.%d's holder was gone (%.3f)",
                              id, gen, cur.start, gen - 1, last);
                if (prev.end < 0) {
                    ck_assert(prev.pid == killed[0] || prev.pid == killed[1]);
                    ck_assert(cur.start >= prev.beat + 2);
                    takeovers++;
                }
                ck_assert_msg(strcmp(prev.status, "done") != 0,
                              "run %s: claim.%d done, then claimed again", id,
                              gen - 1);
            }
            done += strcmp(cur.status, "done") == 0;
            prev = cur;
        }
        /* completed exactly once, by its last claim, which ended done:
         * a worker killed between its replay's end and its claim's end
         * left an open claim on a complete run, and the next worker to
         * meet it reconciled it (claim.N+1, done) rather than leave it
         * open or run it again */
        ck_assert_msg(gen >= 1, "run %s never claimed", id);
        ck_assert_msg(prev.end >= 0,
                      "run %s: its last claim (claim.%d) was left open", id,
                      gen - 1);
        ck_assert_msg(done == 1 && strcmp(prev.status, "done") == 0,
                      "run %s: %d done attempts, last %s", id, done,
                      prev.status);
    }
    fclose(f);
    ck_assert_uint_eq(n_runs, 48);
    /* each killed worker was running a run, which another took over */
    ck_assert_uint_ge(takeovers, 1);
}
END_TEST

/* ---- one worker stalled or killed at a chosen moment --------------------- */

/* Two runs of the tiny sweep: nodes 1 and 2. */
#define TINY2                                                                  \
    "{\"trace\": \"tiny.trace\", \"jobs\": \"tiny.jobs\",\n"                   \
    " \"compat\": \"bftrainer\", \"allocator\": \"even\",\n"                   \
    " \"nodes\": [1, 2]}\n"

/* Whether name is a file of one attempt at a run rather than of the run:
 * a temporary file, or a file named after its claim. */
static int attempt_file(const char *name)
{
    return strstr(name, ".tmp.") || strstr(name, ".claim");
}

/* Every run under out/runs (n of them) was done exactly once, by its last
 * claim, is complete, and keeps no file of any attempt. */
static void check_done_once(const char *out, size_t n)
{
    const char *runs = tu_path_in(out, "runs");
    DIR *d = opendir(runs), *rd;
    struct dirent *e, *f;
    size_t seen = 0;

    ck_assert_ptr_nonnull(d);
    while ((e = readdir(d))) {
        const char *dir = tu_path_in(runs, e->d_name);
        struct rec r;
        char *sum;
        int gen, done = 0;
        if (e->d_name[0] == '.')
            continue;
        seen++;
        for (gen = 0; claim_file_read(dir, gen, &r); gen++)
            done += strcmp(r.status, "done") == 0;
        ck_assert_msg(gen >= 1 && done == 1 && strcmp(r.status, "done") == 0,
                      "run %s: %d claims, %d done, the last %s", e->d_name, gen,
                      done, gen ? r.status : "none");
        sum = tu_slurp(tu_path_in(dir, "summary.json"));
        ck_assert_ptr_nonnull(sum);
        ck_assert_ptr_nonnull(strstr(sum, "\"partial\": false"));
        free(sum);
        rd = opendir(dir);
        ck_assert_ptr_nonnull(rd);
        while ((f = readdir(rd)))
            ck_assert_msg(!attempt_file(f->d_name), "run %s: %s left behind",
                          e->d_name, f->d_name);
        closedir(rd);
    }
    closedir(d);
    ck_assert_uint_eq(seen, n);
}

#ifdef __linux__

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};

    nanosleep(&ts, NULL);
}

/* The fields of /proc/PID/stat after the command name ("S PPID ..."), or
 * NULL when there is no such process. */
static char *proc_stat_tail(pid_t pid, char *buf, size_t size)
{
    char path[64], *p;
    size_t n;
    FILE *f;

    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    if (!(f = fopen(path, "r")))
        return NULL;
    n = fread(buf, 1, size - 1, f);
    fclose(f);
    buf[n] = '\0';
    p = strrchr(buf, ')'); /* the command name may hold anything */
    return p && p[1] == ' ' ? p + 2 : NULL;
}

/* The state letter of process pid ('T' stopped, 'Z' ended but not
 * waited for), or 0 when there is none. */
static char proc_state(pid_t pid)
{
    char buf[1024], *t = proc_stat_tail(pid, buf, sizeof buf);

    return t ? t[0] : 0;
}

/* A child of process parent (the first one /proc lists), or 0. */
static pid_t child_of(pid_t parent)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    pid_t found = 0;

    ck_assert_ptr_nonnull(d);
    while (!found && (e = readdir(d))) {
        char buf[1024], *t, *end;
        long pid = strtol(e->d_name, &end, 10), ppid;
        if (*end || pid <= 0)
            continue;
        t = proc_stat_tail((pid_t)pid, buf, sizeof buf);
        if (t && sscanf(t, "%*c %ld", &ppid) == 1 && ppid == (long)parent)
            found = (pid_t)pid;
    }
    closedir(d);
    return found;
}

/* A worker stopped (SIGSTOP) in the middle of a run, as a host that
 * stalls: its replay has created its HDF5 output's temporary file and
 * waits to read the trace, a FIFO in the worker's configuration folder
 * a/ that the test holds open; b/ holds the same configuration with a
 * regular trace, for the other workers. */
struct stall {
    const char *d, *a_cfg, *b_cfg, *out, *fifo;
    int fifo_fd;  /* the test's end of the FIFO */
    int guard_fd; /* the stall_guard's pipe */
    pid_t guard;
    const char *run; /* the directory of the run it was running */
    pid_t worker, replay;
    char own[8][256]; /* its attempt's files at the stop */
    size_t n_own;
};

/* Looks for the stalled attempt under w->out/runs: sets w->run and
 * w->own once a replay's HDF5 temporary file is there. */
static int stall_find(struct stall *w)
{
    const char *runs = tu_path_in(w->out, "runs");
    DIR *d = opendir(runs), *rd;
    struct dirent *e, *f;

    if (!d)
        return 0;
    while (!w->run && (e = readdir(d))) {
        const char *dir = tu_path_in(runs, e->d_name);
        if (e->d_name[0] == '.' || !(rd = opendir(dir)))
            continue;
        while ((f = readdir(rd)))
            if (strncmp(f->d_name, "run.h5.", 7) == 0 &&
                strstr(f->d_name, ".tmp."))
                w->run = dir;
        closedir(rd);
    }
    closedir(d);
    if (!w->run)
        return 0;
    w->n_own = 0;
    rd = opendir(w->run);
    ck_assert_ptr_nonnull(rd);
    while ((f = readdir(rd)))
        if (attempt_file(f->d_name) && w->n_own < 8)
            snprintf(w->own[w->n_own++], sizeof w->own[0], "%s", f->d_name);
    closedir(rd);
    return 1;
}

/* A process that kills w->worker and its replay (SIGKILL) when the test
 * ends without stall_done(), a failed assertion among others, so that no
 * stopped worker or replay waiting on the FIFO is left behind.  It waits
 * on a pipe whose writing end only the test holds, for the replay's pid
 * and then 0 (done), in a process group of its own: Check kills the test
 * process's group (the worker with it) when the test ends. */
static void stall_guard(struct stall *w)
{
    int p[2];

    ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
    w->guard = fork();
    ck_assert_int_ge(w->guard, 0);
    if (w->guard == 0) {
        pid_t msg, replay = 0;
        setpgid(0, 0);
        close(p[1]);
        close(w->fifo_fd);
        while (read(p[0], &msg, sizeof msg) == (ssize_t)sizeof msg) {
            if (msg == 0)
                _exit(0);
            replay = msg;
        }
        kill(w->worker, SIGKILL);
        if (replay > 0)
            kill(replay, SIGKILL);
        _exit(0);
    }
    close(p[0]);
    w->guard_fd = p[1];
}

/* Tells the guard a pid to kill, or (0) that the test is over. */
static void stall_tell(struct stall *w, pid_t pid)
{
    ck_assert_int_eq(write(w->guard_fd, &pid, sizeof pid), (ssize_t)sizeof pid);
}

/* The test is over: the guard goes without killing anything. */
static void stall_done(struct stall *w)
{
    stall_tell(w, 0);
    close(w->guard_fd);
    ck_assert_int_eq(wait_worker(w->guard), 0);
}

static void stall_start(const char *name, struct stall *w)
{
    char sub[64];
    const char *a, *b;
    int tries = 0;

    memset(w, 0, sizeof *w);
    w->d = tu_dir(name);
    snprintf(sub, sizeof sub, "%s/a", name);
    a = tu_dir(sub);
    snprintf(sub, sizeof sub, "%s/b", name);
    b = tu_dir(sub);
    tu_tiny_inputs(a);
    tu_tiny_inputs(b);
    w->fifo = tu_path_in(a, "tiny.trace");
    ck_assert_int_eq(unlink(w->fifo), 0);
    ck_assert_int_eq(mkfifo(w->fifo, 0666), 0);
    w->fifo_fd = open(w->fifo, O_RDWR | O_CLOEXEC); /* Linux: no wait */
    ck_assert_int_ge(w->fifo_fd, 0);
    w->a_cfg = tu_path_in(a, "c.json");
    w->b_cfg = tu_path_in(b, "c.json");
    tu_write_at(w->a_cfg, TINY2);
    tu_write_at(w->b_cfg, TINY2);
    w->out = tu_path_in(w->d, "out");
    w->worker =
        start_worker_lease(w->a_cfg, w->out, tu_path_in(w->d, "a.log"), "5");
    stall_guard(w);
    /* up to a minute: the worker may run under valgrind */
    while (!stall_find(w) && tries++ < 30000)
        sleep_ms(2);
    ck_assert_msg(w->run != NULL, "the worker's replay never started");
    ck_assert_int_eq(kill(w->worker, SIGSTOP), 0);
    for (tries = 0; proc_state(w->worker) != 'T' && tries < 30000; tries++)
        sleep_ms(2);
    ck_assert_int_eq(proc_state(w->worker), 'T');
    w->replay = child_of(w->worker);
    ck_assert_int_gt(w->replay, 0);
    stall_tell(w, w->replay);
    ck_assert(stall_find(w));
}

/* Lets the stalled attempt's replay go on (the trace becomes a regular
 * file for its next reads, and its read of the FIFO gets the text) and
 * waits until it has ended, not yet waited for by its stopped worker. */
static void stall_release(struct stall *w)
{
    const char *real = tu_path_in(w->d, "a/real.trace");
    char *text = tu_slurp(tu_path_in(w->d, "b/tiny.trace"));
    int tries;

    ck_assert_ptr_nonnull(text);
    tu_write_at(real, text);
    ck_assert_int_eq(rename(real, w->fifo), 0);
    ck_assert_int_eq(write(w->fifo_fd, text, strlen(text)),
                     (ssize_t)strlen(text));
    close(w->fifo_fd);
    free(text);
    for (tries = 0; proc_state(w->replay) != 'Z' && tries < 30000; tries++)
        sleep_ms(2);
    ck_assert_int_eq(proc_state(w->replay), 'Z');
}

/* A worker stalls (SIGSTOP) with its replay waiting on its input; its
 * claim's heartbeat stops, and a second worker takes the run over and
 * runs both runs without touching the stalled attempt's files (its HDF5
 * temporary file among them).  Then the stalled replay completes, and
 * its worker, continued (SIGCONT), finds its claim taken over: it ends
 * the claim "lost", not "done" and not "failed" (no retry used), removes
 * its own files and exits 0. */
START_TEST(test_stalled_worker)
{
    struct stall w;
    struct rec r;
    char *log;

    stall_start("stalled", &w);
    ck_assert_uint_ge(w.n_own, 1);
    /* the stalled claim looks dead: no heartbeat for 100 s */
    set_mtime(tu_path_in(w.run, "claim.0"), 100);
    ck_assert_int_eq(wait_worker(start_worker_lease(
                         w.b_cfg, w.out, tu_path_in(w.d, "b.log"), "5")),
                     0);
    for (size_t i = 0; i < w.n_own; i++)
        ck_assert_msg(tu_exists(tu_path_in(w.run, w.own[i])),
                      "the taker removed %s of the stalled attempt", w.own[i]);
    ck_assert_int_eq(claim_file_read(w.run, 1, &r), 1);
    ck_assert_str_eq(r.status, "done");

    stall_release(&w);
    ck_assert_int_eq(kill(w.worker, SIGCONT), 0);
    ck_assert_int_eq(wait_worker(w.worker), 0);
    ck_assert_int_eq(claim_file_read(w.run, 0, &r), 1);
    ck_assert_str_eq(r.status, "lost");
    ck_assert_int_eq(claim_file_read(w.run, 1, &r), 1);
    ck_assert_str_eq(r.status, "done");
    ck_assert_int_eq(claim_file_read(w.run, 2, &r), 0);
    check_done_once(w.out, 2);
    log = tu_slurp(tu_path_in(w.d, "a.log"));
    ck_assert_ptr_nonnull(log);
    ck_assert_msg(!strstr(log, "failed"), "stalled worker: %s", log);
    free(log);
    stall_done(&w);
}
END_TEST

/* A worker is killed between its replay's end and its claim's end: the
 * replay has written its outputs, whole, and exited, and its worker
 * (stopped meanwhile) dies before it has seen so.  The next worker meets
 * the open claim once it is stale and reconciles the run as done from
 * those outputs (claim.1, "done ... reconciled"), without running it
 * again: the run's summary is the killed attempt's file. */
START_TEST(test_kill_after_replay)
{
    struct stall w;
    struct stat before, after;
    struct rec r;
    DIR *rd;
    struct dirent *f;
    const char *sum = NULL;
    char *log;

    stall_start("afterreplay", &w);
    stall_release(&w);
    ck_assert_int_eq(kill(w.worker, SIGKILL), 0);
    ck_assert_int_eq(wait_worker(w.worker), -1);
    /* the complete summary the replay wrote, under whatever name */
    rd = opendir(w.run);
    ck_assert_ptr_nonnull(rd);
    while ((f = readdir(rd)))
        if (strncmp(f->d_name, "summary.json", 12) == 0 &&
            !strstr(f->d_name, ".tmp."))
            sum = tu_path_in(w.run, f->d_name);
    closedir(rd);
    ck_assert_ptr_nonnull(sum);
    ck_assert_int_eq(stat(sum, &before), 0);

    set_mtime(tu_path_in(w.run, "claim.0"), 100);
    ck_assert_int_eq(wait_worker(start_worker_lease(
                         w.b_cfg, w.out, tu_path_in(w.d, "b.log"), "5")),
                     0);
    ck_assert_int_eq(claim_file_read(w.run, 0, &r), 1);
    ck_assert(r.end < 0); /* its worker died */
    ck_assert_int_eq(claim_file_read(w.run, 1, &r), 1);
    ck_assert_str_eq(r.status, "done");
    ck_assert(r.reconciled);
    ck_assert_int_eq(claim_file_read(w.run, 2, &r), 0);
    ck_assert_int_eq(stat(tu_path_in(w.run, "summary.json"), &after), 0);
    ck_assert_msg(after.st_ino == before.st_ino,
                  "the run was run again (its summary is a new file)");
    check_done_once(w.out, 2);
    log = tu_slurp(tu_path_in(w.d, "b.log"));
    ck_assert_ptr_nonnull(log);
    ck_assert_ptr_nonnull(strstr(log, "reconciled"));
    free(log);
    stall_done(&w);
}
END_TEST
#endif /* __linux__ */

/* The run directories under out/runs, at most max, in dirs[]. */
static size_t run_dirs(const char *out, const char **dirs, size_t max)
{
    const char *runs = tu_path_in(out, "runs");
    DIR *d = opendir(runs);
    struct dirent *e;
    size_t n = 0;

    ck_assert_ptr_nonnull(d);
    while ((e = readdir(d)))
        if (e->d_name[0] != '.' && n < max)
            dirs[n++] = tu_path_in(runs, e->d_name);
    closedir(d);
    return n;
}

/* Complete runs with open claims, as a worker killed after publishing
 * them and before ending its claim leaves them: one whose holder (on
 * another host) has been silent for 100 s, one whose last heartbeat was
 * 1.7 s ago, fresh for a lease of 2 s for 0.3 s more.  A worker
 * reconciles both as done (claim.1, "done ... reconciled"), the second
 * only once its claim is stale, and runs neither again. */
START_TEST(test_reconcile_open_claim)
{
    const char *d = tu_dir("reconcile"), *cfg = tu_path_in(d, "c.json");
    const char *out = tu_path_in(d, "o"), *dirs[4];
    struct stat before[2], after;
    struct bfs_error e;
    char cmd[4096];
    struct rec r0, r1;

    tu_tiny_inputs(d);
    tu_write_at(cfg, TINY2);
    snprintf(cmd, sizeof cmd, "cd / && %s sweep %s -q --out %s", tu_bfsim(),
             cfg, out);
    ck_assert_int_eq(run_cmd(cmd), 0);
    ck_assert_uint_eq(run_dirs(out, dirs, 4), 2);
    bfs_error_clear(&e);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(
            claim_take(dirs[i], 0, "elsewhere", 4242 + i, claim_now(), &e), 0);
        set_mtime(tu_path_in(dirs[i], "claim.0"), i == 0 ? 100 : 1.7);
        ck_assert_int_eq(stat(tu_path_in(dirs[i], "summary.json"), &before[i]),
                         0);
    }
    ck_assert_int_eq(
        wait_worker(start_worker(cfg, out, tu_path_in(d, "w.log"))), 0);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(claim_file_read(dirs[i], 0, &r0), 1);
        ck_assert(r0.end < 0);
        ck_assert_msg(claim_file_read(dirs[i], 1, &r1) == 1,
                      "run %d: the open claim was not reconciled", i);
        ck_assert_str_eq(r1.status, "done");
        ck_assert(r1.reconciled);
        ck_assert_msg(r1.start >= r0.beat + 2,
                      "run %d: reconciled at %.3f, before claim.0 was stale "
                      "(%.3f)",
                      i, r1.start, r0.beat + 2);
        ck_assert_int_eq(claim_file_read(dirs[i], 2, &r1), 0);
        ck_assert_int_eq(stat(tu_path_in(dirs[i], "summary.json"), &after), 0);
        ck_assert(after.st_ino == before[i].st_ino);
        ck_assert(after.st_mtim.tv_sec == before[i].st_mtim.tv_sec &&
                  after.st_mtim.tv_nsec == before[i].st_mtim.tv_nsec);
    }
    check_done_once(out, 2);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("worker");
    TCase *tc = tcase_create("claims");
    TCase *tr = tcase_create("workers");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_claim_exclusive);
    tcase_add_test(tc, test_takeover_race);
    tcase_add_test(tc, test_claim_holder);
    tcase_add_test(tc, test_retries_state);
    tcase_add_test(tc, test_order);
    suite_add_tcase(s, tc);
    tcase_set_timeout(tr, 240);
    tcase_add_test(tr, test_retries_worker);
    tcase_add_test(tr, test_kill_workers);
#ifdef __linux__ /* /proc, a FIFO opened O_RDWR, pipe2 */
    tcase_add_test(tr, test_stalled_worker);
    tcase_add_test(tr, test_kill_after_replay);
#endif
    tcase_add_test(tr, test_reconcile_open_claim);
    suite_add_tcase(s, tr);
    return tu_run(s);
}
