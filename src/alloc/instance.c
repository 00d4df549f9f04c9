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

/* Reads "o" or "curve" for a job of bounds up to jmax (as written) and
 * fills o[0..top], top <= jmax being the bound kept (see instance_read). */
static int read_objective(json_t *job, int jmax, int top, double *o,
                          const struct where *w, struct bfs_error *e)
{
    json_t *tab = json_object_get(job, "o");
    json_t *cur = json_object_get(job, "curve");
    size_t n;

    if (!tab == !cur)
        return fail(w, e, BFS_EPARSE,
                    "give exactly one of \"o\" and "
                    "\"curve\"");
    if (tab) {
        if (!json_is_array(tab) || json_array_size(tab) != (size_t)jmax + 1)
            return fail(w, e, BFS_EPARSE,
                        "\"o\" must be an array of jmax + 1 = %d numbers",
                        jmax + 1);
        for (int k = 0; k <= jmax; k++) {
            json_t *v = json_array_get(tab, (size_t)k);
            if (!json_is_number(v) || !isfinite(json_number_value(v)))
                return fail(w, e, BFS_EPARSE, "o[%d] is not a number", k);
            if (k <= top)
                o[k] = json_number_value(v);
        }
        if (o[0] != 0.0)
            return fail(w, e, BFS_EINVAL, "o[0] is %g, not 0", o[0]);
        return 0;
    }
    n = json_is_array(cur) ? json_array_size(cur) : 0;
    if (n < 2)
        return fail(w, e, BFS_EPARSE,
                    "\"curve\" must be an array of at least two [N, O] "
                    "pairs");
    {
        double *bn = xcalloc(n, sizeof *bn), *bo = xcalloc(n, sizeof *bo);
        int rc = 0;
        for (size_t i = 0; i < n && rc == 0; i++) {
            json_t *pt = json_array_get(cur, i);
            json_t *x = json_array_get(pt, 0), *y = json_array_get(pt, 1);
            if (!json_is_array(pt) || json_array_size(pt) != 2 ||
                !json_is_integer(x) || !json_is_number(y) ||
                !isfinite(json_number_value(y)))
                rc = fail(w, e, BFS_EPARSE,
                          "curve point %zu is not [integer N, number O]", i);
            else {
                bn[i] = (double)json_integer_value(x);
                bo[i] = json_number_value(y);
                if ((i == 0 && (bn[0] != 0 || bo[0] != 0)) ||
                    (i > 0 && bn[i] <= bn[i - 1]))
                    rc = fail(w, e, BFS_EINVAL,
                              "curve point %zu: the curve must start at "
                              "[0, 0] and N must increase",
                              i);
            }
        }
        if (rc == 0 && bn[n - 1] < jmax)
            rc = fail(w, e, BFS_EINVAL, "the curve ends at N = %g < jmax %d",
                      bn[n - 1], jmax);
        /* numpy.interp at every count, as the job set's curves */
        for (int k = 0; rc == 0 && k <= top; k++)
            o[k] = bfs_interp(k, bn, bo, n);
        xfree(bo);
        xfree(bn);
        return rc;
    }
}

static const char *const top_keys[] = {
    "format", "version", "note", "pool", "tfwd", "cap", "jobs", "owner", NULL};
static const char *const job_keys[] = {"name", "cur", "jmin",  "jmax", "tcup",
                                       "tcdw", "o",   "curve", "h",    NULL};

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
    int rc, version, pool, cap;
    size_t nj, off = 0;
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
            (rc = get_num(job, "tcdw", 0, 0, &jb->tcdw, w, e)))
            return rc;
        /* counts above the pool are never admissible: bounds above it
         * are kept as pool + 1, and so are the tables */
        if (jb->jmin > pool + 1)
            jb->jmin = pool + 1;
        if (jb->jmax > pool + 1)
            jb->jmax = pool + 1;
        sum += jb->cur;
        off += (size_t)jb->jmax + 1;
        if (off > INSTANCE_MAX_TABLE)
            return fail(w, e, BFS_ERANGE,
                        "the objective tables of jobs 0..%zu hold %zu "
                        "entries (the sum of jmax + 1), more than the %zu "
                        "an instance may have",
                        j, off, INSTANCE_MAX_TABLE);
    }
    in->o = xcalloc(off + 1, sizeof *in->o);
    in->h = xcalloc(off + 1, sizeof *in->h);
    off = 0;
    for (size_t j = 0; j < nj; j++) {
        struct alloc_job *jb = &in->jobs[j];
        json_t *job = json_array_get(jobs, j);
        /* the jmax as written (checked by the first pass) */
        int jmax = (int)json_integer_value(json_object_get(job, "jmax"));
        if (in->names[j])
            snprintf(w->at, sizeof w->at, "job %zu (%.100s)", j, in->names[j]);
        else
            snprintf(w->at, sizeof w->at, "job %zu", j);
        int have_h;
        rc = read_objective(job, jmax, jb->jmax, in->o + off, w, e);
        if (rc == 0)
            rc = read_horizon(job, jmax, jb->jmax, in->h + off, &have_h, w, e);
        if (rc)
            return rc;
        jb->o = in->o + off;
        jb->h = have_h ? in->h + off : NULL;
        off += (size_t)jb->jmax + 1;
    }
    w->at[0] = '\0';
    if (sum > pool)
        return fail(w, e, BFS_EINVAL,
                    "the jobs hold %ld nodes but the pool has %d", sum, pool);
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
    int rc;

    memset(&in, 0, sizeof in);
    if (!*path)
        return bfs_fail(e, BFS_EIO, "empty file name");
    if (strcmp(path, "-") == 0)
        root = json_loadf(stdin, JSON_REJECT_DUPLICATES, &jerr);
    else
        root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        unsigned char head[8];
        size_t n = 0;
        FILE *f = strcmp(path, "-") != 0 ? fopen(path, "rb") : NULL;
        if (f) { /* a compressed file is named, not parsed as JSON */
            n = fread(head, 1, sizeof head, f);
            fclose(f);
        }
        if ((rc = bfs_compressed_check(path, head, n, 0, e)) != 0)
            return rc;
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
    return 0;
}

void instance_release(struct instance *in)
{
    if (in->names)
        for (size_t j = 0; j < in->p.n_jobs; j++)
            xfree(in->names[j]);
    xfree(in->names);
    xfree(in->owner);
    xfree(in->o);
    xfree(in->h);
    xfree(in->jobs);
    xfree(in->note);
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

static json_t *job_json(const struct alloc_job *jb, const char *name)
{
    json_t *o = json_object(), *tab = json_array();

    if (name)
        json_object_set_new(o, "name", json_string(name));
    json_object_set_new(o, "cur", json_integer(jb->cur));
    json_object_set_new(o, "jmin", json_integer(jb->jmin));
    json_object_set_new(o, "jmax", json_integer(jb->jmax));
    json_object_set_new(o, "tcup", json_real(jb->tcup));
    json_object_set_new(o, "tcdw", json_real(jb->tcdw));
    for (int k = 0; k <= jb->jmax; k++)
        json_array_append_new(tab, json_real(jb->o[k]));
    json_object_set_new(o, "o", tab);
    if (jb->h) {
        tab = json_array();
        for (int k = 0; k <= jb->jmax; k++)
            json_array_append_new(tab, json_real(jb->h[k]));
        json_object_set_new(o, "h", tab);
    }
    return o;
}

int instance_write(const char *path, const struct alloc_problem *p,
                   const char *const *names, const char *note,
                   struct bfs_error *e)
{
    struct bfs_out out;
    json_t *v;
    int rc, bad = 0;
    FILE *f;

    rc = alloc_problem_check(p, e);
    if (rc)
        return rc;
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
    fprintf(f, ", \"cap\": %d,\n \"jobs\": [", p->cap);
    for (size_t j = 0; j < p->n_jobs; j++) {
        fputs(j ? ",\n  " : "\n  ", f);
        v = job_json(&p->jobs[j], names ? names[j] : NULL);
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
