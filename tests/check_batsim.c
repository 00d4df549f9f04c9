/* check_batsim.c - the Batsim-style jobs.csv (--batsim-jobs,
 * formats/batsim.c): a hand-worked schedule, and on the Summit trace the
 * rows read back (by a parser here, and by pandas when it is there) give
 * every job the node-seconds of the job log, which the engine integrates
 * from its counts by another path. */
#include "config.h"

#include "testutil.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

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

/* Four nodes.  T: nodes 0 and 1 idle; T+100: 2 and 3 join; T+200: 0
 * leaves; T+300: the rest leave.  Job A (1..4 nodes, never done) takes
 * every idle node.  The pool keeps the nodes idle at the start in node
 * order and appends joins; a job takes the lowest positions: A holds
 * {0,1} on [0,100), {0,1,2,3} on [100,200), {1,2,3} on [200,300)
 * (seconds since the start T). */
START_TEST(test_hand)
{
    const char *trace = tu_write("t.trace", "bfsim-trace 1\n"
                                            "node a\nnode b\nnode c\nnode d\n"
                                            "1612988400 +0 +1\n"
                                            "1612988500 +2 +3\n"
                                            "1612988600 -0\n"
                                            "1612988700 -1 -2 -3\n");
    const char *jobs =
        tu_write("a.jobs", "# bfsim-jobs 1\n"
                           "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                           "A,1612988400,1,4,1e9,0,0,0:0:0 1:1:1 4:4:4\n");
    const char *out = tu_tmp("b.csv");
    char args[4096], *text;

    snprintf(args, sizeof args,
             "replay -q --allocator dp --trace %s --jobs %s --batsim-jobs %s "
             "--summary /dev/null",
             trace, jobs, out);
    ck_assert_int_eq(bfsim(args), 0);
    text = tu_slurp(out);
    ck_assert_ptr_nonnull(text);
    ck_assert_str_eq(text, "job_id,workload_name,submission_time,"
                           "requested_number_of_resources,starting_time,"
                           "execution_time,finish_time,waiting_time,"
                           "allocated_resources\n"
                           "A!0,A,0,2,0,100,100,0,0-1\n"
                           "A!1,A,0,4,100,100,200,100,0-3\n"
                           "A!2,A,0,3,200,100,300,200,1-3\n");
    free(text);
}
END_TEST

/* Nodes in an interval set "0-3 7 9-10" (here: 4 + 1 + 2 = 7). */
static long set_size(const char *s)
{
    long n = 0, a, b;
    char *end;

    while (*s) {
        a = strtol(s, &end, 10);
        ck_assert_ptr_ne(end, s);
        b = a;
        if (*end == '-')
            b = strtol(end + 1, &end, 10);
        ck_assert_int_ge(b, a);
        n += b - a + 1;
        s = end;
        while (*s == ' ')
            s++;
    }
    return n;
}

struct job_ns {
    char name[64];
    double batsim, log;
};

static struct job_ns *find(struct job_ns *t, size_t *n, const char *name)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp(t[i].name, name) == 0)
            return &t[i];
    ck_assert_uint_lt(*n, 2000);
    snprintf(t[*n].name, sizeof t[*n].name, "%s", name);
    t[*n].batsim = t[*n].log = 0;
    return &t[(*n)++];
}

START_TEST(test_summit_readback)
{
    static const char *const modes[] = {"--allocator dp",
                                        "--compat bftrainer --allocator even"};
    const char *bat = tu_tmp("summit.csv"), *log = tu_tmp("summit-log.csv");
    char args[8192], line[65536];
    struct job_ns *t = xcalloc(2000, sizeof *t);
    size_t n = 0, rows = 0;
    FILE *f;

    snprintf(args, sizeof args,
             "replay -q %s --nodes 32 --trace %s --jobs %s --end "
             "'2021-02-12 00:00:00' --batsim-jobs %s --job-log %s --summary "
             "/dev/null",
             modes[_i], tu_src("traces/summit-2021-02.trace.gz"),
             tu_src("datasets/hps-shufflenet-1000J.jobs.gz"), bat, log);
    ck_assert_int_eq(bfsim(args), 0);

    f = fopen(bat, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f)); /* header */
    while (fgets(line, sizeof line, f)) {
        char *fld[10];
        long start, exec, fin, req;
        line[strcspn(line, "\n")] = '\0';
        ck_assert_uint_eq(bfs_split(line, ',', fld, 10), 9);
        req = atol(fld[3]);
        start = atol(fld[4]);
        exec = atol(fld[5]);
        fin = atol(fld[6]);
        ck_assert_int_eq(fin - start, exec);
        ck_assert_int_gt(exec, 0);
        ck_assert_int_eq(set_size(fld[8]), req);
        find(t, &n, fld[1])->batsim += (double)(exec * req);
        rows++;
    }
    fclose(f);
    ck_assert_uint_gt(rows, 10);

    f = fopen(log, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    while (fgets(line, sizeof line, f)) {
        char *fld[16];
        double ns;
        line[strcspn(line, "\n")] = '\0';
        ck_assert_uint_eq(bfs_split(line, ',', fld, 16), 14);
        ns = atof(fld[7]); /* node_seconds */
        if (ns > 0)
            find(t, &n, fld[0])->log = ns;
    }
    fclose(f);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(fabs(t[i].batsim - t[i].log) < 1e-6,
                      "%s: %g node-s in the jobs.csv, %g in the job log",
                      t[i].name, t[i].batsim, t[i].log);
    free(t);

    /* the same with pandas, when the Python configure found has it */
    {
        const char *py = getenv("BFS_PYTHON3");
        const char *script = tu_write(
            "readback.py",
            "import sys\n"
            "import pandas as pd\n"
            "b = pd.read_csv(sys.argv[1])\n"
            "l = pd.read_csv(sys.argv[2]).set_index('job')\n"
            "def size(s):\n"
            "    n = 0\n"
            "    for part in str(s).split():\n"
            "        a, _, c = part.partition('-')\n"
            "        n += int(c) - int(a) + 1 if c else 1\n"
            "    return n\n"
            "n = b.allocated_resources.map(size)\n"
            "assert (n == b.requested_number_of_resources).all()\n"
            "ns = ((b.finish_time - b.starting_time) * n)"
            ".groupby(b.workload_name).sum()\n"
            "want = l.node_seconds[l.node_seconds > 0]\n"
            "assert sorted(ns.index) == sorted(want.index)\n"
            "assert (ns.reindex(want.index) - want).abs().max() < 1e-6\n");
        char cmd[8192];
        if (!py || !*py)
            py = "/usr/bin/python3";
        snprintf(cmd, sizeof cmd, "%s -c 'import pandas' >/dev/null 2>&1", py);
        if (system(cmd) != 0) {
            printf("# %s lacks pandas: the pandas read-back is left out\n", py);
            return;
        }
        snprintf(cmd, sizeof cmd, "%s %s %s %s", py, script, bat, log);
        ck_assert_int_eq(system(cmd), 0);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("batsim");
    TCase *tc = tcase_create("batsim");

    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_hand);
    tcase_add_loop_test(tc, test_summit_readback, 0, 2);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
