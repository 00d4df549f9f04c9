/* mps.h - a model written as a free MPS file, for other MIP solvers.
 *
 * mps_write puts a struct milp into the free (whitespace-separated) MPS
 * format that GLPK (glp_read_mps with GLP_MPS_FILE), CBC, HiGHS, SCIP and
 * Gurobi read, so that bfsim's instances can be taken to them.  The file
 * reads back to the same doubles: every number is printed with %.17g.
 *
 * The file, section by section:
 *
 *   '*' lines   the caller's comment, then a line of sizes and notes on
 *               the two conventions below when they apply;
 *   NAME        the model name;
 *   ROWS        the objective row OBJ (type N) first, then row r as
 *               R<r+1> in seven digits (R0000001, ...): E when lb == ub,
 *               L when only ub is finite, G when only lb is, N when
 *               neither is; when both are finite and differ, G or L with
 *               a RANGES entry that gives both bounds exactly, or, when
 *               no RANGES value does (-2 and 1e-7, say: see mps.c), two
 *               rows with the same coefficients, R<r+1> of type G for lb
 *               and U<r+1> of type L for ub, just after it;
 *   COLUMNS     column i as C<i+1> (C0000001, ...), in order, each with
 *               its objective entry (written even when 0, so that a
 *               column in no row is declared) and its rows in order;
 *               integer columns between MARKER 'INTORG' and 'INTEND'
 *               records;
 *   RHS         one entry per row that is not free (zeros included);
 *   RANGES      the range of each row written with one (above);
 *   BOUNDS      every column's bounds, explicitly: FX; LO and UP; LO and
 *               PL; MI and UP; or FR.  Readers disagree on the default
 *               bounds of an integer column (GLPK and CBC take [0, 1],
 *               some others [0, inf)), so no column is left to a
 *               default;
 *   ENDATA.
 *
 * The RHS and BOUNDS sections are written even when empty: CBC 2.10's
 * reader (CoinUtils 2.11) crashes on a file without an RHS section.
 *
 * Objective sense.  There is no OBJSENSE section, because no form of it
 * works with both of bfsim's backends: GLPK 5.0's reader rejects the
 * file ("invalid indicator record") whether it is written "OBJSENSE" then
 * "    MAX" on the next line, or "OBJSENSE MAX" on one line; CBC 2.10
 * ignores the first ("MAX found after OBJSENSE - Coin ignores") and
 * fails on the second.  Every reader minimises a file without OBJSENSE,
 * so a model that maximises is written as the minimisation of its
 * negated objective (coefficients and constant negated, which is exact):
 * the solutions are the model's, and the optimum of the file is minus
 * the model's.  A comment line at the top says so.
 *
 * Objective constant.  Readers disagree on the RHS entry of the
 * objective row: GLPK 5.0 takes it as the constant itself
 * (glp_get_obj_coef(P, 0) = RHS), while CBC (CoinMpsIO) takes minus it,
 * as do CPLEX, Gurobi, HiGHS and SCIP by their documentation.  Either
 * choice would give one side a wrong objective value, so the objective
 * row has no RHS entry and a nonzero obj_offset (negated for a
 * maximisation, as above) is written as the objective coefficient of one
 * more column, OBJCONST, fixed at 1 and in no row.  Every reader then
 * computes the same objective value; GLPK reads a constant of 0 and
 * n_cols + 1 columns.  When obj_offset is 0 there is no such column.
 *
 * Other readers' habits, for whoever reads the files back:
 *   - a free row (type N, after the objective) is dropped by GLPK and by
 *     CBC, so they read fewer rows than the model has (the rows they keep
 *     keep their names);
 *   - GLPK's reader turns any value below its tol_mps (1e-12 by default)
 *     into 0; pass a glp_mpscp with tol_mps = 0 to keep tiny values;
 *   - glp_get_col_kind reports an integer column with bounds [0, 1] as
 *     GLP_BV.
 */
#ifndef BFS_MPS_H
#define BFS_MPS_H

#include "base/error.h"
#include "solver/milp.h"

/* Writes m to path in free MPS, atomically (bfs_out_open /
 * bfs_out_commit), under the model name name, with comment (may be NULL;
 * each of its lines, split at '\n', becomes a '*' line at the top of the
 * file, control characters other than tabs written as spaces).  path is
 * taken as bfs_out_open takes it ("-" is standard output).  m must
 * pass milp_check.  name must be 1 to 255 printable ASCII characters
 * without spaces and must not begin with '$' (a comment to GLPK).
 * Returns 0; BFS_EINVAL for a malformed model (milp_check) or a bad
 * name; BFS_EIO when the file cannot be written.  The message, naming
 * path, is in e.  Nothing is left at path on failure (a file already
 * there stays as it was). */
int mps_write(const struct milp *m, const char *path, const char *name,
              const char *comment, struct bfs_error *e);

#endif
