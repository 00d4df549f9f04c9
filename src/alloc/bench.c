/* bench.c - a corpus of instances solved under several configurations
 * (bench.h).
 *
 * Parallel runs: the rows live in one anonymous shared mapping, with a
 * counter of the next (instance, configuration) pair to solve; each of
 * the `jobs` forked processes takes pairs from the counter (an atomic
 * add, so the slow pairs spread over the processes), solves them with
 * its own allocators and writes the row in place.  The parent waits for
 * every process; a row whose process died before writing it stays
 * "not done" and counts as failed.  Pairs are numbered instance-major,
 * so the processes work on different instances at once.  Processes
 * leave with _exit, so that stdio buffers are not written twice.
 *
 * Statistics: a row counts its build + solve time when the answer is
 * proven (optimal or infeasible) and the time limit otherwise; the
 * shifted geometric mean and the wins and losses use those times.
 */
#include "config.h"

#include "alloc/bench.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

void bench_init(struct bench *b)
{
    memset(b, 0, sizeof *b);
}

static int add_file(struct bench *b, const char *path, int bigm,
                    struct bfs_error *e)
{
    struct instance in;
    int rc = instance_read(path, &in, e);

    if (rc)
        return rc;
    if (bigm >= 0)
        in.p.cap = bigm ? (in.p.pool + 1) / 2 : 0;
    if (b->n_inst == b->cap_inst) {
        size_t cap = b->cap_inst;
        BFS_GROW(b->inst, cap, b->n_inst + 1);
        BFS_GROW(b->paths, b->cap_inst, b->n_inst + 1);
    }
    b->inst[b->n_inst] = in;
    b->paths[b->n_inst] = xstrdup(path);
    b->n_inst++;
    return 0;
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

int bench_add_path(struct bench *b, const char *path, int bigm,
                   struct bfs_error *e)
{
    struct stat sb;
    DIR *d;
    struct dirent *de;
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;

    if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return add_file(b, path, bigm, e);
    d = opendir(path);
    if (!d)
        return bfs_fail(e, BFS_EIO, "%s: %s", path, strerror(errno));
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len <= 5 || strcmp(de->d_name + len - 5, ".json") != 0)
            continue;
        BFS_GROW(names, cap, n + 1);
        names[n] = xmalloc(strlen(path) + len + 2);
        sprintf(names[n], "%s/%s", path, de->d_name);
        n++;
    }
    closedir(d);
    if (n == 0)
        rc = bfs_fail(e, BFS_EIO, "%s: no *.json instance files", path);
    if (n > 1)
        qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        if (rc == 0)
            rc = add_file(b, names[i], bigm, e);
        xfree(names[i]);
    }
    xfree(names);
    return rc;
}

int bench_add_config(struct bench *b, const char *text,
                     const struct alloc_opts *base, struct bfs_error *e)
{
    struct bench_config c;
    struct allocator *a = NULL;
    char *part[3] = {NULL, NULL, NULL}, *p;
    int np = 0, rc;

    memset(&c, 0, sizeof c);
    c.label = xstrdup(text);
    c.buf = xstrdup(text);
    c.o = *base;
    /* ALLOC[:MODEL][:SOLVER[,OPTION...]]: the solver part keeps any ':' */
    p = c.buf;
    part[np++] = p;
    while (np < 3 && (p = strchr(p, ':')) != NULL) {
        *p++ = '\0';
        part[np++] = p;
    }
    c.o.name = part[0];
    c.o.model = "count";
    c.o.solver = base->solver;
    for (int k = 1; k < np; k++) {
        if (k == 1 &&
            (strcmp(part[k], "count") == 0 || strcmp(part[k], "node") == 0))
            c.o.model = part[k];
        else if (k == np - 1 && part[k][0])
            c.o.solver = part[k];
        else {
            /* "milp:cbc:x": a third part after a solver */
            rc = bfs_fail(e, BFS_EUSAGE,
                          "configuration '%s': '%s' is neither count, node "
                          "nor a solver in last place (ALLOC[:MODEL][:SOLVER"
                          "[,KEY=VALUE...]])",
                          text, part[k]);
            goto fail;
        }
    }
    if (np > 1 && strcmp(c.o.name, "milp") != 0) {
        rc = bfs_fail(e, BFS_EUSAGE,
                      "configuration '%s': a model or solver is for milp "
                      "only",
                      text);
        goto fail;
    }
    rc = allocator_create(&c.o, &a, e);
    if (rc)
        goto fail;
    allocator_free(a);
    if (b->n_cfg == b->cap_cfg)
        BFS_GROW(b->cfg, b->cap_cfg, b->n_cfg + 1);
    b->cfg[b->n_cfg++] = c;
    return 0;
fail:
    xfree(c.buf);
    xfree(c.label);
    return rc;
}

/* Solves pair k (instance k / n_cfg, configuration k % n_cfg) into its
 * row, creating the configuration's allocator in al[] at first use. */
static void solve_pair(const struct bench *b, size_t k, struct allocator **al,
                       struct bench_row *row)
{
    size_t i = k / b->n_cfg, c = k % b->n_cfg;
    const struct alloc_problem *p = &b->inst[i].p;
    struct alloc_result r;
    struct bfs_error e;
    int *counts = xcalloc(p->n_jobs + 1, sizeof *counts);

    bfs_error_clear(&e);
    memset(row, 0, sizeof *row);
    row->status = SOLVE_FAILED;
    row->objective = row->bound = nan("");
    memset(&r, 0, sizeof r);
    r.counts = counts;
    if (!al[c] && allocator_create(&b->cfg[c].o, &al[c], &e) != 0)
        snprintf(row->note, sizeof row->note, "%.120s", e.msg);
    else if (allocator_solve(al[c], p, &r, &e) != 0)
        snprintf(row->note, sizeof row->note, "%.120s", e.msg);
    else {
        row->status = r.status;
        if (r.status == SOLVE_OPTIMAL || r.status == SOLVE_FEASIBLE) {
            row->objective = r.objective;
            row->bound = isfinite(r.bound) ? r.bound : nan("");
        }
        row->build_s = r.build_s;
        row->solve_s = r.solve_s;
        row->rows = r.rows;
        row->cols = r.cols;
        row->nnz = r.nnz;
    }
    row->done = 1;
    xfree(counts);
}

/* Takes pairs from *next until none is left. */
static void work(const struct bench *b, struct bench_row *rows, size_t *next)
{
    size_t total = b->n_inst * b->n_cfg;
    struct allocator **al = xcalloc(b->n_cfg + 1, sizeof *al);

    for (;;) {
        size_t k = __atomic_fetch_add(next, 1, __ATOMIC_SEQ_CST);
        if (k >= total)
            break;
        solve_pair(b, k, al, &rows[k]);
    }
    for (size_t c = 0; c < b->n_cfg; c++)
        allocator_free(al[c]);
    xfree(al);
}

int bench_run(struct bench *b, int jobs, struct bfs_error *e)
{
    size_t total = b->n_inst * b->n_cfg, bytes;
    struct bench_row *shared;
    size_t *next;
    pid_t *pids;
    int started = 0;

    xfree(b->rows);
    b->rows = xcalloc(total + 1, sizeof *b->rows);
    if (jobs <= 1 || total <= 1) {
        size_t k = 0;
        work(b, b->rows, &k);
        return 0;
    }
    if ((size_t)jobs > total)
        jobs = (int)total;
    bytes = (total + 1) * sizeof *shared + sizeof(size_t);
    shared = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED)
        return bfs_fail(e, BFS_EIO, "mmap: %s", strerror(errno));
    memset(shared, 0, bytes);
    next = (size_t *)(void *)(shared + total + 1);
    pids = xcalloc((size_t)jobs, sizeof *pids);
    fflush(NULL); /* the children must not write the parent's buffers */
    for (int w = 0; w < jobs; w++) {
        pid_t pid = fork();
        if (pid == 0) {
            work(b, shared, next);
            _exit(0);
        }
        if (pid > 0)
            pids[started++] = pid;
    }
    for (int w = 0; w < started; w++)
        while (waitpid(pids[w], NULL, 0) < 0 && errno == EINTR)
            ;
    xfree(pids);
    memcpy(b->rows, shared, total * sizeof *shared);
    munmap(shared, bytes);
    for (size_t k = 0; k < total; k++)
        if (!b->rows[k].done) {
            b->rows[k].status = SOLVE_FAILED;
            b->rows[k].objective = b->rows[k].bound = nan("");
            snprintf(b->rows[k].note, sizeof b->rows[k].note,
                     "its process ended before solving it");
        }
    return started > 0 ? 0
                       : bfs_fail(e, BFS_EIO, "cannot start a process: %s",
                                  strerror(errno));
}

double bench_time(const struct bench_row *r, double time_limit)
{
    if (r->done &&
        (r->status == SOLVE_OPTIMAL || r->status == SOLVE_INFEASIBLE))
        return r->build_s + r->solve_s;
    return time_limit;
}

double bench_sgm(const double *t, size_t n, double shift)
{
    double s = 0.0;

    if (n == 0)
        return 0.0;
    for (size_t i = 0; i < n; i++)
        s += log(t[i] + shift);
    return exp(s / (double)n) - shift;
}

void bench_summarize(const struct bench *b, size_t c, double time_limit,
                     double shift, double win_factor, struct bench_summary *s)
{
    double *t = xcalloc(b->n_inst + 1, sizeof *t);

    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < b->n_inst; i++) {
        const struct bench_row *r = &b->rows[i * b->n_cfg + c];
        double t0 = bench_time(&b->rows[i * b->n_cfg], time_limit);
        t[i] = bench_time(r, time_limit);
        if (!r->done || r->status == SOLVE_FAILED)
            s->failed++;
        else if (r->status == SOLVE_OPTIMAL)
            s->optimal++;
        else if (r->status == SOLVE_INFEASIBLE)
            s->infeasible++;
        else
            s->limit++;
        if (c > 0 && t[i] * win_factor < t0)
            s->wins++;
        else if (c > 0 && t[i] > t0 * win_factor)
            s->losses++;
    }
    s->sgm_s = bench_sgm(t, b->n_inst, shift);
    xfree(t);
}

int bench_differ(double a, double b, double tol)
{
    double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);

    if (m < 1)
        m = 1;
    return fabs(a - b) > tol * m;
}

int bench_exact(const struct bench_config *c)
{
    return strcmp(c->o.name, "even") != 0;
}

int bench_disagree(const struct bench *b, size_t i, size_t c, double tol,
                   size_t *ref)
{
    const struct bench_row *row = &b->rows[i * b->n_cfg];

    if (!row[c].done || row[c].status != SOLVE_OPTIMAL ||
        !bench_exact(&b->cfg[c]))
        return 0;
    for (size_t r = 0; r < c; r++)
        if (row[r].done && row[r].status == SOLVE_OPTIMAL &&
            bench_exact(&b->cfg[r])) {
            if (!bench_differ(row[r].objective, row[c].objective, tol))
                return 0;
            *ref = r;
            return 1;
        }
    return 0;
}

void bench_release(struct bench *b)
{
    for (size_t i = 0; i < b->n_inst; i++) {
        instance_release(&b->inst[i]);
        xfree(b->paths[i]);
    }
    for (size_t c = 0; c < b->n_cfg; c++) {
        xfree(b->cfg[c].label);
        xfree(b->cfg[c].buf);
    }
    xfree(b->inst);
    xfree(b->paths);
    xfree(b->cfg);
    xfree(b->rows);
    bench_init(b);
}
