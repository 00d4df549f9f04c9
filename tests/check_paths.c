/* check_paths.c - an output never replaces an input and two outputs never
 * share a file (base/paths.h): the check itself on every way two paths
 * can name one file (the same text, "./", a symbolic link, a hard link,
 * a folder's members), its exemptions ("-", /dev/null), and every
 * command that writes refusing, with status 2 and a message naming both
 * options, while the input stays byte for byte what it was. */
#include "config.h"

#include "testutil.h"
#include "base/paths.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* bfs_paths_check on an input and an output: the return code, and the
 * message in msg (when not NULL) on a conflict. */
static int check_pair(const char *in, const char *out, char msg[1024])
{
    const struct bfs_paths_role r[] = {{"--in", in, 0, NULL},
                                       {"--out", out, 1, NULL}};
    struct bfs_error e;
    int rc;

    bfs_error_clear(&e);
    rc = bfs_paths_check(r, 2, &e);
    if (msg)
        snprintf(msg, 1024, "%s", e.msg);
    return rc;
}

START_TEST(test_same_text)
{
    char msg[1024];
    const char *p = tu_tmp("never-made.csv");

    /* neither file exists: the same text is still one file */
    ck_assert_int_eq(check_pair(p, p, msg), BFS_EUSAGE);
    ck_assert_msg(strstr(msg, "--out and --in both name '") != NULL, "%s", msg);
    ck_assert_ptr_nonnull(strstr(msg, "an output may not replace an input"));
}
END_TEST

START_TEST(test_same_file_other_name)
{
    const char *dir = tu_dir("names");
    const char *f = tu_path_in(dir, "in.trace");
    const char *dotted = tu_path_in(dir, "./in.trace");
    const char *sym = tu_path_in(dir, "sym.trace");
    const char *hard = tu_path_in(dir, "hard.trace");
    const char *other = tu_path_in(dir, "other.trace");
    const char *later = tu_path_in(dir, "later.csv");
    const char *later2 = tu_path_in(dir, "../names/later.csv");
    char msg[1024];

    tu_write_at(f, "x\n");
    tu_write_at(other, "x\n");
    ck_assert_int_eq(symlink("in.trace", sym), 0);
    ck_assert_int_eq(link(f, hard), 0);
    ck_assert_int_eq(check_pair(f, dotted, msg), BFS_EUSAGE);
    ck_assert_msg(strstr(msg, "are the same file") != NULL, "%s", msg);
    ck_assert_int_eq(check_pair(f, sym, NULL), BFS_EUSAGE);
    ck_assert_int_eq(check_pair(sym, f, NULL), BFS_EUSAGE);
    ck_assert_int_eq(check_pair(f, hard, NULL), BFS_EUSAGE);
    /* equal bytes in another file are another file */
    ck_assert_int_eq(check_pair(f, other, NULL), 0);
    /* two outputs not made yet, spelt differently */
    {
        const struct bfs_paths_role r[] = {{"--steps", later, 1, NULL},
                                           {"--summary", later2, 1, NULL}};
        struct bfs_error e;
        bfs_error_clear(&e);
        ck_assert_int_eq(bfs_paths_check(r, 2, &e), BFS_EUSAGE);
        ck_assert_msg(strstr(e.msg, "two outputs may not share a file") &&
                          strstr(e.msg, "--summary") &&
                          strstr(e.msg, "--steps"),
                      "%s", e.msg);
    }
}
END_TEST

/* Standard input and output, and devices, are never in conflict; two
 * inputs may share a file. */
START_TEST(test_exempt)
{
    const char *f = tu_write("shared.jobs", "x\n");
    const struct bfs_paths_role r[] = {
        {"--trace", "-", 0, NULL},       {"--summary", "-", 1, NULL},
        {"--steps", "-", 1, NULL},       {"--job-log", "/dev/null", 1, NULL},
        {"-o", "/dev/null", 1, NULL},    {"--jobs", f, 0, NULL},
        {"--belief", f, 0, NULL},        {"--curves", NULL, 0, NULL},
        {"--batsim-jobs", NULL, 1, NULL}};
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_int_eq(bfs_paths_check(r, sizeof r / sizeof *r, &e), 0);
}
END_TEST

/* A folder's member pattern: a file in it that matches is one of its
 * files, another name or a subfolder's file is not. */
START_TEST(test_member)
{
    const char *dir = tu_dir("corpus");
    const char *sub = tu_dir("corpus/sub");
    char msg[1024];
    const struct bfs_paths_role base = {"FILE", dir, 0, "*.json"};
    struct bfs_paths_role r[2] = {base, {"--csv", NULL, 1, NULL}};
    struct bfs_error e;

    tu_write_at(tu_path_in(dir, "a.json"), "{}\n");
    r[1].path = tu_path_in(dir, "a.json");
    bfs_error_clear(&e);
    ck_assert_int_eq(bfs_paths_check(r, 2, &e), BFS_EUSAGE);
    snprintf(msg, sizeof msg, "%s", e.msg);
    ck_assert_msg(strstr(msg, "is one of the *.json files of FILE") != NULL,
                  "%s", msg);
    r[1].path = tu_path_in(dir, "new.json"); /* would join the corpus */
    bfs_error_clear(&e);
    ck_assert_int_eq(bfs_paths_check(r, 2, &e), BFS_EUSAGE);
    r[1].path = tu_path_in(dir, "rows.csv");
    bfs_error_clear(&e);
    ck_assert_int_eq(bfs_paths_check(r, 2, &e), 0);
    r[1].path = tu_path_in(sub, "a.json");
    bfs_error_clear(&e);
    ck_assert_int_eq(bfs_paths_check(r, 2, &e), 0);
}
END_TEST

START_TEST(test_empty_name)
{
    const struct bfs_paths_role r[] = {{"--trace", "t", 0, NULL},
                                       {"--belief", "", 0, NULL}};
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_int_eq(bfs_paths_check(r, 2, &e), BFS_EUSAGE);
    ck_assert_str_eq(e.msg, "--belief: empty file name");
}
END_TEST

/* ---- the commands ------------------------------------------------------ */

/* Runs "bfsim ARGS": status 2, want on standard error, and the file
 * path still holds text, byte for byte. */
static void expect_refused(const char *args, const char *want, const char *path,
                           const char *text)
{
    char *err, *now;
    int st = tu_bfsim_run(args, &err);

    ck_assert_msg(st == 2, "%s: status %d (%s)", args, st, err);
    ck_assert_msg(strstr(err, want) != NULL, "%s: '%s' lacks '%s'", args, err,
                  want);
    now = tu_slurp(path);
    ck_assert_ptr_nonnull(now);
    ck_assert_msg(strcmp(now, text) == 0, "%s: %s changed", args, path);
    free(now);
    free(err);
}

START_TEST(test_replay)
{
    const char *t = tu_write("r.trace", TU_GOOD_TRACE);
    const char *j = tu_write("r.jobs", TU_GOOD_JOBS);
    const char *x = tu_tmp("r-out");
    char args[8192], want[4200];

    snprintf(args, sizeof args,
             "replay -q --trace %s --jobs %s --batsim-jobs %s", t, j, t);
    snprintf(want, sizeof want,
             "--batsim-jobs and --trace both name '%s': an output may not "
             "replace an input",
             t);
    expect_refused(args, want, t, TU_GOOD_TRACE);
    snprintf(args, sizeof args, "replay -q --trace %s --jobs %s --job-log %s",
             t, j, j);
    expect_refused(args, "--job-log and --jobs both name", j, TU_GOOD_JOBS);
    /* two outputs: refused before either is written */
    snprintf(args, sizeof args,
             "replay -q --trace %s --jobs %s --summary %s --steps %s", t, j, x,
             x);
    snprintf(want, sizeof want,
             "--summary and --steps both name '%s': two outputs may not share "
             "a file",
             x);
    expect_refused(args, want, t, TU_GOOD_TRACE);
    ck_assert_int_eq(tu_exists(x), 0);
}
END_TEST

/* A command given the file name (holding text) as an input and as an
 * output: "bfsim BEFOREPATH BETWEEN PATH" must be refused with "OPTIONS
 * both name 'PATH'", the file unchanged. */
static void over_input(const char *name, const char *text, const char *before,
                       const char *between, const char *options)
{
    const char *p = tu_write(name, text);
    char args[8192], want[4200];

    snprintf(args, sizeof args, "%s%s %s %s", before, p, between, p);
    snprintf(want, sizeof want, "%s both name '%s'", options, p);
    expect_refused(args, want, p, text);
}

START_TEST(test_convert)
{
    static const char nu[] = "Time,Node,State\n0,n0,free\n10,n0,allocated\n";

    over_input("nu.csv", nu, "convert -q --from elastisim ", "-o",
               "-o and INPUT");
    over_input("c.jobs", TU_GOOD_JOBS, "convert -q --jobs ", "-o",
               "-o and --jobs");
}
END_TEST

START_TEST(test_gen_trace)
{
    over_input("g.trace", TU_GOOD_TRACE,
               "gen-trace -q --nodes 2 --duration 1h --idle empirical:", "-o",
               "-o and --idle");
}
END_TEST

START_TEST(test_curves)
{
    over_input("cv.jobs", TU_GOOD_JOBS, "curves ", "-o", "-o and JOBS");
}
END_TEST

START_TEST(test_solve_corpus)
{
    const char *dir = tu_dir("solve-corpus");
    const char *inst = tu_path_in(dir, "a.json");
    const char *x = tu_tmp("s-out");
    char *text = tu_slurp(tu_src("tests/data/branch.instance.json"));
    char args[8192], want[4200];

    ck_assert_ptr_nonnull(text);
    tu_write_at(inst, text);
    snprintf(args, sizeof args, "solve --allocator dp --csv %s %s", inst, dir);
    snprintf(want, sizeof want,
             "--csv '%s' is one of the *.json files of FILE '%s'", inst, dir);
    expect_refused(args, want, inst, text);
    snprintf(args, sizeof args, "solve --allocator dp --csv %s %s %s", inst,
             inst, inst);
    expect_refused(args, "--csv and FILE both name", inst, text);
    snprintf(args, sizeof args, "solve --allocator dp --csv %s -o %s %s", x, x,
             dir);
    snprintf(want, sizeof want,
             "-o and --csv both name '%s': two outputs may not share a file",
             x);
    expect_refused(args, want, inst, text);
    ck_assert_int_eq(tu_exists(x), 0);
    free(text);
}
END_TEST

START_TEST(test_sweep)
{
    over_input("sw.json", "{\"allocator\": \"dp\"}\n", "sweep -q ", "--out",
               "--out and CONFIG");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("paths");
    TCase *tc = tcase_create("check");
    TCase *cmd = tcase_create("commands");

    tcase_add_test(tc, test_same_text);
    tcase_add_test(tc, test_same_file_other_name);
    tcase_add_test(tc, test_exempt);
    tcase_add_test(tc, test_member);
    tcase_add_test(tc, test_empty_name);
    suite_add_tcase(s, tc);
    tcase_set_timeout(cmd, 30);
    tcase_add_test(cmd, test_replay);
    tcase_add_test(cmd, test_convert);
    tcase_add_test(cmd, test_gen_trace);
    tcase_add_test(cmd, test_curves);
    tcase_add_test(cmd, test_solve_corpus);
    tcase_add_test(cmd, test_sweep);
    suite_add_tcase(s, cmd);
    return tu_run(s);
}
