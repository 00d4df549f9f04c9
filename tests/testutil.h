/* testutil.h - small helpers shared by the Check test programs.
 *
 * Header-only (static functions) so that every test program stays one
 * .c file.  Paths: BFS_TOP_SRCDIR (set by `make check`) or the source
 * directory compiled in; the published data in ../shared/data beside the
 * source tree, when it is there.  Temporary files go to one directory per
 * test process, under $TMPDIR or /tmp, removed at exit.
 */
#ifndef BFS_TESTUTIL_H
#define BFS_TESTUTIL_H

#include <check.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"

/* Steps *x, the state of the tests' seeded generator (a 64-bit LCG with
 * Knuth's MMIX constants: the same numbers on every machine), and
 * returns the new state; its high bits are the random ones. */
static inline uint64_t tu_lcg(uint64_t *x)
{
    *x = *x * 6364136223846793005u + 1442695040888963407u;
    return *x;
}

/* Strings the helpers below hand out (and any block a test passes to
 * tu_keep) live until exit; they are kept reachable here so that
 * LeakSanitizer and valgrind do not count them as leaks (volatile: the
 * array is never read, and an optimising compiler would drop the
 * stores). */
static void *volatile tu_kept[4096];
static size_t tu_n_kept;

static inline void *tu_keep(void *p)
{
    if (tu_n_kept < sizeof tu_kept / sizeof *tu_kept)
        tu_kept[tu_n_kept++] = p;
    return p;
}

/* The source tree's top directory. */
static inline const char *tu_srcdir(void)
{
    const char *s = getenv("BFS_TOP_SRCDIR");
    return s && *s ? s : BFS_SRCDIR;
}

/* "srcdir/rel" in a buffer that lives until exit. */
static inline const char *tu_src(const char *rel)
{
    const char *top = tu_srcdir();
    char *p = tu_keep(xmalloc(strlen(top) + strlen(rel) + 2));
    sprintf(p, "%s/%s", top, rel);
    return p;
}

/* The published data directory (../shared/data beside the source tree),
 * or NULL when it is not there. */
static inline const char *tu_shared(void)
{
    struct stat st;
    const char *p = tu_src("../shared/data");
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode) ? p : NULL;
}

/* "shared/rel", or NULL when the shared data is not there. */
static inline const char *tu_shared_file(const char *rel)
{
    const char *d = tu_shared();
    char *p;
    if (!d)
        return NULL;
    p = tu_keep(xmalloc(strlen(d) + strlen(rel) + 2));
    sprintf(p, "%s/%s", d, rel);
    return p;
}

static char tu_tmpdir_path[4096];

static inline void tu_tmpdir_remove(void)
{
    char cmd[4200];
    if (tu_tmpdir_path[0]) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tu_tmpdir_path);
        if (system(cmd) != 0)
            fprintf(stderr, "cannot remove %s\n", tu_tmpdir_path);
    }
}

/* A fresh path "TMPDIR/bfsim-test.XXXXXX/name" (the directory is made
 * once per process and removed at exit; forked tests share it). */
static inline const char *tu_tmp(const char *name)
{
    char *p;
    if (!tu_tmpdir_path[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(tu_tmpdir_path, sizeof tu_tmpdir_path, "%s/bfsim-test.XXXXXX",
                 t && *t ? t : "/tmp");
        if (!mkdtemp(tu_tmpdir_path)) {
            perror("mkdtemp");
            abort();
        }
        atexit(tu_tmpdir_remove);
    }
    p = tu_keep(xmalloc(strlen(tu_tmpdir_path) + strlen(name) + 2));
    sprintf(p, "%s/%s", tu_tmpdir_path, name);
    return p;
}

/* The temporary directory name (tu_tmp(name), made if missing); returns
 * its path. */
static inline const char *tu_dir(const char *name)
{
    const char *d = tu_tmp(name);
    mkdir(d, 0777);
    return d;
}

/* The path "dir/name", kept until exit. */
static inline const char *tu_path_in(const char *dir, const char *name)
{
    char *p = tu_keep(xmalloc(strlen(dir) + strlen(name) + 2));
    sprintf(p, "%s/%s", dir, name);
    return p;
}

/* Writes text to the file path (any path); the test fails if it cannot. */
static inline void tu_write_at(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_ge(fputs(text, f), 0);
    ck_assert_int_eq(fclose(f), 0);
}

/* Writes text to the temporary file name and returns its path. */
static inline const char *tu_write(const char *name, const char *text)
{
    const char *p = tu_tmp(name);
    tu_write_at(p, text);
    return p;
}

/* Writes n bytes (NUL bytes included) to the temporary file name and
 * returns its path. */
static inline const char *tu_write_bytes(const char *name, const char *data,
                                         size_t n)
{
    const char *p = tu_tmp(name);
    FILE *f = fopen(p, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(data, 1, n, f), n);
    ck_assert_int_eq(fclose(f), 0);
    return p;
}

/* A small good trace (two nodes, three events from 1612988400) and job
 * set (one job), as temporary files good.trace and good.jobs; the texts
 * themselves for tests that compare a file with them. */
#define TU_GOOD_TRACE                                                          \
    "bfsim-trace 1\nnode a\nnode b\n1612988400 +0\n1612988500 +1\n"            \
    "1612988600 -0\n"
#define TU_GOOD_JOBS                                                           \
    "# bfsim-jobs 1\njob,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"                \
    "A,1612988400,1,2,1000,1,1,0:0:0 1:1:1 2:2:2\n"

static inline const char *tu_good_trace(void)
{
    return tu_write("good.trace", TU_GOOD_TRACE);
}

static inline const char *tu_good_jobs(void)
{
    return tu_write("good.jobs", TU_GOOD_JOBS);
}

/* The first 12 bytes of files made by xz, bzip2, zip and zstd (of a
 * short trace), each format's name and the command that undoes it. */
static const struct {
    const char *head, *name, *undo;
} tu_compressed[] = {
    {"\xfd\x37\x7a\x58\x5a\x00\x00\x04\xe6\xd6\xb4\x46", "xz", "xz -d"},
    {"\x42\x5a\x68\x39\x31\x41\x59\x26\x53\x59\x1d\x3c", "bzip2", "bunzip2"},
    {"\x50\x4b\x03\x04\x14\x00\x00\x00\x08\x00\x03\x4c", "zip", "unzip"},
    {"\x28\xb5\x2f\xfd\x24\x31\x89\x01\x00\x62\x66\x73", "zstd", "zstd -d"},
};
#define TU_N_COMPRESSED (sizeof tu_compressed / sizeof *tu_compressed)

/* The whole content of a file (malloc'd), or NULL if it cannot be read. */
static inline char *tu_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0, n;
    if (!f)
        return NULL;
    do {
        BFS_GROW(buf, cap, len + 65536);
        n = fread(buf + len, 1, cap - len - 1, f);
        len += n;
    } while (n > 0);
    fclose(f);
    buf[len] = '\0';
    return buf;
}

/* Whether a file exists. */
static inline int tu_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The bfsim program of the build tree: $BFS_TOP_BUILDDIR/bfsim (set by
 * `make check`), else ./bfsim. */
static inline const char *tu_bfsim(void)
{
    const char *b = getenv("BFS_TOP_BUILDDIR");
    char *p = tu_keep(xmalloc(strlen(b ? b : ".") + 8));
    sprintf(p, "%s/bfsim", b ? b : ".");
    return p;
}

/* Runs "bfsim ARGS" (the build tree's, tu_bfsim) through the shell,
 * standard output discarded; returns its exit status, and its standard
 * error in *err (malloc'd).  The test fails if bfsim does not exit
 * normally. */
static inline int tu_bfsim_run(const char *args, char **err)
{
    const char *errf = tu_tmp("stderr.txt");
    char *cmd = xmalloc(strlen(args) + strlen(errf) + 4096);
    int st;

    sprintf(cmd, "%s %s >/dev/null 2>%s", tu_bfsim(), args, errf);
    st = system(cmd);
    free(cmd);
    *err = tu_slurp(errf);
    ck_assert_ptr_nonnull(*err);
    ck_assert_msg(WIFEXITED(st), "bfsim did not exit normally");
    return WEXITSTATUS(st);
}

/* The bfsim program of the build tree when `make check` names one
 * ($BFS_TOP_BUILDDIR/bfsim, and the file is there), else NULL: the tests
 * of the command line are then left out. */
static inline const char *tu_bfsim_built(void)
{
    static char path[4096];
    const char *b = getenv("BFS_TOP_BUILDDIR");

    if (!b || !*b)
        return NULL;
    snprintf(path, sizeof path, "%s/bfsim", b);
    return tu_exists(path) ? path : NULL;
}

/* Runs "bfsim ARGS" (tu_bfsim) through the shell; returns its exit
 * status, or -1 when it did not exit normally.  *out gets its standard
 * output and *err its standard error, or, when err is NULL, *out gets
 * both (malloc'd). */
static inline int tu_bfsim_output(const char *args, char **out, char **err)
{
    const char *o = tu_tmp("out.txt"), *r = tu_tmp("err.txt");
    const char *prog = tu_bfsim();
    char *cmd =
        xmalloc(strlen(prog) + strlen(args) + strlen(o) + strlen(r) + 16);
    int st;

    if (err)
        sprintf(cmd, "%s %s > %s 2> %s", prog, args, o, r);
    else
        sprintf(cmd, "%s %s > %s 2>&1", prog, args, o);
    st = system(cmd);
    free(cmd);
    *out = tu_slurp(o);
    if (err)
        *err = tu_slurp(r);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* How many times slower than usual a bfsim run is expected to be:
 * Check's CK_TIMEOUT_MULTIPLIER, which `make check-valgrind` sets
 * (valgrind runs bfsim tens of times slower); 1 when unset. */
static inline double tu_slowdown(void)
{
    const char *m = getenv("CK_TIMEOUT_MULTIPLIER");
    double k = m ? atof(m) : 1.0;

    return k >= 1.0 ? k : 1.0;
}

/* The names in directory dir but "." and "..", sorted (alphasort) and
 * joined with blanks (malloc'd); the test fails if dir cannot be read. */
static inline char *tu_dir_list(const char *dir)
{
    struct dirent **de;
    int n = scandir(dir, &de, NULL, alphasort);
    char *s = xcalloc(1, 1);
    size_t len = 0;

    ck_assert_msg(n >= 0, "cannot list %s", dir);
    for (int i = 0; i < n; i++) {
        const char *d = de[i]->d_name;
        if (strcmp(d, ".") != 0 && strcmp(d, "..") != 0) {
            s = xrealloc(s, len + strlen(d) + 2);
            len += (size_t)sprintf(s + len, "%s%s", len ? " " : "", d);
        }
        free(de[i]);
    }
    free(de);
    return s;
}

/* A copy of s that lives until exit, for argument vectors. */
static inline char *tu_arg(const char *s)
{
    return tu_keep(xstrdup(s));
}

/* Tests left out because what they need is absent: their names and the
 * reason, reported by tu_run as TAP skips. */
static const char *tu_skip_name[256], *tu_skip_why[256];
static size_t tu_n_skip;

/* Adds t to tc (a loop test over [start, end) when end > start) if the
 * published data (../shared/data) is there; otherwise records it as
 * skipped, and tu_run reports it with a TAP "# SKIP" line, which
 * Automake's driver (and so `make check` and `make distcheck`) counts as
 * a skip, not a pass. */
static inline void tu_add_shared_test(TCase *tc, const TTest *t, int start,
                                      int end)
{
    if (tu_shared()) {
        if (end > start)
            tcase_add_loop_test(tc, t, start, end);
        else
            tcase_add_test(tc, t);
    } else if (tu_n_skip < sizeof tu_skip_name / sizeof *tu_skip_name) {
        tu_skip_name[tu_n_skip] = t->name;
        tu_skip_why[tu_n_skip++] = "no published data in ../shared/data";
    }
}

/* Runs the suite in fork mode and returns the process exit status.
 * Check writes TAP (to standard output under `make check`) and ends it
 * with the plan "1..N"; when tests were skipped, its TAP goes to a
 * temporary file, copied here without the plan, followed by one
 * "ok K # SKIP" line per skipped test and the plan of them all. */
static inline int tu_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    char tapbuf[4096];
    const char *tap = NULL, *t = getenv("TMPDIR");
    int failed, n = 0, fd;

    /* Not tu_tmp(): its folder, made before the fork, would be removed
     * by the first test process to exit. */
    if (tu_n_skip) {
        snprintf(tapbuf, sizeof tapbuf, "%s/bfsim-tap.XXXXXX",
                 t && *t ? t : "/tmp");
        fd = mkstemp(tapbuf);
        if (fd < 0) { /* no ck_assert outside a test */
            perror("mkstemp");
            abort();
        }
        close(fd);
        tap = tapbuf;
        srunner_set_tap(sr, tap);
    }
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    if (tap) {
        char *text = tu_slurp(tap), *line, *next;
        for (line = text; line && *line; line = next) {
            next = strchr(line, '\n');
            if (next)
                *next++ = '\0';
            if (strncmp(line, "1..", 3) == 0)
                continue;
            if (strncmp(line, "ok ", 3) == 0 ||
                strncmp(line, "not ok ", 7) == 0)
                n++;
            printf("%s\n", line);
        }
        free(text);
        remove(tap);
        for (size_t i = 0; i < tu_n_skip; i++)
            printf("ok %d - %s # SKIP %s\n", ++n, tu_skip_name[i],
                   tu_skip_why[i]);
        printf("1..%d\n", n);
        fflush(stdout);
    }
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
