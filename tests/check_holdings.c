/* check_holdings.c - the HDF5 per-node allocation table /node_holdings
 * (formats/holdings.c through formats/h5out.c): a hand-worked schedule
 * of two jobs on four nodes read back with the HDF5 C API, and on the
 * Summit trace every job's summed (end - start) against the node-seconds
 * of the job log (which the engine integrates from its counts), and
 * against the Batsim-style jobs.csv written from the same holdings. */
#include "config.h"

#include "testjson.h"
#include "testutil.h"

#include "formats/holdings.h"

#include <check.h>
#include <hdf5.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define T 1612988400

/* Runs "bfsim ARGS" quietly; returns the exit status. */
static int bfsim(const char *args)
{
    char *cmd = xmalloc(strlen(args) + 4096);
    int st;

    sprintf(cmd, "%s %s >/dev/null 2>&1", tu_bfsim(), args);
    st = system(cmd);
    free(cmd);
    ck_assert(WIFEXITED(st));
    return WEXITSTATUS(st);
}

struct nh {
    int64_t node, job, start, end;
};

/* Reads table name of path (/node_holdings, or /node_idle when job is
 * 0: its rows get job -1), by field name; *n gets the row count.  Returns
 * the rows (owned by the caller). */
static struct nh *read_rows(const char *path, const char *name, int job,
                            size_t *n)
{
    hid_t f, d, sp, t;
    hsize_t dims[1];
    struct nh *rows;
    char *units = NULL;
    hid_t a, at;

    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    ck_assert_int_ge(f, 0);
    d = H5Dopen2(f, name, H5P_DEFAULT);
    ck_assert_int_ge(d, 0);
    sp = H5Dget_space(d);
    ck_assert_int_eq(H5Sget_simple_extent_dims(sp, dims, NULL), 1);
    *n = (size_t)dims[0];
    rows = xcalloc(*n + 1, sizeof *rows);
    t = H5Tcreate(H5T_COMPOUND, sizeof(struct nh));
    H5Tinsert(t, "node", offsetof(struct nh, node), H5T_NATIVE_INT64);
    if (job)
        H5Tinsert(t, "job", offsetof(struct nh, job), H5T_NATIVE_INT64);
    for (size_t i = 0; i < *n; i++)
        rows[i].job = -1;
    H5Tinsert(t, "start", offsetof(struct nh, start), H5T_NATIVE_INT64);
    H5Tinsert(t, "end", offsetof(struct nh, end), H5T_NATIVE_INT64);
    if (*n)
        ck_assert_int_ge(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows), 0);
    /* the same time units as the other tables */
    a = H5Aopen(d, "time_units", H5P_DEFAULT);
    ck_assert_int_ge(a, 0);
    at = H5Aget_type(a);
    ck_assert_int_ge(H5Aread(a, at, &units), 0);
    ck_assert_str_eq(units, "seconds since 1970-01-01 00:00:00 UTC");
    H5free_memory(units);
    H5Tclose(at);
    H5Aclose(a);
    H5Tclose(t);
    H5Sclose(sp);
    H5Dclose(d);
    H5Fclose(f);
    return rows;
}

static struct nh *read_holdings(const char *path, size_t *n)
{
    return read_rows(path, "node_holdings", 1, n);
}

/* Four nodes.  T: nodes 0 and 1 idle; T+100: 2 and 3 join; T+200: 0
 * leaves; T+300: the rest leave.  Job A (1..4 nodes, rate n samples/s,
 * never done) from T; job B (1..2 nodes, rate 10 n, 1000 samples) from
 * T+100.  Costs are 0.
 *   T:     A takes the idle {0, 1}.
 *   T+100: pool of 4.  B=2, A=2 gives 20 + 2 = 22 (B=1, A=3: 13), so B
 *          takes the new {2, 3}, A keeps {0, 1}.
 *   T+150: B has done 2 x 10 x 50 = 1000 samples and ends; A, alone,
 *          grows to 4 by taking {2, 3}.
 *   T+200: node 0 leaves A.  T+300: the rest leave.
 * Node holdings in order of end, then node:
 *   node 2 B [100,150), node 3 B [100,150), node 0 A [0,200),
 *   nodes 1 A [0,300), 2 A [150,300), 3 A [150,300)   (times - T).
 * Per job: A 200 + 300 + 150 + 150 = 800 = 2 x 150 + 4 x 50 + 3 x 100;
 * B 50 + 50 = 100 = 2 x 50.
 * Idle intervals (/node_idle), the trace's own: node 0 [0,200), then
 * nodes 1 [0,300), 2 [100,300), 3 [100,300). */
START_TEST(test_hand)
{
    const char *trace = tu_write("t.trace", "bfsim-trace 1\n"
                                            "node a\nnode b\nnode c\nnode d\n"
                                            "1612988400 +0 +1\n"
                                            "1612988500 +2 +3\n"
                                            "1612988600 -0\n"
                                            "1612988700 -1 -2 -3\n");
    const char *jobs = tu_write(
        "ab.jobs", "# bfsim-jobs 1\n"
                   "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                   "A,1612988400,1,4,1e9,0,0,0:0:0 1:1:1 4:4:4\n"
                   "B,1612988500,1,2,1000,0,0,0:0:0 1:10:10 2:20:20\n");
    const char *h5 = tu_tmp("hand.h5");
    static const struct nh want[] = {
        {2, 1, T + 100, T + 150}, {3, 1, T + 100, T + 150},
        {0, 0, T, T + 200},       {1, 0, T, T + 300},
        {2, 0, T + 150, T + 300}, {3, 0, T + 150, T + 300},
    };
    static const struct nh want_idle[] = {
        {0, -1, T, T + 200},
        {1, -1, T, T + 300},
        {2, -1, T + 100, T + 300},
        {3, -1, T + 100, T + 300},
    };
    char args[4096];
    struct nh *got;
    size_t n;

    snprintf(args, sizeof args,
             "replay -q --allocator dp --trace %s --jobs %s -o %s "
             "--summary /dev/null",
             trace, jobs, h5);
    ck_assert_int_eq(bfsim(args), 0);
    got = read_holdings(h5, &n);
    ck_assert_uint_eq(n, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(got[i].node, want[i].node);
        ck_assert_int_eq(got[i].job, want[i].job);
        ck_assert_int_eq(got[i].start, want[i].start);
        ck_assert_int_eq(got[i].end, want[i].end);
    }
    free(got);
    got = read_rows(h5, "node_idle", 0, &n);
    ck_assert_uint_eq(n, sizeof want_idle / sizeof want_idle[0]);
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(got[i].node, want_idle[i].node);
        ck_assert_int_eq(got[i].job, -1);
        ck_assert_int_eq(got[i].start, want_idle[i].start);
        ck_assert_int_eq(got[i].end, want_idle[i].end);
    }
    free(got);
}
END_TEST

/* ---- the tracker alone, with and without the map's change list ---- */

struct hlog {
    char buf[1024];
};

static void hlog_add(struct hlog *l, const char *s)
{
    size_t n = strlen(l->buf);

    snprintf(l->buf + n, sizeof l->buf - n, "%s;", s);
}

static int cb_job(void *arg, size_t j, int64_t start, int64_t end,
                  const uint32_t *nodes, size_t k)
{
    char s[128];
    size_t n;

    n = (size_t)snprintf(s, sizeof s, "J%zu %lld-%lld", j, (long long)start,
                         (long long)end);
    for (size_t i = 0; i < k; i++)
        n += (size_t)snprintf(s + n, sizeof s - n, "%s%u", i ? "," : " ",
                              (unsigned)nodes[i]);
    hlog_add(arg, s);
    return 0;
}

static int cb_node(void *arg, size_t i, size_t j, int64_t start, int64_t end)
{
    char s[64];

    snprintf(s, sizeof s, "N%zu j%zu %lld-%lld", i, j, (long long)start,
             (long long)end);
    hlog_add(arg, s);
    return 0;
}

static int cb_idle(void *arg, size_t i, int64_t start, int64_t end)
{
    char s[64];

    snprintf(s, sizeof s, "I%zu %lld-%lld", i, (long long)start,
             (long long)end);
    hlog_add(arg, s);
    return 0;
}

/* Four nodes, two jobs, four maps (times 0, 10, 20, 30):
 *   t=0:  owner [0 0 - -], pool {0 1 2};
 *   t=10: nodes 1 and 2 go to job 1, node 3 joins the pool (free):
 *         owner [0 1 1 -], pool {0 1 2 3}; listed changes {3 2 1}
 *         (unordered);
 *   t=20: nothing changes; an empty list;
 *   t=30: node 0 leaves the pool: owner [- 1 1 -], pool {1 2 3}; listed
 *         {3 0}, node 3 unchanged (a superset is allowed).
 * Worked by hand: at t=10 job 0's holding {0,1} closes [0,10) and node
 * 1's holding by job 0 closes [0,10) (node 2 was free: nothing); at t=20
 * nothing; at t=30 job 0's holding {0} closes [10,30), node 0's by job 0
 * [0,30) and node 0's idle interval [0,30).  The end (at t=30) closes
 * job 1's {1,2} [10,30), nodes 1 and 2 held by job 1 [10,30), and the
 * idle intervals of nodes 1, 2 [0,30) and 3 [10,30).  Without the lists
 * (the tracker compares whole maps) the reports are the same. */
START_TEST(test_change_list)
{
    static const int32_t own[4][4] = {
        {0, 0, -1, -1}, {0, 1, 1, -1}, {0, 1, 1, -1}, {-1, 1, 1, -1}};
    static const uint32_t pool[4][4] = {
        {0, 1, 2}, {0, 1, 2, 3}, {0, 1, 2, 3}, {1, 2, 3}};
    static const size_t n_pool[4] = {3, 4, 4, 3};
    static const uint8_t inp[4][4] = {
        {1, 1, 1, 0}, {1, 1, 1, 1}, {1, 1, 1, 1}, {0, 1, 1, 1}};
    static const uint32_t chg[4][4] = {{0, 1, 2, 3}, {3, 2, 1}, {0}, {3, 0}};
    static const size_t n_chg[4] = {4, 3, 0, 2};
    const char *want = "J0 0-10 0,1;N1 j0 0-10;J0 10-30 0;N0 j0 0-30;"
                       "I0 0-30;J1 10-30 1,2;N1 j1 10-30;N2 j1 10-30;"
                       "I1 0-30;I2 0-30;I3 10-30;";
    int listed = _i;
    struct hlog log = {{0}};
    struct hold_cb cb = {&log, cb_job, cb_node, cb_idle};
    struct holdings *h = holdings_new(&cb);

    for (size_t e = 0; e < 4; e++) {
        struct rec_nodes m = {.evt = e,
                              .time = 10 * (int64_t)e,
                              .n = 4,
                              .owner = own[e],
                              .n_jobs = 2,
                              .pool = pool[e],
                              .n_pool = n_pool[e]};
        if (listed) {
            m.changed = chg[e];
            m.n_changed = n_chg[e];
            m.in_pool = inp[e];
        }
        ck_assert_int_eq(holdings_update(h, &m), 0);
    }
    ck_assert_int_eq(holdings_end(h), 0);
    ck_assert_str_eq(log.buf, want);
    holdings_free(h);
}
END_TEST

struct job_ns {
    char name[64];
    double log, batsim;
};

/* The Summit trace (32 nodes, a day and a half, the 1000 ShuffleNet
 * jobs), in both modes: per job, the summed (end - start) of its rows in
 * /node_holdings equals the job log's node_seconds and the Batsim
 * jobs.csv's summed (finish - start) x nodes; rows are non-empty, within
 * the subset, and a node is never held by two jobs at once.  The summed
 * (end - start) of /node_idle is the summary's idle_node_seconds, and a
 * node is held only while it is idle in the trace. */
START_TEST(test_summit)
{
    static const char *const modes[] = {"--allocator dp",
                                        "--compat bftrainer --allocator even"};
    const char *h5 = tu_tmp("summit.h5"), *log = tu_tmp("summit-log.csv"),
               *bat = tu_tmp("summit-batsim.csv"), *sum = tu_tmp("summit.json");
    char args[8192], line[65536];
    struct job_ns *t = xcalloc(2000, sizeof *t);
    double *h5ns = xcalloc(2000, sizeof *h5ns);
    int64_t last_end[32];
    size_t n_jobs = 0, n;
    struct nh *rows;
    FILE *f;

    snprintf(args, sizeof args,
             "replay -q %s --nodes 32 --trace %s --jobs %s --end "
             "'2021-02-12 00:00:00' -o %s --job-log %s --batsim-jobs %s "
             "--summary %s",
             modes[_i], tu_src("traces/summit-2021-02.trace.gz"),
             tu_src("datasets/hps-shufflenet-1000J.jobs.gz"), h5, log, bat,
             sum);
    ck_assert_int_eq(bfsim(args), 0);

    /* the job log, in job-set order: row k is job index k */
    f = fopen(log, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    while (fgets(line, sizeof line, f)) {
        char *fld[16];
        line[strcspn(line, "\n")] = '\0';
        ck_assert_uint_eq(bfs_split(line, ',', fld, 16), 14);
        ck_assert_uint_lt(n_jobs, 2000);
        snprintf(t[n_jobs].name, sizeof t[n_jobs].name, "%s", fld[0]);
        t[n_jobs++].log = atof(fld[7]); /* node_seconds */
    }
    fclose(f);
    ck_assert_uint_eq(n_jobs, 1000);

    /* the Batsim rows, by workload_name */
    f = fopen(bat, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    while (fgets(line, sizeof line, f)) {
        char *fld[10];
        size_t k;
        line[strcspn(line, "\n")] = '\0';
        ck_assert_uint_eq(bfs_split(line, ',', fld, 10), 9);
        for (k = 0; k < n_jobs && strcmp(t[k].name, fld[1]) != 0; k++)
            ;
        ck_assert_uint_lt(k, n_jobs);
        t[k].batsim += atof(fld[5]) * atof(fld[3]);
    }
    fclose(f);

    rows = read_holdings(h5, &n);
    ck_assert_uint_gt(n, 100);
    for (size_t i = 0; i < 32; i++)
        last_end[i] = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_ge(rows[i].node, 0);
        ck_assert_int_lt(rows[i].node, 32);
        ck_assert_int_ge(rows[i].job, 0);
        ck_assert_int_lt(rows[i].job, (int64_t)n_jobs);
        ck_assert_int_lt(rows[i].start, rows[i].end);
        /* rows come in order of end: a node's next row starts after the
         * end of its previous one */
        ck_assert_int_ge(rows[i].start, last_end[rows[i].node]);
        if (i)
            ck_assert_int_ge(rows[i].end, rows[i - 1].end);
        last_end[rows[i].node] = rows[i].end;
        h5ns[rows[i].job] += (double)(rows[i].end - rows[i].start);
    }
    for (size_t k = 0; k < n_jobs; k++) {
        ck_assert_msg(fabs(h5ns[k] - t[k].log) < 1e-6,
                      "%s: %g node-s in /node_holdings, %g in the job log",
                      t[k].name, h5ns[k], t[k].log);
        ck_assert_msg(fabs(h5ns[k] - t[k].batsim) < 1e-6,
                      "%s: %g node-s in /node_holdings, %g in jobs.csv",
                      t[k].name, h5ns[k], t[k].batsim);
    }

    /* idle intervals: their total, and every holding inside one */
    {
        size_t ni;
        struct nh *idle = read_rows(h5, "node_idle", 0, &ni);
        json_t *js = tu_load_json(sum);
        double total = 0;

        ck_assert_uint_gt(ni, 32);
        for (size_t i = 0; i < ni; i++) {
            ck_assert_int_lt(idle[i].start, idle[i].end);
            total += (double)(idle[i].end - idle[i].start);
        }
        ck_assert_double_eq_tol(total, tu_jnum(js, "idle_node_seconds"), 1e-6);
        json_decref(js);
        for (size_t i = 0; i < n; i++) {
            size_t k;
            for (k = 0; k < ni; k++)
                if (idle[k].node == rows[i].node &&
                    idle[k].start <= rows[i].start &&
                    rows[i].end <= idle[k].end)
                    break;
            ck_assert_msg(k < ni,
                          "node %lld held by job %lld over [%lld, "
                          "%lld) outside its idle intervals",
                          (long long)rows[i].node, (long long)rows[i].job,
                          (long long)rows[i].start, (long long)rows[i].end);
        }
        free(idle);
    }
    free(rows);
    free(h5ns);
    free(t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("holdings");
    TCase *tc = tcase_create("holdings");

    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_hand);
    tcase_add_loop_test(tc, test_change_list, 0, 2);
    tcase_add_loop_test(tc, test_summit, 0, 2);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
