/* check_faults.c - faults injected where it is cheap: a full disk, an
 * unwritable folder, a solver that crashes or hits its time limit on a
 * chosen call, SIGKILL of a replay; and the few-byte inputs that ask
 * for millions of nodes.  Whatever happens, `bfsim replay` leaves a
 * whole result or no result under the outputs' final names: it writes
 * each output to a temporary file beside it and renames them all at the
 * end (all or none).
 *
 * A full disk is a file-size limit (RLIMIT_FSIZE) set in the child with
 * SIGXFSZ ignored, so that a write past it fails with EFBIG as on a full
 * disk.  An unwritable folder is a path under a regular file (FILE/x.csv),
 * which fails for root too, unlike a directory of mode 0555.  The solver
 * crash is the solver's test switch (SOLVER_TEST_CRASH_ENV, read by the
 * parent at each solve and obeyed by the isolated worker, which raises
 * SIGSEGV), set around one chosen call by a recording sink; its value
 * "timeout" makes the call stop at its time limit before any search.
 *
 * SIGKILL cannot be caught: a killed replay leaves its temporary files
 * (NAME.tmp.XXXXXX beside each output) but never a final name; the
 * resumed-sweep case is in check_sweep.c (test_sigkill). */
#include "config.h"

#include "engine/replay.h"
#include "solver/solver.h"
#include "testutil.h"

#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TRACE "traces/summit-2021-02.trace.gz"
#define JOBS10 "datasets/hps-shufflenet-10J.jobs"
#define JOBS1000 "datasets/hps-shufflenet-1000J.jobs.gz"

/* Starts bfsim with argv (argv[0] ignored) in the background, standard
 * error to errpath, a file-size limit of fsize bytes when fsize > 0
 * (SIGXFSZ ignored).  Returns the child's pid. */
static pid_t start(char **argv, long fsize, const char *errpath)
{
    pid_t pid = fork();

    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, 2) < 0)
            _exit(127);
        if (fsize > 0) {
            struct rlimit rl = {(rlim_t)fsize, (rlim_t)fsize};
            signal(SIGXFSZ, SIG_IGN);
            if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
                _exit(127);
        }
        execv(tu_bfsim(), argv);
        _exit(127);
    }
    return pid;
}

/* Runs bfsim as start() does and returns its wait status. */
static int run(char **argv, long fsize, const char *errpath)
{
    pid_t pid = start(argv, fsize, errpath);
    int ws;

    ck_assert_int_eq(waitpid(pid, &ws, 0), pid);
    return ws;
}

/* The number of entries of dir (not . and ..); those whose name does not
 * contain ".tmp." are counted in *final. */
static int entries(const char *dir, int *final)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int n = 0;

    ck_assert_ptr_nonnull(d);
    *final = 0;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        n++;
        if (!strstr(de->d_name, ".tmp."))
            (*final)++;
    }
    closedir(d);
    return n;
}

/* A fresh empty directory under the test's temporary one. */
static const char *fresh_dir(const char *name)
{
    const char *d = tu_tmp(name);
    ck_assert_int_eq(mkdir(d, 0777), 0);
    return d;
}

static const char *in(const char *dir, const char *name)
{
    char *p = tu_keep(xmalloc(strlen(dir) + strlen(name) + 2));
    sprintf(p, "%s/%s", dir, name);
    return p;
}

/* ---- a full disk ------------------------------------------------------- */

/* The outputs of a full replay of the bundled trace with the 10 bundled
 * jobs, with a 20 KiB file-size limit: the step log alone is larger (one
 * row per event, some 30 000 events), so some write fails.  Loop index:
 * 0 = the three text outputs, 1 = HDF5 only (with the summary), 2 = all
 * four.  The exit is 1 (not a signal: HDF5's shutdown once crashed after
 * a failed write), the message names an output and says the write
 * failed, and the output folder is empty: no output, no temporary file. */
START_TEST(test_full_disk)
{
    char name[32];
    const char *dir, *err, *s, *j, *m, *h;
    char *argv[20], *msg;
    int n = 0, ws, final;

    snprintf(name, sizeof name, "full%d", _i);
    dir = fresh_dir(name);
    err = in(dir, "../err");
    s = in(dir, "s.csv");
    j = in(dir, "j.csv");
    m = in(dir, "m.json");
    h = in(dir, "h.h5");
    argv[n++] = tu_arg("bfsim");
    argv[n++] = tu_arg("replay");
    argv[n++] = tu_arg("--allocator");
    argv[n++] = tu_arg("dp");
    argv[n++] = tu_arg("--trace");
    argv[n++] = tu_arg(tu_src(TRACE));
    argv[n++] = tu_arg("--jobs");
    argv[n++] = tu_arg(tu_src(JOBS10));
    argv[n++] = tu_arg("-q");
    argv[n++] = tu_arg("--summary");
    argv[n++] = tu_arg(m);
    if (_i != 1) {
        argv[n++] = tu_arg("--steps");
        argv[n++] = tu_arg(s);
        argv[n++] = tu_arg("--job-log");
        argv[n++] = tu_arg(j);
    }
    if (_i != 0) {
        argv[n++] = tu_arg("-o");
        argv[n++] = tu_arg(h);
    }
    argv[n] = NULL;
    ws = run(argv, 20 * 1024, err);
    msg = tu_slurp(err);
    ck_assert_msg(WIFEXITED(ws), "killed by signal %d; stderr: %s",
                  WIFSIGNALED(ws) ? WTERMSIG(ws) : 0, msg);
    ck_assert_msg(WEXITSTATUS(ws) == 1, "exit %d: %s", WEXITSTATUS(ws), msg);
    /* the step log is the first to pass 20 KiB when it is asked for;
     * otherwise the HDF5 file (the summary is a few hundred bytes) */
    ck_assert_msg(strstr(msg, _i == 1 ? h : s), "stderr: %s", msg);
    ck_assert_msg(strstr(msg, "write"), "stderr: %s", msg);
    ck_assert_int_eq(entries(dir, &final), 0);
    xfree(msg);
}
END_TEST

/* ---- an unwritable folder ------------------------------------------------ */

/* One output under a regular file (FILE/x): the replay fails before it
 * starts, exit 1, naming that output, and the other outputs, which could
 * be written, are not left either. */
START_TEST(test_unwritable)
{
    static const char *const bad[] = {"j.csv", "h.h5", "m.json"};
    char name[32];
    const char *dir, *file, *err, *p[3], *s;
    char *argv[20], *msg, want[4200];
    int n = 0, ws, final;

    snprintf(name, sizeof name, "unwritable%d", _i);
    dir = fresh_dir(name);
    file = in(dir, "FILE");
    tu_write(in(name, "FILE"), "a regular file\n");
    err = in(dir, "../err");
    s = in(dir, "s.csv");
    for (int k = 0; k < 3; k++)
        p[k] = in(k == _i ? file : dir, bad[k]);
    argv[n++] = tu_arg("bfsim");
    argv[n++] = tu_arg("replay");
    argv[n++] = tu_arg("--allocator");
    argv[n++] = tu_arg("dp");
    argv[n++] = tu_arg("--nodes");
    argv[n++] = tu_arg("16");
    argv[n++] = tu_arg("-q");
    argv[n++] = tu_arg("--steps");
    argv[n++] = tu_arg(s);
    argv[n++] = tu_arg("--job-log");
    argv[n++] = tu_arg(p[0]);
    argv[n++] = tu_arg("-o");
    argv[n++] = tu_arg(p[1]);
    argv[n++] = tu_arg("--summary");
    argv[n++] = tu_arg(p[2]);
    argv[n] = NULL;
    ws = run(argv, 0, err);
    msg = tu_slurp(err);
    ck_assert_msg(WIFEXITED(ws) && WEXITSTATUS(ws) == 1, "status %d: %s", ws,
                  msg);
    snprintf(want, sizeof want, "%s: ", p[_i]);
    ck_assert_msg(strstr(msg, want) && strstr(msg, "Not a directory"),
                  "stderr: %s", msg);
    /* only FILE is left in dir */
    ck_assert_int_eq(entries(dir, &final), 1);
    ck_assert_int_eq(final, 1);
    xfree(msg);
}
END_TEST

/* ---- a solver that crashes on a chosen call -------------------------------
 */

/* The recording sink: the status of every solve, and the crash switch set
 * for solve number crash_at only (the switch is read when a solve starts;
 * the sink sees a solve when it has ended). */
struct solves {
    size_t n, crash_at;
    int status[64];
};

static int record_solve(void *arg, const struct rec_solve *rs)
{
    struct solves *ss = arg;

    ck_assert_uint_lt(ss->n, 64);
    ss->status[ss->n++] = rs->status;
    if (ss->n == ss->crash_at)
        setenv(SOLVER_TEST_CRASH_ENV, "1", 1);
    else
        unsetenv(SOLVER_TEST_CRASH_ENV);
    return 0;
}

/* The five-row trace and two jobs of check_replay.c's test_dump_instances:
 * the pool is never empty and a job is always admitted, so there is a
 * solve at each trace row and at B's arrival, six in all, whatever the
 * allocations.  The third one crashes (SIGSEGV in the solver's worker
 * process): it is recorded as failed, the replay goes on to the end (not
 * partial, all six events' solves made) and the later solves are optimal
 * again. */
START_TEST(test_solver_crash)
{
    const char *trace = tu_write("crash.trace", "bfsim-trace 1\n"
                                                "node n0\nnode n1\nnode n2\n"
                                                "1612988400 +0\n"
                                                "1612988420 +1 +2\n"
                                                "1612988423 -1\n"
                                                "1612988450 +1\n"
                                                "1612988500 -0 -1\n");
    const char *jobs =
        tu_write("crash.jobs", "# bfsim-jobs 1\n"
                               "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                               "A,1612988400,1,2,1e9,5,3,0:0:0 1:10:10 "
                               "2:18:18\n"
                               "B,1612988410,1,3,1e9,2,1,0:0:0 1:7:7 "
                               "3:20:20\n");
    struct solves ss = {.crash_at = 2};
    struct rec_sink sink = {.arg = &ss, .solve = record_solve};
    struct rec_sink *sinks[] = {&sink};
    struct replay_opts o;
    struct replay_stats st;
    struct bfs_error e;
    char spec[64];

    snprintf(spec, sizeof spec, "%s,isolate=yes", solver_backend_name(_i));
    replay_opts_default(&o);
    o.alloc.name = "milp";
    o.alloc.solver = spec;
    o.trace_path = trace;
    o.jobs_path = jobs;
    o.sinks = sinks;
    o.n_sinks = 1;
    unsetenv(SOLVER_TEST_CRASH_ENV);
    bfs_error_clear(&e);
    ck_assert_msg(replay_run(&o, &st, &e) == 0, "%s", e.msg);
    unsetenv(SOLVER_TEST_CRASH_ENV);
    ck_assert_int_eq(st.partial, 0);
    ck_assert_uint_eq(ss.n, 6);
    ck_assert_uint_eq(st.solves, 6);
    for (size_t k = 0; k < ss.n; k++)
        ck_assert_msg(ss.status[k] == (k == 2 ? SOLVE_FAILED : SOLVE_OPTIMAL),
                      "solve %zu: %s", k, solve_status_name(ss.status[k]));
    ck_assert_uint_eq(st.solves_by_status[SOLVE_FAILED], 1);
    ck_assert_uint_eq(st.solves_by_status[SOLVE_OPTIMAL], 5);
}
END_TEST

/* ---- a solver that hits its time limit on a chosen call -------------------
 */

/* The records of one replay of the crash test's trace and jobs: the
 * status of every solve (the switch SOLVER_TEST_CRASH_ENV=timeout set
 * for allocator solve number timeout_at only), the step rows, and the
 * time at which job A (index 0) first holds nodes. */
struct tl_rec {
    size_t n, timeout_at, n_steps;
    int status[64];
    struct rec_step steps[64];
    int64_t a_first;
};

static int tl_solve(void *arg, const struct rec_solve *rs)
{
    struct tl_rec *tr = arg;

    ck_assert_uint_lt(tr->n, 64);
    tr->status[tr->n++] = rs->status;
    if (tr->n + 1 == tr->timeout_at)
        setenv(SOLVER_TEST_CRASH_ENV, "timeout", 1);
    else
        unsetenv(SOLVER_TEST_CRASH_ENV);
    return 0;
}

static int tl_step(void *arg, const struct rec_step *st)
{
    struct tl_rec *tr = arg;

    ck_assert_uint_lt(tr->n_steps, 64);
    tr->steps[tr->n_steps++] = *st;
    return 0;
}

static int tl_alloc(void *arg, const struct rec_alloc *ra)
{
    struct tl_rec *tr = arg;

    if (ra->job == 0 && ra->count > 0 && tr->a_first < 0)
        tr->a_first = ra->time;
    return 0;
}

#define TL_T 1612988400
#define TL_TRACE                                                               \
    "bfsim-trace 1\nnode n0\nnode n1\nnode n2\n1612988400 +0\n"                \
    "1612988420 +1 +2\n1612988423 -1\n1612988450 +1\n1612988500 -0 -1\n"
#define TL_JOBS                                                                \
    "# bfsim-jobs 1\njob,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"                \
    "A,1612988400,1,2,1e9,5,3,0:0:0 1:10:10 2:18:18\n"                         \
    "B,1612988410,1,3,1e9,2,1,0:0:0 1:7:7 3:20:20\n"

/* Replays TL_TRACE / TL_JOBS (default mode) with milp on backend b, the
 * given model and --apply-feasible, the first timeout_at-th solve (1-based;
 * 0: none) hitting its time limit. */
static void tl_replay(size_t b, const char *model, int apply_feasible,
                      size_t timeout_at, struct tl_rec *tr,
                      struct replay_stats *st)
{
    struct rec_sink sink = {
        .arg = tr, .solve = tl_solve, .step = tl_step, .alloc = tl_alloc};
    struct rec_sink *sinks[] = {&sink};
    struct replay_opts o;
    struct bfs_error e;

    memset(tr, 0, sizeof *tr);
    tr->timeout_at = timeout_at;
    tr->a_first = -1;
    replay_opts_default(&o);
    o.alloc.name = "milp";
    o.alloc.solver = solver_backend_name(b);
    o.alloc.model = model;
    o.apply_feasible = apply_feasible;
    o.trace_path = tu_write("tl.trace", TL_TRACE);
    o.jobs_path = tu_write("tl.jobs", TL_JOBS);
    o.sinks = sinks;
    o.n_sinks = 1;
    if (timeout_at == 1)
        setenv(SOLVER_TEST_CRASH_ENV, "timeout", 1);
    else
        unsetenv(SOLVER_TEST_CRASH_ENV);
    bfs_error_clear(&e);
    ck_assert_msg(replay_run(&o, st, &e) == 0, "%s", e.msg);
    unsetenv(SOLVER_TEST_CRASH_ENV);
}

/* The first solve (event 0 at T: A admitted, the pool n0) hits its time
 * limit; the policy (tools/DESIGN.md, default mode step 5): an optimal
 * answer is applied, a feasible one (a time-limited incumbent) only with
 * --apply-feasible, otherwise the map is kept.
 *
 * The untouched replay gives n0 to A at T (its only admissible use of a
 * node: Jmin 1, 10 samples/s, no cost since A was idle).  The forced
 * limit comes before any search, so the incumbent is the model's start:
 * the node model on GLPK has none: "no-solution"; both models on CBC,
 * and the count model on GLPK, start from dp's optimum (A on n0):
 * "feasible" with that answer.
 *
 * Kept map (no-solution, or feasible without --apply-feasible): A stays
 * idle from T to T+10.  At T+10 (B's arrival) the next solve is optimal
 * and gives n0 to A (10 samples/s against B's 7, both idle, so no cost):
 * the state from then on equals the untouched replay's except A's
 * samples (Pmax 1e9 is far off, so they decide nothing).  Hence the
 * first step row (T+10) has Thr 0 instead of A's 10 s x 10 = 100, then
 * rate 10 with one job on one node as in the untouched replay; every
 * later row is the same; samples_trained is 100 less and the node-seconds
 * of the pool (1 x 20 + 3 x 3 + 2 x 27 + 3 x 50 = 233) the same.
 * Applied (feasible with --apply-feasible): the untouched replay exactly.
 * Every case: six solves, the first with the forced status, the other
 * five optimal; the replay is not partial. */
START_TEST(test_solver_timeout)
{
    static const struct {
        const char *model;
        int apply;
    } cases[] = {{"count", 0}, {"node", 0}, {"node", 1}};
    size_t b = (size_t)_i / 3;
    const char *model = cases[_i % 3].model;
    int apply = cases[_i % 3].apply;
    int feasible = strcmp(model, "count") == 0 ||
                   strcmp(solver_backend_name(b), "cbc") == 0;
    int applied = feasible && apply;
    struct tl_rec *base = tu_keep(xcalloc(1, sizeof *base));
    struct tl_rec *tr = tu_keep(xcalloc(1, sizeof *tr));
    struct replay_stats sb, st;

    tl_replay(b, model, apply, 0, base, &sb);
    tl_replay(b, model, apply, 1, tr, &st);
    /* the untouched replay, by hand: A on n0 from T, 100 samples by T+10 */
    ck_assert_int_eq(base->a_first, TL_T);
    ck_assert_uint_eq(base->n_steps, 5);
    ck_assert_double_eq(base->steps[0].thr, 100.0);
    ck_assert_double_eq(base->steps[0].rate, 10.0);
    ck_assert_double_eq(sb.idle_node_seconds, 233.0);
    ck_assert_uint_eq(sb.solves_by_status[SOLVE_OPTIMAL], 6);

    ck_assert_int_eq(st.partial, 0);
    ck_assert_uint_eq(tr->n, 6);
    ck_assert_uint_eq(st.solves, 6);
    ck_assert_msg(tr->status[0] ==
                      (feasible ? SOLVE_FEASIBLE : SOLVE_NO_SOLUTION),
                  "solve 0: %s", solve_status_name(tr->status[0]));
    for (size_t k = 1; k < tr->n; k++)
        ck_assert_msg(tr->status[k] == SOLVE_OPTIMAL, "solve %zu: %s", k,
                      solve_status_name(tr->status[k]));
    ck_assert_uint_eq(st.solves_by_status[SOLVE_OPTIMAL], 5);
    ck_assert_uint_eq(st.solves_by_status[SOLVE_FEASIBLE], feasible);
    ck_assert_uint_eq(st.solves_by_status[SOLVE_NO_SOLUTION], !feasible);
    ck_assert_uint_eq(st.solves_by_status[SOLVE_FAILED], 0);
    ck_assert_uint_eq(tr->n_steps, 5);
    ck_assert_int_eq(tr->a_first, applied ? TL_T : TL_T + 10);
    ck_assert_double_eq(tr->steps[0].thr, applied ? 100.0 : 0.0);
    ck_assert_double_eq(tr->steps[0].rate, 10.0);
    ck_assert_uint_eq(tr->steps[0].njrun, 1);
    ck_assert_uint_eq(tr->steps[0].nnrun, 1);
    for (size_t k = 1; k < tr->n_steps; k++) {
        ck_assert_int_eq(tr->steps[k].time, base->steps[k].time);
        ck_assert_double_eq(tr->steps[k].thr, base->steps[k].thr);
        ck_assert_double_eq(tr->steps[k].rate, base->steps[k].rate);
        ck_assert_double_eq(tr->steps[k].rescost, base->steps[k].rescost);
        ck_assert_double_eq(tr->steps[k].precost, base->steps[k].precost);
        ck_assert_uint_eq(tr->steps[k].nnrun, base->steps[k].nnrun);
    }
    ck_assert_double_eq(st.samples_trained,
                        sb.samples_trained - (applied ? 0.0 : 100.0));
    ck_assert_double_eq(st.idle_node_seconds, 233.0);
    /* counted for the warning: one call unproven, at event 0 (T); its
     * answer dropped when it had one and it was not applied */
    ck_assert_uint_eq(sb.solves_unproven, 0);
    ck_assert_uint_eq(sb.solves_dropped, 0);
    ck_assert_uint_eq(st.solves_unproven, 1);
    ck_assert_uint_eq(st.unproven_first_evt, 0);
    ck_assert_int_eq(st.unproven_first_time, TL_T);
    ck_assert_uint_eq(st.solves_dropped, feasible && !apply);
}
END_TEST

/* The command line warns of every call not proven optimal, with its
 * counts and the first event, and --strict makes that exit status 1:
 * every call of TL_TRACE / TL_JOBS on the count model hits its limit at
 * once (feasible, from dp's start) and none is applied; with
 * --apply-feasible all six are. */
START_TEST(test_unproven_warning)
{
    char args[8192], *out, *err;
    const char *trace = tu_write("w.trace", TL_TRACE);
    const char *jobs = tu_write("w.jobs", TL_JOBS);

    if (!tu_bfsim_built() || solver_count() == 0)
        return;
    setenv(SOLVER_TEST_CRASH_ENV, "timeout", 1);
    snprintf(args, sizeof args,
             "replay -q --trace %s --jobs %s --allocator milp --summary "
             "/dev/null",
             trace, jobs);
    ck_assert_int_eq(tu_bfsim_output(args, &out, &err), 0);
    ck_assert_msg(strstr(err, "warning: 6 of 6 allocator calls were not "
                              "proven optimal (0 failed, 6 stopped at the "
                              "time limit with an answer, 0 without one, 0 "
                              "infeasible), the first at event 0 "
                              "(2021-02-10 20:20:00 UTC); 6 answers found "
                              "at the limit were not applied") != NULL,
                  "%s", err);
    free(out);
    free(err);
    snprintf(args, sizeof args,
             "replay -q --trace %s --jobs %s --allocator milp --summary "
             "/dev/null --strict",
             trace, jobs);
    ck_assert_int_eq(tu_bfsim_output(args, &out, &err), 1);
    free(out);
    free(err);
    snprintf(args, sizeof args,
             "replay -q --trace %s --jobs %s --allocator milp --summary "
             "/dev/null --apply-feasible",
             trace, jobs);
    ck_assert_int_eq(tu_bfsim_output(args, &out, &err), 0);
    ck_assert_msg(strstr(err, "; 0 answers found at the limit were not "
                              "applied\n") != NULL,
                  "%s", err);
    free(out);
    free(err);
    unsetenv(SOLVER_TEST_CRASH_ENV);
}
END_TEST

/* `bfsim replay` with every solve hitting its time limit (the switch in
 * the environment of the whole run; the count model: "feasible" each
 * time, with dp's optimum as its start, not applied without
 * --apply-feasible): no map is ever changed, so no job ever holds a
 * node.  By hand:
 * five step rows (T+10, +20, +23, +50, +100; event 0 at T has none), each
 * with Thr 0, rate 0, no job running and the pool 1, 3, 2, 3, 1; the
 * summary counts six solves, all feasible, samples_trained 0, the
 * pool's 233 node-seconds, not partial; the job log has A and B admitted,
 * never started, 0 samples.  Exit 0, every output whole. */
START_TEST(test_solver_timeout_cli)
{
    const char *dir = fresh_dir("tlcli");
    const char *s = in(dir, "s.csv"), *j = in(dir, "j.csv");
    const char *m = in(dir, "m.json");
    char *argv[] = {tu_arg("bfsim"),
                    tu_arg("replay"),
                    tu_arg("--allocator"),
                    tu_arg("milp"),
                    tu_arg("--trace"),
                    tu_arg(tu_write("tlcli.trace", TL_TRACE)),
                    tu_arg("--jobs"),
                    tu_arg(tu_write("tlcli.jobs", TL_JOBS)),
                    tu_arg("-q"),
                    tu_arg("--steps"),
                    tu_arg(s),
                    tu_arg("--job-log"),
                    tu_arg(j),
                    tu_arg("--summary"),
                    tu_arg(m),
                    NULL};
    static const char *const pools[] = {"1", "3", "2", "3", "1"};
    char *msg, *steps, *jlog, *sum, *line, *next;
    int ws, final, row = 0;

    setenv(SOLVER_TEST_CRASH_ENV, "timeout", 1);
    ws = run(argv, 0, in(dir, "../tlcli.err"));
    unsetenv(SOLVER_TEST_CRASH_ENV);
    msg = tu_slurp(in(dir, "../tlcli.err"));
    ck_assert_msg(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "status %d: %s", ws,
                  msg);
    ck_assert_int_eq(entries(dir, &final), 3);
    ck_assert_int_eq(final, 3);
    steps = tu_slurp(s);
    line = strchr(steps, '\n') + 1; /* past the header */
    for (; *line; line = next, row++) {
        char want[128];
        next = strchr(line, '\n');
        ck_assert_ptr_nonnull(next);
        *next++ = '\0';
        ck_assert_int_lt(row, 5);
        /* evtTime,Thr,Rate,ReScost,evt,Nleft,Npre,Njoin,nJob,nNd,nJrun,
         * nNrun,PreCost */
        snprintf(want, sizeof want, ",0.000000,0.000000,0.000000,%d,", row + 1);
        ck_assert_msg(strstr(line, want), "row %d: %s", row, line);
        snprintf(want, sizeof want, ",2,%s,0,0,0.000000", pools[row]);
        ck_assert_msg(strstr(line, want), "row %d: %s", row, line);
    }
    ck_assert_int_eq(row, 5);
    jlog = tu_slurp(j);
    ck_assert_msg(strstr(jlog, "\nA,2021-02-10 20:20:00,2021-02-10 20:20:00,"
                               ",,,0,0,0,0,0,0,0,0\n"),
                  "%s", jlog);
    ck_assert_msg(strstr(jlog, "\nB,2021-02-10 20:20:10,2021-02-10 20:20:10,"
                               ",,,0,0,0,0,0,0,0,0\n"),
                  "%s", jlog);
    sum = tu_slurp(m);
    ck_assert_msg(strstr(sum, "\"partial\": false"), "%s", sum);
    ck_assert_msg(strstr(sum, "\"solves\": 6,"), "%s", sum);
    ck_assert_msg(strstr(sum, "\"optimal\": 0,"), "%s", sum);
    ck_assert_msg(strstr(sum, "\"feasible\": 6,"), "%s", sum);
    ck_assert_msg(strstr(sum, "\"samples_trained\": 0.0,"), "%s", sum);
    ck_assert_msg(strstr(sum, "\"idle_node_seconds\": 233.0,"), "%s", sum);
    xfree(msg);
    xfree(steps);
    xfree(jlog);
    xfree(sum);
}
END_TEST

/* ---- small inputs that ask for a huge machine ----------------------------
 */

/* The few-byte inputs, through `bfsim convert`: each asks for
 * millions of nodes (a 14-byte host list for 3,222,223 hosts, NNodes
 * 11624779, an SWF header's MaxNodes 11624779), more than the documented
 * limit --max-nodes (default 2^20 = 1048576).  Each is refused before
 * anything proportional to the size is allocated: exit 1, the message
 * names the file and line, the number asked for, the limit and the
 * option that raises it (or --machine-nodes, which states the size), and
 * no output is left.  The time is not asserted. */
START_TEST(test_huge_machine)
{
    static const struct {
        const char *from, *name, *text, *want;
    } c[] = {
        {"slurm", "hl.sacct",
         "JobID|Start|End|NodeList\n"
         "1|2021-01-01T00:00:00|2021-01-01T01:00:00|a[1-3222222,5]\n",
         "hl.sacct:2: host list 'a[1-3222222,5]': more than 1048576 hosts "
         "(the limit --max-nodes sets)"},
        {"slurm", "nn.sacct",
         "JobID|Start|End|NNodes\n"
         "1|2021-01-01T00:00:00|2021-01-01T01:00:00|11624779\n",
         "nn.sacct:2: NNodes 11624779 is more than --max-nodes 1048576, the "
         "largest machine bfsim infers from a log: give the machine's size "
         "with --machine-nodes"},
        {"swf", "mn.swf",
         "; MaxNodes: 11624779\n"
         "1 0 0 100 4 -1 -1 4 -1 -1 1 1 1 1 1 1 -1 -1\n",
         "mn.swf: the machine would have 11624779 nodes (header MaxNodes), "
         "more than --max-nodes 1048576"},
    };
    char name[32];
    const char *dir, *out, *err;
    char *msg;
    int ws, final;

    snprintf(name, sizeof name, "huge%d", _i);
    dir = fresh_dir(name);
    out = in(dir, "out.trace");
    err = in(dir, "../huge.err");
    {
        char *argv[] = {tu_arg("bfsim"),
                        tu_arg("convert"),
                        tu_arg("--from"),
                        tu_arg(c[_i].from),
                        tu_arg(tu_write(c[_i].name, c[_i].text)),
                        tu_arg("-o"),
                        tu_arg(out),
                        tu_arg("-q"),
                        NULL};
        ws = run(argv, 0, err);
    }
    msg = tu_slurp(err);
    ck_assert_msg(WIFEXITED(ws) && WEXITSTATUS(ws) == 1, "status %d: %s", ws,
                  msg);
    ck_assert_msg(strstr(msg, c[_i].want), "stderr: %s", msg);
    ck_assert_int_eq(entries(dir, &final), 0);
    xfree(msg);
}
END_TEST

/* ---- SIGKILL ------------------------------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A replay of the bundled trace with the 1000 bundled jobs (many seconds)
 * is killed by SIGKILL 0.3 s after its outputs' temporary files appear,
 * in the middle of writing them: no final name exists afterwards (only
 * the temporary files, which nothing can remove after SIGKILL). */
START_TEST(test_sigkill)
{
    const char *dir = fresh_dir("kill");
    const char *h = in(dir, "h.h5"), *s = in(dir, "s.csv");
    const char *j = in(dir, "j.csv"), *m = in(dir, "m.json");
    char *argv[] = {tu_arg("bfsim"),
                    tu_arg("replay"),
                    tu_arg("--allocator"),
                    tu_arg("dp"),
                    tu_arg("--trace"),
                    tu_arg(tu_src(TRACE)),
                    tu_arg("--jobs"),
                    tu_arg(tu_src(JOBS1000)),
                    tu_arg("--max-jobs"),
                    tu_arg("100"),
                    tu_arg("-q"),
                    tu_arg("--steps"),
                    tu_arg(s),
                    tu_arg("--job-log"),
                    tu_arg(j),
                    tu_arg("--summary"),
                    tu_arg(m),
                    tu_arg("-o"),
                    tu_arg(h),
                    NULL};
    double t0;
    pid_t pid;
    int ws, final, n = 0;

    pid = start(argv, 0, in(dir, "../kill.err"));
    t0 = now_s();
    while ((n = entries(dir, &final)) < 4 && now_s() - t0 < 60)
        usleep(2000);
    ck_assert_int_eq(n, 4);
    usleep(300000);
    ck_assert_int_eq(kill(pid, SIGKILL), 0);
    ck_assert_int_eq(waitpid(pid, &ws, 0), pid);
    ck_assert(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGKILL);
    ck_assert_int_eq(entries(dir, &final), 4);
    ck_assert_int_eq(final, 0);
    ck_assert(!tu_exists(h) && !tu_exists(s) && !tu_exists(j) && !tu_exists(m));
}
END_TEST

static Suite *faults_suite(void)
{
    Suite *s = suite_create("faults");
    TCase *tc = tcase_create("faults");

    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_full_disk, 0, 3);
    tcase_add_loop_test(tc, test_unwritable, 0, 3);
    if (solver_count() > 0) {
        tcase_add_loop_test(tc, test_solver_crash, 0, (int)solver_count());
        tcase_add_loop_test(tc, test_solver_timeout, 0,
                            3 * (int)solver_count());
        tcase_add_test(tc, test_unproven_warning);
        tcase_add_test(tc, test_solver_timeout_cli);
    }
    tcase_add_loop_test(tc, test_huge_machine, 0, 3);
    tcase_add_test(tc, test_sigkill);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(faults_suite());
}
