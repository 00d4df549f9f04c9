/* check_messages.c - messages that say what is wrong, as a user meets
 * them: a compressed input named for its format (not "NUL byte at column
 * 6"), an empty file name named with its option (not "bfsim: : cannot
 * open"), unknown allocator, solver and distribution names with their
 * option and the names accepted, and a misspelt bundled name with the
 * bundled names. */
#include "config.h"

#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs "bfsim ARGS": the exit status must be status and standard error
 * must hold want. */
static void expect(const char *args, int status, const char *want)
{
    char *err;
    int st = tu_bfsim_run(args, &err);

    ck_assert_msg(st == status, "%s: status %d, not %d (%s)", args, st, status,
                  err);
    ck_assert_msg(strstr(err, want) != NULL, "%s: '%s' lacks '%s'", args, err,
                  want);
    free(err);
}

/* A zip trace, log or instance, and an xz, bzip2 or zstd one cut after
 * 12 bytes: status 1, with zip named and the others' end reported at line
 * 1, by every reader (the trace's, an importer's, the instance's). */
START_TEST(test_compressed)
{
    const char *out = tu_tmp("never.trace");
    char args[8192], want[4200];

    for (size_t i = 0; i < TU_N_COMPRESSED; i++) {
        const char *p =
            tu_write_bytes(tu_compressed[i].name, tu_compressed[i].head, 12);
        if (strcmp(tu_compressed[i].name, "zip") == 0)
            snprintf(want, sizeof want,
                     "%s: zip-compressed; decompress it (unzip) or use gzip, "
                     "xz, bzip2 or zstd",
                     p);
        else
            snprintf(want, sizeof want,
                     "%s:1: unexpected end of compressed data (%s)", p,
                     tu_compressed[i].name);
        snprintf(args, sizeof args, "info %s", p);
        expect(args, 1, want);
        snprintf(args, sizeof args, "replay -q --trace %s --jobs %s", p,
                 tu_good_jobs());
        expect(args, 1, want);
        snprintf(args, sizeof args, "convert -q --from swf %s -o %s", p, out);
        expect(args, 1, want);
        snprintf(args, sizeof args, "solve --allocator dp %s", p);
        expect(args, 1, want);
        ck_assert_int_eq(tu_exists(out), 0);
    }
}
END_TEST

START_TEST(test_empty_name)
{
    char args[8192];

    snprintf(args, sizeof args, "replay -q --trace %s --jobs %s --belief ''",
             tu_good_trace(), tu_good_jobs());
    expect(args, 2, "bfsim replay: --belief: empty file name");
    expect("replay -q --trace ''", 2, "--trace: empty file name");
    expect("info ''", 2, "bfsim info: TRACE: empty file name");
    expect("curves ''", 2, "bfsim curves: JOBS: empty file name");
    snprintf(args, sizeof args, "convert --from swf %s -o ''", tu_good_trace());
    expect(args, 2, "bfsim convert: -o: empty file name");
}
END_TEST

/* The compiled-in backends, as configure found them. */
static const char *backends(void)
{
#if defined(HAVE_CBC) && defined(HAVE_GLPK)
    return "cbc, glpk";
#elif defined(HAVE_CBC)
    return "cbc";
#elif defined(HAVE_GLPK)
    return "glpk";
#else
    return "none";
#endif
}

START_TEST(test_unknown_allocator)
{
    const char *inst = tu_src("tests/data/branch.instance.json");
    char args[8192];

    snprintf(args, sizeof args,
             "replay -q --trace %s --jobs %s --allocator greedy",
             tu_good_trace(), tu_good_jobs());
    expect(args, 2,
           "--allocator: unknown allocator 'greedy' (known: even, dp, milp)");
    snprintf(args, sizeof args, "solve --allocator greedy %s", inst);
    expect(args, 2,
           "--allocator: unknown allocator 'greedy' (known: even, dp, milp)");
}
END_TEST

START_TEST(test_unknown_solver)
{
    const char *inst = tu_src("tests/data/branch.instance.json");
    char args[8192], want[512];

    snprintf(want, sizeof want,
             "--solver: unknown solver 'gurobi' (compiled in: %s)", backends());
    snprintf(args, sizeof args,
             "replay -q --trace %s --jobs %s --allocator milp --solver "
             "gurobi,threads=2",
             tu_good_trace(), tu_good_jobs());
    expect(args, 2, want);
    snprintf(args, sizeof args, "solve --allocator milp --solver gurobi %s",
             inst);
    expect(args, 2, want);
}
END_TEST

START_TEST(test_distribution)
{
    const char *out = tu_tmp("gen.trace");
    char args[8192];

    snprintf(args, sizeof args,
             "gen-trace --nodes 2 --duration 1h --idle exp:0 -o %s", out);
    expect(args, 2,
           "--idle: bad distribution 'exp:0': exp:MEAN needs a positive "
           "duration");
    snprintf(args, sizeof args,
             "gen-trace --nodes 2 --duration 1h --busy weibull:3 -o %s", out);
    expect(args, 2,
           "--busy: bad distribution 'weibull:3' (expected exp:MEAN, "
           "lognormal:MU,SIGMA or empirical:TRACE)");
    ck_assert_int_eq(tu_exists(out), 0);
}
END_TEST

/* The bundled data (traces/, datasets/ of the source tree, which a build
 * run from its build directory reads) holds two traces and eight job
 * sets (one of them the predictor's curve corpus). */
START_TEST(test_bundled_names)
{
    static const char sets[] =
        "(bundled job sets: curve-corpus, hetero-1000J, hetero-10J, "
        "hps-shufflenet-1000J, hps-shufflenet-10J, imagenet-features-1001J, "
        "imagenet-imgps-1001J, imagenet-spdup-1001J)";
    char want[512];

    expect("replay -q --trace summit-2021-03", 1,
           "--trace summit-2021-03: no such file, nor a bundled trace of "
           "that name (bundled traces: summit-2021-02, summit-2021-02-2types)");
    expect("info summit", 1,
           "TRACE summit: no such file, nor a bundled trace of that name "
           "(bundled traces: summit-2021-02, summit-2021-02-2types)");
    snprintf(want, sizeof want,
             "--jobs hps-shufflenet-100J: no such file, nor a bundled job "
             "set of that name %s",
             sets);
    expect("replay -q --jobs hps-shufflenet-100J", 1, want);
    snprintf(want, sizeof want,
             "JOBS imagenet: no such file, nor a bundled job set of that "
             "name %s",
             sets);
    expect("curves imagenet", 1, want);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("messages");
    TCase *tc = tcase_create("messages");

    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_compressed);
    tcase_add_test(tc, test_empty_name);
    tcase_add_test(tc, test_unknown_allocator);
    tcase_add_test(tc, test_unknown_solver);
    tcase_add_test(tc, test_distribution);
    tcase_add_test(tc, test_bundled_names);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
