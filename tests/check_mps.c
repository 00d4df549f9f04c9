/* check_mps.c - MPS files written by mps_write, read back by other code.
 *
 * The expected values never come from the writer: a file is read back
 * by GLPK's own reader (glp_read_mps) and, when CBC is compiled in, by
 * CBC's (Cbc_readMps, CoinUtils' CoinMpsIO), and what they read is
 * compared with the model that was written, coefficient by coefficient
 * and bound by bound; random models are solved through bfsim's backends
 * and, from the file, by GLPK (glp_simplex + glp_intopt) and CBC
 * directly, and the optima must agree; one model's optimum is worked
 * out by hand.  One file's text is compared with a hand-written copy.
 * The tests that read files need GLPK; without it they are reported as
 * skipped.
 */
#include "config.h"

#include "alloc/alloc.h"
#include "alloc/instance.h"
#include "solver/mps.h"
#include "solver/solver.h"
#include "testutil.h"

#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef HAVE_GLPK
#include <glpk.h>
#endif
#ifdef HAVE_CBC
#include <coin/Cbc_C_Interface.h>
#endif

/* The number of occurrences of word in text. */
static int count_word(const char *text, const char *word)
{
    int n = 0;

    for (const char *p = text; (p = strstr(p, word)); p += strlen(word))
        n++;
    return n;
}

/* Writes m to the temporary file name; the test fails if it cannot, or
 * if the integer markers do not pair up (readers forgive a missing final
 * INTEND, so reading back would not tell). */
static const char *write_tmp(const struct milp *m, const char *name,
                             const char *comment)
{
    const char *path = tu_tmp(name);
    struct bfs_error e;
    char *text;
    int rc;

    bfs_error_clear(&e);
    rc = mps_write(m, path, "bfsim-test", comment, &e);
    ck_assert_msg(rc == 0, "mps_write: %s", e.msg);
    text = tu_slurp(path);
    ck_assert_ptr_nonnull(text);
    ck_assert_int_eq(count_word(text, "'INTORG'"),
                     count_word(text, "'INTEND'"));
    free(text);
    return path;
}

/* The number of entries of the directory dir whose names begin with
 * prefix. */
static int count_prefix(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int n = 0;

    ck_assert_ptr_nonnull(d);
    while ((de = readdir(d)))
        n += strncmp(de->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

/* ---- models ---------------------------------------------------------- */

/* max 3 + 5x + 4y + z over integers 0 <= x, y <= 10 and real
 * 0 <= z <= 2.5, s.t. 6x + 4y <= 24, x + 2y <= 6, 1 <= y + z <= 2.
 * By hand: 6x <= 24 gives x <= 4.  x = 4 forces y = 0 (6x + 4y <= 24),
 * so z <= 2 and the value is 3 + 20 + 2 = 25.  x = 3 allows y <= 1
 * (4y <= 6), z <= 2 - y, value at most 3 + 15 + 4 + 1 = 23 (y = 1, z =
 * 1) or 3 + 15 + 2 = 20 (y = 0).  x <= 2 gives 5x + 4y + z <= 10 + 4y +
 * (2 - y) = 12 + 3y with y <= 2 (y + z <= 2), so at most 3 + 18 = 21.
 * The optimum is 25 at (4, 0, 2); the file, which minimises the negated
 * objective, has optimum -25. */
#define HAND_OPT 25.0
static void hand_model(struct milp *m)
{
    milp_init(m, 1);
    m->obj_offset = 3;
    milp_add_col(m, 0, 10, 1, 5);  /* x */
    milp_add_col(m, 0, 10, 1, 4);  /* y */
    milp_add_col(m, 0, 2.5, 0, 1); /* z */
    milp_row_begin(m, -HUGE_VAL, 24);
    milp_row_add(m, 0, 6);
    milp_row_add(m, 1, 4);
    milp_row_end(m);
    milp_row_begin(m, -HUGE_VAL, 6);
    milp_row_add(m, 0, 1);
    milp_row_add(m, 1, 2);
    milp_row_end(m);
    milp_row_begin(m, 1, 2);
    milp_row_add(m, 1, 1);
    milp_row_add(m, 2, 1);
    milp_row_end(m);
}

#ifdef HAVE_GLPK /* the models only the read-back tests use */

/* Two bounds whose difference, rounded, does not add back to the upper
 * one (lb + (ub - lb) != ub in double), but subtracts back to the lower
 * one: the row must be written as an L row with a range. */
#define L_RANGE_LB (-0x1.98cd21cf319a4p+12)
#define L_RANGE_UB (-0x1.ae2d159f5c5a3p-15)

/* Every kind of row, column and bound, with a constant: minimising
 * (maximize 0) or maximising. */
static void all_kinds(struct milp *m, int maximize)
{
    milp_init(m, maximize);
    m->obj_offset = maximize ? -4.25 : 1.5;
    milp_add_col(m, 2.5, 2.5, 0, 1);                /* 0 fixed */
    milp_add_col(m, -1, 4, 1, -2);                  /* 1 bounded, int */
    milp_add_col(m, 0.5, HUGE_VAL, 0, 0.1);         /* 2 lower only */
    milp_add_col(m, -HUGE_VAL, 3, 1, 3);            /* 3 upper only, int */
    milp_add_col(m, -HUGE_VAL, HUGE_VAL, 0, -0.25); /* 4 free */
    milp_add_col(m, 0, 1, 1, 7);                    /* 5 binary, no row */
    milp_add_col(m, 0, HUGE_VAL, 1, 0.5);           /* 6 int, [0, inf) */
    milp_add_col(m, -3, -3, 1, 0);                  /* 7 fixed int, obj 0 */
    milp_add_col(m, -1e-3, 1e9, 0, 1.0 / 3);        /* 8 bounded */

    milp_row_begin(m, 3, 3); /* equality */
    milp_row_add(m, 0, 1);
    milp_row_add(m, 1, 2);
    milp_row_end(m);
    milp_row_begin(m, -HUGE_VAL, 10); /* <= */
    milp_row_add(m, 1, 1);
    milp_row_add(m, 2, -1);
    milp_row_add(m, 4, 1);
    milp_row_add(m, 8, 0.1);
    milp_row_end(m);
    milp_row_begin(m, -1e-3, HUGE_VAL); /* >= */
    milp_row_add(m, 2, 1);
    milp_row_add(m, 3, 0.3);
    milp_row_add(m, 7, 1);
    milp_row_end(m);
    milp_row_begin(m, 1, 5); /* ranged, as a G row */
    milp_row_add(m, 0, 1);
    milp_row_add(m, 3, 1);
    milp_row_end(m);
    milp_row_begin(m, -HUGE_VAL, HUGE_VAL); /* free */
    milp_row_add(m, 1, 1);
    milp_row_add(m, 4, 1);
    milp_row_end(m);
    milp_row_begin(m, L_RANGE_LB, L_RANGE_UB); /* ranged, as an L row */
    milp_row_add(m, 2, 1);
    milp_row_add(m, 4, 1);
    milp_row_end(m);
    milp_row_begin(m, 0, HUGE_VAL); /* no entries */
    milp_row_end(m);
    milp_row_begin(m, -2, 1e-7); /* ranged, no exact RANGES value */
    milp_row_add(m, 6, 1e-5);
    milp_row_add(m, 8, -1);
    milp_row_end(m);
    /* Ranged, no exact RANGES value: 2^20 times 2^-53 and 1 + 2^-52 (the
     * scale keeps the lower bound above GLPK's tol_mps).  Unscaled: the
     * difference 1 + 2^-53 is no double; 2^-53 + R, for R = 1 or
     * 1 + 2^-52, lies halfway between two doubles and rounds to even (1
     * or 1 + 2^-51), and 1 + 2^-52 - R is exact for R in [0.5, 1 + 2^-52]
     * (Sterbenz), so it is 2^-53 only for R = 1 + 2^-53. */
    milp_row_begin(m, 0x1p-33, 0x1.0000000000001p20);
    milp_row_add(m, 0, -1);
    milp_row_add(m, 5, 4);
    milp_row_end(m);
}

/* 2x = 3 with x integer in [0, 3]: the relaxation is feasible (x = 1.5),
 * the model is not. */
static void infeasible_model(struct milp *m)
{
    milp_init(m, 0);
    milp_add_col(m, 0, 3, 1, 1);
    milp_row_begin(m, 3, 3);
    milp_row_add(m, 0, 2);
    milp_row_end(m);
}

/* A 64-bit LCG (Knuth's MMIX constants); the high bits are the output. */
static uint64_t lcg_state;

static unsigned lcg(unsigned n)
{
    return (unsigned)((tu_lcg(&lcg_state) >> 33) % n);
}

/* A random small MILP from the seed: 5-15 columns (about half integer)
 * with finite bounds in [-5, 10] (some fixed), 3-8 rows of every kind
 * with coefficients in quarters, a constant, either sense.  Finite
 * column bounds keep every instance bounded.  The rows hold at a random
 * integer point within the bounds, so the model is feasible, unless one
 * more row is added: in one model of four, sum x >= sum ub + 1 (the
 * relaxation is infeasible), in another of four 2 x_k = 2 lb_k + 1 for
 * an integer column k (the relaxation is feasible, the model is not). */
static void random_model(struct milp *m, unsigned seed)
{
    double x0[15], a[15], sum_ub = 0;
    int n, rows, bad, k = -1;

    lcg_state = seed;
    milp_init(m, (int)lcg(2));
    m->obj_offset = ((double)lcg(41) - 20) / 8;
    n = 5 + (int)lcg(11);
    for (int i = 0; i < n; i++) {
        double lb = (double)lcg(11) - 5, ub = lb + (double)lcg(8);
        int integer = lcg(2) == 0;
        if (lcg(6) == 0)
            ub = lb;
        x0[i] = lb + (double)lcg((unsigned)(ub - lb) + 1);
        sum_ub += ub;
        if (integer && ub > lb)
            k = i;
        milp_add_col(m, lb, ub, integer, ((double)lcg(41) - 20) / 4);
    }
    rows = 3 + (int)lcg(6);
    for (int r = 0; r < rows; r++) {
        double ax = 0, below = (double)lcg(8) / 4, above = (double)lcg(8) / 4;
        for (int i = 0; i < n; i++) {
            a[i] = lcg(3) == 0 ? ((double)lcg(33) - 16) / 4 : 0;
            ax += a[i] * x0[i]; /* exact: quarters times small integers */
        }
        switch (lcg(5)) {
        case 0:
            milp_row_begin(m, ax, ax);
            break;
        case 1:
            milp_row_begin(m, -HUGE_VAL, ax + above);
            break;
        case 2:
            milp_row_begin(m, ax - below, HUGE_VAL);
            break;
        case 3:
            milp_row_begin(m, ax - below, ax + above);
            break;
        default:
            milp_row_begin(m, -HUGE_VAL, HUGE_VAL);
            break;
        }
        for (int i = 0; i < n; i++)
            if (a[i] != 0)
                milp_row_add(m, i, a[i]);
        milp_row_end(m);
    }
    bad = (int)lcg(4);
    if (bad == 0) {
        milp_row_begin(m, sum_ub + 1, HUGE_VAL);
        for (int i = 0; i < n; i++)
            milp_row_add(m, i, 1);
        milp_row_end(m);
    } else if (bad == 1 && k >= 0) {
        double lb = m->col_lb[k];
        milp_row_begin(m, 2 * lb + 1, 2 * lb + 1);
        milp_row_add(m, k, 2);
        milp_row_end(m);
    }
}

#endif /* HAVE_GLPK */

/* ---- the file's text --------------------------------------------------- */

START_TEST(test_text)
{
    struct milp m;
    const char *path;
    char *text;

    /* max 2 + x0 - 3 x1 + 0 x2, x1 integer: the objective negated */
    milp_init(&m, 1);
    m.obj_offset = 2;
    milp_add_col(&m, 0, 4, 0, 1);
    milp_add_col(&m, -HUGE_VAL, 5, 1, -3);
    milp_add_col(&m, -1, HUGE_VAL, 0, 0);
    milp_row_begin(&m, 1, 3);
    milp_row_add(&m, 0, 1);
    milp_row_add(&m, 1, 0.5);
    milp_row_end(&m);
    milp_row_begin(&m, -HUGE_VAL, 7);
    milp_row_add(&m, 1, 2);
    milp_row_end(&m);
    path = write_tmp(&m, "text.mps", "first line\nsecond\tline\r\n");
    text = tu_slurp(path);
    ck_assert_ptr_nonnull(text);
    ck_assert_str_eq(
        text,
        "* first line\n"
        "* second\tline \n"
        "* bfsim MILP: 2 rows, 3 columns (1 integer), 3 nonzeros\n"
        "* The model maximises: this file minimises its negated objective\n"
        "* (no OBJSENSE: GLPK rejects it, CBC ignores it); its optimum is "
        "minus\n"
        "* the model's.\n"
        "* Column OBJCONST, fixed at 1, carries the objective constant.\n"
        "NAME bfsim-test\n"
        "ROWS\n"
        " N OBJ\n"
        " G R0000001\n"
        " L R0000002\n"
        "COLUMNS\n"
        " C0000001 OBJ -1\n"
        " C0000001 R0000001 1\n"
        " MARKER 'MARKER' 'INTORG'\n"
        " C0000002 OBJ 3\n"
        " C0000002 R0000001 0.5\n"
        " C0000002 R0000002 2\n"
        " MARKER 'MARKER' 'INTEND'\n"
        " C0000003 OBJ 0\n"
        " OBJCONST OBJ -2\n"
        "RHS\n"
        " RHS R0000001 1\n"
        " RHS R0000002 7\n"
        "RANGES\n"
        " RNG R0000001 2\n"
        "BOUNDS\n"
        " LO BND C0000001 0\n"
        " UP BND C0000001 4\n"
        " MI BND C0000002\n"
        " UP BND C0000002 5\n"
        " LO BND C0000003 -1\n"
        " PL BND C0000003\n"
        " FX BND OBJCONST 1\n"
        "ENDATA\n");
    free(text);
    milp_release(&m);
}
END_TEST

/* ---- errors ------------------------------------------------------------ */

START_TEST(test_unwritable)
{
    const char *dir = tu_dir("unwritable");
    const char *path = tu_path_in(dir, "no-such-dir/model.mps");
    struct bfs_error e;
    struct milp m;

    hand_model(&m);
    bfs_error_clear(&e);
    ck_assert_int_eq(mps_write(&m, path, "x", NULL, &e), BFS_EIO);
    ck_assert_msg(strstr(e.msg, path) != NULL, "message: %s", e.msg);
    ck_assert(!tu_exists(path));
    ck_assert_int_eq(count_prefix(dir, ""), 2); /* "." and ".." */
    milp_release(&m);
}
END_TEST

/* Refused models and names: an error naming the file, and a file
 * already at the path left as it was, with no temporary file beside. */
START_TEST(test_refused)
{
    const char *dir = tu_dir("refused");
    const char *path = tu_path_in(dir, "model.mps");
    static const char *const bad_names[] = {"", "two words", "$comment",
                                            "tab\there", "caf\xc3\xa9"};
    char longname[300];
    struct bfs_error e;
    struct milp m;
    char *text;

    tu_write_at(path, "old\n");
    hand_model(&m);
    for (size_t k = 0; k < sizeof bad_names / sizeof *bad_names; k++) {
        bfs_error_clear(&e);
        ck_assert_int_eq(mps_write(&m, path, bad_names[k], NULL, &e),
                         BFS_EINVAL);
        ck_assert_msg(strstr(e.msg, path) != NULL, "message: %s", e.msg);
    }
    bfs_error_clear(&e);
    ck_assert_int_eq(mps_write(&m, path, NULL, NULL, &e), BFS_EINVAL);
    memset(longname, 'a', 256);
    longname[256] = '\0';
    bfs_error_clear(&e);
    ck_assert_int_eq(mps_write(&m, path, longname, NULL, &e), BFS_EINVAL);
    longname[255] = '\0'; /* 255 characters are accepted */
    bfs_error_clear(&e);
    ck_assert_int_eq(mps_write(&m, path, longname, NULL, &e), 0);
    tu_write_at(path, "old\n");

    /* a malformed model (milp_check) */
    m.obj[0] = nan("");
    bfs_error_clear(&e);
    ck_assert_int_eq(mps_write(&m, path, "x", NULL, &e), BFS_EINVAL);
    ck_assert_msg(strstr(e.msg, path) != NULL, "message: %s", e.msg);
    m.obj[0] = 5;

    text = tu_slurp(path);
    ck_assert_str_eq(text, "old\n");
    free(text);
    ck_assert_int_eq(count_prefix(dir, "model.mps."), 0);
    milp_release(&m);
}
END_TEST

#ifdef HAVE_GLPK

/* ---- reading back with GLPK ------------------------------------------- */

/* The file at path read by glp_read_mps (defaults: NULL parameters). */
static glp_prob *glpk_read(const char *path)
{
    glp_prob *P = glp_create_prob();

    glp_term_out(GLP_OFF);
    ck_assert_int_eq(glp_read_mps(P, GLP_MPS_FILE, NULL, path), 0);
    glp_create_index(P);
    return P;
}

/* The GLPK type of bounds lb, ub. */
static int glpk_type(double lb, double ub)
{
    if (lb == ub)
        return GLP_FX;
    if (lb == -HUGE_VAL)
        return ub == HUGE_VAL ? GLP_FR : GLP_UP;
    return ub == HUGE_VAL ? GLP_LO : GLP_DB;
}

/* Asserts that GLPK's bounds (type, lb, ub) are exactly lb..ub. */
static void same_bounds(int type, double glb, double gub, double lb, double ub,
                        const char *what)
{
    ck_assert_msg(type == glpk_type(lb, ub), "%s: type %d", what, type);
    if (lb > -HUGE_VAL)
        ck_assert_msg(glb == lb, "%s: lb %a, want %a", what, glb, lb);
    if (ub < HUGE_VAL)
        ck_assert_msg(gub == ub, "%s: ub %a, want %a", what, gub, ub);
}

/* Asserts that GLPK's row i (> 0) has the bounds lb..ub exactly and the
 * coefficients of m's row r. */
static void same_row(glp_prob *P, int i, const struct milp *m, size_t r,
                     double lb, double ub)
{
    size_t len = m->row_beg[r + 1] - m->row_beg[r];
    int *ind = xcalloc(len + 1, sizeof *ind);
    double *val = xcalloc(len + 1, sizeof *val);
    char what[64];

    snprintf(what, sizeof what, "row %zu (GLPK's %d)", r, i);
    ck_assert_msg(i > 0, "%s missing", what);
    same_bounds(glp_get_row_type(P, i), glp_get_row_lb(P, i),
                glp_get_row_ub(P, i), lb, ub, what);
    ck_assert_int_eq(glp_get_mat_row(P, i, ind, val), (int)len);
    /* GLPK stores a row's entries in no particular order */
    for (size_t k = 0; k < len; k++) {
        int col = m->row_ind[m->row_beg[r] + k], found = 0;
        for (size_t q = 1; q <= len; q++)
            if (ind[q] == col + 1) {
                ck_assert_msg(val[q] == m->row_val[m->row_beg[r] + k],
                              "%s, column %d: %a", what, col, val[q]);
                found = 1;
            }
        ck_assert_msg(found, "%s: column %d missing", what, col);
    }
    xfree(val);
    xfree(ind);
}

/* Asserts that P, read from m's file, is m: sense, objective (negated
 * for a maximisation), constant column, every column's kind and bounds,
 * every row that is not free with its bounds and coefficients, as one
 * row or as two (R and U) when a range was split; free rows are dropped
 * by GLPK.  Returns the number of split rows. */
static int same_as_glpk(const struct milp *m, glp_prob *P)
{
    double sign = m->maximize ? -1 : 1;
    size_t n_free = 0, n_int = 0, n_split = 0;
    int extra = m->obj_offset != 0;
    char name[32];

    ck_assert_str_eq(glp_get_prob_name(P), "bfsim-test");
    ck_assert_int_eq(glp_get_obj_dir(P), GLP_MIN);
    ck_assert_int_eq(glp_get_num_cols(P), (int)m->n_cols + extra);
    ck_assert(glp_get_obj_coef(P, 0) == 0);
    for (size_t i = 0; i < m->n_cols; i++) {
        int j, kind;
        snprintf(name, sizeof name, "C%07zu", i + 1);
        j = glp_find_col(P, name);
        ck_assert_int_eq(j, (int)i + 1);
        ck_assert_msg(glp_get_obj_coef(P, j) == sign * m->obj[i],
                      "%s: objective %a", name, glp_get_obj_coef(P, j));
        same_bounds(glp_get_col_type(P, j), glp_get_col_lb(P, j),
                    glp_get_col_ub(P, j), m->col_lb[i], m->col_ub[i], name);
        kind = glp_get_col_kind(P, j);
        if (m->col_int[i])
            ck_assert_msg(kind == GLP_IV || kind == GLP_BV, "%s", name);
        else
            ck_assert_msg(kind == GLP_CV, "%s", name);
        n_int += m->col_int[i];
    }
    ck_assert_int_eq(glp_get_num_int(P), (int)n_int);
    if (extra) {
        int j = glp_find_col(P, "OBJCONST");
        ck_assert_int_eq(j, (int)m->n_cols + 1);
        ck_assert_int_eq(glp_get_col_type(P, j), GLP_FX);
        ck_assert(glp_get_col_lb(P, j) == 1);
        ck_assert_int_eq(glp_get_col_kind(P, j), GLP_CV);
        ck_assert(glp_get_obj_coef(P, j) == sign * m->obj_offset);
        ck_assert_int_eq(glp_get_mat_col(P, j, NULL, NULL), 0);
    }
    for (size_t r = 0; r < m->n_rows; r++) {
        double lb = m->row_lb[r], ub = m->row_ub[r];
        int i, u;
        snprintf(name, sizeof name, "R%07zu", r + 1);
        i = glp_find_row(P, name);
        snprintf(name, sizeof name, "U%07zu", r + 1);
        u = glp_find_row(P, name);
        if (lb == -HUGE_VAL && ub == HUGE_VAL) {
            ck_assert_int_eq(i, 0);
            ck_assert_int_eq(u, 0);
            n_free++;
        } else if (u == 0) {
            same_row(P, i, m, r, lb, ub);
        } else {
            /* a range written as two rows */
            ck_assert(lb > -HUGE_VAL && ub < HUGE_VAL && lb < ub);
            same_row(P, i, m, r, lb, HUGE_VAL);
            same_row(P, u, m, r, -HUGE_VAL, ub);
            n_split++;
        }
    }
    ck_assert_int_eq(glp_get_num_rows(P), (int)(m->n_rows - n_free + n_split));
    return (int)n_split;
}

START_TEST(test_round_trip)
{
    struct milp m;
    const char *path;
    glp_prob *P;
    char *text;

    all_kinds(&m, _i);
    path = write_tmp(&m, "kinds.mps", "bfsim check_mps\nall kinds");
    P = glpk_read(path);
    /* Rows 7 and 8 only are split (1..5 and the L_RANGE bounds have
     * exact ranges).  Row 7: no double R gives -2 + R == 1e-7 (the sums
     * are multiples of 2^-51 for R near 2) nor 1e-7 - R == -2. */
    ck_assert_int_eq(same_as_glpk(&m, P), 2);
    ck_assert_int_gt(glp_find_row(P, "U0000008"), 0);
    ck_assert_int_gt(glp_find_row(P, "U0000009"), 0);
    glp_delete_prob(P);
    text = tu_slurp(path);
    ck_assert_ptr_nonnull(text);
    ck_assert(strncmp(text, "* bfsim check_mps\n* all kinds\n", 30) == 0);
    free(text);
    milp_release(&m);
    glp_free_env();
}
END_TEST

/* Empty models: no rows, no columns, or neither, with and without a
 * constant. */
START_TEST(test_empty)
{
    struct milp m;
    glp_prob *P;

    milp_init(&m, _i % 2);
    if (_i / 2 == 1)
        m.obj_offset = -2.5;
    if (_i / 2 == 2)
        milp_add_col(&m, -1, 1, 1, 3);
    if (_i / 2 == 3) {
        milp_row_begin(&m, -1, 2);
        milp_row_end(&m);
        milp_row_begin(&m, -HUGE_VAL, HUGE_VAL);
        milp_row_end(&m);
    }
    P = glpk_read(write_tmp(&m, "empty.mps", NULL));
    same_as_glpk(&m, P);
    glp_delete_prob(P);
    milp_release(&m);
    glp_free_env();
}
END_TEST

/* ---- same optimum ------------------------------------------------------ */

/* The optimum of the file at path by GLPK directly (glp_simplex, then
 * glp_intopt): returns 1 with the objective in *obj, or 0 when the model
 * is infeasible. */
static int glpk_optimum(const char *path, double *obj)
{
    glp_prob *P = glpk_read(path);
    glp_smcp sm;
    glp_iocp io;
    int ok = 0, st;

    glp_init_smcp(&sm);
    sm.msg_lev = GLP_MSG_OFF;
    glp_init_iocp(&io);
    io.msg_lev = GLP_MSG_OFF;
    ck_assert_int_eq(glp_simplex(P, &sm), 0);
    st = glp_get_status(P);
    if (st == GLP_OPT) {
        ck_assert_int_eq(glp_intopt(P, &io), 0);
        st = glp_mip_status(P);
        ck_assert_msg(st == GLP_OPT || st == GLP_NOFEAS, "MIP status %d", st);
        if (st == GLP_OPT) {
            *obj = glp_mip_obj_val(P);
            ok = 1;
        }
    } else
        ck_assert_msg(st == GLP_NOFEAS, "LP status %d", st);
    glp_delete_prob(P);
    return ok;
}

#ifdef HAVE_CBC
/* The optimum of the file at path by CBC directly (CoinMpsIO's reader):
 * returns 1 with the objective in *obj, or 0 when infeasible. */
static int cbc_optimum(const char *path, double *obj)
{
    Cbc_Model *cm = Cbc_newModel();
    int ok;

    Cbc_setLogLevel(cm, 0);
    ck_assert_int_eq(Cbc_readMps(cm, path), 0);
    ck_assert(Cbc_getObjSense(cm) == 1);
    Cbc_setParameter(cm, "ratioGap", "0");
    Cbc_setParameter(cm, "allowableGap", "0");
    Cbc_solve(cm);
    ok = Cbc_isProvenOptimal(cm);
    if (ok)
        *obj = Cbc_getObjValue(cm);
    else
        ck_assert(Cbc_isProvenInfeasible(cm));
    Cbc_deleteModel(cm);
    return ok;
}
#endif

/* Whether a and b agree to 1e-9, relative (absolute near 0). */
static int agree(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1, fmax(fabs(a), fabs(b)));
}

/* Solves m with each backend compiled in and its file with GLPK (and
 * CBC) directly; asserts they all agree.  Returns 1 with the optimum in
 * *opt (the model's sense and value), or 0 when all say infeasible. */
static int same_optimum(const struct milp *m, const char *file, double *opt)
{
    const char *path = write_tmp(m, file, NULL);
    double sign = m->maximize ? -1 : 1, v = 0, *x;
    int feasible = glpk_optimum(path, &v);
    struct solver_opts o;

    if (feasible)
        v *= sign; /* the file's optimum, in the model's sense */
#ifdef HAVE_CBC
    {
        double w = 0;
        int f = cbc_optimum(path, &w);
        ck_assert_int_eq(f, feasible);
        if (f)
            ck_assert_msg(agree(sign * w, v), "CBC file %.17g, GLPK file %.17g",
                          sign * w, v);
    }
#endif
    solver_opts_default(&o);
    o.gap_rel = 0;
    o.gap_abs = 0;
    o.isolate = SOLVER_ISOLATE_NO;
    x = xcalloc(m->n_cols + 1, sizeof *x);
    for (size_t b = 0; b < solver_count(); b++) {
        struct solver *s = NULL;
        struct solve_result r;
        struct bfs_error e;

        bfs_error_clear(&e);
        ck_assert_int_eq(solver_create(solver_backend_name(b), &o, &s, &e), 0);
        memset(&r, 0, sizeof r);
        r.x = x;
        ck_assert_msg(solver_solve(s, m, &r, &e) == 0, "%s", e.msg);
        if (feasible) {
            ck_assert_msg(r.status == SOLVE_OPTIMAL, "%s: %s",
                          solver_backend_name(b), solve_status_name(r.status));
            ck_assert_msg(agree(r.objective, v), "%s %.17g, GLPK file %.17g",
                          solver_backend_name(b), r.objective, v);
        } else
            ck_assert_msg(r.status == SOLVE_INFEASIBLE, "%s: %s",
                          solver_backend_name(b), solve_status_name(r.status));
        solver_destroy(s);
    }
    xfree(x);
    glp_free_env();
    *opt = v;
    return feasible;
}

START_TEST(test_hand_optimum)
{
    struct milp m;
    double v;

    hand_model(&m);
    ck_assert_int_eq(same_optimum(&m, "hand.mps", &v), 1);
    ck_assert_msg(agree(v, HAND_OPT), "optimum %.17g", v);
    milp_release(&m);

    infeasible_model(&m);
    ck_assert_int_eq(same_optimum(&m, "infeasible.mps", &v), 0);
    milp_release(&m);
}
END_TEST

/* The random models: loop index i is seed i + 1.  test_random_mix
 * checks that the seeds give both feasible and infeasible instances. */
#define N_RANDOM 16

START_TEST(test_random_optimum)
{
    struct milp m;
    double v;
    char file[32];

    random_model(&m, (unsigned)_i + 1);
    snprintf(file, sizeof file, "random-%d.mps", _i);
    same_optimum(&m, file, &v);
    milp_release(&m);
}
END_TEST

/* Among the random models, some are feasible and some infeasible, so
 * that both ways of agreeing are exercised. */
START_TEST(test_random_mix)
{
    int n_feasible = 0;

    for (int i = 0; i < N_RANDOM; i++) {
        struct milp m;
        double v;
        random_model(&m, (unsigned)i + 1);
        n_feasible += glpk_optimum(write_tmp(&m, "mix.mps", NULL), &v);
        milp_release(&m);
    }
    glp_free_env();
    ck_assert_int_ge(n_feasible, 4);
    ck_assert_int_le(n_feasible, N_RANDOM - 2);
}
END_TEST

/* The models the MILP allocator writes (alloc_opts.mps_dir), count and
 * node model, with and without dp's start, on each backend compiled in:
 * every file whose comment says the direct solve proved it optimal has,
 * read back by GLPK and solved, minus that objective (the file minimises
 * the negation), and every one proved infeasible is infeasible. */
static const char *const model_instances[] = {
    "tests/data/branch.instance.json",
    /* two of the bundled solver corpus's instances (datasets/
     * solver-corpus.tar.gz), small enough for GLPK to solve their node
     * model from the file in milliseconds */
    "tests/data/corpus-b1024-img-evt-000068.json",
    "tests/data/corpus-b256-1000J-evt-000036.json",
};

START_TEST(test_allocator_models)
{
    const char *inst = model_instances[_i / 8];
    const char *backend = solver_backend_name((size_t)(_i % 8) / 4);
    const char *model = _i % 4 / 2 ? "node" : "count";
    int start = _i % 2;
    char dir[4096], spec[64], path[8400], line[1024];
    struct instance in;
    struct allocator *a;
    struct alloc_opts o;
    struct alloc_result r;
    struct bfs_error e;
    int counts[64], checked = 0, first = 0;
    DIR *d;
    struct dirent *de;

    if (!backend)
        return; /* a second backend is not compiled in */
    snprintf(dir, sizeof dir, "%s", tu_tmp("models"));
    snprintf(path, sizeof path, "rm -rf '%s' && mkdir '%s'", dir, dir);
    ck_assert_int_eq(system(path), 0);
    bfs_error_clear(&e);
    ck_assert_msg(instance_read(tu_src(inst), &in, &e) == 0, "%s", e.msg);
    ck_assert_uint_le(in.p.n_jobs, 64);
    alloc_opts_default(&o);
    o.name = "milp";
    o.model = model;
    snprintf(spec, sizeof spec, "%s,start=%s", backend, start ? "yes" : "no");
    o.solver = spec;
    o.mps_dir = dir;
    /* every stage must end proven (a loaded valgrind run once hit the
     * default 10 s in a tie-break stage): answers, not speed */
    o.time_limit = 600.0;
    ck_assert_int_eq(allocator_create(&o, &a, &e), 0);
    allocator_set_tag(a, "m");
    memset(&r, 0, sizeof r);
    r.counts = counts;
    ck_assert_int_eq(allocator_solve(a, &in.p, &r, &e), 0);
    ck_assert_int_eq(r.status, SOLVE_OPTIMAL);
    ck_assert_uint_ge(r.mip_solves, 1);
    d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    while ((de = readdir(d)) != NULL) {
        FILE *f;
        char status[32];
        double v = nan(""), opt;
        if (!strstr(de->d_name, ".mps"))
            continue;
        first += strcmp(de->d_name, "m.1.mps") == 0;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        f = fopen(path, "r");
        ck_assert_ptr_nonnull(f);
        status[0] = '\0';
        while (fgets(line, sizeof line, f) && line[0] == '*') {
            const char *p = strstr(line, "* solved by ");
            if (p && (p = strchr(p, ':')) != NULL)
                ck_assert_int_ge(
                    sscanf(p, ": %31[a-z-], objective %lf", status, &v), 1);
        }
        fclose(f);
        ck_assert_msg(status[0], "%s: no status line", path);
        if (strcmp(status, "optimal,") == 0 || strcmp(status, "optimal") == 0) {
            ck_assert_msg(glpk_optimum(path, &opt), "%s: infeasible", path);
            ck_assert_msg(agree(opt, -v), "%s: GLPK %.17g, solve %.17g", path,
                          opt, v);
            checked++;
        } else if (strncmp(status, "infeasible", 10) == 0) {
            ck_assert_msg(!glpk_optimum(path, &opt), "%s: feasible", path);
            checked++;
        }
    }
    closedir(d);
    ck_assert_int_eq(first, 1);
    /* every MILP was written, and proven */
    ck_assert_uint_eq((size_t)checked, r.mip_solves);
    allocator_free(a);
    instance_release(&in);
}
END_TEST

#endif /* HAVE_GLPK */

static Suite *suite(void)
{
    Suite *s = suite_create("mps");
    TCase *tc = tcase_create("mps");

    tcase_add_test(tc, test_text);
    tcase_add_test(tc, test_unwritable);
    tcase_add_test(tc, test_refused);
#ifdef HAVE_GLPK
    tcase_add_loop_test(tc, test_round_trip, 0, 2);
    tcase_add_loop_test(tc, test_empty, 0, 8);
    tcase_add_test(tc, test_hand_optimum);
    tcase_add_loop_test(tc, test_random_optimum, 0, N_RANDOM);
    tcase_add_test(tc, test_random_mix);
    tcase_add_loop_test(
        tc, test_allocator_models, 0,
        (int)(8 * (sizeof model_instances / sizeof *model_instances)));
#else
    tu_skip_name[tu_n_skip] = "GLPK read-back tests";
    tu_skip_why[tu_n_skip++] = "GLPK not compiled in";
#endif
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(suite());
}
