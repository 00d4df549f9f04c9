/* check_h5out.c - the HDF5 sink: a small file of known rows read back
 * field by field with the HDF5 C API (by field name, so the names are
 * checked too), the temporary file's life cycle, errors that name the
 * path, a replay's /jobs with a job file's features and checkpoint
 * columns, and the Python example run on a written file when h5py and
 * pandas are importable. */
#include "config.h"

#include "alloc/alloc.h"
#include "engine/replay.h"
#include "formats/h5out.h"
#include "testreplay.h"
#include "testutil.h"

#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <hdf5.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define T0 INT64_C(1600000000) /* 2020-09-13 12:26:40 UTC */
/* "bert-large-\u00fcn\u00efcode": 18 characters, 20 bytes of UTF-8. */
#define LONG_NAME                                                              \
    "bert-large-\xc3\xbc"                                                      \
    "n\xc3\xaf"                                                                \
    "code"

static const struct rec_step steps[] = {
    /* the last three: no node types */
    {1, T0, 0.0, 12.5, 0.0, 0.0, 0, 0, 4, 2, 4, 2, 4, 0, NULL, NULL},
    {2, T0 + 60, 750.0, 10.25, 3.5, 1.25, 1, 1, 0, 2, 3, 1, 3, 0, NULL, NULL},
    {3, T0 + 120, 615.0, 0.0, 0.0, 0.0, 3, 0, 0, 1, 0, 0, 0, 0, NULL, NULL},
};

static const struct rec_solve solves[] = {
    {1, T0, SOLVE_OPTIMAL, 4, 2, 125.5, 125.5, 0.001, 0.002, 10, 12, 30, 0.0025,
     0.0005, 130.25, 3, 17, 131, 2},
    {2, T0 + 60, SOLVE_FEASIBLE, 3, 2, 90.0, 95.0, 0.0015, 10.0, 8, 9, 20, 9.5,
     0.25, -1.5, 1, 0, 0, -1},
};

static const struct rec_alloc allocs[] = {
    {1, T0, 0, 3}, {1, T0, 1, 1}, {2, T0 + 60, 1, 0}};

/* The node maps after events 1-3 (4 nodes), as the allocations say: job
 * 0 holds nodes 0-2 throughout, job 1 node 3 until event 2.  The node
 * holdings, in order of end then node: node 3 job 1 [T0, T0+60), then at
 * the end (the last map, T0+120) nodes 0, 1, 2 job 0 [T0, T0+120). */
static const int32_t map1[] = {0, 0, 0, 1}, map2[] = {0, 0, 0, -1};
static const int64_t want_nh[][4] = {{3, 1, T0, T0 + 60},
                                     {0, 0, T0, T0 + 120},
                                     {1, 0, T0, T0 + 120},
                                     {2, 0, T0, T0 + 120}};

/* The second name is the longest: 20 bytes of UTF-8. */
static const struct rec_job jobs[] = {
    {.index = 0,
     .name = "resnet50",
     .tsub = T0 - 100,
     .admitted = T0,
     .first_start = T0,
     .finished = -1,
     .samples = 1365.0,
     .node_seconds = 420.0,
     .paused_s = 0.0,
     .lost_rescale = 3.5,
     .lost_preempt = 0.0,
     .rescales = 1,
     .preemptions = 0,
     .starts = 2},
    {.index = 1,
     .name = LONG_NAME,
     .tsub = T0 - 50,
     .admitted = T0,
     .first_start = T0,
     .finished = T0 + 60,
     .samples = 0.0,
     .node_seconds = 60.0,
     .paused_s = 5.0,
     .lost_rescale = 0.0,
     .lost_preempt = 1.25,
     .rescales = 0,
     .preemptions = 1,
     .starts = 1},
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Writes the known file at path through the sink (as the replay will),
 * with the attributes, and finishes it as partial. */
static void write_known(const char *path)
{
    struct h5out *h = NULL;
    struct rec_sink sink;
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_int_eq(h5out_open(path, &h, &e), 0);
    ck_assert_ptr_nonnull(h);
    h5out_sink(h, &sink);
    ck_assert_ptr_eq(sink.arg, h);
    for (size_t i = 0; i < N(steps); i++)
        ck_assert_int_eq(sink.step(sink.arg, &steps[i]), 0);
    for (size_t i = 0; i < N(solves); i++)
        ck_assert_int_eq(sink.solve(sink.arg, &solves[i]), 0);
    for (size_t i = 0; i < N(allocs); i++)
        ck_assert_int_eq(sink.alloc(sink.arg, &allocs[i]), 0);
    for (size_t i = 0; i < 3; i++) {
        struct rec_nodes m = {.evt = i + 1,
                              .time = T0 + 60 * (int64_t)i,
                              .t0 = T0,
                              .n = 4,
                              .owner = i ? map2 : map1,
                              .n_jobs = N(jobs)};
        ck_assert_int_eq(sink.nodes(sink.arg, &m), 0);
    }
    for (size_t i = 0; i < N(jobs); i++)
        ck_assert_int_eq(sink.job(sink.arg, &jobs[i]), 0);
    ck_assert_int_eq(h5out_attr_str(h, "bfsim_version", "0.1.0"), 0);
    ck_assert_int_eq(h5out_attr_str(h, "command_line", "bfsim replay x"), 0);
    /* Replaced by the second call. */
    ck_assert_int_eq(h5out_attr_str(h, "command_line",
                                    "bfsim replay --hdf5 out.h5 trace.csv"),
                     0);
    ck_assert_int_eq(h5out_attr_str(h, "trace_sha256", "ab12"), 0);
    ck_assert_int_eq(h5out_attr_double(h, "tfwd", 3600.0), 0);
    ck_assert_int_eq(h5out_attr_int(h, "max_jobs", 4), 0);
    ck_assert_int_eq(h5out_summary_double(h, "harvest_ratio", 0.75), 0);
    ck_assert_int_eq(h5out_summary_int(h, "events", 3), 0);
    ck_assert_int_eq(h5out_error(h)->code, 0);
    /* Nothing at the path before the end. */
    ck_assert(!tu_exists(path));
    ck_assert_int_eq(h5out_finish(h, 1, &e), 0);
    ck_assert_str_eq(e.msg, "");
}

/* Entries of directory dir other than "." and "..". */
static size_t dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    size_t n = 0;

    ck_assert_ptr_nonnull(d);
    while ((de = readdir(d)) != NULL)
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
            n++;
    closedir(d);
    return n;
}

/* A fresh empty directory under the test's temporary directory. */
static const char *fresh_dir(const char *name)
{
    const char *d = tu_tmp(name);
    ck_assert_int_eq(mkdir(d, 0777), 0);
    return d;
}

static char *join(const char *dir, const char *name)
{
    char *p = xmalloc(strlen(dir) + strlen(name) + 2);
    sprintf(p, "%s/%s", dir, name);
    return p;
}

/* Reads the whole dataset name of f as mtype rows; returns them (malloc'd)
 * and their number in *n. */
static void *read_table(hid_t f, const char *name, hid_t mtype, hsize_t *n)
{
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT), sp;
    void *buf;

    ck_assert_int_ge(d, 0);
    sp = H5Dget_space(d);
    ck_assert_int_eq(H5Sget_simple_extent_ndims(sp), 1);
    H5Sget_simple_extent_dims(sp, n, NULL);
    H5Sclose(sp);
    buf = xcalloc(*n ? *n : 1, H5Tget_size(mtype));
    if (*n)
        ck_assert_int_ge(H5Dread(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf),
                         0);
    H5Dclose(d);
    return buf;
}

static hid_t vstr_type(void)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, H5T_VARIABLE);
    H5Tset_cset(t, H5T_CSET_UTF8);
    return t;
}

/* The string attribute key of loc, checked to be variable-length UTF-8. */
static char *read_str_attr(hid_t loc, const char *key)
{
    hid_t a = H5Aopen(loc, key, H5P_DEFAULT), ft, mt = vstr_type();
    char *v = NULL, *copy;

    ck_assert_int_ge(a, 0);
    ft = H5Aget_type(a);
    ck_assert_int_gt(H5Tis_variable_str(ft), 0);
    ck_assert_int_eq(H5Tget_cset(ft), H5T_CSET_UTF8);
    ck_assert_int_ge(H5Aread(a, mt, &v), 0);
    copy = xstrdup(v);
    H5free_memory(v);
    H5Tclose(ft);
    H5Tclose(mt);
    H5Aclose(a);
    return copy;
}

static double read_num_attr(hid_t loc, const char *key, int want_float)
{
    hid_t a = H5Aopen(loc, key, H5P_DEFAULT), ft;
    double v = 0.0;

    ck_assert_int_ge(a, 0);
    ft = H5Aget_type(a);
    ck_assert_int_eq(H5Tget_class(ft), want_float ? H5T_FLOAT : H5T_INTEGER);
    ck_assert_uint_eq(H5Tget_size(ft), 8);
    ck_assert_int_ge(H5Aread(a, H5T_NATIVE_DOUBLE, &v), 0);
    H5Tclose(ft);
    H5Aclose(a);
    return v;
}

/* Memory compound types built by field name, independently of h5out.c. */
struct r_ev {
    int64_t evt, time;
    double thr, rate, rescost, precost;
    int64_t nleft, npre, njoin, njob, npool, njrun, nnrun;
};
struct r_so {
    int64_t evt, time;
    int status;
    int pool;
    int64_t n_jobs;
    double objective, bound;
    int64_t rows, cols, nnz;
    double build_s, solve_s, cpu_s, ipc_s;
    int64_t mip_solves, nodes, iterations;
    double root_bound;
    int64_t root_cuts;
};
struct r_al {
    int64_t evt, time, job, count;
};
struct r_job {
    int64_t index;
    char name[64];
    int64_t tsub, admitted, first_start, finished;
    double samples, node_seconds, paused_s, lost_rescale, lost_preempt;
    int64_t rescales, preemptions, starts;
};

#define I64(t, s, f) H5Tinsert(t, #f, offsetof(struct s, f), H5T_NATIVE_INT64)
#define DBL(t, s, f) H5Tinsert(t, #f, offsetof(struct s, f), H5T_NATIVE_DOUBLE)

static hid_t ev_type(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct r_ev));
    I64(t, r_ev, evt), I64(t, r_ev, time), DBL(t, r_ev, thr);
    DBL(t, r_ev, rate), DBL(t, r_ev, rescost), DBL(t, r_ev, precost);
    I64(t, r_ev, nleft), I64(t, r_ev, npre), I64(t, r_ev, njoin);
    I64(t, r_ev, njob), I64(t, r_ev, npool), I64(t, r_ev, njrun);
    I64(t, r_ev, nnrun);
    return t;
}

/* The status enum as documented (names written out here, not taken from
 * alloc.c): HDF5 converts enums by member name, so reading through it
 * checks the names and values. */
static hid_t status_type(void)
{
    static const char *const names[] = {"optimal", "feasible", "infeasible",
                                        "no-solution", "failed"};
    hid_t t = H5Tenum_create(H5T_NATIVE_INT);
    ck_assert_int_eq(N(names), SOLVE_N_STATUSES);
    for (int v = 0; v < (int)N(names); v++)
        H5Tenum_insert(t, names[v], &v);
    return t;
}

static hid_t so_type(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct r_so)), st = status_type();
    I64(t, r_so, evt), I64(t, r_so, time);
    H5Tinsert(t, "status", offsetof(struct r_so, status), st);
    H5Tinsert(t, "pool", offsetof(struct r_so, pool), H5T_NATIVE_INT);
    I64(t, r_so, n_jobs), DBL(t, r_so, objective), DBL(t, r_so, bound);
    I64(t, r_so, rows), I64(t, r_so, cols), I64(t, r_so, nnz);
    DBL(t, r_so, build_s), DBL(t, r_so, solve_s);
    DBL(t, r_so, cpu_s), DBL(t, r_so, ipc_s), I64(t, r_so, mip_solves);
    I64(t, r_so, nodes), I64(t, r_so, iterations), DBL(t, r_so, root_bound);
    I64(t, r_so, root_cuts);
    H5Tclose(st);
    return t;
}

static hid_t al_type(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct r_al));
    I64(t, r_al, evt), I64(t, r_al, time), I64(t, r_al, job);
    I64(t, r_al, count);
    return t;
}

struct r_nh {
    int64_t node, job, start, end;
};

static hid_t nh_type(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct r_nh));
    I64(t, r_nh, node), I64(t, r_nh, job), I64(t, r_nh, start);
    I64(t, r_nh, end);
    return t;
}

static hid_t job_type(void)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct r_job));
    hid_t s = H5Tcopy(H5T_C_S1);
    H5Tset_size(s, 64);
    H5Tset_cset(s, H5T_CSET_UTF8);
    I64(t, r_job, index);
    H5Tinsert(t, "name", offsetof(struct r_job, name), s);
    I64(t, r_job, tsub), I64(t, r_job, admitted), I64(t, r_job, first_start);
    I64(t, r_job, finished), DBL(t, r_job, samples);
    DBL(t, r_job, node_seconds), DBL(t, r_job, paused_s);
    DBL(t, r_job, lost_rescale), DBL(t, r_job, lost_preempt);
    I64(t, r_job, rescales), I64(t, r_job, preemptions);
    I64(t, r_job, starts);
    H5Tclose(s);
    return t;
}

/* Asserts that dataset name of f has exactly the fields names[], in that
 * order, that it is chunked with shuffle and deflate, and that it carries
 * the "columns" and "time_units" attributes. */
static void check_layout(hid_t f, const char *name, const char *const *names,
                         int n)
{
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT), t, p;
    char *s;

    ck_assert_int_ge(d, 0);
    t = H5Dget_type(d);
    ck_assert_int_eq(H5Tget_class(t), H5T_COMPOUND);
    ck_assert_int_eq(H5Tget_nmembers(t), n);
    for (int i = 0; i < n; i++) {
        char *m = H5Tget_member_name(t, (unsigned)i);
        ck_assert_str_eq(m, names[i]);
        H5free_memory(m);
    }
    p = H5Dget_create_plist(d);
    ck_assert_int_eq(H5Pget_layout(p), H5D_CHUNKED);
    ck_assert_int_eq(H5Pget_nfilters(p), 2);
    ck_assert_int_eq(H5Pget_filter2(p, 0, NULL, NULL, NULL, 0, NULL, NULL),
                     H5Z_FILTER_SHUFFLE);
    ck_assert_int_eq(H5Pget_filter2(p, 1, NULL, NULL, NULL, 0, NULL, NULL),
                     H5Z_FILTER_DEFLATE);
    s = read_str_attr(d, "columns");
    ck_assert_ptr_nonnull(strstr(s, "time"));
    xfree(s);
    s = read_str_attr(d, "time_units");
    ck_assert_str_eq(s, "seconds since 1970-01-01 00:00:00 UTC");
    xfree(s);
    H5Pclose(p);
    H5Tclose(t);
    H5Dclose(d);
}

START_TEST(test_roundtrip)
{
    const char *dir = fresh_dir("roundtrip");
    char *path = join(dir, "out.h5"), *s;
    static const char *const ev_names[] = {
        "evt",  "time",  "thr",  "rate",  "rescost", "precost", "nleft",
        "npre", "njoin", "njob", "npool", "njrun",   "nnrun"};
    static const char *const so_names[] = {
        "evt",       "time",       "status",     "pool",     "n_jobs",
        "objective", "bound",      "rows",       "cols",     "nnz",
        "build_s",   "solve_s",    "cpu_s",      "ipc_s",    "mip_solves",
        "nodes",     "iterations", "root_bound", "root_cuts"};
    static const char *const al_names[] = {"evt", "time", "job", "count"};
    static const char *const nh_names[] = {"node", "job", "start", "end"};
    static const char *const job_names[] = {
        "index",        "name",     "tsub",         "admitted", "first_start",
        "finished",     "samples",  "node_seconds", "paused_s", "lost_rescale",
        "lost_preempt", "rescales", "preemptions",  "starts"};
    hid_t f, t, g;
    hsize_t n;
    struct stat st;

    write_known(path);
    ck_assert(tu_exists(path));
    ck_assert_uint_eq(dir_entries(dir), 1); /* no temporary file left */
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_ne(st.st_mode & 0044, 0); /* not mkstemp's 0600 */

    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    ck_assert_int_ge(f, 0);
    check_layout(f, "events", ev_names, (int)N(ev_names));
    check_layout(f, "solves", so_names, (int)N(so_names));
    check_layout(f, "allocations", al_names, (int)N(al_names));
    check_layout(f, "node_holdings", nh_names, (int)N(nh_names));
    check_layout(f, "jobs", job_names, (int)N(job_names));

    {
        struct r_ev *r;
        t = ev_type();
        r = read_table(f, "events", t, &n);
        ck_assert_uint_eq(n, N(steps));
        for (size_t i = 0; i < N(steps); i++) {
            const struct rec_step *w = &steps[i];
            ck_assert_int_eq(r[i].evt, (int64_t)w->evt);
            ck_assert_int_eq(r[i].time, w->time);
            ck_assert_double_eq(r[i].thr, w->thr);
            ck_assert_double_eq(r[i].rate, w->rate);
            ck_assert_double_eq(r[i].rescost, w->rescost);
            ck_assert_double_eq(r[i].precost, w->precost);
            ck_assert_int_eq(r[i].nleft, (int64_t)w->nleft);
            ck_assert_int_eq(r[i].npre, (int64_t)w->npre);
            ck_assert_int_eq(r[i].njoin, (int64_t)w->njoin);
            ck_assert_int_eq(r[i].njob, (int64_t)w->njob);
            ck_assert_int_eq(r[i].npool, (int64_t)w->npool);
            ck_assert_int_eq(r[i].njrun, (int64_t)w->njrun);
            ck_assert_int_eq(r[i].nnrun, (int64_t)w->nnrun);
        }
        xfree(r);
        H5Tclose(t);
    }
    {
        struct r_so *r;
        t = so_type();
        r = read_table(f, "solves", t, &n);
        ck_assert_uint_eq(n, N(solves));
        for (size_t i = 0; i < N(solves); i++) {
            const struct rec_solve *w = &solves[i];
            ck_assert_int_eq(r[i].evt, (int64_t)w->evt);
            ck_assert_int_eq(r[i].time, w->time);
            ck_assert_int_eq(r[i].status, w->status);
            ck_assert_int_eq(r[i].pool, w->pool);
            ck_assert_int_eq(r[i].n_jobs, (int64_t)w->n_jobs);
            ck_assert_double_eq(r[i].objective, w->objective);
            ck_assert_double_eq(r[i].bound, w->bound);
            ck_assert_int_eq(r[i].rows, (int64_t)w->rows);
            ck_assert_int_eq(r[i].cols, (int64_t)w->cols);
            ck_assert_int_eq(r[i].nnz, (int64_t)w->nnz);
            ck_assert_double_eq(r[i].build_s, w->build_s);
            ck_assert_double_eq(r[i].solve_s, w->solve_s);
            ck_assert_double_eq(r[i].cpu_s, w->cpu_s);
            ck_assert_double_eq(r[i].ipc_s, w->ipc_s);
            ck_assert_int_eq(r[i].mip_solves, (int64_t)w->mip_solves);
            ck_assert_int_eq(r[i].nodes, w->nodes);
            ck_assert_int_eq(r[i].iterations, w->iters);
            ck_assert_double_eq(r[i].root_bound, w->root_bound);
            ck_assert_int_eq(r[i].root_cuts, w->cuts);
        }
        xfree(r);
        H5Tclose(t);
    }
    {
        struct r_al *r;
        t = al_type();
        r = read_table(f, "allocations", t, &n);
        ck_assert_uint_eq(n, N(allocs));
        for (size_t i = 0; i < N(allocs); i++) {
            ck_assert_int_eq(r[i].evt, (int64_t)allocs[i].evt);
            ck_assert_int_eq(r[i].time, allocs[i].time);
            ck_assert_int_eq(r[i].job, (int64_t)allocs[i].job);
            ck_assert_int_eq(r[i].count, allocs[i].count);
        }
        xfree(r);
        H5Tclose(t);
    }
    {
        struct r_nh *r;
        t = nh_type();
        r = read_table(f, "node_holdings", t, &n);
        ck_assert_uint_eq(n, N(want_nh));
        for (size_t i = 0; i < N(want_nh); i++) {
            ck_assert_int_eq(r[i].node, want_nh[i][0]);
            ck_assert_int_eq(r[i].job, want_nh[i][1]);
            ck_assert_int_eq(r[i].start, want_nh[i][2]);
            ck_assert_int_eq(r[i].end, want_nh[i][3]);
        }
        xfree(r);
        H5Tclose(t);
    }
    {
        struct r_job *r;
        hid_t d = H5Dopen2(f, "jobs", H5P_DEFAULT), ft, nt;
        int idx;

        /* The name field: fixed length, sized to the longest name. */
        ft = H5Dget_type(d);
        idx = H5Tget_member_index(ft, "name");
        ck_assert_int_ge(idx, 0);
        nt = H5Tget_member_type(ft, (unsigned)idx);
        ck_assert_int_eq(H5Tget_class(nt), H5T_STRING);
        ck_assert_int_eq(H5Tis_variable_str(nt), 0);
        ck_assert_uint_eq(H5Tget_size(nt), strlen(jobs[1].name));
        ck_assert_uint_eq(strlen(jobs[1].name), 20);
        ck_assert_int_eq(H5Tget_cset(nt), H5T_CSET_UTF8);
        H5Tclose(nt);
        H5Tclose(ft);
        H5Dclose(d);

        t = job_type();
        r = read_table(f, "jobs", t, &n);
        ck_assert_uint_eq(n, N(jobs));
        for (size_t i = 0; i < N(jobs); i++) {
            const struct rec_job *w = &jobs[i];
            ck_assert_int_eq(r[i].index, (int64_t)w->index);
            ck_assert_str_eq(r[i].name, w->name);
            ck_assert_int_eq(r[i].tsub, w->tsub);
            ck_assert_int_eq(r[i].admitted, w->admitted);
            ck_assert_int_eq(r[i].first_start, w->first_start);
            ck_assert_int_eq(r[i].finished, w->finished);
            ck_assert_double_eq(r[i].samples, w->samples);
            ck_assert_double_eq(r[i].node_seconds, w->node_seconds);
            ck_assert_double_eq(r[i].paused_s, w->paused_s);
            ck_assert_double_eq(r[i].lost_rescale, w->lost_rescale);
            ck_assert_double_eq(r[i].lost_preempt, w->lost_preempt);
            ck_assert_int_eq(r[i].rescales, (int64_t)w->rescales);
            ck_assert_int_eq(r[i].preemptions, (int64_t)w->preemptions);
            ck_assert_int_eq(r[i].starts, (int64_t)w->starts);
        }
        xfree(r);
        H5Tclose(t);
    }

    s = read_str_attr(f, "format");
    ck_assert_str_eq(s, "bfsim replay 1");
    xfree(s);
    s = read_str_attr(f, "bfsim_version");
    ck_assert_str_eq(s, "0.1.0");
    xfree(s);
    s = read_str_attr(f, "command_line");
    ck_assert_str_eq(s, "bfsim replay --hdf5 out.h5 trace.csv");
    xfree(s);
    s = read_str_attr(f, "trace_sha256");
    ck_assert_str_eq(s, "ab12");
    xfree(s);
    ck_assert_double_eq(read_num_attr(f, "tfwd", 1), 3600.0);
    ck_assert_double_eq(read_num_attr(f, "max_jobs", 0), 4.0);
    ck_assert_double_eq(read_num_attr(f, "partial", 0), 1.0);
    g = H5Gopen2(f, "summary", H5P_DEFAULT);
    ck_assert_int_ge(g, 0);
    ck_assert_double_eq(read_num_attr(g, "harvest_ratio", 1), 0.75);
    ck_assert_double_eq(read_num_attr(g, "events", 0), 3.0);
    H5Gclose(g);
    ck_assert_int_ge(H5Fclose(f), 0);
    xfree(path);
}
END_TEST

/* More rows than a chunk (4096), not a multiple of it: every row is
 * written once, in order, across the buffer flushes. */
START_TEST(test_many_rows)
{
    const char *dir = fresh_dir("many");
    char *path = join(dir, "many.h5");
    const size_t rows = 5000;
    struct h5out *h;
    struct bfs_error e;
    struct r_ev *r;
    struct r_al *a;
    hid_t f, t;
    hsize_t n;

    bfs_error_clear(&e);
    ck_assert_int_eq(h5out_open(path, &h, &e), 0);
    for (size_t i = 0; i < rows; i++) {
        struct rec_step s = {.evt = i + 1,
                             .time = T0 + (int64_t)i,
                             .thr = 0.5 * (double)i,
                             .nnrun = i % 7};
        ck_assert_int_eq(h5out_step(h, &s), 0);
        struct rec_alloc ra = {i + 1, T0 + (int64_t)i, i % 3, (int)(i % 11)};
        ck_assert_int_eq(h5out_alloc(h, &ra), 0);
    }
    ck_assert_int_eq(h5out_finish(h, 0, &e), 0);

    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    ck_assert_int_ge(f, 0);
    t = ev_type();
    r = read_table(f, "events", t, &n);
    ck_assert_uint_eq(n, rows);
    for (size_t i = 0; i < rows; i++) {
        ck_assert_int_eq(r[i].evt, (int64_t)i + 1);
        ck_assert_int_eq(r[i].time, T0 + (int64_t)i);
        ck_assert_double_eq(r[i].thr, 0.5 * (double)i);
        ck_assert_int_eq(r[i].nnrun, (int64_t)(i % 7));
    }
    xfree(r);
    H5Tclose(t);
    t = al_type();
    a = read_table(f, "allocations", t, &n);
    ck_assert_uint_eq(n, rows);
    for (size_t i = 0; i < rows; i++) {
        ck_assert_int_eq(a[i].evt, (int64_t)i + 1);
        ck_assert_int_eq(a[i].job, (int64_t)(i % 3));
        ck_assert_int_eq(a[i].count, (int64_t)(i % 11));
    }
    xfree(a);
    H5Tclose(t);
    ck_assert_double_eq(read_num_attr(f, "partial", 0), 0.0);
    H5Fclose(f);
    xfree(path);
}
END_TEST

/* A file with no rows still has every table, with zero rows. */
START_TEST(test_empty)
{
    const char *dir = fresh_dir("empty");
    char *path = join(dir, "empty.h5");
    static const char *const tables[] = {"events",      "solves",
                                         "allocations", "node_holdings",
                                         "node_idle",   "jobs"};
    struct h5out *h;
    struct bfs_error e;
    hid_t f;

    bfs_error_clear(&e);
    ck_assert_int_eq(h5out_open(path, &h, &e), 0);
    ck_assert_int_eq(h5out_finish(h, 0, &e), 0);
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    ck_assert_int_ge(f, 0);
    for (size_t i = 0; i < N(tables); i++) {
        hid_t d = H5Dopen2(f, tables[i], H5P_DEFAULT), sp;
        hsize_t n = 99;
        ck_assert_int_ge(d, 0);
        sp = H5Dget_space(d);
        H5Sget_simple_extent_dims(sp, &n, NULL);
        ck_assert_uint_eq(n, 0);
        H5Sclose(sp);
        H5Dclose(d);
    }
    H5Fclose(f);
    xfree(path);
}
END_TEST

/* Abort: the temporary file is gone and nothing is at the path. */
START_TEST(test_abort)
{
    const char *dir = fresh_dir("abort");
    char *path = join(dir, "out.h5");
    struct h5out *h;
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_int_eq(h5out_open(path, &h, &e), 0);
    ck_assert_uint_eq(dir_entries(dir), 1); /* the temporary file */
    for (size_t i = 0; i < N(steps); i++)
        ck_assert_int_eq(h5out_step(h, &steps[i]), 0);
    ck_assert_int_eq(h5out_job(h, &jobs[0]), 0);
    h5out_abort(h);
    ck_assert(!tu_exists(path));
    ck_assert_uint_eq(dir_entries(dir), 0);
    h5out_abort(NULL);
    xfree(path);
}
END_TEST

/* A failure sticks: later calls return it, and finishing reports it and
 * leaves nothing behind. */
START_TEST(test_error_sticks)
{
    const char *dir = fresh_dir("sticky");
    char *path = join(dir, "out.h5");
    struct h5out *h;
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_int_eq(h5out_open(path, &h, &e), 0);
    ck_assert_int_eq(h5out_attr_int(h, "", 1), BFS_EINVAL);
    ck_assert_int_eq(h5out_error(h)->code, BFS_EINVAL);
    ck_assert_int_eq(h5out_step(h, &steps[0]), BFS_EINVAL);
    ck_assert_int_eq(h5out_attr_str(h, "ok", "x"), BFS_EINVAL);
    ck_assert_int_eq(h5out_finish(h, 0, &e), BFS_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, path));
    ck_assert_ptr_nonnull(strstr(e.msg, "attribute"));
    ck_assert(!tu_exists(path));
    ck_assert_uint_eq(dir_entries(dir), 0);
    xfree(path);
}
END_TEST

/* A failure inside HDF5 (an attribute name too long for an object
 * header) becomes an error naming the file, with nothing printed on
 * standard error, and the file is removed. */
START_TEST(test_hdf5_error)
{
    const char *dir = fresh_dir("hdf5err");
    const char *errlog = tu_tmp("hdf5err.stderr");
    char *path = join(dir, "out.h5"), *key, *logged;
    struct h5out *h;
    struct bfs_error e;
    int saved, fd, rc;

    bfs_error_clear(&e);
    ck_assert_int_eq(h5out_open(path, &h, &e), 0);
    key = xmalloc(70000);
    memset(key, 'k', 69999);
    key[69999] = '\0';
    fflush(stderr);
    saved = dup(2);
    fd = open(errlog, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ck_assert_int_ge(fd, 0);
    dup2(fd, 2);
    rc = h5out_attr_str(h, key, "v");
    fflush(stderr);
    dup2(saved, 2);
    close(fd);
    close(saved);
    ck_assert_int_eq(rc, BFS_EIO);
    ck_assert_ptr_nonnull(strstr(h5out_error(h)->msg, path));
    ck_assert_ptr_nonnull(
        strstr(h5out_error(h)->msg, "cannot write attribute"));
    logged = tu_slurp(errlog);
    ck_assert_str_eq(logged, "");
    ck_assert_int_eq(h5out_finish(h, 0, &e), BFS_EIO);
    ck_assert_ptr_nonnull(strstr(e.msg, path));
    ck_assert_uint_eq(dir_entries(dir), 0);
    xfree(logged);
    xfree(key);
    xfree(path);
}
END_TEST

/* Unwritable places: a missing directory, a parent that is a file, and
 * "-" (an HDF5 file cannot be standard output). */
START_TEST(test_unwritable)
{
    const char *missing = tu_tmp("no-such-dir/out.h5");
    const char *file = tu_write("plain-file", "x\n");
    char *under_file = join(file, "out.h5");
    struct h5out *h = NULL;
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_int_eq(h5out_open(missing, &h, &e), BFS_EIO);
    ck_assert_ptr_null(h);
    ck_assert_ptr_nonnull(strstr(e.msg, missing));
    ck_assert(!tu_exists(missing));

    bfs_error_clear(&e);
    ck_assert_int_eq(h5out_open(under_file, &h, &e), BFS_EIO);
    ck_assert_ptr_null(h);
    ck_assert_ptr_nonnull(strstr(e.msg, under_file));

    bfs_error_clear(&e);
    ck_assert_int_eq(h5out_open("-", &h, &e), BFS_EINVAL);
    ck_assert_ptr_null(h);
    ck_assert_str_ne(e.msg, "");
    xfree(under_file);
}
END_TEST

/* A Python with h5py and pandas: "python3" from PATH, else Debian's. */
static const char *find_python(void)
{
    static const char *const cands[] = {"python3", "/usr/bin/python3"};
    char cmd[256];

    for (size_t i = 0; i < N(cands); i++) {
        snprintf(cmd, sizeof cmd, "%s -c 'import h5py, pandas' >/dev/null 2>&1",
                 cands[i]);
        if (system(cmd) == 0)
            return cands[i];
    }
    return NULL;
}

/* tools/h5read-example.py on the known file prints its values. */
START_TEST(test_python_example)
{
    const char *py = find_python();
    const char *dir, *script = tu_src("tools/h5read-example.py");
    static const char *const want[] = {
        "bfsim_version = 0.1.0",
        "command_line = bfsim replay --hdf5 out.h5 trace.csv",
        "format = bfsim replay 1",
        "max_jobs = 4",
        "partial = 1",
        "tfwd = 3600.0",
        "events=3, harvest_ratio=0.75",
        "2020-09-13 12:26:40+00:00",
        "2020-09-13 12:28:40+00:00",
        "optimal",
        "feasible",
        "resnet50",
        LONG_NAME,
        "1365.0",
        "node-seconds per job, from the holdings",
    };
    char *path, *cmd, *out = NULL;
    size_t len = 0, cap = 0, got;
    FILE *p;

    if (!py) {
        fprintf(stderr, "check_h5out: no python3 with h5py and pandas, "
                        "skipping the Python example\n");
        return;
    }
    dir = fresh_dir("python");
    path = join(dir, "out.h5");
    write_known(path);
    cmd = xmalloc(strlen(py) + strlen(script) + strlen(path) + 32);
    sprintf(cmd, "%s '%s' '%s' 2>&1", py, script, path);
    p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    do {
        BFS_GROW(out, cap, len + 4096);
        got = fread(out + len, 1, cap - len - 1, p);
        len += got;
    } while (got > 0);
    out[len] = '\0';
    ck_assert_msg(pclose(p) == 0, "%s failed:\n%s", cmd, out);
    for (size_t i = 0; i < N(want); i++)
        ck_assert_msg(strstr(out, want[i]), "no \"%s\" in the output:\n%s",
                      want[i], out);
    /* Nodes per job at event 3: job 0 keeps 3 (its row at event 1), job 1
     * holds 0 since event 2. */
    ck_assert_msg(strstr(out, "3    3  0"), "bad counts table:\n%s", out);
    xfree(out);
    xfree(cmd);
    xfree(path);
}
END_TEST

/* The outputs of a replay end in two phases (formats/records.h): nothing
 * is at any path after every sink finished, everything after the
 * commits; and when one output fails to finish, aborting leaves none of
 * them, not even those that finished. */
static void open_three(const char *dir, char *paths[3], struct rec_sink s[3],
                       struct h5out **h)
{
    struct bfs_error e;

    bfs_error_clear(&e);
    paths[0] = join(dir, "steps.csv");
    paths[1] = join(dir, "jobs.csv");
    paths[2] = join(dir, "out.h5");
    ck_assert_int_eq(steps_open(paths[0], &s[0], &e), 0);
    ck_assert_int_eq(joblog_open(paths[1], &s[1], &e), 0);
    ck_assert_int_eq(h5out_open(paths[2], h, &e), 0);
    h5out_sink(*h, &s[2]);
    for (int i = 0; i < 3; i++) {
        if (s[i].step)
            ck_assert_int_eq(s[i].step(s[i].arg, &steps[0]), 0);
        if (s[i].job)
            ck_assert_int_eq(s[i].job(s[i].arg, &jobs[0]), 0);
    }
}

START_TEST(test_sinks_two_phases)
{
    const char *dir = fresh_dir("phases");
    char *paths[3];
    struct rec_sink s[3], *sinks[] = {&s[0], &s[1], &s[2]};
    struct h5out *h;
    struct bfs_error e;
    char *got;

    bfs_error_clear(&e);
    open_three(dir, paths, s, &h);
    ck_assert_int_eq(rec_sinks_finish(sinks, 3, 0, &e), 0);
    for (int i = 0; i < 3; i++)
        ck_assert(!tu_exists(paths[i]));
    ck_assert_uint_eq(dir_entries(dir), 3); /* the temporary files */
    ck_assert_int_eq(rec_sinks_commit(sinks, 3, &e), 0);
    rec_sinks_abort(sinks, 3); /* after the commits: nothing to do */
    ck_assert_uint_eq(dir_entries(dir), 3);
    got = tu_slurp(paths[0]);
    /* steps[0]: evt 1 at T0 = 2020-09-13 12:26:40, Thr 0, Rate 12.5, no
     * cost, 0 left, 0 preempted, 4 joined, 2 jobs, pool 4, 2 running on
     * 4 nodes. */
    ck_assert_str_eq(got, "evtTime,Thr,Rate,ReScost,evt,Nleft,Npre,Njoin,"
                          "nJob,nNd,nJrun,nNrun,PreCost\n"
                          "2020-09-13 12:26:40,0.000000,12.500000,0.000000,"
                          "1,0,0,4,2,4,2,4,0.000000\n");
    free(got);
    for (int i = 0; i < 3; i++)
        xfree(paths[i]);
}
END_TEST

START_TEST(test_sinks_one_fails)
{
    const char *dir = fresh_dir("onefails");
    char *paths[3];
    struct rec_sink s[3], *sinks[] = {&s[0], &s[1], &s[2]};
    struct h5out *h;
    struct bfs_error e;

    bfs_error_clear(&e);
    open_three(dir, paths, s, &h);
    /* The HDF5 file meets an error: it cannot finish. */
    ck_assert_int_eq(h5out_attr_int(h, "", 1), BFS_EINVAL);
    ck_assert_int_eq(rec_sinks_finish(sinks, 3, 0, &e), BFS_EINVAL);
    ck_assert_ptr_nonnull(strstr(e.msg, paths[2]));
    rec_sinks_abort(sinks, 3);
    ck_assert_uint_eq(dir_entries(dir), 0);
    for (int i = 0; i < 3; i++)
        xfree(paths[i]);
}
END_TEST

/* A replay of a hand job file with two features, one of them blank for
 * A and one named as a /jobs field (samples: stored as feature:samples),
 * and checkpoints for A: /jobs gains the checkpoint fields and the
 * features as fixed-length strings sized to their longest value.  n0
 * and n1 from T, both leave at T+1000; A and B hold one each at 10
 * samples/s.  A (interval 600 s, free writes) writes one checkpoint at
 * 6,000 and goes back to it at T+1000: 4,000 lost; B has no checkpoints:
 * 10,000 samples. */
START_TEST(test_replay_features)
{
    const char *dir = fresh_dir("features");
    char *path = join(dir, "out.h5"), *s;
    static const char *const names[] = {
        "index",           "name",           "tsub",
        "admitted",        "first_start",    "finished",
        "samples",         "node_seconds",   "paused_s",
        "lost_rescale",    "lost_preempt",   "rescales",
        "preemptions",     "starts",         "ckpt_lost_samples",
        "ckpt_pause_cost", "ckpt_writes",    "ckpt_restarts",
        "model",           "feature:samples"};
    struct fjob {
        char name[8];
        double samples, lost, pause;
        int64_t writes, restarts;
        char model[32], fsamples[32];
    } * r;
    struct h5out *h;
    struct rec_sink sink, *sinks[] = {&sink};
    struct replay_opts o;
    struct replay_stats st;
    struct bfs_error e;
    hid_t f, d, t, ft, s32 = H5Tcopy(H5T_C_S1), s8 = H5Tcopy(H5T_C_S1);
    hsize_t n;

    bfs_error_clear(&e);
    replay_opts_default(&o);
    o.alloc.name = "even";
    o.trace_path =
        tu_write("features.trace", "bfsim-trace 1\nnode n0\nnode n1\n"
                                   "1612988400 +0 +1\n1612989400 -0 -1\n");
    o.jobs_path =
        tu_write("features.jobs",
                 "# bfsim-jobs 1\n"
                 "job,tsub,jmin,jmax,pmax,tcup,tcdw,curve,model,ckpt_interval,"
                 "ckpt_write,ckpt_restart,samples\n"
                 "A,1612988400,1,1,1e6,4,2,0:0:0 1:10:1,resnet-50,600,0,0,\n"
                 "B,1612988400,1,1,1e6,4,2,0:0:0 1:10:1,bert,,,,1200000\n");
    ck_assert_msg(h5out_open(path, &h, &e) == 0, "%s", e.msg);
    h5out_sink(h, &sink);
    o.sinks = sinks;
    o.n_sinks = 1;
    ck_assert_msg(tu_replay(&o, NULL, &st, &e) == 0, "%s", e.msg);

    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    ck_assert_int_ge(f, 0);
    check_layout(f, "jobs", names, (int)N(names));
    d = H5Dopen2(f, "jobs", H5P_DEFAULT);
    s = read_str_attr(d, "columns");
    ck_assert_ptr_nonnull(strstr(s, "ckpt_writes"));
    ck_assert_ptr_nonnull(strstr(s, "feature:NAME"));
    xfree(s);
    /* each feature sized to its longest value: "resnet-50", "1200000" */
    ft = H5Dget_type(d);
    for (int k = 0; k < 2; k++) {
        hid_t m = H5Tget_member_type(ft, (unsigned)(18 + k));
        ck_assert_int_eq(H5Tget_class(m), H5T_STRING);
        ck_assert_int_eq(H5Tis_variable_str(m), 0);
        ck_assert_int_eq(H5Tget_cset(m), H5T_CSET_UTF8);
        ck_assert_uint_eq(H5Tget_size(m), k == 0 ? 9 : 7);
        H5Tclose(m);
    }
    H5Tclose(ft);
    H5Dclose(d);

    H5Tset_size(s32, 32);
    H5Tset_size(s8, 8);
    H5Tset_cset(s32, H5T_CSET_UTF8);
    H5Tset_cset(s8, H5T_CSET_UTF8);
    t = H5Tcreate(H5T_COMPOUND, sizeof *r);
    H5Tinsert(t, "name", offsetof(struct fjob, name), s8);
    H5Tinsert(t, "samples", offsetof(struct fjob, samples), H5T_NATIVE_DOUBLE);
    H5Tinsert(t, "ckpt_lost_samples", offsetof(struct fjob, lost),
              H5T_NATIVE_DOUBLE);
    H5Tinsert(t, "ckpt_pause_cost", offsetof(struct fjob, pause),
              H5T_NATIVE_DOUBLE);
    H5Tinsert(t, "ckpt_writes", offsetof(struct fjob, writes),
              H5T_NATIVE_INT64);
    H5Tinsert(t, "ckpt_restarts", offsetof(struct fjob, restarts),
              H5T_NATIVE_INT64);
    H5Tinsert(t, "model", offsetof(struct fjob, model), s32);
    H5Tinsert(t, "feature:samples", offsetof(struct fjob, fsamples), s32);
    r = read_table(f, "jobs", t, &n);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(r[0].name, "A");
    ck_assert_double_eq(r[0].samples, 6000.0);
    ck_assert_double_eq(r[0].lost, 4000.0);
    ck_assert_double_eq(r[0].pause, 0.0);
    ck_assert_int_eq(r[0].writes, 1);
    ck_assert_int_eq(r[0].restarts, 0);
    ck_assert_str_eq(r[0].model, "resnet-50");
    ck_assert_str_eq(r[0].fsamples, "");
    ck_assert_str_eq(r[1].name, "B");
    ck_assert_double_eq(r[1].samples, 10000.0);
    ck_assert_double_eq(r[1].lost, 0.0);
    ck_assert_int_eq(r[1].writes, 0);
    ck_assert_str_eq(r[1].model, "bert");
    ck_assert_str_eq(r[1].fsamples, "1200000");
    xfree(r);
    H5Tclose(t);
    H5Tclose(s8);
    H5Tclose(s32);
    H5Fclose(f);
    xfree(path);
}
END_TEST

static Suite *h5out_suite(void)
{
    Suite *s = suite_create("h5out");
    TCase *tc = tcase_create("core");
    TCase *py = tcase_create("python");

    tcase_add_test(tc, test_roundtrip);
    tcase_add_test(tc, test_many_rows);
    tcase_add_test(tc, test_empty);
    tcase_add_test(tc, test_abort);
    tcase_add_test(tc, test_error_sticks);
    tcase_add_test(tc, test_hdf5_error);
    tcase_add_test(tc, test_unwritable);
    tcase_add_test(tc, test_sinks_two_phases);
    tcase_add_test(tc, test_sinks_one_fails);
    tcase_add_test(tc, test_replay_features);
    suite_add_tcase(s, tc);
    /* Starting Python and importing pandas takes a few seconds. */
    tcase_set_timeout(py, 60);
    tcase_add_test(py, test_python_example);
    suite_add_tcase(s, py);
    return s;
}

int main(void)
{
    return tu_run(h5out_suite());
}
