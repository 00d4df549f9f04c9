/* claim.h - claims of sweep runs by workers on a shared file system.
 *
 * A run's claims are the files claim.0, claim.1, ... in its directory
 * (OUT/runs/ID/), each created exclusively (link-then-stat, see claim.c)
 * by the worker that runs the run for that attempt; the highest number is
 * the current claim.  A claim holds "host", "pid" and "start" lines; its
 * mtime is the worker's heartbeat; the worker appends one "end" line when
 * the attempt ends.  Claims are never removed or rewritten by anyone but
 * their owner, so the files are also the journal of who ran what when:
 * a claim left open by a worker that died stays open, and the next claim
 * (a takeover, or a reconciliation when the dead attempt had completed
 * the run) says what became of the run.
 */
#ifndef BFS_CLAIM_H
#define BFS_CLAIM_H

#include <stddef.h>

#include "base/error.h"

/* How an attempt ended (its "end" line), or CLAIM_OPEN while it runs. */
enum claim_end {
    CLAIM_OPEN,    /* no end line: running, or its worker died */
    CLAIM_DONE,    /* the replay exited 0 */
    CLAIM_FAILED,  /* the replay failed: counts against --retries */
    CLAIM_STOPPED, /* the worker was stopped (SIGINT/SIGTERM): pending */
    CLAIM_LOST     /* the claim was taken over while it ran: pending */
};

/* What a run's claims say about it (completeness comes from its summary,
 * which claim.c does not read). */
enum claim_state {
    CLAIM_PENDING,  /* no claim, or the last attempt ended and may retry */
    CLAIM_RUNNING,  /* last claim open and its heartbeat within the lease */
    CLAIM_STALE,    /* last claim open and its heartbeat older: take over */
    CLAIM_GAVE_UP,  /* more than retries attempts failed */
    CLAIM_COMPLETED /* the caller found the run complete */
};

/* The current (last) claim of a run. */
struct claim_info {
    int gen;        /* its number N (claim.N); -1: no claim */
    char host[256]; /* the worker's host name */
    long pid;       /* the worker's pid */
    double start;   /* when it was made (seconds since the epoch) */
    double beat;    /* its mtime: the last heartbeat (same clock) */
    enum claim_end end;
    double seconds; /* the replay's wall time (ended claims) */
    int reconciled; /* ended "done ... reconciled" (claim_reconciled) */
    int n_failed;   /* CLAIM_FAILED ends among all the run's claims */
};

/* Seconds since the epoch (CLOCK_REALTIME), the clock of the claims. */
double claim_now(void);

/* Reads the claims in dir into *out.  Returns 0 (gen -1 when there is
 * none or dir does not exist), or BFS_EIO / BFS_EPARSE for a claim that
 * cannot be read or is malformed (in e). */
int claim_read(const char *dir, struct claim_info *out, struct bfs_error *e);

/* Reads dir/claim.GEN alone into *out (n_failed 0).  Returns 0 (out->gen
 * -1 when there is no such claim), or BFS_EIO / BFS_EPARSE (in e). */
int claim_read_one(const char *dir, int gen, struct claim_info *out,
                   struct bfs_error *e);

/* The state of a run from its claims: lease in seconds, retries the
 * failed attempts allowed after the first, now from claim_now(). */
enum claim_state claim_state_of(const struct claim_info *c, double lease,
                                int retries, double now);

/* Creates the file path holding text, exclusively, by the claims'
 * link-then-stat (claim.c): text goes to a new file beside path, named
 * after this host, pid and call, which is link()ed to path.  Returns 0
 * when this call created path, 1 when it existed already, or BFS_EIO (in
 * e); the file beside it is removed either way. */
int claim_create(const char *path, const char *text, struct bfs_error *e);

/* Creates dir/claim.GEN exclusively (claim_create), holding host, pid and
 * now.  Returns 0 when this call created it, 1 when it exists already
 * (another worker won), or BFS_EIO (in e). */
int claim_take(const char *dir, int gen, const char *host, long pid, double now,
               struct bfs_error *e);

/* 1 when dir/claim.GEN+1 exists: claim.GEN was taken over (or its run
 * reconciled) and is no longer its run's current claim; else 0. */
int claim_superseded(const char *dir, int gen);

/* Whether the worker of claim c may still be running it: c is open and
 * its worker is a live process on this host (kill(pid, 0)), or, on
 * another host, where no process can be looked at, its heartbeat is
 * within the lease.  A stale claim of a worker alive on this host (a
 * stopped one) is live: taken over, but its files are its own. */
int claim_holder_live(const struct claim_info *c, double lease, double now);

/* The heartbeat: sets dir/claim.GEN's mtime to now.  Returns 0, or 1
 * when the claim was taken over (dir/claim.GEN+1 exists: the run is
 * someone else's now), or BFS_EIO. */
int claim_beat(const char *dir, int gen, struct bfs_error *e);

/* Appends "end TIME STATUS SECONDS" to dir/claim.GEN.  Returns 0 or
 * BFS_EIO. */
int claim_finish(const char *dir, int gen, enum claim_end end, double seconds,
                 struct bfs_error *e);

/* Appends "end TIME done SECONDS reconciled" to dir/claim.GEN, the claim
 * a worker took to record a run completed by the attempt before it, whose
 * worker died before it could end its claim; SECONDS is that attempt's
 * replay's.  Readers that know no "reconciled" read a done claim.
 * Returns 0 or BFS_EIO. */
int claim_reconciled(const char *dir, int gen, double seconds,
                     struct bfs_error *e);

/* "done", "failed", "stopped", "lost" or "open". */
const char *claim_end_name(enum claim_end end);

/* This machine's host name (at most size - 1 bytes; "localhost" if it
 * has none). */
void claim_host(char *buf, size_t size);

#endif
