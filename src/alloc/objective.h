/* objective.h - the objective term and the tie-break rule of the
 * allocation problem (alloc.h), written once: dp, both MILP models and
 * the tests use these functions and nothing else for them.
 *
 * The objective term of job j at count n (its value):
 *
 *   v_j(n) = Tfwd O_j(n) - [n > C_j] Tcup_j r_j - [n < C_j] Tcdw_j r_j,
 *   r_j = O_j(C_j) if C_j >= Jmin_j, else 0 (a job below its minimum
 *         makes no progress, so stopping or growing it loses nothing).
 * With hints (alloc_job.h set, --hints), Tfwd O_j(n) becomes h_j(n)
 * O_j(n): the gain term is still one number per job and count, so every
 * exact method optimises it exactly and the rule below is unchanged.
 *
 * Tie-break rule.  Every exact allocator (dp, and milp with either model
 * and either solver) returns the same counts, chosen among the feasible
 * count vectors n (alloc_feasible) by these keys in turn:
 *   1. objective: alloc_objective(n) >= z* - tol, where z* is the best
 *      objective and tol = alloc_tie_tol(p) = ALLOC_TIE_REL * max(1,
 *      sum_j max_n |v_j(n)|), the max over job j's admissible counts.
 *      Allocations closer than tol to the best are equally good: real
 *      ties (identical jobs, plateaus) and differences below the
 *      solvers' numerical precision;
 *   2. the most jobs keeping their current count (n_j == C_j, idle jobs
 *      staying idle included): no rescale without a gain;
 *   3. the fewest nodes in use;
 *   4. the lexicographically largest vector in job order: earlier jobs
 *      (in the replay, the earlier admitted) get more nodes.
 * Keys 1-3 are sums over the jobs, independent of their order, so the
 * replay's --tie-break rules reorder the jobs (allocator_solve_order)
 * and change key 4 alone.
 * Keys 2-4 are alloc_tie_cmp.  A solver stopped by its time limit
 * returns its incumbent, for which the rule is not enforced.
 */
#ifndef BFS_OBJECTIVE_H
#define BFS_OBJECTIVE_H

#include <stddef.h>

#include "alloc/alloc.h"

/* Relative tie tolerance. */
#define ALLOC_TIE_REL 1e-7

/* Tcup_j r_j and Tcdw_j r_j: what job j loses by growing or by shrinking
 * (to 0 included) from its current count. */
double alloc_cost_up(const struct alloc_problem *p, size_t j);
double alloc_cost_down(const struct alloc_problem *p, size_t j);

/* Job j's rescale cost at count n: alloc_cost_up above its current count,
 * alloc_cost_down below it, 0 at it. */
double alloc_rescale_cost(const struct alloc_problem *p, size_t j, int n);

/* Job j's gain at count n: Tfwd O_j(n), or h_j(n) O_j(n) when the job
 * has a horizon table (hints). */
double alloc_gain(const struct alloc_problem *p, size_t j, int n);

/* Job j's term of the objective at count n, v_j(n): alloc_gain minus
 * alloc_rescale_cost. */
double alloc_value(const struct alloc_problem *p, size_t j, int n);

/* Objective value of counts n[] for problem p: the terms summed in job
 * order, the one evaluation every allocator and test uses. */
double alloc_objective(const struct alloc_problem *p, const int *n);

/* Whether n is an admissible count for job j: 0 or jmin..jmax, at most the
 * pool, and within p->cap of cur when p->cap > 0. */
int alloc_admissible(const struct alloc_problem *p, size_t j, int n);

/* Whether counts n (n_jobs entries) are feasible: every n_j admissible
 * and their sum within the pool. */
int alloc_feasible(const struct alloc_problem *p, const int *n);

/* The tie tolerance of p: ALLOC_TIE_REL * max(1, sum_j max |v_j|), the
 * max over job j's admissible counts. */
double alloc_tie_tol(const struct alloc_problem *p);

/* Compares feasible count vectors a and b by the tie-break keys after the
 * objective: > 0 when a comes first (more jobs at their current count,
 * then fewer nodes, then lexicographically larger in job order), < 0 when
 * b does, 0 when a == b. */
int alloc_tie_cmp(const struct alloc_problem *p, const int *a, const int *b);

#endif
