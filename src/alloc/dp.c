/* alloc/dp.c - the exact dynamic programme over counts.
 *
 * The problem is a multiple-choice knapsack: one count per job from its
 * admissible set (0 or Jmin..Jmax, within the pool, within the cap of the
 * current count when there is a cap), one capacity.  The tie-break rule
 * (alloc/objective.h) needs, besides the objective, the number of jobs kept at
 * their current count and the number of nodes used, so the decisive table
 * is over suffixes of the job list, exact node counts and exact keep
 * counts:
 *
 *   G[j][c][k] = max sum_{i >= j} v_i(n_i)  over the choices of jobs
 *                j..J-1 using exactly c nodes and keeping exactly k jobs
 *
 * (-HUGE_VAL when impossible), with c <= C = min(N, sum of the largest
 * admissible counts).  Filling it whole costs J * C * K * max Jmax, K the
 * keepable jobs; most of it is wasted on node counts no good allocation
 * uses.  So two plain tables come first, each J * C * max Jmax:
 *
 *   F[j][c] = best value of jobs 0..j-1 using exactly c nodes,
 *   B[j][c] = best value of jobs j..J-1 using exactly c nodes,
 *
 * z* = max_c B[0][c], and a cell (j, c) of G is "alive" when some prefix
 * fits beside it well enough: max_{c' <= C-c} F[j][c'] + B[j][c] >=
 * z* - 2 tol.  Every allocation within tol of z* passes only through alive
 * cells (the second tol covers the rounding of sums taken in another
 * order), so G is filled on alive cells only, which are few, and stored
 * sparsely.  Then the best (keeps, nodes) pair is read off G[0], and the
 * counts are chosen job by job, each the largest that still admits a
 * completion reaching the threshold z* - tol with exactly the remaining
 * nodes and keeps.  The threshold carried from job to job is clamped to
 * the table entry that justified the choice, so that rounding cannot leave
 * a later job without a candidate.
 *
 * G stores few keep counts per cell.  First, the reachable ones: let
 * busy_j be the keepable jobs among j..J-1 holding nodes (C_i > 0).  A
 * keepable job that does not keep its count either holds nodes now (at
 * most busy_j of them) or is idle and gets n_i >= Jmin_i >= 1 nodes, at
 * most c of them on c nodes; so every choice of jobs j..J-1 on exactly c
 * nodes keeps at least kbase = ksuf_j - busy_j - c jobs, and G[j][c][k]
 * = -HUGE_VAL for k < kbase: a cell's row is computed for k = kbase..
 * ksuf_j only.  Second, only the near-best ones: with P(j, c) = max_{c'
 * <= C-c} F[j][c'] the best prefix beside the cell, a row keeps only the
 * stretch from its first to its last entry >= cut(j, c) = z* - 2 tol -
 * P(j, c), and the rest reads as -HUGE_VAL.  Why this changes no answer:
 * choose() uses an entry g = G[j][c][k] only in a test vn + g >= target
 * made after picking counts for jobs 0..j-2 of value P' <= P(j-1, ..),
 * where target is z* - tol - P' up to rounding, so a g that can pass is
 * >= cut + tol - (rounding), and a dropped g < cut fails there as it
 * did; the first test, on G[0], has P = 0 and cut = z* - 2 tol.  In the
 * fill, an entry computed from a dropped source vn + g' < vn + cut(j+1,
 * c-n) <= cut(j, c) (as P(j+1, c-n) >= P(j, c) + vn: the prefix extended
 * by this job's n) could come out lower than before, but it then lies
 * below cut(j, c) plus rounding, both before and after, and no test it
 * enters can pass.  Rounding is a few ulps of sums of at most S = sum
 * max |v| per job, J of them, far below tol = 1e-7 S.  A cell whose row
 * keeps nothing is dead.  1,000 idle identical jobs on 64 nodes: at most
 * 65 entries a cell, where it held 1,001 (520 MB).
 *
 * Memory bound.  A row of F or B is stored only over its window, the
 * cells that can be finite: F's row j + 1 spans row j's window shifted by
 * job j's smallest to largest admissible count, within C (B's row j
 * likewise from row j + 1), so a table holds at most (J+1)(C+1) cells,
 * J x C the jobs and node budget, and far fewer when the jobs' counts
 * are few (after prune()).  F, B (doubles), the cell offsets (size_t) and
 * keep ranges (two uint32_t, both over B's windows) are limited to
 * DP_MAX_CELLS cells per table (4 x 128 MiB); G is limited to
 * DP_MAX_CELLS entries (128 MiB).  Past either bound the solve is
 * refused with BFS_ERANGE and a message, not an abort.

 * Time limit (the allocator options' time_limit).  Every loop whose
 * length grows with the instance counts its work (spend(): a cell of a
 * table row, an entry of a value row or of G) and reads the clock every
 * DP_CLOCK_WORK units, a fraction of a millisecond; the longest stretch
 * between two looks is one job's value row or hull, about 10 ms for
 * 10^6 counts.  So a solve ends within 20 ms of its limit at every size
 * up to the bounds (measured: 0 to 7 ms past 0.5 s, 0 to 17 ms past
 * 0.05 s, on 4 to 16 jobs of 10^6 nodes, 4 to 160 of 10^5, 4 to 1,600
 * of 10^4).  Copying the instance for reuse (remember()) counts too, and
 * is given up when the time is out.
 * Past the limit the solve returns its incumbent as FEASIBLE, the best
 * feasible allocation known, which is, in order of improvement:
 *   1. the greedy, made as setup() computes the value rows: every job at
 *      its current count when that is admissible, else 0 (NO_SOLUTION
 *      when some job has neither, or they overfill the pool); then each
 *      job, as its row is made, takes the count of highest value within
 *      its own plus the nodes left;
 *   2. prune()'s allocation (the fractional knapsack's integral part,
 *      then the room left filled job by job), when its value is higher;
 *   3. once B is complete, an allocation of value z* read off B
 *      (b_optimum()), only the tie-break rule then being undecided.
 * The bound is z* when known, else the lower of prune()'s Lagrangian
 * bound and the sum of the jobs' best values, else (the limit hit inside
 * setup()) HUGE_VAL.
 *
 * Speed (the row extension is nearly all of a replay's time):
 * - extend runs over the count n outside and the capacity c inside, so
 *   the inner loop reads and writes contiguous rows and vectorises (this
 *   file is built with -ftree-vectorize, src/local.mk).  For each c the
 *   candidates are still taken in increasing n and replace the best only
 *   when strictly greater, so every cell holds the same double as before
 *   (a -HUGE_VAL operand gives -HUGE_VAL, never greater).  A row's cells
 *   beyond the jobs' summed counts are -HUGE_VAL and are not visited.
 * - The capacity is C = min(pool, sum of the largest admissible counts):
 *   a pool far beyond what the jobs can use costs nothing.
 * - The shortcut (see shortcut()): when the pool holds every job's best
 *   count and each best beats the job's next best by more than the
 *   tolerance plus a rounding slack, the answer is the vector of bests,
 *   without a table.
 * - Reduced-cost fixing (prune()) before the tables: for any lambda >= 0
 *   and any feasible n (sum n_i <= C), sum v_i(n_i) <= lambda C + sum_i
 *   (v_i(n_i) - lambda n_i), so with phi_i = max_n v_i(n) - lambda n and
 *   the losses l_i(n) = phi_i - (v_i(n) - lambda n) >= 0, every n of value
 *   >= z* - tol >= zlb - tol (zlb the value of any feasible allocation)
 *   has sum_i l_i(n_i) <= L - zlb + tol, L = lambda C + sum phi_i the
 *   Lagrangian bound: no count of loss above that is used by an
 *   allocation of the tie set, nor by the optimum.  Such counts are
 *   dropped (made inadmissible) and the rest runs on the smaller
 *   instance, which has the same z* and the same tie set, hence the same
 *   answer.  The margin is 3 tol (one more than needed, for rounding).
 *   lambda is the slope at which the fractional knapsack over the jobs'
 *   upper hulls fills C (the hulls' segments taken steepest first, from
 *   a heap of the hulls, which gives them in order without sorting them
 *   all: 16 hulls of 10^6 segments would take seconds to sort), and zlb
 *   the value of its integral part after each job in turn takes its best
 *   gain in the room left.  On the
 *   Summit replays one or two counts a job survive (the rescale costs
 *   make the current count a spike), so a row costs C or 2 C, not C W.
 * - Jobs with the same numbers (current count, bounds, costs and curve;
 *   no hints) have the same value row: setup() computes it once per such
 *   type (a job is matched against every type met, through a hash table
 *   of their numbers, job_type()) and the type's jobs share it (v holds
 *   one row per type; so do derive()'s bounds and prune()'s fixing), and
 *   prune() builds each type's hull once and sweeps a segment for all
 *   the type's jobs at once (the first ones in job order take the last,
 *   partial, segment).  The tie tolerance is summed from the rows in job
 *   order, the same double alloc_tie_tol gives.
 * - After prune(), a job left with one admissible count takes no row of
 *   the tables, and a run of jobs of one type left with two counts takes
 *   one row (rows()): with 10,000 jobs on 3,600 nodes nearly every job
 *   is so fixed, and the tables run over the few left; 10,000 copies
 *   of one job make one row.
 * - An instance equal to the last one solved (same numbers, bit for bit)
 *   gets the last answer back: the same status, counts and objective;
 *   so does one that differs from it only in its pool when the shortcut
 *   gave that answer, it fits the new pool and both pools hold every
 *   job's Jmax (same_instance: a replay's trace events move only the
 *   pool).  A table the caller gives the same pointer and o_id is taken
 *   as the same without comparing its numbers (struct alloc_job).
 * - setup() keeps up to DP_MEMO_ROWS value rows from earlier solves, with
 *   each row's first best count and best other value (row_top), and
 *   copies a kept row for a job with the same numbers and top count
 *   (memo_find): in a replay a job's row changes only with its current
 *   count, and a few counts recur.  shortcut() and greedy_step() read
 *   the kept best counts instead of scanning the rows.
 * - Rows of F and B are reused from the last full table solve: F[j][c]
 *   depends only on jobs 0..j-1's value rows (not on C, for c <= C), and
 *   B[j][c] only on jobs j..J-1's, so with the same C and job count, F's
 *   rows up to the first job whose value row changed (bit for bit) and
 *   B's rows after the last one are the doubles a recomputation would
 *   give.  A solve stopped early (time, memory) leaves nothing to reuse.
 * - F's rows are narrowed as they are made (narrow_f()): a cell whose
 *   reduced loss, sum_{i<j} phi_i - (F[j][c] - lambda c), exceeds prune's
 *   bound delta lies on no allocation of value >= zlb - 3 tol, nor does
 *   any prefix of such an allocation lose more, so the cell is dropped
 *   and the row's window shrinks to the cells left.  Then B's rows, once
 *   F is complete (narrow()): a cell of B whose value plus the best
 *   prefix beside it is below zlb - 3 tol (zlb prune()'s feasible value,
 *   <= z*) is no alive cell, nor on the best completion of one, so it is
 *   dropped likewise.  Every cell of an allocation within 2 tol of z*
 *   stays, with the value of its best prefix and of its best completion,
 *   so such cells stay alive and choose() sees the same tie set.  On the
 *   Summit replays the idle jobs would otherwise make the
 *   rows C wide.  Narrowed rows depend on prune's numbers, so rows are
 *   then not reused.
 * - The shortcut, like setup, looks at one job per type.
 *
 * Node types (p->n_types > 1) are solved by alloc/dp_types.c, with a
 * table over the nodes used per type; nothing here sees them.
 */
#include "config.h"

#include "alloc/alloc.h"
#include "alloc/alloc_impl.h"
#include "alloc/objective.h"
#include "base/util.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* 2^24 cells (128 MiB of doubles) per table: 1,000 jobs on all 4,734
 * Summit nodes need 4.7 million. */
#define DP_MAX_CELLS ((size_t)1 << 24)

/* Work units between two readings of the clock: 2^16 cells take 0.1 to
 * 1 ms, far below the overshoot allowed (see the top), and a reading
 * (about 25 ns) costs under 0.1% of them. */
#define DP_CLOCK_WORK ((size_t)1 << 16)

/* ---- the allocator ---------------------------------------------------- */

#define DEAD SIZE_MAX /* offset of a cell that is not alive */

/* The last instance solved and its answer, for reuse (same_instance). */
struct dp_last {
    int have;                /* an answer is stored */
    int pool, cap;           /* the instance's scalars */
    double tfwd;             /* compared bit for bit */
    size_t nj;               /* jobs */
    struct alloc_job *jobs;  /* owned copy; o points into o */
    double *o;               /* owned: every job's O(0..jmax), in order */
    const double **src;      /* owned: every job's o pointer as given */
    int *counts;             /* owned: the answer, nj entries */
    int status;              /* the answer's status */
    double objective, bound; /* the answer's objective and bound */
    int by_shortcut;         /* the answer came from shortcut() */
    long used;               /* the nodes the answer uses */
    int jmax_max;            /* the jobs' largest jmax (0 without jobs) */
    size_t jobs_cap, o_cap, counts_cap, src_cap;
};

/* Value rows kept from earlier setups (see setup()): at most
 * DP_MEMO_ROWS rows of at most DP_MEMO_WIDTH counts. */
#define DP_MEMO_ROWS 64
#define DP_MEMO_WIDTH 1024

/* One kept value row: the job's numbers (job, its o copied at
 * memo_o[off]), its top count, its largest admissible count hi, the row
 * v(0..hi) at memo_v[off], its best and largest |value|. */
struct dp_memo {
    uint64_t h; /* job_hash */
    struct alloc_job job;
    int top, hi, arg; /* arg, next: see row_top */
    size_t off;
    double best, big, next;
};

/* The stretch of one table row that can be finite: cells lo..hi (none
 * when lo > hi), stored from offset off of the table. */
struct dp_win {
    size_t lo, hi, off;
};

/* The tables, kept between solves so that a replay allocates them once. */
struct dp {
    const struct alloc_problem *p;
    size_t nj, C, W; /* jobs, node budget, widest count range (max hi+1) */
    int *hi;         /* largest admissible count per job */
    int *lo;         /* smallest admissible count per job */
    /* The tables' rows (see rows()): nr rows, row i being the jobs
     * rowjob[roff[i]..roff[i+1]-1], in job order; from there on hi, lo,
     * keepable, tid, cur, ksuf and busy are indexed by row (ksuf and busy
     * still count jobs).  fix[j]: job j's count when it has one
     * admissible count left (it then has no row), else -1; cfix and
     * vfix: those jobs' nodes and summed values.  C is then the nodes
     * left for the rows. */
    size_t nr, *rowjob, cfix;
    int *fix, *cur; /* cur: the current count per job, then per row */
    double vfix;
    size_t rowjob_cap, fix_cap, cur_cap;
    /* rm[i]: the jobs of row i.  A row of rm > 1 jobs (a run, see
     * rows()) holds jobs of one type with two admissible counts x < y:
     * lo[i] = rm x and hi[i] = rm y are the row's fewest and most nodes,
     * and its choices k = 0..rm give y to k of them (ch_n and co.) */
    size_t *rm, *roff, rm_cap, roff_cap;
    struct dp_win *fw, *bw; /* nj+1: the windows of F's and B's rows */
    size_t lo_cap, fw_cap, bw_cap;
    int *keepable;       /* cur is admissible */
    size_t *ksuf;        /* keepable jobs among j..nj-1 */
    double *v;           /* v[t * W + n] for each type t (tid): job j's row is
                          * its type's, tid[j]; -HUGE_VAL when inadmissible */
    double *F, *B;       /* the rows' windows, one after the other */
    double *pf;          /* C+1: prefix maxima of one row of F */
    size_t *at;          /* as B: offset of the cell's k-row in G */
    uint32_t *klo, *khi; /* as B: the keep counts stored */
    double *row;         /* ksuf[0]+1: one cell's row being filled */
    size_t klo_cap, khi_cap, row_cap;
    double *G; /* alive cells' rows, ksuf[j]+1 entries each */
    size_t hi_cap, keep_cap, ksuf_cap, v_cap, F_cap, B_cap, pf_cap, at_cap,
        G_cap;
    size_t *busy; /* keepable jobs among j..nj-1 with cur > 0 */
    size_t busy_cap;
    double vmax_sum; /* sum of the jobs' best values, before pruning */
    double tol;      /* alloc_tie_tol(p), from the value rows */
    /* tid[j]: the first job with job j's numbers (same_job), whose value
     * row, hull and pruning job j shares */
    size_t *tid, *mult;         /* mult[t]: jobs of type t (t = tid) */
    size_t *hoff, *lvl, *extra; /* per type: hull in hp, prune's sweep */
    int *hp;                    /* hull points, by type */
    double *tphi, *big, *vbest; /* per type; vbest: its best value */
    int *varg;                  /* per type: its first best count */
    double *vnext;              /* per type: its best at other counts */
    size_t varg_cap, vnext_cap;
    uint64_t *jh;                   /* job_hash per job */
    size_t *slot, jh_cap, slot_cap; /* the types' hash table (job_type) */
    size_t tid_cap, mult_cap, hoff_cap, lvl_cap, extra_cap, hp_cap, tphi_cap,
        big_cap, vbest_cap;
    /* prune's scratch: the types whose hull has segments left, as a
     * heap (seg_before), the hull's points per type, one point per job */
    size_t *heap, *hn;
    int *at_n;
    size_t heap_cap, hn_cap, at_n_cap;
    double limit;             /* seconds per solve */
    struct alloc_clock clock; /* the calls' clock (alloc_impl.h) */
    uint64_t t0;              /* its ticks when the current solve started */
    size_t work;              /* work units done in this solve (spend()) */
    size_t next_check;        /* work at which spend() reads the clock next */
    int expired;              /* this solve has used up its time */
    /* the incumbent (see the top): a feasible allocation, its value, and
     * the nodes it leaves free; valid when inc_ok */
    int *inc;
    size_t inc_cap;
    int inc_ok;
    double inc_val;
    long inc_room;
    int vmax_ok;         /* vmax_sum is complete (setup() ran to its end) */
    double lbound;       /* prune's Lagrangian bound on z*, HUGE_VAL if none */
    struct dp_last last; /* the last instance and answer */
    /* the value rows F and B were last computed from, for row reuse */
    int rows_ok;          /* F and B complete for pv, pnj, pC */
    int b_ok;             /* and F's and B's rows not narrowed (narrow()) */
    double zlb;           /* prune's feasible value, -HUGE_VAL when none */
    double lambda, delta; /* prune's price and loss bound */
    double *pv;           /* pnj x pW, a copy of v */
    int *phi;             /* pnj, a copy of hi */
    size_t pnj, pW, pC, pv_cap, phi_cap;
    void *typed; /* owned: alloc_dp_types_solve's memo */
    /* the kept value rows (setup()), valid for memo_tfwd and memo_cap;
     * memo_at[j]: the kept row of job j, -1 when none */
    struct dp_memo *memo;
    double *memo_v, *memo_o;
    size_t n_memo, memo_used, memo_v_cap, memo_o_cap;
    double memo_tfwd;
    int memo_cap;
    long *memo_at;
    size_t memo_at_cap;
};

static int dp_create(const struct alloc_opts *o, void **state,
                     struct bfs_error *e)
{
    struct dp *d = xcalloc(1, sizeof(struct dp));

    (void)e;
    d->limit = o->time_limit > 0 ? o->time_limit : HUGE_VAL;
    alloc_clock_init(&d->clock);
    *state = d;
    return 0;
}

static void dp_destroy(void *state)
{
    struct dp *d = state;

    if (!d)
        return;
    xfree(d->hi);
    xfree(d->lo);
    xfree(d->tid);
    xfree(d->mult);
    xfree(d->hoff);
    xfree(d->lvl);
    xfree(d->extra);
    xfree(d->hp);
    xfree(d->tphi);
    xfree(d->big);
    xfree(d->rowjob);
    xfree(d->rm);
    xfree(d->roff);
    xfree(d->fix);
    xfree(d->cur);
    xfree(d->vbest);
    xfree(d->varg);
    xfree(d->vnext);
    xfree(d->jh);
    xfree(d->slot);
    xfree(d->fw);
    xfree(d->bw);
    xfree(d->keepable);
    xfree(d->ksuf);
    alloc_dp_types_forget(d->typed);
    xfree(d->busy);
    xfree(d->v);
    xfree(d->F);
    xfree(d->B);
    xfree(d->pf);
    xfree(d->at);
    xfree(d->klo);
    xfree(d->khi);
    xfree(d->row);
    xfree(d->G);
    xfree(d->pv);
    xfree(d->phi);
    xfree(d->heap);
    xfree(d->hn);
    xfree(d->inc);
    xfree(d->at_n);
    xfree(d->last.jobs);
    xfree(d->last.o);
    xfree(d->last.counts);
    xfree(d->last.src);
    xfree(d->memo);
    xfree(d->memo_v);
    xfree(d->memo_o);
    xfree(d->memo_at);
    xfree(d);
}

static inline double val(const struct dp *d, size_t j, int n)
{
    return d->v[d->tid[j] * d->W + (size_t)n];
}

/* A row's choices (rows()): k = 0..nch(d, i), each with its nodes
 * ch_n, value ch_v and keeps ch_keep, in increasing nodes.  A row of one
 * job chooses its count, k = n (inadmissible ones of value -HUGE_VAL);
 * a run of m jobs of counts x < y gives y to k of them, x to the rest. */
static inline size_t nch(const struct dp *d, size_t i)
{
    return d->rm[i] > 1 ? d->rm[i] : (size_t)d->hi[i];
}

static inline size_t ch_n(const struct dp *d, size_t i, size_t k)
{
    size_t m = d->rm[i], x, y;

    if (m == 1)
        return k;
    x = (size_t)d->lo[i] / m;
    y = (size_t)d->hi[i] / m;
    return m * x + k * (y - x);
}

static inline double ch_v(const struct dp *d, size_t i, size_t k)
{
    size_t m = d->rm[i];

    if (m == 1)
        return val(d, i, (int)k);
    return (double)(m - k) * val(d, i, d->lo[i] / (int)m) +
           (double)k * val(d, i, d->hi[i] / (int)m);
}

static inline size_t ch_keep(const struct dp *d, size_t i, size_t k)
{
    size_t m = d->rm[i];
    int cur = d->cur[i];

    if (!d->keepable[i])
        return 0;
    if (m == 1)
        return k == (size_t)cur;
    return (cur == d->lo[i] / (int)m ? m - k : 0) +
           (cur == d->hi[i] / (int)m ? k : 0);
}

/* Writes row i's choice k into counts (indexed by job): its job's
 * count, or for a run y to its first k jobs and x to the rest (the
 * tie-break's key 4 among interchangeable jobs, see rows()). */
static void row_counts(const struct dp *d, size_t i, size_t k, int *counts)
{
    size_t m = d->rm[i];
    const size_t *job = &d->rowjob[d->roff[i]];

    if (m == 1) {
        counts[job[0]] = (int)k;
        return;
    }
    for (size_t q = 0; q < m; q++)
        counts[job[q]] = q < k ? d->hi[i] / (int)m : d->lo[i] / (int)m;
}

/* The fewest keeps of jobs j..nj-1 on exactly c nodes (see the top). */
static size_t kbase(const struct dp *d, size_t j, size_t c)
{
    size_t free = d->busy[j] + c;

    return d->ksuf[j] > free ? d->ksuf[j] - free : 0;
}

/* The number of cells of window w. */
static size_t win_len(const struct dp_win *w)
{
    return w->lo <= w->hi ? w->hi - w->lo + 1 : 0;
}

/* Narrows window w to its cells first..last (left in place in the
 * table), or empties it when first is DEAD. */
static void win_narrow(struct dp_win *w, size_t first, size_t last)
{
    if (first == DEAD) {
        w->lo = 1; /* empty */
        w->hi = 0;
        return;
    }
    w->off += first - w->lo;
    w->lo = first;
    w->hi = last;
}

/* The index of cell c of window w's row in its table, DEAD when c is
 * outside the window. */
static size_t win_at(const struct dp_win *w, size_t c)
{
    return c >= w->lo && c <= w->hi ? w->off + c - w->lo : DEAD;
}

/* G[j][c][k], -HUGE_VAL for a dead cell or k outside the cell's stored
 * keep counts. */
static double g_at(const struct dp *d, size_t j, size_t c, size_t k)
{
    size_t cell = win_at(&d->bw[j], c);

    if (cell == DEAD || d->at[cell] == DEAD || k < d->klo[cell] ||
        k > d->khi[cell])
        return -HUGE_VAL;
    return d->G[d->at[cell] + k - d->klo[cell]];
}

/* Counts n units of work done (a cell of a table row, an entry of a
 * value row or of G, a few nanoseconds each) and reads the clock every
 * DP_CLOCK_WORK units.  Returns 1 once the solve has used up its time
 * (and from then on), else 0. */
static int spend(struct dp *d, size_t n)
{
    d->work += n;
    if (d->work < d->next_check)
        return d->expired;
    d->next_check = d->work + DP_CLOCK_WORK;
    if (!d->expired && alloc_clock_since(&d->clock, d->t0) > d->limit)
        d->expired = 1;
    return d->expired;
}

/* Fills one row of a table T (F or B), of window wt, from the row of
 * window wf with job j's choices: T[c] = max_n v_j(n) + T'[c - n].
 * Returns 0, or 1 when the time ran out (the row is then incomplete). */
static int extend(struct dp *d, double *T, const struct dp_win *wf,
                  const struct dp_win *wt, size_t j)
{
    size_t hi = nch(d, j);

    for (size_t c = wt->lo; c <= wt->hi; c++)
        T[wt->off + c - wt->lo] = -HUGE_VAL;
    if (spend(d, win_len(wt)))
        return 1;
    if (wf->lo > wf->hi)
        return 0;
    /* n outside, c inside: for each c the candidates still come in
     * increasing n and win only when strictly greater, as in the
     * textbook order, so each cell gets the same double. */
    for (size_t k = 0; k <= hi; k++) {
        double vn = ch_v(d, j, k);
        size_t n = ch_n(d, j, k);
        size_t c0 = wf->lo + n, c1 = wf->hi + n < wt->hi ? wf->hi + n : wt->hi;
        double *restrict dst;
        const double *restrict src;
        if (vn == -HUGE_VAL || c0 > c1) {
            if (spend(d, 1))
                return 1;
            continue;
        }
        /* c0 >= wt->lo: wt->lo = wf->lo + lo_j, and n >= lo_j */
        dst = &T[wt->off + c0 - wt->lo];
        src = &T[wf->off];
        for (size_t i = 0; i <= c1 - c0; i++) {
            double x = vn + src[i];
            dst[i] = x > dst[i] ? x : dst[i];
        }
        if (spend(d, 1 + c1 - c0))
            return 1;
    }
    return 0;
}

/* Fills G from the last job back to the first, on the alive cells, and
 * keeps of each cell's row only the stretch of keep counts from the first
 * to the last entry at least cut = thr - (best prefix beside the cell);
 * a cell with none is dead.  thr = z* - 2 tol.  Returns 0, 1 when the
 * time ran out, or BFS_ERANGE (in e) when G exceeds its bound. */
static int fill(struct dp *d, double thr, struct bfs_error *e)
{
    size_t nG = 0;

    BFS_GROW(d->row, d->row_cap, d->ksuf[0] + 1);
    for (size_t j = d->nr + 1; j-- > 0;) {
        const struct dp_win *fj = &d->fw[j], *bj = &d->bw[j];
        const double *Fj = &d->F[fj->off];
        double m = -HUGE_VAL, *row = d->row;
        size_t K = d->ksuf[j];
        for (size_t i = 0; i < win_len(fj); i++)
            d->pf[i] = m = Fj[i] > m ? Fj[i] : m;
        if (spend(d, 1 + win_len(fj)))
            return 1;
        for (size_t c = bj->lo; c <= bj->hi; c++) {
            size_t room = d->C - c, cell = bj->off + c - bj->lo;
            double pre = fj->lo > fj->hi || room < fj->lo
                             ? -HUGE_VAL
                             : d->pf[(room < fj->hi ? room : fj->hi) - fj->lo];
            double cut = thr - pre, bc = d->B[cell];
            size_t kb = kbase(d, j, c), lo, hi, ulo = 0, uhi = 0;
            d->at[cell] = DEAD;
            if (bc == -HUGE_VAL || pre == -HUGE_VAL || pre + bc < thr)
                continue;
            /* the keep counts the sources reach, ulo..uhi: the row is
             * -HUGE_VAL elsewhere (row nj's one cell: keep count 0) */
            row[0] = 0.0;
            for (int pass = 0; pass < 2 && j < d->nr; pass++) {
                if (pass == 1) {
                    if (ulo > uhi)
                        break;
                    for (size_t k = ulo; k <= uhi; k++)
                        row[k] = -HUGE_VAL;
                } else {
                    ulo = K + 1; /* none yet */
                    uhi = 0;
                }
                for (size_t ch = 0; ch <= nch(d, j) && ch_n(d, j, ch) <= c;
                     ch++) {
                    double vn = ch_v(d, j, ch);
                    size_t n = ch_n(d, j, ch), keep = ch_keep(d, j, ch);
                    size_t src, k0, k1;
                    const double *g;
                    if (spend(d, 1))
                        return 1;
                    if (vn == -HUGE_VAL)
                        continue;
                    src = win_at(&d->bw[j + 1], c - n);
                    if (src == DEAD || d->at[src] == DEAD)
                        continue;
                    g = &d->G[d->at[src]];
                    k0 = d->klo[src] + keep > kb ? d->klo[src] + keep : kb;
                    k1 = d->khi[src] + keep < K ? d->khi[src] + keep : K;
                    if (pass == 0) {
                        if (k0 <= k1) {
                            ulo = k0 < ulo ? k0 : ulo;
                            uhi = k1 > uhi ? k1 : uhi;
                        }
                        continue;
                    }
                    for (size_t k = k0; k <= k1; k++) {
                        double gk = g[k - keep - d->klo[src]];
                        if (gk != -HUGE_VAL && vn + gk > row[k])
                            row[k] = vn + gk;
                    }
                    if (k0 <= k1 && spend(d, k1 - k0 + 1))
                        return 1;
                }
            }
            for (lo = ulo; lo <= uhi && !(row[lo] >= cut); lo++)
                ;
            if (lo > uhi)
                continue; /* nothing near the best passes here */
            for (hi = uhi; !(row[hi] >= cut); hi--)
                ;
            if (hi - lo + 1 > DP_MAX_CELLS - nG)
                return bfs_fail(
                    e, BFS_ERANGE,
                    "dp: %zu jobs on %zu nodes need a tie-break table of "
                    "more than %zu entries (%zu MiB); admit fewer jobs at "
                    "once (--max-jobs)",
                    d->nj, d->C + d->cfix, DP_MAX_CELLS,
                    DP_MAX_CELLS * sizeof(double) >> 20);
            BFS_GROW(d->G, d->G_cap, nG + hi - lo + 1);
            memcpy(&d->G[nG], &row[lo], (hi - lo + 1) * sizeof *row);
            d->at[cell] = nG;
            d->klo[cell] = (uint32_t)lo;
            d->khi[cell] = (uint32_t)hi;
            nG += hi - lo + 1;
        }
    }
    return 0;
}

/* Chooses the counts by the tie-break rule from the filled table.
 * Returns 0, -1 when no choice fits the pool (only possible under a cap,
 * which can forbid a job to stop), or 1 when the time ran out (counts
 * then partly written). */
static int choose(struct dp *d, double tol, int *counts)
{
    double zmax = -HUGE_VAL, target;
    size_t S = 0, Kb = 0;
    int found = 0;
    const struct dp_win *w0 = &d->bw[0];

    for (size_t c = w0->lo; c <= w0->hi; c++)
        for (size_t k = d->klo[w0->off + c - w0->lo];
             d->at[w0->off + c - w0->lo] != DEAD &&
             k <= d->khi[w0->off + c - w0->lo];
             k++)
            if (g_at(d, 0, c, k) > zmax)
                zmax = g_at(d, 0, c, k);
    if (spend(d, 2 * win_len(w0)))
        return 1;
    if (zmax == -HUGE_VAL)
        return -1;
    target = zmax - tol;
    /* most keeps, then fewest nodes: c ascending, so the first c found
     * for a keep count is its fewest */
    for (size_t c = w0->lo; c <= w0->hi; c++)
        for (size_t k = d->klo[w0->off + c - w0->lo];
             d->at[w0->off + c - w0->lo] != DEAD &&
             k <= d->khi[w0->off + c - w0->lo];
             k++)
            if (g_at(d, 0, c, k) >= target && (!found || k > Kb)) {
                S = c;
                Kb = k;
                found = 1;
            }
    /* then the largest count for each job in turn */
    for (size_t j = 0; j < d->nj; j++)
        if (d->fix[j] >= 0)
            counts[j] = d->fix[j];
    for (size_t j = 0; j < d->nr; j++) {
        size_t pick = SIZE_MAX;
        double gpick = 0.0, vpick = 0.0;
        for (size_t ch = nch(d, j) + 1; ch-- > 0 && pick == SIZE_MAX;) {
            double vn = ch_v(d, j, ch), g;
            size_t n = ch_n(d, j, ch), keep = ch_keep(d, j, ch);
            if (spend(d, 1))
                return 1;
            if (vn == -HUGE_VAL || n > S || keep > Kb)
                continue;
            g = g_at(d, j + 1, S - n, Kb - keep);
            if (g != -HUGE_VAL && vn + g >= target) {
                pick = ch;
                gpick = g;
                vpick = vn;
            }
        }
        if (pick == SIZE_MAX) /* never: the cell's entry came from one */
            return -1;
        row_counts(d, j, pick, counts);
        S -= ch_n(d, j, pick);
        Kb -= ch_keep(d, j, pick);
        target = target - vpick < gpick ? target - vpick : gpick;
    }
    return 0;
}

/* From the value rows v (a count is admissible when its value is
 * finite): hi, keepable, ksuf, busy and C. */
static void derive(struct dp *d)
{
    const struct alloc_problem *p = d->p;
    size_t nj = d->nj, sumhi = 0;

    BFS_GROW(d->cur, d->cur_cap, nj + 1);
    for (size_t j = 0; j < nj; j++) {
        int cur = d->cur[j] = p->jobs[j].cur;
        if (d->tid[j] != j) { /* its type's, whose row it shares */
            d->hi[j] = d->hi[d->tid[j]];
            d->lo[j] = d->lo[d->tid[j]];
            d->keepable[j] = d->keepable[d->tid[j]];
            sumhi += (size_t)d->hi[j];
            continue;
        }
        while (d->hi[j] > 0 && val(d, j, d->hi[j]) == -HUGE_VAL)
            d->hi[j]--;
        d->lo[j] = 0;
        while (d->lo[j] < d->hi[j] && val(d, j, d->lo[j]) == -HUGE_VAL)
            d->lo[j]++;
        sumhi += (size_t)d->hi[j];
        d->keepable[j] = cur <= d->hi[j] && val(d, j, cur) != -HUGE_VAL;
    }
    d->ksuf[nj] = d->busy[nj] = 0;
    for (size_t j = nj; j-- > 0;) {
        d->ksuf[j] = d->ksuf[j + 1] + (size_t)d->keepable[j];
        d->busy[j] =
            d->busy[j + 1] + (size_t)(d->keepable[j] && p->jobs[j].cur > 0);
    }
    d->C = sumhi < (size_t)p->pool ? sumhi : (size_t)p->pool;
}

/* Whether jobs i and j of p have the same numbers, hence the same value
 * row. */
static int same_job(const struct alloc_problem *p, size_t i, size_t j)
{
    const struct alloc_job *a = &p->jobs[i], *b = &p->jobs[j];

    return a->cur == b->cur && a->jmin == b->jmin && a->jmax == b->jmax &&
           !a->h && !b->h && !memcmp(&a->tcup, &b->tcup, sizeof a->tcup) &&
           !memcmp(&a->tcdw, &b->tcdw, sizeof a->tcdw) &&
           (a->o == b->o ||
            !memcmp(a->o, b->o, ((size_t)a->jmax + 1) * sizeof *a->o));
}

/* A hash of job j's numbers (those same_job compares): four FNV-1a
 * lanes over the 64-bit words, so that the multiplications overlap. */
static uint64_t job_hash(const struct alloc_problem *p, size_t j)
{
    const struct alloc_job *a = &p->jobs[j];
    const uint64_t prime = UINT64_C(0x100000001B3);
    uint64_t h0 = UINT64_C(0xCBF29CE484222325), h1 = 1, h2 = 2, h3 = 3;
    uint64_t w0, w1, w2, w3;
    size_t no = (size_t)a->jmax + 1, i = 0;

    memcpy(&w0, &a->tcup, sizeof w0);
    memcpy(&w1, &a->tcdw, sizeof w1);
    w2 = (uint64_t)(unsigned)a->cur;
    w3 = (uint64_t)(unsigned)a->jmin << 32 | (uint64_t)(unsigned)a->jmax;
    for (;;) { /* four chains, in registers */
        h0 = (h0 ^ w0) * prime;
        h1 = (h1 ^ w1) * prime;
        h2 = (h2 ^ w2) * prime;
        h3 = (h3 ^ w3) * prime;
        if (i + 4 > no)
            break;
        memcpy(&w0, &a->o[i], sizeof w0);
        memcpy(&w1, &a->o[i + 1], sizeof w1);
        memcpy(&w2, &a->o[i + 2], sizeof w2);
        memcpy(&w3, &a->o[i + 3], sizeof w3);
        i += 4;
    }
    for (; i < no; i++) {
        memcpy(&w0, &a->o[i], sizeof w0);
        h0 = (h0 ^ w0) * prime;
    }
    return ((h0 * prime ^ h1) * prime ^ h2) * prime ^ h3;
}

/* Job j's type: the first job with its numbers (same_job), found in the
 * hash table d->slot (mask + 1 slots, open addressing; j is entered when
 * it is the first), or j itself when it has hints. */
static size_t job_type(struct dp *d, const struct alloc_problem *p, size_t j,
                       size_t mask)
{
    size_t at;

    if (p->jobs[j].h)
        return j;
    d->jh[j] = job_hash(p, j);
    for (at = (size_t)d->jh[j] & mask; d->slot[at] != SIZE_MAX;
         at = (at + 1) & mask) {
        size_t i = d->slot[at];
        if (d->jh[i] == d->jh[j] && same_job(p, i, j))
            return i;
    }
    d->slot[at] = j;
    return j;
}

/* The kept value row of job j of p (no hints, jh[j] set) at top count
 * top, or -1.  A job's row is a function of its numbers (those same_job
 * compares), Tfwd, the cap and its top count min(jmax, pool) alone:
 * alloc_value reads the job's numbers and Tfwd, and alloc_admissible,
 * for the counts n <= top that setup() asks about, the bounds, the cap
 * and the current count (n <= pool holds for them all).  The rows kept
 * are for this Tfwd and cap (setup() drops them otherwise), so a kept
 * row with the same numbers and top is, double for double, the one
 * setup() would compute. */
static long memo_find(const struct dp *d, const struct alloc_problem *p,
                      size_t j, int top)
{
    const struct alloc_job *b = &p->jobs[j];

    for (size_t k = 0; k < d->n_memo; k++) {
        const struct dp_memo *m = &d->memo[k];
        const struct alloc_job *a = &m->job;
        if (m->h == d->jh[j] && m->top == top && a->cur == b->cur &&
            a->jmin == b->jmin && a->jmax == b->jmax &&
            !memcmp(&a->tcup, &b->tcup, sizeof a->tcup) &&
            !memcmp(&a->tcdw, &b->tcdw, sizeof a->tcdw) &&
            !memcmp(&d->memo_o[m->off], b->o,
                    ((size_t)b->jmax + 1) * sizeof *b->o))
            return (long)k;
    }
    return -1;
}

/* Keeps the value row of job j of p (a type's first job, its row made
 * at top count top) for later setups, unless it has hints or is wider
 * than DP_MEMO_WIDTH; drops every kept row first when DP_MEMO_ROWS are
 * kept. */
static void memo_keep(struct dp *d, const struct alloc_problem *p, size_t j,
                      int top)
{
    const struct alloc_job *b = &p->jobs[j];
    size_t no = (size_t)b->jmax + 1, off;

    if (b->h || no > DP_MEMO_WIDTH || (size_t)d->hi[j] + 1 > no)
        return;
    if (!d->memo)
        d->memo = xcalloc(DP_MEMO_ROWS, sizeof *d->memo);
    if (d->n_memo == DP_MEMO_ROWS)
        d->n_memo = d->memo_used = 0;
    off = d->memo_used;
    BFS_GROW(d->memo_v, d->memo_v_cap, off + no);
    BFS_GROW(d->memo_o, d->memo_o_cap, off + no);
    memcpy(&d->memo_v[off], &d->v[j * d->W],
           ((size_t)d->hi[j] + 1) * sizeof *d->v);
    memcpy(&d->memo_o[off], b->o, no * sizeof *b->o);
    d->memo[d->n_memo++] = (struct dp_memo){
        .h = d->jh[j],
        .job = *b,
        .top = top,
        .hi = d->hi[j],
        .off = off,
        .best = d->vbest[j],
        .big = d->big[j],
        .arg = d->varg[j],
        .next = d->vnext[j],
    };
    d->memo_used = off + no;
}
/* The first count of the largest value of the row v(0..hi) into *arg
 * (-1 when every value is -HUGE_VAL) and the largest value at the other
 * counts into *next (-HUGE_VAL when none), as shortcut() and
 * greedy_step() read them. */
static void row_top(const double *v, int hi, int *arg, double *next)
{
    double best = -HUGE_VAL, nx = -HUGE_VAL;
    int b = -1;

    for (int n = 0; n <= hi; n++) {
        if (v[n] > best) {
            nx = best;
            best = v[n];
            b = n;
        } else if (v[n] > nx)
            nx = v[n];
    }
    *arg = b;
    *next = nx;
}

/* Starts the incumbent (see the top): every job at its current count
 * when that is admissible, else at 0 when that is; none (inc_ok 0) when
 * some job has neither or they overfill the pool. */
static void greedy_start(struct dp *d)
{
    const struct alloc_problem *p = d->p;
    long room = p->pool;

    BFS_GROW(d->inc, d->inc_cap, d->nj + 1);
    d->inc_ok = 1;
    d->inc_val = 0.0;
    for (size_t j = 0; j < d->nj && d->inc_ok; j++) {
        int cur = p->jobs[j].cur;
        d->inc[j] = alloc_admissible(p, j, cur) ? cur
                    : alloc_admissible(p, j, 0) ? 0
                                                : -1;
        d->inc_ok = d->inc[j] >= 0;
        room -= d->inc[j];
    }
    d->inc_ok = d->inc_ok && room >= 0;
    d->inc_room = room;
}

/* Job j's greedy step, its value row made: the count of highest value
 * within its start plus the nodes left (its start when that is among the
 * best, else the fewest nodes among them). */
static void greedy_step(struct dp *d, size_t j)
{
    const double *vj = &d->v[d->tid[j] * d->W];
    int b, best;

    if (!d->inc_ok)
        return;
    b = best = d->inc[j];
    if (d->hi[j] - b <= d->inc_room) {
        /* every count in reach: the loop would end at b when no value
         * beats b's, else at the row's first best count (row_top) */
        size_t t = d->tid[j];
        best = vj[b] == d->vbest[t] ? b : d->varg[t];
    } else
        for (int n = 0; n <= d->hi[j] && n - b <= d->inc_room; n++)
            if (vj[n] > vj[best])
                best = n;
    d->inc_room -= best - b;
    d->inc[j] = best;
    d->inc_val += vj[best];
}

/* Reads p: fills hi, keepable, ksuf, W, C and v, and makes the greedy
 * incumbent.  Returns SOLVE_OPTIMAL or SOLVE_INFEASIBLE (a job without
 * an admissible count), with d->expired set when the time ran out before
 * the end (the tables are then not to be used); or BFS_ERANGE (in e)
 * when the value table would exceed DP_MAX_CELLS entries. */
static int setup(struct dp *d, const struct alloc_problem *p,
                 struct bfs_error *e)
{
    size_t nj = p->n_jobs, W = 1, mask = 15;
    double sbig = 0.0;

    d->p = p;
    d->nj = nj;
    BFS_GROW(d->hi, d->hi_cap, nj + 1);
    BFS_GROW(d->lo, d->lo_cap, nj + 1);
    BFS_GROW(d->keepable, d->keep_cap, nj + 1);
    BFS_GROW(d->ksuf, d->ksuf_cap, nj + 1);
    BFS_GROW(d->busy, d->busy_cap, nj + 1);
    BFS_GROW(d->tid, d->tid_cap, nj + 1);
    BFS_GROW(d->big, d->big_cap, nj + 1);
    BFS_GROW(d->vbest, d->vbest_cap, nj + 1);
    BFS_GROW(d->varg, d->varg_cap, nj + 1);
    BFS_GROW(d->vnext, d->vnext_cap, nj + 1);
    BFS_GROW(d->jh, d->jh_cap, nj + 1);
    while (mask < 2 * nj) /* a table of at least twice the jobs */
        mask = 2 * mask + 1;
    BFS_GROW(d->slot, d->slot_cap, mask + 1);
    memset(d->slot, 0xff, (mask + 1) * sizeof *d->slot); /* all SIZE_MAX */
    BFS_GROW(d->memo_at, d->memo_at_cap, nj + 1);
    if (memcmp(&d->memo_tfwd, &p->tfwd, sizeof p->tfwd) ||
        d->memo_cap != p->cap) { /* the kept rows are for another */
        d->n_memo = d->memo_used = 0;
        d->memo_tfwd = p->tfwd;
        d->memo_cap = p->cap;
    }
    greedy_start(d);
    for (size_t j = 0; j < nj; j++) {
        int top = p->jobs[j].jmax < p->pool ? p->jobs[j].jmax : p->pool;
        d->tid[j] = job_type(d, p, j, mask);
        d->memo_at[j] = -1;
        if (d->tid[j] != j) {
            d->hi[j] = d->hi[d->tid[j]];
            continue;
        }
        if (!p->jobs[j].h && (d->memo_at[j] = memo_find(d, p, j, top)) >= 0) {
            d->hi[j] = d->memo[d->memo_at[j]].hi; /* the row kept */
            if ((size_t)d->hi[j] + 1 > W)
                W = (size_t)d->hi[j] + 1;
            continue;
        }
        d->hi[j] = -1;
        for (int n = top; n >= 0 && d->hi[j] < 0; n--)
            if (alloc_admissible(p, j, n))
                d->hi[j] = n;
        if (spend(d, (size_t)(top - d->hi[j]) + 1))
            return SOLVE_OPTIMAL; /* the caller sees d->expired */
        if (d->hi[j] < 0)
            return SOLVE_INFEASIBLE; /* no admissible count (the cap) */
        if ((size_t)d->hi[j] + 1 > W)
            W = (size_t)d->hi[j] + 1;
    }
    d->W = W;
    if (nj > DP_MAX_CELLS / W)
        return bfs_fail(e, BFS_ERANGE,
                        "dp: %zu jobs with counts up to %zu need a value "
                        "table of more than %zu entries (%zu MiB); admit "
                        "fewer jobs at once (--max-jobs)",
                        nj, W - 1, DP_MAX_CELLS,
                        DP_MAX_CELLS * sizeof(double) >> 20);
    BFS_GROW(d->v, d->v_cap, nj * W + 1);
    d->vmax_sum = 0.0;
    for (size_t j = 0; j < nj; j++) {
        double m = -HUGE_VAL, big = 0.0, *vj;
        int n, hj;
        if (d->tid[j] != j) { /* its type's row, best and largest value */
            d->big[j] = d->big[d->tid[j]];
            d->vmax_sum += d->vbest[d->tid[j]];
            greedy_step(d, j);
            if (spend(d, 1))
                return SOLVE_OPTIMAL; /* the caller sees d->expired */
            continue;
        }
        /* its row, best and largest value in one pass, in the same
         * order of n (the same doubles); the row in a local pointer, as
         * the calls keep the compiler from holding d's fields */
        vj = &d->v[j * W];
        hj = d->hi[j];
        n = 0;
        if (d->memo_at[j] >= 0) { /* kept: the same doubles (memo_find) */
            const struct dp_memo *k = &d->memo[d->memo_at[j]];
            memcpy(vj, &d->memo_v[k->off], ((size_t)hj + 1) * sizeof *vj);
            m = k->best;
            big = k->big;
            d->varg[j] = k->arg;
            d->vnext[j] = k->next;
            n = hj + 1;
        }
        for (; d->memo_at[j] < 0 && n <= hj; n++) {
            double x =
                alloc_admissible(p, j, n) ? alloc_value(p, j, n) : -HUGE_VAL;
            vj[n] = x;
            if (x != -HUGE_VAL) {
                m = x > m ? x : m;
                big = fabs(x) > big ? fabs(x) : big;
            }
        }
        if (d->memo_at[j] < 0)
            row_top(vj, hj, &d->varg[j], &d->vnext[j]);
        for (; (size_t)n < W; n++)
            vj[n] = -HUGE_VAL;
        d->vmax_sum += m;
        d->vbest[j] = m;
        d->big[j] = big;
        greedy_step(d, j);
        if (spend(d, 2 * W))
            return SOLVE_OPTIMAL; /* the caller sees d->expired */
    }
    d->vmax_ok = 1;
    for (size_t j = 0; j < nj; j++) /* the rows made, for later setups */
        if (d->tid[j] == j && d->memo_at[j] < 0)
            memo_keep(d, p, j,
                      p->jobs[j].jmax < p->pool ? p->jobs[j].jmax : p->pool);
    /* the tie tolerance as alloc_tie_tol computes it, in the same order */
    for (size_t j = 0; j < nj; j++)
        sbig += d->big[d->tid[j]];
    d->tol = ALLOC_TIE_REL * (sbig > 1.0 ? sbig : 1.0);
    derive(d);
    return SOLVE_OPTIMAL;
}

/* The error past the tables' bound, n cells needed. */
static int too_big(const struct dp *d, size_t n, struct bfs_error *e)
{
    return bfs_fail(e, BFS_ERANGE,
                    "dp: %zu jobs on %zu nodes need tables of more than %zu "
                    "entries (%zu needed, %zu MiB a table); admit fewer jobs "
                    "at once (--max-jobs)",
                    d->nj, d->C + d->cfix, DP_MAX_CELLS, n,
                    DP_MAX_CELLS * sizeof(double) >> 20);
}

/* Sets the windows of F's rows for the instance setup() read (F's row
 * j + 1 spans row j's shifted by job j's smallest to largest count,
 * within C) and sizes F and pf; B's windows are set as its rows are made
 * (b_window).  Returns 0, or BFS_ERANGE (in e) when F would exceed
 * DP_MAX_CELLS cells. */
static int size_tables(struct dp *d, struct bfs_error *e)
{
    size_t nj = d->nr;

    BFS_GROW(d->fw, d->fw_cap, nj + 1);
    BFS_GROW(d->bw, d->bw_cap, nj + 1);
    d->fw[0] = (struct dp_win){0, 0, 0};
    BFS_GROW(d->F, d->F_cap, 1);
    BFS_GROW(d->pf, d->pf_cap, d->C + 1);
    (void)e;
    return 0;
}

/* Sets window b, of the row after a in table T's filling order, from a
 * and job j's count range (cells a->lo + lo[j] .. min(a->hi + hi[j], C))
 * and makes room for it in T (capacity *cap) after a's cells.  Returns 0,
 * or BFS_ERANGE (in e) past DP_MAX_CELLS cells. */
static int next_window(struct dp *d, size_t j, const struct dp_win *a,
                       struct dp_win *b, double **T, size_t *cap,
                       struct bfs_error *e)
{
    size_t n;

    b->lo = a->lo + (size_t)d->lo[j];
    b->hi = a->hi + (size_t)d->hi[j] < d->C ? a->hi + (size_t)d->hi[j] : d->C;
    b->off = a->off + win_len(a);
    n = b->off + win_len(b);
    if (n > DP_MAX_CELLS)
        return too_big(d, n, e);
    BFS_GROW(*T, *cap, n + 1);
    return 0;
}

/* Sets the window of F's row j + 1 from row j's (which narrow_f() may
 * have shrunk) and makes room for it after row j's cells.  Returns 0, or
 * BFS_ERANGE (in e) past DP_MAX_CELLS cells. */
static int f_window(struct dp *d, size_t j, struct bfs_error *e)
{
    return next_window(d, j, &d->fw[j], &d->fw[j + 1], &d->F, &d->F_cap, e);
}

/* Kills the cells of F's row j whose reduced loss (prune(): sum_{i<j}
 * phi_i - (F - lambda c)) exceeds delta, and narrows the row's window to
 * the cells left.  phi is sum_{i<j} phi_i.  A cell on an allocation of
 * value >= zlb - 3 tol, and the best prefix of such a cell and its
 * prefixes, have a loss <= delta and stay, with their values. */
static void narrow_f(struct dp *d, size_t j, double phi)
{
    struct dp_win *fj = &d->fw[j];
    double *Fj = &d->F[fj->off];
    size_t first = DEAD, last = 0;

    for (size_t c = fj->lo; c <= fj->hi; c++) {
        double x = Fj[c - fj->lo];
        if (x == -HUGE_VAL || phi - (x - d->lambda * (double)c) > d->delta) {
            Fj[c - fj->lo] = -HUGE_VAL;
            continue;
        }
        first = first == DEAD ? c : first;
        last = c;
    }
    spend(d, 1 + win_len(fj));
    win_narrow(fj, first, last);
}

/* Sets the window of B's row j from row j + 1's (which narrow() may have
 * shrunk) and makes room for it after row j + 1's cells.  Returns 0, or
 * BFS_ERANGE (in e) past DP_MAX_CELLS cells. */
static int b_window(struct dp *d, size_t j, struct bfs_error *e)
{
    return next_window(d, j, &d->bw[j + 1], &d->bw[j], &d->B, &d->B_cap, e);
}

/* The shortcut.  Let b_j be job j's best admissible count (largest
 * v_j) and m_j the margin by which v_j(b_j) beats every other admissible
 * count of job j (+inf when b_j is the only one).  If sum b_j <= pool and
 * every m_j > tol + slack, the rule's answer is b, and so is the table's:
 * any other feasible n differs from b in some job j, so its exact sum is
 * at most sum v(b) - m_j < sum v(b) - tol - slack.  The sums the rule and
 * the table compare are rounded, each within (a few roundings per job)
 * u * S of the exact sum, u = DBL_EPSILON / 2 and S = sum_j max |v_j| <=
 * tol / ALLOC_TIE_REL; slack = 8 (J + 1) DBL_EPSILON max(1, S) covers both
 * sides' rounding with room, so n falls below the threshold z* - tol in
 * either computation and b is alone in the tie set: keys 2-4 have nothing
 * to choose.  (With 1,000 jobs, slack is 2e-5 tol.)  Writes b into counts
 * and returns 1 when the shortcut applies, 0 when the table is needed or
 * the time ran out (d->expired). */
static int shortcut(struct dp *d, double tol, int *counts)
{
    double slack = 8.0 * (double)(d->nj + 1) * DBL_EPSILON *
                   (tol / ALLOC_TIE_REL > 1.0 ? tol / ALLOC_TIE_REL : 1.0);
    size_t sum = 0;

    for (size_t j = 0; j < d->nj; j++) {
        if (d->tid[j] != j) { /* its type's, which passed */
            counts[j] = counts[d->tid[j]];
            sum += (size_t)counts[j];
            continue;
        }
        /* b_j, its value and the best of the others: row_top's, kept by
         * setup(); best - next is +inf when b_j is alone, and b_j >= 0
         * after setup */
        if (spend(d, 1) || d->varg[j] < 0 ||
            !(d->vbest[j] - d->vnext[j] > tol + slack))
            return 0;
        counts[j] = d->varg[j];
        sum += (size_t)d->varg[j];
    }
    return sum <= (size_t)d->p->pool;
}

/* The slope of the next segment of type t's upper hull (see prune()):
 * from its point lvl[t] to lvl[t] + 1. */
static double seg_slope(const struct dp *d, size_t t)
{
    const int *h = &d->hp[d->hoff[t] + d->lvl[t]];

    return (val(d, t, h[1]) - val(d, t, h[0])) / (h[1] - h[0]);
}

/* Whether type a's next segment comes before type b's in prune()'s
 * sweep: the steeper first, then the type of the earlier job. */
static int seg_before(const struct dp *d, size_t a, size_t b)
{
    double sa = seg_slope(d, a), sb = seg_slope(d, b);

    return sa > sb || (sa == sb && a < b);
}

/* Restores the heap d->heap[0..n-1] below position i (by seg_before). */
static void heap_down(struct dp *d, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i, t;
        if (l < n && seg_before(d, d->heap[l], d->heap[m]))
            m = l;
        if (l + 1 < n && seg_before(d, d->heap[l + 1], d->heap[m]))
            m = l + 1;
        if (m == i)
            return;
        t = d->heap[i];
        d->heap[i] = d->heap[m];
        d->heap[m] = t;
        i = m;
    }
}

/* Reduced-cost fixing (see the top): drops from each job's value row
 * the counts that no allocation within tol of z* can use, then derives
 * hi, keepable, ksuf, busy and C again.  Its feasible allocation becomes
 * the incumbent when better, and its bound lbound.  Returns 0, or 1 when
 * the time ran out (the rows then keep the counts dropped so far, which
 * no allocation of the tie set uses, and the tables are not to be
 * made). */
static int prune(struct dp *d, double tol)
{
    size_t nj = d->nj, W = d->W, nh = 0, nt = 0, sum = 0, room;
    double lambda = 0.0, zlb = 0.0, L, delta;

    d->zlb = -HUGE_VAL;
    BFS_GROW(d->at_n, d->at_n_cap, nj + 1);
    BFS_GROW(d->mult, d->mult_cap, nj + 1);
    BFS_GROW(d->hoff, d->hoff_cap, nj + 1);
    BFS_GROW(d->hn, d->hn_cap, nj + 1);
    BFS_GROW(d->lvl, d->lvl_cap, nj + 1);
    BFS_GROW(d->extra, d->extra_cap, nj + 1);
    BFS_GROW(d->tphi, d->tphi_cap, nj + 1);
    BFS_GROW(d->heap, d->heap_cap, nj + 1);
    memset(d->mult, 0, nj * sizeof *d->mult);
    for (size_t j = 0; j < nj; j++)
        d->mult[d->tid[j]]++;
    /* each type's upper hull of (n, v(n)) over its admissible counts
     * (monotone chain); its jobs start at its smallest admissible count */
    for (size_t t = 0; t < nj; t++) {
        size_t top = 0;
        int *h;
        if (d->tid[t] != t)
            continue;
        BFS_GROW(d->hp, d->hp_cap, nh + W + 1);
        h = &d->hp[nh];
        for (int n = 0; n <= d->hi[t]; n++) {
            double vn = val(d, t, n);
            if (vn == -HUGE_VAL)
                continue;
            while (top >= 2) {
                int a = h[top - 2], b = h[top - 1];
                double va = val(d, t, a), vb = val(d, t, b);
                if ((vb - va) * (double)(n - b) > (vn - vb) * (double)(b - a))
                    break;
                top--; /* b is on or below the chord from a to n */
            }
            h[top++] = n;
        }
        d->hoff[t] = nh;
        d->hn[t] = top;
        d->lvl[t] = d->extra[t] = 0;
        sum += d->mult[t] * (size_t)h[0];
        if (top > 1)
            d->heap[nt++] = t;
        nh += top;
        if (spend(d, (size_t)d->hi[t] + 1))
            return 1;
    }
    if (sum > d->C)
        return 0; /* no start: leave the instance as it is */
    room = d->C - sum;
    /* the fractional knapsack over the hulls' segments, steepest first
     * (a heap of the types by their next segment: each hull's segments
     * come in its order), each taken by every job of its type in turn:
     * lambda is the slope of the first that does not fit (0 when all
     * positive ones fit), and the segments taken give an allocation.
     * Any lambda >= 0 and any feasible allocation make a valid test. */
    for (size_t i = nt / 2; i-- > 0;)
        heap_down(d, nt, i);
    while (nt > 0) {
        size_t t = d->heap[0], len;
        double slope = seg_slope(d, t);
        len = (size_t)(d->hp[d->hoff[t] + d->lvl[t] + 1] -
                       d->hp[d->hoff[t] + d->lvl[t]]);
        if (!(slope > 0.0))
            break;
        if (len * d->mult[t] > room) {
            d->extra[t] = room / len;
            room -= d->extra[t] * len;
            lambda = slope;
            break;
        }
        d->lvl[t]++;
        room -= len * d->mult[t];
        if (d->lvl[t] + 1 >= d->hn[t]) /* its hull is used up */
            d->heap[0] = d->heap[--nt];
        heap_down(d, nt, 0);
        if (spend(d, 8))
            return 1;
    }
    for (size_t j = 0; j < nj; j++) {
        size_t t = d->tid[j], at = d->hoff[t] + d->lvl[t];
        if (d->extra[t] > 0) { /* the first jobs of the type take one more */
            d->extra[t]--;
            at++;
        }
        d->at_n[j] = d->hp[at];
    }
    /* the room left: each job in turn takes its best gain within it */
    for (size_t j = 0; j < nj && room > 0; j++) {
        int from = d->at_n[j], best = from;
        for (int n = from + 1; n <= d->hi[j] && (size_t)(n - from) <= room; n++)
            if (val(d, j, n) > val(d, j, best))
                best = n;
        d->at_n[j] = best;
        room -= (size_t)(best - from);
        if (spend(d, (size_t)(d->hi[j] - from) + 1))
            return 1;
    }
    L = lambda * (double)d->C;
    for (size_t j = 0; j < nj; j++) {
        size_t t = d->tid[j];
        if (t == j) {
            d->tphi[t] = -HUGE_VAL;
            for (int n = 0; n <= d->hi[t]; n++)
                if (val(d, t, n) - lambda * n > d->tphi[t])
                    d->tphi[t] = val(d, t, n) - lambda * n;
            if (spend(d, (size_t)d->hi[t] + 1))
                return 1;
        }
        zlb += val(d, j, d->at_n[j]);
        L += d->tphi[t];
    }
    delta = L - zlb + 3.0 * tol;
    d->zlb = zlb;
    d->lambda = lambda;
    d->delta = delta;
    d->lbound = L;
    if (!d->inc_ok || zlb > d->inc_val) { /* a better incumbent */
        memcpy(d->inc, d->at_n, nj * sizeof *d->inc);
        d->inc_val = zlb;
        d->inc_ok = 1;
    }
    for (size_t j = 0; j < nj; j++) {
        double *vj = &d->v[j * W];
        if (d->tid[j] != j) /* its type's row, which it shares */
            continue;
        for (int n = 0; n <= d->hi[j]; n++)
            if (vj[n] != -HUGE_VAL && d->tphi[j] - (vj[n] - lambda * n) > delta)
                vj[n] = -HUGE_VAL;
        if (spend(d, (size_t)d->hi[j] + 1))
            return 1;
    }
    derive(d);
    return 0;
}

/* Whether p is, number for number, the last instance solved, or one
 * whose answer is the last one's though its pool differs.  The second
 * case: every number but the pool is the last one's, the last answer
 * came from shortcut(), it fits the new pool, and both pools hold every
 * job's jmax.  Then setup() makes the same value rows: a job's row reads
 * the pool only through its top count min(jmax, pool) and
 * alloc_admissible's n <= pool, for n <= jmax, both the same for pools
 * >= jmax; the rest (alloc_value, the cap test, the types, the tie
 * tolerance) reads no pool.  So shortcut() tests the same rows against
 * the same tolerance, finds the same bests b with the same margins, and
 * its last test, sum b <= pool, holds by the stored sum: the same counts,
 * and alloc_objective, which reads no pool, gives the same objective
 * and bound.  The state kept for row reuse (solve_tables) is the same
 * either way: shortcut() leaves it, and setup() would write the same
 * rows it holds.  On a replay every trace event moves
 * the pool by a node or two and changes no job, so nearly every call
 * ends here. */
static int same_instance(struct dp *d, const struct alloc_problem *p)
{
    const struct dp_last *l = &d->last;
    size_t off = 0;

    if (!l->have ||
        (l->pool != p->pool &&
         !(l->by_shortcut && l->used <= p->pool && l->pool >= l->jmax_max &&
           p->pool >= l->jmax_max)) ||
        l->cap != p->cap || l->nj != p->n_jobs ||
        memcmp(&l->tfwd, &p->tfwd, sizeof p->tfwd))
        return 0;
    for (size_t j = 0; j < p->n_jobs; j++) {
        const struct alloc_job *a = &l->jobs[j], *b = &p->jobs[j];
        size_t no = (size_t)b->jmax + 1;
        if (b->h) /* hints: horizon tables are not kept; solve again */
            return 0;
        if (a->cur != b->cur || a->jmin != b->jmin || a->jmax != b->jmax ||
            memcmp(&a->tcup, &b->tcup, sizeof b->tcup) ||
            memcmp(&a->tcdw, &b->tcdw, sizeof b->tcdw) ||
            /* the same table by its caller's word (alloc_job.o_id), or
             * the same numbers */
            ((b->o_id == 0 || a->o_id != b->o_id || l->src[j] != b->o) &&
             memcmp(&l->o[off], b->o, no * sizeof *b->o)))
            return 0;
        off += no;
        if (spend(d, no / 8 + 1)) /* the solve then returns at once */
            return 0;
    }
    return 1;
}

/* Stores p and its answer res as the last instance, by_shortcut when
 * shortcut() gave it (see same_instance); none when the solve's time is
 * used up, before or while copying p (an instance as large as the
 * tables' bound takes 50 to 200 ms to copy). */
static void remember(struct dp *d, const struct alloc_problem *p,
                     const struct alloc_result *res, int by_shortcut)
{
    struct dp_last *l = &d->last;
    size_t no = 0, off = 0;
    int counted = res->status == SOLVE_OPTIMAL || res->status == SOLVE_FEASIBLE;

    l->have = 0;
    if (d->expired)
        return;
    for (size_t j = 0; j < p->n_jobs; j++)
        no += (size_t)p->jobs[j].jmax + 1;
    BFS_GROW(l->jobs, l->jobs_cap, p->n_jobs + 1);
    BFS_GROW(l->o, l->o_cap, no + 1);
    BFS_GROW(l->counts, l->counts_cap, p->n_jobs + 1);
    BFS_GROW(l->src, l->src_cap, p->n_jobs + 1);
    l->pool = p->pool;
    l->cap = p->cap;
    l->tfwd = p->tfwd;
    l->nj = p->n_jobs;
    for (size_t j = 0; j < p->n_jobs; j++) {
        size_t nj = (size_t)p->jobs[j].jmax + 1;
        l->jobs[j] = p->jobs[j];
        l->src[j] = p->jobs[j].o;
        memcpy(&l->o[off], p->jobs[j].o, nj * sizeof *l->o);
        l->jobs[j].o = &l->o[off];
        l->counts[j] = counted ? res->counts[j] : 0;
        off += nj;
        if (spend(d, nj / 4 + 1))
            return;
    }
    l->status = res->status;
    l->objective = res->objective;
    l->bound = res->bound;
    l->by_shortcut = by_shortcut;
    l->used = 0;
    l->jmax_max = 0;
    for (size_t j = 0; j < p->n_jobs; j++) {
        l->used += l->counts[j];
        l->jmax_max =
            p->jobs[j].jmax > l->jmax_max ? p->jobs[j].jmax : l->jmax_max;
    }
    l->have = 1;
    for (size_t j = 0; j < p->n_jobs; j++)
        if (p->jobs[j].h) /* hints: not kept (same_instance) */
            l->have = 0;
}

/* Whether job j's value row equals the one F and B were computed from. */
static int same_row(const struct dp *d, size_t j)
{
    return d->phi[j] == d->hi[j] &&
           !memcmp(&d->pv[j * d->pW], &d->v[d->tid[j] * d->W],
                   ((size_t)d->hi[j] + 1) * sizeof *d->v);
}

/* Notes that F and B are complete for the current value rows, and
 * copies every job's row (its type's) when they can be reused: not
 * when they were narrowed (b_ok 0), as then no row is reused. */
static void keep_rows(struct dp *d)
{
    d->rows_ok = 1;
    d->b_ok = d->zlb == -HUGE_VAL;
    if (!d->b_ok)
        return;
    BFS_GROW(d->pv, d->pv_cap, d->nj * d->W + 1);
    BFS_GROW(d->phi, d->phi_cap, d->nj + 1);
    for (size_t j = 0; j < d->nj; j++)
        memcpy(&d->pv[j * d->W], &d->v[d->tid[j] * d->W], d->W * sizeof *d->v);
    memcpy(d->phi, d->hi, d->nj * sizeof *d->hi);
    d->pnj = d->nj;
    d->pW = d->W;
    d->pC = d->C;
}

/* The best bound on z* known so far: z when it is known (not
 * HUGE_VAL), else prune's Lagrangian bound or the sum of the jobs' best
 * values, whichever is lower; HUGE_VAL when setup() did not finish. */
static double known_bound(const struct dp *d, double z)
{
    double b = d->vmax_ok ? d->vmax_sum : HUGE_VAL;

    if (z != HUGE_VAL)
        return z;
    return d->lbound < b ? d->lbound : b;
}

/* The time-limited answer: the incumbent (see the top) as FEASIBLE, with
 * the bound known_bound(d, z) (at least its objective); NO_SOLUTION when
 * there is none. */
static int incumbent(const struct dp *d, double z, struct alloc_result *res)
{
    const struct alloc_problem *p = d->p;
    double bound = known_bound(d, z);

    if (!d->inc_ok)
        return SOLVE_NO_SOLUTION;
    memcpy(res->counts, d->inc, d->nj * sizeof *res->counts);
    if (!alloc_feasible(p, res->counts)) /* never: each step keeps it so */
        return SOLVE_NO_SOLUTION;
    res->objective = alloc_objective(p, res->counts);
    res->bound = bound > res->objective ? bound : res->objective;
    return SOLVE_FEASIBLE;
}

/* Makes an allocation of value z* (the largest of B's row 0, at c) the
 * incumbent: job by job, the largest count whose value plus the best
 * completion of the rest on the nodes left equals the cell's value.
 * Some count does: extend() made each cell as the largest such sum over
 * the next row as it still stands (narrow() had already run on it), in
 * the same rounding.  Leaves the incumbent as it was when the time runs
 * out or no count fits. */
static void b_optimum(struct dp *d, size_t c)
{
    double target = d->B[win_at(&d->bw[0], c)];
    int *n_of;

    BFS_GROW(d->at_n, d->at_n_cap, d->nj + 1);
    for (size_t j = 0; j < d->nj; j++)
        d->at_n[j] = d->fix[j];
    n_of = d->at_n; /* prune()'s scratch, free again */
    for (size_t j = 0; j < d->nr; j++) {
        size_t pick = SIZE_MAX;
        for (size_t ch = nch(d, j) + 1; ch-- > 0 && pick == SIZE_MAX;) {
            double vn = ch_v(d, j, ch);
            size_t src, n = ch_n(d, j, ch);
            if (vn == -HUGE_VAL || n > c)
                continue;
            src = win_at(&d->bw[j + 1], c - n);
            if (src != DEAD && d->B[src] != -HUGE_VAL &&
                vn + d->B[src] >= target) {
                pick = ch;
                target = d->B[src];
            }
        }
        if (spend(d, nch(d, j) + 1) || pick == SIZE_MAX)
            return;
        row_counts(d, j, pick, n_of);
        c -= ch_n(d, j, pick);
    }
    memcpy(d->inc, n_of, d->nj * sizeof *d->inc);
    d->inc_ok = 1;
}

/* Kills the cells of B's row j that no allocation of value >= thr passes
 * through, those where the best prefix beside the cell plus the cell is
 * below thr, and narrows the row's window to the cells left.  With thr
 * <= z* - 2 tol every alive cell stays, and so does the suffix of its
 * best completion (the prefix extended by the job's count is a prefix
 * beside the next cell), so alive cells keep their values.  F must be
 * complete. */
static void narrow(struct dp *d, size_t j, double thr)
{
    const struct dp_win *fj = &d->fw[j];
    struct dp_win *bj = &d->bw[j];
    const double *Fj = &d->F[fj->off];
    double m = -HUGE_VAL, *Bj = &d->B[bj->off];
    size_t first = DEAD, last = 0;

    for (size_t i = 0; i < win_len(fj); i++)
        d->pf[i] = m = Fj[i] > m ? Fj[i] : m;
    for (size_t c = bj->lo; c <= bj->hi; c++) {
        size_t room = d->C - c;
        double pre = fj->lo > fj->hi || room < fj->lo
                         ? -HUGE_VAL
                         : d->pf[(room < fj->hi ? room : fj->hi) - fj->lo];
        if (pre == -HUGE_VAL || !(pre + Bj[c - bj->lo] >= thr)) {
            Bj[c - bj->lo] = -HUGE_VAL;
            continue;
        }
        first = first == DEAD ? c : first;
        last = c;
    }
    spend(d, 1 + win_len(fj) + win_len(bj));
    win_narrow(bj, first, last);
}

/* The rows of the tables.  Once prune() ran (zlb known), a job left
 * with one admissible count takes no row: it has that count in every
 * allocation, so leaving it out changes neither the tie set (its value,
 * keep and nodes are the same in every allocation: keys 1 to 3 compare
 * the same differences) nor key 4 (the rows keep the jobs' order); the
 * tables then run over the other jobs on C less its nodes, and their
 * narrowing thresholds are lowered by its value (vfix).  Keys 1's sums
 * are then taken without those constants, which moves them by a few
 * ulps of S, as summing in another order does (see the top).  Rows are
 * reused (rows_ok) only without prune(), so only with every job a row.
 *
 * Runs: jobs of one type with two admissible counts x < y (after
 * prune()) that follow each other among the jobs with rows share one
 * row, whose choice is how many of them, k, take y.  The tie set is the
 * same: the run's jobs are interchangeable, so any allocation of the
 * tie set permuted within the run is one too (keys 1 to 3 are sums),
 * and key 4 makes their counts non-increasing in job order, y^k x^(m-k).
 * Choosing the counts job by job, the first job of the run takes y when
 * some allocation of the tie set with the rest gives y to at least one,
 * and so on: the run gets y^K x^(m-K), K the largest k that some
 * allocation of the tie set has, which is what choose() picks among the
 * row's choices (largest first).  A run of m jobs is one row of m + 1
 * choices where it was m rows of two: 10,000 idle copies of one job on
 * 3,600 nodes make one row, not a table of 30 million cells.
 *
 * Sets C to SIZE_MAX when the fixed jobs overfill the pool (then no
 * allocation is feasible).  Returns 1 in that case, else 0. */
static int rows(struct dp *d)
{
    size_t r = 0, q = 0, cf = 0;
    double vf = 0.0;
    int two = 0; /* the last row's jobs have two admissible counts */

    BFS_GROW(d->fix, d->fix_cap, d->nj + 1);
    BFS_GROW(d->rowjob, d->rowjob_cap, d->nj + 1);
    BFS_GROW(d->rm, d->rm_cap, d->nj + 1);
    BFS_GROW(d->roff, d->roff_cap, d->nj + 2);
    for (size_t j = 0; j < d->nj; j++) {
        int known = d->zlb != -HUGE_VAL;
        if (known && d->lo[j] == d->hi[j] && val(d, j, d->hi[j]) != -HUGE_VAL) {
            d->fix[j] = d->hi[j];
            cf += (size_t)d->hi[j];
            vf += val(d, j, d->hi[j]);
            continue;
        }
        d->fix[j] = -1;
        d->rowjob[q++] = j;
        if (known && r > 0 && d->tid[r - 1] == d->tid[j] &&
            d->hi[j] <= INT_MAX - d->hi[r - 1]) {
            if (d->rm[r - 1] == 1) { /* is the row's a two-count type? */
                int n_adm = 0;
                for (int n = d->lo[j]; n <= d->hi[j]; n++)
                    n_adm += val(d, j, n) != -HUGE_VAL;
                two = n_adm == 2;
            }
            if (two) { /* the run grows by one job */
                d->rm[r - 1]++;
                d->lo[r - 1] += d->lo[j];
                d->hi[r - 1] += d->hi[j];
                continue;
            }
        }
        d->hi[r] = d->hi[j];
        d->lo[r] = d->lo[j];
        d->keepable[r] = d->keepable[j];
        d->tid[r] = d->tid[j];
        d->cur[r] = d->cur[j];
        d->rm[r] = 1;
        d->roff[r++] = q - 1;
    }
    d->roff[r] = q;
    d->nr = r;
    d->cfix = cf;
    d->vfix = vf;
    d->ksuf[r] = d->busy[r] = 0;
    for (size_t i = r; i-- > 0;) {
        d->ksuf[i] = d->ksuf[i + 1] + d->rm[i] * (size_t)d->keepable[i];
        d->busy[i] = d->busy[i + 1] +
                     d->rm[i] * (size_t)(d->keepable[i] && d->cur[i] > 0);
    }
    spend(d, d->nj + 1);
    if (cf > d->C) {
        d->C = SIZE_MAX;
        return 1;
    }
    d->C -= cf;
    return 0;
}

/* The full solve: the tables F and B, then G on the alive cells.
 * Returns a status (written into res with its counts), or BFS_ERANGE
 * (in e) past the memory bound. */
static int solve_tables(struct dp *d, double tol, struct alloc_result *res,
                        struct bfs_error *e)
{
    double z = -HUGE_VAL;
    int rc = rows(d) ? 0 : size_tables(d, e);

    size_t f0 = 0, b0 = d->nr; /* F rows 0..f0, B rows b0..nj reused */
    size_t nB, zc = 0;
    double phi = 0.0; /* sum of phi over the jobs in F's row */

    if (d->C == SIZE_MAX) /* the fixed jobs overfill the pool */
        return SOLVE_INFEASIBLE;
    if (rc) {
        d->rows_ok = 0;
        return rc;
    }
    if (d->rows_ok && d->pnj == d->nr && d->pC == d->C) {
        while (d->b_ok && f0 < d->nr && same_row(d, f0))
            f0++;
        while (d->b_ok && b0 > 0 && same_row(d, b0 - 1))
            b0--;
    }
    d->rows_ok = 0;
    d->F[0] = 0.0; /* row 0's window: cell 0 */
    if (b0 == d->nr) {
        BFS_GROW(d->B, d->B_cap, 1);
        d->bw[d->nr] = (struct dp_win){0, 0, 0};
        d->B[0] = 0.0;
    }
    for (size_t j = f0; j < d->nr; j++) {
        rc = f_window(d, j, e);
        if (rc) {
            d->rows_ok = 0;
            return rc;
        }
        if (extend(d, d->F, &d->fw[j], &d->fw[j + 1], j))
            return incumbent(d, HUGE_VAL, res);
        if (d->zlb != -HUGE_VAL) {
            phi += (double)d->rm[j] * d->tphi[d->tid[j]];
            narrow_f(d, j + 1, phi);
        }
    }
    for (size_t j = b0; j-- > 0;) {
        rc = b_window(d, j, e);
        if (rc) {
            d->rows_ok = 0;
            return rc;
        }
        if (extend(d, d->B, &d->bw[j + 1], &d->bw[j], j))
            return incumbent(d, HUGE_VAL, res);
        if (d->zlb != -HUGE_VAL)
            narrow(d, j, d->zlb - d->vfix - 3.0 * tol);
    }
    nB = d->bw[0].off + win_len(&d->bw[0]);
    BFS_GROW(d->at, d->at_cap, nB + 1);
    BFS_GROW(d->klo, d->klo_cap, nB + 1);
    BFS_GROW(d->khi, d->khi_cap, nB + 1);
    keep_rows(d);
    for (size_t c = d->bw[0].lo; c <= d->bw[0].hi; c++)
        if (d->B[win_at(&d->bw[0], c)] > z) {
            z = d->B[win_at(&d->bw[0], c)];
            zc = c;
        }
    if (z == -HUGE_VAL)
        return SOLVE_INFEASIBLE;
    /* the optimum without its tie-break is the incumbent from here on */
    b_optimum(d, zc);
    if (d->expired)
        return incumbent(d, z, res);
    rc = fill(d, z - 2.0 * tol, e);
    if (rc < 0)
        return rc;
    if (rc > 0)
        return incumbent(d, z, res);
    rc = choose(d, tol, res->counts);
    if (rc > 0)
        return incumbent(d, z, res);
    if (rc < 0)
        return SOLVE_INFEASIBLE;
    res->objective = res->bound = alloc_objective(d->p, res->counts);
    return SOLVE_OPTIMAL;
}

static int dp_solve(void *state, const struct alloc_problem *p,
                    struct alloc_result *res, struct bfs_error *e)
{
    struct dp *d = state;
    uint64_t t0 = alloc_ticks();
    int status;

    if (alloc_typed(p)) /* node types: alloc/dp_types.c */
        return alloc_dp_types_solve(&d->typed, p, d->limit, res, e);
    d->t0 = t0;
    d->work = d->next_check = 0;
    d->expired = d->inc_ok = d->vmax_ok = 0;
    d->lbound = HUGE_VAL;
    if (same_instance(d, p)) {
        struct dp_last *l = &d->last;
        l->pool = p->pool; /* the instance it answers now */
        status = l->status;
        if (status == SOLVE_OPTIMAL || status == SOLVE_FEASIBLE) {
            memcpy(res->counts, l->counts, p->n_jobs * sizeof *res->counts);
            res->objective = l->objective;
            res->bound = l->bound;
        }
    } else {
        int by_shortcut = 0;
        status = setup(d, p, e);
        if (status == SOLVE_OPTIMAL) {
            double tol = d->tol;
            if (d->expired)
                status = incumbent(d, HUGE_VAL, res);
            else if ((by_shortcut = shortcut(d, tol, res->counts)))
                res->objective = res->bound = alloc_objective(p, res->counts);
            else if (d->expired || prune(d, tol))
                status = incumbent(d, HUGE_VAL, res);
            else
                status = solve_tables(d, tol, res, e);
        }
        if (status < 0) {
            d->last.have = 0;
            return status;
        }
        res->status = status;
        remember(d, p, res, by_shortcut);
    }
    res->status = status;
    res->build_s = 0.0;
    res->solve_s = alloc_clock_since(&d->clock, t0);
    res->rows = res->cols = res->nnz = 0;
    return 0;
}

const struct alloc_ops alloc_dp_ops = {
    .name = "dp",
    .create = dp_create,
    .solve = dp_solve,
    .destroy = dp_destroy,
};
