/* objective.h - the objective term and the tie-break rule of the
 * allocation problem (alloc.h), written once: dp, both MILP models and
 * the tests use these functions and nothing else for them; and, with
 * node types, the reduced-cost fixing dp and the count model share.
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
 *
 * Node types (p->n_types > 1; tools/DESIGN.md, "Node types").  Every job
 * gets a type t_j and a count n_j, and the functions ending in _t take
 * both (a type vector beside the count vector; the type of a job with
 * count 0 is never read).  Job j's value on type t at count n:
 *
 *   v_j(t, n) = Tfwd O_{j,t}(n) - cost_j(t, n),
 *   r_j = O_{j,c_j}(C_j) if C_j >= Jmin_j, else 0, c_j = alloc_job.ctype;
 *   cost_j = 0                   n == C_j and (n == 0 or t == c_j) (keeps)
 *            Tcup_j r_j           n > C_j and (t == c_j or C_j == 0)
 *            Tcdw_j r_j           n < C_j and (t == c_j or n == 0)
 *            (Tcdw_j + Tcup_j) r_j  C_j > 0, n > 0, t != c_j (a move)
 *
 * (O_{j,t}(0) = 0, so the gain at count 0 is 0 on every type; hints are
 * not read with types).  A count is admissible on a type when it is 0,
 * or Jmin..Jmax within pools[t] on a type the job can use (ot[t] !=
 * NULL); a vector is feasible when every pair is admissible and the
 * jobs on each type t use at most pools[t] nodes.  The tie tolerance is
 * ALLOC_TIE_REL * max(1, sum_j max |v_j(t, n)|) over the admissible
 * pairs, and the rule keeps its keys, "keeping" meaning the same count
 * on the same type (alloc_keeps_t: an idle job staying idle counts), and
 * adds a fifth:
 *   5. the lexicographically smallest vector of types in job order,
 *      over the jobs with n_j > 0.
 * With n_types <= 1 every _t function is its one-type counterpart (the
 * types are then not read and may be NULL), to the last bit.
 *
 * Spanning types (p->mixed, --mixed-types; tools/DESIGN.md, "Spanning
 * types").  A job's holding is a vector x_j of n_types counts, x_{j,t}
 * its nodes of type t, and the functions ending in _m take it (one job's:
 * n_types entries; every job's: n_jobs * n_types, job j's at j *
 * n_types).  With n_j = sum_t x_{j,t} and C_{j,t} its nodes of type t
 * now (alloc_cur_m):
 *
 *   v_j(x) = Tfwd min_{t : x_{j,t} > 0} O_{j,t}(n_j) - cost_j(x),
 *   r_j = min over the types it holds of O_{j,t}(C_j) if C_j >= Jmin_j,
 *         else 0;
 *   cost_j = 0 when x_j = C_j, Tcup_j r_j when some type grows and none
 *            shrinks, Tcdw_j r_j when some type shrinks and none grows,
 *            (Tcdw_j + Tcup_j) r_j when one grows and another shrinks
 *
 * (gain 0 at n_j = 0).  x_j is admissible when it is 0 on the types the
 * job cannot use, within pools[t] on each, and n_j is 0 or Jmin..Jmax; a
 * holding is feasible when every job's is admissible and the jobs use at
 * most pools[t] nodes of each type t.  The tie tolerance is
 * ALLOC_TIE_REL * max(1, sum_j max |v_j(x)|) over the admissible x_j,
 * and keys 2-5 of the rule become: 2. the most jobs keeping their
 * holding (x_j = C_j); 3. the fewest nodes; 4. the lexicographically
 * largest vector of the n_j; 5. the lexicographically largest vector
 * (x_{0,0}, x_{0,1}, ..., x_{1,0}, ...).  When every job holds one type
 * (now and in x) these are the _t functions' values, to the last bit.
 */
#ifndef BFS_OBJECTIVE_H
#define BFS_OBJECTIVE_H

#include <stddef.h>

#include "alloc/alloc.h"

/* Relative tie tolerance. */
#define ALLOC_TIE_REL 1e-7

/* The most node types a problem with spanning types may have. */
#define ALLOC_MIXED_MAX_TYPES 64

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

/* ---- node types (see the top) ----------------------------------------- */

/* 1 when p has node types (p->n_types > 1), else 0. */
int alloc_typed(const struct alloc_problem *p);

/* Job j's table of O on type t (borrowed): ot[t], NULL when the job
 * cannot run on t or t is out of range; with one type, o (t not read). */
const double *alloc_table_t(const struct alloc_problem *p, size_t j, int t);

/* 1 when (t, n) keeps job j's holding: n == C_j and (n == 0 or t ==
 * c_j); with one type, n == C_j. */
int alloc_keeps_t(const struct alloc_problem *p, size_t j, int t, int n);

/* Job j's cost of moving to count n on type t, cost_j(t, n) above
 * (alloc_rescale_cost with one type).  (t, n) must be admissible. */
double alloc_rescale_cost_t(const struct alloc_problem *p, size_t j, int t,
                            int n);

/* Job j's gain at count n on type t, Tfwd O_{j,t}(n), 0 at n == 0
 * (alloc_gain with one type).  (t, n) must be admissible. */
double alloc_gain_t(const struct alloc_problem *p, size_t j, int t, int n);

/* v_j(t, n): alloc_gain_t minus alloc_rescale_cost_t (alloc_value with
 * one type).  (t, n) must be admissible. */
double alloc_value_t(const struct alloc_problem *p, size_t j, int t, int n);

/* alloc_value_t(p, j, t, n) for n = n0..n1-1 into out[n - n0], the same
 * doubles, in one call. */
void alloc_values_run_t(const struct alloc_problem *p, size_t j, int t, int n0,
                        int n1, double *out);

/* The objective of counts n[] on types t[] (t[j] not read when n[j] ==
 * 0; t may be NULL with one type): the gains and costs summed in job
 * order, as alloc_objective (which it is with one type). */
double alloc_objective_t(const struct alloc_problem *p, const int *n,
                         const int *t);

/* Whether count n on type t is admissible for job j: n == 0 (t not
 * read), or a type 0..n_types-1 the job can use and jmin <= n <= jmax,
 * n <= pools[t]; with one type, alloc_admissible (t not read). */
int alloc_admissible_t(const struct alloc_problem *p, size_t j, int t, int n);

/* Whether counts n on types t are feasible: every pair admissible and
 * each type's pool holding its jobs' counts; with one type,
 * alloc_feasible (t not read, may be NULL). */
int alloc_feasible_t(const struct alloc_problem *p, const int *n, const int *t);

/* The tie tolerance of p: ALLOC_TIE_REL * max(1, sum_j max |v_j(t, n)|)
 * over job j's admissible pairs; with one type, alloc_tie_tol. */
double alloc_tie_tol_t(const struct alloc_problem *p);

/* Compares feasible allocations (an, at) and (bn, bt) by the tie-break
 * keys 2-5: > 0 when a comes first (more jobs keeping their holding,
 * then fewer nodes, then lexicographically larger counts, then
 * lexicographically smaller types over the jobs with nodes), < 0 when b
 * does, 0 when they are equal.  With one type, alloc_tie_cmp (the types
 * not read, may be NULL). */
int alloc_tie_cmp_t(const struct alloc_problem *p, const int *an, const int *at,
                    const int *bn, const int *bt);

/* Every job's values in one dense table, v[(j * nt + t) * W + n] =
 * v_j(t, n) (alloc_value_t) for the admissible pairs with n >= 1,
 * v[j * nt * W] = v_j(idle) (count 0, stored at type 0), and -HUGE_VAL
 * everywhere else (count 0 at types t > 0 included); nt = p->n_types
 * with node types, else 1, and W > every job's largest admissible
 * count.  Fills v (p->n_jobs * nt * W entries, caller-allocated). */
void alloc_values_t(const struct alloc_problem *p, size_t W, double *v);

/* ---- reduced-cost fixing with node types ------------------------------ */

/* Reduced-cost fixing with node types, written once for dp
 * (alloc/dp_types.c), the MILP's count model (alloc/milp_count.c) and the
 * tests.  For prices lambda_t >= 0, one per type, every feasible
 * allocation o has value at most L - sum_j l_j(o_j), with
 *
 *   L = sum_t lambda_t cap_t + sum_j phi_j,
 *   phi_j = max over job j's options o = (t, n) of v_j(o) - lambda_t n
 *           (the idle option priced 0),
 *   l_j(o) = phi_j - (v_j(o) - lambda_t n) >= 0, the option's loss,
 *
 * cap_t the most nodes the jobs can use on type t (min(pools[t], the
 * sum of their largest counts there)): the allocation uses at most cap_t
 * nodes of each type.  So no allocation of value >= zlb - 3 tol uses an
 * option of loss above L - zlb + 3 tol, and when zlb is at most the
 * optimum z* the tie set (value >= z* - tol) keeps all its options.
 * The margin is 3 tol where tol would do, for the roundings (a few ulps
 * of sums far larger than tol / ALLOC_TIE_REL: far below tol).  Likewise
 * jobs 0..j-1 using at most r_t nodes of each type are worth at most
 * sum_{i<j} phi_i + sum_t lambda_t r_t. */
struct alloc_lagr {
    size_t nj, nt, W; /* the value table's shape (alloc_values_t) */
    double *lam;      /* owned: nt prices */
    double *phi;      /* owned: nj maxima */
    double L;         /* the bound */
};

/* Prices for p (node types) and its value table v (alloc_values_t, rows
 * of W), chosen to make L small: one price for all types, then each
 * type's in turn while L falls, each the exact minimum of L along it
 * (where its slope, sum_t cap_t - the nodes the jobs' maximisers use,
 * turns >= 0); any prices give a valid test, a lower L drops more.  v
 * is not changed.  Release g with alloc_lagr_release. */
void alloc_lagr_init(struct alloc_lagr *g, const struct alloc_problem *p,
                     size_t W, const double *v);

/* alloc_lagr_init(g, p, W, v) with each job's upper hulls given, made
 * without scanning v: hull[j * nt + t] (borrowed) lists the hlen[j * nt
 * + t] counts, increasing, of the points that alloc_lagr_init's hull of
 * job j's values on type t keeps (the monotone chain over the counts
 * 1..W-1 whose value is not -HUGE_VAL, a point dropped when the next
 * turns no further down: (y_b - y_a)(n - b) <= (y_n - y_b)(b - a));
 * their values are read from v, and v's idle values v[j * nt * W],
 * nothing else.  Given those points, g is alloc_lagr_init's, bit for
 * bit. */
void alloc_lagr_init_hulls(struct alloc_lagr *g, const struct alloc_problem *p,
                           size_t W, const double *v, const int *const *hull,
                           const size_t *hlen);

/* A feasible allocation of p into counts n and types t (-1 for count
 * 0) by two greedy rules, the better kept: every job keeping its
 * holding where it fits, or each job in turn taking the option of best
 * v - lambda_t n in the room left; then each job in turn moving to its
 * option of best value in its room.  v is g's table (alloc_values_t's
 * or less): its entries at counts outside a job's jmin..jmax, -HUGE_VAL,
 * are not read.  Returns its value, the sum of its v in job order
 * (within rounding of alloc_objective_t). */
double alloc_lagr_greedy(const struct alloc_lagr *g,
                         const struct alloc_problem *p, const double *v, int *n,
                         int *t);

/* alloc_lagr_greedy, the same answer, its passes by value reading the
 * prefix tables of v instead of scanning it: bv[(j nt + t) W + r] the
 * highest of v's entries of job j on type t at counts 1..r (-HUGE_VAL
 * for r = 0 or when all are) and bc[...] the first count where it is.
 * NULL bv and bc: alloc_lagr_greedy's scans. */
double alloc_lagr_greedy_pre(const struct alloc_lagr *g,
                             const struct alloc_problem *p, const double *v,
                             const double *bv, const int *bc, int *n, int *t);

/* The loss l_j(o) above of job j's option o = (t, n) of value x (t not
 * read when n == 0).  Inline, for dp's loops over the options
 * (objective.c holds its external definition). */
inline double alloc_lagr_loss(const struct alloc_lagr *g, size_t j, int t,
                              int n, double x)
{
    return n > 0 ? g->phi[j] - (x - g->lam[t] * n) : g->phi[j] - x;
}

/* The most loss an option of an allocation of value >= zlb - 3 tol can
 * have: L - zlb + 3 tol. */
double alloc_lagr_delta(const struct alloc_lagr *g, double zlb, double tol);

/* Sets to -HUGE_VAL every option of v (the table g was made for) of
 * loss above alloc_lagr_delta(g, zlb, tol), tol = alloc_tie_tol_t(p):
 * when zlb is at most the optimum, what is left holds every allocation
 * of value >= zlb - 3 tol, hence the whole tie set of the rule. */
void alloc_lagr_fix(const struct alloc_lagr *g, double zlb, double tol,
                    double *v);

void alloc_lagr_release(struct alloc_lagr *g);

/* ---- spanning types (see the top) ------------------------------------- */

/* 1 when p is a problem with spanning types (node types and p->mixed). */
int alloc_mixed(const struct alloc_problem *p);

/* C_{j,t}: job j's nodes of type t now: cur_t[t] when p->mixed and the
 * job gives cur_t, else cur on ctype (0 on the other types). */
int alloc_cur_m(const struct alloc_problem *p, size_t j, int t);

/* Tcup_j r_j and Tcdw_j r_j with spanning types (r_j from the top). */
double alloc_cost_up_m(const struct alloc_problem *p, size_t j);
double alloc_cost_down_m(const struct alloc_problem *p, size_t j);

/* Job j's gain at holding x (n_types entries, admissible): Tfwd times the
 * least O_{j,t}(n_j) over the types it uses, 0 when n_j = 0. */
double alloc_gain_m(const struct alloc_problem *p, size_t j, const int *x);

/* Job j's cost of moving to holding x, cost_j(x) at the top. */
double alloc_rescale_cost_m(const struct alloc_problem *p, size_t j,
                            const int *x);

/* v_j(x): alloc_gain_m minus alloc_rescale_cost_m. */
double alloc_value_m(const struct alloc_problem *p, size_t j, const int *x);

/* 1 when x (n_types entries) is job j's holding now, x = C_j. */
int alloc_keeps_m(const struct alloc_problem *p, size_t j, const int *x);

/* Whether x (n_types entries) is admissible for job j (see the top). */
int alloc_admissible_m(const struct alloc_problem *p, size_t j, const int *x);

/* Whether x (n_jobs * n_types entries) is feasible: every job's
 * admissible and each type's pool holding its jobs' nodes. */
int alloc_feasible_m(const struct alloc_problem *p, const int *x);

/* The objective of x (n_jobs * n_types entries): the gains and costs
 * summed in job order, as alloc_objective_t. */
double alloc_objective_m(const struct alloc_problem *p, const int *x);

/* The tie tolerance of p with spanning types: ALLOC_TIE_REL * max(1,
 * sum_j max |v_j(x)|) over job j's admissible holdings.  Computed per
 * job over the ways each type can compare with its holding (absent,
 * kept, grown, shrunk), each a range of totals, not over every vector. */
double alloc_tie_tol_m(const struct alloc_problem *p);

/* Compares feasible holdings a and b (n_jobs * n_types entries) by the
 * tie-break keys 2-5 with spanning types: > 0 when a comes first, < 0
 * when b does, 0 when a == b. */
int alloc_tie_cmp_m(const struct alloc_problem *p, const int *a, const int *b);

/* The counts and types of holding x (n_jobs * n_types entries): counts[j]
 * = n_j, types[j] the lowest type job j has nodes of, -1 when none. */
void alloc_counts_m(const struct alloc_problem *p, const int *x, int *counts,
                    int *types);

#endif
