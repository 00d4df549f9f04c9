/* instance.c - reading and writing allocation instances (JSON, Jansson).
 *
 * Reading is strict: the whole document is loaded (duplicate keys
 * rejected), every key is known, every number has the right kind and
 * range, and the problem then passes alloc_problem_check (jmin and jmax
 * above the pool are kept as pool + 1: no count above the pool is
 * admissible, and the tables stay in the pool's size); every message
 * names the file, and the JSON syntax errors also the line and column
 * that Jansson reports (Jansson keeps no positions for values, so a
 * semantic error names the job and the key instead).  Writing builds each
 * job as a Jansson object and prints one per line, numbers with 17
 * significant digits, through bfs_out so that a reader never sees half a
 * file.
 */
#include "config.h"

#include "alloc/instance.h"
#include "alloc/objective.h"
#include "base/out.h"
#include "base/util.h"

#include <jansson.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest pool and Jmax accepted: more nodes than any machine has, and
 * small enough that the tables of a hostile file fit in memory. */
#define INSTANCE_MAX_NODES 1000000

/* Most entries of the objective tables together (the sum over the jobs of
 * jmax + 1, jmax kept at most pool + 1; 128 MiB of doubles).  A job given
 * by a few curve points can ask for a table of a million entries: without
 * a bound on the sum, a 200 KB file asked for 24 GB.  Replays dump tables
 * far smaller (jobs x the largest Jmax, thousands). */
#define INSTANCE_MAX_TABLE ((size_t)1 << 24)

/* Most node types: more than any machine mixes. */
#define INSTANCE_MAX_TYPES 64

/* Where a value sits, for messages: "job 2 (J00002)" or "". */
struct where {
    const char *path;
    char at[160];
};

static int fail(const struct where *w, struct bfs_error *e, int code,
                const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int fail(const struct where *w, struct bfs_error *e, int code,
                const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return bfs_fail_at(e, code, w->path, 0, "%s%s%s", w->at,
                       w->at[0] ? ": " : "", msg);
}

/* Fails on any key of obj not in the NULL-terminated list. */
static int known_keys(json_t *obj, const char *const *keys,
                      const struct where *w, struct bfs_error *e)
{
    const char *key;
    json_t *v;

    json_object_foreach(obj, key, v)
    {
        int ok = 0;
        for (const char *const *k = keys; *k && !ok; k++)
            ok = strcmp(*k, key) == 0;
        if (!ok)
            return fail(w, e, BFS_EPARSE, "unknown key \"%s\"", key);
    }
    return 0;
}

/* An integer in lo..hi under key (def when absent and not required). */
static int get_int(json_t *obj, const char *key, int required, int def,
                   long long lo, long long hi, int *out, const struct where *w,
                   struct bfs_error *e)
{
    json_t *v = json_object_get(obj, key);
    long long x;

    if (!v) {
        if (required)
            return fail(w, e, BFS_EPARSE, "missing \"%s\"", key);
        *out = def;
        return 0;
    }
    if (!json_is_integer(v))
        return fail(w, e, BFS_EPARSE, "\"%s\" is not an integer", key);
    x = json_integer_value(v);
    if (x < lo || x > hi)
        return fail(w, e, BFS_ERANGE, "\"%s\" %lld is out of range %lld..%lld",
                    key, x, lo, hi);
    *out = (int)x;
    return 0;
}

/* A finite number >= lo (> lo when strict) under key. */
static int get_num(json_t *obj, const char *key, double lo, int strict,
                   double *out, const struct where *w, struct bfs_error *e)
{
    json_t *v = json_object_get(obj, key);
    double x;

    if (!v)
        return fail(w, e, BFS_EPARSE, "missing \"%s\"", key);
    if (!json_is_number(v))
        return fail(w, e, BFS_EPARSE, "\"%s\" is not a number", key);
    x = json_number_value(v);
    if (!isfinite(x) || x < lo || (strict && x == lo))
        return fail(w, e, BFS_ERANGE, "\"%s\" %g must be %s %g", key, x,
                    strict ? ">" : ">=", lo);
    *out = x;
    return 0;
}

/* Reads tab, a table of jmax + 1 numbers named name ("o", "ot[1]"), into
 * o[0..top] (top <= jmax, see instance_read); o[0] must be 0. */
static int read_table(json_t *tab, const char *name, int jmax, int top,
                      double *o, const struct where *w, struct bfs_error *e)
{
    if (!json_is_array(tab) || json_array_size(tab) != (size_t)jmax + 1)
        return fail(w, e, BFS_EPARSE,
                    "\"%s\" must be an array of jmax + 1 = %d numbers", name,
                    jmax + 1);
    for (int k = 0; k <= jmax; k++) {
        json_t *v = json_array_get(tab, (size_t)k);
        if (!json_is_number(v) || !isfinite(json_number_value(v)))
            return fail(w, e, BFS_EPARSE, "%s[%d] is not a number", name, k);
        if (k <= top)
            o[k] = json_number_value(v);
    }
    if (o[0] != 0.0)
        return fail(w, e, BFS_EINVAL, "%s[0] is %g, not 0", name, o[0]);
    return 0;
}

/* Reads cur, the breakpoints of a curve named name ("curve",
 * "curves[1]"), interpolated at every count into o[0..top], as
 * read_table. */
static int read_curve(json_t *cur, const char *name, int jmax, int top,
                      double *o, const struct where *w, struct bfs_error *e)
{
    size_t n = json_is_array(cur) ? json_array_size(cur) : 0;
    double *bn, *bo;
    int rc = 0;

    if (n < 2)
        return fail(w, e, BFS_EPARSE,
                    "\"%s\" must be an array of at least two [N, O] pairs",
                    name);
    bn = xcalloc(n, sizeof *bn);
    bo = xcalloc(n, sizeof *bo);
    for (size_t i = 0; i < n && rc == 0; i++) {
        json_t *pt = json_array_get(cur, i);
        json_t *x = json_array_get(pt, 0), *y = json_array_get(pt, 1);
        if (!json_is_array(pt) || json_array_size(pt) != 2 ||
            !json_is_integer(x) || !json_is_number(y) ||
            !isfinite(json_number_value(y)))
            rc = fail(w, e, BFS_EPARSE,
                      "%s point %zu is not [integer N, number O]", name, i);
        else {
            bn[i] = (double)json_integer_value(x);
            bo[i] = json_number_value(y);
            if ((i == 0 && (bn[0] != 0 || bo[0] != 0)) ||
                (i > 0 && bn[i] <= bn[i - 1]))
                rc = fail(w, e, BFS_EINVAL,
                          "%s point %zu: the curve must start at [0, 0] and N "
                          "must increase",
                          name, i);
        }
    }
    if (rc == 0 && bn[n - 1] < jmax)
        rc = fail(w, e, BFS_EINVAL, "the %s ends at N = %g < jmax %d", name,
                  bn[n - 1], jmax);
    /* numpy.interp at every count, as the job set's curves */
    for (int k = 0; rc == 0 && k <= top; k++)
        o[k] = bfs_interp(k, bn, bo, n);
    xfree(bo);
    xfree(bn);
    return rc;
}

/* Reads "o" or "curve" for a job of bounds up to jmax (as written) and
 * fills o[0..top], top <= jmax being the bound kept (see instance_read).
 * With optional set (node types: the reference curve is not used),
 * neither is needed, and *have says whether there was one. */
static int read_objective(json_t *job, int jmax, int top, double *o,
                          int optional, int *have, const struct where *w,
                          struct bfs_error *e)
{
    json_t *tab = json_object_get(job, "o");
    json_t *cur = json_object_get(job, "curve");

    *have = tab || cur;
    if (!optional && !tab == !cur)
        return fail(w, e, BFS_EPARSE,
                    "give exactly one of \"o\" and \"curve\"");
    if (tab && cur)
        return fail(w, e, BFS_EPARSE,
                    "give at most one of \"o\" and \"curve\"");
    if (!tab && !cur)
        return 0;
    if (tab)
        return read_table(tab, "o", jmax, top, o, w, e);
    return read_curve(cur, "curve", jmax, top, o, w, e);
}

/* Reads a job's tables per node type, "ot" or "curves" (exactly one):
 * an array of nt entries, each null (the job cannot run on the type) or
 * a table (curve) for the type, into o[t * (top + 1)..] and ot[t]. */
static int read_types(json_t *job, int nt, int jmax, int top, double *o,
                      const double **ot, const struct where *w,
                      struct bfs_error *e)
{
    json_t *tabs = json_object_get(job, "ot");
    json_t *curs = json_object_get(job, "curves");
    json_t *all = tabs ? tabs : curs;
    const char *key = tabs ? "ot" : "curves";

    if (!tabs == !curs)
        return fail(w, e, BFS_EPARSE,
                    "with node types, give exactly one of \"ot\" and "
                    "\"curves\"");
    if (!json_is_array(all) || json_array_size(all) != (size_t)nt)
        return fail(w, e, BFS_EPARSE,
                    "\"%s\" must be an array of %d entries, one per node "
                    "type (null where the job cannot run)",
                    key, nt);
    for (int t = 0; t < nt; t++) {
        json_t *v = json_array_get(all, (size_t)t);
        double *ot_t = o + (size_t)t * ((size_t)top + 1);
        char name[32];
        int rc;
        ot[t] = NULL;
        if (json_is_null(v))
            continue;
        snprintf(name, sizeof name, "%s[%d]", key, t);
        rc = tabs ? read_table(v, name, jmax, top, ot_t, w, e)
                  : read_curve(v, name, jmax, top, ot_t, w, e);
        if (rc)
            return rc;
        ot[t] = ot_t;
    }
    return 0;
}

static const char *const top_keys[] = {"format", "version", "note", "pool",
                                       "tfwd",   "cap",     "jobs", "owner",
                                       "types",  "pools",   NULL};
static const char *const job_keys[] = {
    "name",  "cur", "jmin",  "jmax", "tcup",   "tcdw", "o",
    "curve", "h",   "ctype", "ot",   "curves", NULL};

/* The job keys that need node types. */
static const char *const typed_keys[] = {"ctype", "ot", "curves", NULL};

/* Reads the optional "pools" (the idle nodes per node type: at least two
 * types, summing to pool) and "types" (their names, which need
 * "pools") into in. */
static int read_pools(json_t *root, struct instance *in, int pool,
                      const struct where *w, struct bfs_error *e)
{
    json_t *pools = json_object_get(root, "pools");
    json_t *names = json_object_get(root, "types");
    size_t nt;
    long sum = 0;

    if (!pools) {
        if (names)
            return fail(w, e, BFS_EPARSE,
                        "\"types\" needs \"pools\" (the idle nodes of each "
                        "type)");
        return 0;
    }
    nt = json_is_array(pools) ? json_array_size(pools) : 0;
    if (nt < 2 || nt > INSTANCE_MAX_TYPES)
        return fail(w, e, BFS_EPARSE,
                    "\"pools\" must be an array of 2 to %d integers, the "
                    "idle nodes of each node type (one type: leave out "
                    "\"pools\")",
                    INSTANCE_MAX_TYPES);
    in->pools = xcalloc(nt, sizeof *in->pools);
    for (size_t t = 0; t < nt; t++) {
        json_t *v = json_array_get(pools, t);
        long long x = json_is_integer(v) ? json_integer_value(v) : -1;
        if (x < 0 || x > INSTANCE_MAX_NODES)
            return fail(w, e, BFS_EPARSE,
                        "pools[%zu] is not an integer in 0..%d", t,
                        INSTANCE_MAX_NODES);
        in->pools[t] = (int)x;
        sum += (long)x;
    }
    in->p.n_types = (int)nt;
    if (sum != pool)
        return fail(w, e, BFS_EINVAL,
                    "the \"pools\" sum to %ld nodes, not to \"pool\" %d", sum,
                    pool);
    if (!names)
        return 0;
    if (!json_is_array(names) || json_array_size(names) != nt)
        return fail(w, e, BFS_EPARSE,
                    "\"types\" must be an array of %zu names, one per "
                    "entry of \"pools\"",
                    nt);
    in->type_names = xcalloc(nt, sizeof *in->type_names);
    for (size_t t = 0; t < nt; t++) {
        json_t *v = json_array_get(names, t);
        if (!json_is_string(v) || json_string_length(v) == 0)
            return fail(w, e, BFS_EPARSE,
                        "types[%zu] is not a non-empty string", t);
        for (size_t u = 0; u < t; u++)
            if (strcmp(in->type_names[u], json_string_value(v)) == 0)
                return fail(w, e, BFS_EINVAL,
                            "types[%zu] and types[%zu] are both \"%.100s\"", u,
                            t, in->type_names[u]);
        in->type_names[t] = xstrdup(json_string_value(v));
    }
    return 0;
}

/* Reads the optional "h" (the horizon table of --hints) of a job of
 * bounds up to jmax (as written) and fills h[0..top], as read_objective;
 * *have says whether there was one. */
static int read_horizon(json_t *job, int jmax, int top, double *h, int *have,
                        const struct where *w, struct bfs_error *e)
{
    json_t *tab = json_object_get(job, "h");

    *have = tab != NULL;
    if (!tab)
        return 0;
    if (!json_is_array(tab) || json_array_size(tab) != (size_t)jmax + 1)
        return fail(w, e, BFS_EPARSE,
                    "\"h\" must be an array of jmax + 1 = %d numbers",
                    jmax + 1);
    for (int k = 0; k <= jmax; k++) {
        json_t *v = json_array_get(tab, (size_t)k);
        if (!json_is_number(v) || !isfinite(json_number_value(v)) ||
            json_number_value(v) < 0)
            return fail(w, e, BFS_EPARSE, "h[%d] is not a number >= 0", k);
        if (k <= top)
            h[k] = json_number_value(v);
    }
    return 0;
}

static int parse(json_t *root, struct instance *in, struct where *w,
                 struct bfs_error *e)
{
    json_t *fmt, *jobs, *owner, *note;
    int rc, version, pool, cap, nt;
    size_t nj, off = 0, offt = 0;
    long sum = 0;

    if (!json_is_object(root))
        return fail(w, e, BFS_EPARSE, "not a JSON object");
    fmt = json_object_get(root, "format");
    if (!json_is_string(fmt) ||
        strcmp(json_string_value(fmt), INSTANCE_FORMAT) != 0)
        return fail(w, e, BFS_EPARSE,
                    "not a bfsim instance (\"format\" "
                    "must be \"" INSTANCE_FORMAT "\")");
    if ((rc = get_int(root, "version", 1, 0, 1, INSTANCE_VERSION, &version, w,
                      e)) ||
        (rc = known_keys(root, top_keys, w, e)) ||
        (rc =
             get_int(root, "pool", 1, 0, 0, INSTANCE_MAX_NODES, &pool, w, e)) ||
        (rc = get_num(root, "tfwd", 0, 1, &in->p.tfwd, w, e)) ||
        (rc = get_int(root, "cap", 0, 0, 0, INSTANCE_MAX_NODES, &cap, w, e)))
        return rc;
    in->p.pool = pool;
    in->p.cap = cap;
    if ((rc = read_pools(root, in, pool, w, e)))
        return rc;
    nt = in->p.n_types > 1 ? in->p.n_types : 0;
    note = json_object_get(root, "note");
    if (note && !json_is_string(note))
        return fail(w, e, BFS_EPARSE, "\"note\" is not a string");
    if (note)
        in->note = xstrdup(json_string_value(note));
    jobs = json_object_get(root, "jobs");
    if (!json_is_array(jobs))
        return fail(w, e, BFS_EPARSE, "\"jobs\" must be an array");
    nj = json_array_size(jobs);
    in->p.n_jobs = nj;
    in->jobs = xcalloc(nj + 1, sizeof *in->jobs);
    in->names = xcalloc(nj + 1, sizeof *in->names);
    /* first pass: sizes of the tables */
    for (size_t j = 0; j < nj; j++) {
        json_t *job = json_array_get(jobs, j);
        json_t *name = json_object_get(job, "name");
        struct alloc_job *jb = &in->jobs[j];
        snprintf(w->at, sizeof w->at, "job %zu", j);
        if (!json_is_object(job))
            return fail(w, e, BFS_EPARSE, "not an object");
        if (name && !json_is_string(name))
            return fail(w, e, BFS_EPARSE, "\"name\" is not a string");
        if (name) {
            in->names[j] = xstrdup(json_string_value(name));
            snprintf(w->at, sizeof w->at, "job %zu (%.100s)", j, in->names[j]);
        }
        if ((rc = known_keys(job, job_keys, w, e)) ||
            (rc = get_int(job, "jmin", 1, 0, 1, INSTANCE_MAX_NODES, &jb->jmin,
                          w, e)) ||
            (rc = get_int(job, "jmax", 1, 0, jb->jmin, INSTANCE_MAX_NODES,
                          &jb->jmax, w, e)) ||
            (rc = get_int(job, "cur", 1, 0, 0, jb->jmax, &jb->cur, w, e)) ||
            (rc = get_num(job, "tcup", 0, 0, &jb->tcup, w, e)) ||
            (rc = get_num(job, "tcdw", 0, 0, &jb->tcdw, w, e)) ||
            (nt &&
             (rc = get_int(job, "ctype", 0, 0, 0, nt - 1, &jb->ctype, w, e))))
            return rc;
        for (const char *const *k = typed_keys; !nt && *k; k++)
            if (json_object_get(job, *k))
                return fail(w, e, BFS_EPARSE,
                            "\"%s\" needs node types (\"pools\" at the top)",
                            *k);
        if (nt && json_object_get(job, "h"))
            return fail(w, e, BFS_EPARSE,
                        "\"h\" (a horizon per count, --hints) is not taken "
                        "with node types");
        /* counts above the pool are never admissible: bounds above it
         * are kept as pool + 1, and so are the tables */
        if (jb->jmin > pool + 1)
            jb->jmin = pool + 1;
        if (jb->jmax > pool + 1)
            jb->jmax = pool + 1;
        sum += jb->cur;
        off += (size_t)jb->jmax + 1;
        offt += ((size_t)jb->jmax + 1) * (size_t)nt;
        if (off + offt > INSTANCE_MAX_TABLE)
            return fail(w, e, BFS_ERANGE,
                        "the objective tables of jobs 0..%zu hold %zu "
                        "entries (the sum of jmax + 1%s), more than the %zu "
                        "an instance may have",
                        j, off + offt,
                        nt ? ", once per node type and once" : "",
                        INSTANCE_MAX_TABLE);
    }
    in->o = xcalloc(off + 1, sizeof *in->o);
    in->h = xcalloc(off + 1, sizeof *in->h);
    if (nt) {
        in->ot = xcalloc(offt + 1, sizeof *in->ot);
        in->otp = xcalloc(nj * (size_t)nt + 1, sizeof *in->otp);
    }
    off = offt = 0;
    for (size_t j = 0; j < nj; j++) {
        struct alloc_job *jb = &in->jobs[j];
        json_t *job = json_array_get(jobs, j);
        /* the jmax as written (checked by the first pass) */
        int jmax = (int)json_integer_value(json_object_get(job, "jmax"));
        if (in->names[j])
            snprintf(w->at, sizeof w->at, "job %zu (%.100s)", j, in->names[j]);
        else
            snprintf(w->at, sizeof w->at, "job %zu", j);
        int have_h, have_o;
        rc = read_objective(job, jmax, jb->jmax, in->o + off, nt > 0, &have_o,
                            w, e);
        if (rc == 0)
            rc = read_horizon(job, jmax, jb->jmax, in->h + off, &have_h, w, e);
        if (rc == 0 && nt)
            rc = read_types(job, nt, jmax, jb->jmax, in->ot + offt,
                            in->otp + j * (size_t)nt, w, e);
        if (rc)
            return rc;
        jb->o = have_o ? in->o + off : NULL;
        jb->h = have_h ? in->h + off : NULL;
        jb->ot = nt ? in->otp + j * (size_t)nt : NULL;
        off += (size_t)jb->jmax + 1;
        offt += ((size_t)jb->jmax + 1) * (size_t)nt;
    }
    w->at[0] = '\0';
    if (sum > pool)
        return fail(w, e, BFS_EINVAL,
                    "the jobs hold %ld nodes but the pool has %d", sum, pool);
    for (int t = 0; t < nt; t++) {
        long held = 0;
        for (size_t j = 0; j < nj; j++)
            if (in->jobs[j].cur > 0 && in->jobs[j].ctype == t)
                held += in->jobs[j].cur;
        if (held > in->pools[t])
            return fail(w, e, BFS_EINVAL,
                        "the jobs hold %ld nodes of type %d but its pool has "
                        "%d",
                        held, t, in->pools[t]);
    }
    owner = json_object_get(root, "owner");
    if (owner) {
        long *held = xcalloc(nj + 1, sizeof *held);
        if (!json_is_array(owner) || json_array_size(owner) != (size_t)pool) {
            xfree(held);
            return fail(w, e, BFS_EPARSE,
                        "\"owner\" must be an array of pool = %d integers",
                        pool);
        }
        in->owner = xcalloc((size_t)pool + 1, sizeof *in->owner);
        for (int q = 0; q < pool; q++) {
            json_t *v = json_array_get(owner, (size_t)q);
            long long x = json_is_integer(v) ? json_integer_value(v) : -2;
            if (x < -1 || x >= (long long)nj) {
                xfree(held);
                return fail(w, e, BFS_EINVAL,
                            "owner[%d] is not a job index or -1", q);
            }
            in->owner[q] = (int)x;
            if (x >= 0)
                held[x]++;
        }
        for (size_t j = 0; j < nj; j++)
            if (held[j] != in->jobs[j].cur) {
                long h = held[j];
                xfree(held);
                return fail(w, e, BFS_EINVAL,
                            "\"owner\" gives job %zu %ld nodes, but its cur "
                            "is %d",
                            j, h, in->jobs[j].cur);
            }
        xfree(held);
    }
    in->p.jobs = in->jobs;
    in->p.owner = in->owner;
    in->p.pools = in->pools;
    {
        struct bfs_error e2;
        bfs_error_clear(&e2);
        rc = alloc_problem_check(&in->p, &e2);
        if (rc)
            return fail(w, e, rc, "%s", e2.msg);
    }
    return 0;
}

int instance_read(const char *path, struct instance *out, struct bfs_error *e)
{
    struct instance in;
    struct where w = {.path = path};
    json_error_t jerr;
    json_t *root;
    char *text;
    size_t len;
    int rc;

    memset(&in, 0, sizeof in);
    if (!*path)
        return bfs_fail(e, BFS_EIO, "empty file name");
    /* read through the decoder, so that a compressed instance reads */
    if ((rc = bfs_read_all(path, &text, &len, e)) != 0)
        return rc;
    root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    xfree(text);
    if (!root) {
        if (jerr.line <= 0)
            return bfs_fail_at(e, BFS_EIO, path, 0, "%s", jerr.text);
        return bfs_fail_at(e, BFS_EPARSE, path, (size_t)jerr.line,
                           "column %d: %s", jerr.column, jerr.text);
    }
    rc = parse(root, &in, &w, e);
    json_decref(root);
    if (rc) {
        instance_release(&in);
        return rc;
    }
    *out = in;
    /* the problem points into *out, not into the local copy */
    out->p.jobs = out->jobs;
    out->p.owner = out->owner;
    out->p.pools = out->pools;
    out->p.type_names = (const char *const *)out->type_names;
    return 0;
}

void instance_release(struct instance *in)
{
    if (in->names)
        for (size_t j = 0; j < in->p.n_jobs; j++)
            xfree(in->names[j]);
    xfree(in->names);
    if (in->type_names)
        for (int t = 0; t < in->p.n_types; t++)
            xfree(in->type_names[t]);
    XFREE_ALL(in->type_names, in->pools, in->otp, in->ot, in->owner, in->o,
              in->h, in->jobs, in->note);
    memset(in, 0, sizeof *in);
}

/* ---- writing ------------------------------------------------------------ */

/* Prints v compactly, numbers with 17 significant digits. */
static int put(FILE *f, json_t *v)
{
    char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
    int rc;

    if (!s)
        return -1;
    rc = fputs(s, f) < 0 ? -1 : 0;
    free(s);
    return rc;
}

/* A table of n + 1 numbers as a JSON array. */
static json_t *table_json(const double *o, int n)
{
    json_t *tab = json_array();

    for (int k = 0; k <= n; k++)
        json_array_append_new(tab, json_real(o[k]));
    return tab;
}

static json_t *job_json(const struct alloc_problem *p, size_t j,
                        const char *name)
{
    const struct alloc_job *jb = &p->jobs[j];
    json_t *o = json_object();

    if (name)
        json_object_set_new(o, "name", json_string(name));
    json_object_set_new(o, "cur", json_integer(jb->cur));
    if (p->n_types > 1)
        json_object_set_new(o, "ctype", json_integer(jb->ctype));
    json_object_set_new(o, "jmin", json_integer(jb->jmin));
    json_object_set_new(o, "jmax", json_integer(jb->jmax));
    json_object_set_new(o, "tcup", json_real(jb->tcup));
    json_object_set_new(o, "tcdw", json_real(jb->tcdw));
    if (p->n_types > 1) { /* o is optional, h not read */
        json_t *ot = json_array();
        if (jb->o)
            json_object_set_new(o, "o", table_json(jb->o, jb->jmax));
        for (int t = 0; t < p->n_types; t++)
            json_array_append_new(
                ot, jb->ot[t] ? table_json(jb->ot[t], jb->jmax) : json_null());
        json_object_set_new(o, "ot", ot);
        return o;
    }
    json_object_set_new(o, "o", table_json(jb->o, jb->jmax));
    if (jb->h)
        json_object_set_new(o, "h", table_json(jb->h, jb->jmax));
    return o;
}

int instance_write(const char *path, const struct alloc_problem *p,
                   const char *const *names, const char *note,
                   struct bfs_error *e)
{
    return instance_write_typed(path, p, names, p->type_names, note, e);
}

int instance_write_typed(const char *path, const struct alloc_problem *p,
                         const char *const *names,
                         const char *const *type_names, const char *note,
                         struct bfs_error *e)
{
    struct bfs_out out;
    json_t *v;
    int rc, bad = 0;
    FILE *f;

    rc = alloc_problem_check(p, e);
    if (rc)
        return rc;
    if (alloc_mixed(p)) /* the format has no holdings per type */
        return bfs_fail_at(e, BFS_EUNSUP, path, 0,
                           "a problem with spanning node types "
                           "(--mixed-types) cannot be written as an "
                           "instance file (the format has no mixed flag "
                           "and no nodes held per type)");
    rc = bfs_out_open(&out, path, e);
    if (rc)
        return rc;
    f = out.fp;
    fprintf(f, "{\"format\": \"%s\", \"version\": %d,", INSTANCE_FORMAT,
            INSTANCE_VERSION);
    if (note) {
        fputs(" \"note\": ", f);
        v = json_string(note);
        bad |= !v || put(f, v) != 0;
        json_decref(v);
        fputc(',', f);
    }
    fprintf(f, "\n \"pool\": %d, \"tfwd\": ", p->pool);
    v = json_real(p->tfwd);
    bad |= put(f, v) != 0;
    json_decref(v);
    fprintf(f, ", \"cap\": %d,", p->cap);
    if (p->n_types > 1) {
        if (type_names) {
            fputs("\n \"types\": [", f);
            for (int t = 0; t < p->n_types; t++) {
                fputs(t ? ", " : "", f);
                v = json_string(type_names[t]);
                bad |= !v || put(f, v) != 0;
                json_decref(v);
            }
            fputs("],", f);
        }
        fputs("\n \"pools\": [", f);
        for (int t = 0; t < p->n_types; t++)
            fprintf(f, "%s%d", t ? ", " : "", p->pools[t]);
        fputs("],", f);
    }
    fputs("\n \"jobs\": [", f);
    for (size_t j = 0; j < p->n_jobs; j++) {
        fputs(j ? ",\n  " : "\n  ", f);
        v = job_json(p, j, names ? names[j] : NULL);
        bad |= put(f, v) != 0;
        json_decref(v);
    }
    fputs(p->n_jobs ? "\n ]" : "]", f);
    if (p->owner) {
        fputs(",\n \"owner\": [", f);
        for (int q = 0; q < p->pool; q++)
            fprintf(f, "%s%d", q ? ", " : "", p->owner[q]);
        fputc(']', f);
    }
    fputs("}\n", f);
    if (bad) {
        bfs_out_abort(&out);
        return bfs_fail_at(e, BFS_EINVAL, path, 0,
                           "a name or the note is not valid UTF-8");
    }
    return bfs_out_commit(&out, e);
}

int instance_dump(void *dir, const struct alloc_problem *p,
                  const char *const *names, size_t evt, int64_t t,
                  struct bfs_error *e)
{
    const char *d = dir;
    char *path = xmalloc(strlen(d) + 32);
    char note[160], when[BFS_TIME_LEN];
    int rc;

    sprintf(path, "%s/evt-%06zu.json", d, evt);
    snprintf(note, sizeof note, "bfsim replay: event %zu at %s, %zu jobs", evt,
             bfs_time_format(t, when), p->n_jobs);
    rc = instance_write(path, p, names, note, e);
    xfree(path);
    return rc;
}
