/* milp.c - building, copying and checking solver-neutral models.
 *
 * Columns live in parallel arrays, rows in compressed sparse row form
 * (row_beg has n_rows + 1 entries once a row is closed).  Arrays grow by
 * doubling.  A row is open between milp_row_begin and milp_row_end; while
 * open its entries sit at the end of row_ind/row_val in insertion order,
 * and closing it sorts them by (column, insertion order) so that repeated
 * columns are summed in a fixed order and the result is reproducible.
 */
#include "config.h"

#include "solver/milp.h"
#include "base/util.h"

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void milp_init(struct milp *m, int maximize)
{
    memset(m, 0, sizeof *m);
    m->maximize = maximize ? 1 : 0;
    m->row_beg = xcalloc(1, sizeof *m->row_beg);
}

void milp_release(struct milp *m)
{
    XFREE_ALL(m->obj, m->col_lb, m->col_ub, m->col_int, m->row_lb, m->row_ub,
              m->row_beg, m->row_ind, m->row_val, m->start);
    memset(m, 0, sizeof *m);
}

static void *dup_array(const void *src, size_t n, size_t size)
{
    void *p;

    if (n == 0)
        return NULL;
    p = xreallocarray(NULL, n, size);
    memcpy(p, src, n * size);
    return p;
}

void milp_copy(struct milp *dst, const struct milp *src)
{
    memset(dst, 0, sizeof *dst);
    dst->maximize = src->maximize;
    dst->obj_offset = src->obj_offset;
    dst->n_cols = dst->cap_cols = src->n_cols;
    dst->obj = dup_array(src->obj, src->n_cols, sizeof *src->obj);
    dst->col_lb = dup_array(src->col_lb, src->n_cols, sizeof *src->col_lb);
    dst->col_ub = dup_array(src->col_ub, src->n_cols, sizeof *src->col_ub);
    dst->col_int = dup_array(src->col_int, src->n_cols, 1);
    dst->n_rows = dst->cap_rows = src->n_rows;
    dst->row_lb = dup_array(src->row_lb, src->n_rows, sizeof *src->row_lb);
    dst->row_ub = dup_array(src->row_ub, src->n_rows, sizeof *src->row_ub);
    dst->row_beg =
        dup_array(src->row_beg, src->n_rows + 1, sizeof *src->row_beg);
    dst->nnz = dst->cap_nnz = src->nnz;
    dst->row_ind = dup_array(src->row_ind, src->nnz, sizeof *src->row_ind);
    dst->row_val = dup_array(src->row_val, src->nnz, sizeof *src->row_val);
    dst->start = src->start
                     ? dup_array(src->start, src->n_cols, sizeof *src->start)
                     : NULL;
    dst->row_open = src->row_open;
}

void milp_set_start(struct milp *m, const double *x)
{
    xfree(m->start);
    m->start = x ? dup_array(x, m->n_cols, sizeof *x) : NULL;
}

int milp_add_col(struct milp *m, double lb, double ub, int integer, double obj)
{
    size_t i = m->n_cols;

    assert(!m->start); /* the start covers every column */
    if (i == m->cap_cols) {
        size_t cap = m->cap_cols;
        BFS_GROW(m->obj, cap, i + 1);
        cap = m->cap_cols;
        BFS_GROW(m->col_lb, cap, i + 1);
        cap = m->cap_cols;
        BFS_GROW(m->col_ub, cap, i + 1);
        cap = m->cap_cols;
        BFS_GROW(m->col_int, cap, i + 1);
        m->cap_cols = cap;
    }
    m->obj[i] = obj;
    m->col_lb[i] = lb;
    m->col_ub[i] = ub;
    m->col_int[i] = integer ? 1 : 0;
    m->n_cols = i + 1;
    return (int)i;
}

int milp_row_begin(struct milp *m, double lb, double ub)
{
    size_t r = m->n_rows;

    assert(!m->row_open);
    if (r == m->cap_rows) {
        size_t cap = m->cap_rows;
        BFS_GROW(m->row_lb, cap, r + 1);
        cap = m->cap_rows;
        BFS_GROW(m->row_ub, cap, r + 1);
        m->cap_rows = cap;
        m->row_beg = xreallocarray(m->row_beg, cap + 1, sizeof *m->row_beg);
    }
    m->row_lb[r] = lb;
    m->row_ub[r] = ub;
    m->row_beg[r] = m->nnz;
    m->row_open = 1;
    return (int)r;
}

void milp_entry_append(int **cols, double **vals, size_t *n, size_t *cap,
                       int col, double val)
{
    if (*n == *cap) {
        size_t c = *cap;
        BFS_GROW(*cols, c, *n + 1);
        c = *cap;
        BFS_GROW(*vals, c, *n + 1);
        *cap = c;
    }
    (*cols)[*n] = col;
    (*vals)[*n] = val;
    (*n)++;
}

void milp_row_add(struct milp *m, int col, double val)
{
    assert(m->row_open);
    milp_entry_append(&m->row_ind, &m->row_val, &m->nnz, &m->cap_nnz, col, val);
}

struct entry {
    int col;
    size_t pos;
    double val;
};

static int entry_cmp(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;

    if (x->col != y->col)
        return x->col < y->col ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

void milp_row_end(struct milp *m)
{
    size_t beg = m->row_beg[m->n_rows], n = m->nnz - beg, out = beg;
    struct entry *e;

    if (n > 0) {
        e = xreallocarray(NULL, n, sizeof *e);
        for (size_t k = 0; k < n; k++) {
            e[k].col = m->row_ind[beg + k];
            e[k].pos = k;
            e[k].val = m->row_val[beg + k];
        }
        qsort(e, n, sizeof *e, entry_cmp);
        for (size_t k = 0; k < n;) {
            int col = e[k].col;
            double v = 0.0;
            for (; k < n && e[k].col == col; k++)
                v += e[k].val;
            if (v != 0.0) {
                m->row_ind[out] = col;
                m->row_val[out] = v;
                out++;
            }
        }
        xfree(e);
    }
    m->nnz = out;
    m->n_rows++;
    m->row_beg[m->n_rows] = out;
    m->row_open = 0;
}

/* A bound is valid when it is not NaN, finite ones are below MILP_BIG,
 * and an infinite one points the right way (lower: -inf, upper: +inf). */
static int bound_ok(double b, int upper)
{
    if (isnan(b))
        return 0;
    if (isinf(b))
        return upper ? b > 0 : b < 0;
    return fabs(b) < MILP_BIG;
}

int milp_check(const struct milp *m, struct bfs_error *e)
{
    if (m->row_open)
        return bfs_fail(e, BFS_EINVAL, "model: row %zu is still open",
                        m->n_rows);
    if (m->n_cols > INT_MAX || m->n_rows > INT_MAX || m->nnz > INT_MAX)
        return bfs_fail(e, BFS_EINVAL,
                        "model: too large (%zu columns, %zu rows, %zu "
                        "nonzeros)",
                        m->n_cols, m->n_rows, m->nnz);
    if (!isfinite(m->obj_offset) || fabs(m->obj_offset) >= MILP_BIG)
        return bfs_fail(e, BFS_EINVAL, "model: objective offset %g",
                        m->obj_offset);
    for (size_t i = 0; i < m->n_cols; i++) {
        if (!isfinite(m->obj[i]) || fabs(m->obj[i]) >= MILP_BIG)
            return bfs_fail(e, BFS_EINVAL,
                            "model: column %zu: objective coefficient %g", i,
                            m->obj[i]);
        if (!bound_ok(m->col_lb[i], 0) || !bound_ok(m->col_ub[i], 1) ||
            m->col_lb[i] > m->col_ub[i])
            return bfs_fail(e, BFS_EINVAL, "model: column %zu: bounds %g..%g",
                            i, m->col_lb[i], m->col_ub[i]);
        if (m->start && !isfinite(m->start[i]))
            return bfs_fail(e, BFS_EINVAL, "model: column %zu: start %g", i,
                            m->start[i]);
    }
    if (m->row_beg[0] != 0 || m->row_beg[m->n_rows] != m->nnz)
        return bfs_fail(e, BFS_EINVAL, "model: inconsistent row starts");
    for (size_t r = 0; r < m->n_rows; r++) {
        if (!bound_ok(m->row_lb[r], 0) || !bound_ok(m->row_ub[r], 1) ||
            m->row_lb[r] > m->row_ub[r])
            return bfs_fail(e, BFS_EINVAL, "model: row %zu: bounds %g..%g", r,
                            m->row_lb[r], m->row_ub[r]);
        if (m->row_beg[r + 1] < m->row_beg[r])
            return bfs_fail(e, BFS_EINVAL, "model: row %zu: bad start", r);
        for (size_t k = m->row_beg[r]; k < m->row_beg[r + 1]; k++) {
            int c = m->row_ind[k];
            double v = m->row_val[k];
            if (c < 0 || (size_t)c >= m->n_cols)
                return bfs_fail(e, BFS_EINVAL,
                                "model: row %zu: column %d out of range", r, c);
            if (k > m->row_beg[r] && c <= m->row_ind[k - 1])
                return bfs_fail(e, BFS_EINVAL,
                                "model: row %zu: column %d repeated or out "
                                "of order",
                                r, c);
            if (v == 0.0 || !isfinite(v) || fabs(v) >= MILP_BIG)
                return bfs_fail(e, BFS_EINVAL,
                                "model: row %zu: coefficient %g of column %d",
                                r, v, c);
        }
    }
    return 0;
}

double milp_objective(const struct milp *m, const double *x)
{
    double z = m->obj_offset;

    for (size_t i = 0; i < m->n_cols; i++)
        z += m->obj[i] * x[i];
    return z;
}

static double above(double v, double lb, double ub)
{
    if (v < lb)
        return lb - v;
    if (v > ub)
        return v - ub;
    return 0.0;
}

double milp_violation(const struct milp *m, const double *x)
{
    double worst = 0.0, d;

    for (size_t i = 0; i < m->n_cols; i++) {
        d = above(x[i], m->col_lb[i], m->col_ub[i]);
        if (m->col_int[i] && fabs(x[i] - nearbyint(x[i])) > d)
            d = fabs(x[i] - nearbyint(x[i]));
        if (d > worst)
            worst = d;
    }
    for (size_t r = 0; r < m->n_rows; r++) {
        double a = 0.0;
        for (size_t k = m->row_beg[r]; k < m->row_beg[r + 1]; k++)
            a += m->row_val[k] * x[m->row_ind[k]];
        d = above(a, m->row_lb[r], m->row_ub[r]);
        if (d > worst)
            worst = d;
    }
    return worst;
}
