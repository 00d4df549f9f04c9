/* check_sweep.c - `bfsim sweep`: expansion order and exclusion, run ids,
 * configuration errors, the results table, resumption, shards (also
 * through GNU parallel), failed runs and an interrupted sweep.
 *
 * Expected lists and values are worked out by hand in the comments; run
 * ids are recomputed here with an FNV-1a written for the test and checked
 * against the published test vectors of the hash.  Most tests run the
 * bfsim program itself on a tiny trace, from "/" so that the
 * configuration's relative paths must be resolved against its own
 * directory.
 */
#include "config.h"

#include "engine/options.h"
#include "sweep/sweep.h"
#include "testsweep.h"

#include <check.h>
#include <dirent.h>
#include <hdf5.h>
#include <jansson.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- helpers ------------------------------------------------------------- */

/* FNV-1a 64, written independently of sweep.c. */
static uint64_t ref_fnv(const char *s)
{
    uint64_t h = 14695981039346656037ULL;
    for (; *s; s++) {
        h ^= (uint64_t)(unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return h;
}

static const char *ref_id(const char *canonical)
{
    char *p = tu_keep(xmalloc(17));
    snprintf(p, 17, "%016llx", (unsigned long long)ref_fnv(canonical));
    return p;
}

/* Runs "cd / && bfsim ARGS" capturing both outputs; returns the exit
 * status (or -1 if killed). */
static int run(const char *args, char **out, char **err)
{
    const char *of = tu_tmp("stdout.txt"), *ef = tu_tmp("stderr.txt");
    char *cmd = xmalloc(strlen(args) + strlen(of) + strlen(ef) + 4096);
    int st;

    sprintf(cmd, "cd / && %s %s >%s 2>%s", tu_bfsim(), args, of, ef);
    st = system(cmd);
    free(cmd);
    *out = tu_slurp(of);
    *err = tu_slurp(ef);
    ck_assert_ptr_nonnull(*out);
    ck_assert_ptr_nonnull(*err);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Runs and expects exit status `want`; frees the outputs. */
static void run_ok(const char *args, int want)
{
    char *out, *err;
    int st = run(args, &out, &err);
    ck_assert_msg(st == want, "bfsim %s: exit %d, wanted %d; stderr: %s", args,
                  st, want, err);
    free(out);
    free(err);
}

#define TINY_KEYS                                                              \
    "\"trace\": \"tiny.trace\", \"jobs\": \"tiny.jobs\",\n"                    \
    " \"compat\": \"bftrainer\", \"allocator\": \"even\",\n"

/* The canonical set of a tiny run: keys sorted by name. */
static const char *tiny_canon(int nodes, const char *tfwd)
{
    char *p = tu_keep(xmalloc(256));
    snprintf(p, 256,
             "allocator=even\ncompat=bftrainer\njobs=tiny.jobs\nnodes=%d\n"
             "tfwd=%s\ntrace=tiny.trace\n",
             nodes, tfwd);
    return p;
}

/* The lines of s (malloc'd copies), at most max. */
static size_t lines_of(const char *s, char **out, size_t max)
{
    size_t n = 0;
    const char *p = s;

    while (*p && n < max) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        out[n] = xmalloc(len + 1);
        memcpy(out[n], p, len);
        out[n][len] = '\0';
        n++;
        p += len + (nl ? 1 : 0);
    }
    return n;
}

static void free_lines(char **l, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(l[i]);
}

/* --list output: ids and statuses of up to max runs. */
static size_t list_runs(const char *args, char ids[][17], char st[][16],
                        size_t max)
{
    char *out, *err, *l[256];
    size_t n;
    int rc = run(args, &out, &err);

    ck_assert_msg(rc == 0, "%s: exit %d: %s", args, rc, err);
    n = lines_of(out, l, 256);
    ck_assert_uint_le(n, max);
    for (size_t i = 0; i < n; i++) {
        char *f[3];
        ck_assert_uint_eq(bfs_split(l[i], '\t', f, 3), 3);
        ck_assert_uint_eq(strlen(f[0]), 16);
        strcpy(ids[i], f[0]);
        snprintf(st[i], 16, "%s", f[1]);
    }
    free_lines(l, n);
    free(out);
    free(err);
    return n;
}

/* A CSV file without its timing columns (no quoted fields expected). */
static char *csv_without_timing(const char *path)
{
    char *text = tu_slurp(path), *l[256], *res;
    int keep[256];
    size_t n, nh, len = 0, dropped = 0;

    ck_assert_msg(text != NULL, "cannot read %s", path);
    ck_assert_ptr_null(strchr(text, '"'));
    n = lines_of(text, l, 256);
    ck_assert_uint_ge(n, 1);
    res = xcalloc(strlen(text) + 1, 1);
    for (size_t i = 0; i < n; i++) {
        char *f[256];
        size_t nf = bfs_split(l[i], ',', f, 256);
        ck_assert_uint_le(nf, 256);
        if (i == 0) {
            nh = nf;
            for (size_t c = 0; c < nf; c++) {
                keep[c] = !tu_machine_column(f[c]);
                dropped += !keep[c];
            }
        }
        ck_assert_uint_eq(nf, nh);
        for (size_t c = 0; c < nf; c++) {
            if (!keep[c])
                continue;
            len += (size_t)sprintf(res + len, "%s%s", c ? "," : "", f[c]);
        }
        res[len++] = '\n';
    }
    /* The timing columns were there to drop. */
    ck_assert_uint_eq(dropped, TU_MACHINE_COLS);
    free_lines(l, n);
    free(text);
    return res;
}

/* The column `name` of a CSV file, row by row, in out[] (malloc'd). */
static size_t csv_column(const char *path, const char *name, char **out,
                         size_t max)
{
    char *text = tu_slurp(path), *l[256];
    size_t n, col = (size_t)-1, rows = 0;

    ck_assert_msg(text != NULL, "cannot read %s", path);
    n = lines_of(text, l, 256);
    for (size_t i = 0; i < n; i++) {
        char *f[256];
        size_t nf = bfs_split(l[i], ',', f, 256);
        if (i == 0) {
            for (size_t c = 0; c < nf; c++)
                if (strcmp(f[c], name) == 0)
                    col = c;
            ck_assert_msg(col != (size_t)-1, "no column %s in %s", name, path);
            continue;
        }
        ck_assert_uint_lt(rows, max);
        out[rows++] = xstrdup(f[col]);
    }
    free_lines(l, n);
    free(text);
    return rows;
}

static int file_has(const char *path, const char *needle)
{
    char *t = tu_slurp(path);
    int r = t && strstr(t, needle) != NULL;
    free(t);
    return r;
}

/* ---- the hash ------------------------------------------------------------ */

/* The published FNV-1a 64 test vectors. */
START_TEST(test_fnv_vectors)
{
    ck_assert_str_eq(ref_id(""), "cbf29ce484222325");
    ck_assert_str_eq(ref_id("a"), "af63dc4c8601ec8c");
    ck_assert_str_eq(ref_id("foobar"), "85944171f73967e8");
}
END_TEST

/* ---- expansion (the library) --------------------------------------------- */

/* 3 x 2 x 3 = 18 runs, the last key fastest. */
static const char *const grid18[] = {
    "tfwd=5 allocator=even max-jobs=1",  "tfwd=5 allocator=even max-jobs=2",
    "tfwd=5 allocator=even max-jobs=3",  "tfwd=5 allocator=dp max-jobs=1",
    "tfwd=5 allocator=dp max-jobs=2",    "tfwd=5 allocator=dp max-jobs=3",
    "tfwd=10 allocator=even max-jobs=1", "tfwd=10 allocator=even max-jobs=2",
    "tfwd=10 allocator=even max-jobs=3", "tfwd=10 allocator=dp max-jobs=1",
    "tfwd=10 allocator=dp max-jobs=2",   "tfwd=10 allocator=dp max-jobs=3",
    "tfwd=20 allocator=even max-jobs=1", "tfwd=20 allocator=even max-jobs=2",
    "tfwd=20 allocator=even max-jobs=3", "tfwd=20 allocator=dp max-jobs=1",
    "tfwd=20 allocator=dp max-jobs=2",   "tfwd=20 allocator=dp max-jobs=3",
};

/* The same minus {dp, max-jobs 2} (3 runs: one per tfwd) and {tfwd 20,
 * even} (3 runs: one per max-jobs); the two sets do not overlap (dp vs
 * even), so 18 - 6 = 12 remain. */
static const char *const grid12[] = {
    "tfwd=5 allocator=even max-jobs=1",  "tfwd=5 allocator=even max-jobs=2",
    "tfwd=5 allocator=even max-jobs=3",  "tfwd=5 allocator=dp max-jobs=1",
    "tfwd=5 allocator=dp max-jobs=3",    "tfwd=10 allocator=even max-jobs=1",
    "tfwd=10 allocator=even max-jobs=2", "tfwd=10 allocator=even max-jobs=3",
    "tfwd=10 allocator=dp max-jobs=1",   "tfwd=10 allocator=dp max-jobs=3",
    "tfwd=20 allocator=dp max-jobs=1",   "tfwd=20 allocator=dp max-jobs=3",
};

#define GRID                                                                   \
    "{\"tfwd\": [5, 10, 20], \"allocator\": [\"even\", \"dp\"],\n"             \
    " \"max-jobs\": [1, 2, 3]"
#define GRID_EXCLUDE                                                           \
    ",\n \"exclude\": [{\"allocator\": \"dp\", \"max-jobs\": 2},\n"            \
    "             {\"tfwd\": 20, \"allocator\": \"even\"}]"

static void check_grid(const char *config, const char *const *want, size_t n,
                       size_t n_excl)
{
    struct sweep s;
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_msg(sweep_load(config, &s, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(s.n_runs, n);
    ck_assert_uint_eq(s.n_excluded, n_excl);
    ck_assert_uint_eq(s.n_keys, 3);
    for (size_t r = 0; r < n; r++) {
        char *d = sweep_describe(&s, r);
        ck_assert_str_eq(d, want[r]);
        free(d);
    }
    sweep_release(&s);
}

START_TEST(test_expand_order)
{
    const char *dir = tu_dir("expand");
    const char *all = tu_path_in(dir, "all.json");
    const char *some = tu_path_in(dir, "some.json");
    char args[4096], ids[32][17], st[32][16], *out, *err, *l[32];
    size_t n;

    tu_write_at(all, GRID "}\n");
    tu_write_at(some, GRID GRID_EXCLUDE "}\n");
    check_grid(all, grid18, 18, 0);
    check_grid(some, grid12, 12, 6);

    /* The same order from the program, with pending runs. */
    snprintf(args, sizeof args, "sweep %s --list", some);
    ck_assert_int_eq(run(args, &out, &err), 0);
    n = lines_of(out, l, 32);
    ck_assert_uint_eq(n, 12);
    for (size_t i = 0; i < n; i++) {
        char *f[3];
        ck_assert_uint_eq(bfs_split(l[i], '\t', f, 3), 3);
        ck_assert_str_eq(f[1], "pending");
        ck_assert_str_eq(f[2], grid12[i]);
    }
    free_lines(l, n);
    free(out);
    free(err);
    /* --list writes nothing. */
    ck_assert_int_eq(tu_exists(tu_path_in(dir, "some.sweep")), 0);
    ck_assert_uint_eq(list_runs(args, ids, st, 32), 12);
}
END_TEST

/* ---- ids ----------------------------------------------------------------- */

START_TEST(test_id_stability)
{
    const char *dir = tu_dir("ids");
    const char *a = tu_path_in(dir, "a.json"), *b = tu_path_in(dir, "b.json");
    const char *c = tu_path_in(dir, "c.json"), *d = tu_path_in(dir, "d.json");
    struct sweep sa, sb, sc, sd;
    struct bfs_error e;
    size_t matched = 0;
    char *canon;

    /* b: the keys in another order, 5 written as 5.0, more values. */
    tu_write_at(a, "{\"trace\": \"t.trace\", \"tfwd\": [5, 10],\n"
                   " \"allocator\": [\"even\", \"dp\"]}\n");
    tu_write_at(b, "{\"allocator\": [\"dp\", \"milp\", \"even\"],\n"
                   " \"tfwd\": [20, 10, 5.0], \"trace\": \"t.trace\"}\n");
    /* c: a flag left false is the flag absent; d: given. */
    tu_write_at(c, "{\"trace\": \"t.trace\", \"tfwd\": 5, \"allocator\": "
                   "\"even\", \"apply-feasible\": false}\n");
    tu_write_at(d, "{\"trace\": \"t.trace\", \"tfwd\": 5, \"allocator\": "
                   "\"even\", \"apply-feasible\": true}\n");
    bfs_error_clear(&e);
    ck_assert_msg(sweep_load(a, &sa, &e) == 0, "%s", e.msg);
    ck_assert_msg(sweep_load(b, &sb, &e) == 0, "%s", e.msg);
    ck_assert_msg(sweep_load(c, &sc, &e) == 0, "%s", e.msg);
    ck_assert_msg(sweep_load(d, &sd, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(sa.n_runs, 4);
    ck_assert_uint_eq(sb.n_runs, 9);

    /* a's first run: tfwd 5, even. */
    canon = sweep_canonical(&sa, 0);
    ck_assert_str_eq(canon, "allocator=even\ntfwd=5\ntrace=t.trace\n");
    free(canon);
    ck_assert_str_eq(sa.runs[0].hex,
                     ref_id("allocator=even\ntfwd=5\ntrace=t.trace\n"));
    ck_assert_str_eq(sa.runs[3].hex,
                     ref_id("allocator=dp\ntfwd=10\ntrace=t.trace\n"));
    /* Every run of a is in b, under the same id. */
    for (size_t i = 0; i < sa.n_runs; i++)
        for (size_t j = 0; j < sb.n_runs; j++)
            if (strcmp(sa.runs[i].hex, sb.runs[j].hex) == 0)
                matched++;
    ck_assert_uint_eq(matched, 4);
    /* b's order: allocator slowest: dp,tfwd=20 is first; even,5.0 last. */
    ck_assert_str_eq(sb.runs[0].hex,
                     ref_id("allocator=dp\ntfwd=20\ntrace=t.trace\n"));
    ck_assert_str_eq(sb.runs[8].hex, sa.runs[0].hex);

    ck_assert_str_eq(sc.runs[0].hex, sa.runs[0].hex);
    ck_assert_str_eq(
        sd.runs[0].hex,
        ref_id("allocator=even\napply-feasible=true\ntfwd=5\ntrace=t.trace\n"));
    sweep_release(&sa);
    sweep_release(&sb);
    sweep_release(&sc);
    sweep_release(&sd);
}
END_TEST

/* ---- configuration errors ------------------------------------------------ */

/* Two runs whose canonical option sets have the same FNV-1a 64 hash: the
 * values below were found for this test by a distinguished-point
 * (Pollard rho) collision search over 11-character strings, about 10^10
 * hashes, and ref_fnv (written independently of sweep.c) confirms that
 * "x=NmUcJ9Sbc81\n" and "x=f4c49ngUJ1D\n" both hash to 71864fda8dd94e73.
 * sweep_load must refuse the configuration naming that id (the message
 * used to read the id array after freeing it: ASan's use-after-free). */
START_TEST(test_id_collision)
{
    const char *cfg = tu_write("collide.json",
                               "{\"x\": [\"NmUcJ9Sbc81\", \"f4c49ngUJ1D\"]}\n");
    struct sweep s;
    struct bfs_error e;
    char want[4200];

    ck_assert_str_eq(ref_id("x=NmUcJ9Sbc81\n"), "71864fda8dd94e73");
    ck_assert_str_eq(ref_id("x=f4c49ngUJ1D\n"), "71864fda8dd94e73");
    bfs_error_clear(&e);
    ck_assert_int_eq(sweep_load(cfg, &s, &e), BFS_EINVAL);
    snprintf(want, sizeof want,
             "%s: two runs have the same id 71864fda8dd94e73 (a hash "
             "collision: change a value slightly)",
             cfg);
    ck_assert_str_eq(e.msg, want);
}
END_TEST

/* A configuration sweep_load rejects: the message names the file, the
 * line where it applies, and the problem. */
static void expect_load_error(const char *name, const char *text,
                              const char *where, const char *what)
{
    const char *cfg = tu_path_in(tu_dir("errors"), name);
    struct sweep s;
    struct bfs_error e;

    if (text)
        tu_write_at(cfg, text);
    bfs_error_clear(&e);
    ck_assert_msg(sweep_load(cfg, &s, &e) != 0, "%s: accepted", name);
    ck_assert_msg(strstr(e.msg, where) != NULL, "%s: expected '%s' in: %s",
                  name, where, e.msg);
    ck_assert_msg(strstr(e.msg, what) != NULL, "%s: expected '%s' in: %s", name,
                  what, e.msg);
}

/* The same through the program: exit status 1, the message on standard
 * error, nothing run or created. */
static void expect_config_error(const char *name, const char *text,
                                const char *where, const char *what)
{
    const char *dir = tu_dir("errors");
    const char *cfg = tu_path_in(dir, name);
    char args[4096], *out, *err, outdir[4096];
    int st;

    tu_write_at(cfg, text);
    snprintf(args, sizeof args, "sweep %s -q", cfg);
    st = run(args, &out, &err);
    ck_assert_msg(st == 1, "%s: exit %d (%s)", name, st, err);
    ck_assert_msg(strstr(err, where) != NULL, "%s: expected '%s' in: %s", name,
                  where, err);
    ck_assert_msg(strstr(err, what) != NULL, "%s: expected '%s' in: %s", name,
                  what, err);
    snprintf(outdir, sizeof outdir, "%.*s.sweep", (int)(strlen(cfg) - 5), cfg);
    ck_assert_int_eq(tu_exists(outdir), 0);
    free(out);
    free(err);
}

START_TEST(test_config_errors)
{
    expect_config_error("syntax.json", "{\"tfwd\": [5,\n 10,]\n}\n",
                        "syntax.json:2: column", "");
    expect_config_error("reserved.json",
                        "{\"tfwd\": 5,\n \"summary\": \"s.json\"}\n",
                        "reserved.json:2: ", "'summary' cannot be set");
    expect_config_error(
        "unknown.json", "{\"trace\": \"t\",\n\n \"tfdw\": [5, 10]}\n",
        "unknown.json:3: ", "'tfdw' is not an option of bfsim replay");
    /* A NUL byte used to end the text silently (json_loadb of strlen):
     * the option after it was dropped.  Line 2, column 11. */
    {
        static const char nul[] = "{\"tfwd\": 5,\n \"tfdw\": 1\0, \"x\": 2}\n";
        const char *cfg = tu_path_in(tu_dir("errors"), "nul.json");
        FILE *f = fopen(cfg, "wb");
        ck_assert_ptr_nonnull(f);
        ck_assert_uint_eq(fwrite(nul, 1, sizeof nul - 1, f), sizeof nul - 1);
        ck_assert_int_eq(fclose(f), 0);
        expect_load_error("nul.json", NULL,
                          "nul.json:2: ", "NUL byte at column 11");
    }
    /* An abbreviation getopt would take is refused too. */
    expect_config_error("abbrev.json", "{\"tf\": 5}\n",
                        "abbrev.json:1: ", "'tf' is not an option");

    /* A value that does not fit the option: caught before anything runs */
    expect_config_error(
        "flagval.json", "{\"tfwd\": 5,\n \"align-jobs\": 1}\n",
        "flagval.json:2: ", "'1' is not a value of the flag --align-jobs");
    expect_config_error("argtrue.json", "{\"tfwd\": [5, true]}\n",
                        "argtrue.json:1: ", "true is not a value of --tfwd");

    expect_load_error("array.json", "[{\"tfwd\": 5}]\n",
                      "array.json: ", "JSON object");
    expect_load_error("output.json", "{\"o\": \"x.h5\"}\n",
                      "output.json:1: ", "'o' cannot be set");
    expect_load_error("quiet.json", "{\"tfwd\": 5,\n \"q\": true}\n",
                      "quiet.json:2: ", "'q' cannot be set");
    expect_load_error("joblog.json", "{\"job-log\": \"l.csv\"}\n",
                      "joblog.json:1: ", "'job-log' cannot be set");
    expect_load_error("empty.json", "{\"tfwd\": []}\n",
                      "empty.json:1: ", "tfwd: empty array");
    expect_load_error("object.json", "{\"tfwd\": {\"a\": 1}}\n",
                      "object.json:1: ", "an object is not an option value");
    expect_load_error("null.json", "{\"nodes\": [1, null]}\n",
                      "null.json:1: ", "nodes[1]: null");
    expect_load_error("nested.json", "{\"nodes\": [1, [2]]}\n",
                      "nested.json:1: ", "nodes[1]: an array inside");
    expect_load_error("twice.json", "{\"tfwd\": [5, 10, 5.0]}\n",
                      "twice.json:1: ", "the value 5 appears twice");
    expect_load_error("dup.json", "{\"tfwd\": 5,\n\"tfwd\": 6}\n",
                      "dup.json:2: ", "duplicate");
    expect_load_error("excl1.json",
                      "{\"tfwd\": [5, 10],\n \"exclude\": {\"tfwd\": 5}}\n",
                      "excl1.json:2: ", "exclude: must be an array");
    expect_load_error(
        "excl2.json", "{\"tfwd\": [5, 10],\n \"exclude\": [{\"tfwd\": 7}]}\n",
        "excl2.json:2: ", "exclude[0]: tfwd=7 is not one of the values");
    expect_load_error("excl3.json",
                      "{\"tfwd\": [5, 10],\n \"exclude\": [{\"nodes\": 1}]}\n",
                      "excl3.json:2: ", "exclude[0]: 'nodes' is not a key");
    expect_load_error("excl4.json",
                      "{\"tfwd\": [5, 10],\n \"exclude\": [{}]}\n",
                      "excl4.json:2: ", "exclude[0]: an empty object");
    expect_load_error(
        "excl5.json",
        "{\"tfwd\": [5, 10],\n \"exclude\": [{\"tfwd\": null}]}\n",
        "excl5.json:2: ", "exclude[0]: tfwd: null");
    expect_load_error("dashes.json", "{\"--tfwd\": 5}\n",
                      "dashes.json:1: ", "not an option name");
    expect_load_error("control.json", "{\"trace\": \"a\\nb\"}\n",
                      "control.json:1: ", "control character");
    expect_load_error("missing.json", NULL, "missing.json", "cannot open");
}
END_TEST

/* sweep_check_keys on a configuration of one key with one value. */
static int check_one(const char *name, enum sweep_kind kind, const char *text,
                     struct bfs_error *e)
{
    struct sweep_value v = {kind, 0, xstrdup(text)};
    struct sweep_key k = {xstrdup(name), &v, 1, 0, 7};
    struct sweep s = {0};
    int rc;

    s.path = xstrdup("c.json");
    s.keys = &k;
    s.n_keys = 1;
    bfs_error_clear(e);
    rc = sweep_check_keys(&s, e);
    free(s.path);
    free(k.name);
    free(v.text);
    return rc;
}

/* The keys a sweep may set: every option of the replay's table except
 * the seven the sweep sets itself, by hand: steps, summary, job-log,
 * output, quiet, help, batsim-jobs (and the short names o, q, h). */
START_TEST(test_check_keys)
{
    static const char *const managed[] = {
        "steps", "summary", "job-log", "output", "quiet",
        "help",  "o",       "q",       "h",      "batsim-jobs"};
    size_t n_ok = 0, n_managed = 0;
    struct bfs_error e;

    for (size_t i = 0; i < options_count; i++) {
        const struct options_entry *o = &options_table[i];
        int rc, want_ok = 1;

        for (size_t m = 0; m < sizeof managed / sizeof *managed; m++)
            if (strcmp(managed[m], o->name) == 0)
                want_ok = 0;
        rc = check_one(o->name, o->arg ? SWEEP_ARG : SWEEP_ON,
                       o->arg ? "1" : "true", &e);
        ck_assert_msg((rc == 0) == want_ok, "%s: %d (%s)", o->name, rc, e.msg);
        /* false (the option left out) fits every option */
        if (want_ok)
            ck_assert_int_eq(check_one(o->name, SWEEP_OFF, "false", &e), 0);
        n_ok += rc == 0;
        n_managed += !want_ok;
    }
    /* every option of the table but the managed ones, each named once */
    ck_assert_uint_eq(n_ok, options_count - n_managed);
    ck_assert_uint_eq(n_managed, sizeof managed / sizeof *managed - 3);
    for (size_t m = 0; m < sizeof managed / sizeof *managed; m++) {
        ck_assert_int_eq(check_one(managed[m], SWEEP_ARG, "x", &e), BFS_EINVAL);
        ck_assert_msg(strstr(e.msg, "c.json:7: ") &&
                          strstr(e.msg, "cannot be set in a sweep"),
                      "%s", e.msg);
    }
    ck_assert_int_eq(check_one("tfdw", SWEEP_ARG, "5", &e), BFS_EINVAL);
    ck_assert_msg(strstr(e.msg, "c.json:7: 'tfdw' is not an option"), "%s",
                  e.msg);
    ck_assert_int_eq(check_one("tf", SWEEP_ARG, "5", &e), BFS_EINVAL);
    ck_assert_int_eq(check_one("x", SWEEP_ON, "true", &e), BFS_EINVAL);
    ck_assert_int_eq(check_one("tfwd", SWEEP_ON, "true", &e), BFS_EINVAL);
    ck_assert_msg(strstr(e.msg, "c.json:7: tfwd: true is not a value"), "%s",
                  e.msg);
    ck_assert_int_eq(check_one("apply-feasible", SWEEP_ARG, "yes", &e),
                     BFS_EINVAL);
    ck_assert_msg(strstr(e.msg, "c.json:7: apply-feasible: 'yes'"), "%s",
                  e.msg);
    ck_assert_int_eq(check_one("dump-instances", SWEEP_ARG, "inst", &e), 0);
}
END_TEST

START_TEST(test_usage_errors)
{
    const char *dir = tu_dir("usage");
    const char *cfg = tu_path_in(dir, "u.json");
    char args[4096];

    tu_write_at(cfg, "{\"tfwd\": [5, 10]}\n");
    run_ok("sweep", 2);
    run_ok("sweep --help", 0);
    snprintf(args, sizeof args, "sweep %s --shard 3/3", cfg);
    run_ok(args, 2);
    snprintf(args, sizeof args, "sweep %s --shard 1", cfg);
    run_ok(args, 2);
    snprintf(args, sizeof args, "sweep %s -j 0", cfg);
    run_ok(args, 2);
    snprintf(args, sizeof args, "sweep %s --merge --list", cfg);
    run_ok(args, 2);
    snprintf(args, sizeof args, "sweep %s --merge --shard 0/2", cfg);
    run_ok(args, 2);
    snprintf(args, sizeof args, "sweep %s %s", cfg, cfg);
    run_ok(args, 2);
    snprintf(args, sizeof args, "sweep %s/missing.json", dir);
    run_ok(args, 1);
}
END_TEST

/* ---- running, the table -------------------------------------------------- */

#define HEADER_START "id,trace,jobs,compat,allocator,nodes,tfwd,"
#define TINY4 "{" TINY_KEYS " \"nodes\": [1, 2], \"tfwd\": [10, 20]}\n"

START_TEST(test_table)
{
    const char *dir = tu_dir("table");
    const char *cfg = tu_path_in(dir, "tiny.json");
    const char *csv = tu_path_in(dir, "tiny.sweep/results.csv");
    const char *want_ids[4] = {
        ref_id(tiny_canon(1, "10")), ref_id(tiny_canon(1, "20")),
        ref_id(tiny_canon(2, "10")), ref_id(tiny_canon(2, "20"))};
    const char *samples[4] = {"1000", "1000", "2000", "2000"};
    const char *idle[4] = {"100", "100", "200", "200"};
    char args[4096], *col[16], *text;
    size_t n;

    tu_tiny_inputs(dir);
    tu_write_at(cfg, TINY4);
    snprintf(args, sizeof args, "sweep %s -j 2 -q", cfg);
    run_ok(args, 0);

    text = tu_slurp(csv);
    ck_assert_ptr_nonnull(text);
    /* id, the keys in file order, then the measures; the summary's own
     * "allocator" and "nodes" are renamed, being keys too. */
    ck_assert_msg(strncmp(text, HEADER_START, strlen(HEADER_START)) == 0,
                  "header: %.200s", text);
    ck_assert_ptr_nonnull(strstr(text, ",samples_trained,"));
    ck_assert_ptr_nonnull(strstr(text, ",summary.allocator,"));
    ck_assert_ptr_nonnull(strstr(text, ",summary.nodes,"));
    ck_assert_ptr_nonnull(strstr(text, ",solves_by_status.optimal,"));
    free(text);

    n = csv_column(csv, "id", col, 16);
    ck_assert_uint_eq(n, 4);
    for (size_t i = 0; i < n; i++) {
        ck_assert_str_eq(col[i], want_ids[i]);
        free(col[i]);
    }
    n = csv_column(csv, "samples_trained", col, 16);
    ck_assert_uint_eq(n, 4);
    for (size_t i = 0; i < n; i++) {
        ck_assert_str_eq(col[i], samples[i]);
        free(col[i]);
    }
    n = csv_column(csv, "idle_node_seconds", col, 16);
    for (size_t i = 0; i < n; i++) {
        ck_assert_str_eq(col[i], idle[i]);
        free(col[i]);
    }
    n = csv_column(csv, "events", col, 16);
    for (size_t i = 0; i < n; i++) {
        ck_assert_str_eq(col[i], "1");
        free(col[i]);
    }
    n = csv_column(csv, "tfwd", col, 16);
    ck_assert_str_eq(col[0], "10");
    ck_assert_str_eq(col[1], "20");
    for (size_t i = 0; i < n; i++)
        free(col[i]);

    /* Each run's directory. */
    for (size_t i = 0; i < 4; i++) {
        char rd[4096];
        snprintf(rd, sizeof rd, "%s/tiny.sweep/runs/%s/", dir, want_ids[i]);
        ck_assert(tu_exists(tu_path_in(rd, "options.json")));
        ck_assert(tu_exists(tu_path_in(rd, "summary.json")));
        ck_assert(tu_exists(tu_path_in(rd, "run.h5")));
        ck_assert(tu_exists(tu_path_in(rd, "log.txt")));
        ck_assert(
            file_has(tu_path_in(rd, "summary.json"), "\"partial\": false"));
        ck_assert(file_has(tu_path_in(rd, "options.json"),
                           i < 2 ? "\"nodes\": 1" : "\"nodes\": 2"));
    }

    /* The HDF5 table: the same rows, read by field name. */
    {
        struct row {
            char id[17];
            double samples;
            char tfwd[8];
        } rows[4];
        hid_t f = H5Fopen(tu_path_in(dir, "tiny.sweep/results.h5"),
                          H5F_ACC_RDONLY, H5P_DEFAULT);
        hid_t d = H5Dopen2(f, "results", H5P_DEFAULT);
        hid_t sp = H5Dget_space(d), t = H5Tcreate(H5T_COMPOUND, sizeof *rows);
        hid_t s17 = H5Tcopy(H5T_C_S1), s8 = H5Tcopy(H5T_C_S1);
        hsize_t dims;

        ck_assert_int_ge(f, 0);
        ck_assert_int_ge(d, 0);
        H5Tset_size(s17, 17);
        H5Tset_size(s8, 8);
        H5Tset_cset(s17, H5T_CSET_UTF8);
        H5Tset_cset(s8, H5T_CSET_UTF8);
        H5Tinsert(t, "id", offsetof(struct row, id), s17);
        H5Tinsert(t, "samples_trained", offsetof(struct row, samples),
                  H5T_NATIVE_DOUBLE);
        H5Tinsert(t, "tfwd", offsetof(struct row, tfwd), s8);
        ck_assert_int_eq(H5Sget_simple_extent_dims(sp, &dims, NULL), 1);
        ck_assert_uint_eq(dims, 4);
        ck_assert_int_ge(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows), 0);
        for (size_t i = 0; i < 4; i++) {
            ck_assert_str_eq(rows[i].id, want_ids[i]);
            ck_assert_double_eq(rows[i].samples, i < 2 ? 1000.0 : 2000.0);
            ck_assert_str_eq(rows[i].tfwd, i % 2 ? "20" : "10");
        }
        H5Tclose(s8);
        H5Tclose(s17);
        H5Tclose(t);
        H5Sclose(sp);
        H5Dclose(d);
        H5Fclose(f);
    }
    /* Nothing temporary left behind. */
    snprintf(args, sizeof args, "ls %s/tiny.sweep | grep -q tmp", dir);
    ck_assert_int_ne(system(args), 0);
}
END_TEST

/* ---- resumption ---------------------------------------------------------- */

/* Writes MARKER into every run's log; a run executed again truncates
 * its log (and a quiet replay writes nothing to it). */
static void mark_logs(const char *dir, char ids[][17], size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char p[4096];
        snprintf(p, sizeof p, "%s/runs/%s/log.txt", dir, ids[i]);
        tu_write_at(p, "MARKER\n");
    }
}

static int marked(const char *dir, const char *id)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/runs/%s/log.txt", dir, id);
    return file_has(p, "MARKER");
}

START_TEST(test_resume)
{
    const char *dir = tu_dir("resume");
    const char *cfg = tu_path_in(dir, "r.json");
    const char *out = tu_path_in(dir, "r.sweep");
    char args[4096], ids[8][17], st[8][16], ids6[8][17], st6[8][16], p[4096];
    char *text, *edited;
    size_t n;

    tu_tiny_inputs(dir);
    tu_write_at(cfg, TINY4);
    snprintf(args, sizeof args, "sweep %s -q", cfg);
    run_ok(args, 0);
    snprintf(args, sizeof args, "sweep %s --list", cfg);
    ck_assert_uint_eq(list_runs(args, ids, st, 8), 4);
    for (size_t i = 0; i < 4; i++)
        ck_assert_str_eq(st[i], "complete");

    /* Run 1's summary becomes partial, run 2's disappears. */
    mark_logs(out, ids, 4);
    snprintf(p, sizeof p, "%s/runs/%s/summary.json", out, ids[1]);
    text = tu_slurp(p);
    ck_assert_ptr_nonnull(text);
    edited = strstr(text, "\"partial\": false");
    ck_assert_ptr_nonnull(edited);
    memcpy(edited, "\"partial\": true ", 16); /* same length */
    tu_write_at(p, text);
    free(text);
    snprintf(p, sizeof p, "%s/runs/%s/summary.json", out, ids[2]);
    ck_assert_int_eq(unlink(p), 0);
    ck_assert_uint_eq(list_runs(args, ids, st, 8), 4);
    ck_assert_str_eq(st[0], "complete");
    ck_assert_str_eq(st[1], "pending");
    ck_assert_str_eq(st[2], "pending");
    ck_assert_str_eq(st[3], "complete");

    /* What a replay killed outright leaves behind goes when its run is
     * executed again. */
    snprintf(p, sizeof p, "%s/runs/%s/run.h5.tmp.AbC123", out, ids[2]);
    tu_write_at(p, "stale");

    /* Rerun: only runs 1 and 2 are executed again. */
    snprintf(args, sizeof args, "sweep %s -q", cfg);
    run_ok(args, 0);
    ck_assert_int_eq(tu_exists(p), 0);
    ck_assert(marked(out, ids[0]));
    ck_assert(!marked(out, ids[1]));
    ck_assert(!marked(out, ids[2]));
    ck_assert(marked(out, ids[3]));

    /* A third tfwd: 6 runs, the 4 old ones keep their ids and are not
     * run again; the 2 new ones (index 2 and 5) are. */
    mark_logs(out, ids, 4);
    tu_write_at(cfg,
                "{" TINY_KEYS " \"nodes\": [1, 2], \"tfwd\": [10, 20, 30]}\n");
    snprintf(args, sizeof args, "sweep %s --list", cfg);
    ck_assert_uint_eq(list_runs(args, ids6, st6, 8), 6);
    ck_assert_str_eq(ids6[0], ids[0]);
    ck_assert_str_eq(ids6[1], ids[1]);
    ck_assert_str_eq(ids6[3], ids[2]);
    ck_assert_str_eq(ids6[4], ids[3]);
    ck_assert_str_eq(ids6[2], ref_id(tiny_canon(1, "30")));
    ck_assert_str_eq(ids6[5], ref_id(tiny_canon(2, "30")));
    ck_assert_str_eq(st6[2], "pending");
    ck_assert_str_eq(st6[5], "pending");
    snprintf(args, sizeof args, "sweep %s -q", cfg);
    run_ok(args, 0);
    for (size_t i = 0; i < 4; i++)
        ck_assert(marked(out, ids[i]));
    snprintf(p, sizeof p, "%s/runs/%s/summary.json", out, ids6[2]);
    ck_assert(file_has(p, "\"partial\": false"));
    snprintf(p, sizeof p, "%s/results.csv", out);
    n = 0;
    {
        char *col[16];
        n = csv_column(p, "id", col, 16);
        ck_assert_uint_eq(n, 6);
        for (size_t i = 0; i < n; i++) {
            ck_assert_str_eq(col[i], ids6[i]);
            free(col[i]);
        }
    }
}
END_TEST

/* ---- shards -------------------------------------------------------------- */

/* Four runs in three shards: shard 0 has runs 0 and 3, shard 1 run 1,
 * shard 2 run 2. */
START_TEST(test_shards)
{
    const char *dir = tu_dir("shards");
    const char *cfg = tu_path_in(dir, "s.json");
    static const size_t want[3][2] = {{0, 3}, {1, 9}, {2, 9}};
    char args[4096], all[8][17], st[8][16], part[8][17], *a, *b, *col[16];
    int seen[8] = {0};
    size_t n;

    tu_tiny_inputs(dir);
    tu_write_at(cfg, TINY4);
    snprintf(args, sizeof args, "sweep %s --list", cfg);
    ck_assert_uint_eq(list_runs(args, all, st, 8), 4);
    for (size_t i = 0; i < 3; i++) {
        snprintf(args, sizeof args, "sweep %s --list --shard %zu/3", cfg, i);
        n = list_runs(args, part, st, 8);
        ck_assert_uint_eq(n, i == 0 ? 2 : 1);
        for (size_t j = 0; j < n; j++) {
            ck_assert_str_eq(part[j], all[want[i][j]]);
            seen[want[i][j]]++;
        }
    }
    for (size_t k = 0; k < 4; k++)
        ck_assert_int_eq(seen[k], 1);

    /* One shard alone: its 2 runs, and the table holds just them. */
    snprintf(args, sizeof args, "sweep %s -q --out %s/sh --shard 0/3", cfg,
             dir);
    run_ok(args, 0);
    n = csv_column(tu_path_in(dir, "sh/results.csv"), "id", col, 16);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(col[0], all[0]);
    ck_assert_str_eq(col[1], all[3]);
    for (size_t i = 0; i < n; i++)
        free(col[i]);
    /* The other shards, then --merge, equal one process's table. */
    for (size_t i = 1; i < 3; i++) {
        snprintf(args, sizeof args, "sweep %s -q --out %s/sh --shard %zu/3",
                 cfg, dir, i);
        run_ok(args, 0);
    }
    snprintf(args, sizeof args, "sweep %s -q --out %s/sh --merge", cfg, dir);
    run_ok(args, 0);
    snprintf(args, sizeof args, "sweep %s -q --out %s/one", cfg, dir);
    run_ok(args, 0);
    a = csv_without_timing(tu_path_in(dir, "sh/results.csv"));
    b = csv_without_timing(tu_path_in(dir, "one/results.csv"));
    ck_assert_str_eq(a, b);
    n = csv_column(tu_path_in(dir, "sh/results.csv"), "id", col, 16);
    ck_assert_uint_eq(n, 4);
    for (size_t i = 0; i < n; i++) {
        ck_assert_str_eq(col[i], all[i]);
        free(col[i]);
    }
    free(a);
    free(b);
}
END_TEST

START_TEST(test_gnu_parallel)
{
    const char *dir = tu_dir("parallel");
    const char *cfg = tu_path_in(dir, "p.json");
    char cmd[8192], *a, *b;

    if (system("command -v parallel >/dev/null 2>&1") != 0) {
        fputs("GNU parallel missing: test_gnu_parallel skipped\n", stderr);
        return;
    }
    tu_tiny_inputs(dir);
    tu_write_at(cfg, TINY4);
    snprintf(cmd, sizeof cmd,
             "cd / && parallel --will-cite %s sweep %s -q --out %s/par "
             "--shard {}/3 ::: 0 1 2 </dev/null >/dev/null 2>&1",
             tu_bfsim(), cfg, dir);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "sweep %s -q --out %s/par --merge", cfg, dir);
    run_ok(cmd, 0);
    snprintf(cmd, sizeof cmd, "sweep %s -q --out %s/one", cfg, dir);
    run_ok(cmd, 0);
    a = csv_without_timing(tu_path_in(dir, "par/results.csv"));
    b = csv_without_timing(tu_path_in(dir, "one/results.csv"));
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
}
END_TEST

/* ---- failures ------------------------------------------------------------ */

START_TEST(test_failed_run)
{
    const char *dir = tu_dir("fail");
    const char *cfg = tu_path_in(dir, "f.json");
    const char *bad = ref_id(tiny_canon(1, "-1"));
    const char *good = ref_id(tiny_canon(1, "10"));
    char args[4096], *out, *err, *col[4];
    size_t n;

    tu_tiny_inputs(dir);
    tu_write_at(cfg, "{" TINY_KEYS " \"nodes\": 1, \"tfwd\": [-1, 10]}\n");
    snprintf(args, sizeof args, "sweep %s -q", cfg);
    ck_assert_int_eq(run(args, &out, &err), 1);
    /* The failed run's id, its options and the replay's own message. */
    ck_assert_msg(strstr(err, bad) != NULL, "no %s in: %s", bad, err);
    ck_assert_ptr_nonnull(strstr(err, "tfwd=-1"));
    ck_assert_ptr_nonnull(strstr(err, "--tfwd: '-1'"));
    /* The other run went on and is in the table. */
    n = csv_column(tu_path_in(dir, "f.sweep/results.csv"), "id", col, 4);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(col[0], good);
    free(col[0]);
    free(out);
    free(err);
}
END_TEST

/* ---- interruption -------------------------------------------------------- */

/* Whether directory dir holds a file whose name starts with prefix. */
static int has_tmp(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int found = 0;

    if (!d)
        return 0;
    while (!found && (de = readdir(d)) != NULL)
        found = strncmp(de->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return found;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A replay long enough to be interrupted: a synthetic trace of 300
 * nodes over 20 days (about 84,000 events, 0.3 s), the DP allocator. */
START_TEST(test_interrupt)
{
    const char *dir = tu_dir("intr");
    const char *cfg = tu_path_in(dir, "i.json");
    const char *out = tu_path_in(dir, "i.sweep");
    char args[4096], ids[4][17], st[4][16], p[4096], *a, *b;
    size_t n_complete = 0;
    double t0;
    pid_t pid;
    int ws;

    snprintf(args, sizeof args,
             "gen-trace --nodes 300 --duration 20d -q -o %s/g.trace.gz", dir);
    run_ok(args, 0);
    tu_write_at(tu_path_in(dir, "g.jobs"),
                "# bfsim-jobs 1\n"
                "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                "A,0,1,4,1e15,1,1,0:0:0 1:10:10 4:30:30\n"
                "B,0,2,8,1e15,2,1,0:0:0 2:15:15 8:40:40\n");
    tu_write_at(cfg, "{\"trace\": \"g.trace.gz\", \"jobs\": \"g.jobs\", "
                     "\"align-jobs\": true, \"allocator\": \"dp\", "
                     "\"tfwd\": [5, 10, 20]}\n");
    snprintf(args, sizeof args, "sweep %s --list", cfg);
    ck_assert_uint_eq(list_runs(args, ids, st, 4), 3);

    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stderr))
            _exit(127);
        execl(tu_bfsim(), "bfsim", "sweep", cfg, "-q", (char *)NULL);
        _exit(127);
    }
    /* Interrupt the sweep once the second replay is under way: it has
     * created its temporary HDF5 file, after setting up its SIGINT
     * handler.  Only the sweep gets the signal; it must pass it on. */
    snprintf(p, sizeof p, "%s/runs/%s", out, ids[1]);
    t0 = now_s();
    while (!has_tmp(p, "run.h5.tmp.") && now_s() - t0 < 120)
        usleep(2000);
    ck_assert_int_eq(kill(pid, SIGINT), 0);
    ck_assert_int_eq(waitpid(pid, &ws, 0), pid);
    ck_assert(WIFEXITED(ws));
    ck_assert_int_eq(WEXITSTATUS(ws), 130);

    ck_assert_uint_eq(list_runs(args, ids, st, 4), 3);
    for (size_t i = 0; i < 3; i++)
        n_complete += strcmp(st[i], "complete") == 0;
    ck_assert_uint_eq(n_complete, 1);
    ck_assert_str_eq(st[0], "complete");
    ck_assert_str_eq(st[1], "pending");
    ck_assert_str_eq(st[2], "pending");
    /* The interrupted replay wrote its results, marked partial. */
    snprintf(p, sizeof p, "%s/runs/%s/summary.json", out, ids[1]);
    ck_assert(file_has(p, "\"partial\": true"));
    ck_assert(!has_tmp(tu_path_in(out, "runs"), "run.h5.tmp."));
    /* The table of what is complete was written. */
    ck_assert(tu_exists(tu_path_in(out, "results.csv")));

    /* Resume; then the same table as an uninterrupted sweep. */
    snprintf(args, sizeof args, "sweep %s -q", cfg);
    run_ok(args, 0);
    snprintf(args, sizeof args, "sweep %s -q --out %s/ref", cfg, dir);
    run_ok(args, 0);
    a = csv_without_timing(tu_path_in(out, "results.csv"));
    b = csv_without_timing(tu_path_in(dir, "ref/results.csv"));
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
}
END_TEST

/* Writes OUT/runs/ID/lock holding "HOST PID". */
static void write_lock(const char *out, const char *id, const char *host,
                       long pid)
{
    char p[4096], text[400];

    snprintf(p, sizeof p, "%s/runs", out);
    mkdir(out, 0777);
    mkdir(p, 0777);
    snprintf(p, sizeof p, "%s/runs/%s", out, id);
    mkdir(p, 0777);
    snprintf(p, sizeof p, "%s/runs/%s/lock", out, id);
    snprintf(text, sizeof text, "%s %ld\n", host, pid);
    tu_write_at(p, text);
}

/* A resumed sweep does not run a run another live process holds: run 0
 * is locked by this test process (alive, this host), run 1 by a process
 * on another host (which the sweep cannot look at: taken as live); run 2
 * is free.  The sweep runs run 2 only, says why it skipped the others and
 * ends with status 1, leaving their locks.  Then run 0's lock names a
 * dead process (a child already reaped) and run 1's is gone: the sweep
 * takes run 0 over, runs both, and removes every lock. */
START_TEST(test_lock)
{
    const char *dir = tu_dir("lock");
    const char *cfg = tu_path_in(dir, "l.json");
    const char *out = tu_path_in(dir, "l.sweep");
    char args[4096], ids[4][17], st[4][16], host[256], want[600], p[4096];
    char *o, *err;
    pid_t dead;
    int ws;

    tu_tiny_inputs(dir);
    tu_write_at(cfg, "{" TINY_KEYS " \"nodes\": 1, \"tfwd\": [5, 10, 20]}\n");
    snprintf(args, sizeof args, "sweep %s --list", cfg);
    ck_assert_uint_eq(list_runs(args, ids, st, 4), 3);
    ck_assert_int_eq(gethostname(host, sizeof host), 0);
    host[sizeof host - 1] = '\0';
    write_lock(out, ids[0], host, (long)getpid());
    write_lock(out, ids[1], "elsewhere.invalid", 1);

    snprintf(args, sizeof args, "sweep %s -q", cfg);
    ck_assert_int_eq(run(args, &o, &err), 1);
    snprintf(want, sizeof want,
             "run %s skipped: it is running (lock held by %s %ld)", ids[0],
             host, (long)getpid());
    ck_assert_msg(strstr(err, want) != NULL, "'%s' lacks '%s'", err, want);
    snprintf(want, sizeof want,
             "run %s skipped: it is running (lock held by elsewhere.invalid "
             "1)",
             ids[1]);
    ck_assert_msg(strstr(err, want) != NULL, "'%s' lacks '%s'", err, want);
    free(o);
    free(err);
    snprintf(args, sizeof args, "sweep %s --list", cfg);
    list_runs(args, ids, st, 4);
    ck_assert_str_eq(st[0], "pending");
    ck_assert_str_eq(st[1], "pending");
    ck_assert_str_eq(st[2], "complete");
    snprintf(p, sizeof p, "%s/runs/%s/lock", out, ids[0]);
    ck_assert(tu_exists(p));
    snprintf(p, sizeof p, "%s/runs/%s/lock", out, ids[2]);
    ck_assert(!tu_exists(p));

    dead = fork();
    ck_assert_int_ge(dead, 0);
    if (dead == 0)
        _exit(0);
    ck_assert_int_eq(waitpid(dead, &ws, 0), dead);
    write_lock(out, ids[0], host, (long)dead);
    snprintf(p, sizeof p, "%s/runs/%s/lock", out, ids[1]);
    ck_assert_int_eq(unlink(p), 0);
    snprintf(args, sizeof args, "sweep %s -q", cfg);
    run_ok(args, 0);
    snprintf(args, sizeof args, "sweep %s --list", cfg);
    list_runs(args, ids, st, 4);
    for (int i = 0; i < 3; i++) {
        ck_assert_str_eq(st[i], "complete");
        snprintf(p, sizeof p, "%s/runs/%s/lock", out, ids[i]);
        ck_assert(!tu_exists(p));
    }
}
END_TEST

#ifdef __linux__
/* SIGKILL of the sweep (a batch system's hard limit) leaves no replay
 * running unattended: the replay is its own process group, its lock names
 * it (not the sweep), and it gets SIGTERM when the sweep dies, so it
 * stops at once with its outputs marked partial.  A replay of 300 nodes
 * over 400 days takes seconds; without the death signal it would run to
 * its end and write "partial": false. */
START_TEST(test_sigkill)
{
    const char *dir = tu_dir("kill");
    const char *cfg = tu_path_in(dir, "k.json");
    const char *out = tu_path_in(dir, "k.sweep");
    char args[4096], ids[2][17], st[2][16], p[4096], line[400], host[256];
    long replay = 0;
    double t0;
    pid_t pid;
    int ws;
    FILE *f;

    snprintf(args, sizeof args,
             "gen-trace --nodes 300 --duration 400d -q -o %s/g.trace.gz", dir);
    run_ok(args, 0);
    tu_write_at(tu_path_in(dir, "g.jobs"),
                "# bfsim-jobs 1\n"
                "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
                "A,0,1,4,1e15,1,1,0:0:0 1:10:10 4:30:30\n");
    tu_write_at(cfg, "{\"trace\": \"g.trace.gz\", \"jobs\": \"g.jobs\", "
                     "\"align-jobs\": true, \"allocator\": \"dp\"}\n");
    snprintf(args, sizeof args, "sweep %s --list", cfg);
    ck_assert_uint_eq(list_runs(args, ids, st, 2), 1);

    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stderr))
            _exit(127);
        execl(tu_bfsim(), "bfsim", "sweep", cfg, "-q", (char *)NULL);
        _exit(127);
    }
    snprintf(p, sizeof p, "%s/runs/%s", out, ids[0]);
    t0 = now_s();
    while (!has_tmp(p, "run.h5.tmp.") && now_s() - t0 < 120)
        usleep(2000);
    snprintf(p, sizeof p, "%s/runs/%s/lock", out, ids[0]);
    f = fopen(p, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    fclose(f);
    ck_assert_int_eq(gethostname(host, sizeof host), 0);
    host[sizeof host - 1] = '\0';
    ck_assert_int_eq(strncmp(line, host, strlen(host)), 0);
    replay = strtol(line + strlen(host), NULL, 10);
    ck_assert_int_gt(replay, 0);
    ck_assert_int_ne(replay, pid);
    ck_assert_int_eq(getpgid((pid_t)replay), (pid_t)replay);

    ck_assert_int_eq(kill(pid, SIGKILL), 0);
    ck_assert_int_eq(waitpid(pid, &ws, 0), pid);
    snprintf(p, sizeof p, "%s/runs/%s/summary.json", out, ids[0]);
    t0 = now_s();
    while (!tu_exists(p) && now_s() - t0 < 60)
        usleep(10000);
    ck_assert_msg(file_has(p, "\"partial\": true"), "no partial summary");

    /* Resumed, the killed run is run again, and its summary equals that
     * of an uninterrupted sweep of the same configuration (k2.json, in
     * the same folder: same inputs, same run id), less the measures of
     * the machine.  The resume waits for the killed replay to end: its
     * lock would make the resume skip the run (test_lock). */
    t0 = now_s();
    while (kill((pid_t)replay, 0) == 0 && now_s() - t0 < 60)
        usleep(10000);
    snprintf(args, sizeof args, "sweep %s -q", cfg);
    run_ok(args, 0);
    tu_write_at(tu_path_in(dir, "k2.json"),
                "{\"trace\": \"g.trace.gz\", \"jobs\": \"g.jobs\", "
                "\"align-jobs\": true, \"allocator\": \"dp\"}\n");
    snprintf(args, sizeof args, "sweep %s -q", tu_path_in(dir, "k2.json"));
    run_ok(args, 0);
    {
        static const char *const machine[] = {
            "wall_seconds",         "events_per_second", "peak_rss_kib",
            "solve_seconds_median", "solve_seconds_p95", "solve_seconds_max",
            "solve_seconds_total"};
        json_t *a, *b;
        char q[4096];

        snprintf(q, sizeof q, "%s/k2.sweep/runs/%s/summary.json", dir, ids[0]);
        a = json_load_file(p, 0, NULL);
        b = json_load_file(q, 0, NULL);
        ck_assert_ptr_nonnull(a);
        ck_assert_ptr_nonnull(b);
        for (size_t k = 0; k < sizeof machine / sizeof *machine; k++) {
            json_object_del(a, machine[k]);
            json_object_del(b, machine[k]);
        }
        ck_assert(json_is_false(json_object_get(a, "partial")));
        ck_assert_msg(json_equal(a, b), "resumed and uninterrupted differ");
        json_decref(a);
        json_decref(b);
    }
}
END_TEST
#endif

/* ---- the results table over special files -------------------------------- */

/* The results table is complete or absent, so it is only ever written by
 * renaming a finished file over results.csv and results.h5: when either
 * is a FIFO, sweep_write_table fails naming it, leaves the FIFO a FIFO
 * and creates neither table (no run is complete here: the table would
 * have no rows). */
START_TEST(test_table_not_regular)
{
    const char *d = tu_dir("fifo-table");
    const char *cfg = tu_path_in(d, "sweep.json");
    const char *csv = tu_path_in(d, "results.csv"),
               *h5 = tu_path_in(d, "results.h5");
    struct sweep s;
    struct bfs_error e;
    struct stat st;
    size_t rows = 99;
    char want[4200];

    tu_write_at(cfg, "{\"tfwd\": [10, 20]}\n");
    bfs_error_clear(&e);
    ck_assert_msg(sweep_load(cfg, &s, &e) == 0, "%s", e.msg);

    ck_assert_int_eq(mkfifo(h5, 0600), 0);
    ck_assert_int_eq(sweep_write_table(&s, d, &rows, &e), BFS_EIO);
    snprintf(want, sizeof want, "%s: not a regular file", h5);
    ck_assert_str_eq(e.msg, want);
    ck_assert_int_eq(lstat(h5, &st), 0);
    ck_assert(S_ISFIFO(st.st_mode));
    ck_assert_int_eq(tu_exists(csv), 0);
    ck_assert_uint_eq(rows, 99);

    ck_assert_int_eq(unlink(h5), 0);
    ck_assert_int_eq(mkfifo(csv, 0600), 0);
    bfs_error_clear(&e);
    ck_assert_int_eq(sweep_write_table(&s, d, &rows, &e), BFS_EIO);
    snprintf(want, sizeof want, "%s: not a regular file", csv);
    ck_assert_str_eq(e.msg, want);
    ck_assert_int_eq(lstat(csv, &st), 0);
    ck_assert(S_ISFIFO(st.st_mode));
    ck_assert_int_eq(tu_exists(h5), 0);
    ck_assert(!has_tmp(d, "results.csv.tmp."));
    ck_assert(!has_tmp(d, "results.h5.tmp."));

    /* with both paths free, both tables are written */
    ck_assert_int_eq(unlink(csv), 0);
    ck_assert_msg(sweep_write_table(&s, d, &rows, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(rows, 0);
    ck_assert_int_eq(tu_exists(csv), 1);
    ck_assert_int_eq(tu_exists(h5), 1);
    sweep_release(&s);
}
END_TEST

/* ---- one folder, one sweep ----------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* What OUT/sweep.txt must hold after a sweep of the given tiny runs (n
 * of them, tfwd[i] on nodes 1 and 2): its digest is FNV-1a 64 of the
 * sorted ids, one per line, then the count and the ids. */
static const char *digest_lines(const char *const *tfwd, size_t n_tfwd)
{
    const char *ids[8];
    char text[512] = "", *p = tu_keep(xmalloc(1024));
    size_t n = 0;

    for (size_t t = 0; t < n_tfwd; t++)
        for (int nodes = 1; nodes <= 2; nodes++)
            ids[n++] = ref_id(tiny_canon(nodes, tfwd[t]));
    qsort(ids, n, sizeof *ids, cmp_str);
    for (size_t i = 0; i < n; i++) {
        strcat(text, ids[i]);
        strcat(text, "\n");
    }
    snprintf(p, 1024, "\ndigest %016llx\nruns %zu\n%s",
             (unsigned long long)ref_fnv(text), n, text);
    return p;
}

/* A folder holds one sweep: OUT/sweep.txt records the configuration's
 * path and its set of runs (a digest and the ids).  A configuration of
 * other runs on the same folder, whose table would replace this one, is
 * refused with status 2 naming the folder and both files, in every mode
 * that reads or writes the folder, and runs nothing; the same
 * configuration resumes; one that only adds runs extends the record. */
START_TEST(test_config_digest)
{
    const char *dir = tu_dir("digest"), *out = tu_path_in(dir, "o");
    const char *a = tu_path_in(dir, "a.json"), *b = tu_path_in(dir, "b.json");
    const char *c = tu_path_in(dir, "c.json");
    const char *rec_path = tu_path_in(out, "sweep.txt");
    const char *csv = tu_path_in(out, "results.csv");
    static const char *const t10[] = {"10"}, *const t1020[] = {"10", "20"};
    static const char *const modes[] = {"-q", "-q --worker", "--merge",
                                        "--status"};
    char args[4096], *rec, *table, *table2, *o, *err;

    tu_tiny_inputs(dir);
    tu_write_at(a, "{" TINY_KEYS " \"nodes\": [1, 2], \"tfwd\": 10}\n");
    tu_write_at(b, "{" TINY_KEYS " \"nodes\": [1, 2], \"tfwd\": 20}\n");
    tu_write_at(c, "{" TINY_KEYS " \"nodes\": [1, 2], \"tfwd\": [10, 20]}\n");
    snprintf(args, sizeof args, "sweep %s -q --out %s", a, out);
    run_ok(args, 0);
    rec = tu_slurp(rec_path);
    ck_assert_ptr_nonnull(rec);
    ck_assert_msg(strncmp(rec, "bfsim-sweep 1\nconfig ", 21) == 0, "%s", rec);
    ck_assert_ptr_nonnull(strstr(rec, "/a.json\ndigest "));
    ck_assert_msg(strstr(rec, digest_lines(t10, 1)), "%s", rec);
    free(rec);
    table = tu_slurp(csv);
    ck_assert_ptr_nonnull(table);

    for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
        snprintf(args, sizeof args, "sweep %s %s --out %s", b, modes[m], out);
        ck_assert_msg(run(args, &o, &err) == 2, "%s: %s", modes[m], err);
        ck_assert_msg(strstr(err, out) && strstr(err, "/a.json") &&
                          strstr(err, b),
                      "%s: %s", modes[m], err);
        free(o);
        free(err);
    }
    /* nothing of b's ran, and the table is a's */
    snprintf(args, sizeof args, "runs/%s", ref_id(tiny_canon(1, "20")));
    ck_assert_int_eq(tu_exists(tu_path_in(out, args)), 0);
    table2 = tu_slurp(csv);
    ck_assert_str_eq(table2, table);
    free(table2);

    /* the same configuration resumes; a larger one extends the record,
     * after which the smaller one would drop runs */
    snprintf(args, sizeof args, "sweep %s -q --out %s", a, out);
    run_ok(args, 0);
    snprintf(args, sizeof args, "sweep %s -q --out %s", c, out);
    run_ok(args, 0);
    rec = tu_slurp(rec_path);
    ck_assert_ptr_nonnull(strstr(rec, "/c.json\ndigest "));
    ck_assert_msg(strstr(rec, digest_lines(t1020, 2)), "%s", rec);
    free(rec);
    snprintf(args, sizeof args, "sweep %s -q --out %s", a, out);
    run_ok(args, 2);
    free(table);
}
END_TEST

/* ---- the log tail -------------------------------------------------------- */

START_TEST(test_log_tail)
{
    const char *p = tu_write("tail.txt", "one\ntwo\nthree\nfour\n");
    char *t = sweep_log_tail(p, 2);

    ck_assert_str_eq(t, "three\nfour\n");
    free(t);
    t = sweep_log_tail(p, 10);
    ck_assert_str_eq(t, "one\ntwo\nthree\nfour\n");
    free(t);
    p = tu_write("tail2.txt", "a\nb");
    t = sweep_log_tail(p, 1);
    ck_assert_str_eq(t, "b");
    free(t);
    ck_assert_ptr_null(sweep_log_tail(tu_tmp("no-such-log"), 3));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sweep");
    TCase *tc = tcase_create("config");
    TCase *tr = tcase_create("runs");

    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_fnv_vectors);
    tcase_add_test(tc, test_expand_order);
    tcase_add_test(tc, test_id_stability);
    tcase_add_test(tc, test_id_collision);
    tcase_add_test(tc, test_config_errors);
    tcase_add_test(tc, test_check_keys);
    tcase_add_test(tc, test_usage_errors);
    tcase_add_test(tc, test_log_tail);
    tcase_add_test(tc, test_table_not_regular);
    suite_add_tcase(s, tc);
    tcase_set_timeout(tr, 240);
    tcase_add_test(tr, test_table);
    tcase_add_test(tr, test_resume);
    tcase_add_test(tr, test_shards);
    tcase_add_test(tr, test_gnu_parallel);
    tcase_add_test(tr, test_failed_run);
    tcase_add_test(tr, test_interrupt);
    tcase_add_test(tr, test_lock);
    tcase_add_test(tr, test_config_digest);
#ifdef __linux__
    tcase_add_test(tr, test_sigkill);
#endif
    suite_add_tcase(s, tr);
    return tu_run(s);
}
