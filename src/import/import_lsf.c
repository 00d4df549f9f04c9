/* import_lsf.c - LSF accounting files (lsb.acct) to native traces (the
 * rules: import_lsf in import.h; the machine: import_acct.h).
 *
 * A JOB_FINISH record is a whole run: its start (startTime) and end (the
 * event time) and the hosts of its slots, so records are independent
 * and read in any order.  The line is cut into fields in place: a
 * string field loses its quotes and has each "" turned into one '"';
 * only the fields up to execHosts are looked at (their order is the
 * same in every version of the format; later versions add fields after
 * them).
 */
#include "config.h"

#include "import/import.h"
#include "import/import_acct.h"
#include "import/import_log.h"
#include "base/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Field indices of JOB_FINISH (0: the record kind). */
enum {
    F_VERSION = 1,
    F_EVENT_TIME = 2,
    F_JOB_ID = 3,
    F_START_TIME = 10,
    F_NUM_ASKED = 22 /* then the asked hosts, numExHosts, execHosts */
};

struct lsf {
    struct acct a;
    char **f; /* the fields of the line being read */
    size_t cap_f;
};

/* A malformed record (acct_malformed). */
#define bad(l, ...) acct_malformed(&(l)->a, __VA_ARGS__)

/* Cuts s into fields (l->f); *n their number. */
static int split(struct lsf *l, char *s, size_t *n)
{
    size_t k = 0;

    for (;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            break;
        BFS_GROW(l->f, l->cap_f, k + 1);
        if (*s == '"') {
            char *w = s + 1;
            l->f[k] = w;
            if ((w = bfs_unquote(&s, w)) == NULL)
                return bad(l, "field %zu: the quoted string does not end",
                           k + 1);
            if (*s && *s != ' ' && *s != '\t')
                return bad(l, "field %zu: text after the closing quote", k + 1);
            *w = '\0';
            if (*s)
                s++;
        } else {
            l->f[k] = s;
            s += strcspn(s, " \t");
            if (*s)
                *s++ = '\0';
        }
        k++;
    }
    *n = k;
    return 0;
}

/* Field i as an integer in lo..hi. */
static int number(struct lsf *l, size_t i, const char *name, int64_t lo,
                  int64_t hi, int64_t *v)
{
    if (bfs_parse_i64(l->f[i], v) != 0 || *v < lo || *v > hi)
        return bad(l,
                   "field %zu (%s) is not a number in %" PRId64 "..%" PRId64
                   ": '%.40s'",
                   i + 1, name, lo, hi, l->f[i]);
    return 0;
}

static int job_finish(struct lsf *l, size_t nf)
{
    struct import_acct_report *rep = l->a.rep;
    int64_t end, start, job, asked, nex;
    size_t at, off;
    int rc;

    if (nf <= F_NUM_ASKED)
        return bad(l,
                   "JOB_FINISH with %zu fields: numAskedHosts (field "
                   "%d) missing",
                   nf, F_NUM_ASKED + 1);
    if ((rc = number(l, F_EVENT_TIME, "Event Time", 1, BFS_TIME_MAX, &end)) ||
        (rc = number(l, F_JOB_ID, "jobId", 0, INT64_MAX, &job)) ||
        (rc = number(l, F_START_TIME, "startTime", 0, BFS_TIME_MAX, &start)) ||
        (rc = number(l, F_NUM_ASKED, "numAskedHosts", 0, (int64_t)nf, &asked)))
        return rc;
    at = F_NUM_ASKED + 1 + (size_t)asked;
    if (at >= nf)
        return bad(l, "JOB_FINISH ends before numExHosts (field %zu)", at + 1);
    if ((rc = number(l, at, "numExHosts", 0, (int64_t)(nf - at - 1), &nex)))
        return rc;
    if (!rep->version[0])
        snprintf(rep->version, sizeof rep->version, "%s", l->f[F_VERSION]);
    acct_saw(&l->a, end);
    if (start == 0) {
        rep->never_ran++;
        return 0;
    }
    /* Every entry is checked before any host is added. */
    for (int add = 0; add < 2; add++) {
        off = acct_hosts_begin(&l->a);
        for (size_t k = 0; k < (size_t)nex; k++) {
            const char *h = l->f[at + 1 + k], *star = strchr(h, '*');
            int64_t slots = 1;
            if (star) {
                char num[24];
                size_t len = (size_t)(star - h);
                snprintf(num, sizeof num, "%.*s", (int)(len < 23 ? len : 23),
                         h);
                if (len > 22 || bfs_parse_i64(num, &slots) != 0 || slots < 1)
                    return bad(l,
                               "execHosts entry '%.60s' is not HOST or "
                               "COUNT*HOST",
                               h);
                h = star + 1;
            }
            if (!*h || strpbrk(h, " \t"))
                return bad(l, "execHosts entry %zu is an empty or blank name",
                           k + 1);
            if (add) {
                rep->slots += (size_t)slots;
                acct_host(&l->a, off, h, strlen(h));
            }
        }
    }
    acct_run_add(&l->a, start, end, off, 0);
    return 0;
}

/* One record (an acct_record_fn). */
static int record(void *arg, char *line)
{
    struct lsf *l = arg;
    size_t nf = 0;
    int rc;

    if ((rc = split(l, line, &nf)) != 0)
        return rc;
    if (strcmp(l->f[0], "JOB_FINISH") != 0) {
        acct_skip_kind(&l->a, l->f[0], strlen(l->f[0]));
        return 0;
    }
    return job_finish(l, nf);
}

int import_lsf(const char *const *src, size_t n, const char *out_path,
               const char *const *comments, const struct import_log_opts *o,
               struct import_stats *st, struct import_acct_report *rep,
               struct bfs_error *e)
{
    struct import_acct_report r;
    struct lsf l;
    const char *extra[] = {"times: Unix seconds (lsb.acct); a run is "
                           "startTime .. the JOB_FINISH event time",
                           "nodes: execHosts, one node per host named", NULL};
    int rc;

    memset(&r, 0, sizeof r);
    memset(&l, 0, sizeof l);
    snprintf(r.log.format, sizeof r.log.format, "lsf");
    acct_init(&l.a, o, &r);
    if ((rc = import_log_check_opts(o, e)) == 0)
        rc = acct_import(&l.a, src, n, record, &l, "LSF", out_path, comments,
                         extra, st, rep, e);
    xfree(l.f);
    acct_release(&l.a);
    return rc;
}
