/* testsweep.h - what the sweep and worker tests share: the tiny trace
 * and job set their sweeps run on, and the machine-dependent columns of
 * a results table.
 *
 * Header-only (static functions), like testutil.h.
 */
#ifndef BFS_TESTSWEEP_H
#define BFS_TESTSWEEP_H

#include "testutil.h"

#include <string.h>

/* Writes dir/tiny.trace and dir/tiny.jobs: two nodes, both idle at
 * T = 1612988400 and both taken back at T+100; one job A (Tsub T, 1..2
 * nodes, no rescale cost, P(1) = 10, P(2) = 20).  In the compatible mode
 * from T with the even share, A holds every node of the pool from T
 * (--nodes 1: one node, rate 10; --nodes 2: two, rate 20) until the only
 * event, T+100, where the pool empties: 1 event, 100 * 10 = 1000 or
 * 100 * 20 = 2000 samples, 100 or 200 idle node-seconds, all of them
 * allocated.  Tfwd does not enter the even share, so it changes nothing;
 * tfwd -1 is refused by the replay, so such a run fails every time. */
static inline void tu_tiny_inputs(const char *dir)
{
    tu_write_at(tu_path_in(dir, "tiny.trace"), "bfsim-trace 1\nnode a\nnode b\n"
                                               "1612988400 +0 +1\n"
                                               "1612988500 -0 -1\n");
    tu_write_at(tu_path_in(dir, "tiny.jobs"),
                "# bfsim-jobs 1\n"
                "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                "A,1612988400,1,2,1000000000,0,0,0:0:0 1:10:10 2:20:20\n");
}

/* How many machine-dependent columns a results table has. */
#define TU_MACHINE_COLS 7

/* Whether name is a machine-dependent column of a results table, one of
 * the only ones that may differ between two runs of the same options. */
static inline int tu_machine_column(const char *name)
{
    static const char *const t[TU_MACHINE_COLS] = {
        "wall_seconds",        "events_per_second", "peak_rss_kib",
        "solve_seconds_max",   "solve_seconds_p95", "solve_seconds_median",
        "solve_seconds_total",
    };
    for (size_t i = 0; i < TU_MACHINE_COLS; i++)
        if (strcmp(name, t[i]) == 0)
            return 1;
    return 0;
}

#endif
