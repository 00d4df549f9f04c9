/* work.c - workers that share one sweep, and the order they claim runs
 * in (sweep.h).
 *
 * Workers (sweep_work) claim runs through claim files instead of the
 * lock (sweep/claim.c says how), in the order sweep_order gives:
 * decreasing expected cost, a product of per-option factors, ties in
 * expansion order.  A worker loop is sweep_exec's with three more
 * phases: heartbeats (every lease/3 s, each also noticing a claim taken
 * over), a scan that claims pending and stale runs into free slots (runs
 * found complete or given up are remembered, so a scan near the end reads
 * only the runs still held), and the end test: nothing running here,
 * nothing claimable, nothing held by a live worker.  A claim taken over
 * may belong to a worker that is only stalled, whose replay still writes:
 * so each attempt writes under names of its own (NAME.claimN.HOST.PID,
 * and the replay's temporary files beside them) and renames them to the
 * run's names when its replay ends, unless it lost its claim meanwhile;
 * a worker removes another attempt's files only once that attempt's
 * worker is gone (dead on this host, or silent past the lease on
 * another), and a worker that lost its claim ends it "lost" and removes
 * its own.  A complete run whose last claim is open and stale (its
 * worker died between the replay's end and the claim's end) is
 * reconciled, not run again: the next claim ends "done ... reconciled";
 * so is a run whose dead attempt left whole outputs under its own names.
 */
#include "config.h"

#include "sweep/sweep.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "engine/options.h"
#include "sweep/claim.h"
#include "sweep/sweep_impl.h"

/* ---- claim order --------------------------------------------------------- */

/* The value of key `name` in run r, or NULL (no such key, or a flag). */
static const char *run_arg(const struct sweep *s, size_t r, const char *name)
{
    size_t k = find_key(s, name);
    const struct sweep_value *v;

    if (k == (size_t)-1)
        return NULL;
    v = run_value(s, r, k);
    return v->kind == SWEEP_ARG ? v->text : NULL;
}

double sweep_cost(const struct sweep *s, size_t r)
{
    const char *alloc = run_arg(s, r, "allocator");
    const char *model = run_arg(s, r, "model");
    const char *nodes = run_arg(s, r, "nodes");
    const char *start = run_arg(s, r, "start");
    const char *end = run_arg(s, r, "end");
    const char *jobs = run_arg(s, r, "jobs");
    double w = 1;
    size_t skip, count;
    int64_t t0, t1;

    if (alloc && strcmp(alloc, "dp") == 0)
        w = 10;
    else if (alloc && strcmp(alloc, "milp") == 0)
        w = model && strcmp(model, "node") == 0 ? 1000 : 100;
    if (nodes && options_parse_nodes(nodes, &skip, &count) == 0 && count > 0)
        w *= (double)count;
    if (start && end && bfs_time_parse(start, &t0) == 0 &&
        bfs_time_parse(end, &t1) == 0 && t1 > t0)
        w *= (double)(t1 - t0);
    if (jobs) {
        char *p = xmalloc(strlen(s->dir) + strlen(jobs) + 2);
        struct stat st;
        if (jobs[0] == '/')
            strcpy(p, jobs);
        else
            sprintf(p, "%s/%s", s->dir, jobs);
        if (stat(p, &st) == 0 && st.st_size > 0)
            w *= (double)st.st_size;
        xfree(p);
    }
    return w;
}

static const double *order_cost;

static int cmp_cost(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;

    if (order_cost[x] != order_cost[y])
        return order_cost[x] > order_cost[y] ? -1 : 1;
    return x < y ? -1 : x > y; /* ties: expansion order */
}

void sweep_order(const struct sweep *s, size_t *order)
{
    double *cost = xcalloc(s->n_runs + 1, sizeof *cost);

    for (size_t r = 0; r < s->n_runs; r++) {
        order[r] = r;
        cost[r] = sweep_cost(s, r);
    }
    order_cost = cost;
    qsort(order, s->n_runs, sizeof *order, cmp_cost);
    order_cost = NULL;
    xfree(cost);
}

/* ---- workers ------------------------------------------------------------- */

/* How run r's attempt in sl ended, for its claim's end line. */
static enum claim_end attempt_end(const struct slot *sl, int st, int complete,
                                  int stopping)
{
    if (sl->lost)
        return CLAIM_LOST;
    if (complete && WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return CLAIM_DONE;
    if (stopping && ((WIFEXITED(st) && WEXITSTATUS(st) == 130) ||
                     (WIFSIGNALED(st) &&
                      (WTERMSIG(st) == SIGINT || WTERMSIG(st) == SIGTERM))))
        return CLAIM_STOPPED;
    return CLAIM_FAILED;
}

/* Ends the attempt in sl, whose replay ended with wait status st, and
 * returns how: a claim taken over meanwhile ends "lost", its files
 * removed, not published; else the attempt's log takes the run's name,
 * and so do its outputs when they complete the run or the run is not
 * complete (a partial or failed run's outputs never replace a complete
 * one's); then what is left of it goes (the temporary files of a replay
 * killed outright), after a done attempt the leftovers of earlier ones
 * whose workers are gone too, and the claim gets its end line. */
static enum claim_end attempt_close(const struct sweep *s,
                                    const struct sweep_exec *x, struct slot *sl,
                                    int st, int stopping, double secs)
{
    char *dir = sweep_run_dir(s, sl->run, x->outdir);
    enum claim_end end = CLAIM_LOST;

    if (claim_superseded(dir, sl->gen))
        sl->lost = 1;
    if (!sl->lost) {
        char *sum = attempt_path(dir, "summary.json", sl->tag);
        int outputs;

        end = attempt_end(sl, st, complete_at(sum), stopping);
        outputs =
            end == CLAIM_DONE || !sweep_run_complete(s, sl->run, x->outdir);
        if (attempt_publish(dir, sl->tag, outputs, NULL) != 0 &&
            end == CLAIM_DONE)
            end = CLAIM_FAILED;
        /* taken over while it published: the run is the next claim's */
        if (claim_superseded(dir, sl->gen))
            end = CLAIM_LOST;
        xfree(sum);
    }
    remove_attempts(dir, sl->gen, 0, 0);
    if (end == CLAIM_DONE)
        remove_attempts(dir, -1, sl->gen, x->lease);
    claim_finish(dir, sl->gen, end, secs, NULL);
    xfree(dir);
    return end;
}

/* Whether the open, stale claim c of the run in dir left the run's
 * outputs whole under its attempt's names (its replay completed the run,
 * and its worker died before renaming them), and that worker is not live:
 * then they can be taken as the run's. */
static int salvageable(const char *dir, const struct claim_info *c,
                       double lease, double now)
{
    char tag[320], *sum, *h5;
    struct stat st;
    int ok;

    if (claim_holder_live(c, lease, now))
        return 0;
    attempt_tag(tag, sizeof tag, c->gen, c->host, c->pid);
    sum = attempt_path(dir, "summary.json", tag);
    h5 = attempt_path(dir, "run.h5", tag);
    ok = complete_at(sum) && stat(h5, &st) == 0 && S_ISREG(st.st_mode);
    xfree(h5);
    xfree(sum);
    return ok;
}

/* Reconciles run r, whose last claim c is open and stale: the run is
 * complete, or (salvage) c's attempt left its outputs whole under its
 * own names.  Takes claim c->gen + 1 (exclusively, as a takeover),
 * renames the outputs (salvage), removes the leftovers of the attempts
 * before it whose workers are gone, and ends the new claim "done ...
 * reconciled" with the seconds c's replay ran (from c's start to the
 * summary's mtime): the run is done once and not run again, and c, its
 * worker dead, is never written by anyone else.  Returns 0, 1 when
 * another worker took claim c->gen + 1 first, or a negative BFS_E* code
 * (in e). */
static int reconcile(size_t r, const struct sweep_exec *x, const char *dir,
                     const struct claim_info *c, const char *host, int salvage,
                     struct bfs_error *e)
{
    int gen = c->gen + 1, rc;
    double secs = 0;
    struct stat st;
    char *sum;

    rc = claim_take(dir, gen, host, (long)getpid(), claim_now(), e);
    if (rc)
        return rc;
    if (salvage) {
        char tag[320];
        attempt_tag(tag, sizeof tag, c->gen, c->host, c->pid);
        if ((rc = attempt_publish(dir, tag, 1, e)) != 0) {
            claim_finish(dir, gen, CLAIM_STOPPED, 0, NULL);
            return rc;
        }
    }
    sum = attempt_path(dir, "summary.json", NULL);
    if (stat(sum, &st) == 0)
        secs = fmax(0, (double)st.st_mtim.tv_sec +
                           (double)st.st_mtim.tv_nsec * 1e-9 - c->start);
    xfree(sum);
    remove_attempts(dir, -1, gen, x->lease);
    if ((rc = claim_reconciled(dir, gen, secs, e)) != 0)
        return rc;
    if (x->reconciled)
        x->reconciled(x->arg, r, c->gen);
    return 0;
}

/* Takes run r, pending or stale (c its last claim), into the free slot sl
 * and starts it.  Returns 0 (started, or the claim was taken over while
 * starting: ended "lost"), 1 when another worker claimed it first, or a
 * negative BFS_E* code (in e). */
static int work_take(const struct sweep *s, size_t r,
                     const struct sweep_exec *x, const sigset_t *child_mask,
                     const char *dir, const struct claim_info *c,
                     const char *host, struct slot *sl, int *running,
                     struct bfs_error *e)
{
    int gen = c->gen + 1, stale = c->gen >= 0 && c->end == CLAIM_OPEN, rc;

    rc = make_dirs(dir, e);
    if (rc == 0)
        rc = claim_take(dir, gen, host, (long)getpid(), claim_now(), e);
    if (rc)
        return rc;
    if (x->claimed)
        x->claimed(x->arg, r, gen, stale);
    /* what the attempts before left, unless their workers may live */
    remove_attempts(dir, -1, gen, x->lease);
    attempt_tag(sl->tag, sizeof sl->tag, gen, host, (long)getpid());
    sl->gen = gen;
    sl->lost = 0;
    rc = launch(s, r, x, child_mask, 0, sl, NULL, 0, e);
    if (rc == 0) {
        (*running)++;
        return 0;
    }
    /* a worker stalled here past the lease may find its files gone: its
     * claim was taken over, which is no error */
    remove_attempts(dir, gen, 0, 0);
    if (claim_superseded(dir, gen)) {
        claim_finish(dir, gen, CLAIM_LOST, 0, NULL);
        return 0;
    }
    claim_finish(dir, gen, CLAIM_STOPPED, 0, NULL);
    return rc;
}

/* One look at every run in claim order: claims what it can into free
 * slots, reconciles complete runs left with an open stale claim, and
 * names runs given up (once: they are settled).  Returns 0 and sets *live
 * to the runs that other workers hold with a fresh heartbeat or that are
 * still to do, or a negative BFS_E* code. */
static int work_scan(const struct sweep *s, const size_t *order, size_t n,
                     const struct sweep_exec *x, const sigset_t *child_mask,
                     struct slot *slots, int jobs, int *running,
                     unsigned char *settled, const char *host,
                     struct sweep_work_result *res, size_t *live,
                     struct bfs_error *e)
{
    int rc = 0;

    *live = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        size_t r = order[i];
        struct claim_info c;
        enum claim_state st;
        char *dir;
        /* >= 0: reconcile, 1 from the dead attempt's own files */
        int mine = 0, free_slot = -1, complete, salvage = -1;
        double now;

        if (settled[r])
            continue;
        for (int k = 0; k < jobs; k++) {
            if (slots[k].pid > 0 && slots[k].run == r)
                mine = 1;
            if (slots[k].pid == 0 && free_slot < 0)
                free_slot = k;
        }
        if (mine)
            continue;
        complete = sweep_run_complete(s, r, x->outdir);
        dir = sweep_run_dir(s, r, x->outdir);
        if ((rc = claim_read(dir, &c, e)) != 0) {
            xfree(dir);
            break;
        }
        now = claim_now();
        st = claim_state_of(&c, x->lease, x->retries, now);
        if (complete && c.gen >= 0 && c.end == CLAIM_OPEN) {
            /* its worker ends the claim, or died before it could */
            if (now - c.beat <= x->lease)
                (*live)++;
            else
                salvage = 0;
        } else if (complete) {
            settled[r] = 1;
            res->n_complete++;
        } else if (st == CLAIM_GAVE_UP) {
            settled[r] = 2;
            res->n_failed++;
            if (x->gave_up)
                x->gave_up(x->arg, r, c.n_failed);
        } else if (st == CLAIM_RUNNING) {
            (*live)++;
        } else if (st == CLAIM_STALE && salvageable(dir, &c, x->lease, now)) {
            salvage = 1;
        } else if (free_slot >= 0 && !(x->stop && *x->stop)) {
            /* pending, or stale: the next claim number, exclusively */
            rc = work_take(s, r, x, child_mask, dir, &c, host,
                           &slots[free_slot], running, e);
            if (rc == 1) { /* another worker was first: it runs */
                rc = 0;
                (*live)++;
            }
        } else {
            (*live)++; /* claimable, but no slot: still to do */
        }
        if (salvage >= 0) {
            rc = reconcile(r, x, dir, &c, host, salvage, e);
            if (rc == 1) { /* another worker was first */
                rc = 0;
                (*live)++;
            } else if (rc == 0) {
                settled[r] = 1;
                res->n_complete++;
            }
        }
        xfree(dir);
    }
    return rc;
}

int sweep_work(const struct sweep *s, const size_t *order, size_t n,
               const struct sweep_exec *x, struct sweep_work_result *res,
               struct bfs_error *e)
{
    int jobs = x->jobs > 0 ? x->jobs : 1;
    struct slot *slots = xcalloc((size_t)jobs, sizeof *slots);
    unsigned char *settled = xcalloc(s->n_runs + 1, 1);
    sigset_t block, old, chld, window;
    const struct timespec tick = {0, 100000000};
    double beat = x->lease / 3, next_beat = 0, next_scan = 0;
    char host[256];
    int running = 0, forwarded = 0, rc = 0, rescan = 1;

    memset(res, 0, sizeof *res);
    claim_host(host, sizeof host);
    block_signals(&block, &old, &chld, &window);

    for (;;) {
        int stopping = x->stop && *x->stop, st;
        double now;
        pid_t pid;

        while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
            for (int i = 0; i < jobs; i++) {
                struct slot *sl = &slots[i];
                enum claim_end end;
                double secs;

                if (sl->pid != pid)
                    continue;
                sl->pid = 0;
                running--;
                secs = bfs_now() - sl->t0;
                /* a lost claim's end too: the record shows how long the
                 * replay ran on after the takeover */
                end = attempt_close(s, x, sl, st, stopping, secs);
                if (end == CLAIM_DONE)
                    res->n_ran++;
                if (x->done && end != CLAIM_LOST)
                    x->done(x->arg, sl->run, st,
                            sweep_run_complete(s, sl->run, x->outdir), secs);
                rescan = 1;
                break;
            }
        }
        sigprocmask(SIG_SETMASK, &window, NULL);
        sigprocmask(SIG_BLOCK, &block, NULL);
        stopping = x->stop && *x->stop;
        if (stopping && !forwarded) {
            for (int i = 0; i < jobs; i++)
                if (slots[i].pid > 0)
                    kill(-slots[i].pid, SIGINT);
            forwarded = 1;
        }
        now = bfs_now();
        if (now >= next_beat) {
            for (int i = 0; i < jobs; i++) {
                struct slot *sl = &slots[i];
                char *dir;
                if (sl->pid <= 0 || sl->lost)
                    continue;
                dir = sweep_run_dir(s, sl->run, x->outdir);
                if (claim_beat(dir, sl->gen, NULL) == 1) {
                    /* taken over: this worker was thought dead */
                    sl->lost = 1;
                    kill(-sl->pid, SIGKILL);
                }
                xfree(dir);
            }
            next_beat = now + beat;
        }
        if (stopping) {
            if (running == 0)
                break;
        } else if (running < jobs && (rescan || now >= next_scan)) {
            size_t live = 0;
            res->n_complete = res->n_failed = 0;
            for (size_t r = 0; r < s->n_runs; r++) {
                res->n_complete += settled[r] == 1;
                res->n_failed += settled[r] == 2;
            }
            rc = work_scan(s, order, n, x, &old, slots, jobs, &running, settled,
                           host, res, &live, e);
            if (rc)
                break;
            /* Slots free and nothing to claim: look again soon, so that
             * the sweep's end (or a run given back) is seen at once; a
             * scan skips the runs known complete, so near the end it
             * reads only the few still held. */
            rescan = 0;
            next_scan = now + (beat < 0.5 ? beat : 0.5);
            if (running == 0 && live == 0)
                break; /* nothing pending, nothing held by a live worker */
        }
        sigtimedwait(&chld, NULL, &tick);
    }
    /* on an error, the runs started are stopped and waited for */
    for (int i = 0; rc && i < jobs; i++)
        if (slots[i].pid > 0)
            kill(-slots[i].pid, SIGINT);
    while (running > 0) {
        int st;
        pid_t pid = waitpid(-1, &st, 0);
        if (pid < 0)
            break;
        for (int i = 0; i < jobs; i++)
            if (slots[i].pid == pid) {
                slots[i].pid = 0;
                running--;
                if (attempt_close(s, x, &slots[i], st, 1,
                                  bfs_now() - slots[i].t0) == CLAIM_DONE)
                    res->n_ran++;
            }
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    xfree(settled);
    xfree(slots);
    return rc;
}
