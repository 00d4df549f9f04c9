/* check_endings.c - every output of `bfsim replay` crossed with every way
 * a replay ends: all jobs done, an --end window, the trace ending before
 * the jobs, SIGINT, and a solver that fails (BFSIM_TEST_CRASH=1: the
 * isolated worker crashes) or stops at its limit (=timeout) at every
 * solve.
 *
 * Each case is one run of the bfsim program asking for every output at
 * once (step log, job log, JSON summary, HDF5 file, Batsim CSV, instance
 * dumps) in a folder of its own, so each output meets each ending.  Then
 * every output must be there, whole (every line ended, every row with
 * its columns, the JSON and HDF5 files readable), and consistent with
 * the others and with the hand-worked facts of the case below; and the
 * folder must hold nothing else (no temporary file).
 *
 * The inputs are tiny, so a case runs in milliseconds: four nodes,
 * T = 1612988400 (2021-02-10 20:20:00 UTC), seconds after T:
 *     0: nodes 0-3 idle   100: 3 leaves   200: 3 joins
 *   300: 0 leaves         400: 0 joins    500: 1 leaves (the last row)
 * Jobs A and B (1..2 nodes, P(n) = n) are submitted at T, C at T+250.
 * With Pmax 1e9 no job finishes: every event is processed, six in all
 * (the five rows after the start and C's arrival), with a solve at the
 * start and at each event, seven in all.  At the end A and B still hold
 * nodes, so the Batsim CSV's last rows are holdings closed when the
 * replay ends: B holds nodes 2 and 3 from 200 on (node 3 back), and that
 * row ends at the last event processed: 500 when the trace ends, 300
 * with --end 20:26:00 (T+360: the events up to T+300, four) and with a
 * SIGINT delivered once the replay has read the row at T+300.
 *
 * SIGINT arrives at a known point: the trace comes through a pipe on
 * standard input (--trace -), its rows up to T+300 followed by 200 KiB
 * of comment lines.  The reader fills 128 KiB buffers and blocks until a
 * buffer is full, so once the pipe is empty (FIONREAD) bfsim has taken
 * every row up to T+300, processed them, and waits in read(); SIGINT
 * then only sets its flag, and the rest of the trace, written after it,
 * lets the replay see the flag at its next event.  The same holds under
 * valgrind, however slow.
 */
#include "config.h"

#include "testh5.h"
#include "testjson.h"
#include "testutil.h"

#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <hdf5.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define T0 1612988400
#define N_JOBS 3
#define N_NODES 4

/* The trace: up to T+300 (part 1), then the rest (part 2). */
#define TRACE_PART1                                                            \
    "bfsim-trace 1\n"                                                          \
    "node a\nnode b\nnode c\nnode d\n"                                         \
    "1612988400 +0 +1 +2 +3\n"                                                 \
    "1612988500 -3\n"                                                          \
    "1612988600 +3\n"                                                          \
    "1612988700 -0\n"
#define TRACE_PART2                                                            \
    "1612988800 +0\n"                                                          \
    "1612988900 -1\n"

#define JOBS_HEAD                                                              \
    "# bfsim-jobs 1\n"                                                         \
    "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve\n"
/* Never done. */
#define JOBS_BIG                                                               \
    JOBS_HEAD "A,1612988400,1,2,1e9,0,0,0:0:0 1:1:1 2:2:2\n"                   \
              "B,1612988400,1,2,1e9,0,0,0:0:0 1:1:1 2:2:2\n"                   \
              "C,1612988650,1,2,1e9,0,0,0:0:0 1:1:1 2:2:2\n"
/* Done within the trace: A and B need 150 s on two nodes, C 50 s. */
#define JOBS_SMALL                                                             \
    JOBS_HEAD "A,1612988400,1,2,300,0,0,0:0:0 1:1:1 2:2:2\n"                   \
              "B,1612988400,1,2,300,0,0,0:0:0 1:1:1 2:2:2\n"                   \
              "C,1612988650,1,2,100,0,0,0:0:0 1:1:1 2:2:2\n"

static const char *const job_names[N_JOBS] = {"A", "B", "C"};
static const int64_t job_tsub[N_JOBS] = {0, 0, 250}; /* seconds after T */

/* One way to end, and what it must give (-1: not checked). */
struct ending {
    const char *name;
    int small_jobs;    /* JOBS_SMALL, else JOBS_BIG */
    const char *end;   /* --end, or NULL */
    const char *crash; /* BFSIM_TEST_CRASH, or NULL (then --allocator dp) */
    int sigint;        /* the trace from a pipe, SIGINT after part 1 */
    int status;        /* exit status */
    int partial;
    long events, solves, failed, finished;
    int64_t last_finish; /* the Batsim CSV's largest finish_time */
};

static const struct ending endings[] = {
    {"all jobs done", 1, NULL, NULL, 0, 0, 0, -1, -1, 0, N_JOBS, -1},
    {"--end", 0, "2021-02-10 20:26:00", NULL, 0, 0, 0, 4, 5, 0, 0, 300},
    {"the trace ends first", 0, NULL, NULL, 0, 0, 0, 6, 7, 0, 0, 500},
    {"SIGINT", 0, NULL, NULL, 1, 130, 1, 4, 5, 0, 0, 300},
    /* every solve fails or stops at its limit: no job ever gets a node */
    {"solver crash", 0, NULL, "1", 0, 0, 0, 6, 7, 7, 0, -1},
    {"solver time limit", 0, NULL, "timeout", 0, 0, 0, 6, 7, 0, 0, -1},
};
#define N_ENDINGS (sizeof endings / sizeof *endings)

/* ---- running bfsim ---------------------------------------------------- */

static void write_all(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t k = write(fd, s, n);
        ck_assert_msg(k > 0, "cannot feed the trace to bfsim");
        s += k;
        n -= (size_t)k;
    }
}

/* Feeds part 1 of the trace and the padding to fd, waits until bfsim has
 * read all of it, sends SIGINT to pid, then feeds part 2 and closes fd. */
static void feed_and_interrupt(int fd, pid_t pid)
{
    char pad[100];
    double until = bfs_now() + 30.0 * tu_slowdown();
    int left = -1;

    write_all(fd, TRACE_PART1, strlen(TRACE_PART1));
    memset(pad, 'x', sizeof pad);
    pad[0] = '#';
    pad[sizeof pad - 1] = '\n';
    for (int i = 0; i < 2048; i++)
        write_all(fd, pad, sizeof pad);
    while (ioctl(fd, FIONREAD, &left) == 0 && left > 0) {
        struct timespec ts = {0, 2000000};
        ck_assert_msg(bfs_now() < until, "bfsim does not read its trace");
        nanosleep(&ts, NULL);
    }
    ck_assert_int_eq(left, 0);
    ck_assert_int_eq(kill(pid, SIGINT), 0);
    write_all(fd, TRACE_PART2, strlen(TRACE_PART2));
    close(fd);
}

/* Runs bfsim with argv (NULL-terminated), BFSIM_TEST_CRASH set to crash
 * when not NULL, standard error to errpath; with sigint, the trace comes
 * on standard input as feed_and_interrupt writes it.  Returns the exit
 * status (the test fails if bfsim does not exit normally). */
static int run_bfsim(char *const argv[], const char *crash, int sigint,
                     const char *errpath)
{
    int pfd[2] = {-1, -1}, st;
    pid_t pid;

    if (sigint) {
        ck_assert_int_eq(pipe(pfd), 0);
        signal(SIGPIPE, SIG_IGN); /* an early exit fails write_all */
    }
    fflush(NULL);
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int in = sigint ? pfd[0] : open("/dev/null", O_RDONLY);
        int out = open("/dev/null", O_WRONLY);
        int err = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || out < 0 || err < 0 || dup2(in, 0) < 0 ||
            dup2(out, 1) < 0 || dup2(err, 2) < 0)
            _exit(126);
        if (sigint)
            close(pfd[1]);
        if (crash)
            setenv("BFSIM_TEST_CRASH", crash, 1);
        else
            unsetenv("BFSIM_TEST_CRASH");
        execv(argv[0], argv);
        _exit(127);
    }
    if (sigint) {
        close(pfd[0]);
        feed_and_interrupt(pfd[1], pid);
    }
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert_msg(WIFEXITED(st), "bfsim ended by signal %d",
                  WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    return WEXITSTATUS(st);
}

/* ---- reading the outputs ---------------------------------------------- */

/* A CSV file split into rows of fields (bfs_csv_split), each line checked
 * to be ended by a newline and to have ncols fields. */
struct table {
    char *text;
    char **f; /* rows x ncols */
    size_t rows, ncols;
};

static void table_read(struct table *t, const char *path, const char *header)
{
    char *line, *next;
    size_t cap = 0;

    memset(t, 0, sizeof *t);
    t->text = tu_slurp(path);
    ck_assert_msg(t->text != NULL, "no output %s", path);
    ck_assert_msg(strncmp(t->text, header, strlen(header)) == 0 &&
                      t->text[strlen(header)] == '\n',
                  "%s: header is not '%s'", path, header);
    t->ncols = 1;
    for (const char *c = header; *c; c++)
        t->ncols += *c == ',';
    for (line = t->text + strlen(header) + 1; *line; line = next) {
        char *nl = strchr(line, '\n');
        size_t n, col;
        ck_assert_msg(nl != NULL, "%s: the last line is cut: '%s'", path, line);
        *nl = '\0';
        next = nl + 1;
        BFS_GROW(t->f, cap, (t->rows + 1) * t->ncols);
        ck_assert_int_eq(bfs_csv_split(line, ',', t->f + t->rows * t->ncols,
                                       t->ncols, &n, &col),
                         0);
        ck_assert_msg(n == t->ncols, "%s: row %zu has %zu fields, not %zu",
                      path, t->rows + 1, n, t->ncols);
        t->rows++;
    }
}

static const char *cell(const struct table *t, size_t row, size_t col)
{
    return t->f[row * t->ncols + col];
}

static void table_free(struct table *t)
{
    free(t->text);
    free(t->f);
}

/* A whole number in s (the test fails on anything else). */
static int64_t whole(const char *s)
{
    char *end;
    long long v = strtoll(s, &end, 10);

    ck_assert_msg(end != s && *end == '\0', "'%s' is not an integer", s);
    return (int64_t)v;
}

/* Marks the nodes of a Batsim interval set ("0-1 3") in held[] and
 * returns their number; every node must be below N_NODES. */
static long mark_nodes(const char *s, int *held)
{
    long n = 0;

    while (*s) {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        ck_assert_ptr_ne(end, s);
        if (*end == '-')
            b = strtol(end + 1, &end, 10);
        ck_assert_msg(0 <= a && a <= b && b < N_NODES, "bad set '%s'", s);
        for (long i = a; i <= b; i++)
            held[i] = 1;
        n += b - a + 1;
        s = *end == ' ' ? end + 1 : end;
        ck_assert_msg(*end == ' ' || *end == '\0', "bad set '%s'", s);
    }
    return n;
}

/* ---- the matrix ----------------------------------------------------- */

#define STEPS_HEADER                                                           \
    "evtTime,Thr,Rate,ReScost,evt,Nleft,Npre,Njoin,nJob,nNd,nJrun,nNrun,"      \
    "PreCost"
#define JOBLOG_HEADER                                                          \
    "job,tsub,admitted,first_start,finished,completion_s,samples,"             \
    "node_seconds,rescales,preemptions,paused_s,lost_rescale,lost_preempt,"    \
    "starts"
#define BATSIM_HEADER                                                          \
    "job_id,workload_name,submission_time,requested_number_of_resources,"      \
    "starting_time,execution_time,finish_time,waiting_time,"                   \
    "allocated_resources"

/* The Batsim CSV against the job log: every row a holding of a job of the
 * set, named "NAME!K" with K counting each job's rows from 0, its times
 * and node count agreeing; no node held by two rows at once; per job,
 * the rows' node-seconds are the job log's (which the engine integrates
 * from its counts), a job with node-seconds has rows and one without has
 * none, and a job that finished released its nodes when it did.  Returns
 * the largest finish_time (-1 without rows). */
static int64_t check_batsim(const struct table *b, const struct table *jl)
{
    double ns[N_JOBS] = {0};
    int64_t last_end[N_JOBS], maxfin = -1;
    long rows[N_JOBS] = {0};

    for (size_t r = 0; r < b->rows; r++) {
        const char *id = cell(b, r, 0), *bang = strrchr(id, '!');
        int held[N_NODES] = {0};
        int64_t sub, req, start, exec, fin, wait;
        size_t j = N_JOBS;

        ck_assert_msg(bang != NULL, "job_id '%s' has no '!'", id);
        for (size_t k = 0; k < N_JOBS; k++)
            if (strlen(job_names[k]) == (size_t)(bang - id) &&
                strncmp(id, job_names[k], (size_t)(bang - id)) == 0)
                j = k;
        ck_assert_msg(j < N_JOBS, "job_id '%s' names no job", id);
        ck_assert_str_eq(cell(b, r, 1), job_names[j]);
        ck_assert_int_eq(whole(bang + 1), rows[j]);
        sub = whole(cell(b, r, 2));
        req = whole(cell(b, r, 3));
        start = whole(cell(b, r, 4));
        exec = whole(cell(b, r, 5));
        fin = whole(cell(b, r, 6));
        wait = whole(cell(b, r, 7));
        ck_assert_int_eq(sub, job_tsub[j]);
        ck_assert_int_gt(exec, 0);
        ck_assert_int_eq(fin, start + exec);
        ck_assert_int_eq(wait, start - sub);
        ck_assert_int_ge(start, sub);
        ck_assert_int_eq(mark_nodes(cell(b, r, 8), held), req);
        /* no node in two rows at once */
        for (size_t q = 0; q < r; q++) {
            int other[N_NODES] = {0};
            mark_nodes(cell(b, q, 8), other);
            if (whole(cell(b, q, 4)) < fin && start < whole(cell(b, q, 6)))
                for (int i = 0; i < N_NODES; i++)
                    ck_assert_msg(!(held[i] && other[i]),
                                  "node %d in rows %zu and %zu at once", i,
                                  q + 1, r + 1);
        }
        ns[j] += (double)(exec * req);
        if (rows[j] == 0 || fin > last_end[j])
            last_end[j] = fin;
        rows[j]++;
        if (fin > maxfin)
            maxfin = fin;
    }
    ck_assert_uint_eq(jl->rows, N_JOBS);
    for (size_t j = 0; j < N_JOBS; j++) {
        double log_ns = strtod(cell(jl, j, 7), NULL);
        ck_assert_str_eq(cell(jl, j, 0), job_names[j]);
        ck_assert_msg(ns[j] == log_ns,
                      "job %s: %g node-seconds in the "
                      "Batsim CSV, %g in the job log",
                      job_names[j], ns[j], log_ns);
        ck_assert_int_eq(rows[j] > 0, log_ns > 0);
        if (*cell(jl, j, 4) && rows[j] > 0)
            ck_assert_int_eq(last_end[j], tu_parse_time(cell(jl, j, 4)) - T0);
    }
    return maxfin;
}

START_TEST(test_ending)
{
    const struct ending *c = &endings[_i];
    const char *dir = tu_tmp(c->crash        ? c->crash
                             : c->end        ? "end"
                             : c->sigint     ? "sigint"
                             : c->small_jobs ? "done"
                                             : "trace");
    const char *trace = tu_write("t.trace", TRACE_PART1 TRACE_PART2);
    const char *jobs = tu_write(c->small_jobs ? "small.jobs" : "big.jobs",
                                c->small_jobs ? JOBS_SMALL : JOBS_BIG);
    const char *errpath = tu_tmp("stderr.txt");
    char *argv[32], *list, *err;
    struct table steps, jl, bat;
    json_t *sum, *inst;
    hid_t h5;
    int n = 0, status;
    long events, solves;

    ck_assert_int_eq(mkdir(dir, 0755), 0);
    argv[n++] = tu_arg(tu_bfsim());
    argv[n++] = tu_arg("replay");
    argv[n++] = tu_arg("-q");
    argv[n++] = tu_arg("--trace");
    argv[n++] = tu_arg(c->sigint ? "-" : trace);
    argv[n++] = tu_arg("--jobs");
    argv[n++] = tu_arg(jobs);
    argv[n++] = tu_arg("--allocator");
    argv[n++] = tu_arg(c->crash ? "milp" : "dp");
    if (c->end) {
        argv[n++] = tu_arg("--end");
        argv[n++] = tu_arg(c->end);
    }
    argv[n++] = tu_arg("--steps");
    argv[n++] = tu_arg(tu_path_in(dir, "steps.csv"));
    argv[n++] = tu_arg("--job-log");
    argv[n++] = tu_arg(tu_path_in(dir, "jobs.csv"));
    argv[n++] = tu_arg("--summary");
    argv[n++] = tu_arg(tu_path_in(dir, "summary.json"));
    argv[n++] = tu_arg("-o");
    argv[n++] = tu_arg(tu_path_in(dir, "out.h5"));
    argv[n++] = tu_arg("--batsim-jobs");
    argv[n++] = tu_arg(tu_path_in(dir, "batsim.csv"));
    argv[n++] = tu_arg("--dump-instances");
    argv[n++] = tu_arg(tu_path_in(dir, "inst"));
    argv[n] = NULL;

    status = run_bfsim(argv, c->crash, c->sigint, errpath);
    err = tu_slurp(errpath);
    ck_assert_msg(status == c->status, "%s: exit status %d, not %d: %s",
                  c->name, status, c->status, err ? err : "");
    free(err);

    /* every output, and nothing else */
    list = tu_dir_list(dir);
    ck_assert_str_eq(list,
                     "batsim.csv inst jobs.csv out.h5 steps.csv summary.json");
    free(list);

    /* the summary */
    sum = tu_load_json(tu_path_in(dir, "summary.json"));
    ck_assert_int_eq(json_is_true(json_object_get(sum, "partial")), c->partial);
    events = (long)tu_jnum(sum, "events");
    solves = (long)tu_jnum(sum, "solves");
    if (c->events >= 0)
        ck_assert_int_eq(events, c->events);
    if (c->solves >= 0)
        ck_assert_int_eq(solves, c->solves);
    ck_assert_int_eq(
        (long)tu_jnum(json_object_get(sum, "solves_by_status"), "failed"),
        c->failed);
    ck_assert_int_eq((long)tu_jnum(sum, "jobs_finished"), c->finished);

    /* the step log: a row per event, numbered from 1 */
    table_read(&steps, tu_path_in(dir, "steps.csv"), STEPS_HEADER);
    ck_assert_uint_eq(steps.rows, (size_t)events);
    for (size_t r = 0; r < steps.rows; r++)
        ck_assert_int_eq(whole(cell(&steps, r, 4)), (int64_t)r + 1);
    table_free(&steps);

    /* the job log and the Batsim CSV */
    table_read(&jl, tu_path_in(dir, "jobs.csv"), JOBLOG_HEADER);
    table_read(&bat, tu_path_in(dir, "batsim.csv"), BATSIM_HEADER);
    {
        int64_t maxfin = check_batsim(&bat, &jl);
        size_t done = 0;
        for (size_t j = 0; j < jl.rows; j++)
            done += *cell(&jl, j, 4) != '\0';
        ck_assert_uint_eq(done, (size_t)c->finished);
        if (c->last_finish >= 0)
            ck_assert_int_eq(maxfin, c->last_finish);
        if (c->crash) /* no solve gave an allocation */
            ck_assert_uint_eq(bat.rows, 0);
        else
            ck_assert_uint_gt(bat.rows, 0);
    }
    table_free(&jl);
    table_free(&bat);

    /* the HDF5 file */
    h5 = tu_h5_check_run(tu_path_in(dir, "out.h5"), c->partial, (size_t)events);
    ck_assert_uint_eq(tu_h5_rows(h5, "/jobs"), N_JOBS);
    H5Fclose(h5);

    /* the instance dumps: one whole file per solve, evt-NNNNNN.json
     * with the event's number, ascending */
    list = tu_dir_list(tu_path_in(dir, "inst"));
    {
        long k = 0, prev = -1;
        for (char *w = strtok(list, " "); w; w = strtok(NULL, " "), k++) {
            long evt = -1;
            int len = 0;
            ck_assert_msg(sscanf(w, "evt-%6ld.json%n", &evt, &len) == 1 &&
                              len == 15 && w[15] == '\0',
                          "stray file inst/%s", w);
            ck_assert_int_gt(evt, prev);
            ck_assert_int_le(evt, events);
            prev = evt;
            inst = tu_load_json(tu_path_in(tu_path_in(dir, "inst"), w));
            ck_assert_str_eq(json_string_value(json_object_get(inst, "format")),
                             "bfsim-instance");
            json_decref(inst);
        }
        ck_assert_int_eq(k, solves);
    }
    free(list);
    json_decref(sum);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("endings");
    TCase *tc = tcase_create("endings");

    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_ending, 0, (int)N_ENDINGS);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
