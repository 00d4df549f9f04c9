/* bench.c - a corpus of instances solved under several configurations
 * (bench.h).
 *
 * Runs: instance i, configuration c, seed s and repeat r are one run,
 * stored at bench_index() (instance-major).  The order they are solved
 * in is a permutation of all runs shuffled with splitmix64 from
 * b->order_seed, so that the configurations, seeds and repeats of an
 * instance are spread over the whole benchmark and a load change hits
 * all of them alike (listing a configuration first or last changes
 * nothing).
 *
 * Parallel runs: the rows live in one anonymous shared mapping, with a
 * counter of the next run in that order; each of the `jobs` forked
 * processes takes runs from the counter (an atomic add, so the slow runs
 * spread over the processes), solves them with its own allocators (one
 * per configuration and seed) and writes the row in place.  The parent
 * waits for every process; a row whose process died before writing it
 * stays "not done" and counts as failed.  Processes leave with _exit, so
 * that stdio buffers are not written twice.
 *
 * Statistics: a run counts its build + solve time, measured where the
 * solver runs (an isolated solver's child), when its answer is proven
 * (optimal or infeasible) and the time limit otherwise.  Per instance
 * and configuration: the median over seeds of each seed's median over
 * its repeats, and the spread over all runs; nodes likewise.  A verdict
 * needs every run of one configuration faster than every run of the
 * other by more than the threshold (bench_verdict); the shifted
 * geometric means are over those medians.
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
    b->n_seeds = b->n_repeat = 1;
    b->order_seed = 1;
}

void bench_params_default(struct bench_params *q)
{
    q->time_limit = 10.0;
    q->shift_s = 0.01;
    q->shift_nodes = 10.0;
    q->threshold = 0.1;
    q->affected_s = 0.1;
}

size_t bench_index(const struct bench *b, size_t i, size_t c, size_t s,
                   size_t r)
{
    return ((i * b->n_cfg + c) * b->n_seeds + s) * b->n_repeat + r;
}

unsigned bench_seed(const struct bench *b, size_t s)
{
    return b->seeded ? (unsigned)s + 1 : 0;
}

/* The number of runs. */
static size_t n_runs(const struct bench *b)
{
    return b->n_inst * b->n_cfg * b->n_seeds * b->n_repeat;
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
        cap = b->cap_inst;
        BFS_GROW(b->stems, cap, b->n_inst + 1);
        BFS_GROW(b->paths, b->cap_inst, b->n_inst + 1);
    }
    b->inst[b->n_inst] = in;
    b->paths[b->n_inst] = xstrdup(path);
    b->stems[b->n_inst] = bench_stem(path);
    b->n_inst++;
    return 0;
}

char *bench_stem(const char *path)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t n = strlen(base);
    char *s;

    if (n > 5 && strcmp(base + n - 5, ".json") == 0)
        n -= 5;
    s = xmalloc(n + 1);
    memcpy(s, base, n);
    s[n] = '\0';
    return s;
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
        qsort(names, n, sizeof *names, bfs_cmp_str);
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
    c.o.start = 0; /* the whole model, unless start=yes is given */
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

/* Solves run k (bench_index's numbering) into its row, creating the
 * allocator of its configuration and seed in al[] at first use. */
static void solve_run(const struct bench *b, size_t k, struct allocator **al,
                      struct bench_row *row)
{
    size_t per_inst = b->n_cfg * b->n_seeds * b->n_repeat;
    size_t i = k / per_inst, c = k % per_inst / (b->n_seeds * b->n_repeat);
    size_t s = k / b->n_repeat % b->n_seeds, a = c * b->n_seeds + s;
    const struct alloc_problem *p = &b->inst[i].p;
    struct alloc_result r;
    struct bfs_error e;
    int *counts = xcalloc(p->n_jobs + 1, sizeof *counts);
    int *types = xcalloc(p->n_jobs + 1, sizeof *types); /* node types */

    bfs_error_clear(&e);
    memset(row, 0, sizeof *row);
    row->status = SOLVE_FAILED;
    row->objective = row->bound = row->root_bound = nan("");
    row->nodes = row->iters = row->cuts = -1;
    memset(&r, 0, sizeof r);
    r.counts = counts;
    r.types = types;
    if (!al[a]) {
        struct alloc_opts o = b->cfg[c].o;
        o.seed = bench_seed(b, s);
        if (allocator_create(&o, &al[a], &e) != 0)
            snprintf(row->note, sizeof row->note, "%.120s", e.msg);
    }
    if (al[a] && b->cfg[c].o.mps_dir) {
        /* the models of the first run of each pair only: the others'
         * are the same */
        char tag[512];
        snprintf(tag, sizeof tag, "%s.c%zu", b->stems[i], c + 1);
        allocator_set_tag(al[a], s == 0 && k % b->n_repeat == 0 ? tag : NULL);
    }
    if (al[a] && allocator_solve(al[a], p, &r, &e) != 0)
        snprintf(row->note, sizeof row->note, "%.120s", e.msg);
    else if (al[a]) {
        row->status = r.status;
        if (r.status == SOLVE_OPTIMAL || r.status == SOLVE_FEASIBLE) {
            row->objective = r.objective;
            row->bound = isfinite(r.bound) ? r.bound : nan("");
        }
        row->build_s = r.build_s;
        row->solve_s = r.solve_s;
        row->cpu_s = r.cpu_s;
        row->ipc_s = r.ipc_s;
        row->nodes = r.nodes;
        row->iters = r.iters;
        row->root_bound = r.root_bound;
        row->cuts = r.cuts;
        row->mip_solves = r.mip_solves;
        row->rows = r.rows;
        row->cols = r.cols;
        row->nnz = r.nnz;
    }
    row->done = 1;
    xfree(types);
    xfree(counts);
}

/* Takes runs from *next, in the order order[], until none is left. */
static void work(const struct bench *b, const size_t *order,
                 struct bench_row *rows, size_t *next)
{
    size_t total = n_runs(b), n_al = b->n_cfg * b->n_seeds;
    struct allocator **al = xcalloc(n_al + 1, sizeof *al);

    for (;;) {
        size_t k = __atomic_fetch_add(next, 1, __ATOMIC_SEQ_CST);
        if (k >= total)
            break;
        solve_run(b, order[k], al, &rows[order[k]]);
    }
    for (size_t a = 0; a < n_al; a++)
        allocator_free(al[a]);
    xfree(al);
}

int bench_run(struct bench *b, int jobs, struct bfs_error *e)
{
    size_t total = n_runs(b), bytes;
    size_t *order = xcalloc(total + 1, sizeof *order);
    uint64_t st = b->order_seed;
    struct bench_row *shared;
    size_t *next;
    pid_t *pids;
    int started = 0;

    for (size_t k = 0; k < total; k++)
        order[k] = k;
    bfs_shuffle(order, total, &st);
    xfree(b->rows);
    b->rows = xcalloc(total + 1, sizeof *b->rows);
    if (jobs <= 1 || total <= 1) {
        size_t k = 0;
        work(b, order, b->rows, &k);
        xfree(order);
        return 0;
    }
    if ((size_t)jobs > total)
        jobs = (int)total;
    bytes = (total + 1) * sizeof *shared + sizeof(size_t);
    shared = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) {
        xfree(order);
        return bfs_fail(e, BFS_EIO, "mmap: %s", strerror(errno));
    }
    memset(shared, 0, bytes);
    next = (size_t *)(void *)(shared + total + 1);
    pids = xcalloc((size_t)jobs, sizeof *pids);
    fflush(NULL); /* the children must not write the parent's buffers */
    for (int w = 0; w < jobs; w++) {
        pid_t pid = fork();
        if (pid == 0) {
            work(b, order, shared, next);
            _exit(0);
        }
        if (pid > 0)
            pids[started++] = pid;
    }
    for (int w = 0; w < started; w++)
        while (waitpid(pids[w], NULL, 0) < 0 && errno == EINTR)
            ;
    xfree(pids);
    xfree(order);
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

double bench_median(double *v, size_t n)
{
    if (n == 0)
        return nan("");
    qsort(v, n, sizeof *v, bfs_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void bench_cell(const struct bench *b, size_t i, size_t c,
                const struct bench_params *q, struct bench_cell *out)
{
    size_t nr = b->n_repeat, ns = b->n_seeds;
    double *t = xcalloc(nr + 1, sizeof *t), *n = xcalloc(nr + 1, sizeof *n);
    double *ts = xcalloc(ns + 1, sizeof *ts),
           *nseed = xcalloc(ns + 1, sizeof *ts);
    int known = 1;

    memset(out, 0, sizeof *out);
    out->runs = nr * ns;
    out->t_min = out->n_min = HUGE_VAL;
    out->t_max = out->n_max = -HUGE_VAL;
    out->n_same = 1;
    for (size_t s = 0; s < ns; s++) {
        for (size_t r = 0; r < nr; r++) {
            const struct bench_row *row = &b->rows[bench_index(b, i, c, s, r)];
            t[r] = bench_time(row, q->time_limit);
            n[r] = (double)row->nodes;
            if (!row->done || row->status == SOLVE_FAILED)
                out->failed++;
            else if (row->status == SOLVE_OPTIMAL ||
                     row->status == SOLVE_INFEASIBLE)
                out->proven++;
            else
                out->limit++;
            known &= row->done && row->nodes >= 0;
            out->n_same &= n[r] == n[0];
            if (t[r] < out->t_min)
                out->t_min = t[r];
            if (t[r] > out->t_max)
                out->t_max = t[r];
            if (n[r] < out->n_min)
                out->n_min = n[r];
            if (n[r] > out->n_max)
                out->n_max = n[r];
        }
        ts[s] = bench_median(t, nr);
        nseed[s] = bench_median(n, nr);
    }
    out->t_med = bench_median(ts, ns);
    out->n_med = known ? bench_median(nseed, ns) : nan("");
    if (!known)
        out->n_min = out->n_max = nan("");
    out->n_same &= known;
    xfree(nseed);
    xfree(ts);
    xfree(n);
    xfree(t);
}

/* Whether every run of x is below every run of y by more than the
 * threshold: x's largest value (1 + thr) < y's smallest.  Then the
 * medians differ by more than thr too, and the spreads do not overlap.
 * Asking only for both of those (the medians apart by thr, the spreads
 * apart at all) let noise decide: with 3 runs a side, two
 * interchangeable samples fail to overlap one time in ten, and the
 * millisecond solves' noise is often above 10%; a configuration against
 * itself then "won" 2 and 3 of the corpus's 73 instances under load. */
static int below(double x_max, double y_min, double thr)
{
    return x_max * (1 + thr) < y_min;
}

int bench_verdict(const struct bench_cell *x, const struct bench_cell *ref,
                  double thr)
{
    if (below(x->t_max, ref->t_min, thr))
        return BENCH_WIN;
    if (below(ref->t_max, x->t_min, thr))
        return BENCH_LOSS;
    /* times tie: deterministic node counts decide */
    if (x->proven != x->runs || ref->proven != ref->runs || !x->n_same ||
        !ref->n_same)
        return BENCH_TIE;
    if (below(x->n_max, ref->n_min, thr))
        return BENCH_WIN;
    if (below(ref->n_max, x->n_min, thr))
        return BENCH_LOSS;
    return BENCH_TIE;
}

int bench_affected(const struct bench *b, size_t i,
                   const struct bench_params *q)
{
    double n0 = nan("");

    for (size_t c = 0; c < b->n_cfg; c++) {
        struct bench_cell x;
        bench_cell(b, i, c, q, &x);
        if (x.t_med >= q->affected_s)
            return 1;
        if (isnan(x.n_med))
            continue;
        if (!isnan(n0) && x.n_med != n0)
            return 1;
        n0 = x.n_med;
    }
    return 0;
}

/* Whether every configuration proved instance i in every run with known
 * nodes: the instances the nodes' mean is taken over. */
static int all_solved(const struct bench *b, size_t i,
                      const struct bench_params *q)
{
    for (size_t c = 0; c < b->n_cfg; c++) {
        struct bench_cell x;
        bench_cell(b, i, c, q, &x);
        if (x.proven != x.runs || isnan(x.n_med))
            return 0;
    }
    return 1;
}

void bench_summarize(const struct bench *b, size_t c,
                     const struct bench_params *q, struct bench_summary *s)
{
    size_t ni = b->n_inst, nt = 0, nn = 0, at = 0, an = 0;
    double *t = xcalloc(ni + 1, sizeof *t), *n = xcalloc(ni + 1, sizeof *n);
    double *ta = xcalloc(ni + 1, sizeof *ta);
    double *na = xcalloc(ni + 1, sizeof *na);

    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < ni; i++) {
        struct bench_cell x, ref;
        int aff = bench_affected(b, i, q), solved = all_solved(b, i, q);
        bench_cell(b, i, c, q, &x);
        if (x.failed)
            s->failed++;
        else if (x.limit)
            s->limit++;
        else
            s->solved++;
        t[nt++] = x.t_med;
        if (solved)
            n[nn++] = x.n_med;
        if (aff) {
            s->affected++;
            ta[at++] = x.t_med;
            if (solved)
                na[an++] = x.n_med;
        }
        if (c == 0)
            continue;
        bench_cell(b, i, 0, q, &ref);
        switch (bench_verdict(&x, &ref, q->threshold)) {
        case BENCH_WIN:
            s->wins++;
            break;
        case BENCH_LOSS:
            s->losses++;
            break;
        default:
            s->ties++;
        }
    }
    s->sgm_s = bench_sgm(t, nt, q->shift_s);
    s->sgm_nodes = nn ? bench_sgm(n, nn, q->shift_nodes) : nan("");
    s->sgm_s_aff = at ? bench_sgm(ta, at, q->shift_s) : nan("");
    s->sgm_nodes_aff = an ? bench_sgm(na, an, q->shift_nodes) : nan("");
    xfree(na);
    xfree(ta);
    xfree(n);
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

/* Whether row is a proven optimum of an exact configuration c. */
static int proven_exact(const struct bench *b, size_t c,
                        const struct bench_row *row)
{
    return row->done && row->status == SOLVE_OPTIMAL && bench_exact(&b->cfg[c]);
}

int bench_disagree(const struct bench *b, size_t i, size_t c, double tol,
                   size_t *ref)
{
    size_t per = b->n_seeds * b->n_repeat;
    const struct bench_row *first = NULL,
                           *row = &b->rows[bench_index(b, i, 0, 0, 0)];
    size_t fc = 0;

    for (size_t k = 0; k < (c + 1) * per; k++) {
        size_t kc = k / per;
        if (!proven_exact(b, kc, &row[k]))
            continue;
        if (!first) {
            first = &row[k];
            fc = kc;
        } else if (kc == c &&
                   bench_differ(first->objective, row[k].objective, tol)) {
            *ref = fc;
            return 1;
        }
    }
    return 0;
}

void bench_release(struct bench *b)
{
    for (size_t i = 0; i < b->n_inst; i++) {
        instance_release(&b->inst[i]);
        xfree(b->paths[i]);
        xfree(b->stems[i]);
    }
    for (size_t c = 0; c < b->n_cfg; c++) {
        xfree(b->cfg[c].label);
        xfree(b->cfg[c].buf);
    }
    XFREE_ALL(b->inst, b->paths, b->stems, b->cfg, b->rows);
    bench_init(b);
}
