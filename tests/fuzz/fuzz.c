/* fuzz.c - libFuzzer targets, one per input reader, chosen at compile
 * time by FUZZ_<NAME> (tests/local.mk builds each under --enable-fuzzing).
 *
 * Each target writes the input to files in a per-process temporary
 * directory, because the readers take paths (and read through zlib, so
 * gzip input is fuzzed too), then runs the reader as bfsim would.  A
 * reader may reject the input with an error: only a crash, a leak or an
 * undefined-behaviour report is a finding.  Inputs of several files are
 * split at NUL bytes (which every reader refuses inside a file anyway).
 * Outputs of the converters are removed after each input.  SWF and Slurm
 * logs are converted twice, the second time with node types (SWF
 * partitions, Slurm's Partition column), so that one corpus reaches both
 * paths.  A mapping file's type rule is its first byte modulo 4.  PBS
 * and LSF inputs are two files read together, converted twice (the
 * second time with --skip-bad, and a zone or a machine size).
 */
#include "config.h"

#include "alloc/instance.h"
#include "base/util.h"
#include "formats/hostlist.h"
#include "import/import.h"
#include "formats/jobs.h"
#include "formats/nodetypes.h"
#include "formats/trace.h"
#include "sweep/sweep.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

static void cleanup(void)
{
    static const char *const names[] = {
        "in.trace", "bnd.csv",         "long.csv",  "in.jobs",
        "in.log",   "out.trace",       "nodes.csv", "rows.csv",
        "in.json",  "transitions.csv", "in.map"};
    char p[256];

    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[k]);
        unlink(p);
    }
    rmdir(dir);
}

/* DIR/name holding data[0..n-1]; returns the path (static buffer k). */
static const char *put(int k, const char *name, const uint8_t *data, size_t n)
{
    static char paths[4][128];
    FILE *f;

    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/bfsim-fuzz.%ld", (long)getpid());
        mkdir(dir, 0700);
        atexit(cleanup);
    }
    snprintf(paths[k], sizeof paths[k], "%s/%s", dir, name);
    f = fopen(paths[k], "wb");
    if (!f)
        abort();
    if (n && fwrite(data, 1, n, f) != n)
        abort();
    fclose(f);
    return paths[k];
}

/* Splits data at the first NUL byte: *n1 bytes, then the rest. */
static const uint8_t *split(const uint8_t *data, size_t size, size_t *n1)
{
    const uint8_t *z = memchr(data, 0, size);

    *n1 = z ? (size_t)(z - data) : size;
    return z ? z + 1 : data + size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct bfs_error e;

    bfs_error_clear(&e);
#if defined(FUZZ_TRACE)
    {
        struct trace_reader *r;
        struct trace_event ev;
        if (trace_open(put(0, "in.trace", data, size), &r, &e) == 0) {
            /* The type table must be whole: a name for every type, and
             * every node's type one of them. */
            for (size_t t = 0; t < trace_type_count(r); t++)
                if (!trace_type_name(r, t)[0])
                    abort();
            for (size_t i = 0; i < trace_node_count(r); i++)
                if (trace_node_type(r, i) >=
                    (trace_type_count(r) ? trace_type_count(r) : 1))
                    abort();
            while (trace_next(r, &ev, &e) == 1)
                ;
            trace_close(r);
        }
    }
#elif defined(FUZZ_JOBS) || defined(FUZZ_PAIR)
    {
        struct jobset js;
        const char *a, *b = NULL;
#if defined(FUZZ_PAIR)
        size_t n1;
        const uint8_t *rest = split(data, size, &n1);
        a = put(0, "bnd.csv", data, n1);
        b = put(1, "long.csv", rest, size - (size_t)(rest - data));
#else
        a = put(0, "in.jobs", data, size);
#endif
        if (jobset_load(a, b, &js, &e) == 0) {
            /* The tables of every type of every small job (node types). */
            double p[65], o[65];
            for (size_t i = 0; i < js.n; i++) {
                const struct job *d = &js.jobs[i];
                if (d->jmax > 64)
                    continue;
                for (size_t k = 0; k <= d->n_types; k++)
                    for (int obj = 0; obj < JOB_N_OBJECTIVES; obj++)
                        job_type_tables(d, k ? d->types[k - 1].type : NULL, obj,
                                        p, o, a, &e);
            }
            jobset_release(&js);
        }
    }
#elif defined(FUZZ_SWF) || defined(FUZZ_SLURM)
    {
        struct import_log_opts o;
        char out[128];
        const char *in = put(0, "in.log", data, size);
        import_log_opts_init(&o);
        o.max_nodes = 4096; /* keep each input fast */
        snprintf(out, sizeof out, "%s/out.trace", dir);
#if defined(FUZZ_SWF)
        import_swf(in, out, NULL, &o, NULL, NULL, &e);
        unlink(out);
        bfs_error_clear(&e);
        o.partition_nodes = "1=3,2=2:8,3=1";
        import_swf(in, out, NULL, &o, NULL, NULL, &e);
#else
        import_slurm(in, out, NULL, &o, NULL, NULL, &e);
        unlink(out);
        bfs_error_clear(&e);
        o.types_from_partition = 1;
        import_slurm(in, out, NULL, &o, NULL, NULL, &e);
#endif
        unlink(out);
    }
#elif defined(FUZZ_BATSIM) || defined(FUZZ_BATSIM_EVENTS)
    {
        struct import_log_opts o;
        char out[128];
        import_log_opts_init(&o);
        o.max_nodes = 4096; /* keep each input fast */
        snprintf(out, sizeof out, "%s/out.trace", dir);
#if defined(FUZZ_BATSIM)
        import_batsim(put(0, "in.log", data, size), NULL, out, NULL, &o, NULL,
                      NULL, &e);
#else
        import_batsim(NULL, put(0, "in.json", data, size), out, NULL, &o, NULL,
                      NULL, &e);
#endif
        unlink(out);
    }
#elif defined(FUZZ_ELASTISIM)
    {
        struct import_log_opts o;
        char out[128];
        import_log_opts_init(&o);
        o.max_nodes = 4096;
        snprintf(out, sizeof out, "%s/out.trace", dir);
        import_elastisim(put(0, "in.log", data, size), out, NULL, &o, NULL,
                         NULL, &e);
        unlink(out);
    }
#elif defined(FUZZ_PBS) || defined(FUZZ_LSF)
    {
        /* Two daily files (split at a NUL byte), read together; then
         * again skipping malformed records, so that both paths run. */
        struct import_log_opts o;
        char out[128];
        size_t n1;
        const uint8_t *rest = split(data, size, &n1);
        const char *in[2];
        in[0] = put(0, "in.log", data, n1);
        in[1] = put(1, "in.json", rest, size - (size_t)(rest - data));
        import_log_opts_init(&o);
        o.max_nodes = 4096;
        snprintf(out, sizeof out, "%s/out.trace", dir);
        for (int pass = 0; pass < 2; pass++) {
            o.skip_bad = pass;
#if defined(FUZZ_PBS)
            o.tz = pass ? "+05:30" : NULL;
            import_pbs(in, 2, out, NULL, &o, NULL, NULL, &e);
#else
            o.machine_nodes = pass ? 64 : 0;
            import_lsf(in, 2, out, NULL, &o, NULL, NULL, &e);
#endif
            unlink(out);
            bfs_error_clear(&e);
        }
    }
#elif defined(FUZZ_HOSTLIST)
    {
        struct hostlist h;
        char *s = xmalloc(size + 1);
        memcpy(s, data, size);
        s[size] = '\0';
        hostlist_init(&h);
        hostlist_expand(&h, s, 4096, "--max-nodes", NULL, 0, &e);
        hostlist_sort(&h);
        hostlist_release(&h);
        free(s);
    }
#elif defined(FUZZ_EXPORT)
    {
        static const char *const names[3] = {"nodes.csv", "rows.csv",
                                             "transitions.csv"};
        const uint8_t *p = data, *end = data + size;
        char out[128];
        for (int k = 0; k < 3; k++) {
            size_t n1;
            const uint8_t *rest = split(p, (size_t)(end - p), &n1);
            put(k, names[k], p, n1);
            p = rest;
        }
        snprintf(out, sizeof out, "%s/out.trace", dir);
        import_bftrainer(dir, out, NULL, NULL, &e);
        unlink(out);
    }
#elif defined(FUZZ_NODETYPES)
    {
        static const char *const names[] = {"n1", "gpu01", "cpu001", "gpu-a01"};
        const char *in = put(0, "in.map", data, size);
        enum nodetypes_rule rule = NODETYPES_RULE_DEFAULT;
        struct nodetypes *m;
        struct nodetypes_table t;
        if (size > 0)
            rule = (enum nodetypes_rule)(data[0] % 4);
        if (nodetypes_load(in, rule, &m, &e) == 0) {
            for (size_t k = 0; k < 4; k++)
                nodetypes_find(m, names[k]);
            if (nodetypes_apply(m, names, 4, &t, &e) == 0)
                nodetypes_table_release(&t);
            nodetypes_free(m);
        }
    }
#elif defined(FUZZ_INSTANCE)
    {
        struct instance in;
        if (instance_read(put(0, "in.json", data, size), &in, &e) == 0)
            instance_release(&in);
    }
#elif defined(FUZZ_SWEEP)
    {
        struct sweep s;
        if (sweep_load(put(0, "in.json", data, size), &s, &e) == 0)
            sweep_release(&s);
    }
#else
#error "define one FUZZ_<NAME>"
#endif
    (void)split;
    (void)put;
    return 0;
}
