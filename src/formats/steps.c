/* steps.c - the step log: one CSV row per processed event, with the
 * published BFTrainer replayer's columns and number formats ("%f"), so
 * that a compatible-mode replay reproduces its log byte for byte. */
#include "config.h"

#include "formats/records.h"

#include <stdio.h>

static int steps_row(void *arg, const struct rec_step *s)
{
    struct rec_text *t = arg;
    char ts[BFS_TIME_LEN];

    fprintf(t->out.fp, "%s,%f,%f,%f,%zu,%zu,%zu,%zu,%zu,%zu,%zu,%zu,%f\n",
            bfs_time_format(s->time, ts), s->thr, s->rate, s->rescost, s->evt,
            s->nleft, s->npre, s->njoin, s->njob, s->npool, s->njrun, s->nnrun,
            s->precost);
    return rec_text_check(t);
}

int steps_open(const char *path, struct rec_sink *sink, struct bfs_error *e)
{
    int rc = rec_text_open(path,
                           "evtTime,Thr,Rate,ReScost,evt,Nleft,Npre,Njoin,nJob,"
                           "nNd,nJrun,nNrun,PreCost\n",
                           sink, e);
    if (rc == 0)
        sink->step = steps_row;
    return rc;
}
