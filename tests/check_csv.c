/* check_csv.c - the CSV writer (base/csv.c), and awkward job names through
 * every CSV bfsim writes.
 *
 * The writer's output for each field is worked out by hand from RFC 4180
 * (quote a field holding a comma, a quote, CR or LF, doubling its
 * quotes) and csv.h's additions (blanks at either end, a leading '#').
 *
 * The round trip: a job set whose names hold a comma and quotes
 * (`ResNet,50 "v1"`), UTF-8 (`résumé-ß`), a leading or trailing space
 * and a leading '#' goes through every CSV writer that prints job names:
 * the job file (`bfsim convert --jobs`, jobset_write), the job log and
 * the Batsim CSV (`bfsim replay`), the curve fits (`bfsim curves`).
 * Each file is read back by the project's reader (bfs_csv_split, and
 * jobset_load for the job file), by bfsim's Batsim importer (`convert
 * --from batsim` must give the trace it gives for plain names), and by
 * pandas when the Python found by configure has it: the names and the
 * column count come back exactly.  A line break cannot go through: the
 * job-file reader refuses it naming the file and line, and jobset_write
 * refuses to write one.
 */
#include "config.h"

#include "base/csv.h"
#include "formats/jobs.h"
#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the writer ------------------------------------------------------ */

/* What csv_field writes for s (malloc'd). */
static char *field_text(const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    ck_assert_ptr_nonnull(f);
    csv_field(f, s);
    ck_assert_int_eq(fclose(f), 0);
    return buf;
}

START_TEST(test_field)
{
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"plain", "plain"},
        {"", ""},
        {"a,b", "\"a,b\""},
        {"ResNet,50 \"v1\"", "\"ResNet,50 \"\"v1\"\"\""},
        {"\"", "\"\"\"\""},
        {"say \"hi\"", "\"say \"\"hi\"\"\""},
        {" lead", "\" lead\""},
        {"trail ", "\"trail \""},
        {"\ttab", "\"\ttab\""},
        {"in side", "in side"},
        {"#hash", "\"#hash\""},
        {"a#b", "a#b"},
        {"two\nlines", "\"two\nlines\""},
        {"cr\rx", "\"cr\rx\""},
        {"r\xc3\xa9sum\xc3\xa9-\xc3\x9f", "r\xc3\xa9sum\xc3\xa9-\xc3\x9f"},
        {"1.5e+07", "1.5e+07"},
    };

    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *got = field_text(cases[i].in);
        ck_assert_msg(strcmp(got, cases[i].out) == 0,
                      "csv_field(\"%s\") wrote [%s], not [%s]", cases[i].in,
                      got, cases[i].out);
        ck_assert_int_eq(csv_needs_quotes(cases[i].in),
                         strcmp(cases[i].in, cases[i].out) != 0);
        /* the project's reader gives the text back (a one-line field) */
        if (!strpbrk(cases[i].in, "\r\n")) {
            char *fields[2];
            size_t n, col;
            ck_assert_int_eq(bfs_csv_split(got, ',', fields, 2, &n, &col), 0);
            ck_assert_uint_eq(n, 1);
            ck_assert_str_eq(fields[0], cases[i].in);
        }
        free(got);
    }
}
END_TEST

/* csv_fieldf: a composed field quoted as a whole, short (on the stack)
 * and long (past its 256-byte buffer). */
START_TEST(test_fieldf)
{
    char *buf = NULL, *want, longname[400];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    longname[0] = ',';
    ck_assert_ptr_nonnull(f);
    csv_fieldf(f, "%s!%d", "a,\"b\"", 3);
    fputc('|', f);
    csv_fieldf(f, "%s!%d", "plain", 12);
    fputc('|', f);
    csv_fieldf(f, "%s!%d", longname, 0);
    ck_assert_int_eq(fclose(f), 0);
    want = xmalloc(strlen(longname) + 64);
    sprintf(want, "\"a,\"\"b\"\"!3\"|plain!12|\"%s!0\"", longname);
    ck_assert_str_eq(buf, want);
    free(want);
    free(buf);
}
END_TEST

/* ---- awkward names through every writer ---------------------------- */

#define N_NAMES 6
/* The names as the test's own job file spells them (RFC 4180), and as
 * they are. */
static const char *const name_in[N_NAMES] = {"\"ResNet,50 \"\"v1\"\"\"",
                                             "r\xc3\xa9sum\xc3\xa9-\xc3\x9f",
                                             "\" lead space\"",
                                             "\"trail space \"",
                                             "\"#hash\"",
                                             "plain"};
static const char *const name_is[N_NAMES] = {"ResNet,50 \"v1\"",
                                             "r\xc3\xa9sum\xc3\xa9-\xc3\x9f",
                                             " lead space",
                                             "trail space ",
                                             "#hash",
                                             "plain"};

/* Six nodes idle over [T, T+100); six jobs of exactly one node each: each
 * holds one node over the whole trace, one Batsim row each. */
#define TRACE                                                                  \
    "bfsim-trace 1\n"                                                          \
    "node a\nnode b\nnode c\nnode d\nnode e\nnode f\n"                         \
    "1612988400 +0 +1 +2 +3 +4 +5\n"                                           \
    "1612988500 -0 -1 -2 -3 -4 -5\n"

/* A job file of the six jobs, named by names[] as spelt there. */
static const char *job_file(const char *file, const char *const *names)
{
    char text[4096];
    size_t len = (size_t)snprintf(text, sizeof text,
                                  "# bfsim-jobs 1\n"
                                  "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n");

    for (size_t j = 0; j < N_NAMES; j++)
        len += (size_t)snprintf(text + len, sizeof text - len,
                                "%s,1612988400,1,1,1e9,0,0,0:0:0 1:1:1 2:2:2\n",
                                names[j]);
    return tu_write(file, text);
}

/* Runs "bfsim ARGS"; the test fails unless it exits 0. */
static void bfsim_ok(const char *args)
{
    char *err;
    int st = tu_bfsim_run(args, &err);

    ck_assert_msg(st == 0, "bfsim %s: exit %d: %s", args, st, err);
    free(err);
}

/* The rows of CSV file path after its header (and after the lines that
 * begin with '#'), each split by bfs_csv_split and checked to have ncols
 * fields; field col of each row goes to got[] (at most max rows).
 * Returns the number of rows; text (malloc'd, freed by the caller) holds
 * the fields. */
static size_t read_column(const char *path, size_t ncols, size_t col,
                          char **got, size_t max, char **text)
{
    char *line, *next, **f = xcalloc(ncols + 1, sizeof *f);
    size_t rows = 0;
    int header = 1;

    *text = tu_slurp(path);
    ck_assert_msg(*text != NULL, "no file %s", path);
    for (line = *text; *line; line = next) {
        char *nl = strchr(line, '\n');
        size_t n, c;
        ck_assert_msg(nl != NULL, "%s: the last line is cut", path);
        *nl = '\0';
        next = nl + 1;
        if (line[0] == '#')
            continue;
        ck_assert_msg(bfs_csv_split(line, ',', f, ncols + 1, &n, &c) == 0,
                      "%s: bad quote at column %zu", path, c);
        ck_assert_msg(n == ncols, "%s: %zu fields, not %zu", path, n, ncols);
        if (header) {
            header = 0;
            continue;
        }
        ck_assert_uint_lt(rows, max);
        got[rows++] = f[col];
    }
    free(f);
    return rows;
}

/* The event lines of a trace file (its '#' lines left out; malloc'd). */
static char *trace_events(const char *path)
{
    char *text = tu_slurp(path), *out, *line, *next;
    size_t len = 0;

    ck_assert_msg(text != NULL, "no trace %s", path);
    out = xcalloc(strlen(text) + 1, 1);
    for (line = text; *line; line = next) {
        next = strchr(line, '\n');
        next = next ? next + 1 : line + strlen(line);
        if (line[0] != '#') {
            memcpy(out + len, line, (size_t)(next - line));
            len += (size_t)(next - line);
        }
    }
    free(text);
    return out;
}

/* Whether the Python configure found (BFS_PYTHON3, else /usr/bin/python3)
 * has pandas; prints why not when it has not.  Its path goes to *py. */
static int have_pandas(const char **py)
{
    char cmd[4096];

    *py = getenv("BFS_PYTHON3");
    if (!*py || !**py)
        *py = "/usr/bin/python3";
    snprintf(cmd, sizeof cmd, "%s -c 'import pandas' >/dev/null 2>&1", *py);
    if (system(cmd) != 0) {
        printf("# %s lacks pandas: the pandas read-back is left out\n", *py);
        return 0;
    }
    return 1;
}

/* pandas reads path (its lines that begin with '#' left out) with every
 * column as text: it must find ncols columns, and in column col, in
 * order, the names of the file names_path (one a line), each followed by
 * suffix. */
static void pandas_check(const char *py, const char *path, int ncols,
                         const char *col, const char *names_path,
                         const char *suffix)
{
    const char *script =
        tu_write("readback.py",
                 "import io, sys\n"
                 "import pandas as pd\n"
                 "path, ncols, col, names, suffix = sys.argv[1:6]\n"
                 "with open(path, encoding='utf-8') as f:\n"
                 "    text = ''.join(l for l in f if not l.startswith('#'))\n"
                 "df = pd.read_csv(io.StringIO(text), dtype=str,\n"
                 "                 keep_default_na=False)\n"
                 "with open(names, encoding='utf-8') as f:\n"
                 "    want = [n + suffix for n in f.read().split('\\n')[:-1]]\n"
                 "got = list(dict.fromkeys(df[col]))\n"
                 "if len(df.columns) != int(ncols) or got != want:\n"
                 "    sys.exit('%s: %d columns, %s: %r, not %r'\n"
                 "             % (path, len(df.columns), col, got, want))\n");
    char cmd[8192];

    snprintf(cmd, sizeof cmd, "%s %s '%s' %d '%s' '%s' '%s'", py, script, path,
             ncols, col, names_path, suffix);
    ck_assert_msg(system(cmd) == 0, "pandas misread %s", path);
}

/* The names, one a line, in a file for pandas_check. */
static const char *names_file(void)
{
    char names[1024] = "";

    for (size_t j = 0; j < N_NAMES; j++)
        sprintf(names + strlen(names), "%s\n", name_is[j]);
    return tu_write("names.txt", names);
}

/* Checks that got[0..N_NAMES-1] are the names, each followed by suffix. */
static void check_names(char *const *got, const char *suffix)
{
    for (size_t j = 0; j < N_NAMES; j++) {
        char want[128];
        snprintf(want, sizeof want, "%s%s", name_is[j], suffix);
        ck_assert_str_eq(got[j], want);
    }
}

/* The job file: written by jobset_write (`convert --jobs`), read back by
 * jobset_load, bfs_csv_split and pandas. */
START_TEST(test_roundtrip_jobs)
{
    const char *in = job_file("in.jobs", name_in), *out = tu_tmp("out.jobs");
    char args[8192], *got[64], *text;
    struct jobset js;
    struct bfs_error e;
    const char *py;

    snprintf(args, sizeof args, "convert -q --jobs %s -o %s", in, out);
    bfsim_ok(args);
    bfs_error_clear(&e);
    ck_assert_msg(jobset_load(out, NULL, &js, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(js.n, N_NAMES);
    for (size_t j = 0; j < N_NAMES; j++)
        ck_assert_str_eq(js.jobs[j].name, name_is[j]);
    jobset_release(&js);
    ck_assert_uint_eq(read_column(out, 8, 0, got, 64, &text), N_NAMES);
    check_names(got, "");
    free(text);
    if (have_pandas(&py))
        pandas_check(py, out, 8, "job", names_file(), "");
}
END_TEST

/* The job log and the Batsim CSV of a replay, read back by bfs_csv_split,
 * by bfsim's Batsim importer and by pandas. */
START_TEST(test_roundtrip_replay)
{
    static const char *const plain[N_NAMES] = {"J0", "J1", "J2",
                                               "J3", "J4", "J5"};
    const char *trace = tu_write("t.trace", TRACE);
    const char *log = tu_tmp("log.csv"), *bat = tu_tmp("bat.csv");
    const char *bat0 = tu_tmp("bat0.csv"), *py;
    char args[8192], *got[64], *text;

    snprintf(args, sizeof args,
             "replay -q --allocator dp --trace %s --jobs %s --job-log %s "
             "--batsim-jobs %s --summary /dev/null",
             trace, job_file("in.jobs", name_in), log, bat);
    bfsim_ok(args);
    ck_assert_uint_eq(read_column(log, 14, 0, got, 64, &text), N_NAMES);
    check_names(got, "");
    free(text);
    ck_assert_uint_eq(read_column(bat, 9, 1, got, 64, &text), N_NAMES);
    check_names(got, "");
    free(text);
    ck_assert_uint_eq(read_column(bat, 9, 0, got, 64, &text), N_NAMES);
    check_names(got, "!0");
    free(text);

    /* bfsim's Batsim importer reads the CSV as it reads one with plain
     * names: the same trace */
    snprintf(args, sizeof args,
             "replay -q --allocator dp --trace %s --jobs %s --batsim-jobs %s "
             "--summary /dev/null",
             trace, job_file("plain.jobs", plain), bat0);
    bfsim_ok(args);
    snprintf(args, sizeof args, "convert -q --from batsim %s -o %s", bat,
             tu_tmp("bat.trace"));
    bfsim_ok(args);
    snprintf(args, sizeof args, "convert -q --from batsim %s -o %s", bat0,
             tu_tmp("bat0.trace"));
    bfsim_ok(args);
    {
        char *a = trace_events(tu_tmp("bat.trace"));
        char *b = trace_events(tu_tmp("bat0.trace"));
        ck_assert_ptr_nonnull(strstr(a, "+0 +1 +2 +3 +4 +5"));
        ck_assert_str_eq(a, b);
        free(a);
        free(b);
    }

    if (!have_pandas(&py))
        return;
    pandas_check(py, log, 14, "job", names_file(), "");
    pandas_check(py, bat, 9, "workload_name", names_file(), "");
    pandas_check(py, bat, 9, "job_id", names_file(), "!0");
}
END_TEST

/* The curve fits (`bfsim curves`): three models per job. */
START_TEST(test_roundtrip_curves)
{
    const char *fits = tu_tmp("fits.csv"), *py;
    char args[8192], *got[64], *text;

    snprintf(args, sizeof args, "curves %s -o %s", job_file("in.jobs", name_in),
             fits);
    bfsim_ok(args);
    ck_assert_uint_eq(read_column(fits, 7, 0, got, 64, &text), 3 * N_NAMES);
    for (size_t r = 0; r < 3 * N_NAMES; r++)
        ck_assert_str_eq(got[r], name_is[r / 3]);
    free(text);
    if (have_pandas(&py))
        pandas_check(py, fits, 7, "job", names_file(), "");
}
END_TEST

/* A line break in a job name: the job-file reader refuses it, naming the
 * file, the line and the problem (LF: the quoted field does not end on
 * its line; CR: the name holds one). */
START_TEST(test_line_break_refused)
{
    static const struct {
        const char *row, *says;
        size_t line;
    } cases[] = {
        {"\"two\nlines\",1612988400,1,1,1e9,0,0,0:0:0 1:1:1\n", "line break",
         3},
        {"\"cr\rx\",1612988400,1,1,1e9,0,0,0:0:0 1:1:1\n", "carriage return",
         3},
    };

    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[512], where[4096];
        const char *p;
        struct jobset js;
        struct bfs_error e;

        snprintf(text, sizeof text,
                 "# bfsim-jobs 1\njob,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n%s",
                 cases[i].row);
        p = tu_write("break.jobs", text);
        bfs_error_clear(&e);
        ck_assert_int_eq(jobset_load(p, NULL, &js, &e), BFS_EPARSE);
        snprintf(where, sizeof where, "%s:%zu:", p, cases[i].line);
        ck_assert_msg(strstr(e.msg, where) && strstr(e.msg, cases[i].says),
                      "message '%s' lacks '%s' or '%s'", e.msg, where,
                      cases[i].says);
    }
}
END_TEST

/* `bfsim --measures`: every row has the header's six fields, though the
 * definitions hold commas. */
START_TEST(test_measures)
{
    char *out, *err, *line, *next, *f[8];
    size_t rows = 0;

    ck_assert_int_eq(tu_bfsim_output("--measures", &out, &err), 0);
    free(err);
    for (line = out; *line; line = next) {
        size_t n, col;
        next = strchr(line, '\n');
        ck_assert_ptr_nonnull(next);
        *next++ = '\0';
        ck_assert_int_eq(bfs_csv_split(line, ',', f, 8, &n, &col), 0);
        ck_assert_msg(n == 6, "%zu fields in a --measures row", n);
        rows++;
    }
    ck_assert_uint_gt(rows, 10);
    free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("csv");
    TCase *tc = tcase_create("csv");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_field);
    tcase_add_test(tc, test_fieldf);
    tcase_add_test(tc, test_roundtrip_jobs);
    tcase_add_test(tc, test_roundtrip_replay);
    tcase_add_test(tc, test_roundtrip_curves);
    tcase_add_test(tc, test_line_break_refused);
    tcase_add_test(tc, test_measures);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
