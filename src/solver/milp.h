/* milp.h - a solver-neutral mixed-integer linear programme.
 *
 * A model is what every backend in solvers/ accepts:
 *
 *   optimise  obj_offset + sum_i obj[i] x[i]        (minimise or maximise)
 *   s.t.      row_lb[r] <= sum_k row_val[k] x[row_ind[k]] <= row_ub[r]
 *             col_lb[i] <= x[i] <= col_ub[i],   x[i] integer if col_int[i]
 *
 * Rows are stored in compressed sparse row form.  A missing bound is
 * -HUGE_VAL or HUGE_VAL; lb == ub fixes a row or a column.  Models are
 * built with milp_add_col and milp_row_begin / milp_row_add / milp_row_end
 * (which sorts a row's entries, merges repeated columns and drops zeros),
 * and checked once with milp_check before any backend sees them: GLPK
 * aborts the process on malformed input.
 */
#ifndef BFS_MILP_H
#define BFS_MILP_H

#include <stddef.h>

#include "base/error.h"

/* Finite bounds and coefficients must stay below this in magnitude;
 * larger ones mean "infinite" to CBC, so they are rejected as ambiguous. */
#define MILP_BIG 1e30

struct milp {
    int maximize;      /* 1 = maximise, 0 = minimise */
    double obj_offset; /* constant term of the objective */

    size_t n_cols;
    double *obj;            /* owned, n_cols */
    double *col_lb;         /* owned, n_cols */
    double *col_ub;         /* owned, n_cols */
    unsigned char *col_int; /* owned, n_cols; 1 = integer column */

    size_t n_rows;
    double *row_lb;  /* owned, n_rows */
    double *row_ub;  /* owned, n_rows */
    size_t *row_beg; /* owned, n_rows + 1; row r is [row_beg[r],
                        row_beg[r+1]) in row_ind/row_val */
    int *row_ind;    /* owned, nnz; strictly increasing within a row */
    double *row_val; /* owned, nnz; nonzero */
    size_t nnz;

    /* owned, n_cols, or NULL: a point to start the search from (a MIP
     * start), a hint that a backend may use or ignore */
    double *start;

    int row_open;                       /* a row was begun and not yet ended */
    size_t cap_cols, cap_rows, cap_nnz; /* allocated capacities */
};

/* Initialises an empty model (no columns, no rows, objective 0). */
void milp_init(struct milp *m, int maximize);

/* Frees what m owns and leaves it empty; safe on a zeroed struct. */
void milp_release(struct milp *m);

/* Makes dst (not initialised) a deep copy of src. */
void milp_copy(struct milp *dst, const struct milp *src);

/* Sets m's start to a copy of x (n_cols values), or clears it (x NULL).
 * Set it once every column is added. */
void milp_set_start(struct milp *m, const double *x);

/* Appends a column and returns its index. */
int milp_add_col(struct milp *m, double lb, double ub, int integer, double obj);

/* Starts a row with bounds lb..ub and returns its index.  Entries follow
 * with milp_row_add; milp_row_end closes the row. */
int milp_row_begin(struct milp *m, double lb, double ub);

/* Adds val * x[col] to the open row (repeated columns are summed). */
void milp_row_add(struct milp *m, int col, double val);

/* Appends (col, val) to the parallel arrays *cols and *vals, of *n
 * entries and capacity *cap (both grown, as BFS_GROW, when full): the
 * open row's entries here, a linear expression's in alloc/. */
void milp_entry_append(int **cols, double **vals, size_t *n, size_t *cap,
                       int col, double val);

/* Closes the open row: sorts its entries by column, sums repeats and
 * drops zero coefficients. */
void milp_row_end(struct milp *m);

/* Checks that m is well formed: sizes fit an int, every number is finite
 * (bounds may be infinite on their own side), |values| < MILP_BIG, lb <=
 * ub, column indices in range and strictly increasing within each row, no
 * zero coefficient, no open row.  Returns 0 or BFS_EINVAL with the first
 * problem found (column or row number included) in e. */
int milp_check(const struct milp *m, struct bfs_error *e);

/* obj_offset + obj . x, summed in column order. */
double milp_objective(const struct milp *m, const double *x);

/* The largest violation by x of a row or column bound or of integrality
 * (0 when x is feasible), for tests and sanity checks. */
double milp_violation(const struct milp *m, const double *x);

#endif
