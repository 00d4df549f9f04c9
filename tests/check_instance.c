/* check_instance.c - instance files, and `bfsim solve` on them.
 *
 * Round trips must give back the same doubles; every malformed file must
 * be refused with the file name and the problem (and the line, for JSON
 * syntax).  The command-line tests run the bfsim program of the build
 * tree ($BFS_TOP_BUILDDIR/bfsim, set by `make check`) and are skipped
 * when it is not there.
 */
#include "config.h"

#include "alloc/alloc.h"
#include "alloc/instance.h"
#include "solver/solver.h"
#include "testutil.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

START_TEST(test_round_trip)
{
    static const double o0[5] = {0, 0.1, 1.0 / 3, 1e-300, 12345.678901234567};
    static const double o1[3] = {0, -2.5, 7};
    struct alloc_job jobs[2] = {
        {.cur = 2, .jmin = 1, .jmax = 4, .tcup = 18, .tcdw = 1.0 / 7, .o = o0},
        {.cur = 1, .jmin = 2, .jmax = 2, .tcup = 0, .tcdw = 12, .o = o1},
    };
    int owner[5] = {-1, 0, 1, -1, 0};
    struct alloc_problem p = {.pool = 5,
                              .tfwd = 600.25,
                              .n_jobs = 2,
                              .jobs = jobs,
                              .cap = 3,
                              .owner = owner};
    const char *names[2] = {"J\"0\" \xc3\xa9t\xc3\xa9", NULL};
    const char *path = tu_tmp("rt.json");
    struct instance in;
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_msg(instance_write(path, &p, names, "event 7", &e) == 0, "%s",
                  e.msg);
    ck_assert_msg(instance_read(path, &in, &e) == 0, "%s", e.msg);
    ck_assert_int_eq(in.p.pool, 5);
    ck_assert_int_eq(in.p.cap, 3);
    ck_assert(in.p.tfwd == 600.25);
    ck_assert_uint_eq(in.p.n_jobs, 2);
    ck_assert_str_eq(in.names[0], names[0]);
    ck_assert_ptr_null(in.names[1]);
    ck_assert_str_eq(in.note, "event 7");
    for (size_t j = 0; j < 2; j++) {
        ck_assert_int_eq(in.p.jobs[j].cur, jobs[j].cur);
        ck_assert_int_eq(in.p.jobs[j].jmin, jobs[j].jmin);
        ck_assert_int_eq(in.p.jobs[j].jmax, jobs[j].jmax);
        ck_assert(in.p.jobs[j].tcup == jobs[j].tcup);
        ck_assert(in.p.jobs[j].tcdw == jobs[j].tcdw);
        for (int k = 0; k <= jobs[j].jmax; k++)
            ck_assert_msg(in.p.jobs[j].o[k] == jobs[j].o[k],
                          "job %zu o[%d]: %.17g", j, k, in.p.jobs[j].o[k]);
    }
    ck_assert_ptr_nonnull(in.p.owner);
    for (int q = 0; q < 5; q++)
        ck_assert_int_eq(in.p.owner[q], owner[q]);
    instance_release(&in);
    instance_release(&in);
    /* no jobs, no owner, no names, no note */
    p.n_jobs = 0;
    p.owner = NULL;
    p.cap = 0;
    ck_assert_int_eq(instance_write(path, &p, NULL, NULL, &e), 0);
    ck_assert_int_eq(instance_read(path, &in, &e), 0);
    ck_assert_uint_eq(in.p.n_jobs, 0);
    ck_assert_ptr_null(in.p.owner);
    ck_assert_ptr_null(in.note);
    instance_release(&in);
}
END_TEST

START_TEST(test_curve)
{
    const char *path = tu_write(
        "curve.json",
        "{\"format\": \"bfsim-instance\", \"version\": 1, \"pool\": 4,\n"
        " \"tfwd\": 10, \"jobs\": [{\"cur\": 0, \"jmin\": 1, \"jmax\": 4,\n"
        "  \"tcup\": 0, \"tcdw\": 0,\n"
        "  \"curve\": [[0, 0], [1, 2831], [2, 5259], [4, 9988], [8, 1]]}]}\n");
    struct instance in;
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_msg(instance_read(path, &in, &e) == 0, "%s", e.msg);
    ck_assert_double_eq(in.p.jobs[0].o[0], 0);
    ck_assert_double_eq(in.p.jobs[0].o[1], 2831);
    ck_assert_double_eq(in.p.jobs[0].o[2], 5259);
    ck_assert_double_eq(in.p.jobs[0].o[3], 7623.5);
    ck_assert_double_eq(in.p.jobs[0].o[4], 9988);
    ck_assert_int_eq(in.p.cap, 0);
    ck_assert_ptr_null(in.p.owner);
    instance_release(&in);
}
END_TEST

/* Each malformed file and the words its message must contain. */
static const struct bad {
    const char *text, *want;
} bad[] = {
    {"{\"format\": \"bfsim-instance\", \"version\": 1,\n \"pool\": 4,\n"
     " \"tfwd\": 10 \"jobs\": []}\n",
     ":3: column"},
    {"[1, 2]", "not a JSON object"},
    {"{\"format\": \"other\"}", "not a bfsim instance"},
    {"{\"format\": \"bfsim-instance\", \"version\": 2}", "\"version\" 2"},
    {"{\"format\": \"bfsim-instance\", \"version\": 1, \"pool\": 4,"
     " \"tfwd\": 10, \"jobs\": [], \"pol\": 3}",
     "unknown key \"pol\""},
    {"{\"format\": \"bfsim-instance\", \"version\": 1, \"pool\": 4,"
     " \"tfwd\": 0, \"jobs\": []}",
     "\"tfwd\" 0 must be > 0"},
    {"{\"format\": \"bfsim-instance\", \"version\": 1, \"pool\": -1,"
     " \"tfwd\": 1, \"jobs\": []}",
     "\"pool\" -1 is out of range"},
    {"{\"format\": \"bfsim-instance\", \"version\": 1, \"pool\": 4,"
     " \"tfwd\": 1, \"jobs\": [{\"name\": \"A\", \"cur\": 0, \"jmax\": 2,"
     " \"tcup\": 0, \"tcdw\": 0, \"o\": [0, 1, 2]}]}",
     "job 0 (A): missing \"jmin\""},
    {"{\"format\": \"bfsim-instance\", \"version\": 1, \"pool\": 4,"
     " \"tfwd\": 1, \"jobs\": [{\"cur\": 0, \"jmin\": 3, \"jmax\": 2,"
     " \"tcup\": 0, \"tcdw\": 0, \"o\": [0, 1, 2]}]}",
     "job 0: \"jmax\" 2 is out of range 3.."},
    {"{\"format\": \"bfsim-instance\", \"version\": 1, \"pool\": 4,"
     " \"tfwd\": 1, \"jobs\": [{\"cur\": 0, \"jmin\": 1, \"jmax\": 2,"
     " \"tcup\": 0, \"tcdw\": 0, \"jmim\": 1, \"o\": [0, 1, 2]}]}",
     "unknown key \"jmim\""},
    {"{\"format\": \"bfsim-instance\", \"version\": 1, \"pool\": 4,"
     " \"tfwd\": 1, \"jobs\": [{\"cur\": 0, \"jmin\": 1, \"jmax\": 2,"
     " \"tcup\": 0, \"tcdw\": 0, \"o\": [0, 1]}]}",
     "\"o\" must be an array of jmax + 1 = 3"},
    {"{\"format\": \"bfsim-instance\", \"version\": 1, \"pool\": 4,"
     " \"tfwd\": 1, \"jobs\": [{\"cur\": 0, \"jmin\": 1, \"jmax\": 2,"
     " \"tcup\": 0, \"tcdw\": 0, \"o\": [1, 1, 2]}]}",
     "o[0] is 1, not 0"},
    {"{\"format\": \"bfsim-instance\", \"version\": 1, \"pool\": 4,"
     " \"tfwd\": 1, \"jobs\": [{\"cur\": 0, \"jmin\": 1, \"jmax\": 2,"
     " \"tcup\": -1, \"tcdw\": 0, \"o\": [0, 1, 2]}]}",
     "\"tcup\" -1 must be >= 0"},
    {"{\"format\": \"bfsim-instance\", \"version\": 1, \"pool\": 4,"
     " \"tfwd\": 1, \"jobs\": [{\"cur\": 0, \"jmin\": 1, \"jmax\": 2,"
     " \"tcup\": 0, \"tcdw\": 0, \"curve\": [[0, 0], [1, 1]]}]}",
     "the curve ends at N = 1 < jmax 2"},
    {"{\"format\": \"bfsim-instance\", \"version\": 1, \"pool\": 4,"
     " \"tfwd\": 1, \"jobs\": [{\"cur\": 0, \"jmin\": 1, \"jmax\": 2,"
     " \"tcup\": 0, \"tcdw\": 0, \"curve\": [[0, 0], [2, 1], [2, 3]]}]}",
     "curve point 2"},
    {"{\"format\": \"bfsim-instance\", \"version\": 1, \"pool\": 4,"
     " \"tfwd\": 1, \"jobs\": [{\"cur\": 0, \"jmin\": 1, \"jmax\": 2,"
     " \"tcup\": 0, \"tcdw\": 0, \"o\": [0, 1, 2], \"curve\": []}]}",
     "exactly one of"},
    {"{\"format\": \"bfsim-instance\", \"version\": 1, \"pool\": 2,"
     " \"tfwd\": 1, \"jobs\": [{\"cur\": 2, \"jmin\": 1, \"jmax\": 2,"
     " \"tcup\": 0, \"tcdw\": 0, \"o\": [0, 1, 2]}, {\"cur\": 1, \"jmin\":"
     " 1, \"jmax\": 2, \"tcup\": 0, \"tcdw\": 0, \"o\": [0, 1, 2]}]}",
     "the jobs hold 3 nodes but the pool has 2"},
    {"{\"format\": \"bfsim-instance\", \"version\": 1, \"pool\": 3,"
     " \"tfwd\": 1, \"jobs\": [{\"cur\": 2, \"jmin\": 1, \"jmax\": 2,"
     " \"tcup\": 0, \"tcdw\": 0, \"o\": [0, 1, 2]}], \"owner\": [0, -1, "
     "-1]}",
     "gives job 0 1 nodes, but its cur is 2"},
    {"{\"format\": \"bfsim-instance\", \"version\": 1, \"pool\": 3,"
     " \"tfwd\": 1, \"jobs\": [], \"owner\": [0, -1, -1]}",
     "owner[0] is not a job index"},
    {"{\"format\": \"bfsim-instance\", \"version\": 1, \"pool\": 3,"
     " \"pool\": 4, \"tfwd\": 1, \"jobs\": []}",
     "duplicate"},
};

START_TEST(test_errors)
{
    const struct bad *b = &bad[_i];
    const char *path = tu_write("bad.json", b->text);
    struct instance in;
    struct bfs_error e;

    memset(&in, 0x5a, sizeof in);
    bfs_error_clear(&e);
    ck_assert_int_ne(instance_read(path, &in, &e), 0);
    ck_assert_msg(strncmp(e.msg, path, strlen(path)) == 0,
                  "message does not name the file: %s", e.msg);
    ck_assert_msg(strstr(e.msg, b->want), "case %d: '%s' not in '%s'", _i,
                  b->want, e.msg);
    ck_assert_int_eq(in.p.pool, 0x5a5a5a5a); /* untouched */
}
END_TEST

/* 17 jobs of jmax 1000000 given by two curve points each.  On a pool of
 * 1000000 nodes: 17 * 1000001 = 17000017 table entries, more than 2^24 =
 * 16777216 (16 jobs, 16000016, would fit); refused before the tables are
 * allocated.  On a pool of 4 (loop index 1; the case that once asked 24
 * GB of a 200 KB file): counts above 4 are never admissible, so the
 * bounds are kept as pool + 1 = 5 and the tables hold 17 * 6 = 102
 * entries; O(n) = n / 1000000 along the curve [0, 0] .. [1000000, 1]. */
START_TEST(test_huge_table)
{
    char *text = xmalloc(17 * 200 + 200), *p = text;
    const char *path;
    struct instance in;
    struct bfs_error e;

    p += sprintf(p,
                 "{\"format\": \"bfsim-instance\", \"version\": 1, "
                 "\"pool\": %d, \"tfwd\": 1, \"jobs\": [",
                 _i == 0 ? 1000000 : 4);
    for (int j = 0; j < 17; j++)
        p += sprintf(p,
                     "%s{\"cur\": 0, \"jmin\": %d, \"jmax\": 1000000, "
                     "\"tcup\": 0, \"tcdw\": 0, \"curve\": [[0, 0], "
                     "[1000000, 1]]}",
                     j ? ", " : "", j == 16 ? 1000000 : 1);
    sprintf(p, "]}\n");
    path = tu_write("huge.json", text);
    free(text);
    bfs_error_clear(&e);
    if (_i == 0) {
        ck_assert_int_eq(instance_read(path, &in, &e), BFS_ERANGE);
        ck_assert_msg(strstr(e.msg,
                             "job 16: the objective tables of jobs 0..16 "
                             "hold 17000017 entries (the sum of jmax + 1), "
                             "more than the 16777216 an instance may have"),
                      "%s", e.msg);
        return;
    }
    ck_assert_msg(instance_read(path, &in, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(in.p.n_jobs, 17);
    for (int j = 0; j < 17; j++) {
        ck_assert_int_eq(in.jobs[j].jmin, j == 16 ? 5 : 1);
        ck_assert_int_eq(in.jobs[j].jmax, 5);
        for (int n = 0; n <= 5; n++)
            ck_assert_double_eq_tol(in.jobs[j].o[n], n / 1e6, 1e-18);
    }
    instance_release(&in);
}
END_TEST

/* A job of jmax 6 in a pool of 2 keeps its counts 0..3 (pool + 1), of
 * "o" and of the hints' "h" alike: o[n] = n, h[n] = 10 n as written. */
START_TEST(test_capped_horizon)
{
    const char *path = tu_write(
        "capped.json",
        "{\"format\": \"bfsim-instance\", \"version\": 1, \"pool\": 2, "
        "\"tfwd\": 100, \"jobs\": [{\"cur\": 0, \"jmin\": 1, \"jmax\": 6, "
        "\"tcup\": 0, \"tcdw\": 0, \"o\": [0, 1, 2, 3, 4, 5, 6], "
        "\"h\": [0, 10, 20, 30, 40, 50, 60]}]}\n");
    struct instance in;
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_msg(instance_read(path, &in, &e) == 0, "%s", e.msg);
    ck_assert_int_eq(in.jobs[0].jmax, 3);
    ck_assert_ptr_nonnull(in.jobs[0].h);
    for (int n = 0; n <= 3; n++) {
        ck_assert_double_eq(in.jobs[0].o[n], n);
        ck_assert_double_eq(in.jobs[0].h[n], 10 * n);
    }
    instance_release(&in);
}
END_TEST

START_TEST(test_missing_file)
{
    struct instance in;
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_int_eq(instance_read("/nonexistent/x.json", &in, &e), BFS_EIO);
    ck_assert_ptr_nonnull(strstr(e.msg, "/nonexistent/x.json"));
}
END_TEST

/* ---- bfsim solve ------------------------------------------------------- */

static const char *bfsim(void)
{
    static char path[4096];
    const char *b = getenv("BFS_TOP_BUILDDIR");

    if (!b || !*b)
        return NULL;
    snprintf(path, sizeof path, "%s/bfsim", b);
    return tu_exists(path) ? path : NULL;
}

/* Runs bfsim with args, standard output to a file; returns its exit
 * status and output (malloc'd). */
static int run(const char *args, char **out)
{
    const char *prog = bfsim(), *o = tu_tmp("out.txt");
    char cmd[4096];
    int st;

    snprintf(cmd, sizeof cmd, "%s %s > %s 2>&1", prog, args, o);
    st = system(cmd);
    *out = tu_slurp(o);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A lone job on 10 idle nodes (tools/DESIGN.md). */
static const char *lone =
    "{\"format\": \"bfsim-instance\", \"version\": 1, \"pool\": 10,"
    " \"tfwd\": 100, \"jobs\": [{\"name\": \"solo\", \"cur\": 0, \"jmin\": 1,"
    " \"jmax\": 12, \"tcup\": 18, \"tcdw\": 12,"
    " \"curve\": [[0, 0], [12, 12]]}]}\n";

START_TEST(test_cli_solve)
{
    const char *path = tu_write("lone.json", lone);
    char args[1024], *out;
    json_t *root;
    json_error_t jerr;

    if (!bfsim())
        return;
    /* every allocator, and every solver and model for milp */
    for (size_t i = 0; i < 2 * solver_count() + 1; i++) {
        char how[128];
        if (i == 0)
            snprintf(how, sizeof how, "--allocator dp");
        else
            snprintf(how, sizeof how, "--allocator milp --solver %s --model %s",
                     solver_backend_name((i - 1) / 2),
                     (i - 1) % 2 ? "node" : "count");
        for (int legacy = 0; legacy < 2; legacy++) {
            snprintf(args, sizeof args, "solve %s --big-m %s --json %s", how,
                     legacy ? "legacy" : "exact", path);
            ck_assert_int_eq(run(args, &out), 0);
            root = json_loads(out, 0, &jerr);
            ck_assert_msg(root, "%s: not JSON: %s", args, out);
            ck_assert_str_eq(json_string_value(json_object_get(root, "status")),
                             "optimal");
            ck_assert_int_eq(json_integer_value(json_array_get(
                                 json_object_get(root, "counts"), 0)),
                             legacy ? 5 : 10);
            ck_assert_double_eq(
                json_number_value(json_object_get(root, "objective")),
                legacy ? 500 : 1000);
            json_decref(root);
            free(out);
        }
    }
    /* text output */
    snprintf(args, sizeof args, "solve --allocator dp %s", path);
    ck_assert_int_eq(run(args, &out), 0);
    ck_assert_msg(strstr(out, "status     optimal") &&
                      strstr(out, "objective  1000") && strstr(out, "solo"),
                  "%s", out);
    free(out);
}
END_TEST

START_TEST(test_cli_errors)
{
    const char *path = tu_write("lone.json", lone);
    const char *badf = tu_write("bad.json", "{\"format\": 1}");
    char args[1024], *out;

    if (!bfsim())
        return;
    ck_assert_int_eq(run("solve --help", &out), 0);
    ck_assert_ptr_nonnull(strstr(out, "--big-m"));
    free(out);
    ck_assert_int_eq(run("solve", &out), 2);
    free(out);
    snprintf(args, sizeof args, "solve --frobnicate %s", path);
    ck_assert_int_eq(run(args, &out), 2);
    free(out);
    snprintf(args, sizeof args, "solve --big-m huge %s", path);
    ck_assert_int_eq(run(args, &out), 2);
    free(out);
    /* An unknown name is a usage error, found by the allocator. */
    snprintf(args, sizeof args, "solve --allocator milp --model edge %s", path);
    ck_assert_int_eq(run(args, &out), 2);
    ck_assert_ptr_nonnull(strstr(out, "edge"));
    free(out);
    /* An option the allocator would ignore. */
    snprintf(args, sizeof args, "solve --allocator dp --solver gurobi %s",
             path);
    ck_assert_int_eq(run(args, &out), 2);
    ck_assert_ptr_nonnull(strstr(out, "--solver is an option of --allocator "
                                      "milp; --allocator dp would ignore it"));
    free(out);
    snprintf(args, sizeof args, "solve %s", badf);
    ck_assert_int_eq(run(args, &out), 1);
    ck_assert_ptr_nonnull(strstr(out, "bad.json"));
    free(out);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("instance");
    TCase *tc = tcase_create("files");

    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_curve);
    tcase_add_loop_test(tc, test_errors, 0, sizeof bad / sizeof *bad);
    tcase_add_loop_test(tc, test_huge_table, 0, 2);
    tcase_add_test(tc, test_capped_horizon);
    tcase_add_test(tc, test_missing_file);
    suite_add_tcase(s, tc);
    tc = tcase_create("cli");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_cli_solve);
    tcase_add_test(tc, test_cli_errors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return tu_run(suite());
}
