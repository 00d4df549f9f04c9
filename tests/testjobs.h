/* testjobs.h - assertions on job sets shared by the Check programs.
 *
 * Header-only (static inline), like testutil.h.
 */
#ifndef BFS_TESTJOBS_H
#define BFS_TESTJOBS_H

#include <check.h>

#include "formats/jobs.h"

/* Asserts that job j equals job r in name, submission, bounds, work,
 * costs and curve (every breakpoint's N, P and O, compared exactly);
 * node types and features are left to the caller. */
static inline void tu_assert_same_job(const struct job *j, const struct job *r)
{
    ck_assert_str_eq(j->name, r->name);
    ck_assert(j->tsub == r->tsub && j->jmin == r->jmin && j->jmax == r->jmax &&
              j->pmax == r->pmax && j->tcup == r->tcup && j->tcdw == r->tcdw);
    ck_assert_uint_eq(j->curve.n, r->curve.n);
    for (size_t k = 0; k < j->curve.n; k++)
        ck_assert(j->curve.N[k] == r->curve.N[k] &&
                  j->curve.P[k] == r->curve.P[k] &&
                  j->curve.O[k] == r->curve.O[k]);
}

#endif
