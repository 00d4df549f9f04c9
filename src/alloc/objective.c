/* objective.c - see objective.h.
 *
 * The objective is evaluated as the gain Tfwd O_j(n) minus the rescale
 * cost, each computed by one function here.  alloc_objective adds the
 * gain, then subtracts the cost, job by job, and alloc_value returns
 * gain - cost: the order of the floating-point operations is part of the
 * results (the compatible mode matches the published replayer to the
 * last bit), so it is fixed here and nowhere else.
 *
 * With node types the _t functions price a job's (type, count) pair by
 * the rules of objective.h; with one type each returns its one-type
 * counterpart's result, so no one-type number changes.  alloc_values_t
 * tabulates alloc_value_t, the same doubles.
 *
 * Reduced-cost fixing with node types (alloc_lagr_*, see objective.h).
 * Each job's options on each type enter through their upper hull in (n,
 * v) (fix_hulls(): the maximisers of v - lambda n are hull points for
 * every lambda; a point dropped by a rounding is within a few ulps of
 * it, far below tol, so phi is the maximum to that precision).  Along
 * one price (one type's, or all types' at once), each job's best option
 * follows the upper hull of its options priced that way (the others at
 * their best as one point at n = 0): as the price passes the slope into
 * a hull point, the job's nodes fall to the previous point's.  Sorting
 * these falls gives the exact minimum of L along the price (line()),
 * where the nodes the jobs use first fit the capacity.
 */
#include "config.h"

#include "alloc/objective.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* r_j: the rate a rescale of job j pauses. */
static double rescale_rate(const struct alloc_job *jb)
{
    return jb->cur >= jb->jmin ? jb->o[jb->cur] : 0.0;
}

double alloc_cost_up(const struct alloc_problem *p, size_t j)
{
    return p->jobs[j].tcup * rescale_rate(&p->jobs[j]);
}

double alloc_cost_down(const struct alloc_problem *p, size_t j)
{
    return p->jobs[j].tcdw * rescale_rate(&p->jobs[j]);
}

double alloc_rescale_cost(const struct alloc_problem *p, size_t j, int n)
{
    int cur = p->jobs[j].cur;

    if (n > cur)
        return alloc_cost_up(p, j);
    if (n < cur)
        return alloc_cost_down(p, j);
    return 0.0;
}

/* Tfwd O_j(n), or h_j(n) O_j(n) with hints. */
static double gain(const struct alloc_problem *p, size_t j, int n)
{
    if (p->jobs[j].h)
        return p->jobs[j].h[n] * p->jobs[j].o[n];
    return p->tfwd * p->jobs[j].o[n];
}

double alloc_gain(const struct alloc_problem *p, size_t j, int n)
{
    return gain(p, j, n);
}

double alloc_value(const struct alloc_problem *p, size_t j, int n)
{
    return gain(p, j, n) - alloc_rescale_cost(p, j, n);
}

double alloc_objective(const struct alloc_problem *p, const int *n)
{
    double z = 0.0;

    for (size_t j = 0; j < p->n_jobs; j++) {
        z += gain(p, j, n[j]);
        z -= alloc_rescale_cost(p, j, n[j]);
    }
    return z;
}

int alloc_admissible(const struct alloc_problem *p, size_t j, int n)
{
    const struct alloc_job *jb = &p->jobs[j];

    if (n < 0 || n > p->pool || n > jb->jmax)
        return 0;
    if (n > 0 && n < jb->jmin)
        return 0;
    if (p->cap > 0 && abs(n - jb->cur) > p->cap)
        return 0;
    return 1;
}

int alloc_feasible(const struct alloc_problem *p, const int *n)
{
    long sum = 0;

    for (size_t j = 0; j < p->n_jobs; j++) {
        if (!alloc_admissible(p, j, n[j]))
            return 0;
        sum += n[j];
    }
    return sum <= p->pool;
}

double alloc_tie_tol(const struct alloc_problem *p)
{
    double s = 0.0;

    for (size_t j = 0; j < p->n_jobs; j++) {
        double big = 0.0;
        for (int n = 0; n <= p->jobs[j].jmax; n++)
            if (alloc_admissible(p, j, n) && fabs(alloc_value(p, j, n)) > big)
                big = fabs(alloc_value(p, j, n));
        s += big;
    }
    return ALLOC_TIE_REL * (s > 1.0 ? s : 1.0);
}

/* Keys 2-5 of the rule (objective.h) for (an, at) against (bn, bt); key 5
 * only with types (the types are not read without). */
static int tie_cmp(const struct alloc_problem *p, const int *an, const int *at,
                   const int *bn, const int *bt)
{
    long ka = 0, kb = 0, sa = 0, sb = 0;
    int typed = p->n_types > 1;

    for (size_t j = 0; j < p->n_jobs; j++) {
        ka += alloc_keeps_t(p, j, typed ? at[j] : 0, an[j]);
        kb += alloc_keeps_t(p, j, typed ? bt[j] : 0, bn[j]);
        sa += an[j];
        sb += bn[j];
    }
    if (ka != kb)
        return ka > kb ? 1 : -1;
    if (sa != sb)
        return sa < sb ? 1 : -1;
    for (size_t j = 0; j < p->n_jobs; j++)
        if (an[j] != bn[j])
            return an[j] > bn[j] ? 1 : -1;
    for (size_t j = 0; typed && j < p->n_jobs; j++)
        if (an[j] > 0 && at[j] != bt[j])
            return at[j] < bt[j] ? 1 : -1;
    return 0;
}

int alloc_tie_cmp(const struct alloc_problem *p, const int *a, const int *b)
{
    struct alloc_problem one = *p;

    one.n_types = 1; /* the one-type keys, whatever p has */
    return tie_cmp(&one, a, NULL, b, NULL);
}

/* ---- node types ---------------------------------------------------------- */

int alloc_typed(const struct alloc_problem *p)
{
    return p->n_types > 1;
}

const double *alloc_table_t(const struct alloc_problem *p, size_t j, int t)
{
    if (!alloc_typed(p))
        return p->jobs[j].o;
    if (t < 0 || t >= p->n_types)
        return NULL;
    return p->jobs[j].ot[t];
}

int alloc_keeps_t(const struct alloc_problem *p, size_t j, int t, int n)
{
    const struct alloc_job *jb = &p->jobs[j];

    if (n != jb->cur)
        return 0;
    return !alloc_typed(p) || n == 0 || t == jb->ctype;
}

/* r_j with types: O_{j,c_j}(C_j) when C_j >= Jmin_j, else 0. */
static double rescale_rate_t(const struct alloc_job *jb)
{
    return jb->cur >= jb->jmin ? jb->ot[jb->ctype][jb->cur] : 0.0;
}

/* alloc_rescale_cost_t of job jb with types. */
static inline double rescale_cost_t(const struct alloc_job *jb, int t, int n)
{
    if (jb->cur > 0 && n > 0 && t != jb->ctype) /* a stop and a start */
        return (jb->tcdw + jb->tcup) * rescale_rate_t(jb);
    if (n > jb->cur)
        return jb->tcup * rescale_rate_t(jb);
    if (n < jb->cur)
        return jb->tcdw * rescale_rate_t(jb);
    return 0.0;
}

double alloc_rescale_cost_t(const struct alloc_problem *p, size_t j, int t,
                            int n)
{
    if (!alloc_typed(p))
        return alloc_rescale_cost(p, j, n);
    return rescale_cost_t(&p->jobs[j], t, n);
}

double alloc_gain_t(const struct alloc_problem *p, size_t j, int t, int n)
{
    if (!alloc_typed(p))
        return gain(p, j, n);
    return n == 0 ? 0.0 : p->tfwd * p->jobs[j].ot[t][n];
}

double alloc_value_t(const struct alloc_problem *p, size_t j, int t, int n)
{
    if (!alloc_typed(p))
        return alloc_value(p, j, n);
    return alloc_gain_t(p, j, t, n) - alloc_rescale_cost_t(p, j, t, n);
}

void alloc_values_run_t(const struct alloc_problem *p, size_t j, int t, int n0,
                        int n1, double *out)
{
    const struct alloc_job *jb = &p->jobs[j];

    for (int n = n0; n < n1; n++)
        out[n - n0] = !alloc_typed(p) ? alloc_value(p, j, n)
                      : n == 0
                          ? 0.0 - rescale_cost_t(jb, t, n)
                          : p->tfwd * jb->ot[t][n] - rescale_cost_t(jb, t, n);
}

double alloc_objective_t(const struct alloc_problem *p, const int *n,
                         const int *t)
{
    double z = 0.0;

    if (!alloc_typed(p))
        return alloc_objective(p, n);
    for (size_t j = 0; j < p->n_jobs; j++) {
        int tj = n[j] > 0 ? t[j] : -1;
        z += alloc_gain_t(p, j, tj, n[j]);
        z -= alloc_rescale_cost_t(p, j, tj, n[j]);
    }
    return z;
}

int alloc_admissible_t(const struct alloc_problem *p, size_t j, int t, int n)
{
    const struct alloc_job *jb = &p->jobs[j];

    if (!alloc_typed(p))
        return alloc_admissible(p, j, n);
    if (n == 0)
        return 1;
    if (t < 0 || t >= p->n_types || !jb->ot[t])
        return 0;
    return n >= jb->jmin && n <= jb->jmax && n <= p->pools[t];
}

int alloc_feasible_t(const struct alloc_problem *p, const int *n, const int *t)
{
    long *used;
    int ok = 1;

    if (!alloc_typed(p))
        return alloc_feasible(p, n);
    used = xcalloc((size_t)p->n_types, sizeof *used);
    for (size_t j = 0; j < p->n_jobs && ok; j++) {
        ok = alloc_admissible_t(p, j, t[j], n[j]);
        if (ok && n[j] > 0)
            used[t[j]] += n[j];
    }
    for (int k = 0; k < p->n_types && ok; k++)
        ok = used[k] <= p->pools[k];
    xfree(used);
    return ok;
}

double alloc_tie_tol_t(const struct alloc_problem *p)
{
    double s = 0.0;

    if (!alloc_typed(p))
        return alloc_tie_tol(p);
    for (size_t j = 0; j < p->n_jobs; j++) {
        double big = fabs(alloc_value_t(p, j, -1, 0));
        for (int t = 0; t < p->n_types; t++)
            for (int n = 1; n <= p->jobs[j].jmax; n++)
                if (alloc_admissible_t(p, j, t, n) &&
                    fabs(alloc_value_t(p, j, t, n)) > big)
                    big = fabs(alloc_value_t(p, j, t, n));
        s += big;
    }
    return ALLOC_TIE_REL * (s > 1.0 ? s : 1.0);
}

int alloc_tie_cmp_t(const struct alloc_problem *p, const int *an, const int *at,
                    const int *bn, const int *bt)
{
    return tie_cmp(p, an, at, bn, bt);
}

void alloc_values_t(const struct alloc_problem *p, size_t W, double *v)
{
    size_t nt = alloc_typed(p) ? (size_t)p->n_types : 1;

    for (size_t i = 0; i < p->n_jobs * nt * W; i++)
        v[i] = -HUGE_VAL;
    for (size_t j = 0; j < p->n_jobs; j++)
        for (int t = 0; t < (int)nt; t++)
            for (int n = t > 0; (size_t)n < W && n <= p->jobs[j].jmax; n++)
                if (alloc_admissible_t(p, j, t, n))
                    v[(j * nt + (size_t)t) * W + (size_t)n] =
                        alloc_value_t(p, j, t, n);
}

/* ---- reduced-cost fixing with node types --------------------------------- */

/* Most rounds of price changes, one type at a time (alloc_lagr_init). */
#define FIX_ROUNDS 8

/* A point: n nodes, value y (or, for line()'s events, a fall of n
 * nodes at price y). */
struct pt {
    int n;
    double y;
};

/* alloc_lagr_init's working state. */
struct fix {
    size_t nj, nt, W;
    const double *v; /* borrowed: the value table */
    long *cap;       /* nt: the most nodes the jobs can use per type */
    struct pt *hp;   /* the upper hulls' points */
    double *sl;      /* sl[k]: the slope into hp[k] from hp[k - 1] */
    size_t *hoff;    /* nj nt + 1: (j, t)'s hull starts at hp[hoff[..]] */
    double *lam;     /* nt: the prices */
    double *phi;     /* nj: max_o v_j(o) - lam_t n at the prices */
    struct pt *hull; /* scratch (one block, at hull, with ev): one
                        job's hull */
    struct pt *ev;   /* scratch: the slopes where jobs drop nodes */
    size_t *at;      /* scratch, nt: line_mu()'s places in the hulls */
    /* col[t nj + j]: the highest y - lam_t n over job j's hull on type t
     * (-HUGE_VAL: none) at lam_t = clam[t], made when cok[t]
     * (col_ready()); csave: a column's copy (lagr_run()) */
    double *col, *clam, *csave;
    int *cok;
};

/* Whether point b stays on the upper hull between a and (n, y) (a.n <
 * b.n < n): whether the chain turns down at b, the hulls' one test. */
static inline int hull_keeps(struct pt a, struct pt b, int n, double y)
{
    return (b.y - a.y) * (double)(n - b.n) > (y - b.y) * (double)(b.n - a.n);
}

/* Adds point (n, y) to the upper hull h[0..*m-1] (monotone chain: the
 * points come by n, and of two at one n the larger y stays). */
static inline void hull_push(struct pt *h, size_t *m, int n, double y)
{
    if (*m > 0 && h[*m - 1].n == n) {
        if (y <= h[*m - 1].y)
            return;
        (*m)--;
    }
    while (*m >= 2 && !hull_keeps(h[*m - 2], h[*m - 1], n, y))
        (*m)--;
    h[(*m)++] = (struct pt){n, y};
}

/* Each job's upper hull of (n, v_j(t, n)) on each type (monotone chain,
 * points on a chord dropped): the maximisers of v - lam n over the
 * counts on t are among its points, for any lam.  Also cap: the sum of
 * the jobs' largest counts per type (lagr_run() caps it at the pools). */
static void fix_hulls(struct fix *f)
{
    size_t nh = 0, W = f->W;

    f->hp = xmalloc((f->nj * f->nt * W + 1) * sizeof *f->hp);
    f->hoff = xcalloc(f->nj * f->nt + 1, sizeof *f->hoff);
    for (size_t jt = 0; jt < f->nj * f->nt; jt++) {
        const double *vt = &f->v[jt * W];
        size_t m = 0;
        f->hoff[jt] = nh;
        for (int n = 1; (size_t)n < W; n++)
            if (vt[n] != -HUGE_VAL)
                hull_push(&f->hp[nh], &m, n, vt[n]);
        /* the largest count: the hull's last point */
        f->cap[jt % f->nt] += m ? f->hp[nh + m - 1].n : 0;
        nh += m;
    }
    f->hoff[f->nj * f->nt] = nh;
}

/* Makes f's column t at the price lam_t, unless it is made at it. */
static void col_ready(struct fix *f, size_t t)
{
    size_t nt = f->nt;

    if (f->cok[t] && f->clam[t] == f->lam[t])
        return;
    for (size_t j = 0; j < f->nj; j++) {
        double best = -HUGE_VAL;
        for (size_t k = f->hoff[j * nt + t]; k < f->hoff[j * nt + t + 1]; k++) {
            double x = f->hp[k].y - f->lam[t] * f->hp[k].n;
            best = x > best ? x : best;
        }
        f->col[t * f->nj + j] = best;
    }
    f->clam[t] = f->lam[t];
    f->cok[t] = 1;
}

/* Prices every job at f->lam, over the hulls' points: phi, the highest
 * of its idle value and its columns (col_ready(): the same maximum as
 * over the points one by one).  Returns L(lam). */
static double price(struct fix *f)
{
    size_t nt = f->nt, nj = f->nj;
    double L = 0.0;

    for (size_t t = 0; t < nt; t++) {
        L += f->lam[t] * (double)f->cap[t];
        col_ready(f, t);
    }
    for (size_t j = 0; j < nj; j++) {
        double best = f->v[j * nt * f->W];
        for (size_t t = 0; t < nt; t++) {
            double x = f->col[t * nj + j];
            best = x > best ? x : best;
        }
        f->phi[j] = best;
        L += best;
    }
    return L;
}

static void set_price(struct fix *f, size_t t0, size_t t1, double mu)
{
    for (size_t t = t0; t < t1; t++)
        f->lam[t] = mu;
}

/* Whether point a comes before b: by n, then by y downwards. */
static inline int pt_before(const struct pt *a, const struct pt *b)
{
    return a->n < b->n || (a->n == b->n && a->y > b->y);
}

/* The smallest y of the events ev[0..n-1] (falls of ev.n nodes at price
 * ev.y) such that the events at prices up to it fall by need nodes or
 * more (need > 0; the largest y, or 0 with no event, when they all
 * fall by less): what
 * walking them sorted by y upwards until need nodes fell stops at.
 * Found by selection (three-way partitions about the median of three
 * prices), in place: ev is reordered. */
static double fall_price(struct pt *ev, size_t n, long need)
{
    size_t lo = 0, hi = n;
    double top = 0.0;

    while (lo < hi) {
        double y0 = ev[lo].y, y1 = ev[lo + (hi - lo) / 2].y, y2 = ev[hi - 1].y;
        double piv = y0 < y1 ? (y1 < y2 ? y1 : (y0 < y2 ? y2 : y0))
                             : (y0 < y2 ? y0 : (y1 < y2 ? y2 : y1));
        size_t lt = lo, i = lo, gt = hi;
        long wl = 0, we = 0;
        /* ev[lo..lt) < piv, ev[lt..i) == piv, ev[gt..hi) > piv */
        while (i < gt) {
            struct pt e = ev[i];
            if (e.y < piv) {
                ev[i++] = ev[lt];
                ev[lt++] = e;
                wl += e.n;
            } else if (e.y > piv) {
                ev[i] = ev[--gt];
                ev[gt] = e;
            } else {
                i++;
                we += e.n;
            }
        }
        if (wl >= need)
            hi = lt;
        else if (wl + we >= need)
            return piv;
        else {
            need -= wl + we;
            top = piv;
            lo = gt;
        }
    }
    for (size_t k = 0; k < n; k++)
        top = ev[k].y > top ? ev[k].y : top;
    return top;
}

/* line()'s work for one job and one type: the upper hull of (0, c) and
 * the job's hull jt on the type, its falls' events into f->ev (*ne of
 * them), and returns the count at its last rising point.  That hull is
 * (0, c) then the points of hull jt from the first that stays after (0,
 * c) (hull_keeps()): hull jt's own triples all stay (each was tested so
 * when its last point came), so hull_push() would drop no other point;
 * the slopes between its points are f->sl's (computed by the same
 * division).  So the events are line()'s general path's, bit for bit. */
static long line_one(struct fix *f, size_t jt, double c, size_t *ne)
{
    size_t a = f->hoff[jt], b = f->hoff[jt + 1], i = a;
    struct pt o = {0, c};
    long top = 0;
    double s;

    while (i + 1 < b &&
           !hull_keeps(o, f->hp[i], f->hp[i + 1].n, f->hp[i + 1].y))
        i++;
    if (i == b)
        return 0;
    s = (f->hp[i].y - c) / (double)(f->hp[i].n - 0);
    if (!(s > 0.0))
        return 0;
    f->ev[(*ne)++] = (struct pt){f->hp[i].n, s};
    top = f->hp[i].n;
    for (size_t k = i + 1; k < b && f->sl[k] > 0.0; k++) {
        f->ev[(*ne)++] = (struct pt){f->hp[k].n - f->hp[k - 1].n, f->sl[k]};
        top = f->hp[k].n;
    }
    return top;
}

/* The one price mu of types t0..t1-1 (one type, or all), the others'
 * fixed, that makes L smallest (line() sets it).  Along mu each job
 * takes the best point of the upper hull of its options priced so: its
 * options on those types at (n, v), and the best of the others, at (0,
 * their best v - lam_t n); as mu passes the slope into the hull's point
 * k, the job's nodes on the types fall from n_k to n_{k-1}.  L's slope
 * is sum_t cap_t - the jobs' nodes: mu is 0 when that is >= 0 there,
 * else the slope where it turns >= 0. */
static double line_mu(struct fix *f, size_t t0, size_t t1)
{
    size_t nt = f->nt, ne = 0;
    long U = 0, C = 0;
    double mu = 0.0;

    for (size_t t = 0; t < nt; t++)
        if (t >= t0 && t < t1)
            C += f->cap[t];
        else
            col_ready(f, t);
    for (size_t j = 0; j < f->nj; j++) {
        double c = f->v[j * nt * f->W];
        size_t m = 0, k0 = 0;
        for (size_t t = 0; t < nt; t++) /* the others' best, by columns */
            if (t < t0 || t >= t1) {
                double y = f->col[t * f->nj + j];
                c = y > c ? y : c;
            }
        if (t1 - t0 == 1) {
            U += line_one(f, j * nt + t0, c, &ne);
            continue;
        }
        /* the points (0, c) and the types' hulls', each hull's by n:
         * pushed by pt_before, merged from the hulls' heads (points that
         * come before each other neither way are equal: either first) */
        hull_push(f->hull, &m, 0, c);
        for (size_t t = t0; t < t1; t++)
            f->at[t] = f->hoff[j * nt + t];
        for (;;) {
            const struct pt *q = NULL;
            size_t tq = t0;
            for (size_t t = t0; t < t1; t++)
                if (f->at[t] < f->hoff[j * nt + t + 1] &&
                    (!q || pt_before(&f->hp[f->at[t]], q))) {
                    q = &f->hp[f->at[t]];
                    tq = t;
                }
            if (!q)
                break;
            hull_push(f->hull, &m, q->n, q->y);
            f->at[tq]++;
        }
        for (size_t k = 1; k < m; k++) {
            double s = (f->hull[k].y - f->hull[k - 1].y) /
                       (double)(f->hull[k].n - f->hull[k - 1].n);
            if (!(s > 0.0))
                break; /* the slopes fall along the hull */
            f->ev[ne++] = (struct pt){f->hull[k].n - f->hull[k - 1].n, s};
            k0 = k;
        }
        U += f->hull[k0].n;
    }
    if (U > C)
        mu = fall_price(f->ev, ne, U - C);
    return mu;
}

/* Gives types t0..t1-1 their price line_mu() and returns L there. */
static double line(struct fix *f, size_t t0, size_t t1)
{
    set_price(f, t0, t1, line_mu(f, t0, t1));
    return price(f);
}

/* Caps cap at the pools (fix_hulls()), then sets the prices, phi and L
 * from f's hulls (f->hp, f->hoff made) into g, and frees f. */
static void lagr_run(struct fix *f, struct alloc_lagr *g,
                     const struct alloc_problem *p)
{
    size_t nj = f->nj, nt = f->nt, np = f->hoff[nj * nt] + nj + 1;
    double L;
    int fresh = 1;

    for (size_t t = 0; t < nt; t++)
        if (f->cap[t] > p->pools[t])
            f->cap[t] = p->pools[t];
    f->hull = xmalloc(2 * np * sizeof *f->hull); /* one block for two */
    f->ev = f->hull + np;
    f->at = xmalloc(nt * sizeof *f->at);
    f->col = xmalloc((nt * nj + nj + 2 * nt + 1) * sizeof *f->col);
    f->csave = f->col + nt * nj;
    f->clam = f->csave + nj;
    f->cok = xcalloc(nt, sizeof *f->cok);
    f->sl = xmalloc((f->hoff[nj * nt] + 1) * sizeof *f->sl);
    for (size_t jt = 0; jt < nj * nt; jt++)
        for (size_t k = f->hoff[jt] + 1; k < f->hoff[jt + 1]; k++)
            f->sl[k] = (f->hp[k].y - f->hp[k - 1].y) /
                       (double)(f->hp[k].n - f->hp[k - 1].n);
    L = line(f, 0, nt);
    /* L is price()'s at the prices, which are fixed between its calls:
     * a type's line that leaves its price makes the same L, which does
     * not fall (no price() needed); fresh: f->phi is at the prices */
    for (int round = 0; round < FIX_ROUNDS; round++) {
        int fell = 0;
        for (size_t t = 0; t < nt; t++) {
            double was = f->lam[t], mu = line_mu(f, t, t + 1), Lt, wasc;
            int wasok = f->cok[t];
            if (mu == was)
                continue;
            /* column t at was, back when mu is not taken */
            memcpy(f->csave, &f->col[t * nj], nj * sizeof *f->csave);
            wasc = f->clam[t];
            f->lam[t] = mu;
            Lt = price(f);
            fresh = 1;
            if (Lt < L) {
                L = Lt;
                fell = 1;
            } else {
                f->lam[t] = was;
                memcpy(&f->col[t * nj], f->csave, nj * sizeof *f->csave);
                f->clam[t] = wasc;
                f->cok[t] = wasok;
                fresh = 0;
            }
        }
        if (!fell)
            break;
    }
    g->nj = nj;
    g->nt = nt;
    g->W = f->W;
    g->L = fresh ? L : price(f);
    g->lam = f->lam;
    g->phi = f->phi;
    xfree(f->sl);
    xfree(f->at);
    xfree(f->col);
    xfree(f->cok);
    xfree(f->hull);
    xfree(f->hoff);
    xfree(f->hp);
    xfree(f->cap);
}

/* f's shape and table, and its owned arrays but the hulls'. */
static void fix_init(struct fix *f, const struct alloc_problem *p, size_t W,
                     const double *v)
{
    memset(f, 0, sizeof *f);
    f->nj = p->n_jobs;
    f->nt = (size_t)p->n_types;
    f->W = W;
    f->v = v;
    f->cap = xcalloc(f->nt, sizeof *f->cap);
    f->lam = xcalloc(f->nt, sizeof *f->lam);
    f->phi = xcalloc(f->nj + 1, sizeof *f->phi);
}

void alloc_lagr_init(struct alloc_lagr *g, const struct alloc_problem *p,
                     size_t W, const double *v)
{
    struct fix f;

    fix_init(&f, p, W, v);
    fix_hulls(&f);
    lagr_run(&f, g, p);
}

void alloc_lagr_init_hulls(struct alloc_lagr *g, const struct alloc_problem *p,
                           size_t W, const double *v, const int *const *hull,
                           const size_t *hlen)
{
    struct fix f;
    size_t nh = 0, njt;

    fix_init(&f, p, W, v);
    njt = f.nj * f.nt;
    for (size_t jt = 0; jt < njt; jt++)
        nh += hlen[jt];
    f.hp = xmalloc((nh + 1) * sizeof *f.hp);
    f.hoff = xmalloc((njt + 1) * sizeof *f.hoff);
    nh = 0;
    for (size_t jt = 0; jt < njt; jt++) {
        const double *vt = &v[jt * W];
        f.hoff[jt] = nh;
        for (size_t k = 0; k < hlen[jt]; k++)
            f.hp[nh + k] = (struct pt){hull[jt][k], vt[hull[jt][k]]};
        nh += hlen[jt];
        f.cap[jt % f.nt] += hlen[jt] ? hull[jt][hlen[jt] - 1] : 0;
    }
    f.hoff[njt] = nh;
    lagr_run(&f, g, p);
}

void alloc_lagr_release(struct alloc_lagr *g)
{
    xfree(g->phi);
    xfree(g->lam);
    memset(g, 0, sizeof *g);
}

/* Job j's option of highest value within room (the free nodes per type,
 * its own not counted) into *bn, *bt, by v - lam_t n when lam is not
 * NULL: the first found among equals, in the order idle, type 0's
 * counts, type 1's, ...  Returns its value v.  Counts outside the job's
 * jmin..jmax are not read (alloc_values_t sets them -HUGE_VAL).  bv (or
 * NULL): the prefix tables of v (alloc_lagr_greedy_pre), which let a
 * scan by v - lam_t n stop early. */
static double fit_best(const struct alloc_lagr *g,
                       const struct alloc_problem *p, const double *v,
                       const double *bv, size_t j, const long *room,
                       const double *lam, int *bn, int *bt)
{
    const double *vj = &v[j * g->nt * g->W];
    double best = vj[0], val = vj[0];
    int lo = p->jobs[j].jmin > 1 ? p->jobs[j].jmin : 1;
    long hi = (long)g->W - 1 < p->jobs[j].jmax ? (long)g->W - 1
                                               : (long)p->jobs[j].jmax;

    /* an entry -HUGE_VAL is never above best (nor is it less lam_t n) */
    *bn = 0;
    *bt = -1;
    for (size_t t = 0; t < g->nt; t++) {
        const double *x = &vj[t * g->W];
        int e = (int)(hi < room[t] ? hi : room[t]);
        if (lam) {
            double l = lam[t];
            /* bv (alloc_lagr_greedy_pre's, or NULL): no count n..e is
             * above best once their highest value less l n is not
             * (l >= 0; rounding is monotone) */
            double top = bv && e >= lo ? bv[(j * g->nt + t) * g->W + (size_t)e]
                                       : HUGE_VAL;
            for (int n = lo; n <= e; n++) {
                if (!(top - l * n > best))
                    break;
                if (x[n] - l * n > best) {
                    best = x[n] - l * n;
                    val = x[n];
                    *bn = n;
                    *bt = (int)t;
                }
            }
        } else
            for (int n = lo; n <= e; n++)
                if (x[n] > best) {
                    best = val = x[n];
                    *bn = n;
                    *bt = (int)t;
                }
    }
    return val;
}

/* fit_best(g, p, v, NULL, j, room, NULL, bn, bt) read from the prefix
 * tables bv, bc of v (alloc_lagr_greedy_pre): the first of the highest
 * values over counts 1..r is the one the scan of counts jmin..r finds,
 * as the others are -HUGE_VAL, never above the idle value. */
static double fit_pre(const struct alloc_lagr *g, const struct alloc_problem *p,
                      const double *v, const double *bv, const int *bc,
                      size_t j, const long *room, int *bn, int *bt)
{
    size_t at = j * g->nt * g->W;
    double best = v[at];
    long hi = (long)g->W - 1 < p->jobs[j].jmax ? (long)g->W - 1
                                               : (long)p->jobs[j].jmax;

    *bn = 0;
    *bt = -1;
    for (size_t t = 0; t < g->nt; t++, at += g->W) {
        size_t r = (size_t)(hi < room[t] ? hi : room[t]);
        if (bv[at + r] > best) {
            best = bv[at + r];
            *bn = bc[at + r];
            *bt = (int)t;
        }
    }
    return best;
}

/* A greedy allocation into n, t: every job keeping its holding where
 * that fits (keeps set), else idle, or each job in turn the option of
 * highest v - lam_t n within the room left (keeps unset); then each job
 * in turn moves to its option of highest value within its own nodes and
 * the room left (read from bv, bc when not NULL: fit_pre()).  Returns
 * its value (the sum of the v in job order). */
static double greedy(const struct alloc_lagr *g, const struct alloc_problem *p,
                     const double *v, const double *bv, const int *bc,
                     int keeps, int *n, int *t)
{
    long *room = xcalloc(g->nt, sizeof *room);
    double z = 0.0;

    for (size_t k = 0; k < g->nt; k++)
        room[k] = p->pools[k];
    for (size_t j = 0; j < g->nj; j++) {
        const struct alloc_job *jb = &p->jobs[j];
        if (!keeps)
            fit_best(g, p, v, bv, j, room, g->lam, &n[j], &t[j]);
        else if (jb->cur > 0 && alloc_admissible_t(p, j, jb->ctype, jb->cur) &&
                 room[jb->ctype] >= jb->cur) {
            n[j] = jb->cur;
            t[j] = jb->ctype;
        } else {
            n[j] = 0;
            t[j] = -1;
        }
        if (n[j] > 0)
            room[t[j]] -= n[j];
    }
    for (size_t j = 0; j < g->nj; j++) {
        if (n[j] > 0)
            room[t[j]] += n[j];
        z += bv ? fit_pre(g, p, v, bv, bc, j, room, &n[j], &t[j])
                : fit_best(g, p, v, NULL, j, room, NULL, &n[j], &t[j]);
        if (n[j] > 0)
            room[t[j]] -= n[j];
    }
    xfree(room);
    return z;
}

double alloc_lagr_greedy(const struct alloc_lagr *g,
                         const struct alloc_problem *p, const double *v, int *n,
                         int *t)
{
    return alloc_lagr_greedy_pre(g, p, v, NULL, NULL, n, t);
}

double alloc_lagr_greedy_pre(const struct alloc_lagr *g,
                             const struct alloc_problem *p, const double *v,
                             const double *bv, const int *bc, int *n, int *t)
{
    int *n2 = xcalloc(2 * g->nj + 1, sizeof *n2), *t2 = n2 + g->nj;
    double z = greedy(g, p, v, bv, bc, 1, n, t);
    double z2 = greedy(g, p, v, bv, bc, 0, n2, t2);

    if (z2 > z) {
        z = z2;
        memcpy(n, n2, g->nj * sizeof *n);
        memcpy(t, t2, g->nj * sizeof *t);
    }
    xfree(n2);
    return z;
}

/* the external definition of objective.h's inline function */
extern inline double alloc_lagr_loss(const struct alloc_lagr *g, size_t j,
                                     int t, int n, double x);

double alloc_lagr_delta(const struct alloc_lagr *g, double zlb, double tol)
{
    return g->L - zlb + 3.0 * tol;
}

void alloc_lagr_fix(const struct alloc_lagr *g, double zlb, double tol,
                    double *v)
{
    double delta = alloc_lagr_delta(g, zlb, tol);
    size_t nt = g->nt, W = g->W;

    for (size_t j = 0; j < g->nj; j++)
        for (size_t t = 0; t < nt; t++)
            for (int n = t > 0; (size_t)n < W; n++) {
                double *x = &v[(j * nt + t) * W + (size_t)n];
                if (*x != -HUGE_VAL &&
                    alloc_lagr_loss(g, j, (int)t, n, *x) > delta)
                    *x = -HUGE_VAL;
            }
}

/* ---- spanning types ------------------------------------------------------ */

int alloc_mixed(const struct alloc_problem *p)
{
    return alloc_typed(p) && p->mixed;
}

int alloc_cur_m(const struct alloc_problem *p, size_t j, int t)
{
    const struct alloc_job *jb = &p->jobs[j];

    if (p->mixed && jb->cur_t)
        return jb->cur_t[t];
    return jb->cur > 0 && t == jb->ctype ? jb->cur : 0;
}

/* r_j with spanning types: the least O_{j,t}(C_j) over the types job j
 * holds, when C_j >= Jmin_j, else 0. */
static double rescale_rate_m(const struct alloc_problem *p, size_t j)
{
    const struct alloc_job *jb = &p->jobs[j];
    double r = HUGE_VAL;

    if (jb->cur < jb->jmin)
        return 0.0;
    for (int t = 0; t < p->n_types; t++)
        if (alloc_cur_m(p, j, t) > 0 && jb->ot[t][jb->cur] < r)
            r = jb->ot[t][jb->cur];
    return r;
}

double alloc_cost_up_m(const struct alloc_problem *p, size_t j)
{
    return p->jobs[j].tcup * rescale_rate_m(p, j);
}

double alloc_cost_down_m(const struct alloc_problem *p, size_t j)
{
    return p->jobs[j].tcdw * rescale_rate_m(p, j);
}

/* The cost of a change of job j that grows some type (up) and shrinks
 * some type (down): the expressions of alloc_rescale_cost_t, in its
 * order of operations. */
static double cost_m(const struct alloc_problem *p, size_t j, int up, int down)
{
    const struct alloc_job *jb = &p->jobs[j];

    if (up && down) /* a stop and a start */
        return (jb->tcdw + jb->tcup) * rescale_rate_m(p, j);
    if (up)
        return jb->tcup * rescale_rate_m(p, j);
    if (down)
        return jb->tcdw * rescale_rate_m(p, j);
    return 0.0;
}

/* Tfwd times the least O_{j,t}(n) over the types in mask (bit t), 0 for
 * n = 0. */
static double gain_m(const struct alloc_problem *p, size_t j,
                     unsigned long long mask, int n)
{
    double o = HUGE_VAL;

    if (n == 0)
        return 0.0;
    for (int t = 0; t < p->n_types; t++)
        if ((mask >> t & 1) && p->jobs[j].ot[t][n] < o)
            o = p->jobs[j].ot[t][n];
    return p->tfwd * o;
}

/* The types x uses, as a mask (bit t), and its total in *n. */
static unsigned long long used_m(const struct alloc_problem *p, const int *x,
                                 int *n)
{
    unsigned long long mask = 0;

    *n = 0;
    for (int t = 0; t < p->n_types; t++)
        if (x[t] > 0) {
            mask |= 1ull << t;
            *n += x[t];
        }
    return mask;
}

double alloc_gain_m(const struct alloc_problem *p, size_t j, const int *x)
{
    int n;
    unsigned long long mask = used_m(p, x, &n);

    return gain_m(p, j, mask, n);
}

double alloc_rescale_cost_m(const struct alloc_problem *p, size_t j,
                            const int *x)
{
    int up = 0, down = 0;

    for (int t = 0; t < p->n_types; t++) {
        up |= x[t] > alloc_cur_m(p, j, t);
        down |= x[t] < alloc_cur_m(p, j, t);
    }
    return cost_m(p, j, up, down);
}

double alloc_value_m(const struct alloc_problem *p, size_t j, const int *x)
{
    return alloc_gain_m(p, j, x) - alloc_rescale_cost_m(p, j, x);
}

int alloc_keeps_m(const struct alloc_problem *p, size_t j, const int *x)
{
    for (int t = 0; t < p->n_types; t++)
        if (x[t] != alloc_cur_m(p, j, t))
            return 0;
    return 1;
}

int alloc_admissible_m(const struct alloc_problem *p, size_t j, const int *x)
{
    const struct alloc_job *jb = &p->jobs[j];
    long n = 0;

    for (int t = 0; t < p->n_types; t++) {
        if (x[t] < 0 || x[t] > p->pools[t] || (x[t] > 0 && !jb->ot[t]))
            return 0;
        n += x[t];
    }
    return n == 0 || (n >= jb->jmin && n <= jb->jmax);
}

int alloc_feasible_m(const struct alloc_problem *p, const int *x)
{
    size_t nt = (size_t)p->n_types;

    for (size_t j = 0; j < p->n_jobs; j++)
        if (!alloc_admissible_m(p, j, &x[j * nt]))
            return 0;
    for (size_t t = 0; t < nt; t++) {
        long used = 0;
        for (size_t j = 0; j < p->n_jobs; j++)
            used += x[j * nt + t];
        if (used > p->pools[t])
            return 0;
    }
    return 1;
}

double alloc_objective_m(const struct alloc_problem *p, const int *x)
{
    size_t nt = (size_t)p->n_types;
    double z = 0.0;

    for (size_t j = 0; j < p->n_jobs; j++) {
        z += alloc_gain_m(p, j, &x[j * nt]);
        z -= alloc_rescale_cost_m(p, j, &x[j * nt]);
    }
    return z;
}

/* alloc_tie_tol_m's search over job j's holdings by the way each type
 * compares with the holding now: absent (x_t = 0), kept (x_t = C_t >=
 * 1), grown (C_t < x_t, at least 1) or shrunk (1 <= x_t < C_t).  Each
 * choice is a range of x_t, so the types chosen give a range of totals;
 * the gain depends on the types used and the total, the cost on whether
 * some type grows and some shrinks. */
struct tol_m {
    const struct alloc_problem *p;
    size_t j;
    int *hi; /* per type: the most nodes x_t can be, 0 if unusable */
    double big;
};

static void tol_rec(struct tol_m *s, int t, unsigned long long mask, long lo,
                    long hs, int up, int down)
{
    const struct alloc_problem *p = s->p;
    const struct alloc_job *jb = &p->jobs[s->j];
    int c, a;

    if (t == p->n_types) {
        double cost = cost_m(p, s->j, up, down);
        if (!mask) { /* idle */
            s->big = fabs(0.0 - cost) > s->big ? fabs(0.0 - cost) : s->big;
            return;
        }
        for (long n = lo > jb->jmin ? lo : jb->jmin; n <= hs && n <= jb->jmax;
             n++) {
            double v = fabs(gain_m(p, s->j, mask, (int)n) - cost);
            s->big = v > s->big ? v : s->big;
        }
        return;
    }
    c = alloc_cur_m(p, s->j, t);
    tol_rec(s, t + 1, mask, lo, hs, up, down || c > 0); /* absent */
    if (s->hi[t] < 1)
        return;
    mask |= 1ull << t;
    if (c >= 1 && c <= s->hi[t]) /* kept */
        tol_rec(s, t + 1, mask, lo + c, hs + c, up, down);
    a = c + 1 > 1 ? c + 1 : 1;
    if (a <= s->hi[t]) /* grown */
        tol_rec(s, t + 1, mask, lo + a, hs + s->hi[t], 1, down);
    if (c >= 2) /* shrunk */
        tol_rec(s, t + 1, mask, lo + 1, hs + c - 1, up, 1);
}

double alloc_tie_tol_m(const struct alloc_problem *p)
{
    struct tol_m s = {.p = p};
    double sum = 0.0;

    s.hi = xcalloc((size_t)p->n_types, sizeof *s.hi);
    for (size_t j = 0; j < p->n_jobs; j++) {
        const struct alloc_job *jb = &p->jobs[j];
        for (int t = 0; t < p->n_types; t++)
            s.hi[t] = !jb->ot[t]               ? 0
                      : p->pools[t] < jb->jmax ? p->pools[t]
                                               : jb->jmax;
        s.j = j;
        s.big = 0.0;
        tol_rec(&s, 0, 0, 0, 0, 0, 0);
        sum += s.big;
    }
    xfree(s.hi);
    return ALLOC_TIE_REL * (sum > 1.0 ? sum : 1.0);
}

int alloc_tie_cmp_m(const struct alloc_problem *p, const int *a, const int *b)
{
    size_t nt = (size_t)p->n_types, nj = p->n_jobs;
    long ka = 0, kb = 0, sa = 0, sb = 0;

    for (size_t j = 0; j < nj; j++) {
        ka += alloc_keeps_m(p, j, &a[j * nt]);
        kb += alloc_keeps_m(p, j, &b[j * nt]);
        for (size_t t = 0; t < nt; t++) {
            sa += a[j * nt + t];
            sb += b[j * nt + t];
        }
    }
    if (ka != kb)
        return ka > kb ? 1 : -1;
    if (sa != sb)
        return sa < sb ? 1 : -1;
    for (size_t j = 0; j < nj; j++) {
        long na = 0, nb = 0;
        for (size_t t = 0; t < nt; t++) {
            na += a[j * nt + t];
            nb += b[j * nt + t];
        }
        if (na != nb)
            return na > nb ? 1 : -1;
    }
    for (size_t i = 0; i < nj * nt; i++)
        if (a[i] != b[i])
            return a[i] > b[i] ? 1 : -1;
    return 0;
}

void alloc_counts_m(const struct alloc_problem *p, const int *x, int *counts,
                    int *types)
{
    size_t nt = (size_t)p->n_types;

    for (size_t j = 0; j < p->n_jobs; j++) {
        counts[j] = 0;
        types[j] = -1;
        for (size_t t = 0; t < nt; t++) {
            if (x[j * nt + t] > 0 && types[j] < 0)
                types[j] = (int)t;
            counts[j] += x[j * nt + t];
        }
    }
}
