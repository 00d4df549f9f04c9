/* check_import_acct.c - PBS and LSF accounting logs to traces.
 *
 * Small logs written here in each scheduler's documented record format,
 * with the runs and idle node-seconds worked out by hand in the
 * comments; and a real lsb.acct (tests/data/lsf-aws-hpc-cost-simulator.
 * lsb.acct, from the test files of aws-samples/hpc-cost-simulator, MIT-0)
 * whose idle node-seconds must equal those of tools/lsf-idle-seconds, an
 * independent count in Python; likewise real PBS records collected from
 * several projects' fixtures (tests/data/pbs-public-records.acct, its
 * README naming each one's source) against tools/pbs-idle-seconds.
 */
#include "config.h"

#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import/import.h"
#include "import/import_log.h"
#include "import/sniff.h"
#include "testimport.h"
#include "testutil.h"

/* 2023-01-01 23:00:00 UTC, the PBS logs' origin. */
#define T0 INT64_C(1672614000)
/* 2023-01-01 00:00:00 UTC. */
#define D0 INT64_C(1672531200)

typedef int (*acct_fn)(const char *const *, size_t, const char *,
                       const char *const *, const struct import_log_opts *,
                       struct import_stats *, struct import_acct_report *,
                       struct bfs_error *);

/* Converts the inputs with options "name=value;..."; on success the
 * trace's event count must be the writer's. */
static int run(acct_fn fn, const char *const *in, size_t n, const char *opts,
               struct import_acct_report *r, char **text, struct bfs_error *e)
{
    static int k;
    char name[32];
    const char *out;
    struct import_log_opts o;
    struct import_stats st;
    int rc;

    snprintf(name, sizeof name, "acct%d.trace", k++);
    out = tu_tmp(name);
    tu_import_opts(opts, &o);
    bfs_error_clear(e);
    rc = fn(in, n, out, NULL, &o, &st, r, e);
    if (rc == 0 && text)
        *text = tu_keep(tu_trace_text(out, T0, NULL, NULL));
    if (rc != 0)
        ck_assert_int_eq(tu_exists(out), 0);
    return rc;
}

/* ---- PBS ----------------------------------------------------------- */

/* Two daily files (T0 = 2023-01-01 23:00:00 UTC, seconds after it):
 *
 *   1.srv  S 100 exec_host n1,n2 (quoted jobname with a blank, '=' in
 *          select); E in the next day's file at 3900: one run [100,3900)
 *   2.srv  S 200 exec_vnode (n3)+(n3): two chunks, one host; R at 500:
 *          [200,500) n3; S 800 (n4:..+n3:..): [800,2000) n3 n4, E 2000
 *   3.srv  S/E [1000,1300), no host list, Resource_List.nodect=2: placed
 *          first fit on n5 n6, the only free nodes then
 *   4.srv  S 400 n4, D at 600, E at 700: [400,700) (E wins over D)
 *   5.srv  S 2500 n4, A at 3000, no E: [2500,3000)
 *   6.srv  S 3700 n3 (00:01:40 on day 2), no end: runs to the latest
 *          time read, 3900
 *   Q (twice) and L records: kinds not read.
 *
 * The machine: the pbsnodes -av output, n1..n6 = nodes 0..5.  Span
 * [100,3900] = 3800 s.  Busy: n1, n2 3800 each; n3 300 + 1200 + 200 =
 * 1700; n4 300 + 1200 + 500 = 2000; n5, n6 300 each: 11900.  Idle 6 x
 * 3800 - 11900 = 10900 node-seconds. */
static const char *const day1 =
    "01/01/2023 23:00:50;Q;1.srv;queue=workq\n"
    "01/01/2023 23:01:40;S;1.srv;user=a group=g jobname=\"my job\" "
    "account=\"x y=z\" queue=workq start=1672614100 "
    "exec_host=n1/0*4+n2/0*4 Resource_List.select=2:ncpus=4 "
    "Resource_List.nodect=2\n"
    "01/01/2023 23:02:00;L;license;floating license hour:0 day:0\n"
    "01/01/2023 23:03:20;S;2.srv;user=a start=1672614200 "
    "exec_host=n3/0*2 exec_vnode=(n3:ncpus=2)+(n3:ncpus=2)\n"
    "01/01/2023 23:05:00;Q;3.srv;queue=workq\n"
    "\n"
    "01/01/2023 23:06:40;S;4.srv;user=b start=1672614400 exec_host=n4/0\n"
    "01/01/2023 23:08:20;R;2.srv;\n"
    "01/01/2023 23:10:00;D;4.srv;requestor=b@login\n"
    "01/01/2023 23:11:40;E;4.srv;user=b start=1672614400 exec_host=n4/0 "
    "end=1672614700 Exit_status=271\n"
    "01/01/2023 23:13:20;S;2.srv;user=a start=1672614800 "
    "exec_vnode=(n4:ncpus=1+n3:ncpus=1)\n"
    "01/01/2023 23:16:40;S;3.srv;user=c start=1672615000 "
    "Resource_List.nodect=2 Resource_List.select=2:ncpus=1\n"
    "01/01/2023 23:21:40;E;3.srv;user=c start=1672615000 end=1672615300 "
    "Resource_List.nodect=2\n"
    "01/01/2023 23:33:20;E;2.srv;user=a start=1672614800 end=1672616000 "
    "exec_vnode=(n4:ncpus=1+n3:ncpus=1)\n"
    "01/01/2023 23:41:40;S;5.srv;user=d start=1672616500 exec_host=n4/1\n"
    "01/01/2023 23:50:00;A;5.srv;\n";
static const char *const day2 =
    "01/02/2023 00:01:40;S;6.srv;user=e start=1672617700 exec_host=n3/0\n"
    "01/02/2023 00:05:00;E;1.srv;user=a group=g jobname=\"my job\" "
    "start=1672614100 end=1672617900 exec_host=n1/0*4+n2/0*4 "
    "Exit_status=0\n";
static const char *const pbsnodes =
    "n1\n     Mom = n1.cluster\n     state = free\n     pcpus = 4\n\n"
    "n2\n     Mom = n2.cluster\n     state = free\n\n"
    "n3\n     state = job-busy\n\nn4\n     state = free\n\n"
    "n5\n     state = free\n\nn6\n     state = offline\n";

START_TEST(test_pbs_days)
{
    const char *dir = tu_dir("pbsdays");
    const char *in[1] = {dir};
    const char *files[2];
    struct import_acct_report r;
    struct bfs_error e;
    char opts[256], *text;

    tu_write_at(tu_path_in(dir, "20230102"), day2);
    tu_write_at(tu_path_in(dir, "20230101"), day1);
    snprintf(opts, sizeof opts, "nodes-file=%s",
             tu_write("pbsnodes.txt", pbsnodes));
    ck_assert_msg(run(import_pbs, in, 1, opts, &r, &text, &e) == 0, "%s",
                  e.msg);
    ck_assert_uint_eq(r.files, 2);
    ck_assert_uint_eq(r.records, 17);
    ck_assert_uint_eq(r.log.nodes, 6);
    ck_assert_uint_eq(r.log.idle_node_s, 10900);
    ck_assert_int_eq(r.log.start, T0 + 100);
    ck_assert_int_eq(r.log.end, T0 + 3900);
    ck_assert_uint_eq(r.runs, 7);
    ck_assert_uint_eq(r.counted, 1);
    ck_assert_uint_eq(r.reruns, 1);
    ck_assert_uint_eq(r.deleted, 1);
    ck_assert_uint_eq(r.running, 1);
    ck_assert_uint_eq(r.restarted + r.duplicates + r.ends_nothing, 0);
    ck_assert_uint_eq(r.n_kinds, 2);
    ck_assert_str_eq(r.kinds[0].name, "Q");
    ck_assert_uint_eq(r.kinds[0].n, 2);
    ck_assert_str_eq(r.kinds[1].name, "L");
    ck_assert_uint_eq(r.kinds[1].n, 1);
    /* The events, by hand from the runs above. */
    ck_assert_str_eq(text, "100 +2 +3 +4 +5\n"
                           "200 -2\n"
                           "400 -3\n"
                           "500 +2\n"
                           "700 +3\n"
                           "800 -2 -3\n"
                           "1000 -4 -5\n"
                           "1300 +4 +5\n"
                           "2000 +2 +3\n"
                           "2500 -3\n"
                           "3000 +3\n"
                           "3700 -2\n"
                           "3900 +0 +1 +2\n");

    /* The files named one by one, day 2 first: read in name order all
     * the same. */
    files[0] = tu_path_in(dir, "20230102");
    files[1] = tu_path_in(dir, "20230101");
    ck_assert_msg(run(import_pbs, files, 2, opts, &r, NULL, &e) == 0, "%s",
                  e.msg);
    ck_assert_uint_eq(r.log.idle_node_s, 10900);

    /* Without the pbsnodes list: the 4 hosts named.  n1 n2 busy
     * throughout; n3 idle 2100, n4 1800 as above, and 3.srv now finds no
     * free node at 1000 (n1..n4 all held): dropped. */
    ck_assert_msg(run(import_pbs, in, 1, NULL, &r, NULL, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(r.log.nodes, 4);
    ck_assert_str_eq(r.log.nodes_from, "hosts in the log");
    ck_assert_uint_eq(r.log.idle_node_s, 3900);
    ck_assert_uint_eq(r.log.dropped, 1);
}
END_TEST

/* Counts only, in local time +02:00 (D0 = 2023-01-01 00:00:00 UTC):
 *
 *   7.srv  S 02:00:00 local = D0 + 0, no start attribute: the record's
 *          time; select 1:ncpus=4+2:ncpus=8: 3 nodes; E 02:10:00 local
 *          without start or end: ends the open run at D0 + 600
 *   8.srv  start= D0 + 500, end= D0 + 1100, Resource_List.nodes=1:ppn=2
 *
 * The machine: the peak use, 4 nodes at 500.  Span [0,1100]; busy 3 x
 * 600 + 1 x 600 = 2400; idle 4 x 1100 - 2400 = 2000. */
START_TEST(test_pbs_counts_tz)
{
    const char *in[1];
    struct import_acct_report r;
    struct bfs_error e;

    in[0] = tu_write("counts.log",
                     "01/01/2023 02:00:00;S;7.srv;Resource_List.select="
                     "1:ncpus=4+2:ncpus=8\n"
                     "01/01/2023 02:08:20;S;8.srv;start=1672531700 "
                     "Resource_List.nodes=1:ppn=2\n"
                     "01/01/2023 02:10:00;E;7.srv;Exit_status=0\n"
                     "01/01/2023 02:18:20;E;8.srv;start=1672531700 "
                     "end=1672532300 Resource_List.nodes=1:ppn=2\n");
    ck_assert_msg(run(import_pbs, in, 1, "tz=+02:00", &r, NULL, &e) == 0, "%s",
                  e.msg);
    ck_assert_uint_eq(r.log.nodes, 4);
    ck_assert_str_eq(r.log.nodes_from, "peak concurrent use in the log");
    ck_assert_int_eq(r.log.start, D0);
    ck_assert_int_eq(r.log.end, D0 + 1100);
    ck_assert_uint_eq(r.log.idle_node_s, 2000);
    ck_assert_uint_eq(r.counted, 2);
    ck_assert_str_eq(r.tz, "+02:00");
    /* In UTC, 7.srv's times are two hours later: [7200, 7800), after 8
     * ends; the peak is 3, span [500, 7800]. */
    ck_assert_msg(run(import_pbs, in, 1, NULL, &r, NULL, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(r.log.nodes, 3);
    ck_assert_int_eq(r.log.start, D0 + 500);
    ck_assert_int_eq(r.log.end, D0 + 7800);
}
END_TEST

/* A zone of the system's database: Paris is UTC+2 in July (summer time),
 * UTC+1 in January. */
START_TEST(test_tz_zone)
{
    struct import_tz *z;
    struct import_log_opts o;
    struct bfs_error e;
    struct stat st;

    if (stat("/usr/share/zoneinfo/Europe/Paris", &st) != 0 &&
        !getenv("TZDIR")) {
        fputs("no zone database: test_tz_zone skipped\n", stderr);
        return;
    }
    ck_assert_int_eq(import_tz_open("Europe/Paris", &z, &e), 0);
    ck_assert_int_eq(import_tz_local(z, 2023, 7, 1, 2, 0, 0),
                     INT64_C(1688169600));
    ck_assert_int_eq(import_tz_local(z, 2023, 1, 1, 1, 0, 0), D0);
    import_tz_close(z);
    import_log_opts_init(&o);
    bfs_error_clear(&e);
    ck_assert_int_eq(import_log_opts_set(&o, "tz", "Nowhere/Atlantis", &e),
                     BFS_EUSAGE);
    ck_assert_ptr_nonnull(strstr(e.msg, "no zone 'Nowhere/Atlantis'"));
    bfs_error_clear(&e);
    ck_assert_int_eq(import_log_opts_set(&o, "tz", "../etc/passwd", &e),
                     BFS_EUSAGE);
}
END_TEST

/* A malformed record names its file and line, or with skip-bad is
 * counted: here 3 of them (line 2: a bad date, 3: an unterminated
 * quote, 5: an exec_vnode chunk not closed), around one good run
 * [0, 100) on h1: 1 node, idle 0. */
START_TEST(test_pbs_errors)
{
    const char *in[1];
    struct import_acct_report r;
    struct bfs_error e;
    char where[256];

    in[0] = tu_write("bad.log",
                     "01/01/2023 00:00:00;S;1.s;start=1672531200 "
                     "exec_host=h1/0\n"
                     "13/45/2023 00:00:00;S;2.s;start=1672531200\n"
                     "01/01/2023 00:00:01;S;3.s;jobname=\"open start=1\n"
                     "01/01/2023 00:01:40;E;1.s;start=1672531200 "
                     "end=1672531300 exec_host=h1/0\n"
                     "01/01/2023 00:01:41;S;4.s;exec_vnode=(h2:ncpus=1\n");
    ck_assert_int_eq(run(import_pbs, in, 1, NULL, &r, NULL, &e), BFS_EPARSE);
    snprintf(where, sizeof where, "%s:2: ", in[0]);
    ck_assert_msg(strstr(e.msg, where) && strstr(e.msg, "MM/DD/YYYY"), "%s",
                  e.msg);
    ck_assert_msg(run(import_pbs, in, 1, "skip-bad=1", &r, NULL, &e) == 0, "%s",
                  e.msg);
    ck_assert_uint_eq(r.bad, 3);
    ck_assert_ptr_nonnull(strstr(r.first_bad, where));
    ck_assert_uint_eq(r.log.nodes, 1);
    ck_assert_uint_eq(r.log.idle_node_s, 0);

    in[0] = tu_write("bad2.log", "01/01/2023 00:00:01;S;3.s;jobname=\"a b\n");
    ck_assert_int_eq(run(import_pbs, in, 1, NULL, &r, NULL, &e), BFS_EPARSE);
    ck_assert_msg(strstr(e.msg, ":1: ") && strstr(e.msg, "does not end"), "%s",
                  e.msg);
    in[0] = tu_write("bad3.log", "01/01/2023 00:00:01;S;4.s;exec_vnode=(h2\n");
    ck_assert_int_eq(run(import_pbs, in, 1, NULL, &r, NULL, &e), BFS_EPARSE);
    ck_assert_msg(strstr(e.msg, ":1: ") && strstr(e.msg, "without ')'"), "%s",
                  e.msg);
    /* Nothing ran. */
    in[0] = tu_write("queued.log", "01/01/2023 00:00:01;Q;4.s;queue=q\n");
    ck_assert_int_eq(run(import_pbs, in, 1, NULL, &r, NULL, &e), BFS_EINVAL);
}
END_TEST

/* ---- LSF ----------------------------------------------------------- */

/* A JOB_FINISH record in lsb.acct's field order (D0 + the times given;
 * start < 0: startTime 0), with the asked and executed host fields
 * given as text. */
static char *job_finish(int job, int64_t start, int64_t end, const char *asked,
                        const char *exec)
{
    char *s = xmalloc(1024);

    snprintf(s, 1024,
             "\"JOB_FINISH\" \"10.108\" %" PRId64 " %d 1501 33554434 4 %" PRId64
             " 0 0 %" PRId64 " \"user\" \"normal\" \"span[hosts=1]\" \"\" \"\" "
             "\"login1\" \"/home/u\" \"\" \"\" \"\" \"%" PRId64 ".%d\" %s %s "
             "64 60.0 \"job \"\"quoted\"\"\" \"sleep 10\" 0.1 0.2 -1 -1\n",
             D0 + end, job, D0 + start - 10, start < 0 ? 0 : D0 + start,
             D0 + start - 10, job, asked, exec);
    return tu_keep(s);
}

/* Runs (seconds after D0):
 *
 *   1  [0,100) on h1 listed 3 times and h2: 2 nodes, 4 slots
 *   2  [50,200) on "4*h3" "2*h4" (the short form), 2 hosts asked: 6 slots
 *   3  never started (startTime 0), 4  ran 0 s (start = end = 150)
 *   JOB_RESIZE and EVENT_ADRSV_FINISH records: kinds not read.
 *
 * The machine: h1..h4; span [0,200]; busy 100 + 100 + 150 + 150 = 500;
 * idle 4 x 200 - 500 = 300.  With --machine-nodes 6, two nodes no run
 * names (unseen0, unseen1) are idle throughout: 6 x 200 - 500 = 700. */
START_TEST(test_lsf)
{
    char *text = NULL;
    const char *in[1];
    struct import_acct_report r;
    struct bfs_error e;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    fputs(job_finish(1, 0, 100, "0", "4 \"h1\" \"h1\" \"h2\" \"h1\""), f);
    fputs("\"JOB_RESIZE\" \"10.108\" 1672531250 2 1501 0 0\n", f);
    fputs(job_finish(2, 50, 200, "2 \"h3\" \"h4\"", "2 \"4*h3\" \"2*h4\""), f);
    fputs(job_finish(3, -1, 60, "0", "0"), f);
    fputs(job_finish(4, 150, 150, "0", "1 \"h1\""), f);
    fputs("\"EVENT_ADRSV_FINISH\" \"10.108\" 1672531260 \"x\"\n", f);
    fclose(f);
    in[0] = tu_write("lsb.acct", text);
    free(text);
    ck_assert_msg(run(import_lsf, in, 1, NULL, &r, &text, &e) == 0, "%s",
                  e.msg);
    ck_assert_uint_eq(r.records, 6);
    ck_assert_uint_eq(r.runs, 2);
    ck_assert_uint_eq(r.slots, 11);
    ck_assert_uint_eq(r.never_ran, 1);
    ck_assert_uint_eq(r.zero_run, 1);
    ck_assert_uint_eq(r.n_kinds, 2);
    ck_assert_str_eq(r.version, "10.108");
    ck_assert_uint_eq(r.log.nodes, 4);
    ck_assert_int_eq(r.log.start, D0);
    ck_assert_int_eq(r.log.end, D0 + 200);
    ck_assert_uint_eq(r.log.idle_node_s, 300);
    ck_assert_msg(run(import_lsf, in, 1, "machine-nodes=6", &r, NULL, &e) == 0,
                  "%s", e.msg);
    ck_assert_uint_eq(r.log.nodes, 6);
    ck_assert_uint_eq(r.log.idle_node_s, 700);
    ck_assert_int_eq(run(import_lsf, in, 1, "machine-nodes=3", &r, NULL, &e),
                     BFS_EINVAL);
}
END_TEST

/* Malformed records: file and line, or counted with skip-bad. */
START_TEST(test_lsf_errors)
{
    const char *in[1];
    struct import_acct_report r;
    struct bfs_error e;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    fputs(job_finish(1, 0, 100, "0", "1 \"h1\""), f);
    fputs("\"JOB_FINISH\" \"10.108\" 1672531300 2 \"unterminated\n", f);
    fputs(job_finish(3, 0, 100, "0", "50 \"h1\""), f); /* too few fields */
    fputs("\"JOB_FINISH\" \"10.108\" soon 4 1501\n", f);
    fclose(f);
    in[0] = tu_write("bad.acct", text);
    free(text);
    ck_assert_int_eq(run(import_lsf, in, 1, NULL, &r, NULL, &e), BFS_EPARSE);
    ck_assert_msg(strstr(e.msg, "bad.acct:2: ") &&
                      strstr(e.msg, "does not end"),
                  "%s", e.msg);
    ck_assert_msg(run(import_lsf, in, 1, "skip-bad=1", &r, NULL, &e) == 0, "%s",
                  e.msg);
    ck_assert_uint_eq(r.bad, 3);
    ck_assert_uint_eq(r.runs, 1);
    ck_assert_uint_eq(r.log.idle_node_s, 0);
}
END_TEST

/* Runs /usr/bin/python3 on tools/SCRIPT with the file in and reads its
 * "key value" lines: vals[k] is the value of keys[k], -1 when absent.
 * Returns 0, or -1 (with a message naming test) when /usr/bin/python3 is
 * missing. */
static int tool_count(const char *script, const char *in, const char *test,
                      const char *const *keys, long long *vals, size_t n)
{
    char cmd[4096], line[256];
    FILE *p;

    if (access("/usr/bin/python3", X_OK) != 0) {
        fprintf(stderr,
                "/usr/bin/python3 missing: %s's independent count skipped\n",
                test);
        return -1;
    }
    snprintf(cmd, sizeof cmd, "/usr/bin/python3 '%s' '%s'", tu_src(script), in);
    p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    for (size_t k = 0; k < n; k++)
        vals[k] = -1;
    while (fgets(line, sizeof line, p)) {
        size_t len = strcspn(line, " ");
        for (size_t k = 0; k < n; k++)
            if (strlen(keys[k]) == len && !strncmp(line, keys[k], len))
                sscanf(line + len, "%lld", &vals[k]);
    }
    ck_assert_int_eq(pclose(p), 0);
    return 0;
}

/* The real lsb.acct against tools/lsf-idle-seconds. */
START_TEST(test_lsf_real)
{
    const char *in[1] = {
        tu_src("tests/data/lsf-aws-hpc-cost-simulator.lsb.acct")};
    static const char *const keys[] = {"idle_node_seconds", "nodes"};
    long long v[2];
    struct import_acct_report r;
    struct bfs_error e;

    ck_assert_msg(run(import_lsf, in, 1, NULL, &r, NULL, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(r.records, 82);
    ck_assert_uint_eq(r.bad, 0);
    if (tool_count("tools/lsf-idle-seconds", in[0], "test_lsf_real", keys, v,
                   2) != 0)
        return;
    ck_assert_int_eq(v[1], (long long)r.log.nodes);
    ck_assert_int_eq(v[0], (long long)r.log.idle_node_s);
}
END_TEST

/* The collected real PBS records against tools/pbs-idle-seconds: the
 * file's 59 records, of which 7 Q; 2 S records (319540 and 320125 of
 * IFCA) have no E and run to the latest time read; 1 run (7904 of XDMoD)
 * names no host, only Resource_List.nodect=1. */
START_TEST(test_pbs_real)
{
    const char *in[1] = {tu_src("tests/data/pbs-public-records.acct")};
    static const char *const keys[] = {"idle_node_seconds", "nodes", "runs",
                                       "counted"};
    long long v[4];
    struct import_acct_report r;
    struct bfs_error e;

    ck_assert_msg(run(import_pbs, in, 1, NULL, &r, NULL, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(r.records, 59);
    ck_assert_uint_eq(r.bad, 0);
    ck_assert_uint_eq(r.n_kinds, 1);
    ck_assert_str_eq(r.kinds[0].name, "Q");
    ck_assert_uint_eq(r.kinds[0].n, 7);
    ck_assert_uint_eq(r.running, 2);
    ck_assert_uint_eq(r.counted, 1);
    if (tool_count("tools/pbs-idle-seconds", in[0], "test_pbs_real", keys, v,
                   4) != 0)
        return;
    ck_assert_int_eq(v[1], (long long)r.log.nodes);
    ck_assert_int_eq(v[2], (long long)r.runs);
    ck_assert_int_eq(v[3], (long long)r.counted);
    ck_assert_int_eq(v[0], (long long)r.log.idle_node_s);
}
END_TEST

/* bfsim info names the convert to run: by a record's form, and for a
 * folder by its first file. */
START_TEST(test_sniff)
{
    const char *dir = tu_dir("sniffdir");

    tu_write_at(tu_path_in(dir, "20230101"), day1);
    ck_assert_str_eq(sniff_log_format(tu_write("d2", day2)), "pbs");
    ck_assert_str_eq(sniff_log_format(dir), "pbs");
    ck_assert_str_eq(sniff_log_format(tu_src("tests/data/"
                                             "lsf-aws-hpc-cost-simulator."
                                             "lsb.acct")),
                     "lsf");
    ck_assert_str_eq(sniff_format_title("lsf"), "an LSF lsb.acct file");
    ck_assert_ptr_null(sniff_log_format(
        tu_write("notpbs", "01/01/2023 00:00:00 S 1.s start=1\n\"JOB\"\n")));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("import_acct");
    TCase *tc = tcase_create("acct");

    tcase_add_test(tc, test_pbs_days);
    tcase_add_test(tc, test_pbs_counts_tz);
    tcase_add_test(tc, test_tz_zone);
    tcase_add_test(tc, test_pbs_errors);
    tcase_add_test(tc, test_lsf);
    tcase_add_test(tc, test_lsf_errors);
    tcase_add_test(tc, test_lsf_real);
    tcase_add_test(tc, test_pbs_real);
    tcase_add_test(tc, test_sniff);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
