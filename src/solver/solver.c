/* solver.c - the backend registry and the wrappers around every solve.
 *
 * The registry is one array naming every backend bfsim has code for,
 * once, each with its table when configure found it; it is, with
 * solvers/, the only code that tests HAVE_CBC / HAVE_GLPK.  The
 * wrappers check each model once before a backend sees it and decide
 * trivial models (no columns) themselves.
 *
 * Backend parameters: each backend's table (struct solver_param) is the
 * one list of what it accepts; solver_params_canon checks a "key=value"
 * list against it and writes it in the table's order, and solver_create
 * and solver_set_opts refuse options whose list is not canonical, so a
 * backend only parses a list it knows to be good.
 *
 * Isolation: an isolated solver keeps one child process (forked at its
 * first solve) that solves every model sent to it over a socket pair and
 * sends back the result; a crash (a death by signal), a short reply or a
 * child that outlives twice its time limit (plus 10 s; it is then
 * killed) is SOLVE_FAILED with the reason, and the next solve forks a new
 * child.  Children leave with _exit, so the parent's stdio buffers
 * (flushed before each fork) are never written twice.  A fresh child per
 * solve would cost about 5x a CBC solve of the count model here (the
 * child faults in all the memory CBC touches); a kept child costs a few
 * percent.  CBC solves run isolated by default (its 2.10 release has
 * crashed on models of this kind), GLPK solves do not (its errors are
 * caught by an error hook and it has not been seen to crash).  A child
 * of a silent solver whose standard error is a terminal sends its own
 * messages to /dev/null (quiet_stderr), so that they never land over the
 * progress line.
 */
#include "config.h"

#include "solver/backend.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Every backend bfsim has code for, once, in order of preference: its
 * name and, when configure found it, its table (NULL otherwise, so that
 * asking for it says it is not compiled in rather than unknown). */
#ifdef HAVE_CBC
#define CBC_OPS (&solver_cbc_ops)
#else
#define CBC_OPS NULL
#endif
#ifdef HAVE_GLPK
#define GLPK_OPS (&solver_glpk_ops)
#else
#define GLPK_OPS NULL
#endif
static const struct {
    const char *name;
    const struct solver_ops *ops;
} backends[] = {{"cbc", CBC_OPS}, {"glpk", GLPK_OPS}};
#define N_BACKENDS (sizeof backends / sizeof *backends)

static void worker_stop(struct solver *s);

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

const char *solver_version(const char *name)
{
    const struct solver_ops *ops = solver_find(name);

    return ops ? ops->version() : NULL;
}

int solver_work_known(const char *name)
{
    const struct solver_ops *ops = solver_find(name);

    return ops ? ops->work : 0;
}

size_t solver_count(void)
{
    size_t n = 0;

    for (size_t k = 0; k < N_BACKENDS; k++)
        n += backends[k].ops != NULL;
    return n;
}

/* The i-th backend compiled in, or NULL. */
static const struct solver_ops *compiled(size_t i)
{
    for (size_t k = 0; k < N_BACKENDS; k++)
        if (backends[k].ops && i-- == 0)
            return backends[k].ops;
    return NULL;
}

const char *solver_backend_name(size_t i)
{
    const struct solver_ops *ops = compiled(i);

    return ops ? ops->name : NULL;
}

const struct solver_ops *solver_find(const char *name)
{
    for (size_t k = 0; k < N_BACKENDS; k++)
        if (backends[k].ops && strcmp(backends[k].name, name) == 0)
            return backends[k].ops;
    return NULL;
}

const char *solver_default_name(void)
{
    return solver_backend_name(0);
}

const struct solver_param *solver_params_table(const char *name, size_t *n)
{
    const struct solver_ops *ops = solver_find(name);

    *n = ops ? ops->n_params : 0;
    return ops ? ops->params : NULL;
}

/* Whether value (len bytes) is one of the '|'-separated words. */
static int word_in(const char *words, const char *value, size_t len)
{
    const char *w = words;

    while (*w) {
        size_t wl = strcspn(w, "|");
        if (wl == len && strncmp(w, value, len) == 0)
            return 1;
        w += wl;
        if (*w == '|')
            w++;
    }
    return 0;
}

/* Checks one value (len bytes) of parameter p; returns 0 or BFS_EUSAGE. */
static int param_value_ok(const char *backend, const struct solver_param *p,
                          const char *value, size_t len, struct bfs_error *e)
{
    char buf[64];
    double d;
    int i;

    if (p->kind == SOLVER_PARAM_WORD) {
        if (len > 0 && word_in(p->words, value, len))
            return 0;
        return bfs_fail(e, BFS_EUSAGE,
                        "solver '%s': parameter %s: '%.*s' is not one of %s",
                        backend, p->key, (int)len, value, p->words);
    }
    if (len < sizeof buf) {
        memcpy(buf, value, len);
        buf[len] = '\0';
        if (p->kind == SOLVER_PARAM_INT && bfs_parse_int(buf, &i) == 0 &&
            i >= p->min && i <= p->max)
            return 0;
        if (p->kind == SOLVER_PARAM_REAL && bfs_parse_double(buf, &d) == 0 &&
            d >= p->min && d <= p->max)
            return 0;
    }
    return bfs_fail(e, BFS_EUSAGE,
                    "solver '%s': parameter %s: '%.*s' is not %s in [%g, %g]",
                    backend, p->key, (int)len, value,
                    p->kind == SOLVER_PARAM_INT ? "an integer" : "a number",
                    p->min, p->max);
}

/* Fails with the list of the accepted keys. */
static int unknown_param(const char *backend, const struct solver_ops *ops,
                         const char *item, size_t len, struct bfs_error *e)
{
    char list[1024];
    size_t used = 0;

    list[0] = '\0';
    for (size_t i = 0; i < ops->n_params && used < sizeof list; i++) {
        int k = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                         ops->params[i].key);
        if (k < 0)
            break;
        used += (size_t)k;
    }
    return bfs_fail(e, BFS_EUSAGE,
                    "solver '%s': unknown parameter '%.*s' (accepted: %s; "
                    "'--solver %s,help' lists their values)",
                    backend, (int)len, item, ops->n_params ? list : "none",
                    backend);
}

int solver_params_canon(const char *name, const char *text, char *out,
                        size_t cap, struct bfs_error *e)
{
    const struct solver_ops *ops = solver_find(name);
    const char **val;
    size_t *vlen, used = 0;
    const char *p = text;
    int rc = 0;

    if (!ops)
        return bfs_fail(e, BFS_ENOTFOUND,
                        "solver '%s' is not compiled into this build", name);
    val = xcalloc(ops->n_params + 1, sizeof *val);
    vlen = xcalloc(ops->n_params + 1, sizeof *vlen);
    while (*p && rc == 0) {
        size_t len = strcspn(p, ","), klen = strcspn(p, "=,"), i;
        if (klen == len) {
            rc = bfs_fail(e, BFS_EUSAGE, "solver '%s': '%.*s' is not key=value",
                          name, (int)len, p);
            break;
        }
        for (i = 0; i < ops->n_params; i++)
            if (strlen(ops->params[i].key) == klen &&
                strncmp(ops->params[i].key, p, klen) == 0)
                break;
        if (i == ops->n_params)
            rc = unknown_param(name, ops, p, klen, e);
        else if (val[i])
            rc =
                bfs_fail(e, BFS_EUSAGE, "solver '%s': parameter %s given twice",
                         name, ops->params[i].key);
        else {
            val[i] = p + klen + 1;
            vlen[i] = len - klen - 1;
            rc = param_value_ok(name, &ops->params[i], val[i], vlen[i], e);
        }
        p += len;
        if (*p == ',')
            p++;
    }
    for (size_t i = 0; rc == 0 && i < ops->n_params; i++) {
        int k;
        if (!val[i])
            continue;
        k = snprintf(out + used, used < cap ? cap - used : 0, "%s%s=%.*s",
                     used ? "," : "", ops->params[i].key, (int)vlen[i], val[i]);
        if (k < 0 || used + (size_t)k >= cap)
            rc = bfs_fail(e, BFS_ERANGE,
                          "solver '%s': parameters longer than %zu bytes", name,
                          cap - 1);
        else
            used += (size_t)k;
    }
    if (rc == 0 && used == 0 && cap > 0)
        out[0] = '\0';
    xfree(vlen);
    xfree(val);
    return rc;
}

static int opts_ok(const struct solver_opts *o)
{
    return o->time_limit > 0 && o->gap_rel >= 0 && o->gap_abs >= 0 &&
           !isinf(o->gap_rel) && !isinf(o->gap_abs) && o->threads >= 0;
}

/* Whether o->params is a terminated, canonical list for the backend. */
static int params_ok(const char *name, const struct solver_opts *o,
                     struct bfs_error *e)
{
    char canon[SOLVER_PARAMS_LEN];
    int rc;

    if (!memchr(o->params, '\0', sizeof o->params))
        return bfs_fail(e, BFS_EINVAL, "solver parameters not terminated");
    rc = solver_params_canon(name, o->params, canon, sizeof canon, e);
    if (rc == 0 && strcmp(canon, o->params) != 0)
        rc = bfs_fail(e, BFS_EINVAL,
                      "solver parameters '%s' not in canonical form ('%s')",
                      o->params, canon);
    return rc;
}

int solver_create(const char *name, const struct solver_opts *o,
                  struct solver **out, struct bfs_error *e)
{
    const struct solver_ops *ops = solver_find(name);
    struct solver *s;
    int rc;

    if (!ops) {
        for (size_t k = 0; k < N_BACKENDS; k++)
            if (strcmp(backends[k].name, name) == 0)
                return bfs_fail(e, BFS_EUNSUP,
                                "solver '%s' is not compiled into this "
                                "build of bfsim",
                                name);
        return bfs_fail(e, BFS_EUSAGE, "unknown solver '%s'", name);
    }
    if (!opts_ok(o))
        return bfs_fail(e, BFS_EINVAL,
                        "solver options: time limit %g, gaps %g/%g, "
                        "threads %d",
                        o->time_limit, o->gap_rel, o->gap_abs, o->threads);
    rc = params_ok(name, o, e);
    if (rc)
        return rc;
    rc = ops->create(o, &s);
    if (rc)
        return bfs_fail(e, rc, "cannot create a %s solver", name);
    s->ops = ops;
    s->opts = *o;
    s->worker = NULL;
    if (s->opts.isolate == SOLVER_ISOLATE_DEFAULT)
        s->opts.isolate = ops->isolate_default;
    *out = s;
    return 0;
}

int solver_set_opts(struct solver *s, const struct solver_opts *o,
                    struct bfs_error *e)
{
    int isolate = s->opts.isolate, rc;

    if (!opts_ok(o))
        return bfs_fail(e, BFS_EINVAL,
                        "solver options: time limit %g, gaps %g/%g, "
                        "threads %d",
                        o->time_limit, o->gap_rel, o->gap_abs, o->threads);
    rc = params_ok(s->ops->name, o, e);
    if (rc)
        return rc;
    s->opts = *o;
    s->opts.isolate = isolate;
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
    if (s) {
        worker_stop(s);
        s->ops->destroy(s);
    }
}

/* ---- isolation -------------------------------------------------------- */

struct solver_worker {
    pid_t pid;
    int fd; /* the parent's end of the socket pair */
};

/* A request: the options, then the model's arrays in the order of
 * send_model. */
struct request {
    struct solver_opts opts;
    int crash; /* SOLVER_TEST_CRASH_ENV was "1" */
    int maximize;
    double obj_offset;
    size_t n_cols, n_rows, nnz;
    int has_start; /* n_cols doubles of m->start follow the rows */
};

/* A reply, followed by n_x doubles of x. */
struct reply {
    int status;
    double objective, bound, build_s, solve_s, cpu_s, root_bound;
    long nodes, iters, cuts;
    char msg[sizeof((struct solve_result *)0)->msg];
    size_t n_x;
};

/* Sends all of buf; MSG_NOSIGNAL: a dead peer is an error, not SIGPIPE. */
static int send_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;

    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
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

static int read_all(int fd, void *buf, size_t n)
{
    return read_until(fd, buf, n, HUGE_VAL) == (ssize_t)n ? 0 : -1;
}

/* One array of a model as it crosses the socket. */
struct span {
    void *p;
    size_t bytes;
};

#define MODEL_SPANS 10

/* The arrays of m in the order send_model sends them and read_model
 * reads them (after the request), sized by m's counts; m->start last,
 * when has_start.  Returns how many went into s (at most MODEL_SPANS). */
static size_t model_spans(const struct milp *m, int has_start, struct span *s)
{
    size_t nc = m->n_cols, nr = m->n_rows, k = 0;

    s[k++] = (struct span){m->obj, nc * sizeof(double)};
    s[k++] = (struct span){m->col_lb, nc * sizeof(double)};
    s[k++] = (struct span){m->col_ub, nc * sizeof(double)};
    s[k++] = (struct span){m->col_int, nc};
    s[k++] = (struct span){m->row_lb, nr * sizeof(double)};
    s[k++] = (struct span){m->row_ub, nr * sizeof(double)};
    s[k++] = (struct span){m->row_beg, (nr + 1) * sizeof *m->row_beg};
    s[k++] = (struct span){m->row_ind, m->nnz * sizeof *m->row_ind};
    s[k++] = (struct span){m->row_val, m->nnz * sizeof(double)};
    if (has_start)
        s[k++] = (struct span){m->start, nc * sizeof(double)};
    return k;
}

/* Sends q, then m's arrays.  Returns 0, or 1 when the socket failed. */
static int send_model(int fd, const struct request *q, const struct milp *m)
{
    struct span s[MODEL_SPANS];
    size_t n = model_spans(m, q->has_start, s);

    if (send_all(fd, q, sizeof *q))
        return 1;
    for (size_t k = 0; k < n; k++)
        if (send_all(fd, s[k].p, s[k].bytes))
            return 1;
    return 0;
}

/* Reads a model sent by send_model into m (allocated here).  Returns 0, or
 * 1 when the pipe failed. */
static int read_model(int fd, const struct request *q, struct milp *m)
{
    size_t nc = q->n_cols, nr = q->n_rows, nnz = q->nnz;
    struct span s[MODEL_SPANS];
    size_t n;

    memset(m, 0, sizeof *m);
    m->maximize = q->maximize;
    m->obj_offset = q->obj_offset;
    m->n_cols = m->cap_cols = nc;
    m->n_rows = m->cap_rows = nr;
    m->nnz = m->cap_nnz = nnz;
    m->obj = xcalloc(nc + 1, sizeof(double));
    m->col_lb = xcalloc(nc + 1, sizeof(double));
    m->col_ub = xcalloc(nc + 1, sizeof(double));
    m->col_int = xcalloc(nc + 1, 1);
    m->row_lb = xcalloc(nr + 1, sizeof(double));
    m->row_ub = xcalloc(nr + 1, sizeof(double));
    m->row_beg = xcalloc(nr + 1, sizeof *m->row_beg);
    m->row_ind = xcalloc(nnz + 1, sizeof *m->row_ind);
    m->row_val = xcalloc(nnz + 1, sizeof(double));
    if (q->has_start)
        m->start = xcalloc(nc + 1, sizeof(double));
    n = model_spans(m, q->has_start, s);
    for (size_t k = 0; k < n; k++)
        if (read_all(fd, s[k].p, s[k].bytes))
            return 1;
    return 0;
}

/* Runs the backend on m in this process, with the work counts preset to
 * unknown and the CPU time it takes measured around it. */
static void run_backend(struct solver *s, const struct milp *m,
                        struct solve_result *res)
{
    double c0 = bfs_cpu_now();

    res->nodes = res->iters = res->cuts = -1;
    res->root_bound = nan("");
    s->ops->solve(s, m, res);
    res->cpu_s = bfs_cpu_now() - c0;
}

/* The child: solves every model it is sent until its socket closes. */
static void worker_main(struct solver *s, int fd) __attribute__((noreturn));

static void worker_main(struct solver *s, int fd)
{
    for (;;) {
        struct request q;
        struct solve_result r;
        struct reply w;
        struct milp m;

        if (read_all(fd, &q, sizeof q) != 0)
            _exit(0);
        if (q.crash) {
            signal(SIGSEGV, SIG_DFL);
            raise(SIGSEGV);
        }
        if (read_model(fd, &q, &m) != 0)
            _exit(0);
        s->opts = q.opts;
        memset(&r, 0, sizeof r);
        r.status = SOLVE_FAILED;
        r.objective = nan("");
        r.bound = m.maximize ? HUGE_VAL : -HUGE_VAL;
        r.x = xcalloc(m.n_cols + 1, sizeof *r.x);
        run_backend(s, &m, &r);
        fflush(NULL); /* the solver's log: _exit flushes nothing */
        memset(&w, 0, sizeof w);
        w.status = r.status;
        w.objective = r.objective;
        w.bound = r.bound;
        w.build_s = r.build_s;
        w.solve_s = r.solve_s;
        w.cpu_s = r.cpu_s;
        w.root_bound = r.root_bound;
        w.nodes = r.nodes;
        w.iters = r.iters;
        w.cuts = r.cuts;
        memcpy(w.msg, r.msg, sizeof w.msg);
        w.n_x = r.status == SOLVE_OPTIMAL || r.status == SOLVE_FEASIBLE
                    ? m.n_cols
                    : 0;
        if (send_all(fd, &w, sizeof w) != 0 ||
            send_all(fd, r.x, w.n_x * sizeof *r.x) != 0)
            _exit(3);
        xfree(r.x);
        milp_release(&m);
    }
}

static void worker_stop(struct solver *s)
{
    struct solver_worker *wk = s->worker;

    if (!wk)
        return;
    close(wk->fd);
    kill(wk->pid, SIGKILL);
    while (waitpid(wk->pid, NULL, 0) < 0 && errno == EINTR)
        ;
    xfree(wk);
    s->worker = NULL;
}

/* In the child: a silent solver (log_level 0) whose standard error is a
 * terminal, where the command line draws its progress line, writes its
 * own messages (CBC's "std::bad_alloc" before it dies) to /dev/null, not
 * over that line; the failure itself is a status the caller counts and
 * reports.  Standard error that is not a terminal (a file, a pipe, a
 * test's sanitizer report) is left as it is. */
static void quiet_stderr(const struct solver *s)
{
    int fd;

    if (s->opts.log_level > 0 || !isatty(2))
        return;
    fd = open("/dev/null", O_WRONLY);
    if (fd >= 0) {
        dup2(fd, 2);
        close(fd);
    }
}

static int worker_start(struct solver *s, struct solve_result *res)
{
    int sv[2];
    pid_t pid;

    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
        snprintf(res->msg, sizeof res->msg, "socketpair: %s", strerror(errno));
        return -1;
    }
    fflush(NULL); /* the child must not write the parent's buffers */
    pid = fork();
    if (pid < 0) {
        snprintf(res->msg, sizeof res->msg, "fork: %s", strerror(errno));
        close(sv[0]);
        close(sv[1]);
        return -1;
    }
    if (pid == 0) {
        close(sv[0]);
        quiet_stderr(s);
        worker_main(s, sv[1]);
    }
    close(sv[1]);
    s->worker = xcalloc(1, sizeof *s->worker);
    s->worker->pid = pid;
    s->worker->fd = sv[0];
    return 0;
}

/* The worker died or went astray: reaps it and says why in res. */
static void worker_lost(struct solver *s, struct solve_result *res,
                        int timed_out)
{
    struct solver_worker *wk = s->worker;
    int wst = 0;
    pid_t rc;

    res->status = SOLVE_FAILED;
    if (timed_out)
        kill(wk->pid, SIGKILL);
    close(wk->fd);
    do
        rc = waitpid(wk->pid, &wst, 0);
    while (rc < 0 && errno == EINTR);
    if (timed_out)
        snprintf(res->msg, sizeof res->msg,
                 "%s ran past twice its time limit of %g s and was killed",
                 s->ops->name, s->opts.time_limit);
    else if (rc > 0 && WIFSIGNALED(wst))
        snprintf(res->msg, sizeof res->msg, "%s crashed (signal %d, %s)",
                 s->ops->name, WTERMSIG(wst), strsignal(WTERMSIG(wst)));
    else
        snprintf(res->msg, sizeof res->msg,
                 "%s's process ended (exit status %d)", s->ops->name,
                 rc > 0 && WIFEXITED(wst) ? WEXITSTATUS(wst) : -1);
    xfree(wk);
    s->worker = NULL;
}

int solver_takes_start(const struct solver *s, int effort)
{
    return s->ops->takes_start == SOLVER_START_LIGHT
               ? effort == SOLVER_EFFORT_LIGHT
               : s->ops->takes_start != 0;
}

long solver_worker_pid(const struct solver *s)
{
    return s->worker ? (long)s->worker->pid : 0;
}

static void solve_isolated(struct solver *s, const struct milp *m,
                           struct solve_result *res)
{
    const char *crash = getenv(SOLVER_TEST_CRASH_ENV);
    double t0 = bfs_now(), deadline = HUGE_VAL;
    struct request q;
    struct reply w;
    ssize_t k;
    int sent = -1;

    memset(&q, 0, sizeof q);
    q.opts = s->opts;
    q.crash = crash && strcmp(crash, "1") == 0;
    q.maximize = m->maximize;
    q.obj_offset = m->obj_offset;
    q.n_cols = m->n_cols;
    q.n_rows = m->n_rows;
    q.nnz = m->nnz;
    q.has_start = m->start != NULL;
    if (s->opts.time_limit < HUGE_VAL)
        deadline = t0 + 2 * s->opts.time_limit + 10.0;
    /* a worker left from an earlier solve may have been killed since:
     * one fresh start is allowed */
    for (int attempt = 0; attempt < 2 && sent != 0; attempt++) {
        if (!s->worker && worker_start(s, res) != 0) {
            res->status = SOLVE_FAILED;
            return;
        }
        sent = send_model(s->worker->fd, &q, m);
        if (sent != 0)
            worker_stop(s);
    }
    if (sent != 0) {
        res->status = SOLVE_FAILED;
        snprintf(res->msg, sizeof res->msg,
                 "cannot send the model to the %s process", s->ops->name);
        return;
    }
    k = read_until(s->worker->fd, &w, sizeof w, deadline);
    if (k == (ssize_t)sizeof w && w.n_x <= m->n_cols)
        k = read_until(s->worker->fd, res->x, w.n_x * sizeof *res->x,
                       deadline) == (ssize_t)(w.n_x * sizeof *res->x)
                ? 1
                : -1;
    else if (k >= 0)
        k = 0; /* a short reply: the worker died */
    if (k != 1) {
        worker_lost(s, res, k < 0 && bfs_now() >= deadline);
        /* what the child did is lost with it: the wait is overhead */
        res->ipc_s = bfs_now() - t0;
        res->nodes = res->iters = res->cuts = -1;
        return;
    }
    res->status = w.status;
    res->objective = w.objective;
    res->bound = w.bound;
    res->build_s = w.build_s;
    res->solve_s = w.solve_s;
    res->cpu_s = w.cpu_s;
    res->root_bound = w.root_bound;
    res->nodes = w.nodes;
    res->iters = w.iters;
    res->cuts = w.cuts;
    /* the round trip's wall time less what the child measured */
    res->ipc_s = bfs_now() - t0 - w.build_s - w.solve_s;
    if (res->ipc_s < 0)
        res->ipc_s = 0;
    memcpy(res->msg, w.msg, sizeof res->msg);
    res->msg[sizeof res->msg - 1] = '\0';
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

/* SOLVER_TEST_CRASH_ENV is "timeout": the time limit is hit before the
 * backend's search, with the start (if the backend would have used it and
 * it is feasible) as the incumbent. */
static int forced_timeout(void)
{
    const char *v = getenv(SOLVER_TEST_CRASH_ENV);
    return v && strcmp(v, "timeout") == 0;
}

static void solve_timed_out(const struct solver *s, const struct milp *m,
                            struct solve_result *res)
{
    if (solver_takes_start(s, s->opts.effort) && m->start &&
        milp_violation(m, m->start) <= 1e-9) {
        memcpy(res->x, m->start, m->n_cols * sizeof *res->x);
        res->status = SOLVE_FEASIBLE;
        res->objective = milp_objective(m, m->start);
    } else {
        res->status = SOLVE_NO_SOLUTION;
    }
    snprintf(res->msg, sizeof res->msg,
             "time limit of %g s hit (forced by %s=timeout)",
             s->opts.time_limit, SOLVER_TEST_CRASH_ENV);
}

int solver_solve(struct solver *s, const struct milp *m,
                 struct solve_result *res, struct bfs_error *e)
{
    int rc = milp_check(m, e);

    if (rc)
        return rc;
    res->status = SOLVE_FAILED;
    res->objective = nan("");
    res->bound = m->maximize ? HUGE_VAL : -HUGE_VAL;
    res->build_s = res->solve_s = res->cpu_s = res->ipc_s = 0.0;
    /* decided here (no columns, a forced timeout): no work done */
    res->nodes = res->iters = res->cuts = 0;
    res->root_bound = nan("");
    res->msg[0] = '\0';
    if (m->n_cols == 0)
        solve_empty(m, res);
    else if (forced_timeout())
        solve_timed_out(s, m, res);
    else if (solver_isolated(s))
        solve_isolated(s, m, res);
    else
        run_backend(s, m, res);
    return 0;
}
