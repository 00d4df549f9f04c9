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
 * counterpart's result, so no one-type number changes.
 */
#include "config.h"

#include "alloc/objective.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>

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

double alloc_rescale_cost_t(const struct alloc_problem *p, size_t j, int t,
                            int n)
{
    const struct alloc_job *jb = &p->jobs[j];

    if (!alloc_typed(p))
        return alloc_rescale_cost(p, j, n);
    if (jb->cur > 0 && n > 0 && t != jb->ctype) /* a stop and a start */
        return (jb->tcdw + jb->tcup) * rescale_rate_t(jb);
    if (n > jb->cur)
        return jb->tcup * rescale_rate_t(jb);
    if (n < jb->cur)
        return jb->tcdw * rescale_rate_t(jb);
    return 0.0;
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
