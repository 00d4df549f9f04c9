/* h5out.c - the HDF5 sink of a replay.
 *
 * Design: each row table is an HDF5 packet table (H5PT: a chunked,
 * extendible dataset of one compound type, here with shuffle + deflate)
 * fed from a buffer of H5OUT_CHUNK rows, so that HDF5 is called once per
 * chunk.  Measured (CPU time, 200,000 rows, Debian's HDF5 1.10.8): one
 * H5PTappend per row costs 3.5-5 us, H5Dset_extent + H5Dwrite per row
 * 3 us, a buffered chunk 0.1-0.6 us per row depending on the table, almost
 * all of it deflate.  Chunks of 1024 rows cost 1.5 us per row: zlib's and
 * HDF5's per-chunk buffers (~0.3 MB) went back to the system and were
 * faulted in again for every chunk; 4096 rows amortise that and compress
 * better (events: 104 bytes per row, 426 kB chunks, within HDF5's 1 MB
 * chunk cache).
 *
 * The in-memory rows are structs of 8-byte fields (two 4-byte fields side
 * by side in a solve row), so the compound type has no padding and is
 * both the memory and the file type.  /jobs is written once by
 * h5out_close, because its name field is a fixed-length string sized to
 * the longest name, known only at the end; rows are packed by hand at
 * offsets computed from that size.  The job set's features are fields
 * of /jobs sized the same way, and its checkpoint fields follow the
 * others only when it has checkpoints: a replay without them writes the
 * same /jobs as before they existed.
 *
 * /node_holdings and /node_idle get their rows from formats/holdings.c
 * (the node holdings and idle intervals of the node maps the replay hands
 * to the sink), buffered like the other tables; holdings still open are closed
 * by h5out_close.
 *
 * Invariants: h->err holds the first failure and every entry point
 * returns its code once it is set; nothing exists at h->path until the
 * final rename; the temporary file is removed on every failure path.
 * The versioned HDF5 names (H5Dcreate2, ...) are used throughout because
 * Debian maps the unversioned ones to the 1.8 API.
 */
#include "config.h"

#include "formats/h5out.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hdf5.h>
#include <hdf5_hl.h>

#include "base/out.h"
#include "base/status.h"
#include "base/util.h"
#include "formats/holdings.h"

/* Rows per chunk and per write. */
#define H5OUT_CHUNK 4096
#define H5OUT_DEFLATE 4
#define H5OUT_TIME_UNITS "seconds since 1970-01-01 00:00:00 UTC"

struct ev_rec {
    int64_t evt, time;
    double thr, rate, rescost, precost;
    int64_t nleft, npre, njoin, njob, npool, njrun, nnrun;
};

struct so_rec {
    int64_t evt, time;
    int32_t status; /* enum solve_status, as the HDF5 enum "status" */
    int32_t pool;
    int64_t n_jobs;
    double objective, bound;
    int64_t rows, cols, nnz;
    double build_s, solve_s, cpu_s, ipc_s;
    int64_t mip_solves, nodes, iterations;
    double root_bound;
    int64_t root_cuts;
};

struct al_rec {
    int64_t evt, time, job, count;
};

struct nh_rec {
    int64_t node, job, start, end;
};

struct ni_rec {
    int64_t node, start, end;
};

struct ts_rec {
    int64_t evt, time, type, idle, used;
};

_Static_assert(sizeof(struct ev_rec) == 13 * 8, "padding in ev_rec");
_Static_assert(sizeof(struct so_rec) == 18 * 8, "padding in so_rec");
_Static_assert(sizeof(struct al_rec) == 4 * 8, "padding in al_rec");
_Static_assert(sizeof(struct nh_rec) == 4 * 8, "padding in nh_rec");
_Static_assert(sizeof(struct ni_rec) == 3 * 8, "padding in ni_rec");
_Static_assert(sizeof(struct ts_rec) == 5 * 8, "padding in ts_rec");

/* A field of a compound type: 'i' int64, 'n' int32, 'd' double, 'e' the
 * solve status enum. */
struct field {
    const char *name;
    size_t off;
    char kind;
};

#define F(rec, name, kind)                                                     \
    {                                                                          \
#name, offsetof(struct rec, name), kind                                \
    }

static const struct field ev_fields[] = {
    F(ev_rec, evt, 'i'),   F(ev_rec, time, 'i'),    F(ev_rec, thr, 'd'),
    F(ev_rec, rate, 'd'),  F(ev_rec, rescost, 'd'), F(ev_rec, precost, 'd'),
    F(ev_rec, nleft, 'i'), F(ev_rec, npre, 'i'),    F(ev_rec, njoin, 'i'),
    F(ev_rec, njob, 'i'),  F(ev_rec, npool, 'i'),   F(ev_rec, njrun, 'i'),
    F(ev_rec, nnrun, 'i'),
};

static const struct field so_fields[] = {
    F(so_rec, evt, 'i'),        F(so_rec, time, 'i'),
    F(so_rec, status, 'e'),     F(so_rec, pool, 'n'),
    F(so_rec, n_jobs, 'i'),     F(so_rec, objective, 'd'),
    F(so_rec, bound, 'd'),      F(so_rec, rows, 'i'),
    F(so_rec, cols, 'i'),       F(so_rec, nnz, 'i'),
    F(so_rec, build_s, 'd'),    F(so_rec, solve_s, 'd'),
    F(so_rec, cpu_s, 'd'),      F(so_rec, ipc_s, 'd'),
    F(so_rec, mip_solves, 'i'), F(so_rec, nodes, 'i'),
    F(so_rec, iterations, 'i'), F(so_rec, root_bound, 'd'),
    F(so_rec, root_cuts, 'i'),
};

static const struct field al_fields[] = {
    F(al_rec, evt, 'i'),
    F(al_rec, time, 'i'),
    F(al_rec, job, 'i'),
    F(al_rec, count, 'i'),
};

static const struct field nh_fields[] = {
    F(nh_rec, node, 'i'),
    F(nh_rec, job, 'i'),
    F(nh_rec, start, 'i'),
    F(nh_rec, end, 'i'),
};

static const struct field ts_fields[] = {
    F(ts_rec, evt, 'i'),  F(ts_rec, time, 'i'), F(ts_rec, type, 'i'),
    F(ts_rec, idle, 'i'), F(ts_rec, used, 'i'),
};

static const struct field ni_fields[] = {
    F(ni_rec, node, 'i'),
    F(ni_rec, start, 'i'),
    F(ni_rec, end, 'i'),
};

#undef F

/* /jobs after the name field, in order, each 8 bytes ('i' or 'd'). */
static const struct field job_tail[] = {
    {"tsub", 0, 'i'},     {"admitted", 0, 'i'},     {"first_start", 0, 'i'},
    {"finished", 0, 'i'}, {"samples", 0, 'd'},      {"node_seconds", 0, 'd'},
    {"paused_s", 0, 'd'}, {"lost_rescale", 0, 'd'}, {"lost_preempt", 0, 'd'},
    {"rescales", 0, 'i'}, {"preemptions", 0, 'i'},  {"starts", 0, 'i'},
};
#define N_JOB_TAIL (sizeof job_tail / sizeof job_tail[0])

/* /jobs after the tail when some job has checkpoints, each 8 bytes. */
static const struct field job_ckpt[] = {
    {"ckpt_lost_samples", 0, 'd'},
    {"ckpt_pause_cost", 0, 'd'},
    {"ckpt_writes", 0, 'i'},
    {"ckpt_restarts", 0, 'i'},
};
#define N_JOB_CKPT (sizeof job_ckpt / sizeof job_ckpt[0])

static const char ev_columns[] =
    "evt: event number, from 1\n"
    "time: Unix seconds (UTC)\n"
    "thr: samples trained in the interval before the event\n"
    "rate: sum of the jobs' rates after the decision, samples/s\n"
    "rescost: samples lost to the rescaling decided at the event\n"
    "precost: samples lost to preemption at the event\n"
    "nleft: nodes that left the pool\n"
    "npre: jobs preempted\n"
    "njoin: nodes that joined the pool\n"
    "njob: jobs admitted\n"
    "npool: pool size, nodes\n"
    "njrun: jobs holding nodes\n"
    "nnrun: nodes in use\n";

static const char so_columns[] =
    "evt, time: the event (Unix seconds, UTC)\n"
    "status: HDF5 enum optimal, feasible (limit hit, incumbent kept), "
    "infeasible, no-solution (limit hit, no incumbent), failed\n"
    "pool: nodes in the pool\n"
    "n_jobs: jobs in the problem\n"
    "objective: objective of the returned counts\n"
    "bound: best bound\n"
    "rows, cols, nnz: model size (0 for methods without a model)\n"
    "build_s, solve_s: wall seconds spent building and solving, as "
    "measured where the solver runs (an isolated solver's child)\n"
    "cpu_s: the solver's CPU seconds; ipc_s: the isolation's overhead, "
    "wall seconds (0 in process)\n"
    "mip_solves: MILPs solved (0 for methods without a model)\n"
    "nodes, iterations: branch-and-bound nodes after the root and simplex "
    "iterations, summed over the MILPs; -1 when the solver does not report "
    "them\n"
    "root_bound, root_cuts: the first MILP's root relaxation bound after "
    "its cuts (NaN when unknown: CBC) and its cuts (-1 when unknown)\n";

static const char al_columns[] =
    "evt, time: the event (Unix seconds, UTC) from which the job holds "
    "count nodes\n"
    "job: index in the job set (0-based; the row of /jobs)\n"
    "count: nodes held\n"
    "A job's count holds until its next row; a job with no row yet holds "
    "0.\n";

static const char nh_columns[] =
    "node: the node's position in the replayed subset (0-based, trace "
    "order)\n"
    "job: index in the job set (0-based; the row of /jobs)\n"
    "start, end: times, Unix seconds (UTC); the job held the node over [start, "
    "end), without a break\n"
    "Rows are in order of end, then node.  A holding still open at the "
    "replay's end ends at its last event.  Per job, the sum of end - start "
    "is node_seconds of /jobs.\n";

static const char ni_columns[] =
    "node: the node's position in the replayed subset (0-based, trace "
    "order)\n"
    "start, end: times, Unix seconds (UTC); the node was idle in the trace "
    "(in the pool, whether a job held it or not) over [start, end)\n"
    "Rows are in order of end, then node.  An interval still open at the "
    "replay's end ends at its last event.  The sum of end - start is "
    "idle_node_seconds of /summary.\n";

static const char ts_columns[] =
    "evt, time: the event, as in /events (only on a trace with node "
    "types)\n"
    "type: the node type, an index into the root attribute node_types\n"
    "idle: the pool's nodes of the type after the event\n"
    "used: those held by jobs after the event's decision\n"
    "One row per event and type, in that order.\n";

static const char job_columns[] =
    "index: in the job set, 0-based\n"
    "name: UTF-8, fixed length, NUL-padded\n"
    "tsub, admitted, first_start, finished: Unix seconds (UTC), -1 if it "
    "never happened\n"
    "samples: samples done\n"
    "node_seconds: nodes held, integrated over time\n"
    "paused_s: seconds paused\n"
    "lost_rescale, lost_preempt: samples lost to rescaling and preemption\n"
    "rescales: changes of the job's count while it was running (C >= "
    "Jmin)\n"
    "preemptions: events at which it lost nodes to the trace\n"
    "starts: changes from below Jmin to a running count\n";

static const char job_ckpt_columns[] =
    "ckpt_lost_samples: samples lost to the job's restarts from a "
    "checkpoint\n"
    "ckpt_pause_cost: samples lost in its checkpoint write and restart "
    "pauses\n"
    "ckpt_writes, ckpt_restarts: checkpoints written (their write begun), "
    "restarts from one\n";

static const char job_feature_columns[] =
    "then one field per feature column of the job file, in its order, named "
    "as the feature (feature:NAME when NAME is a field above): UTF-8, fixed "
    "length, NUL-padded, empty for a blank value\n";

/* A buffered packet table. */
struct tab {
    hid_t pt;           /* packet table, or H5I_INVALID_HID */
    size_t rec;         /* bytes per row */
    unsigned char *buf; /* owned; H5OUT_CHUNK rows */
    size_t n;           /* rows in buf */
};

struct jobrow {
    struct rec_job j; /* j.name points to name; j.features and
                         j.feature_names are NULL */
    char *name;       /* owned */
    char **features;  /* owned: h->n_features values, each owned or NULL
                         (blank); NULL when there are none */
};

struct h5out {
    char *path;         /* owned */
    struct bfs_out out; /* the temporary file (base/out.h, BFS_OUT_PATH) */
    hid_t file, summary;
    hid_t str_t;    /* variable-length UTF-8 string */
    hid_t status_t; /* enum of the solve statuses */
    hid_t ev_t, so_t, al_t, nh_t, ni_t, ts_t;
    struct tab ev, so, al, nh, ni, ts; /* ts: /type_steps, made at the
                                          first step with node types */
    int types_done;                    /* /node_types written */
    struct holdings *hold;             /* owned: finds the node holdings */
    struct jobrow *jobs;               /* owned */
    size_t n_jobs, cap_jobs;
    /* The job set's features and whether it has checkpoints, from the
     * first job: /jobs's fields after the tail. */
    size_t n_features;
    char **feature_names; /* owned, each owned */
    int ckpt;
    struct bfs_error err;
    int closed; /* h5out_close has run: only commit or abort remain */
};

/* ---- errors ------------------------------------------------------------ */

static herr_t walk_first(unsigned n, const H5E_error2_t *d, void *arg)
{
    char *buf = arg;

    /* Walking upward, entry 0 is the most specific error. */
    if (n == 0 && d->desc)
        snprintf(buf, 256, "%s", d->desc);
    return 0;
}

/* Records "PATH: what: HDF5's innermost message" as h's error. */
static int h5fail(struct h5out *h, const char *what)
{
    char detail[256] = "";

    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, walk_first, detail);
    H5Eclear2(H5E_DEFAULT);
    return bfs_fail_at(&h->err, BFS_EIO, h->path, 0, "%s%s%s", what,
                       detail[0] ? ": " : "", detail);
}

/* ---- types and attributes ---------------------------------------------- */

static hid_t field_type(const struct h5out *h, char kind)
{
    switch (kind) {
    case 'i':
        return H5T_NATIVE_INT64;
    case 'n':
        return H5T_NATIVE_INT32;
    case 'e':
        return h->status_t;
    default:
        return H5T_NATIVE_DOUBLE;
    }
}

/* A compound type of size bytes with fields f[0..n-1]; < 0 on failure. */
static hid_t make_compound(const struct h5out *h, size_t size,
                           const struct field *f, size_t n)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, size);

    if (t < 0)
        return t;
    for (size_t i = 0; i < n; i++)
        if (H5Tinsert(t, f[i].name, f[i].off, field_type(h, f[i].kind)) < 0) {
            H5Tclose(t);
            return H5I_INVALID_HID;
        }
    return t;
}

static hid_t make_status_enum(void)
{
    hid_t t = H5Tenum_create(H5T_NATIVE_INT32);
    int32_t v;

    if (t < 0)
        return t;
#define STATUS_INSERT(name, text)                                              \
    v = SOLVE_##name;                                                          \
    if (H5Tenum_insert(t, text, &v) < 0) {                                     \
        H5Tclose(t);                                                           \
        return H5I_INVALID_HID;                                                \
    }
    SOLVE_STATUSES(STATUS_INSERT)
#undef STATUS_INSERT
    return t;
}

/* Writes the scalar attribute key of loc (replacing one of that name). */
static int put_attr(struct h5out *h, hid_t loc, const char *key, hid_t ftype,
                    hid_t mtype, const void *val)
{
    char what[320];
    hid_t sp, a;
    htri_t ex;

    if (h->err.code)
        return h->err.code;
    if (!key || !*key)
        return bfs_fail_at(&h->err, BFS_EINVAL, h->path, 0,
                           "empty attribute name");
    snprintf(what, sizeof what, "cannot write attribute %.256s%s", key,
             strlen(key) > 256 ? "..." : "");
    ex = H5Aexists(loc, key);
    if (ex < 0 || (ex > 0 && H5Adelete(loc, key) < 0))
        return h5fail(h, what);
    if ((sp = H5Screate(H5S_SCALAR)) < 0)
        return h5fail(h, what);
    /* h5fail before the closes: every HDF5 call clears the error stack. */
    a = H5Acreate2(loc, key, ftype, sp, H5P_DEFAULT, H5P_DEFAULT);
    if (a < 0 || H5Awrite(a, mtype, val) < 0)
        h5fail(h, what);
    if (a >= 0 && H5Aclose(a) < 0)
        h5fail(h, what);
    H5Sclose(sp);
    return h->err.code;
}

static int put_str(struct h5out *h, hid_t loc, const char *key,
                   const char *value)
{
    if (!value)
        value = "";
    return put_attr(h, loc, key, h->str_t, h->str_t, &value);
}

/* The "columns" and "time_units" attributes of the dataset name. */
static int describe(struct h5out *h, const char *name, const char *columns)
{
    hid_t d = H5Dopen2(h->file, name, H5P_DEFAULT);
    int rc;

    if (d < 0)
        return h5fail(h, "cannot open a table");
    rc = put_str(h, d, "columns", columns);
    if (rc == 0)
        rc = put_str(h, d, "time_units", H5OUT_TIME_UNITS);
    if (H5Dclose(d) < 0 && rc == 0)
        rc = h5fail(h, "cannot close a table");
    return rc;
}

/* Dataset creation properties: shuffle + deflate, chunks of chunk rows. */
static hid_t make_dcpl(hsize_t chunk)
{
    hid_t p = H5Pcreate(H5P_DATASET_CREATE);

    if (p < 0)
        return p;
    if (H5Pset_chunk(p, 1, &chunk) < 0 || H5Pset_shuffle(p) < 0 ||
        H5Pset_deflate(p, H5OUT_DEFLATE) < 0) {
        H5Pclose(p);
        return H5I_INVALID_HID;
    }
    return p;
}

/* ---- tables ------------------------------------------------------------- */

static int tab_create(struct h5out *h, struct tab *t, const char *name,
                      hid_t type, size_t rec, const char *columns)
{
    hid_t dcpl = make_dcpl(H5OUT_CHUNK);

    if (dcpl < 0)
        return h5fail(h, "cannot set up a table");
    t->pt = H5PTcreate(h->file, name, type, H5OUT_CHUNK, dcpl);
    if (t->pt < 0) {
        char what[64];
        snprintf(what, sizeof what, "cannot create table %s", name);
        h5fail(h, what);
    }
    H5Pclose(dcpl);
    if (t->pt < 0)
        return h->err.code;
    t->rec = rec;
    t->buf = xmalloc(H5OUT_CHUNK * rec);
    t->n = 0;
    return describe(h, name, columns);
}

static int tab_flush(struct h5out *h, struct tab *t)
{
    if (t->n > 0 && H5PTappend(t->pt, t->n, t->buf) < 0)
        return h5fail(h, "cannot write");
    t->n = 0;
    return 0;
}

static int tab_put(struct h5out *h, struct tab *t, const void *row)
{
    if (h->err.code)
        return h->err.code;
    memcpy(t->buf + t->n * t->rec, row, t->rec);
    return ++t->n == H5OUT_CHUNK ? tab_flush(h, t) : 0;
}

/* Closes t; returns 0 or the error (recorded in h unless quiet). */
static int tab_close(struct h5out *h, struct tab *t, int quiet)
{
    int rc = 0;

    if (t->pt >= 0 && H5PTclose(t->pt) < 0 && !quiet)
        rc = h5fail(h, "cannot close a table");
    t->pt = H5I_INVALID_HID;
    xfree(t->buf);
    t->buf = NULL;
    return rc;
}

/* A fixed-length, NUL-padded UTF-8 string type of len bytes; < 0 on
 * failure. */
static hid_t fixed_str(size_t len)
{
    hid_t st = H5Tcopy(H5T_C_S1);

    if (st >= 0 &&
        (H5Tset_size(st, len) < 0 || H5Tset_strpad(st, H5T_STR_NULLPAD) < 0 ||
         H5Tset_cset(st, H5T_CSET_UTF8) < 0)) {
        H5Tclose(st);
        return H5I_INVALID_HID;
    }
    return st;
}

/* Whether name is a field of /jobs before the features. */
static int job_field_taken(const char *name)
{
    if (strcmp(name, "index") == 0 || strcmp(name, "name") == 0)
        return 1;
    for (size_t k = 0; k < N_JOB_TAIL; k++)
        if (strcmp(name, job_tail[k].name) == 0)
            return 1;
    for (size_t k = 0; k < N_JOB_CKPT; k++)
        if (strcmp(name, job_ckpt[k].name) == 0)
            return 1;
    return 0;
}

/* Inserts /jobs's fields after the name into t from offset off: the
 * tail, the checkpoint fields when h->ckpt, and feature k as a string
 * of flen[k] bytes.  Returns 0 or < 0. */
static int insert_job_fields(const struct h5out *h, hid_t t, size_t off,
                             const size_t *flen)
{
    int rc = 0;

    for (size_t k = 0; k < N_JOB_TAIL && rc == 0; k++, off += 8)
        rc = H5Tinsert(t, job_tail[k].name, off,
                       field_type(h, job_tail[k].kind)) < 0
                 ? -1
                 : 0;
    for (size_t k = 0; h->ckpt && k < N_JOB_CKPT && rc == 0; k++, off += 8)
        rc = H5Tinsert(t, job_ckpt[k].name, off,
                       field_type(h, job_ckpt[k].kind)) < 0
                 ? -1
                 : 0;
    for (size_t k = 0; k < h->n_features && rc == 0; off += flen[k++]) {
        const char *f = h->feature_names[k];
        char *name =
            job_field_taken(f) ? xasprintf("feature:%s", f) : xstrdup(f);
        hid_t st = fixed_str(flen[k]);
        if (st < 0 || H5Tinsert(t, name, off, st) < 0)
            rc = -1;
        if (st >= 0)
            H5Tclose(st);
        xfree(name);
    }
    return rc;
}

/* Packs row r of /jobs at p, its name field len bytes and feature k's
 * flen[k]; p is zeroed. */
static void pack_job(const struct h5out *h, const struct jobrow *r,
                     unsigned char *p, size_t len, const size_t *flen)
{
    const struct rec_job *j = &r->j;
    int64_t iv[] = {(int64_t)j->index, j->tsub, j->admitted, j->first_start,
                    j->finished};
    double dv[] = {j->samples, j->node_seconds, j->paused_s, j->lost_rescale,
                   j->lost_preempt};
    int64_t cv[] = {(int64_t)j->rescales, (int64_t)j->preemptions,
                    (int64_t)j->starts};

    memcpy(p, &iv[0], 8);
    memcpy(p + 8, r->name, strlen(r->name));
    p += 8 + len;
    memcpy(p, &iv[1], 4 * 8);
    memcpy(p + 4 * 8, dv, 5 * 8);
    memcpy(p + 9 * 8, cv, 3 * 8);
    p += 8 * N_JOB_TAIL;
    if (h->ckpt) {
        double kd[] = {j->ckpt_lost_samples, j->ckpt_pause_cost};
        int64_t ki[] = {(int64_t)j->ckpt_writes, (int64_t)j->ckpt_restarts};
        memcpy(p, kd, 2 * 8);
        memcpy(p + 2 * 8, ki, 2 * 8);
        p += 8 * N_JOB_CKPT;
    }
    for (size_t k = 0; k < h->n_features; p += flen[k++])
        if (r->features && r->features[k])
            memcpy(p, r->features[k], strlen(r->features[k]));
}

/* Writes /jobs from h->jobs. */
static int write_jobs(struct h5out *h)
{
    size_t len = 1, rec;
    size_t *flen = xcalloc(h->n_features ? h->n_features : 1, sizeof *flen);
    hsize_t n = h->n_jobs, maxn = H5S_UNLIMITED;
    hid_t st = H5I_INVALID_HID, t = H5I_INVALID_HID, sp = H5I_INVALID_HID;
    hid_t dcpl = H5I_INVALID_HID, d = H5I_INVALID_HID;
    unsigned char *buf = NULL;
    char *columns = NULL;
    int rc = 0;

    for (size_t i = 0; i < h->n_jobs; i++) {
        size_t l = strlen(h->jobs[i].name);
        len = l > len ? l : len;
    }
    rec = 8 + len + 8 * N_JOB_TAIL + (h->ckpt ? 8 * N_JOB_CKPT : 0);
    for (size_t k = 0; k < h->n_features; k++) {
        flen[k] = 1;
        for (size_t i = 0; i < h->n_jobs; i++) {
            const char *v = h->jobs[i].features ? h->jobs[i].features[k] : NULL;
            if (v && strlen(v) > flen[k])
                flen[k] = strlen(v);
        }
        rec += flen[k];
    }
    if ((st = fixed_str(len)) < 0 || (t = H5Tcreate(H5T_COMPOUND, rec)) < 0 ||
        H5Tinsert(t, "index", 0, H5T_NATIVE_INT64) < 0 ||
        H5Tinsert(t, "name", 8, st) < 0 ||
        insert_job_fields(h, t, 8 + len, flen) < 0) {
        rc = h5fail(h, "cannot set up table jobs");
        goto out;
    }

    buf = xcalloc(h->n_jobs ? h->n_jobs : 1, rec);
    for (size_t i = 0; i < h->n_jobs; i++)
        pack_job(h, &h->jobs[i], buf + i * rec, len, flen);

    if ((sp = H5Screate_simple(1, &n, &maxn)) < 0 ||
        (dcpl = make_dcpl(n == 0            ? 1
                          : n < H5OUT_CHUNK ? n
                                            : H5OUT_CHUNK)) < 0 ||
        (d = H5Dcreate2(h->file, "jobs", t, sp, H5P_DEFAULT, dcpl,
                        H5P_DEFAULT)) < 0 ||
        (n > 0 && H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)) {
        rc = h5fail(h, "cannot write table jobs");
        goto out;
    }
    columns = xasprintf("%s%s%s", job_columns, h->ckpt ? job_ckpt_columns : "",
                        h->n_features ? job_feature_columns : "");
    rc = put_str(h, d, "columns", columns);
    if (rc == 0)
        rc = put_str(h, d, "time_units", H5OUT_TIME_UNITS);
out:
    if (d >= 0 && H5Dclose(d) < 0 && rc == 0)
        rc = h5fail(h, "cannot write table jobs");
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (sp >= 0)
        H5Sclose(sp);
    xfree(columns);
    xfree(buf);
    xfree(flen);
    if (t >= 0)
        H5Tclose(t);
    if (st >= 0)
        H5Tclose(st);
    return rc;
}

/* ---- life cycle ---------------------------------------------------------- */

/* Closes everything still open (errors recorded in h unless quiet),
 * removes the temporary file if remove, frees h.  Returns the first
 * error of the closes. */
static int release(struct h5out *h, int quiet)
{
    int rc = 0, r;
    hid_t *types[] = {&h->ev_t, &h->so_t, &h->al_t,     &h->nh_t,
                      &h->ni_t, &h->ts_t, &h->status_t, &h->str_t};

    if ((r = tab_close(h, &h->ev, quiet)) != 0 && rc == 0)
        rc = r;
    if ((r = tab_close(h, &h->so, quiet)) != 0 && rc == 0)
        rc = r;
    if ((r = tab_close(h, &h->al, quiet)) != 0 && rc == 0)
        rc = r;
    if ((r = tab_close(h, &h->nh, quiet)) != 0 && rc == 0)
        rc = r;
    if ((r = tab_close(h, &h->ni, quiet)) != 0 && rc == 0)
        rc = r;
    if ((r = tab_close(h, &h->ts, quiet)) != 0 && rc == 0)
        rc = r;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        if (*types[i] >= 0)
            H5Tclose(*types[i]);
        *types[i] = H5I_INVALID_HID;
    }
    if (h->summary >= 0 && H5Gclose(h->summary) < 0 && !quiet && rc == 0)
        rc = h5fail(h, "cannot close group summary");
    h->summary = H5I_INVALID_HID;
    if (h->file >= 0 && H5Fclose(h->file) < 0 && !quiet && rc == 0)
        rc = h5fail(h, "cannot close");
    h->file = H5I_INVALID_HID;
    return rc;
}

static void destroy(struct h5out *h)
{
    for (size_t i = 0; i < h->n_jobs; i++) {
        xfree(h->jobs[i].name);
        for (size_t k = 0; h->jobs[i].features && k < h->n_features; k++)
            xfree(h->jobs[i].features[k]);
        xfree(h->jobs[i].features);
    }
    xfree(h->jobs);
    for (size_t k = 0; k < h->n_features; k++)
        xfree(h->feature_names[k]);
    xfree(h->feature_names);
    holdings_free(h->hold);
    xfree(h->path);
    xfree(h);
}

int h5out_open(const char *path, struct h5out **out, struct bfs_error *e)
{
    struct h5out *h;
    hid_t fapl;
    int rc;

    if (!path || !*path || strcmp(path, "-") == 0)
        return bfs_fail(e, BFS_EINVAL,
                        "an HDF5 output needs a file name (not \"%s\")",
                        path ? path : "");
    h = xcalloc(1, sizeof *h);
    h->file = h->summary = h->str_t = h->status_t = H5I_INVALID_HID;
    h->ev_t = h->so_t = h->al_t = h->nh_t = h->ni_t = H5I_INVALID_HID;
    h->ts_t = H5I_INVALID_HID;
    h->ev.pt = h->so.pt = h->al.pt = h->nh.pt = h->ni.pt = H5I_INVALID_HID;
    h->ts.pt = H5I_INVALID_HID;
    h->path = xstrdup(path);
    if ((rc = bfs_out_open_mode(&h->out, path, BFS_OUT_PATH, e)) != 0) {
        destroy(h);
        return rc;
    }

    /* No library shutdown at exit: after a failed write (a full disk) the
     * file cannot be closed, and HDF5 1.10's shutdown then crashes trying
     * again (tests/check_faults.c).  A no-op once the library is up. */
    H5dont_atexit();
    /* Failures become messages naming the file, not a printed stack. */
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if ((fapl = H5Pcreate(H5P_FILE_ACCESS)) < 0 ||
        H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0 ||
        (h->file = H5Fcreate(h->out.tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl)) <
            0) {
        h5fail(h, "cannot create");
        if (fapl >= 0)
            H5Pclose(fapl);
        goto fail;
    }
    H5Pclose(fapl);

    h->str_t = H5Tcopy(H5T_C_S1);
    if (h->str_t < 0 || H5Tset_size(h->str_t, H5T_VARIABLE) < 0 ||
        H5Tset_cset(h->str_t, H5T_CSET_UTF8) < 0 ||
        (h->status_t = make_status_enum()) < 0 ||
        (h->ev_t = make_compound(h, sizeof(struct ev_rec), ev_fields,
                                 sizeof ev_fields / sizeof ev_fields[0])) < 0 ||
        (h->so_t = make_compound(h, sizeof(struct so_rec), so_fields,
                                 sizeof so_fields / sizeof so_fields[0])) < 0 ||
        (h->al_t = make_compound(h, sizeof(struct al_rec), al_fields,
                                 sizeof al_fields / sizeof al_fields[0])) < 0 ||
        (h->nh_t = make_compound(h, sizeof(struct nh_rec), nh_fields,
                                 sizeof nh_fields / sizeof nh_fields[0])) < 0 ||
        (h->ni_t = make_compound(h, sizeof(struct ni_rec), ni_fields,
                                 sizeof ni_fields / sizeof ni_fields[0])) < 0 ||
        (h->ts_t = make_compound(h, sizeof(struct ts_rec), ts_fields,
                                 sizeof ts_fields / sizeof ts_fields[0])) < 0) {
        h5fail(h, "cannot set up the types");
        goto fail;
    }
    if (tab_create(h, &h->ev, "events", h->ev_t, sizeof(struct ev_rec),
                   ev_columns) != 0 ||
        tab_create(h, &h->so, "solves", h->so_t, sizeof(struct so_rec),
                   so_columns) != 0 ||
        tab_create(h, &h->al, "allocations", h->al_t, sizeof(struct al_rec),
                   al_columns) != 0 ||
        tab_create(h, &h->nh, "node_holdings", h->nh_t, sizeof(struct nh_rec),
                   nh_columns) != 0 ||
        tab_create(h, &h->ni, "node_idle", h->ni_t, sizeof(struct ni_rec),
                   ni_columns) != 0)
        goto fail;
    h->summary =
        H5Gcreate2(h->file, "summary", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (h->summary < 0) {
        h5fail(h, "cannot create group summary");
        goto fail;
    }
    if (put_str(h, h->file, "format", "bfsim replay 1") != 0)
        goto fail;
    *out = h;
    return 0;

fail:
    rc = bfs_fail(e, h->err.code, "%s", h->err.msg);
    release(h, 1);
    bfs_out_abort(&h->out);
    destroy(h);
    return rc;
}

int h5out_step(struct h5out *h, const struct rec_step *s)
{
    struct ev_rec r = {
        .evt = (int64_t)s->evt,
        .time = s->time,
        .thr = s->thr,
        .rate = s->rate,
        .rescost = s->rescost,
        .precost = s->precost,
        .nleft = (int64_t)s->nleft,
        .npre = (int64_t)s->npre,
        .njoin = (int64_t)s->njoin,
        .njob = (int64_t)s->njob,
        .npool = (int64_t)s->npool,
        .njrun = (int64_t)s->njrun,
        .nnrun = (int64_t)s->nnrun,
    };
    int rc = tab_put(h, &h->ev, &r);

    if (rc == 0 && s->n_types > 0 && h->ts.pt < 0)
        rc = tab_create(h, &h->ts, "type_steps", h->ts_t, sizeof(struct ts_rec),
                        ts_columns);
    for (size_t t = 0; rc == 0 && t < s->n_types; t++) {
        struct ts_rec q = {(int64_t)s->evt, s->time, (int64_t)t, s->pool_t[t],
                           s->used_t[t]};
        rc = tab_put(h, &h->ts, &q);
    }
    return rc;
}

int h5out_solve(struct h5out *h, const struct rec_solve *s)
{
    struct so_rec r = {
        .evt = (int64_t)s->evt,
        .time = s->time,
        .status = s->status,
        .pool = s->pool,
        .n_jobs = (int64_t)s->n_jobs,
        .objective = s->objective,
        .bound = s->bound,
        .rows = (int64_t)s->rows,
        .cols = (int64_t)s->cols,
        .nnz = (int64_t)s->nnz,
        .build_s = s->build_s,
        .solve_s = s->solve_s,
        .cpu_s = s->cpu_s,
        .ipc_s = s->ipc_s,
        .mip_solves = (int64_t)s->mip_solves,
        .nodes = s->nodes,
        .iterations = s->iters,
        .root_bound = s->root_bound,
        .root_cuts = s->cuts,
    };
    return tab_put(h, &h->so, &r);
}

int h5out_alloc(struct h5out *h, const struct rec_alloc *a)
{
    struct al_rec r = {(int64_t)a->evt, a->time, (int64_t)a->job, a->count};
    return tab_put(h, &h->al, &r);
}

/* The node-holding callback of h->hold: one row of /node_holdings. */
static int put_holding(void *arg, size_t i, size_t j, int64_t start,
                       int64_t end)
{
    struct h5out *h = arg;
    struct nh_rec r = {(int64_t)i, (int64_t)j, start, end};

    return tab_put(h, &h->nh, &r);
}

/* The idle-interval callback of h->hold: one row of /node_idle. */
static int put_idle(void *arg, size_t i, int64_t start, int64_t end)
{
    struct h5out *h = arg;
    struct ni_rec r = {(int64_t)i, start, end};

    return tab_put(h, &h->ni, &r);
}

/* /node_types (each replayed node's type, an index) and the root
 * attribute node_types (the types' names, in index order), once. */
static int write_node_types(struct h5out *h, const struct rec_nodes *m)
{
    hsize_t n = m->n, nt = m->n_types;
    hid_t sp = H5I_INVALID_HID, d = H5I_INVALID_HID, a = H5I_INVALID_HID;
    int rc = 0;

    h->types_done = 1;
    if ((sp = H5Screate_simple(1, &n, NULL)) < 0 ||
        (d = H5Dcreate2(h->file, "node_types", H5T_NATIVE_UINT32, sp,
                        H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)) < 0 ||
        (n > 0 && H5Dwrite(d, H5T_NATIVE_UINT32, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                           m->ntype) < 0))
        rc = h5fail(h, "cannot write node_types");
    if (sp >= 0)
        H5Sclose(sp);
    if (d >= 0 && H5Dclose(d) < 0 && rc == 0)
        rc = h5fail(h, "cannot close node_types");
    sp = rc == 0 ? H5Screate_simple(1, &nt, NULL) : H5I_INVALID_HID;
    if (rc == 0 && (sp < 0 ||
                    (a = H5Acreate2(h->file, "node_types", h->str_t, sp,
                                    H5P_DEFAULT, H5P_DEFAULT)) < 0 ||
                    H5Awrite(a, h->str_t, m->type_names) < 0))
        rc = h5fail(h, "cannot write attribute node_types");
    if (a >= 0 && H5Aclose(a) < 0 && rc == 0)
        rc = h5fail(h, "cannot write attribute node_types");
    if (sp >= 0)
        H5Sclose(sp);
    return rc == 0 ? describe(h, "node_types",
                              "the type of each replayed node (trace order), "
                              "an index into the root attribute node_types")
                   : rc;
}

int h5out_nodes(struct h5out *h, const struct rec_nodes *m)
{
    if (h->err.code)
        return h->err.code;
    if (m->n_types > 0 && !h->types_done && write_node_types(h, m) != 0)
        return h->err.code;
    if (!h->hold) {
        struct hold_cb cb = {.arg = h, .node = put_holding, .idle = put_idle};
        h->hold = holdings_new(&cb);
    }
    return holdings_update(h->hold, m);
}

int h5out_job(struct h5out *h, const struct rec_job *j)
{
    struct jobrow *row;

    if (h->err.code)
        return h->err.code;
    if (h->n_jobs == 0) {
        h->ckpt = j->ckpt;
        h->n_features = j->n_features;
        h->feature_names = xcalloc(j->n_features ? j->n_features : 1,
                                   sizeof *h->feature_names);
        for (size_t k = 0; k < j->n_features; k++)
            h->feature_names[k] = xstrdup(j->feature_names[k]);
    } else if (j->n_features != h->n_features || !j->ckpt != !h->ckpt)
        return bfs_fail_at(&h->err, BFS_EINVAL, h->path, 0,
                           "job %zu: not the first job's columns", j->index);
    BFS_GROW(h->jobs, h->cap_jobs, h->n_jobs + 1);
    row = &h->jobs[h->n_jobs++];
    row->j = *j;
    row->name = xstrdup(j->name ? j->name : "");
    row->j.name = row->name;
    row->j.feature_names = row->j.features = NULL;
    row->features = NULL;
    if (j->n_features > 0 && j->features) {
        row->features = xcalloc(j->n_features, sizeof *row->features);
        for (size_t k = 0; k < j->n_features; k++)
            row->features[k] = j->features[k] ? xstrdup(j->features[k]) : NULL;
    }
    return 0;
}

int h5out_attr_str(struct h5out *h, const char *key, const char *value)
{
    return put_str(h, h->file, key, value);
}

int h5out_attr_double(struct h5out *h, const char *key, double value)
{
    return put_attr(h, h->file, key, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value);
}

int h5out_attr_int(struct h5out *h, const char *key, int64_t value)
{
    return put_attr(h, h->file, key, H5T_STD_I64LE, H5T_NATIVE_INT64, &value);
}

int h5out_summary_double(struct h5out *h, const char *key, double value)
{
    return put_attr(h, h->summary, key, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                    &value);
}

int h5out_summary_int(struct h5out *h, const char *key, int64_t value)
{
    return put_attr(h, h->summary, key, H5T_STD_I64LE, H5T_NATIVE_INT64,
                    &value);
}

/* One summary value as the attribute key of loc: integers, times and
 * flags as 64-bit integers, reals as doubles, text as strings. */
static int put_value(struct h5out *h, hid_t loc, const char *key,
                     const struct summary_value *v)
{
    if (v->type == SUMMARY_REAL)
        return put_attr(h, loc, key, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                        &v->v.d);
    if (v->type == SUMMARY_TEXT)
        return put_str(h, loc, key, v->v.s ? v->v.s : "");
    return put_attr(h, loc, key, H5T_STD_I64LE, H5T_NATIVE_INT64, &v->v.i);
}

int h5out_summary_values(struct h5out *h, const struct summary_value *v,
                         size_t n)
{
    int rc = h->err.code;

    for (size_t i = 0; i < n && rc == 0; i++) {
        char key[128];
        if (v[i].describes)
            continue;
        summary_name(&v[i], key, sizeof key);
        rc = put_value(h, h->summary, key, &v[i]);
    }
    return rc;
}

int h5out_attr_values(struct h5out *h, const struct summary_value *v, size_t n)
{
    int rc = h->err.code;

    for (size_t i = 0; i < n && rc == 0; i++)
        if (!v[i].none)
            rc = put_value(h, h->file, v[i].key, &v[i]);
    return rc;
}

const struct bfs_error *h5out_error(const struct h5out *h)
{
    return &h->err;
}

int h5out_close(struct h5out *h, int partial, struct bfs_error *e)
{
    int rc = h->err.code;

    if (h->closed)
        return rc ? bfs_fail(e, rc, "%s", h->err.msg) : 0;
    if (rc == 0)
        rc = tab_flush(h, &h->ev);
    if (rc == 0)
        rc = tab_flush(h, &h->so);
    if (rc == 0)
        rc = tab_flush(h, &h->al);
    if (rc == 0 && h->hold)
        rc = holdings_end(h->hold);
    if (rc == 0)
        rc = tab_flush(h, &h->nh);
    if (rc == 0)
        rc = tab_flush(h, &h->ni);
    if (rc == 0 && h->ts.pt >= 0)
        rc = tab_flush(h, &h->ts);
    if (rc == 0)
        rc = write_jobs(h);
    if (rc == 0)
        rc = h5out_attr_int(h, "partial", partial ? 1 : 0);
    {
        int r = release(h, rc != 0);
        if (rc == 0)
            rc = r;
    }
    h->closed = 1;
    if (rc == 0) /* durable before it becomes visible */
        rc = bfs_out_finish(&h->out, &h->err);
    if (rc != 0) {
        if (!h->err.code)
            h->err.code = rc;
        bfs_fail(e, rc, "%s", h->err.msg);
    }
    return rc;
}

int h5out_commit(struct h5out *h, struct bfs_error *e)
{
    int rc = h->closed
                 ? h->err.code
                 : bfs_fail(&h->err, BFS_EINVAL,
                            "%s: committed before it was closed", h->path);

    if (rc == 0)
        rc = bfs_out_commit(&h->out, &h->err);
    if (rc != 0) {
        release(h, 1);
        bfs_out_abort(&h->out);
        bfs_fail(e, rc, "%s", h->err.msg);
    }
    destroy(h);
    return rc;
}

int h5out_finish(struct h5out *h, int partial, struct bfs_error *e)
{
    int rc = h5out_close(h, partial, e);

    if (rc) {
        h5out_abort(h);
        return rc;
    }
    return h5out_commit(h, e);
}

void h5out_abort(struct h5out *h)
{
    if (!h)
        return;
    release(h, 1);
    bfs_out_abort(&h->out);
    destroy(h);
}

/* ---- replay sink ------------------------------------------------------- */

static int sink_step(void *arg, const struct rec_step *s)
{
    return h5out_step(arg, s);
}

static int sink_solve(void *arg, const struct rec_solve *s)
{
    return h5out_solve(arg, s);
}

static int sink_alloc(void *arg, const struct rec_alloc *a)
{
    return h5out_alloc(arg, a);
}

static int sink_nodes(void *arg, const struct rec_nodes *m)
{
    return h5out_nodes(arg, m);
}

static int sink_job(void *arg, const struct rec_job *j)
{
    return h5out_job(arg, j);
}

static int sink_finish(void *arg, int partial, struct bfs_error *e)
{
    return h5out_close(arg, partial, e);
}

static int sink_commit(void *arg, struct bfs_error *e)
{
    return h5out_commit(arg, e);
}

static void sink_abort(void *arg)
{
    h5out_abort(arg);
}

void h5out_sink(struct h5out *h, struct rec_sink *sink)
{
    memset(sink, 0, sizeof *sink);
    sink->arg = h;
    sink->step = sink_step;
    sink->solve = sink_solve;
    sink->alloc = sink_alloc;
    sink->nodes = sink_nodes;
    sink->job = sink_job;
    sink->finish = sink_finish;
    sink->commit = sink_commit;
    sink->abort = sink_abort;
}
