/* check_interop.c - logs of other tools given to bfsim: the importers'
 * warnings when a log looks like several machines, and `bfsim info` on a
 * file that is not a native trace naming the `bfsim convert --from` to
 * run (import/sniff.c, import_log_warnings). */
#include "config.h"

#include "testutil.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static void expect_has(const char *text, const char *want)
{
    ck_assert_msg(strstr(text, want) != NULL, "expected '%s' in:\n%s", want,
                  text);
}

/* Two jobs, one processor per node (MaxProcs 100, no MaxNodes: 100
 * nodes): job 1 on 4 nodes from 0 to 100 s, job 2 on 96 nodes from 10
 * to 210 s.  Busy node-seconds 4 x 100 + 96 x 200 = 19,600 of 100 x 210
 * = 21,000 in the trace's span 0..210: 93.3% busy on average. */
#define SWF_JOBS                                                               \
    "1 0 0 100 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n"                         \
    "2 10 0 200 96 -1 -1 96 200 -1 1 1 1 -1 1 -1 -1 -1\n"

START_TEST(test_swf_no_maxnodes)
{
    const char *log = tu_write("grid.swf", "; MaxProcs: 100\n" SWF_JOBS);
    char args[4096], *err;

    snprintf(args, sizeof args, "convert -q --from swf %s -o %s", log,
             tu_tmp("grid.trace"));
    ck_assert_int_eq(tu_bfsim_run(args, &err), 0);
    expect_has(err, "bfsim: warning: the SWF header gives no MaxNodes: the "
                    "log became one machine of 100 nodes");
    expect_has(err, "bfsim: warning: the 100 nodes are busy 93.3% of the "
                    "time on average");
    free(err);

    /* --machine-nodes 100 says the machine: the busy share still warns */
    snprintf(args, sizeof args,
             "convert -q --from swf %s -o %s --machine-nodes 100", log,
             tu_tmp("grid2.trace"));
    ck_assert_int_eq(tu_bfsim_run(args, &err), 0);
    ck_assert_ptr_null(strstr(err, "MaxNodes"));
    expect_has(err, "busy 93.3% of the time");
    free(err);

    /* 200 nodes: 19,600 / 42,000 = 46.7% busy, no warning at all */
    snprintf(args, sizeof args,
             "convert -q --from swf %s -o %s --machine-nodes 200", log,
             tu_tmp("grid3.trace"));
    ck_assert_int_eq(tu_bfsim_run(args, &err), 0);
    ck_assert_str_eq(err, "");
    free(err);
}
END_TEST

/* The same jobs with MaxNodes 200 in the header: one machine, no
 * warning. */
START_TEST(test_swf_maxnodes)
{
    const char *log =
        tu_write("one.swf", "; MaxNodes: 200\n; MaxProcs: 200\n" SWF_JOBS);
    char args[4096], *err;

    snprintf(args, sizeof args, "convert -q --from swf %s -o %s", log,
             tu_tmp("one.trace"));
    ck_assert_int_eq(tu_bfsim_run(args, &err), 0);
    ck_assert_str_eq(err, "");
    free(err);
}
END_TEST

/* Slurm without NodeList: the machine is the peak use, 4 nodes, busy
 * through the whole span: 100% busy, warned. */
START_TEST(test_slurm_busy)
{
    const char *log = tu_write("s.txt", "JobID|Start|End|NNodes\n"
                                        "1|2021-01-01T00:00:00|"
                                        "2021-01-01T01:00:00|4\n");
    char args[4096], *err;

    snprintf(args, sizeof args, "convert -q --from slurm %s -o %s", log,
             tu_tmp("s.trace"));
    ck_assert_int_eq(tu_bfsim_run(args, &err), 0);
    expect_has(err, "bfsim: warning: the 4 nodes are busy 100.0% of the "
                    "time on average");
    free(err);
}
END_TEST

/* `bfsim info FILE` fails (status 1) and names the converter. */
static void expect_hint(const char *path, const char *from)
{
    char args[4096], want[4096], *err;

    snprintf(args, sizeof args, "info %s", path);
    ck_assert_int_eq(tu_bfsim_run(args, &err), 1);
    expect_has(err, "not a bfsim trace");
    snprintf(want, sizeof want, "    bfsim convert --from %s %s -o ", from,
             path);
    expect_has(err, want);
    free(err);
}

START_TEST(test_info_hints)
{
    const char *dir = tu_tmp("bft");
    char cmd[4096], *err;

    /* SWF: a ';' header, or none but 18 numeric fields */
    expect_hint(tu_write("h.swf", "; Version: 2.2\n" SWF_JOBS), "swf");
    expect_hint(tu_write("bare.swf", SWF_JOBS), "swf");
    /* sacct: --parsable2, and the fixed-width form */
    expect_hint(tu_write("p2.txt", "JobID|JobName|Start|End|NNodes|State\n"),
                "slurm");
    expect_hint(tu_write("fw.txt",
                         "       JobID               Start                 End "
                         "  NNodes\n"
                         "------------ ------------------- ------------------- "
                         "--------\n"),
                "slurm");
    /* BFTrainer: the export's directory, or its transitions file */
    snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
    ck_assert_int_eq(system(cmd), 0);
    tu_write("bft/nodes.csv", "col_idx,node\n0,a\n");
    expect_hint(dir, "bftrainer");
    expect_hint(tu_write("transitions.csv",
                         "row,epoch_s,col_idx,node,new_state\n1,5,0,a,1\n"),
                "bftrainer");

    /* anything else: the error alone */
    snprintf(cmd, sizeof cmd, "info %s", tu_write("x.txt", "hello\n1 2 3\n"));
    ck_assert_int_eq(tu_bfsim_run(cmd, &err), 1);
    expect_has(err, "not a bfsim trace");
    ck_assert_ptr_null(strstr(err, "convert"));
    free(err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("interop");
    TCase *tc = tcase_create("interop");

    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_swf_no_maxnodes);
    tcase_add_test(tc, test_swf_maxnodes);
    tcase_add_test(tc, test_slurm_busy);
    tcase_add_test(tc, test_info_hints);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
