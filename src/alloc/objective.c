/* objective.c - see objective.h.
 *
 * The objective is evaluated as the gain Tfwd O_j(n) minus the rescale
 * cost, each computed by one function here.  alloc_objective adds the
 * gain, then subtracts the cost, job by job, and alloc_value returns
 * gain - cost: the order of the floating-point operations is part of the
 * results (the compatible mode matches the published replayer to the
 * last bit), so it is fixed here and nowhere else.
 */
#include "config.h"

#include "alloc/objective.h"

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

int alloc_tie_cmp(const struct alloc_problem *p, const int *a, const int *b)
{
    long ka = 0, kb = 0, sa = 0, sb = 0;

    for (size_t j = 0; j < p->n_jobs; j++) {
        ka += a[j] == p->jobs[j].cur;
        kb += b[j] == p->jobs[j].cur;
        sa += a[j];
        sb += b[j];
    }
    if (ka != kb)
        return ka > kb ? 1 : -1;
    if (sa != sb)
        return sa < sb ? 1 : -1;
    for (size_t j = 0; j < p->n_jobs; j++)
        if (a[j] != b[j])
            return a[j] > b[j] ? 1 : -1;
    return 0;
}
