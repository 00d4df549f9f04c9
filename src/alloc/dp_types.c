/* alloc/dp_types.c - the exact dynamic programme with node types.
 *
 * dp (alloc/dp.c) hands every problem with p->n_types > 1 here.  Each job
 * j picks one option o = (t, n): count 0 (no type), or an admissible
 * count on a type it can use (alloc_admissible_t), of value v_j(t, n)
 * (read from one dense table, alloc_values_t's, made from the rows the
 * memo keeps) and keep flag alloc_keeps_t.  tol is alloc_tie_tol_t
 * (rows_values(), from the table).
 *
 * The shortcut first (shortcut(), dp.c's with types): when every job's
 * best option beats its others by more than tol and a rounding slack and
 * the bests fit the pools, they are the answer, alone in the tie set.
 *
 * Reduced-cost fixing (alloc/objective.h, alloc_lagr_*): prices lambda_t
 * >= 0, one per type, give each option a loss l >= 0 and a bound L >= z*
 * such that no allocation of value >= zlb - 3 tol uses an option of loss
 * above delta = L - zlb + 3 tol.  When zlb <= z*, the instance reduced to
 * the other options has the same optimum and the same tie set (every
 * allocation of value >= z* - tol >= zlb - tol keeps all its options),
 * hence the same answer: the tie-break below runs on the reduced
 * instance with the whole problem's tol.  The same prices bound a part
 * of an allocation: jobs 0..j-1 using at most cap - s nodes are worth at
 * most pre_j + lambda (cap - s), pre_j = sum_{i<j} phi_i (objective.h);
 * so a state s of jobs j..J-1 (below) whose best value g plus that bound
 * (its score) is below thr = zlb - 3 tol is on no such allocation, and
 * an option of loss l adds to a state of score S a state of score S - l.
 * Such states are never stored: every entry a test below can pass is
 * on an allocation of the tie set, whose states all stay with their
 * values (the argument of dp.c's narrow()).
 * Two tighter bounds on the prefix (semi(), over the options kept) test
 * each new state too: pre0_j, jobs 0..j-1 each at its best option; and
 * per type t, A_t[j][r] + sum_{k != t} lambda_k (cap_k - s_k), A_t the
 * exact best of jobs 0..j-1 within r = cap_t - s_t nodes of type t, their
 * options on the other types priced by lambda (a one-type knapsack, O(J
 * cap_t) per option, each row j only from r = cap_t - S_j on, S_j the
 * most nodes of t jobs j..J-1 take: no state reads below).  Exact on
 * one type, these are far below the Lagrangian bound (on the Summit
 * replays, the gap to z* is a third of L's), and they bound z* too: a
 * claim above A_t[J][cap_t] + ... fails without a table.
 *
 * zlb: the greedy allocation's value (alloc_lagr_greedy) is often far
 * below z* (the bound L is loose by the leftover of the packing), which
 * would keep most options.  When it is below L by more than tol, a local
 * search (improve()) raises it first: while the sum grows, one job moves
 * to its best option in the room left, or two jobs to their best pair of
 * options (the second's best within each count of the first: O(J^2 nt W)
 * a pass).  On the two-type Summit replay it lifts the greedy on about
 * 1,050 of 2,470 such events, and the first solve below then fails on
 * about 200 of them instead of 1,000.  So search() first solves the
 * instance reduced for zlb on a small work budget (enough when the greedy
 * is optimal and the table small, the most common case), then makes
 * claims: zc = L - delta, delta from 1/256 of the gap L - zlb up, by half
 * each time, while zc > zlb.  A claim is solved on the instance reduced
 * for zlb = zc: when that instance's optimum reaches zc, z* >= zc and the
 * answer is right (the claim's instance holds the tie set); else z* < zc,
 * and the instance's optimum, when it has one, is a feasible value: zlb
 * from then on.  A claim above the bound semi() gave z* in the first
 * solve is not tried: its instance keeps fewer options, so its own bound
 * is no larger and it fails.  Last, when no claim held, the instance
 * reduced for zlb is solved without a budget.  That last solve is the
 * first one again when no claim is tried (semi() bounded z* below the
 * smallest claim, zcmin): the first solve then drops its budget as soon
 * as semi() shows it, instead of failing and starting over.  On the
 * Summit replays L - z* is a few per cent of z*, and the claims take a
 * small fraction of the options the greedy's value keeps.
 *
 * The table.  The capacity is a vector: the nodes used on each type.  A
 * state s is such a vector, u_t in 0..cap_t, cap_t = min(pools[t], sum
 * over the jobs of their largest option kept on t).  K is the number of
 * keepable jobs (those with a kept option that keeps their holding).
 *
 *   G[j][s][k] = best sum_{i >= j} v_i over the options of jobs j..J-1
 *                using exactly state s and keeping exactly k jobs
 *
 * (-HUGE_VAL when none), stored for the states jobs j..J-1 reach whose
 * score passes (layer j: a hash of its usage vectors, each with its row
 * of K+1 keep counts), from layer J = {0} with G[J][0][0] = 0 backwards:
 * each state of layer j+1 plus each option of job j that fits the caps
 * (by increasing loss, while the score passes) is a state of layer j,
 * and each entry is the largest v_o + G[j+1][s - o][k - keep_o] (a
 * maximum of the same sums whatever their order, so the same doubles).
 * z* = max G[0]; target = z* - tol.
 *
 * Choosing by the tie-break rule (alloc/objective.h, keys 2-5):
 *   - Kb, the most keeps k with some G[0][s][k] >= target, then T, the
 *     fewest nodes (sum of s) among the states where G[0][s][Kb] does;
 *   - the counts (key 4): job by job, the largest count n such that some
 *     type and some completion reach the target with Kb keeps and T
 *     nodes.  The types are not fixed yet, so the prefix is a set of
 *     configurations (u, k): the state and keeps of jobs 0..j-1 for some
 *     types with the counts chosen (kept in a hash); each carries the
 *     value its completion must still reach, R(u, k).  An option from (u,
 *     k) to (u', k') passes when v_o + g(u', k') >= R(u, k), g(u', k')
 *     being the best completion, max G[j+1][s'][Kb - k'] over the states
 *     s' of layer j+1 with u' + s' within the caps and T nodes in all;
 *     (u', k') then needs min(R - v_o, g(u', k')) (the smallest over its
 *     ways in).  The clamp to g, as in dp.c's choose(), keeps the next
 *     step from failing on a rounding: the entry g is, as filled, v +
 *     G[j+2][..] for some option of job j+1, which passes the same test;
 *   - the types (key 5), the counts now fixed: the layers are made again
 *     with each job's options at its chosen count only (a subset of the
 *     first layers), and the same walk takes, job by job, the smallest
 *     type that passes (from the one configuration left), starting from
 *     min(target, its best value with Kb keeps).
 * So the keys are applied in their order: all the counts before any
 * type, as key 5 comes after key 4 (choosing a job's count and type
 * together could give a later job fewer nodes).  When the reduced
 * instance leaves one option a job, that allocation is the answer
 * without a table.
 *
 * Cost.  Making layer j takes |layer j+1| O (K+1) steps at most, O job
 * j's kept options, twice.  Choosing computes each g(u', k') once per
 * job by a scan of the states of layer j+1 with the nodes it needs (an
 * index by nodes made when first needed); few configurations stay alive
 * (usually one or a few).
 *
 * Memory bound.  The layers hold sum_j |layer j| (K+1) entries of G, at
 * most DPT_MAX_ENTRIES (2^24, 128 MiB; the states' vectors and hashes
 * come on top), and the value table J nt W doubles (W the largest count
 * + 1), at most as many.  Past either the solve is refused with
 * BFS_ERANGE and a message naming --allocator milp, which has no such
 * bound.  The refusal comes before the heavy work: a lower bound on the
 * states layer 0 would hold without the scores' test (states_lb())
 * refuses at once what clearly does not fit, and making the layers
 * stops as soon as they pass the bound, after at most 2^24 / (K+1)
 * states.
 *
 * The memo: the caller (dp.c) keeps each job's row of values between
 * solves (struct dpt_row: its values on each type by count, as
 * alloc_value_t gives them, and what they are made of), and the last
 * instance solved to optimality with its answer (struct dpt_memo).  A
 * job whose numbers are a kept row's, number for number (the tables
 * compared by value, not by address), takes that row's values, copied
 * into the table within the pools; most jobs do (a row changes when its
 * job's holding does, and the rows no job took, up to DPT_SPARE, are
 * kept too, for a job that comes back to a holding).  A row also keeps,
 * for the counts the pools let in (its clip), its two best values (the
 * shortcut's) and the counts of its upper hull on each type (read off
 * the hull chain over all its counts, kept as a tree: row_chain()): the
 * prices are made from these hulls (alloc_lagr_init_hulls, the same
 * points alloc_lagr_init's scan keeps, so bit for bit its prices;
 * hull_lists()), and the hulls bound the losses of a type's counts, so
 * that all_options() skips a type none of whose counts is kept.  Its
 * prefix maxima on each type make the tables the greedy and the local
 * search read (prefix_best()).  When every job's row is the last instance's at
 * its place and the pools are the same, the instance is the same, and
 * it gets the last answer without a solve: replays repeat an instance
 * at about one event in nine (events that change no pool nor job).
 *
 * Time limit: the work is counted and the clock read every DPT_CLOCK_WORK
 * units, as in dp.c.  Past the limit the solve returns its incumbent as
 * FEASIBLE: the greedy allocation, or a reduced instance's optimum read
 * off G when that is better (an optimum once z* is known, only the
 * tie-break then undecided).  The bound is z* once known, else the
 * fixing's L.
 */
#include "config.h"

#include "alloc/alloc.h"
#include "alloc/alloc_impl.h"
#include "alloc/objective.h"
#include "base/util.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Most entries of G, and of the value table: 2^24 doubles, 128 MiB. */
#define DPT_MAX_ENTRIES ((size_t)1 << 24)

/* A layer whose G took more entries than this is freed after its solve;
 * smaller ones are kept for the next (struct dpt_memo). */
#define DPT_KEEP_ENTRIES ((size_t)1 << 16)

/* Rows kept for the jobs' next instances beyond those the last took
 * (struct dpt_memo). */
#define DPT_SPARE 256

/* Work units between two readings of the clock (see dp.c). */
#define DPT_CLOCK_WORK ((size_t)1 << 16)

/* Work units of the first reduced solve (search()), some 20 to 50
 * microseconds: enough for the instances whose greedy allocation is
 * optimal and whose table is small, the most common. */
#define DPT_BUDGET ((size_t)20000)

#define NONE SIZE_MAX /* no such vector */

/* ---- sets of integer vectors ------------------------------------------ */

/* Vectors of w ints, numbered in the order added, with a hash (open
 * addressing, linear probing) to find them. */
struct vset {
    size_t w;     /* ints per vector */
    size_t n;     /* vectors stored */
    int *key;     /* owned: n x w ints, the vectors */
    size_t kcap;  /* room in key, in ints */
    size_t *slot; /* owned: nslot entries, index + 1 of a vector or 0 */
    size_t nslot; /* 0 or a power of two > 2 n */
    int shift;    /* 64 - log2(nslot) */
};

/* BFS_GROW with its test here, so that the hot paths (vset_add(),
 * fill(), walk()) make no call when the capacity is enough; need is
 * read twice. */
#define DPT_GROW(ptr, cap, need)                                               \
    do {                                                                       \
        if ((need) > (cap))                                                    \
            BFS_GROW(ptr, cap, need);                                          \
    } while (0)

static void vset_init(struct vset *s, size_t w)
{
    memset(s, 0, sizeof *s);
    s->w = w;
}

static void vset_release(struct vset *s)
{
    xfree(s->key);
    xfree(s->slot);
    vset_init(s, s->w);
}

/* A hash of vector k of w ints, in its high bits (multiplicative
 * hashing): vset_slot takes the top ones. */
static uint64_t vhash(const int *k, size_t w)
{
    uint64_t h = 0;

    for (size_t i = 0; i < w; i++)
        h = (h + (uint32_t)k[i]) * 0x9E3779B97F4A7C15u;
    return h;
}

/* The slot of vector k in s (nslot > 0): where it is, or the empty slot
 * where it would go. */
static size_t vset_slot(const struct vset *s, const int *k)
{
    size_t m = s->nslot - 1, i = (size_t)(vhash(k, s->w) >> s->shift);

    for (; s->slot[i]; i = (i + 1) & m) {
        const int *x = &s->key[(s->slot[i] - 1) * s->w];
        size_t c = 0;
        while (c < s->w && x[c] == k[c])
            c++;
        if (c == s->w)
            break;
    }
    return i;
}

/* The index of vector k in s, or NONE. */
static size_t vset_find(const struct vset *s, const int *k)
{
    size_t i;

    if (s->n == 0)
        return NONE;
    i = vset_slot(s, k);
    return s->slot[i] ? s->slot[i] - 1 : NONE;
}

/* Makes the hash of s again, with nslot slots. */
static void vset_rehash(struct vset *s, size_t nslot)
{
    xfree(s->slot);
    s->slot = xcalloc(nslot, sizeof *s->slot);
    s->nslot = nslot;
    s->shift = 64;
    while (nslot > 1) {
        nslot >>= 1;
        s->shift--;
    }
    for (size_t x = 0; x < s->n; x++)
        s->slot[vset_slot(s, &s->key[x * s->w])] = x + 1;
}

/* Adds vector k to s unless it is there; returns its index, with *added
 * 1 when it is new. */
static size_t vset_add(struct vset *s, const int *k, int *added)
{
    size_t i;

    if (2 * (s->n + 1) > s->nslot)
        vset_rehash(s, s->nslot ? 2 * s->nslot : 16);
    i = vset_slot(s, k);
    *added = !s->slot[i];
    if (*added) {
        DPT_GROW(s->key, s->kcap, (s->n + 1) * s->w);
        memcpy(&s->key[s->n * s->w], k, s->w * sizeof *k);
        s->slot[i] = ++s->n;
    }
    return s->slot[i] - 1;
}

/* Empties s, keeping its vectors' memory; its hash too unless it is
 * far larger than they needed (clearing it would then cost more than
 * growing it again). */
static void vset_clear(struct vset *s)
{
    if (s->nslot > 8 * s->n + 64) {
        xfree(s->slot);
        s->slot = NULL;
        s->nslot = 0;
    } else if (s->nslot)
        memset(s->slot, 0, s->nslot * sizeof *s->slot);
    s->n = 0;
}

/* ---- the table --------------------------------------------------------- */

/* One choice of a job: count n on type t (t = -1 for n = 0). */
struct dpt_opt {
    int t, n;
    size_t keep; /* 1 when it keeps the job's holding */
    double v;    /* v_j(t, n) */
    double loss; /* its loss at the fixing's prices (alloc_impl.h) */
};

/* The states jobs j..J-1 reach, and their rows of G. */
struct layer {
    struct vset st; /* the usage vectors */
    int *tot;       /* the nodes of each state */
    double *G;      /* st.n x L */
    size_t tot_cap, G_cap;
    /* made when the walk first needs it (by_tot()): the states ordered
     * by their nodes, those with c nodes at byt[toff[c - tmin]..
     * toff[c - tmin + 1]) */
    int indexed;
    size_t *byt, *toff;
    size_t byt_cap, toff_cap;
    int tmin, tmax; /* the fewest and most nodes of a state */
};

/* Frees l's memory, leaving it empty, for vectors of w ints. */
static void layer_release(struct layer *l, size_t w)
{
    vset_release(&l->st);
    xfree(l->tot);
    xfree(l->byt);
    xfree(l->toff);
    xfree(l->G);
    memset(l, 0, sizeof *l);
    vset_init(&l->st, w);
}

/* A set of configurations (u, k) (a vector of nt + 1 ints) with a
 * number each: a requirement, or a cached best completion. */
struct cfgs {
    struct vset key;
    double *x;
    size_t x_cap;
};

struct dpt {
    const struct alloc_problem *p;
    size_t nj, nt, W;
    /* the admissible options of loss at most adelta (-HUGE_VAL: none
     * yet), job after job, each job's by loss as options() keeps them */
    struct dpt_opt *all;
    size_t *aoff; /* nj + 1: job j's are all[aoff[j]..] */
    size_t all_cap;
    double adelta;
    const struct alloc_lagr *g; /* borrowed: the fixing's prices */
    /* nj nt: below the loss of every option of job j on type t with n >=
     * 1 (loss_bounds()): all_options() skips the type past delta */
    double *lmin;
    double delta;      /* alloc_lagr_delta: the most loss kept */
    double tol;        /* alloc_tie_tol_t */
    double lbound;     /* the Lagrangian bound (alloc_lagr_init) */
    int *cap;          /* nt: the largest state digit per type */
    size_t K, L;       /* keepable jobs, L = K + 1 */
    struct dpt_opt *o; /* the options kept, job after job, by loss */
    size_t *ooff;      /* nj + 1: job j's options are o[ooff[j]..] */
    size_t o_cap;
    struct layer *lay; /* nj + 1 */
    size_t states;     /* in all the layers */
    const double *lam; /* borrowed, nt: the fixing's prices */

    double *pre;   /* nj + 1: sum_{i < j} phi_i, the fixing's */
    double thr;    /* zlb - 3 tol: a state below it is dropped */
    size_t budget; /* the work at which fill() gives up */
    /* the prefix bounds of the kept options (semi()): pre0[j], jobs
     * 0..j-1 at their best; and per type t, A_t[j][r] at semi[soff[t] +
     * j (cap_t + 1) + r], jobs 0..j-1 within r nodes of t, the other
     * types priced by lam */
    double *pre0, *semi;
    size_t *soff;
    size_t pre0_cap, semi_cap;
    /* sR[t (nj + 1) + j]: A_t[j][r] = A_t[j][sR] for r >= sR (the rows
     * are stored up to there only) */
    size_t *sR, sR_cap;
    double ubound; /* the kept options' bound on z*, from semi */
    int Kb, T;     /* the keeps and nodes chosen */
    double limit, t0;
    size_t work, next;
    int expired;
    int *inc, *inct; /* the incumbent's counts and types */
    double zinc;     /* and its value */
    int *u;          /* scratch: nt + 1 ints */
    double *ps;      /* scratch: fill()'s nt terms lam_t (cap_t - s_t) */
    const double *v; /* borrowed: the value table */
    struct cfgs *cf; /* borrowed (the memo's): choose()'s three sets */
    /* improve()'s tables (the memo's) */
    double *bv;
    int *bc;
    size_t bv_cap, bc_cap;
    /* improve()'s scratch (in the memo's block): n2 2 nj ints, room nt,
     * top nj + 1 */
    int *n2;
    long *room;
    double *top;
    /* choose()'s scratch (the memo's): by_count()'s order and counts */
    size_t *byn, *cnt;
    size_t byn_cap, cnt_cap;
    /* the smallest claim search() may try (HUGE_VAL: none): a first
     * solve whose bound semi() is below it has no budget, as the
     * solve after it would be the same (see search()) */
    double zcmin;
};

/* Counts n units of work; 1 once the time is used up (see dp.c). */
static int spend(struct dpt *d, size_t n)
{
    d->work += n;
    if (d->work < d->next)
        return d->expired;
    d->next = d->work + DPT_CLOCK_WORK;
    if (!d->expired && bfs_now() - d->t0 > d->limit)
        d->expired = 1;
    return d->expired;
}

static const int *dig(const struct layer *l, size_t s)
{
    return &l->st.key[s * l->st.w];
}

static double *g_row(const struct dpt *d, size_t j, size_t s)
{
    return &d->lay[j].G[s * d->L];
}

/* The refusal past the memory bound. */
static int too_big(const struct dpt *d, struct bfs_error *e)
{
    return bfs_fail(e, BFS_ERANGE,
                    "dp: %zu jobs on %zu node types need a table of more "
                    "than %zu entries (%zu MiB), the most dp takes with node "
                    "types; use --allocator milp",
                    d->nj, d->nt, DPT_MAX_ENTRIES,
                    DPT_MAX_ENTRIES * sizeof(double) >> 20);
}

/* out |= in shifted up by n bits, both of words 64-bit words. */
static void shift_or(uint64_t *out, const uint64_t *in, size_t words, size_t n)
{
    size_t q = n / 64, r = n % 64;

    for (size_t w = words; w-- > q;) {
        uint64_t x = in[w - q] << r;
        if (r && w > q)
            x |= in[w - q - 1] >> (64 - r);
        out[w] |= x;
    }
}

/* A lower bound on the states of layer 0 (see the top): each job is
 * given the type where it has the most options (on ties the one whose
 * jobs so far reach the fewest nodes, then the lowest); on
 * each type t, the sums within cap_t of one option on t (or idle, when
 * it survives) of each of its jobs, as a bitset; the product of their
 * sizes.  Every such vector is the state of an allocation of the
 * reduced instance, its partial sums within the caps. */
static double states_lb(const struct dpt *d)
{
    double lb = 1.0;
    size_t *on = xcalloc(d->nt, sizeof *on);
    long *reach = xcalloc(d->nt, sizeof *reach);
    int *group = xcalloc(d->nj + 1, sizeof *group);

    for (size_t j = 0; j < d->nj; j++) {
        int top = 0;
        memset(on, 0, d->nt * sizeof *on);
        group[j] = -1;
        for (size_t i = d->ooff[j]; i < d->ooff[j + 1]; i++)
            if (d->o[i].n > 0)
                on[d->o[i].t]++;
        for (size_t t = 0; t < d->nt; t++)
            if (on[t] > 0 &&
                (group[j] < 0 || on[t] > on[group[j]] ||
                 (on[t] == on[group[j]] && reach[t] < reach[group[j]])))
                group[j] = (int)t;
        for (size_t i = d->ooff[j]; i < d->ooff[j + 1]; i++)
            if (d->o[i].t == group[j] && d->o[i].n > top)
                top = d->o[i].n;
        if (group[j] >= 0)
            reach[group[j]] += top;
    }
    for (size_t t = 0; t < d->nt; t++) {
        size_t words = (size_t)d->cap[t] / 64 + 1, count = 0;
        uint64_t *set = xcalloc(words, sizeof *set);
        uint64_t *next = xcalloc(words, sizeof *next);
        set[0] = 1;
        for (size_t j = 0; j < d->nj; j++) {
            int idle = 0;
            for (size_t i = d->ooff[j]; i < d->ooff[j + 1]; i++)
                idle |= d->o[i].n == 0;
            if (group[j] != (int)t)
                continue;
            memset(next, 0, words * sizeof *next);
            if (idle)
                memcpy(next, set, words * sizeof *next);
            for (size_t i = d->ooff[j]; i < d->ooff[j + 1]; i++)
                if (d->o[i].n > 0 && (size_t)d->o[i].t == t)
                    shift_or(next, set, words, (size_t)d->o[i].n);
            if (d->cap[t] % 64 != 63) /* drop the sums past cap_t */
                next[words - 1] &= ((uint64_t)1 << (d->cap[t] % 64 + 1)) - 1;
            memcpy(set, next, words * sizeof *set);
        }
        for (size_t w = 0; w < words; w++)
            for (uint64_t x = set[w]; x; x &= x - 1)
                count++;
        lb *= (double)count;
        xfree(next);
        xfree(set);
    }
    xfree(group);
    xfree(reach);
    xfree(on);
    return lb;
}

/* Sorts x[0..n-1] by loss, stably (of equal losses, in their order): a
 * bottom-up merge sort, after runs of 8 by insertion; tmp: room for n
 * options of scratch. */
static void by_loss(struct dpt_opt *x, size_t n, struct dpt_opt *tmp)
{
    struct dpt_opt *a = x, *b;

    for (size_t lo = 0; lo < n; lo += 8)
        for (size_t i = lo + 1; i < n && i < lo + 8; i++) {
            struct dpt_opt y = x[i];
            size_t at = i;
            for (; at > lo && x[at - 1].loss > y.loss; at--)
                x[at] = x[at - 1];
            x[at] = y;
        }
    if (n <= 8)
        return;
    b = tmp;
    for (size_t run = 8; run < n; run *= 2) {
        struct dpt_opt *c;
        for (size_t lo = 0; lo < n; lo += 2 * run) {
            size_t mid = lo + run < n ? lo + run : n;
            size_t hi = lo + 2 * run < n ? lo + 2 * run : n;
            size_t i = lo, k = mid, o = lo;
            while (i < mid && k < hi)
                b[o++] = a[k].loss < a[i].loss ? a[k++] : a[i++];
            while (i < mid)
                b[o++] = a[i++];
            while (k < hi)
                b[o++] = a[k++];
        }
        c = a;
        a = b;
        b = c;
    }
    if (a != x)
        memcpy(x, a, n * sizeof *x);
}

/* The admissible options (the entries of the value table d->v) of loss
 * at most delta at d->g's prices into d->all, each job's by loss (a
 * stable sort: of equal losses, in the order idle, type 0's counts, type
 * 1's, ...); d->adelta = delta.  The reduced solves of one instance keep
 * ever fewer options (alloc_lagr_delta falls as zlb rises), so this is
 * made once, at the first, and each options() takes a prefix of each
 * job's. */
static void all_options(struct dpt *d, double delta)
{
    const struct alloc_problem *p = d->p;
    const double *v = d->v;
    size_t nt = d->nt, W = d->W, no = 0;

    for (size_t j = 0; j < d->nj; j++) {
        d->aoff[j] = no;
        /* room for all of the job's options, nt * W at most, and as
         * many again for by_loss()'s scratch */
        DPT_GROW(d->all, d->all_cap, no + 2 * nt * W + 1);
        for (int t = 0; t < (int)nt; t++)
            for (int n = t > 0; (size_t)n < W; n++) {
                double x = v[(j * nt + (size_t)t) * W + (size_t)n], loss;
                if (n == 1 && d->lmin[j * nt + (size_t)t] > delta)
                    break; /* no count on t is kept */
                int tt = n > 0 ? t : -1;
                size_t keep;
                if (x == -HUGE_VAL)
                    continue;
                loss = alloc_lagr_loss(d->g, j, tt, n, x);
                if (!(loss <= delta))
                    continue;
                /* only count C_j can keep the holding */
                keep = n == p->jobs[j].cur && alloc_keeps_t(p, j, tt, n);
                d->all[no++] = (struct dpt_opt){tt, n, keep, x, loss};
            }
        /* all's room past the job's options: its scratch */
        by_loss(&d->all[d->aoff[j]], no - d->aoff[j], &d->all[no]);
    }
    d->aoff[d->nj] = no;
    d->adelta = delta;
}

/* The options kept, those of loss at most d->delta, each job's by loss
 * (then in the order idle, type 0's counts, type 1's, ...); K and the
 * caps; then the memory bound's first check.  Returns 0 or BFS_ERANGE. */
static int options(struct dpt *d, struct bfs_error *e)
{
    const struct alloc_problem *p = d->p;
    size_t nt = d->nt, no = 0;
    double grid = 1.0;

    if (!(d->delta <= d->adelta))
        all_options(d, d->delta);
    memset(d->cap, 0, nt * sizeof *d->cap);
    d->K = 0;
    DPT_GROW(d->o, d->o_cap, d->aoff[d->nj] + 1); /* a part of all's */
    for (size_t j = 0; j < d->nj; j++) {
        size_t keepable = 0;
        d->ooff[j] = no;
        /* all's are by loss: the kept ones come first */
        for (size_t i = d->aoff[j];
             i < d->aoff[j + 1] && d->all[i].loss <= d->delta; i++) {
            d->o[no++] = d->all[i];
            keepable |= d->all[i].keep;
        }
        d->K += keepable;
        for (size_t t = 0; t < nt; t++) {
            int top = 0;
            for (size_t i = d->ooff[j]; i < no; i++)
                if (d->o[i].t == (int)t && d->o[i].n > top)
                    top = d->o[i].n;
            if ((long)d->cap[t] + top > p->pools[t])
                d->cap[t] = p->pools[t];
            else
                d->cap[t] += top;
        }
    }
    d->ooff[d->nj] = no;
    d->L = d->K + 1;
    for (size_t t = 0; t < nt; t++) /* the states' grid: at most */
        grid *= (double)d->cap[t] + 1.0;
    if (grid * (double)d->L > (double)DPT_MAX_ENTRIES &&
        states_lb(d) * (double)d->L > (double)DPT_MAX_ENTRIES)
        return too_big(d, e);
    return 0;
}

/* Indexes layer l's states by their nodes (a counting sort), once. */
static void by_tot(struct dpt *d, struct layer *l)
{
    size_t n = l->st.n, span;

    if (l->indexed)
        return;

    l->tmin = n ? l->tot[0] : 0;
    l->tmax = l->tmin;
    for (size_t s = 0; s < n; s++) {
        l->tmin = l->tot[s] < l->tmin ? l->tot[s] : l->tmin;
        l->tmax = l->tot[s] > l->tmax ? l->tot[s] : l->tmax;
    }
    span = (size_t)(l->tmax - l->tmin) + 1;
    DPT_GROW(l->toff, l->toff_cap, span + 1);
    DPT_GROW(l->byt, l->byt_cap, n + 1);
    memset(l->toff, 0, (span + 1) * sizeof *l->toff);
    for (size_t s = 0; s < n; s++)
        l->toff[l->tot[s] - l->tmin + 1]++;
    for (size_t c = 0; c < span; c++)
        l->toff[c + 1] += l->toff[c];
    for (size_t s = 0; s < n; s++)
        l->byt[l->toff[l->tot[s] - l->tmin]++] = s;
    for (size_t c = span; c-- > 0;) /* back to the starts */
        l->toff[c + 1] = l->toff[c];
    l->toff[0] = 0;
    l->indexed = 1;
    spend(d, 2 * n + span + 1);
}

/* The prefix bounds of the kept options (see the top): d->pre0, d->semi
 * and d->ubound. */
static void semi(struct dpt *d)
{
    size_t nt = d->nt, nj = d->nj, size = 0, *S;

    DPT_GROW(d->pre0, d->pre0_cap, nj + 1);
    d->pre0[0] = 0.0;
    for (size_t j = 0; j < nj; j++) {
        double best = -HUGE_VAL;
        for (size_t i = d->ooff[j]; i < d->ooff[j + 1]; i++)
            best = d->o[i].v > best ? d->o[i].v : best;
        d->pre0[j + 1] = d->pre0[j] + best;
    }
    for (size_t t = 0; t < nt; t++) {
        d->soff[t] = size;
        size += (nj + 1) * ((size_t)d->cap[t] + 1);
    }
    DPT_GROW(d->semi, d->semi_cap, size + 1);
    d->ubound = HUGE_VAL;
    DPT_GROW(d->sR, d->sR_cap, nt * (nj + 1));
    S = xmalloc((nj + 1) * sizeof *S);
    for (size_t t = 0; t < nt; t++) {
        size_t w = (size_t)d->cap[t] + 1, *sR = &d->sR[t * (nj + 1)];
        double *A = &d->semi[d->soff[t]], u;
        size_t R = 0; /* A[j][r] = A[j][R] for r >= R */
        /* S[j]: the most nodes of t jobs j..J-1 use (their largest
         * counts on t).  semi_pass() reads A[j][r] at r = cap_t less
         * the nodes of t of jobs j..J-1, so r >= cap_t - S[j]; and
         * A[j + 1][r] is made of A[j][r - n], n <= job j's largest
         * count: rows are made from lo = cap_t - S[j] (0 at least) on,
         * the same numbers there */
        S[nj] = 0;
        for (size_t j = nj; j-- > 0;) {
            size_t top = 0;
            for (size_t i = d->ooff[j]; i < d->ooff[j + 1]; i++)
                if (d->o[i].t == (int)t && (size_t)d->o[i].n > top)
                    top = (size_t)d->o[i].n;
            S[j] = S[j + 1] + top;
        }
        A[0] = 0.0;
        sR[0] = 0;
        for (size_t j = 0; j < nj; j++) {
            double c = -HUGE_VAL;
            size_t top = 0, R0 = R;
            size_t lo = S[j + 1] < w - 1 ? w - 1 - S[j + 1] : 0;
            for (size_t i = d->ooff[j]; i < d->ooff[j + 1]; i++) {
                const struct dpt_opt *x = &d->o[i];
                double y = x->n > 0 ? x->v - d->lam[x->t] * x->n : x->v;
                if (x->t != (int)t && y > c)
                    c = y;
                if (x->t == (int)t && (size_t)x->n > top)
                    top = (size_t)x->n;
            }
            /* past R + top, every term below reads a[R]: b is flat */
            R = R + top < w - 1 ? R + top : w - 1;
            for (size_t r = R0 + 1; r <= R; r++) /* a's flat part, read */
                A[j * w + r] = A[j * w + R0];
            sR[j + 1] = R;
            const double *restrict a = &A[j * w];
            double *restrict b = &A[(j + 1) * w];
            size_t r = lo;
            for (; r + 4 <= R + 1; r += 4) { /* by fours, as below */
                double y0 = c + a[r], y1 = c + a[r + 1];
                double y2 = c + a[r + 2], y3 = c + a[r + 3];
                b[r] = y0;
                b[r + 1] = y1;
                b[r + 2] = y2;
                b[r + 3] = y3;
            }
            for (; r <= R; r++)
                b[r] = c + a[r];
            for (size_t i = d->ooff[j]; i < d->ooff[j + 1]; i++) {
                const struct dpt_opt *x = &d->o[i];
                size_t n = (size_t)x->n;
                double *restrict bn, xv = x->v;
                /* xv <= c: each term xv + a[k] is at most c + a[k] <=
                 * c + a[k + n] = b[k + n]'s start (a never falls, and
                 * rounding is monotone), so it changes nothing */
                if (x->t != (int)t || n > R || !(xv > c))
                    continue;
                bn = b + n;
                /* b[r] = max(b[r], xv + a[r - n]), r >= lo, without a
                 * branch, by fours (which compilers make vector
                 * operations) */
                size_t k = lo > n ? lo - n : 0, m = R - n + 1;
                for (; k + 4 <= m; k += 4) {
                    double y0 = xv + a[k], y1 = xv + a[k + 1];
                    double y2 = xv + a[k + 2], y3 = xv + a[k + 3];
                    bn[k] = y0 > bn[k] ? y0 : bn[k];
                    bn[k + 1] = y1 > bn[k + 1] ? y1 : bn[k + 1];
                    bn[k + 2] = y2 > bn[k + 2] ? y2 : bn[k + 2];
                    bn[k + 3] = y3 > bn[k + 3] ? y3 : bn[k + 3];
                }
                for (; k < m; k++) {
                    double y = xv + a[k];
                    bn[k] = y > bn[k] ? y : bn[k];
                }
            }
            spend(d, (d->ooff[j + 1] - d->ooff[j] + 1) * (R + 1) + w);
        }
        u = A[nj * w + R];
        for (size_t k = 0; k < nt; k++)
            if (k != t)
                u += d->lam[k] * (double)d->cap[k];
        d->ubound = u < d->ubound ? u : d->ubound;
    }
    xfree(S);
}

/* Whether the state s + x of layer j (s a state of layer j + 1 of best
 * value gmax, x an option of job j) passes the prefix bounds of semi():
 * some allocation of the kept options through it may reach thr.  ps[k]
 * is lam_k (cap_k - s_k), the term of a type x does not use (the same
 * double). */
static int semi_pass(const struct dpt *d, size_t j, const int *s,
                     const double *ps, double gmax, const struct dpt_opt *x)
{
    size_t nt = d->nt;
    double y = gmax + x->v;

    if (y + d->pre0[j] < d->thr)
        return 0;
    for (size_t t = 0; t < nt; t++) {
        size_t w = (size_t)d->cap[t] + 1;
        double b = y;
        int r;
        for (size_t k = 0; k < nt; k++)
            if (k != t)
                b += x->t == (int)k
                         ? d->lam[k] * (double)(d->cap[k] - s[k] - x->n)
                         : ps[k];
        r = d->cap[t] - s[t] - (x->t == (int)t ? x->n : 0);
        if ((size_t)r > d->sR[t * (d->nj + 1) + j]) /* the flat part */
            r = (int)d->sR[t * (d->nj + 1) + j];
        if (b + d->semi[d->soff[t] + j * w + (size_t)r] < d->thr)
            return 0;
    }
    return 1;
}

/* Makes the layers and G with every option of each job, or with counts
 * (not NULL) only the options at counts[j].  Returns 0, 1 when the time
 * ran out, or BFS_ERANGE (in e) past the memory bound. */
static int fill(struct dpt *d, const int *counts, struct bfs_error *e)
{
    size_t nt = d->nt, L = d->L;
    int *u = d->u, added;
    double *ps = d->ps;
    struct layer *last = &d->lay[d->nj];

    d->states = 1;
    for (size_t j = 0; j <= d->nj; j++)
        vset_clear(&d->lay[j].st);
    memset(u, 0, nt * sizeof *u);
    vset_add(&last->st, u, &added);
    DPT_GROW(last->tot, last->tot_cap, 1);
    DPT_GROW(last->G, last->G_cap, L);
    last->tot[0] = 0;
    last->indexed = 0;
    last->G[0] = 0.0;
    for (size_t k = 1; k < L; k++)
        last->G[k] = -HUGE_VAL;
    for (size_t j = d->nj; j-- > 0;) {
        struct layer *a = &d->lay[j + 1], *b = &d->lay[j];
        for (size_t s = 0; s < a->st.n; s++) {
            /* the state's score: its best completion, plus the bound on
             * its best prefix; an option of job j adds a state of score
             * this less its loss, kept when at least thr */
            const double *src = &a->G[s * L];
            double score = d->pre[j + 1], gmax = -HUGE_VAL;
            size_t i0 = d->ooff[j], i1 = i0, klo = L, khi = 0;
            for (size_t t = 0; t < nt; t++) {
                ps[t] = d->lam[t] * (double)(d->cap[t] - dig(a, s)[t]);
                score += ps[t];
            }
            for (size_t k = 0; k < L; k++)
                if (src[k] != -HUGE_VAL) { /* the finite keep counts */
                    klo = klo < L ? klo : k;
                    khi = k;
                    gmax = src[k] > gmax ? src[k] : gmax;
                }
            score += gmax;
            for (; i1 < d->ooff[j + 1] && score - d->o[i1].loss >= d->thr;
                 i1++) {
                const struct dpt_opt *x = &d->o[i1];
                double *row;
                size_t at;
                if (counts && x->n != counts[j])
                    continue;
                for (size_t t = 0; t < nt; t++)
                    u[t] = dig(a, s)[t];
                if (x->n > 0 && u[x->t] + x->n > d->cap[x->t])
                    continue;
                if (!semi_pass(d, j, u, ps, gmax, x))
                    continue;
                if (x->n > 0)
                    u[x->t] += x->n;
                at = vset_add(&b->st, u, &added);
                if (added) {
                    if (d->states + b->st.n > DPT_MAX_ENTRIES / L)
                        return too_big(d, e);
                    if (at + 1 > b->tot_cap)
                        DPT_GROW(b->tot, b->tot_cap, at + 1);
                    if ((at + 1) * L > b->G_cap)
                        DPT_GROW(b->G, b->G_cap, (at + 1) * L);
                    b->tot[at] = a->tot[s] + x->n;
                    for (size_t k = 0; k < L; k++)
                        b->G[at * L + k] = -HUGE_VAL;
                }
                row = &b->G[at * L + x->keep];
                for (size_t k = klo; k <= khi && k + x->keep < L; k++) {
                    double g = src[k];
                    if (g != -HUGE_VAL && x->v + g > row[k])
                        row[k] = x->v + g;
                }
            }
            if (spend(d, (i1 - i0) * (L + nt) + L + nt))
                return 1;
            if (d->work > d->budget)
                return 2;
        }
        b->indexed = 0;
        d->states += b->st.n;
    }
    return 0;
}

/* Makes an optimum read off the filled G the incumbent (see the top),
 * from its best entry G[0][s][k]: job by job, the first option whose
 * value and the next layer's entry reach the entry's value (one does:
 * each entry is such a sum, from a stored state). */
static void g_optimum(struct dpt *d, size_t s, size_t k)
{
    double target = g_row(d, 0, s)[k];
    int *u = d->u, *n = xcalloc(d->nj + 1, sizeof *n);
    int *t = xcalloc(d->nj + 1, sizeof *t);

    for (size_t j = 0; j < d->nj; j++) {
        const struct dpt_opt *pick = NULL;
        size_t next = NONE;
        for (size_t i = d->ooff[j]; i < d->ooff[j + 1] && !pick; i++) {
            const struct dpt_opt *x = &d->o[i];
            size_t s2;
            double g;
            if (x->keep > k)
                continue;
            memcpy(u, dig(&d->lay[j], s), d->nt * sizeof *u);
            if (x->n > 0 && (u[x->t] -= x->n) < 0)
                continue;
            s2 = vset_find(&d->lay[j + 1].st, u);
            if (s2 == NONE)
                continue;
            g = g_row(d, j + 1, s2)[k - x->keep];
            if (g != -HUGE_VAL && x->v + g >= target) {
                pick = x;
                target = g;
                next = s2;
            }
        }
        if (!pick)
            break; /* never: G[j][s][k] is one of these sums */
        n[j] = pick->n;
        t[j] = pick->t;
        s = next;
        k -= pick->keep;
        if (j + 1 == d->nj) {
            memcpy(d->inc, n, d->nj * sizeof *n);
            memcpy(d->inct, t, d->nj * sizeof *t);
        }
    }
    xfree(t);
    xfree(n);
}

/* g(u, k) of the top for the walk at job j (the best completion by jobs
 * j..J-1 of configuration uk = (u, k)), cached in gb. */
static double best_completion(struct dpt *d, size_t j, const int *uk,
                              struct cfgs *gb)
{
    struct layer *l = &d->lay[j];
    size_t nt = d->nt, k = (size_t)uk[nt], at;
    long rem = d->T;
    double best = -HUGE_VAL;
    int added;

    at = vset_add(&gb->key, uk, &added);
    if (!added)
        return gb->x[at];
    for (size_t t = 0; t < nt; t++)
        rem -= uk[t];
    by_tot(d, l);
    if (rem >= l->tmin && rem <= l->tmax && (size_t)d->Kb >= k) {
        size_t kk = (size_t)d->Kb - k, c = (size_t)(rem - l->tmin);
        for (size_t i = l->toff[c]; i < l->toff[c + 1]; i++) {
            size_t s = l->byt[i];
            const int *sd = dig(l, s);
            size_t t;
            for (t = 0; t < nt; t++)
                if (sd[t] + uk[t] > d->cap[t])
                    break;
            if (t == nt && g_row(d, j, s)[kk] > best)
                best = g_row(d, j, s)[kk];
            spend(d, nt);
        }
    }
    DPT_GROW(gb->x, gb->x_cap, at + 1);
    gb->x[at] = best;
    return best;
}

/* Orders each job's kept options by count, largest first, the options
 * of one count in their order in d->o: their indices into byn (d->ooff's
 * blocks), so that a job's options of one count are found together. */
static void by_count(struct dpt *d, size_t *byn)
{
    size_t W = d->W, *at;

    DPT_GROW(d->cnt, d->cnt_cap, W + 1);
    at = d->cnt; /* at[lo..hi] cleared for each job below */
    for (size_t j = 0; j < d->nj; j++) {
        size_t i0 = d->ooff[j], i1 = d->ooff[j + 1], pos = i0, lo = W, hi = 0;
        for (size_t i = i0; i < i1; i++) { /* the counts' range */
            lo = (size_t)d->o[i].n < lo ? (size_t)d->o[i].n : lo;
            hi = (size_t)d->o[i].n > hi ? (size_t)d->o[i].n : hi;
        }
        if (i0 == i1)
            continue;
        memset(&at[lo], 0, (hi - lo + 1) * sizeof *at);
        for (size_t i = i0; i < i1; i++)
            at[d->o[i].n]++;
        for (size_t n = hi + 1; n-- > lo;) { /* the starts, largest first */
            size_t c = at[n];
            at[n] = pos;
            pos += c;
        }
        for (size_t i = i0; i < i1; i++)
            byn[at[d->o[i].n]++] = i;
    }
}

/* One step of the walk at job j: from the configurations in R (with
 * their requirements), through the options byn[i0..i1) of job j (those
 * of one count, by_count()), of type t unless t < -1 (any type), into R2
 * (emptied first).  Returns the number of configurations in R2. */
static size_t walk(struct dpt *d, size_t j, const size_t *byn, size_t i0,
                   size_t i1, int t, const struct cfgs *R, struct cfgs *R2,
                   struct cfgs *gb)
{
    size_t nt = d->nt;
    int *u = d->u, added;

    vset_clear(&R2->key);
    for (size_t c = 0; c < R->key.n; c++) {
        const int *uk = &R->key.key[c * (nt + 1)];
        double r = R->x[c];
        for (size_t i = i0; i < i1; i++) {
            const struct dpt_opt *x = &d->o[byn[i]];
            double g, need;
            size_t at;
            if ((t >= -1 && x->t != t) ||
                (size_t)uk[nt] + x->keep > (size_t)d->Kb)
                continue;
            memcpy(u, uk, (nt + 1) * sizeof *u);
            if (x->n > 0 && (u[x->t] += x->n) > d->cap[x->t])
                continue;
            u[nt] += (int)x->keep;
            g = best_completion(d, j + 1, u, gb);
            if (g == -HUGE_VAL || !(x->v + g >= r))
                continue;
            need = r - x->v < g ? r - x->v : g;
            at = vset_add(&R2->key, u, &added);
            DPT_GROW(R2->x, R2->x_cap, at + 1);
            if (added || need < R2->x[at])
                R2->x[at] = need;
        }
        spend(d, i1 - i0 + 1);
    }
    return R2->key.n;
}

/* The walk of the top from requirement r0 at the empty configuration:
 * with counts NULL, the largest passing count of each job in turn into
 * n[]; else the smallest passing type of each job at counts[j] into
 * t[].  Returns 0, 1 when the time ran out, -1 when no option passes
 * (never, see the top). */
static int choose(struct dpt *d, double r0, const int *counts, int *n, int *t)
{
    struct cfgs *c = d->cf, *R = &c[0], *R2 = &c[1], *gb = &c[2];
    size_t *byn;
    int rc = 0, added;

    DPT_GROW(d->byn, d->byn_cap, d->ooff[d->nj] + 1);
    byn = d->byn;

    by_count(d, byn);
    for (int i = 0; i < 3; i++)
        vset_clear(&c[i].key);
    memset(d->u, 0, (d->nt + 1) * sizeof *d->u);
    vset_add(&R->key, d->u, &added);
    DPT_GROW(R->x, R->x_cap, 1);
    R->x[0] = r0;
    for (size_t j = 0; j < d->nj && rc == 0; j++) {
        size_t i0 = d->ooff[j], end = d->ooff[j + 1], i1;
        int found = 0;
        vset_clear(&gb->key);
        /* the counts largest first, each count's options byn[i0..i1) */
        for (; i0 < end && !found && !d->expired; i0 = i1) {
            int k = d->o[byn[i0]].n;
            for (i1 = i0; i1 < end && d->o[byn[i1]].n == k; i1++)
                ;
            if (!counts) {
                if (walk(d, j, byn, i0, i1, -2, R, R2, gb) > 0) {
                    n[j] = k;
                    found = 1;
                }
            } else if (k != counts[j])
                continue;
            else if (k == 0) {
                found = walk(d, j, byn, i0, i1, -1, R, R2, gb) > 0;
                t[j] = -1;
                break;
            } else {
                for (int y = 0; y < (int)d->nt && !found && !d->expired; y++)
                    if (walk(d, j, byn, i0, i1, y, R, R2, gb) > 0) {
                        t[j] = y;
                        found = 1;
                    }
                break;
            }
        }
        if (d->expired)
            rc = 1;
        else if (!found)
            rc = -1;
        else {
            struct cfgs *x = R;
            R = R2;
            R2 = x;
        }
    }
    return rc;
}

/* Whether each job has one kept option at its count n[j] (choose()'s
 * counts): then its type is that option's, into t[j] (-1 at count 0),
 * and returns 1; else 0.  The walk by types would take the same: the
 * counts' walk found an allocation of the kept options at these counts
 * reaching the target, and with one option a count it is the only one,
 * so its types are the smallest that pass. */
static int counts_fix_types(const struct dpt *d, const int *n, int *t)
{
    for (size_t j = 0; j < d->nj; j++) {
        int seen = 0;
        for (size_t i = d->ooff[j]; i < d->ooff[j + 1]; i++)
            if (d->o[i].n == n[j]) {
                t[j] = d->o[i].t;
                seen++;
            }
        if (seen != 1)
            return 0;
    }
    return 1;
}

/* The incumbent as the answer: FEASIBLE with the bound b. */
static int incumbent(struct dpt *d, double b, struct alloc_result *res)
{
    double z = alloc_objective_t(d->p, d->inc, d->inct);

    for (size_t j = 0; j < d->nj; j++) {
        res->counts[j] = d->inc[j];
        res->types[j] = d->inc[j] > 0 ? d->inct[j] : -1;
    }
    res->objective = z;
    res->bound = b > z ? b : z;
    return SOLVE_FEASIBLE;
}

/* A job's two best values among its options, and the first best's
 * count and type (t -1 with n 0; n -1: no option), in the order idle,
 * type 0's counts, type 1's, ... (struct dpt_row keeps them). */
struct dpt_best {
    double best, next;
    int n, t;
};

/* The shortcut, dp.c's shortcut() with types: when each job's best
 * option beats its others by more than tol + slack and the bests fit the
 * pools, every other allocation is below the bests' value by more than
 * tol + slack, so the bests are alone in the tie set, in exact sums and
 * in the rounded ones (slack as in dp.c).  Writes the bests into n, t
 * and returns 1 then; else 0. */
static int shortcut(const struct dpt *d, const struct dpt_best *b, int *n,
                    int *t)
{
    double S = d->tol / ALLOC_TIE_REL;
    double slack =
        8.0 * (double)(d->nj + 1) * DBL_EPSILON * (S > 1.0 ? S : 1.0);
    long *used = xcalloc(d->nt, sizeof *used);
    int ok = 1;

    for (size_t j = 0; j < d->nj && ok; j++) {
        if (b[j].n >= 0) {
            n[j] = b[j].n;
            t[j] = b[j].t;
        }
        ok = b[j].best - b[j].next > d->tol + slack;
        if (ok && n[j] > 0)
            used[t[j]] += n[j];
    }
    for (size_t k = 0; k < d->nt && ok; k++)
        ok = used[k] <= d->p->pools[k];
    xfree(used);
    return ok;
}

/* Job j's value at count c on type k (k not read when c == 0), from
 * the value table v. */
static double val(const struct dpt *d, const double *v, size_t j, int k, int c)
{
    return v[(j * d->nt + (size_t)(c > 0 ? k : 0)) * d->W + (size_t)c];
}

/* Job j's best value on type k within r nodes by the tables of
 * improve() (bv, bc), its count in *bn (0 when none); k < 0: idle. */
static double best_on(const struct dpt *d, const double *v, const double *bv,
                      const int *bc, size_t j, int k, long r, int *bn)
{
    size_t at = (j * d->nt + (size_t)(k < 0 ? 0 : k)) * d->W +
                (r < (long)d->W - 1 ? (size_t)r : d->W - 1);

    if (k < 0) {
        *bn = 0;
        return v[j * d->nt * d->W];
    }
    *bn = bc[at];
    return bv[at];
}

/* Job j's best option within room (the free nodes per type) by the
 * tables of improve(): its value, with its count and type in *bn, *bt
 * (idle first, then the types in order: the first of equals). */
static double best_in(const struct dpt *d, const double *v, const double *bv,
                      const int *bc, size_t j, const long *room, int *bn,
                      int *bt)
{
    double best = best_on(d, v, bv, bc, j, -1, 0, bn);

    *bt = -1;
    for (int k = 0; k < (int)d->nt; k++) {
        int c;
        double x = best_on(d, v, bv, bc, j, k, room[k], &c);
        if (x > best) {
            best = x;
            *bn = c;
            *bt = k;
        }
    }
    return best;
}

/* The best pair of options of jobs i and j (n, t) within room and
 * their own nodes, by the tables of improve(); made theirs when it
 * beats their present sum.  Returns 1 then, else 0. */
static int pair_move(const struct dpt *d, const double *v, const double *bv,
                     const int *bc, const double *top, size_t i, size_t j,
                     int *n, int *t, long *room)
{
    size_t nt = d->nt, W = d->W;
    double best = val(d, v, i, t[i], n[i]) + val(d, v, j, t[j], n[j]);
    int an = 0, at = -1, cn = 0, ct = -1, found = 0;

    /* every sum below is at most top[i] + top[j] (rounding is monotone) */
    if (!(top[i] + top[j] > best))
        return 0;
    if (n[i] > 0)
        room[t[i]] += n[i];
    if (n[j] > 0)
        room[t[j]] += n[j];
    /* a = -1 / b = -1: idle; else the type */
    for (int a = -1; a < (int)nt; a++) {
        int xn = 0;
        double x = best_on(d, v, bv, bc, i, a, a < 0 ? 0 : room[a], &xn);
        for (int b = -1; b < (int)nt; b++) {
            double y;
            int yn = 0;
            if (a >= 0 && a == b) {
                /* both on type a: each count c of i, j's best in the
                 * rest */
                const double *vi = &v[(i * nt + (size_t)a) * W];
                const double *bj = &bv[(j * nt + (size_t)a) * W];
                /* each sum is at most i's best within room[a] (x) and
                 * j's (rounding is monotone): none above best, none
                 * taken */
                if (!(x + bj[room[a] < (long)W - 1 ? (size_t)room[a] : W - 1] >
                      best))
                    continue;
                for (long c = 1; c <= room[a] && c < (long)W; c++) {
                    size_t r = room[a] - c < (long)W - 1 ? (size_t)(room[a] - c)
                                                         : W - 1;
                    /* vi[c'] <= x for every count c' left, and bj[r'] <=
                     * bj[r] for r' < r: none above best from here on */
                    if (!(x + bj[r] > best))
                        break;
                    /* (a -HUGE_VAL term makes the sum -HUGE_VAL) */
                    if (vi[c] + bj[r] > best) {
                        best = vi[c] + bj[r];
                        an = (int)c;
                        at = a;
                        cn = bc[(j * nt + (size_t)a) * W + r];
                        ct = a;
                        found = 1;
                    }
                }
                continue;
            }
            y = best_on(d, v, bv, bc, j, b, b < 0 ? 0 : room[b], &yn);
            if (x != -HUGE_VAL && y != -HUGE_VAL && x + y > best) {
                best = x + y;
                an = xn;
                at = xn > 0 ? a : -1;
                cn = yn;
                ct = yn > 0 ? b : -1;
                found = 1;
            }
        }
    }
    if (found) {
        n[i] = an;
        t[i] = at;
        n[j] = cn;
        t[j] = ct;
    }
    if (n[i] > 0)
        room[t[i]] -= n[i];
    if (n[j] > 0)
        room[t[j]] -= n[j];
    return found;
}

/* A local search, by d's prefix tables of v (prefix_best()), from the
 * feasible allocation n, t of value z (the sum of its values in job
 * order): while one improves the sum, a job moves to its best option in
 * the room left, or two jobs to their best pair of options (each option
 * of the first, with the second's best in what is left); at most
 * IMPROVE_PASSES passes.  Writes the allocation found
 * into n, t and returns its value (the sum in job order) when above z;
 * else leaves them and returns z. */
#define IMPROVE_PASSES 8
static double improve(struct dpt *d, const double *v, int *n, int *t, double z)
{
    size_t nj = d->nj, nt = d->nt, W = d->W;
    double *bv, z2 = 0.0;
    int *bc;
    int *n2 = d->n2, *t2 = n2 + nj;
    long *room = d->room;
    double *top = d->top;
    int changed = 1;
    /* the pairs' positions i nj + j from which on the last pass changed
     * nothing (SIZE_MAX: none): while this pass has changed nothing yet,
     * the state is the one they saw, so they change nothing again */
    size_t quiet = SIZE_MAX;

    bv = d->bv;
    bc = d->bc;
    for (size_t j = 0; j < nj; j++) { /* top[j]: job j's best value */
        top[j] = v[j * nt * W];
        for (size_t k = 0; k < nt; k++)
            if (bv[(j * nt + k) * W + W - 1] > top[j])
                top[j] = bv[(j * nt + k) * W + W - 1];
    }
    memcpy(n2, n, nj * sizeof *n2);
    memcpy(t2, t, nj * sizeof *t2);
    for (size_t k = 0; k < nt; k++)
        room[k] = d->p->pools[k];
    for (size_t j = 0; j < nj; j++)
        if (n2[j] > 0)
            room[t2[j]] -= n2[j];
    for (int pass = 0; pass < IMPROVE_PASSES && changed; pass++) {
        changed = 0;
        for (size_t j = 0; j < nj; j++) {
            double now = val(d, v, j, t2[j], n2[j]), b;
            int bn, bt;
            if (n2[j] > 0)
                room[t2[j]] += n2[j];
            b = best_in(d, v, bv, bc, j, room, &bn, &bt);
            if (b > now) {
                n2[j] = bn;
                t2[j] = bt;
                changed = 1;
            }
            if (n2[j] > 0)
                room[t2[j]] -= n2[j];
        }
        /* the singles came before the pairs: none of these saw them */
        size_t last = changed ? 0 : SIZE_MAX;
        for (size_t i = 0; i < nj; i++)
            for (size_t j = i + 1; j < nj; j++) {
                if (!changed && i * nj + j >= quiet)
                    break; /* (so every pair after it too) */
                if (pair_move(d, v, bv, bc, top, i, j, n2, t2, room)) {
                    changed = 1;
                    last = i * nj + j + 1;
                }
            }
        quiet = last;
    }
    for (size_t j = 0; j < nj; j++)
        z2 += val(d, v, j, t2[j], n2[j]);
    if (z2 > z) {
        memcpy(n, n2, nj * sizeof *n);
        memcpy(t, t2, nj * sizeof *t);
        z = z2;
    }
    return z;
}

/* solve()'s answer when the optimum of the reduced instance is below
 * the value claimed for it. */
#define DPT_RETRY SOLVE_N_STATUSES

/* The solve on the value table d->v, reduced for an optimum of at least
 * zclaim (see the top): a status; DPT_RETRY, with the reduced
 * instance's optimum in *zfound (-HUGE_VAL when it has no allocation),
 * when that is below zclaim; or BFS_ERANGE (in e). */
static int solve(struct dpt *d, double zclaim, double *zfound,
                 struct alloc_result *res, struct bfs_error *e)
{
    const struct layer *l0 = &d->lay[0];
    double z = -HUGE_VAL, target, zb = -HUGE_VAL;
    size_t zs = 0, zk = 0;
    int *n = xcalloc(d->nj + 1, sizeof *n), *t = xcalloc(d->nj + 1, sizeof *t);
    int rc, status = SOLVE_OPTIMAL;

    rc = options(d, e);
    if (rc == 0 && d->ooff[d->nj] == d->nj) {
        /* one option a job: at most one allocation left (the greedy one
         * when zclaim is -HUGE_VAL: it stays) */
        for (size_t j = 0; j < d->nj; j++) {
            n[j] = d->o[j].n;
            t[j] = d->o[j].t;
        }
        z = alloc_feasible_t(d->p, n, t) ? alloc_objective_t(d->p, n, t)
                                         : -HUGE_VAL;
        if (!(z >= zclaim)) {
            *zfound = z;
            status = DPT_RETRY;
            goto out;
        }
        memcpy(res->counts, n, d->nj * sizeof *n);
        memcpy(res->types, t, d->nj * sizeof *t);
        res->objective = res->bound = z;
        goto out;
    }
    if (rc == 0) {
        semi(d);
        if (d->ubound < d->zcmin)
            d->budget = SIZE_MAX;
        if (!(d->ubound >= zclaim)) { /* z* < zclaim: no fill needed */
            *zfound = -HUGE_VAL;
            status = DPT_RETRY;
            goto out;
        }
        rc = fill(d, NULL, e);
    }
    if (rc == 2) { /* past the budget */
        *zfound = -HUGE_VAL;
        status = DPT_RETRY;
        goto out;
    }
    d->budget = SIZE_MAX; /* the rest is cheaper than the fill */
    if (rc) {
        status = rc < 0 ? rc : incumbent(d, d->lbound, res);
        goto out;
    }
    for (size_t s = 0; s < l0->st.n; s++)
        for (size_t k = 0; k < d->L; k++)
            if (g_row(d, 0, s)[k] > z) {
                z = g_row(d, 0, s)[k];
                zs = s;
                zk = k;
            }
    if (z > d->zinc) {
        g_optimum(d, zs, zk);
        d->zinc = z;
    }
    if (!(z >= zclaim)) {
        *zfound = z;
        status = DPT_RETRY;
        goto out;
    }
    target = z - d->tol;
    d->Kb = -1;
    for (size_t s = 0; s < l0->st.n; s++)
        for (size_t k = 0; k < d->L; k++)
            if (g_row(d, 0, s)[k] >= target &&
                ((int)k > d->Kb || ((int)k == d->Kb && l0->tot[s] < d->T))) {
                d->Kb = (int)k;
                d->T = l0->tot[s];
            }
    rc = choose(d, target, NULL, n, NULL);
    if (rc == 0 && counts_fix_types(d, n, t))
        ; /* the types too: no second walk */
    else if (rc == 0 && fill(d, n, NULL) == 0) {
        for (size_t s = 0; s < l0->st.n; s++)
            if (g_row(d, 0, s)[d->Kb] > zb)
                zb = g_row(d, 0, s)[d->Kb];
        rc = choose(d, zb < target ? zb : target, n, NULL, t);
    } else if (rc == 0)
        rc = 1;
    if (rc > 0) {
        status = incumbent(d, z, res);
        goto out;
    }
    if (rc < 0) {
        status = SOLVE_FAILED;
        goto out;
    }
    for (size_t j = 0; j < d->nj; j++) {
        res->counts[j] = n[j];
        res->types[j] = n[j] > 0 ? t[j] : -1;
    }
    res->objective = res->bound =
        alloc_objective_t(d->p, res->counts, res->types);
out:
    xfree(t);
    xfree(n);
    return status;
}

/* Keeps the options no allocation of value >= zlb - 3 tol leaves out
 * (alloc_lagr_delta) and solves (solve()), within budget more work
 * (SIZE_MAX: no limit).  Returns as solve(). */
static int reduce_solve(struct dpt *d, const struct alloc_lagr *g, double zlb,
                        double zclaim, size_t budget, double *zfound,
                        struct alloc_result *res, struct bfs_error *e)
{
    d->budget = budget == SIZE_MAX ? SIZE_MAX : d->work + budget;
    d->delta = alloc_lagr_delta(g, zlb, d->tol);
    d->thr = zlb - 3.0 * d->tol;
    return solve(d, zclaim, zfound, res, e);
}

/* The reduced solves (see the top): the greedy's value zlb as the
 * bound of the loss, first on a budget; then claims, the bound less
 * delta, delta from 1/256 of the gap up by half each time while the
 * claim is above zlb (a claim's optimum, when below the claim, is a
 * feasible value: zlb from then on); then zlb without a budget.
 * Returns as solve(), never DPT_RETRY. */
static int search(struct dpt *d, const struct alloc_lagr *g, double zlb,
                  struct alloc_result *res, struct bfs_error *e)
{
    double zfound = -HUGE_VAL, gap, ub = HUGE_VAL;
    int rc = DPT_RETRY;

    if (g->L - zlb > d->tol)
        zlb = d->zinc = improve(d, d->v, d->inc, d->inct, zlb);
    gap = g->L - zlb;
    d->zcmin = HUGE_VAL;
    for (double delta = gap / 256; gap > d->tol && g->L - delta > zlb;
         delta *= 1.5)
        d->zcmin = g->L - (delta > d->tol ? delta : d->tol);

    if (gap > d->tol) {
        rc = reduce_solve(d, g, zlb, -HUGE_VAL, DPT_BUDGET, &zfound, res, e);
        /* past the budget, semi() has bounded z* over zlb's options: a
         * claim above that bound fails (its options are fewer, so its
         * own bound is no larger), and is not tried */
        if (rc == DPT_RETRY)
            ub = d->ubound;
    }
    for (double delta = gap / 256;
         rc == DPT_RETRY && gap > d->tol && g->L - delta > zlb; delta *= 1.5) {
        double zc = g->L - (delta > d->tol ? delta : d->tol);
        if (!(zc <= ub))
            continue;
        rc = reduce_solve(d, g, zc, zc, SIZE_MAX, &zfound, res, e);
        if (rc == DPT_RETRY && zfound > zlb)
            zlb = zfound;
    }
    if (rc == DPT_RETRY)
        rc = reduce_solve(d, g, zlb, -HUGE_VAL, SIZE_MAX, &zfound, res, e);
    return rc;
}

/* One job's values, kept between solves (the memo below): v_j(t, n)
 * for n < w on each type, as alloc_values_t would write them with no
 * pool below w, and what they are made of, to find them again by value.
 * One block holds the numbers: the tables (o), the values (v), their
 * largest sizes (a) and their prefix maxima (pv). */
struct dpt_row {
    int cur, ctype, jmin, jmax;
    double tcup, tcdw, tfwd;
    double rate;        /* O_{j,c_j}(C_j) when C_j >= Jmin_j, else 0 */
    size_t nt, w;       /* w = min(jmax, the largest pool then) + 1 */
    unsigned char *has; /* owned (in blk): nt, ot[t] != NULL */
    double *blk;        /* owned: o, v, a, pv and p2, nt * w each */
    double *o, *v;
    double *a; /* a[t * w + n]: the largest |v_j(t, m)|, 1 <= m <= n (or 0) */
    /* (in blk) pv[t * w + n]: the highest v_j(t, m), 1 <= m <= n
     * (-HUGE_VAL: none), and pc[t * w + n] (in hull's block) the first
     * such m (0: none), for prefix_best(); p2[t * w + n] (in blk) the
     * second highest of those values (the highest again when it is
     * there twice; -HUGE_VAL: none), for row_best() */
    double *pv, *p2;
    int *pc;
    /* owned: the counts on the upper hull of the values on type t over
     * counts 1..hclip[t] - 1, at hull[t * w], hlen[t] of them (row_hull();
     * hclip[t] 0: not made) */
    int *hull;
    size_t *hlen, *hclip;
    /* (in hull's block) the chain of row_hull() run over all w counts,
     * as a tree: par[t * w + n] the count below n when n was pushed (0:
     * none), and lastf[t * w + n] the last count <= n of finite value
     * (0: none); the chain's stack after counts 1..n is the path from
     * lastf[n] down the par links */
    int *par, *lastf;
    uint64_t sig; /* row_sig() of the job it was made for */
    uint64_t id;  /* its number, unique in its memo (from 1) */
};

/* What the memo's tables (the value table, prefix_best()'s) hold at
 * each job's place: the parts made from row id[j] (0: none) at clips
 * clip[j * nt + t], for W counts and nt types; a part whose row and
 * clips are the same again is the same numbers (a row's are never
 * changed), and is not made again. */
struct tslots {
    uint64_t *id;
    size_t *clip;
    size_t n, id_cap, clip_cap, W, nt;
};

/* A hash of the numbers of job j of p that row_same() compares one by
 * one (not the tables): rows that row_same() finds the same have the
 * same. */
static uint64_t row_sig(const struct alloc_problem *p, size_t j)
{
    const struct alloc_job *b = &p->jobs[j];
    double rate = b->cur >= b->jmin ? b->ot[b->ctype][b->cur] : 0.0;
    double x[4] = {b->tcup, b->tcdw, p->tfwd, rate};
    uint64_t h = (uint64_t)p->n_types, bits;

    h = (h + (uint32_t)b->cur) * 0x9E3779B97F4A7C15u;
    h = (h + (uint32_t)(b->cur > 0 ? b->ctype : 0)) * 0x9E3779B97F4A7C15u;
    h = (h + (uint32_t)b->jmin) * 0x9E3779B97F4A7C15u;
    h = (h + (uint32_t)b->jmax) * 0x9E3779B97F4A7C15u;
    for (int i = 0; i < 4; i++) {
        memcpy(&bits, &x[i], sizeof bits);
        h = (h ^ bits) * 0x9E3779B97F4A7C15u;
    }
    return h;
}

/* Whether row r holds job j of p, number for number, up to counts w -
 * 1 (the tables compared by value, not by address). */
static int row_same(const struct dpt_row *r, const struct alloc_problem *p,
                    size_t j, size_t w)
{
    const struct alloc_job *b = &p->jobs[j];
    size_t nt = (size_t)p->n_types;
    double rate = b->cur >= b->jmin ? b->ot[b->ctype][b->cur] : 0.0;

    if (r->nt != nt || r->w < w || r->cur != b->cur || r->jmin != b->jmin ||
        r->jmax != b->jmax || (b->cur > 0 && r->ctype != b->ctype) ||
        memcmp(&r->tcup, &b->tcup, sizeof b->tcup) ||
        memcmp(&r->tcdw, &b->tcdw, sizeof b->tcdw) ||
        memcmp(&r->tfwd, &p->tfwd, sizeof p->tfwd) ||
        memcmp(&r->rate, &rate, sizeof rate))
        return 0;
    for (size_t t = 0; t < nt; t++) {
        if (r->has[t] != (b->ot[t] != NULL))
            return 0;
        if (b->ot[t] && memcmp(&r->o[t * r->w], b->ot[t], w * sizeof *r->o))
            return 0;
    }
    return 1;
}

/* Whether the hull chain drops its top b (over a below it) for the
 * point n next: the test of fix_hulls() in alloc/objective.c, so that
 * the same points stay. */
static int chain_drops(const double *y, int a, int b, int n)
{
    return !((y[b] - y[a]) * (double)(n - b) > (y[n] - y[b]) * (double)(b - a));
}

/* Row r's hull chain on type t over all its counts, into r->par and
 * r->lastf (r->hull's part for t as scratch): the points (n, v_j(t, n))
 * by n, each dropped when the next turns no further down. */
static void row_chain(struct dpt_row *r, size_t t)
{
    const double *y = &r->v[t * r->w];
    int *h = &r->hull[t * r->w], *par = &r->par[t * r->w];
    int *lastf = &r->lastf[t * r->w];
    size_t m = 0;

    par[0] = lastf[0] = 0;
    for (int n = 1; (size_t)n < r->w; n++) {
        lastf[n] = lastf[n - 1];
        par[n] = 0;
        if (y[n] == -HUGE_VAL)
            continue;
        while (m >= 2 && chain_drops(y, h[m - 2], h[m - 1], n))
            m--;
        par[n] = m > 0 ? h[m - 1] : 0;
        h[m++] = n;
        lastf[n] = n;
    }
}

/* Makes job j's row of p up to counts w - 1 (w <= jmax + 1). */
static struct dpt_row *row_make(const struct alloc_problem *p, size_t j,
                                size_t w)
{
    const struct alloc_job *b = &p->jobs[j];
    size_t nt = (size_t)p->n_types;
    struct dpt_row *r = xcalloc(1, sizeof *r);

    r->sig = row_sig(p, j);

    r->cur = b->cur;
    r->ctype = b->ctype;
    r->jmin = b->jmin;
    r->jmax = b->jmax;
    r->tcup = b->tcup;
    r->tcdw = b->tcdw;
    r->tfwd = p->tfwd;
    r->rate = b->cur >= b->jmin ? b->ot[b->ctype][b->cur] : 0.0;
    r->nt = nt;
    r->w = w;
    r->blk = xmalloc((5 * nt * w + 1) * sizeof *r->blk + nt);
    r->o = r->blk;
    r->v = r->o + nt * w;
    r->a = r->v + nt * w;
    r->pv = r->a + nt * w;
    r->p2 = r->pv + nt * w;
    r->has = (unsigned char *)(r->p2 + nt * w + 1);
    r->hull = xmalloc((4 * nt * w + 1) * sizeof *r->hull);
    r->pc = r->hull + nt * w;
    r->par = r->pc + nt * w;
    r->lastf = r->par + nt * w;
    r->hlen = xcalloc(2 * nt, sizeof *r->hlen);
    r->hclip = r->hlen + nt;
    for (size_t t = 0; t < nt; t++) {
        /* alloc_values_t's entries with pools of w nodes or more: count
         * 0 on type 0, and jmin.. on the types the job can use */
        size_t lo = b->jmin > 1 ? (size_t)b->jmin : 1;
        for (size_t n = 0; n < w; n++)
            r->v[t * w + n] = -HUGE_VAL;
        if (t == 0)
            alloc_values_run_t(p, j, 0, 0, 1, &r->v[0]);
        if (b->ot[t] && lo < w)
            alloc_values_run_t(p, j, (int)t, (int)lo, (int)w,
                               &r->v[t * w + lo]);
        r->has[t] = b->ot[t] != NULL;
        for (size_t n = 0; n < w; n++) {
            double *x = &r->v[t * w + n];
            r->o[t * w + n] = b->ot[t] ? b->ot[t][n] : 0.0;
            r->a[t * w + n] = n == 0 ? 0.0 : r->a[t * w + n - 1];
            if (n > 0 && *x != -HUGE_VAL && fabs(*x) > r->a[t * w + n])
                r->a[t * w + n] = fabs(*x);
            r->pv[t * w + n] = n == 0 ? -HUGE_VAL : r->pv[t * w + n - 1];
            r->p2[t * w + n] = n == 0 ? -HUGE_VAL : r->p2[t * w + n - 1];
            r->pc[t * w + n] = n == 0 ? 0 : r->pc[t * w + n - 1];
            if (n > 0 && *x > r->pv[t * w + n]) {
                r->p2[t * w + n] = r->pv[t * w + n];
                r->pv[t * w + n] = *x;
                r->pc[t * w + n] = (int)n;
            } else if (n > 0 && *x > r->p2[t * w + n])
                r->p2[t * w + n] = *x;
        }
        row_chain(r, t);
    }
    return r;
}

static void row_free(struct dpt_row *r)
{
    if (r) {
        xfree(r->blk);
        xfree(r->hull);
        xfree(r->hlen);
    }
    xfree(r);
}

/* The counts row r's values on type t reach in a value table of W
 * counts with p's pools (rows_values()). */
static size_t row_clip(const struct dpt_row *r, const struct alloc_problem *p,
                       size_t t, size_t W)
{
    size_t c = (size_t)p->pools[t] + 1 < r->w ? (size_t)p->pools[t] + 1 : r->w;

    return c < W ? c : W;
}

/* Makes row r's hull on type t over counts 1..c-1 (struct dpt_row)
 * unless it has it: the state of row_chain()'s chain after those
 * counts (the chain over fewer counts is the same chain stopped
 * earlier), read from its tree: the path from the last finite count
 * below c down the par links, reversed. */
static void row_hull(struct dpt_row *r, size_t t, size_t c)
{
    int *h = &r->hull[t * r->w];
    const int *par = &r->par[t * r->w];
    int top = c >= 2 ? r->lastf[t * r->w + c - 1] : 0;
    size_t m = 0;

    if (r->hclip[t] == c)
        return;
    for (int k = top; k > 0; k = par[k])
        m++;
    r->hlen[t] = m;
    for (int k = top; k > 0; k = par[k])
        h[--m] = k;
    r->hclip[t] = c;
}

/* The memo of alloc_dp_types_solve: each job's row of the last instance
 * (row[j], job j's), and, when that instance was solved to optimality,
 * its pools and its answer; and the largest buffers of struct dpt, kept
 * from one solve to the next (their contents are made again by each). */
struct dpt_memo {
    struct layer *lay; /* owned: nlay layers */
    size_t nlay;
    struct cfgs cf[3]; /* owned: choose()'s sets (vectors of lt + 1) */
    double *bv;        /* owned: improve()'s tables */
    int *bc;
    size_t bv_cap, bc_cap;
    size_t lt;               /* their types */
    struct dpt_opt *o, *all; /* owned: o_cap, all_cap options */
    double *pre0, *semi, *v;
    size_t o_cap, all_cap, pre0_cap, semi_cap, v_cap;
    /* hull_lists()'s: each job's hull on each type, and its length */
    const int **hp;
    size_t *hl;
    size_t hp_cap, hl_cap;
    struct dpt_row **row, **old; /* owned: nrow rows; old: scratch */
    size_t nrow, row_cap, old_cap;
    /* owned: rows no job of the last instances took, the latest first
     * (at most DPT_SPARE), for a job that comes back to a holding */
    struct dpt_row *spare[DPT_SPARE];
    uint64_t ssig[DPT_SPARE]; /* their row_sig()s */
    size_t nspare;
    size_t taken; /* spare rows taken (made NULL) since spare_keep() */
    int same;     /* every job's row is the last instance's at its place */
    int have;     /* the answer below is the last instance's */
    int *pools, *counts, *types;
    double objective;
    size_t pools_cap, counts_cap, types_cap;
    /* owned: dpt_solve()'s per-solve arrays (scratch_carve()), and
     * semi()'s sR */
    unsigned char *scr;
    size_t scr_cap;
    size_t *sR;
    size_t sR_cap;
    /* what v and bv, bc hold (the value table, prefix_best()'s), and
     * the next row's id - 1 */
    struct tslots vs, bs;
    uint64_t rows_made;
    size_t *byn, *cnt; /* owned: choose()'s scratch */
    size_t byn_cap, cnt_cap;
};

/* Makes the rows old[0..no) left (not NULL) the latest spare rows of m,
 * before the spare rows left; frees those past DPT_SPARE. */
static void spare_keep(struct dpt_memo *m, struct dpt_row **old, size_t no)
{
    size_t nl = 0, ns = m->taken ? 0 : m->nspare, keep;

    /* the spare rows left, moved down over the taken ones (NULL) */
    for (size_t k = 0; m->taken && k < m->nspare; k++)
        if (m->spare[k]) {
            m->ssig[ns] = m->ssig[k];
            m->spare[ns++] = m->spare[k];
        }
    m->taken = 0;
    for (size_t k = 0; k < no; k++)
        nl += old[k] != NULL;
    if (nl > DPT_SPARE) { /* the first DPT_SPARE of the rows left only */
        for (size_t k = 0, n = 0; k < no; k++)
            if (old[k] && n++ >= DPT_SPARE) {
                row_free(old[k]);
                old[k] = NULL;
            }
        nl = DPT_SPARE;
    }
    /* the spare rows past DPT_SPARE - nl go, the others make room */
    keep = ns < DPT_SPARE - nl ? ns : DPT_SPARE - nl;
    for (size_t k = keep; k < ns; k++)
        row_free(m->spare[k]);
    if (nl > 0) {
        memmove(&m->spare[nl], m->spare, keep * sizeof *m->spare);
        memmove(&m->ssig[nl], m->ssig, keep * sizeof *m->ssig);
        for (size_t k = 0, n = 0; k < no; k++)
            if (old[k]) {
                m->ssig[n] = old[k]->sig;
                m->spare[n++] = old[k];
            }
    }
    m->nspare = nl + keep;
}

/* Finds or makes each job's row of p (counts up to W - 1, or the job's
 * jmax when less) into m->row, first at its place in the last instance,
 * then anywhere among the rows no job took, then among the spare ones;
 * the rows left become the latest spare ones (the oldest past DPT_SPARE
 * dropped).  A row made holds half as many counts again (within jmax),
 * so that pools a little larger find it too.  Sets m->same when every
 * job found its row at its place. */
static void rows_update(struct dpt_memo *m, const struct alloc_problem *p,
                        size_t W)
{
    size_t nj = p->n_jobs, no = m->nrow;
    struct dpt_row **old;

    DPT_GROW(m->old, m->old_cap, no + 1);
    old = m->old;
    if (no > 0) /* m->row is NULL before the first call */
        memcpy(old, m->row, no * sizeof *old);
    DPT_GROW(m->row, m->row_cap, nj + 1);
    m->same = nj == no;
    for (size_t j = 0; j < nj; j++) {
        size_t w =
            (size_t)p->jobs[j].jmax + 1 < W ? (size_t)p->jobs[j].jmax + 1 : W;
        m->row[j] = NULL;
        if (j < no && old[j] && row_same(old[j], p, j, w)) {
            m->row[j] = old[j];
            old[j] = NULL;
        } else
            m->same = 0;
    }
    for (size_t j = 0; j < nj; j++) {
        size_t jmax1 = (size_t)p->jobs[j].jmax + 1, w = jmax1 < W ? jmax1 : W;
        for (size_t k = 0; k < no && !m->row[j]; k++)
            if (old[k] && row_same(old[k], p, j, w)) {
                m->row[j] = old[k];
                old[k] = NULL;
            }
        uint64_t sig = m->row[j] ? 0 : row_sig(p, j);
        for (size_t k = 0; k < m->nspare && !m->row[j]; k++)
            if (m->ssig[k] == sig && m->spare[k] &&
                row_same(m->spare[k], p, j, w)) {
                m->row[j] = m->spare[k];
                m->spare[k] = NULL;
                m->taken++;
            }
        if (!m->row[j]) {
            m->row[j] = row_make(p, j, w + w / 2 < jmax1 ? w + w / 2 : jmax1);
            m->row[j]->id = ++m->rows_made;
        }
    }
    spare_keep(m, old, no);
    m->nrow = nj;
}

/* Row r's two best values (struct dpt_best) over its counts below
 * row_clip() on each type: they are the ones of the job's part of the
 * value table (its other entries are -HUGE_VAL, which change neither).
 * They are what a scan would keep (the two highest so far, the first
 * of the highest), the idle value first, then each type's counts 1..c -
 * 1 in turn, each type's part read off its prefix tables: the highest
 * pv at the first count pc, and the second p2 (a part whose highest is
 * above the best so far makes the next the larger of that best and
 * p2; else the next is the larger of itself and the part's highest). */
static struct dpt_best row_best(const struct dpt_row *r,
                                const struct alloc_problem *p, size_t W)
{
    struct dpt_best b = {-HUGE_VAL, -HUGE_VAL, -1, -1};

    if (r->v[0] > b.best) { /* count 0, type 0's entry */
        b.best = r->v[0];
        b.n = 0;
    }
    for (size_t t = 0; t < r->nt; t++) {
        size_t c = row_clip(r, p, t, W), at = t * r->w + c - 1;
        double hi, second;
        if (c < 2)
            continue;
        hi = r->pv[at];
        second = r->p2[at];
        if (hi > b.best) {
            b.next = b.best > second ? b.best : second;
            b.best = hi;
            b.n = r->pc[at];
            b.t = (int)t;
        } else if (hi > b.next)
            b.next = hi;
    }
    return b;
}

/* Readies s for an instance of nj jobs, nt types and W counts: the
 * places past those made, or all of them when W or nt changed, hold
 * nothing. */
static void tslots_begin(struct tslots *s, size_t nj, size_t nt, size_t W)
{
    if (s->W != W || s->nt != nt) {
        s->n = 0;
        s->W = W;
        s->nt = nt;
    }
    DPT_GROW(s->id, s->id_cap, nj + 1);
    DPT_GROW(s->clip, s->clip_cap, nj * nt + 1);
    for (; s->n < nj; s->n++)
        s->id[s->n] = 0;
}

/* Whether job j's part of s's table is already row r's at p's clips (W
 * counts, tslots_begin() made); else records that it will be (the
 * caller makes it) and returns 0. */
static int tslots_same(struct tslots *s, size_t j, const struct dpt_row *r,
                       const struct alloc_problem *p)
{
    int same = s->id[j] == r->id;

    for (size_t t = 0; t < s->nt; t++) {
        size_t c = row_clip(r, p, t, s->W);
        same &= s->clip[j * s->nt + t] == c;
        s->clip[j * s->nt + t] = c;
    }
    s->id[j] = r->id;
    return same;
}

/* Job j's clip on type t in s's table (NONE: its part is not row r's)
 * when made from row r, and records clip c for it, and r. */
static size_t tslots_was(struct tslots *s, size_t j, size_t t,
                         const struct dpt_row *r, size_t c)
{
    size_t was = s->id[j] == r->id ? s->clip[j * s->nt + t] : NONE;

    s->clip[j * s->nt + t] = c;
    if (t + 1 == s->nt)
        s->id[j] = r->id;
    return was;
}

static void tslots_release(struct tslots *s)
{
    xfree(s->id);
    xfree(s->clip);
    memset(s, 0, sizeof *s);
}

/* The value table of alloc_values_t(p, W, v) from the rows of m, and
 * alloc_tie_tol_t(p), the same double (the largest |v| of each job's
 * admissible options, summed in job order); each job's best values
 * (row_best()) into b. */
static double rows_values(struct dpt_memo *m, const struct alloc_problem *p,
                          size_t W, double *v, struct dpt_best *b)
{
    size_t nt = (size_t)p->n_types;
    double sum = 0.0;

    tslots_begin(&m->vs, p->n_jobs, nt, W);
    for (size_t j = 0; j < p->n_jobs; j++) {
        struct dpt_row *r = m->row[j];
        double big = fabs(r->v[0]);
        b[j] = row_best(r, p, W);
        for (size_t t = 0; t < nt; t++) {
            double *x = &v[(j * nt + t) * W];
            size_t c = row_clip(r, p, t, W), was;
            if (c > 0 && r->a[t * r->w + c - 1] > big)
                big = r->a[t * r->w + c - 1];
            /* the part holds r's values below was, -HUGE_VAL from there
             * (NONE: not r's): what changes with the clip */
            was = tslots_was(&m->vs, j, t, r, c);
            if (was == NONE) {
                memcpy(x, &r->v[t * r->w], c * sizeof *x);
                for (size_t n = c; n < W; n++)
                    x[n] = -HUGE_VAL;
            } else if (c > was)
                memcpy(&x[was], &r->v[t * r->w + was], (c - was) * sizeof *x);
            else
                for (size_t n = c; n < was; n++)
                    x[n] = -HUGE_VAL;
        }
        sum += big;
    }
    return ALLOC_TIE_REL * (sum > 1.0 ? sum : 1.0);
}

/* Each job's upper hulls on each type for alloc_lagr_init_hulls, the
 * ones alloc_lagr_init would make from the value table of W counts
 * (rows_values()): the rows' (row_hull(), made by the same test, so the
 * same points), into m->hp and m->hl. */
static void hull_lists(struct dpt_memo *m, const struct alloc_problem *p,
                       size_t W)
{
    size_t nt = (size_t)p->n_types;

    DPT_GROW(m->hp, m->hp_cap, p->n_jobs * nt + 1);
    DPT_GROW(m->hl, m->hl_cap, p->n_jobs * nt + 1);
    for (size_t j = 0; j < p->n_jobs; j++) {
        struct dpt_row *r = m->row[j];
        for (size_t t = 0; t < nt; t++) {
            row_hull(r, t, row_clip(r, p, t, W));
            m->hp[j * nt + t] = &r->hull[t * r->w];
            m->hl[j * nt + t] = r->hlen[t];
        }
    }
}

/* d->lmin (struct dpt) at d->g's prices, from the hulls of m's rows
 * (hull_lists() made them): the values of job j on type t lie on or
 * below their upper hull, so v - lambda_t n is largest, and the loss
 * smallest, at one of the hull's points.  The bound is that smallest
 * loss less a margin far above the roundings of the losses (a few ulps
 * of |phi_j|, |v| and lambda_t n) and of the hull's tests. */
static void loss_bounds(struct dpt *d, struct dpt_memo *m)
{
    const struct alloc_problem *p = d->p;
    size_t nt = d->nt;

    for (size_t j = 0; j < d->nj; j++) {
        const struct dpt_row *r = m->row[j];
        for (size_t t = 0; t < nt; t++) {
            const int *h = &r->hull[t * r->w];
            const double *y = &r->v[t * r->w];
            size_t c = row_clip(r, p, t, d->W);
            double lo = HUGE_VAL, big = fabs(d->g->phi[j]) +
                                        r->a[t * r->w + c - 1] +
                                        d->g->lam[t] * (double)d->W;
            for (size_t k = 0; k < r->hlen[t]; k++) {
                double l = alloc_lagr_loss(d->g, j, (int)t, h[k], y[h[k]]);
                lo = l < lo ? l : lo;
            }
            d->lmin[j * nt + t] = lo - 1e-9 * big;
        }
    }
}

/* Whether p is, number for number, the instance whose answer m holds
 * (rows_update made first). */
static int memo_same(const struct dpt_memo *m, const struct alloc_problem *p)
{
    return m->have && m->same && !p->mixed &&
           !memcmp(m->pools, p->pools, (size_t)p->n_types * sizeof *p->pools);
}

/* Keeps p's pools and its optimum res in m (its rows are there). */
static void memo_keep(struct dpt_memo *m, const struct alloc_problem *p,
                      const struct alloc_result *res)
{
    size_t nj = p->n_jobs, nt = (size_t)p->n_types;

    m->have = 0;
    if (p->mixed)
        return;
    DPT_GROW(m->pools, m->pools_cap, nt);
    DPT_GROW(m->counts, m->counts_cap, nj + 1);
    DPT_GROW(m->types, m->types_cap, nj + 1);
    memcpy(m->pools, p->pools, nt * sizeof *p->pools);
    memcpy(m->counts, res->counts, nj * sizeof *m->counts);
    memcpy(m->types, res->types, nj * sizeof *m->types);
    m->objective = res->objective;
    m->have = 1;
}

void alloc_dp_types_forget(void *memo)
{
    struct dpt_memo *m = memo;

    if (!m)
        return;
    for (size_t k = 0; k < m->nrow; k++)
        row_free(m->row[k]);
    for (size_t k = 0; k < m->nspare; k++)
        row_free(m->spare[k]);
    xfree(m->row);
    xfree(m->old);
    for (size_t j = 0; j < m->nlay; j++)
        layer_release(&m->lay[j], 0);
    for (int i = 0; i < 3; i++) {
        vset_release(&m->cf[i].key);
        xfree(m->cf[i].x);
    }
    xfree(m->lay);
    xfree(m->o);
    xfree(m->all);
    xfree(m->bv);
    xfree(m->bc);
    xfree(m->pre0);
    xfree(m->semi);
    xfree(m->v);
    xfree(m->hp);
    xfree(m->hl);
    xfree(m->pools);
    xfree(m->counts);
    xfree(m->types);
    xfree(m->scr);
    xfree(m->sR);
    xfree(m->byn);
    xfree(m->cnt);
    tslots_release(&m->vs);
    tslots_release(&m->bs);
    xfree(m);
}

/* The next n items of size sz from the block at *at, aligned for any
 * type; advances *at past them. */
static void *carve(unsigned char **at, size_t n, size_t sz)
{
    void *p = *at;
    size_t a = _Alignof(max_align_t), b = (n * sz + a - 1) / a * a;

    *at += b;
    return p;
}

/* Points d's per-solve arrays (cap, soff, ooff, aoff, inc, inct, u,
 * lmin, pre, improve()'s scratch, fill()'s ps) and *bests into m's scratch
 * block, grown as needed, all zero. */
static void scratch_carve(struct dpt_memo *m, struct dpt *d,
                          struct dpt_best **bests)
{
    size_t nj = d->nj, nt = d->nt, a = _Alignof(max_align_t), need = 0;
    unsigned char *at;
    const size_t sizes[][2] = {
        {nt, sizeof *d->cap},           {nt, sizeof *d->soff},
        {nj + 1, sizeof *d->ooff},      {nj + 1, sizeof *d->aoff},
        {nj + 1, sizeof *d->inc},       {nj + 1, sizeof *d->inct},
        {nt + 1, sizeof *d->u},         {nj + 1, sizeof **bests},
        {nj * nt + 1, sizeof *d->lmin}, {nj + 1, sizeof *d->pre},
        {2 * nj + 1, sizeof *d->n2},    {nt + 1, sizeof *d->room},
        {nj + 1, sizeof *d->top},       {nt + 1, sizeof *d->ps}};

    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        need += (sizes[i][0] * sizes[i][1] + a - 1) / a * a;
    DPT_GROW(m->scr, m->scr_cap, need);
    memset(m->scr, 0, need);
    at = m->scr;
    d->cap = carve(&at, nt, sizeof *d->cap);
    d->soff = carve(&at, nt, sizeof *d->soff);
    d->ooff = carve(&at, nj + 1, sizeof *d->ooff);
    d->aoff = carve(&at, nj + 1, sizeof *d->aoff);
    d->inc = carve(&at, nj + 1, sizeof *d->inc);
    d->inct = carve(&at, nj + 1, sizeof *d->inct);
    d->u = carve(&at, nt + 1, sizeof *d->u);
    *bests = carve(&at, nj + 1, sizeof **bests);
    d->lmin = carve(&at, nj * nt + 1, sizeof *d->lmin);
    d->pre = carve(&at, nj + 1, sizeof *d->pre);
    d->n2 = carve(&at, 2 * nj + 1, sizeof *d->n2);
    d->room = carve(&at, nt + 1, sizeof *d->room);
    d->top = carve(&at, nj + 1, sizeof *d->top);
    d->ps = carve(&at, nt + 1, sizeof *d->ps);
}

static int dpt_solve(struct dpt_memo *m, const struct alloc_problem *p,
                     size_t W, double limit, struct alloc_result *res,
                     struct bfs_error *e);

/* The prefix tables of the value table (rows_values()'s, from m's rows;
 * d->bv, d->bc, grown): the best value of job j on type k within r
 * nodes, r < W, 1 <= count <= r (-HUGE_VAL when none), and the first
 * count where it is (0: none).  Below the row's clip they are its pv,
 * pc (the table's entries are its v there); past it, the table's
 * entries are -HUGE_VAL, which are never above, so they stay. */
static void prefix_best(struct dpt *d, struct dpt_memo *m)
{
    size_t nj = d->nj, nt = d->nt, W = d->W;

    DPT_GROW(d->bv, d->bv_cap, nj * nt * W + 1);
    DPT_GROW(d->bc, d->bc_cap, nj * nt * W + 1);
    tslots_begin(&m->bs, nj, nt, W);
    for (size_t j = 0; j < nj; j++) {
        const struct dpt_row *r = m->row[j];
        if (tslots_same(&m->bs, j, r, d->p))
            continue; /* made */
        for (size_t t = 0; t < nt; t++) {
            double *bv = &d->bv[(j * nt + t) * W], x = -HUGE_VAL;
            int *bc = &d->bc[(j * nt + t) * W], n = 0;
            size_t c = row_clip(r, d->p, t, W);
            memcpy(bv, &r->pv[t * r->w], c * sizeof *bv);
            memcpy(bc, &r->pc[t * r->w], c * sizeof *bc);
            if (c > 0) {
                x = bv[c - 1];
                n = bc[c - 1];
            }
            for (size_t k = c; k < W; k++) {
                bv[k] = x;
                bc[k] = n;
            }
        }
    }
}

int alloc_dp_types_solve(void **memo, const struct alloc_problem *p,
                         double limit, struct alloc_result *res,
                         struct bfs_error *e)
{
    double t0 = bfs_now();
    struct dpt_memo *m = *memo;
    size_t nt = (size_t)p->n_types, W = 1;
    int rc, maxpool = 0;

    for (size_t t = 0; t < nt; t++)
        maxpool = p->pools[t] > maxpool ? p->pools[t] : maxpool;
    for (size_t j = 0; j < p->n_jobs; j++) {
        int top = p->jobs[j].jmax < maxpool ? p->jobs[j].jmax : maxpool;
        W = (size_t)top + 1 > W ? (size_t)top + 1 : W;
    }
    if (p->n_jobs > DPT_MAX_ENTRIES / nt / W)
        return bfs_fail(e, BFS_ERANGE,
                        "dp: %zu jobs with counts up to %zu on %zu node types "
                        "need a value table of more than %zu entries (%zu "
                        "MiB); use --allocator milp",
                        p->n_jobs, W - 1, nt, DPT_MAX_ENTRIES,
                        DPT_MAX_ENTRIES * sizeof(double) >> 20);
    if (!m)
        *memo = m = xcalloc(1, sizeof *m);
    rows_update(m, p, W);
    if (memo_same(m, p)) {
        memcpy(res->counts, m->counts, p->n_jobs * sizeof *res->counts);
        memcpy(res->types, m->types, p->n_jobs * sizeof *res->types);
        res->objective = res->bound = m->objective;
        res->status = SOLVE_OPTIMAL;
        res->build_s = 0.0;
        res->solve_s = bfs_now() - t0;
        res->rows = res->cols = res->nnz = 0;
        return 0;
    }
    m->have = 0;
    rc = dpt_solve(m, p, W, limit, res, e);
    if (rc == 0 && res->status == SOLVE_OPTIMAL)
        memo_keep(m, p, res);
    return rc;
}

/* alloc_dp_types_solve after the memo: W, the value table's rows,
 * checked against its bound, and each job's row in m. */
static int dpt_solve(struct dpt_memo *m, const struct alloc_problem *p,
                     size_t W, double limit, struct alloc_result *res,
                     struct bfs_error *e)
{
    struct dpt d;
    struct alloc_lagr g;
    struct dpt_best *bests = NULL;
    double *v, zlb;
    int rc = 0;

    memset(&d, 0, sizeof d);
    d.p = p;
    d.nj = p->n_jobs;
    d.nt = (size_t)p->n_types;
    d.limit = limit;
    d.t0 = bfs_now();
    d.W = W;
    if (m->nlay < d.nj + 1) {
        m->lay = xreallocarray(m->lay, d.nj + 1, sizeof *m->lay);
        memset(&m->lay[m->nlay], 0, (d.nj + 1 - m->nlay) * sizeof *m->lay);
        for (size_t j = m->nlay; j <= d.nj; j++)
            vset_init(&m->lay[j].st, d.nt);
        m->nlay = d.nj + 1;
    }
    for (size_t j = 0; j <= d.nj; j++)
        if (m->lay[j].st.w != d.nt)
            layer_release(&m->lay[j], d.nt);
    d.lay = m->lay;
    if (m->lt != d.nt) /* the sets' vectors: nt + 1 ints */
        for (int i = 0; i < 3; i++) {
            vset_release(&m->cf[i].key);
            vset_init(&m->cf[i].key, d.nt + 1);
        }
    m->lt = d.nt;
    d.cf = m->cf;
    d.o = m->o;
    d.o_cap = m->o_cap;
    d.all = m->all;
    d.all_cap = m->all_cap;
    d.bv = m->bv;
    d.bv_cap = m->bv_cap;
    d.bc = m->bc;
    d.bc_cap = m->bc_cap;
    d.pre0 = m->pre0;
    d.pre0_cap = m->pre0_cap;
    d.semi = m->semi;
    d.semi_cap = m->semi_cap;
    DPT_GROW(m->v, m->v_cap, d.nj * d.nt * d.W + 1);
    v = m->v;
    d.sR = m->sR;
    d.sR_cap = m->sR_cap;
    d.byn = m->byn;
    d.byn_cap = m->byn_cap;
    d.cnt = m->cnt;
    d.cnt_cap = m->cnt_cap;
    scratch_carve(m, &d, &bests);
    d.tol = rows_values(m, p, d.W, v, bests);
    if (shortcut(&d, bests, d.inc, d.inct)) {
        memcpy(res->counts, d.inc, d.nj * sizeof *d.inc);
        memcpy(res->types, d.inct, d.nj * sizeof *d.inct);
        res->objective = res->bound = alloc_objective_t(p, d.inc, d.inct);
        res->status = SOLVE_OPTIMAL;
        goto out;
    }
    hull_lists(m, p, d.W);
    alloc_lagr_init_hulls(&g, p, d.W, v, m->hp, m->hl);
    d.lbound = g.L;
    d.lam = g.lam;
    d.g = &g;
    d.adelta = -HUGE_VAL;
    loss_bounds(&d, m);
    for (size_t j = 0; j < d.nj; j++)
        d.pre[j + 1] = d.pre[j] + g.phi[j];
    prefix_best(&d, m);
    zlb = d.zinc = alloc_lagr_greedy_pre(&g, p, v, d.bv, d.bc, d.inc, d.inct);
    d.v = v;
    rc = search(&d, &g, zlb, res, e);
    if (rc >= 0) {
        res->status = rc;
        rc = 0;
    }
    alloc_lagr_release(&g);
out:
    res->build_s = 0.0;
    res->solve_s = bfs_now() - d.t0;
    res->rows = res->cols = res->nnz = 0;
    m->sR = d.sR;
    m->sR_cap = d.sR_cap;
    m->byn = d.byn;
    m->byn_cap = d.byn_cap;
    m->cnt = d.cnt;
    m->cnt_cap = d.cnt_cap;
    m->pre0 = d.pre0;
    m->pre0_cap = d.pre0_cap;
    m->semi = d.semi;
    m->semi_cap = d.semi_cap;
    m->o = d.o;
    m->o_cap = d.o_cap;
    m->all = d.all;
    m->all_cap = d.all_cap;
    m->bv = d.bv;
    m->bv_cap = d.bv_cap;
    m->bc = d.bc;
    m->bc_cap = d.bc_cap;
    for (size_t j = 0; j <= d.nj; j++) /* not the memory of a large one */
        if (d.lay[j].G_cap > DPT_KEEP_ENTRIES)
            layer_release(&d.lay[j], d.nt);
    return rc;
}
