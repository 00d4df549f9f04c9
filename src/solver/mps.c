/* mps.c - writing a model as a free MPS file (the format is in mps.h).
 *
 * The model and its name are checked first (milp_check), before anything
 * is opened, so that a model the writer refuses leaves nothing on disk.
 * Rows are stored by row and MPS lists the matrix by column, so the
 * nonzeros are transposed once into column order (rows ascending within
 * a column, since rows are visited in order).
 *
 * Ranges.  A reader gives a G row with RHS b and range R the bounds
 * [b, b + |R|], an L row [b - |R|, b], with one IEEE addition.  For a row
 * lb <= a.x <= ub with both bounds finite, R = ub - lb rounded need not
 * give lb + R == ub exactly, so range_form tries R as a G row (b = lb),
 * then as an L row (b = ub), and takes the first that reproduces both
 * bounds.  (Trying R's neighbours too never helped in 4e7 random pairs
 * of bounds, so they are not tried.)  Often neither does: with bounds of
 * different magnitudes, -2 and 1e-7 say, b + R is a multiple of 2^-51
 * for every R near 2 and 1e-7 is not.  Such a row is written as two
 * rows with the same coefficients, R<r+1> of type G (lb) and U<r+1> of
 * type L (ub), which every reader takes exactly.
 */
#include "config.h"

#include "solver/mps.h"
#include "base/out.h"
#include "base/util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A row as written: its ROWS type, RHS and RANGES entry, or the two
 * rows it is split into. */
struct row_form {
    char type;  /* 'N', 'E', 'L' or 'G' */
    double rhs; /* unused for 'N' */
    double rng; /* > 0 for a ranged row, else 0 */
    int split;  /* written as R (type 'G', rhs lb) and U (type 'L', ub) */
    double ub;  /* the U row's RHS when split */
};

/* The G or L form with a range of a row whose bounds lb < ub are both
 * finite, reproducing both exactly (see the top of the file).  Returns 0
 * and fills *f, or -1 when there is none. */
static int range_form(double lb, double ub, struct row_form *f)
{
    double r = ub - lb;

    if (lb + r == ub) {
        f->type = 'G';
        f->rhs = lb;
    } else if (ub - r == lb) {
        f->type = 'L';
        f->rhs = ub;
    } else
        return -1;
    f->rng = r;
    return 0;
}

/* The form of row r of m. */
static void row_form(const struct milp *m, size_t r, struct row_form *f)
{
    double lb = m->row_lb[r], ub = m->row_ub[r];

    f->rhs = 0;
    f->rng = 0;
    f->split = 0;
    f->ub = 0;
    if (lb == -HUGE_VAL && ub == HUGE_VAL)
        f->type = 'N';
    else if (lb == ub) {
        f->type = 'E';
        f->rhs = lb;
    } else if (lb == -HUGE_VAL) {
        f->type = 'L';
        f->rhs = ub;
    } else if (ub == HUGE_VAL) {
        f->type = 'G';
        f->rhs = lb;
    } else if (range_form(lb, ub, f) != 0) {
        f->type = 'G';
        f->rhs = lb;
        f->split = 1;
        f->ub = ub;
    }
}

/* Checks the model name (see mps.h). */
static int check_name(const char *name, const char *path, struct bfs_error *e)
{
    size_t n = name ? strlen(name) : 0;

    if (n == 0)
        return bfs_fail_at(e, BFS_EINVAL, path, 0, "empty MPS model name");
    if (n > 255)
        return bfs_fail_at(e, BFS_EINVAL, path, 0,
                           "MPS model name longer than 255 characters");
    if (name[0] == '$')
        return bfs_fail_at(e, BFS_EINVAL, path, 0,
                           "MPS model name \"%s\" begins with '$'", name);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c <= ' ' || c >= 0x7f)
            return bfs_fail_at(e, BFS_EINVAL, path, 0,
                               "MPS model name \"%s\": character %zu is a "
                               "space or not printable ASCII",
                               name, i + 1);
    }
    return 0;
}

/* Writes the record " a b x", x with %.17g (and 0 for -0, which reads
 * back equal anyway). */
static void put_rec(FILE *f, const char *a, const char *b, double x)
{
    fprintf(f, " %s %s %.17g\n", a, b, x == 0 ? 0.0 : x);
}

/* The name of column i ('C'), of row i ('R') or of the upper half of
 * row i when it is split ('U'), written in buf. */
static const char *name_of(char buf[32], char kind, size_t i)
{
    snprintf(buf, 32, "%c%07zu", kind, i + 1);
    return buf;
}

/* The comment lines, each "* " and the line with control characters
 * (tabs aside) made spaces; a final '\n' ends the last line. */
static void put_comment(FILE *f, const char *text)
{
    const char *p = text;

    while (*p) {
        fputs("* ", f);
        for (; *p && *p != '\n'; p++) {
            unsigned char c = (unsigned char)*p;
            fputc(c < ' ' && c != '\t' ? ' ' : c, f);
        }
        fputc('\n', f);
        if (*p == '\n')
            p++;
    }
}

/* The column-ordered matrix: beg (n_cols + 1) and the row of each
 * entry with its value, rows ascending within a column.  All owned. */
struct csc {
    size_t *beg;
    size_t *row;
    double *val;
};

static void transpose(const struct milp *m, struct csc *c)
{
    size_t *next = xcalloc(m->n_cols + 1, sizeof *next);

    c->beg = xcalloc(m->n_cols + 1, sizeof *c->beg);
    c->row = xreallocarray(NULL, m->nnz ? m->nnz : 1, sizeof *c->row);
    c->val = xreallocarray(NULL, m->nnz ? m->nnz : 1, sizeof *c->val);
    for (size_t k = 0; k < m->nnz; k++)
        c->beg[m->row_ind[k] + 1]++;
    for (size_t i = 0; i < m->n_cols; i++)
        c->beg[i + 1] += c->beg[i];
    memcpy(next, c->beg, m->n_cols * sizeof *next);
    for (size_t r = 0; r < m->n_rows; r++)
        for (size_t k = m->row_beg[r]; k < m->row_beg[r + 1]; k++) {
            size_t at = next[m->row_ind[k]]++;
            c->row[at] = r;
            c->val[at] = m->row_val[k];
        }
    xfree(next);
}

static void csc_release(struct csc *c)
{
    xfree(c->beg);
    xfree(c->row);
    xfree(c->val);
}

/* The column bounds as BOUNDS records (see mps.h). */
static void put_bounds(FILE *f, const char *col, double lb, double ub)
{
    if (lb == ub) {
        put_rec(f, "FX BND", col, lb);
        return;
    }
    if (lb == -HUGE_VAL && ub == HUGE_VAL) {
        fprintf(f, " FR BND %s\n", col);
        return;
    }
    if (lb == -HUGE_VAL)
        fprintf(f, " MI BND %s\n", col);
    else
        put_rec(f, "LO BND", col, lb);
    if (ub == HUGE_VAL)
        fprintf(f, " PL BND %s\n", col);
    else
        put_rec(f, "UP BND", col, ub);
}

/* Writes the sections of the file to f; forms holds each row's form. */
static void put_model(FILE *f, const struct milp *m, const char *name,
                      const char *comment, const struct row_form *forms)
{
    /* a maximisation is written as the minimisation of -objective */
    double sign = m->maximize ? -1.0 : 1.0;
    size_t n_int = 0, n_range = 0, n_split = 0;
    struct csc c;
    char col[32], row[32];
    int in_int = 0;

    for (size_t i = 0; i < m->n_cols; i++)
        n_int += m->col_int[i] != 0;
    for (size_t r = 0; r < m->n_rows; r++) {
        n_range += forms[r].rng > 0;
        n_split += forms[r].split;
    }

    if (comment)
        put_comment(f, comment);
    fprintf(f,
            "* bfsim MILP: %zu rows, %zu columns (%zu integer), %zu "
            "nonzeros\n",
            m->n_rows, m->n_cols, n_int, m->nnz);
    if (m->maximize)
        fputs("* The model maximises: this file minimises its negated "
              "objective\n* (no OBJSENSE: GLPK rejects it, CBC ignores "
              "it); its optimum is minus\n* the model's.\n",
              f);
    if (n_split > 0)
        fprintf(f,
                "* Ranged rows written as two rows, R (lower bound) and U "
                "(upper bound),\n* as no RANGES value gives both bounds "
                "exactly: %zu.\n",
                n_split);
    if (m->obj_offset != 0)
        fputs("* Column OBJCONST, fixed at 1, carries the objective "
              "constant.\n",
              f);
    fprintf(f, "NAME %s\nROWS\n N OBJ\n", name);
    for (size_t r = 0; r < m->n_rows; r++) {
        fprintf(f, " %c %s\n", forms[r].type, name_of(row, 'R', r));
        if (forms[r].split)
            fprintf(f, " L %s\n", name_of(row, 'U', r));
    }

    fputs("COLUMNS\n", f);
    transpose(m, &c);
    for (size_t i = 0; i < m->n_cols; i++) {
        if (m->col_int[i] && !in_int)
            fputs(" MARKER 'MARKER' 'INTORG'\n", f);
        else if (!m->col_int[i] && in_int)
            fputs(" MARKER 'MARKER' 'INTEND'\n", f);
        in_int = m->col_int[i] != 0;
        name_of(col, 'C', i);
        put_rec(f, col, "OBJ", sign * m->obj[i]);
        for (size_t k = c.beg[i]; k < c.beg[i + 1]; k++) {
            put_rec(f, col, name_of(row, 'R', c.row[k]), c.val[k]);
            if (forms[c.row[k]].split)
                put_rec(f, col, name_of(row, 'U', c.row[k]), c.val[k]);
        }
    }
    if (in_int)
        fputs(" MARKER 'MARKER' 'INTEND'\n", f);
    csc_release(&c);
    if (m->obj_offset != 0)
        put_rec(f, "OBJCONST", "OBJ", sign * m->obj_offset);

    fputs("RHS\n", f);
    for (size_t r = 0; r < m->n_rows; r++)
        if (forms[r].type != 'N') {
            put_rec(f, "RHS", name_of(row, 'R', r), forms[r].rhs);
            if (forms[r].split)
                put_rec(f, "RHS", name_of(row, 'U', r), forms[r].ub);
        }
    if (n_range > 0) {
        fputs("RANGES\n", f);
        for (size_t r = 0; r < m->n_rows; r++)
            if (forms[r].rng > 0)
                put_rec(f, "RNG", name_of(row, 'R', r), forms[r].rng);
    }

    fputs("BOUNDS\n", f);
    for (size_t i = 0; i < m->n_cols; i++) {
        name_of(col, 'C', i);
        put_bounds(f, col, m->col_lb[i], m->col_ub[i]);
    }
    if (m->obj_offset != 0)
        put_bounds(f, "OBJCONST", 1, 1);
    fputs("ENDATA\n", f);
}

int mps_write(const struct milp *m, const char *path, const char *name,
              const char *comment, struct bfs_error *e)
{
    struct row_form *forms = NULL;
    struct bfs_error check;
    struct bfs_out out;
    int rc;

    bfs_error_clear(&check);
    rc = milp_check(m, &check);
    if (rc)
        return bfs_fail_at(e, rc, path, 0, "%s", check.msg);
    rc = check_name(name, path, e);
    if (rc)
        return rc;
    forms = xreallocarray(NULL, m->n_rows ? m->n_rows : 1, sizeof *forms);
    for (size_t r = 0; r < m->n_rows; r++)
        row_form(m, r, &forms[r]);
    rc = bfs_out_open(&out, path, e);
    if (rc == 0) {
        put_model(out.fp, m, name, comment, forms);
        rc = bfs_out_commit(&out, e);
    }
    xfree(forms);
    return rc;
}
