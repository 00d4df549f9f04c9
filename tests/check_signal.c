/* check_signal.c - `bfsim replay` as a person at a terminal sees it: the
 * progress line (on a terminal only, never with -q), and Ctrl-C.
 *
 * The program runs as a child process.  A terminal is a pseudo-terminal
 * (posix_openpt) whose slave side is the child's standard error; its
 * echo and output processing are turned off so that the bytes read from
 * the master are the bytes bfsim wrote.  For Ctrl-C the child starts a
 * session and takes the pseudo-terminal as its controlling terminal, and
 * the test types ^C on it: the line discipline then sends SIGINT to the
 * whole foreground process group (bfsim and its solver process), as a
 * real terminal does.
 *
 * The progress line (cmd_replay.c, show_progress) is
 *     "\r<events> events, at <YYYY-MM-DD HH:MM:SS>, <rate> events/s,
 *      <p>% done, <s> s left   "          (one line; "? left" at first)
 * written after an event when at least 0.5 s of wall time passed since
 * the start or the last line; the replay's end erases it with "\r\033[K".
 * Each line is checked against the step log (the date is the time of the
 * event it counts, the share done is the step log's Thr so far over the
 * job set's work) and against the wall time measured here.
 *
 * The runs that must show no progress line (-q, a pipe, a file) are
 * stopped by SIGINT 1.5 s after they opened their outputs, three times
 * the delay before a first line, so they need not run to the end.
 */
#include "config.h"

#include "solver/solver.h"
#include "testh5.h"
#include "testjson.h"
#include "testutil.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <jansson.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#define TRACE "traces/summit-2021-02.trace.gz"
#define JOBS1000 "datasets/hps-shufflenet-1000J.jobs.gz"
#define N_JOBS1000 1000
#define STEPS_HEADER                                                           \
    "evtTime,Thr,Rate,ReScost,evt,Nleft,Npre,Njoin,nJob,nNd,nJrun,nNrun,"      \
    "PreCost"
#define INTERRUPTED "bfsim replay: interrupted; results are partial\n"

/* ---- running bfsim ---------------------------------------------------- */

/* What the child's standard error is. */
enum err_kind {
    ERR_PTY,  /* a pseudo-terminal */
    ERR_CTTY, /* a pseudo-terminal, also the controlling terminal */
    ERR_PIPE,
    ERR_FILE,
};

/* When to interrupt the child. */
enum intr_kind {
    INTR_NONE,
    INTR_CTRL_C, /* type ^C after the first progress line */
    INTR_SIGNAL, /* kill(pid, sig) once the replay has started */
};

struct run {
    /* in */
    enum err_kind err;
    enum intr_kind intr;
    const char *err_file; /* ERR_FILE */
    const char *watch;    /* INTR_SIGNAL: directory whose temporary
                             output file shows that the replay started */
    double delay;         /* INTR_SIGNAL: seconds to wait after that */
    int sig;              /* INTR_SIGNAL: the signal sent */
    /* out */
    int status; /* wait status */
    char *out;  /* what was read from the terminal or pipe (malloc'd) */
    size_t len;
    double wall; /* seconds from fork to exit */
    int saw_tmp; /* INTR_SIGNAL: a temporary output file was seen */
};

/* Whether directory dir holds a file whose name contains ".tmp.". */
static int has_tmp_file(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int found = 0;

    ck_assert_ptr_nonnull(d);
    while ((de = readdir(d)))
        found |= strstr(de->d_name, ".tmp.") != NULL;
    closedir(d);
    return found;
}

/* Whether this system gives pseudo-terminals (a container may not). */
static int have_pty(void)
{
    int fd = posix_openpt(O_RDWR | O_NOCTTY);

    if (fd < 0) {
        printf("skipped: no pseudo-terminal (%s)\n", strerror(errno));
        return 0;
    }
    close(fd);
    return 1;
}

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* Runs bfsim with argv (argv[0] included, NULL-terminated), standard
 * output to /dev/null, standard error as r->err says, interrupting it as
 * r->intr says; fills r's outputs.  Fails the test if the child runs past
 * timeout seconds (times tu_slowdown()). */
static void run_bfsim(char *const argv[], struct run *r, double timeout)
{
    int master = -1, pfd[2] = {-1, -1}, fd = -1, exited = 0;
    const char *slave = NULL;
    size_t cap = 0;
    double t0, sent_at = -1.0;
    pid_t pid;

    timeout *= tu_slowdown();
    r->out = NULL;
    r->len = 0;
    r->saw_tmp = 0;
    if (r->err == ERR_PTY || r->err == ERR_CTTY) {
        struct termios tio;
        master = posix_openpt(O_RDWR | O_NOCTTY);
        ck_assert_int_ge(master, 0);
        ck_assert_int_eq(grantpt(master), 0);
        ck_assert_int_eq(unlockpt(master), 0);
        slave = ptsname(master);
        ck_assert_ptr_nonnull(slave);
        slave = tu_arg(slave);
        /* the bytes as written: no echo of ^C, no \n -> \r\n; ISIG (and
         * VINTR = ^C) stay on */
        ck_assert_int_eq(tcgetattr(master, &tio), 0);
        tio.c_lflag &= ~(tcflag_t)(ECHO | ECHOE | ECHOK | ECHONL | ECHOCTL);
        tio.c_lflag |= ISIG;
        tio.c_oflag &= ~(tcflag_t)OPOST;
        tio.c_cc[VINTR] = 3;
        ck_assert_int_eq(tcsetattr(master, TCSANOW, &tio), 0);
        fd = master;
    } else if (r->err == ERR_PIPE) {
        ck_assert_int_eq(pipe(pfd), 0);
        fd = pfd[0];
    }
    fflush(NULL);
    t0 = bfs_now();
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int out = open("/dev/null", O_RDWR), err = -1;
        if (r->err == ERR_CTTY) {
            if (setsid() < 0)
                _exit(126);
            err = open(slave, O_RDWR); /* becomes the controlling tty */
            if (err < 0 || dup2(err, 0) < 0)
                _exit(126);
        } else if (r->err == ERR_PTY) {
            err = open(slave, O_RDWR | O_NOCTTY);
            if (err >= 0 && dup2(out, 0) < 0)
                _exit(126);
        } else if (r->err == ERR_PIPE) {
            err = pfd[1];
            close(pfd[0]);
        } else {
            err = open(r->err_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        }
        if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
            _exit(126);
        if (master >= 0)
            close(master);
        if (err > 2)
            close(err);
        if (out > 2)
            close(out);
        execv(argv[0], argv);
        _exit(127);
    }
    if (pfd[1] >= 0)
        close(pfd[1]);

    for (;;) {
        int st;
        if (fd >= 0) {
            struct pollfd p = {.fd = fd, .events = POLLIN};
            int rc = poll(&p, 1, 50);
            if (rc > 0) {
                ssize_t k;
                BFS_GROW(r->out, cap, r->len + 4097);
                k = read(fd, r->out + r->len, 4096);
                if (k > 0)
                    r->len += (size_t)k;
                else if (k == 0 || errno == EIO)
                    fd = -1; /* every writer is gone */
            }
        } else {
            sleep_s(0.05);
        }
        if (!exited && waitpid(pid, &st, WNOHANG) == pid) {
            exited = 1;
            r->status = st;
            r->wall = bfs_now() - t0;
        }
        if (exited) {
            /* the solver's process may still hold the terminal or pipe
             * for a moment: read what is there, without waiting */
            if (fd >= 0) {
                fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
                for (;;) {
                    ssize_t k;
                    BFS_GROW(r->out, cap, r->len + 4097);
                    k = read(fd, r->out + r->len, 4096);
                    if (k <= 0)
                        break;
                    r->len += (size_t)k;
                }
            }
            break;
        }
        if (bfs_now() - t0 > timeout) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            ck_abort_msg("bfsim ran past %g s", timeout);
        }
        if (sent_at < 0 && r->intr == INTR_CTRL_C && r->len > 0 &&
            memchr(r->out, '\r', r->len) &&
            memmem(r->out, r->len, " events/s", 9)) {
            ck_assert_int_eq(write(master, "\003", 1), 1);
            sent_at = bfs_now();
        }
        if (sent_at < 0 && r->intr == INTR_SIGNAL && r->watch) {
            if (has_tmp_file(r->watch)) {
                /* the handler is set before any output is opened; let
                 * the replay run a moment */
                r->saw_tmp = 1;
                sleep_s(r->delay);
                ck_assert_int_eq(kill(pid, r->sig), 0);
                sent_at = bfs_now();
            }
        }
    }
    if (r->out)
        r->out[r->len] = '\0';
    else
        r->out = xcalloc(1, 1);
    if (master >= 0)
        close(master);
    if (pfd[0] >= 0)
        close(pfd[0]);
    if (r->intr != INTR_NONE)
        ck_assert_msg(sent_at > 0, "the replay ended before it could be "
                                   "interrupted");
}

/* ---- reading the outputs ------------------------------------------------ */

/* The step log's event times, checking that every line is whole: the
 * header, then rows of 13 fields numbered 1, 2, ..., each ending in a
 * newline.  Returns the times (malloc'd), their number in *n, and in
 * *cum (malloc'd) the samples trained up to each event (the sum of Thr).
 */
static int64_t *read_steps(const char *path, size_t *n, double **cum)
{
    char *text = tu_slurp(path), *line, *next;
    int64_t *t = NULL;
    double *c = NULL;
    size_t cap = 0, cap_c = 0;

    ck_assert_msg(text != NULL, "no step log %s", path);
    *n = 0;
    ck_assert_msg(strncmp(text, STEPS_HEADER "\n", strlen(STEPS_HEADER) + 1) ==
                      0,
                  "%s: bad header", path);
    line = text + strlen(STEPS_HEADER) + 1;
    for (; *line; line = next) {
        char *nl = strchr(line, '\n'), *f = line;
        int fields = 1;
        long evt;
        ck_assert_msg(nl != NULL, "%s: the last line is cut: '%s'", path, line);
        *nl = '\0';
        next = nl + 1;
        for (const char *q = line; *q; q++)
            fields += *q == ',';
        ck_assert_msg(fields == 13, "%s: %d fields in '%s'", path, fields,
                      line);
        BFS_GROW(t, cap, *n + 1);
        BFS_GROW(c, cap_c, *n + 1);
        t[*n] = tu_parse_time(f);
        f = strchr(line, ',') + 1;
        c[*n] = (*n ? c[*n - 1] : 0.0) + strtod(f, NULL);
        for (int i = 0; i < 3; i++)
            f = strchr(f, ',') + 1;
        evt = strtol(f, NULL, 10);
        ck_assert_int_eq(evt, (long)*n + 1);
        (*n)++;
    }
    free(text);
    *cum = c;
    return t;
}

/* The total work of a job set: the sum of its Pmax column. */
static double jobs_work(const char *path)
{
    gzFile g = gzopen(path, "rb");
    char line[65536];
    int col = -1;
    double w = 0.0;

    ck_assert_ptr_nonnull(g);
    while (gzgets(g, line, sizeof line)) {
        char *f = line;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (col < 0) {
            for (col = 0; strncmp(f, "pmax,", 5) != 0; col++) {
                f = strchr(f, ',');
                ck_assert_msg(f != NULL, "%s: no pmax column", path);
                f++;
            }
            continue;
        }
        for (int i = 0; i < col; i++)
            f = strchr(f, ',') + 1;
        w += strtod(f, NULL);
    }
    gzclose(g);
    ck_assert(w > 0);
    return w;
}

/* The job log: a header and one whole row of 13 fields per job. */
static void check_joblog(const char *path, size_t jobs)
{
    char *text = tu_slurp(path), *line, *next;
    size_t rows = 0;

    ck_assert_msg(text != NULL, "no job log %s", path);
    ck_assert_int_eq(strncmp(text, "job,tsub,", 9), 0);
    line = strchr(text, '\n');
    ck_assert_ptr_nonnull(line);
    for (line++; *line; line = next) {
        char *nl = strchr(line, '\n');
        int fields = 1;
        ck_assert_msg(nl != NULL, "%s: the last line is cut", path);
        next = nl + 1;
        for (char *c = line; c < nl; c++)
            fields += *c == ',';
        ck_assert_int_eq(fields, 14);
        rows++;
    }
    ck_assert_uint_eq(rows, jobs);
    free(text);
}

/* The last event time of a trace (its last line's first field). */
static int64_t trace_last_time(const char *path)
{
    gzFile g = gzopen(path, "rb");
    char line[65536];
    long long last = -1;

    ck_assert_ptr_nonnull(g);
    while (gzgets(g, line, sizeof line))
        if (line[0] >= '0' && line[0] <= '9')
            last = strtoll(line, NULL, 10);
    gzclose(g);
    ck_assert_int_gt(last, 0);
    return (int64_t)last;
}

static const char *mkdir_tmp(const char *name)
{
    const char *d = tu_tmp(name);
    ck_assert_int_eq(mkdir(d, 0755), 0);
    return d;
}

static const char *in_dir(const char *dir, const char *name)
{
    char *p = tu_keep(xmalloc(strlen(dir) + strlen(name) + 2));
    sprintf(p, "%s/%s", dir, name);
    return p;
}

/* ---- the progress line -------------------------------------------------- */

/* argv of a replay of the 1000-job set on the full trace with the dp
 * allocator (about 2 s here, long enough for a few progress lines),
 * with --steps and --summary in dir and extra options. */
static char **replay_argv(const char *dir, const char *extra1,
                          const char *extra2)
{
    char **argv = xcalloc(24, sizeof *argv);

    tu_keep((void *)argv);
    int n = 0;

    argv[n++] = tu_arg(tu_bfsim());
    argv[n++] = tu_arg("replay");
    argv[n++] = tu_arg("--trace");
    argv[n++] = tu_arg(tu_src(TRACE));
    argv[n++] = tu_arg("--jobs");
    argv[n++] = tu_arg(tu_src(JOBS1000));
    argv[n++] = tu_arg("--allocator");
    argv[n++] = tu_arg("dp");
    argv[n++] = tu_arg("--steps");
    argv[n++] = tu_arg(in_dir(dir, "steps.csv"));
    argv[n++] = tu_arg("--summary");
    argv[n++] = tu_arg(in_dir(dir, "summary.json"));
    if (extra1)
        argv[n++] = tu_arg(extra1);
    if (extra2)
        argv[n++] = tu_arg(extra2);
    argv[n] = NULL;
    return argv;
}

/* One progress line. */
struct pline {
    long events, rate, pct;
    int64_t when;
    long eta; /* seconds left, -1 for "?" */
};

/* Matches one progress line (without its leading \r) exactly: returns 1
 * and its numbers, or 0. */
static int parse_progress(const char *s, size_t len, struct pline *pl)
{
    char buf[256], date[20], eta[32], again[256];
    int end = -1;

    if (len >= sizeof buf)
        return 0;
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (sscanf(buf, "%ld events, at %19[-0-9: ], %ld events/s, %ld%% done, %n",
               &pl->events, date, &pl->rate, &pl->pct, &end) != 4 ||
        end < 0)
        return 0;
    pl->when = tu_parse_time(date);
    if (strcmp(buf + end, "? left   ") == 0)
        pl->eta = -1;
    else if (sscanf(buf + end, "%ld s left", &pl->eta) != 1 || pl->eta < 0)
        return 0;
    if (pl->eta < 0)
        snprintf(eta, sizeof eta, "?");
    else
        snprintf(eta, sizeof eta, "%ld s", pl->eta);
    /* the same text again, from the numbers: nothing else in the line */
    snprintf(again, sizeof again,
             "%ld events, at %s, %ld events/s, %ld%% done, %s left   ",
             pl->events, date, pl->rate, pl->pct, eta);
    return strcmp(again, buf) == 0;
}

/* Checks a terminal's output: progress lines, then the erasure, then
 * tail (or nothing).  times and cum are the step log's (read_steps),
 * work the job set's.  Returns the number of progress lines.
 *
 * A line comes after an event (number, date) once at least 0.5 s of wall
 * time passed since the start or the last line.  With el the seconds
 * since the start (0.5 <= el <= the run's wall time) and f the share
 * done, the furthest of the job set's work done (w) and the trace file
 * read (no --end here; the share read depends on zlib's read-ahead, so
 * the test knows only that f >= w and f is within 0.5% of the share
 * shown):
 *     events/s = events / el,   done = 100 f %,
 *     left = el (1 - f) / f seconds, or "?" while f <= 0.001;
 * each printed with %.0f. */
static size_t check_progress(const struct run *r, const int64_t *times,
                             const double *cum, size_t n_events, double work,
                             int64_t t0, const char *tail)
{
    const char *p = r->out, *end = r->out + r->len;
    const char *erase = "\r\033[K";
    size_t lines = 0;
    long last_ev = 0;
    int64_t last_t = t0;

    ck_assert_msg(r->len >= strlen(erase), "no output on the terminal");
    ck_assert_msg(*p == '\r',
                  "output does not start with a progress line: '%s'", r->out);
    while (p < end && strncmp(p, erase, strlen(erase)) != 0) {
        const char *q;
        struct pline pl;
        double f, w, lo, hi;
        ck_assert_int_eq(*p, '\r');
        p++;
        q = memchr(p, '\r', (size_t)(end - p));
        ck_assert_msg(q != NULL, "the progress line is not erased");
        ck_assert_msg(parse_progress(p, (size_t)(q - p), &pl),
                      "not a progress line: '%.*s'", (int)(q - p), p);
        /* event pl.events is done; its time is the date shown */
        ck_assert_int_gt(pl.events, last_ev);
        ck_assert_int_le(pl.events, (long)n_events);
        ck_assert_msg(pl.when == times[pl.events - 1],
                      "progress at event %ld shows %lld, the step log %lld",
                      pl.events, (long long)pl.when,
                      (long long)times[pl.events - 1]);
        ck_assert_int_ge(pl.when, last_t);
        /* events / el */
        ck_assert_msg(pl.rate <= 2 * pl.events + 1 &&
                          (double)pl.rate >= (double)pl.events / r->wall - 1.0,
                      "rate %ld events/s at event %ld after at most %.2f s",
                      pl.rate, pl.events, r->wall);
        /* at least the share of the work done */
        w = cum[pl.events - 1] / work;
        ck_assert_msg((double)pl.pct >= 100.0 * w - 0.5 - 1e-6,
                      "%ld%% done at event %ld, the step log says %.4f%%",
                      pl.pct, pl.events, 100.0 * w);
        /* the time left, from el bounded by the wall time and by the
         * rate shown, and f by the share shown and w */
        f = fmax(w, ((double)pl.pct - 0.5) / 100.0);
        if (pl.eta == -1) {
            ck_assert_msg(pl.pct == 0 && w < 0.00101,
                          "no time left shown at %ld%% done, %.6f of the work",
                          pl.pct, w);
        } else if (f > 0.00101) {
            ck_assert_msg(pl.eta >= 0, "no time left shown at %.6f done", f);
            lo = fmax(0.5, (double)pl.events / ((double)pl.rate + 0.5));
            hi = r->wall;
            if (pl.rate > 1)
                hi = fmin(hi, (double)pl.events / ((double)pl.rate - 0.5));
            lo = lo * (1.0 - ((double)pl.pct + 0.5) / 100.0) /
                     (((double)pl.pct + 0.5) / 100.0) * 0.99 -
                 0.5;
            hi = hi * (1.0 - f) / f * 1.01 + 0.5;
            ck_assert_msg((double)pl.eta >= lo && (double)pl.eta <= hi,
                          "%ld s left at event %ld (%.6f done, %ld "
                          "events/s), expected %.1f..%.1f",
                          pl.eta, pl.events, f, pl.rate, lo, hi);
        }
        last_ev = pl.events;
        last_t = pl.when;
        lines++;
        p = q;
    }
    ck_assert_msg(p < end, "the progress line is not erased");
    p += strlen(erase);
    ck_assert_str_eq(p, tail);
    /* at most one line per half second */
    ck_assert_msg((double)lines <= r->wall / 0.5 + 1.0,
                  "%zu progress lines in %.2f s", lines, r->wall);
    return lines;
}

START_TEST(progress_on_terminal)
{
    const char *dir = mkdir_tmp("progress-tty");
    struct run r = {.err = ERR_PTY, .intr = INTR_NONE};
    json_t *sum;
    int64_t *times;
    double *cum;
    size_t n, lines;

    if (!have_pty())
        return;
    /* every submitted job at once: dp needs seconds for this replay
     * (about 5 s on a quiet 2-CPU machine); the default 10, or 60 (0.6 s
     * since dp's pruning), take under one */
    run_bfsim(replay_argv(dir, "--max-jobs", "0"), &r, 100);
    ck_assert_msg(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0,
                  "status %d: %s", r.status, r.out);
    sum = tu_load_json(in_dir(dir, "summary.json"));
    ck_assert(json_is_false(json_object_get(sum, "partial")));
    times = read_steps(in_dir(dir, "steps.csv"), &n, &cum);
    ck_assert_int_eq(tu_jnum(sum, "events"), (double)n);
    /* the first line comes after 0.5 s of wall time */
    ck_assert_msg(r.wall >= 1.0,
                  "the replay took %.2f s, too short to show progress", r.wall);
    lines = check_progress(&r, times, cum, n, jobs_work(tu_src(JOBS1000)),
                           tu_jtime(sum, "first_time"), "");
    ck_assert_uint_ge(lines, 1);
    printf("progress: %zu lines in %.2f s\n", lines, r.wall);
    json_decref(sum);
    free(times);
    free(cum);
    free(r.out);
}
END_TEST

/* ---- SIGINT ---------------------------------------------------------- */

/* A replay of the 1000-job set from its first submission with the MILP
 * allocator, which would take minutes, interrupted: by ^C after the
 * first progress line (INTR_CTRL_C), or by SIGINT delay seconds after
 * its first output file was opened (INTR_SIGNAL).  Standard error is err,
 * with -q if quiet.  Checks the exit status, what standard error shows
 * (progress lines only on a terminal without -q, then the notice) and
 * the partial outputs.  Returns the number of events logged: a signal
 * may land before the first event on a busy machine, and the outputs
 * must then be whole and say so. */
static size_t interrupt_once(const char *name, enum err_kind err,
                             enum intr_kind intr, int quiet, double delay,
                             int sig)
{
    const char *dir = mkdir_tmp(name);
    const char *solver = solver_find("cbc") ? "cbc" : "glpk";
    struct run r = {.err = err, .intr = intr, .delay = delay, .sig = sig};
    char **argv, *names;
    int64_t *times, trace_end;
    double *cum;
    size_t n;
    json_t *sum;
    int n_arg = 0;

    argv = xcalloc(32, sizeof *argv);
    tu_keep((void *)argv);
    argv[n_arg++] = tu_arg(tu_bfsim());
    argv[n_arg++] = tu_arg("replay");
    argv[n_arg++] = tu_arg("--trace");
    argv[n_arg++] = tu_arg(tu_src(TRACE));
    argv[n_arg++] = tu_arg("--jobs");
    argv[n_arg++] = tu_arg(tu_src(JOBS1000));
    /* from the first submission on, so that every event is solved */
    argv[n_arg++] = tu_arg("--start");
    argv[n_arg++] = tu_arg("2021-02-10 20:21:15");
    argv[n_arg++] = tu_arg("--allocator");
    argv[n_arg++] = tu_arg("milp");
    argv[n_arg++] = tu_arg("--solver");
    argv[n_arg++] = tu_arg(solver);
    argv[n_arg++] = tu_arg("--steps");
    argv[n_arg++] = tu_arg(in_dir(dir, "steps.csv"));
    argv[n_arg++] = tu_arg("--summary");
    argv[n_arg++] = tu_arg(in_dir(dir, "summary.json"));
    argv[n_arg++] = tu_arg("--job-log");
    argv[n_arg++] = tu_arg(in_dir(dir, "jobs.csv"));
    argv[n_arg++] = tu_arg("-o");
    argv[n_arg++] = tu_arg(in_dir(dir, "out.h5"));
    if (quiet)
        argv[n_arg++] = tu_arg("-q");
    argv[n_arg] = NULL;
    r.err_file = tu_tmp("stderr.txt"); /* beside dir, not in it */
    r.watch = dir;
    run_bfsim(argv, &r, 100);
    if (err == ERR_FILE) {
        free(r.out);
        r.out = tu_slurp(r.err_file);
        ck_assert_ptr_nonnull(r.out);
        r.len = strlen(r.out);
    }
    if (intr == INTR_SIGNAL) {
        ck_assert(r.saw_tmp); /* outputs go to temporary files first */
        ck_assert_double_ge(r.wall, delay);
    }

    /* README: exit status 130, results written, marked partial */
    ck_assert_msg(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 130,
                  "%s: status %d (exited %d with %d, signalled %d): %s", name,
                  r.status, WIFEXITED(r.status), WEXITSTATUS(r.status),
                  WIFSIGNALED(r.status) ? WTERMSIG(r.status) : 0, r.out);

    /* only the four outputs, whole; no temporary file left */
    names = tu_dir_list(dir);
    ck_assert_str_eq(names, "jobs.csv out.h5 steps.csv summary.json");
    free(names);
    sum = tu_load_json(in_dir(dir, "summary.json"));
    ck_assert(json_is_true(json_object_get(sum, "partial")));
    times = read_steps(in_dir(dir, "steps.csv"), &n, &cum);
    ck_assert_int_eq(tu_jnum(sum, "events"), (double)n);
    check_joblog(in_dir(dir, "jobs.csv"), N_JOBS1000);
    H5Fclose(tu_h5_check_run(in_dir(dir, "out.h5"), 1, n));
    if (n == 0) {
        /* stopped before the first event: nothing past the start */
        ck_assert_int_eq(tu_jtime(sum, "last_event_time"),
                         tu_jtime(sum, "first_time"));
        ck_assert_int_eq(tu_jnum(sum, "jobs_finished"), 0);
        ck_assert_str_eq(r.out, INTERRUPTED);
        printf("%s: interrupted after %.2f s, before the first event\n", name,
               r.wall);
        json_decref(sum);
        free(r.out);
        return 0;
    }
    ck_assert_int_eq(tu_jtime(sum, "last_event_time"), times[n - 1]);
    /* fewer events than a full run: a full run goes on until every job
     * is done or the trace ends, and this one stopped before both */
    trace_end = trace_last_time(tu_src(TRACE));
    ck_assert_int_lt(times[n - 1], trace_end);
    ck_assert_int_lt(tu_jnum(sum, "jobs_finished"), N_JOBS1000);
    ck_assert_int_ge(tu_jnum(sum, "solves"), 1); /* the solver was at work */

    if ((err == ERR_PTY || err == ERR_CTTY) && !quiet)
        /* progress lines, erased, then the notice */
        check_progress(&r, times, cum, n, jobs_work(tu_src(JOBS1000)),
                       tu_jtime(sum, "first_time"), INTERRUPTED);
    else
        /* not a byte of progress in delay seconds: only the notice */
        ck_assert_str_eq(r.out, INTERRUPTED);
    printf("%s: interrupted after %.2f s, %zu events\n", name, r.wall, n);
    json_decref(sum);
    free(times);
    free(cum);
    free(r.out);
    return n;
}

/* interrupt_once() until a run is stopped after its first event, the
 * delay doubled each time: 5 attempts, and one more for each doubling of
 * tu_slowdown() (a run under valgrind reaches its first event seconds
 * later, the delays that suffice at full speed do not). */
static void interrupted(const char *name, enum err_kind err,
                        enum intr_kind intr, int quiet, double delay, int sig)
{
    char tag[64];
    int attempts = 5;

    if (!solver_find("cbc") && !solver_find("glpk")) {
        printf("%s: skipped, no MILP solver compiled in\n", name);
        return;
    }
    if ((err == ERR_PTY || err == ERR_CTTY) && !have_pty())
        return;
    for (double k = tu_slowdown(); k > 1.0; k /= 2)
        attempts++;
    for (int attempt = 1; attempt <= attempts; attempt++, delay *= 2) {
        snprintf(tag, sizeof tag, "%s-%d", name, attempt);
        if (interrupt_once(tag, err, intr, quiet, delay, sig) > 0)
            return;
    }
    ck_abort_msg("%s: no event logged before any of %d signals", name,
                 attempts);
}

/* No progress line with -q on a terminal, nor without -q on a pipe or in
 * a file: 1.5 s of replay, more than the 0.5 s before the first line. */
START_TEST(no_progress_quiet)
{
    interrupted("quiet-tty", ERR_PTY, INTR_SIGNAL, 1, 1.5, SIGINT);
}
END_TEST

START_TEST(no_progress_pipe)
{
    interrupted("pipe", ERR_PIPE, INTR_SIGNAL, 0, 1.5, SIGINT);
}
END_TEST

START_TEST(no_progress_file)
{
    interrupted("file", ERR_FILE, INTR_SIGNAL, 0, 1.5, SIGINT);
}
END_TEST

START_TEST(sigint_ctrl_c)
{
    /* ^C on the controlling terminal: SIGINT to the whole process group
     * (bfsim and its CBC process) */
    interrupted("ctrl-c", ERR_CTTY, INTR_CTRL_C, 0, 0.0, SIGINT);
}
END_TEST

START_TEST(sigint_kill)
{
    /* kill -INT to bfsim alone, early */
    interrupted("kill", ERR_FILE, INTR_SIGNAL, 1, 0.2, SIGINT);
}
END_TEST

START_TEST(sigterm)
{
    /* SIGTERM (scancel, a batch system's time limit) stops the replay the
     * same way (README) */
    interrupted("term", ERR_FILE, INTR_SIGNAL, 1, 0.2, SIGTERM);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("signal");
    TCase *tc = tcase_create("progress");
    TCase *ti = tcase_create("sigint");

    tcase_add_test(tc, progress_on_terminal);
    tcase_add_test(tc, no_progress_quiet);
    tcase_add_test(tc, no_progress_pipe);
    tcase_add_test(tc, no_progress_file);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    tcase_add_test(ti, sigint_ctrl_c);
    tcase_add_test(ti, sigint_kill);
    tcase_add_test(ti, sigterm);
    tcase_set_timeout(ti, 120);
    suite_add_tcase(s, ti);
    return tu_run(s);
}
