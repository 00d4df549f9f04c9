/* solver.c - the backend registry and the wrappers around every solve.
 *
 * The registry is one array ending with the backends configure found; it
 * is, with solvers/, the only code that tests HAVE_CBC / HAVE_GLPK.  The
 * wrappers check each model once before a backend sees it and decide
 * trivial models (no columns) themselves.
 *
 * Isolation: when a solver is isolated, every solve forks a child that
 * runs the backend and writes the result through a pipe; the parent reads
 * it, reaps the child and turns a death by signal, a short message or a
 * child that outlives twice its time limit (plus 10 s; it is then killed)
 * into SOLVE_FAILED.  The child leaves with _exit, so the parent's stdio
 * buffers (flushed before the fork) are never written twice.  A fork
 * costs about 1 ms here; CBC solves run isolated by default (its 2.10
 * release has crashed on models of this kind, and a solve with it costs
 * milliseconds anyway), GLPK solves do not (its errors are caught by an
 * error hook and it has not been seen to crash).
 */
#include "config.h"

#include "solver.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Every backend compiled in, in order of preference. */
static const struct solver_ops *const registry[] = {
#ifdef HAVE_CBC
    &solver_cbc_ops,
#endif
#ifdef HAVE_GLPK
    &solver_glpk_ops,
#endif
    NULL, /* keeps the array non-empty in a build without backends */
};

/* Every backend bfsim has code for, compiled in or not. */
static const char *const known[] = {"cbc", "glpk"};

const char *solve_status_name(int status)
{
    switch (status) {
#define SOLVE_ST_CASE(name, text)                                              \
    case SOLVE_##name:                                                         \
        return text;
        SOLVE_STATUSES(SOLVE_ST_CASE)
#undef SOLVE_ST_CASE
    }
    return "unknown";
}

void solver_opts_default(struct solver_opts *o)
{
    memset(o, 0, sizeof *o);
    o->time_limit = HUGE_VAL;
    o->gap_rel = 1e-9;
    o->gap_abs = 0.0;
    o->threads = 0;
    o->log_level = 0;
    o->isolate = SOLVER_ISOLATE_DEFAULT;
    o->effort = SOLVER_EFFORT_DEFAULT;
}

size_t solver_count(void)
{
    return sizeof registry / sizeof *registry - 1;
}

const struct solver_ops *solver_get(size_t i)
{
    return i < solver_count() ? registry[i] : NULL;
}

const struct solver_ops *solver_find(const char *name)
{
    for (size_t i = 0; i < solver_count(); i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

const char *solver_default_name(void)
{
    return solver_count() > 0 ? registry[0]->name : NULL;
}

int solver_create(const char *name, const struct solver_opts *o,
                  struct solver **out, struct bfs_error *e)
{
    const struct solver_ops *ops = solver_find(name);
    struct solver *s;
    int rc;

    if (!ops) {
        for (size_t i = 0; i < sizeof known / sizeof *known; i++)
            if (strcmp(known[i], name) == 0)
                return bfs_fail(e, BFS_EUNSUP,
                                "solver '%s' is not compiled into this "
                                "build of bfsim",
                                name);
        return bfs_fail(e, BFS_ENOTFOUND, "unknown solver '%s'", name);
    }
    if (!(o->time_limit > 0) || !(o->gap_rel >= 0) || !(o->gap_abs >= 0) ||
        isinf(o->gap_rel) || isinf(o->gap_abs) || o->threads < 0)
        return bfs_fail(e, BFS_EINVAL,
                        "solver options: time limit %g, gaps %g/%g, "
                        "threads %d",
                        o->time_limit, o->gap_rel, o->gap_abs, o->threads);
    rc = ops->create(o, &s);
    if (rc)
        return bfs_fail(e, rc, "cannot create a %s solver", name);
    s->ops = ops;
    s->opts = *o;
    if (s->opts.isolate == SOLVER_ISOLATE_DEFAULT)
        s->opts.isolate = ops->isolate_default;
    *out = s;
    return 0;
}

const char *solver_name(const struct solver *s)
{
    return s->ops->name;
}

int solver_isolated(const struct solver *s)
{
    return s->opts.isolate == SOLVER_ISOLATE_YES;
}

void solver_destroy(struct solver *s)
{
    if (s)
        s->ops->destroy(s);
}

/* ---- isolation -------------------------------------------------------- */

/* What the child sends before x. */
struct wire {
    int status;
    double objective, bound, build_s, solve_s;
    char msg[sizeof ((struct solve_result *)0)->msg];
    size_t n_x;
};

static int write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;

    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static void child_run(struct solver *s, const struct milp *m, int fd)
    __attribute__((noreturn));

static void child_run(struct solver *s, const struct milp *m, int fd)
{
    const char *crash = getenv(SOLVER_TEST_CRASH_ENV);
    struct solve_result r;
    struct wire w;

    if (crash && strcmp(crash, "1") == 0) {
        signal(SIGSEGV, SIG_DFL);
        raise(SIGSEGV);
    }
    memset(&r, 0, sizeof r);
    r.x = xcalloc(m->n_cols, sizeof *r.x);
    s->ops->solve(s, m, &r);
    fflush(stdout);
    fflush(stderr);
    memset(&w, 0, sizeof w);
    w.status = r.status;
    w.objective = r.objective;
    w.bound = r.bound;
    w.build_s = r.build_s;
    w.solve_s = r.solve_s;
    memcpy(w.msg, r.msg, sizeof w.msg);
    w.n_x = r.status == SOLVE_OPTIMAL || r.status == SOLVE_FEASIBLE
                ? m->n_cols
                : 0;
    if (write_all(fd, &w, sizeof w) != 0 ||
        write_all(fd, r.x, w.n_x * sizeof *r.x) != 0)
        _exit(3);
    _exit(0);
}

/* Reads up to n bytes into buf before the deadline (HUGE_VAL: none).
 * Returns the bytes read (short at end of file), or -1 on a timeout or an
 * error. */
static ssize_t read_until(int fd, void *buf, size_t n, double deadline)
{
    char *p = buf;
    size_t got = 0;

    while (got < n) {
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int ms = -1, rc;
        ssize_t k;
        if (deadline < HUGE_VAL) {
            double left = deadline - bfs_now();
            if (left <= 0)
                return -1;
            ms = left > 3.6e6 ? 3600000 : (int)(left * 1e3) + 1;
        }
        rc = poll(&pfd, 1, ms);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc < 0)
            return -1;
        if (rc == 0)
            continue; /* the deadline is checked above */
        k = read(fd, p + got, n - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return -1;
        if (k == 0)
            break;
        got += (size_t)k;
    }
    return (ssize_t)got;
}

static void set_failed(struct solve_result *res, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void set_failed(struct solve_result *res, const char *fmt, ...)
{
    va_list ap;

    res->status = SOLVE_FAILED;
    va_start(ap, fmt);
    vsnprintf(res->msg, sizeof res->msg, fmt, ap);
    va_end(ap);
}

static void solve_isolated(struct solver *s, const struct milp *m,
                           struct solve_result *res)
{
    double t0 = bfs_now(), deadline = HUGE_VAL;
    int fd[2], wst = 0, timed_out = 0, complete = 0;
    struct wire w;
    ssize_t k;
    pid_t pid, rc;

    if (s->opts.time_limit < HUGE_VAL)
        deadline = t0 + 2 * s->opts.time_limit + 10.0;
    if (pipe(fd) != 0) {
        set_failed(res, "pipe: %s", strerror(errno));
        return;
    }
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        set_failed(res, "fork: %s", strerror(errno));
        close(fd[0]);
        close(fd[1]);
        return;
    }
    if (pid == 0) {
        close(fd[0]);
        child_run(s, m, fd[1]);
    }
    close(fd[1]);
    k = read_until(fd[0], &w, sizeof w, deadline);
    if (k == (ssize_t)sizeof w && w.n_x <= m->n_cols) {
        ssize_t want = (ssize_t)(w.n_x * sizeof *res->x);
        k = read_until(fd[0], res->x, (size_t)want, deadline);
        complete = k == want;
    }
    if (k < 0 && bfs_now() >= deadline) {
        kill(pid, SIGKILL);
        timed_out = 1;
    }
    close(fd[0]);
    do
        rc = waitpid(pid, &wst, 0);
    while (rc < 0 && errno == EINTR);
    res->solve_s = bfs_now() - t0;
    if (timed_out)
        set_failed(res,
                   "%s ran past twice its time limit of %g s and was "
                   "killed",
                   s->ops->name, s->opts.time_limit);
    else if (rc < 0)
        set_failed(res, "waitpid: %s", strerror(errno));
    else if (WIFSIGNALED(wst))
        set_failed(res, "%s crashed (signal %d, %s)", s->ops->name,
                   WTERMSIG(wst), strsignal(WTERMSIG(wst)));
    else if (!WIFEXITED(wst) || WEXITSTATUS(wst) != 0 || !complete)
        set_failed(res, "%s child process failed (exit status %d)",
                   s->ops->name, WIFEXITED(wst) ? WEXITSTATUS(wst) : -1);
    else {
        res->status = w.status;
        res->objective = w.objective;
        res->bound = w.bound;
        res->build_s = w.build_s;
        /* the wall time of the whole round trip, fork included */
        res->solve_s -= w.build_s;
        memcpy(res->msg, w.msg, sizeof res->msg);
        res->msg[sizeof res->msg - 1] = '\0';
    }
}

/* ---- solving ---------------------------------------------------------- */

/* A model without columns: feasible iff every row admits 0. */
static void solve_empty(const struct milp *m, struct solve_result *res)
{
    for (size_t r = 0; r < m->n_rows; r++)
        if (m->row_lb[r] > 0 || m->row_ub[r] < 0) {
            res->status = SOLVE_INFEASIBLE;
            return;
        }
    res->status = SOLVE_OPTIMAL;
    res->objective = res->bound = m->obj_offset;
}

int solver_solve(struct solver *s, const struct milp *m,
                 struct solve_result *res, struct bfs_error *e)
{
    int rc = milp_check(m, e);

    if (rc)
        return rc;
    res->status = SOLVE_FAILED;
    res->objective = NAN;
    res->bound = m->maximize ? HUGE_VAL : -HUGE_VAL;
    res->build_s = res->solve_s = 0.0;
    res->msg[0] = '\0';
    if (m->n_cols == 0)
        solve_empty(m, res);
    else if (solver_isolated(s))
        solve_isolated(s, m, res);
    else
        s->ops->solve(s, m, res);
    return 0;
}
