/* check_typed_traces.c - node types through the importers (a sacct log with a
 * node-type file or its Partition column, an SWF log with partitions),
 * gen-trace --types and the per-type lines of bfsim info.  Every input is
 * small and written here, and every expected value is worked out by hand
 * in the comments. */
#include "config.h"

#include "testimport.h"
#include "testutil.h"
#include "formats/gentrace.h"
#include "import/import.h"
#include "formats/nodetypes.h"
#include "formats/trace.h"
#include "formats/traceinfo.h"

#include <string.h>

/* The node types of the trace at path, "NAME:TYPE" blank-separated, and
 * its type table "T0 T1 ..." in numbering order. */
static void read_types(const char *path, char nodes[512], char table[256])
{
    struct trace_reader *r;
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_msg(trace_open(path, &r, &e) == 0, "%s", e.msg);
    nodes[0] = table[0] = '\0';
    for (size_t i = 0; i < trace_node_count(r); i++) {
        size_t n = strlen(nodes);
        ck_assert_uint_lt(trace_node_type(r, i), trace_type_count(r));
        snprintf(nodes + n, 512 - n, "%s%s:%s", i ? " " : "",
                 trace_node_name(r, i),
                 trace_type_name(r, trace_node_type(r, i)));
    }
    for (size_t t = 0; t < trace_type_count(r); t++) {
        size_t n = strlen(table);
        snprintf(table + n, 256 - n, "%s%s", t ? " " : "",
                 trace_type_name(r, t));
    }
    trace_close(r);
}

/* ---- Slurm ------------------------------------------------------------- */

/* sacct --parsable2 with the Partition column; seconds after 10:00:00:
 *
 *   1001 gpu   [0, 1800)    gpu-a01 gpu-a02 (its step is ignored)
 *   1002 batch [600, 3600)  cpu001 cpu002
 *   1003 gpu   [1200, 3000) gpu-v01
 *
 * Nodes in numeric-aware name order: cpu001 cpu002 gpu-a01 gpu-a02
 * gpu-v01. */
static const char sacct[] =
    "JobID|JobName|Partition|State|Start|End|NNodes|NodeList\n"
    "1001|train|gpu|COMPLETED|2024-03-01T10:00:00|2024-03-01T10:30:00|2|"
    "gpu-a[01-02]\n"
    "1001.batch|batch||COMPLETED|2024-03-01T10:00:00|2024-03-01T10:30:00|1|"
    "gpu-a01\n"
    "1002|sim|batch|COMPLETED|2024-03-01T10:10:00|2024-03-01T11:00:00|2|"
    "cpu[001-002]\n"
    "1003|md|gpu|TIMEOUT|2024-03-01T10:20:00|2024-03-01T10:50:00|1|"
    "gpu-v01\n";

/* sinfo -N -h -o '%N %P %f %G' of the machine: one line per node and
 * partition; cpu003 ran no job in the log. */
static const char sinfo[] = "cpu001 batch* ib (null)\n"
                            "cpu002 batch* ib (null)\n"
                            "cpu003 batch* bigmem,ib (null)\n"
                            "gpu-a01 gpu a100,ib gpu:a100:4(S:0-1)\n"
                            "gpu-a01 debug a100,ib gpu:a100:4(S:0-1)\n"
                            "gpu-a02 gpu a100,ib gpu:a100:4(S:0-1)\n"
                            "gpu-v01 gpu v100,ib gpu:v100:8(S:0-1)\n";

/* Converts the log text with the mapping (NULL: none) and options;
 * returns the importer's code, st filled. */
static int slurm(const char *name, const char *log, struct nodetypes *m,
                 const char *opts, const char **out, struct import_stats *st,
                 struct bfs_error *e)
{
    struct import_log_opts o;
    char buf[64];

    snprintf(buf, sizeof buf, "%s.trace", name);
    *out = tu_tmp(buf);
    snprintf(buf, sizeof buf, "%s.txt", name);
    tu_import_opts(opts, &o);
    o.node_types = m;
    bfs_error_clear(e);
    return import_slurm(tu_write(buf, log), *out, NULL, &o, st, NULL, e);
}

START_TEST(test_slurm_node_types_file)
{
    struct nodetypes *m;
    struct import_stats st;
    struct bfs_error e;
    const char *out;
    char nodes[512], table[256];

    bfs_error_clear(&e);
    ck_assert_int_eq(nodetypes_load(tu_write("sinfo.txt", sinfo),
                                    NODETYPES_RULE_DEFAULT, &m, &e),
                     0);
    ck_assert_msg(slurm("s1", sacct, m, NULL, &out, &st, &e) == 0, "%s", e.msg);
    /* GRES types; cpu003 of the file is not in the trace. */
    read_types(out, nodes, table);
    ck_assert_str_eq(nodes, "cpu001:none cpu002:none gpu-a01:gpu:a100:4 "
                            "gpu-a02:gpu:a100:4 gpu-v01:gpu:v100:8");
    ck_assert_str_eq(table, "none gpu:a100:4 gpu:v100:8");
    ck_assert_uint_eq(st.types, 3);
    ck_assert_uint_eq(st.types_unused, 1);
    /* The events are those of the untyped conversion. */
    {
        const char *plain;
        struct import_stats s0;
        char *a, *b;
        ck_assert_int_eq(slurm("s0", sacct, NULL, NULL, &plain, &s0, &e), 0);
        ck_assert_uint_eq(s0.types, 0);
        a = tu_trace_text(out, 0, NULL, NULL);
        b = tu_trace_text(plain, 0, NULL, NULL);
        ck_assert_str_eq(a, b);
        free(a);
        free(b);
    }
    nodetypes_free(m);

    /* A mapping that misses gpu-v01: an error, and no trace. */
    ck_assert_int_eq(nodetypes_load(tu_write("part.txt", "gpu-a[01-02] A100\n"
                                                         "cpu[001-004] cpu\n"),
                                    NODETYPES_RULE_DEFAULT, &m, &e),
                     0);
    ck_assert_int_eq(slurm("s2", sacct, m, NULL, &out, &st, &e), BFS_ENOTFOUND);
    ck_assert_msg(strstr(e.msg, "part.txt: node 'gpu-v01' (node 4 of 5) is "
                                "not in the mapping"),
                  "%s", e.msg);
    ck_assert_int_eq(tu_exists(out), 0);
    nodetypes_free(m);
}
END_TEST

START_TEST(test_slurm_partition_column)
{
    struct import_stats st;
    struct bfs_error e;
    const char *out, *nf;
    char nodes[512], table[256], log[2048];

    ck_assert_msg(slurm("p1", sacct, NULL, "", &out, &st, &e) == 0, "%s",
                  e.msg);
    ck_assert_uint_eq(st.types, 0);
    {
        struct import_log_opts o;
        tu_import_opts(NULL, &o);
        o.types_from_partition = 1;
        out = tu_tmp("p2.trace");
        bfs_error_clear(&e);
        ck_assert_msg(import_slurm(tu_write("p2.txt", sacct), out, NULL, &o,
                                   &st, NULL, &e) == 0,
                      "%s", e.msg);
    }
    read_types(out, nodes, table);
    ck_assert_str_eq(nodes, "cpu001:batch cpu002:batch gpu-a01:gpu "
                            "gpu-a02:gpu gpu-v01:gpu");
    ck_assert_str_eq(table, "batch gpu");
    ck_assert_uint_eq(st.types, 2);

    /* Job 1004 on debug uses gpu-a01, which job 1001 (line 2) ran on in
     * gpu. */
    snprintf(log, sizeof log,
             "%s1004|x|debug|COMPLETED|2024-03-01T10:40:00|"
             "2024-03-01T10:45:00|1|gpu-a01\n",
             sacct);
    {
        struct import_log_opts o;
        tu_import_opts(NULL, &o);
        o.types_from_partition = 1;
        bfs_error_clear(&e);
        ck_assert_int_eq(import_slurm(tu_write("p3.txt", log),
                                      tu_tmp("p3.trace"), NULL, &o, &st, NULL,
                                      &e),
                         BFS_EPARSE);
        ck_assert_msg(strstr(e.msg, "p3.txt:6: node 'gpu-a01' has type "
                                    "'debug' here but 'gpu' on line 2"),
                      "%s", e.msg);
        /* A node of --nodes-file no job ran on has no partition. */
        nf = tu_write("nodes.txt", "cpu001\ncpu002\ncpu003\ngpu-a01\n"
                                   "gpu-a02\ngpu-v01\n");
        tu_import_opts(NULL, &o);
        o.nodes_file = nf;
        o.types_from_partition = 1;
        bfs_error_clear(&e);
        ck_assert_int_eq(import_slurm(tu_write("p4.txt", sacct),
                                      tu_tmp("p4.trace"), NULL, &o, &st, NULL,
                                      &e),
                         BFS_EINVAL);
        ck_assert_msg(strstr(e.msg, "node 'cpu003' ran no job"), "%s", e.msg);
        /* No Partition column. */
        bfs_error_clear(&e);
        ck_assert_int_eq(
            import_slurm(tu_write("p5.txt", "JobID|Start|End|NodeList\n"
                                            "1|2024-03-01T10:00:00|"
                                            "2024-03-01T10:30:00|n1\n"),
                         tu_tmp("p5.trace"), NULL, &o, &st, NULL, &e),
            BFS_EPARSE);
        ck_assert_msg(strstr(e.msg, "p5.txt:1: the header has no Partition "
                                    "column"),
                      "%s", e.msg);
    }
}
END_TEST

/* `bfsim convert --node-types`: the option reaches the importer, the
 * header says where the types came from, and a bad mapping fails. */
START_TEST(test_convert_command)
{
    const char *log = tu_write("c.txt", sacct);
    const char *map = tu_write("c-sinfo.txt", sinfo);
    const char *out = tu_tmp("c.trace");
    char args[4096], nodes[512], table[256], *err, *text;

    snprintf(args, sizeof args,
             "convert --from slurm %s -o %s --node-types %s --type-from "
             "features",
             log, out, map);
    ck_assert_int_eq(tu_bfsim_run(args, &err), 0);
    ck_assert_msg(strstr(err, "3 node types"), "%s", err);
    ck_assert_msg(strstr(err, "warning: 1 nodes of the node-type file are "
                              "not in the trace"),
                  "%s", err);
    free(err);
    read_types(out, nodes, table);
    ck_assert_str_eq(nodes, "cpu001:ib cpu002:ib gpu-a01:a100,ib "
                            "gpu-a02:a100,ib gpu-v01:v100,ib");
    text = tu_slurp(out);
    ck_assert_msg(strstr(text, "# node types: from "), "%s", text);
    ck_assert_msg(strstr(text, "(sinfo output, type = features)"), "%s", text);
    free(text);

    /* --type-from partition of sinfo: gpu-a01 is in gpu and debug. */
    snprintf(args, sizeof args,
             "convert --from slurm %s -o %s --node-types %s --type-from "
             "partition",
             log, tu_tmp("c2.trace"), map);
    ck_assert_int_eq(tu_bfsim_run(args, &err), 1);
    ck_assert_msg(strstr(err, "c-sinfo.txt:5: node 'gpu-a01' has type "
                              "'debug' here but 'gpu' on line 4"),
                  "%s", err);
    free(err);
    ck_assert_int_eq(tu_exists(tu_tmp("c2.trace")), 0);
    /* A rule but partition needs a mapping; and not both sources. */
    snprintf(args, sizeof args,
             "convert --from slurm %s -o %s --type-from gres", log,
             tu_tmp("c3.trace"));
    ck_assert_int_eq(tu_bfsim_run(args, &err), 2);
    ck_assert_msg(strstr(err, "--type-from gres needs --node-types"), "%s",
                  err);
    free(err);
    snprintf(args, sizeof args, "convert --from swf %s -o %s --node-types %s",
             log, tu_tmp("c4.trace"), map);
    ck_assert_int_eq(tu_bfsim_run(args, &err), 2);
    ck_assert_msg(strstr(err, "--node-types is not an option of --from swf"),
                  "%s", err);
    free(err);
}
END_TEST

/* The BFTrainer export: three nodes, x0 and x1 typed by a HOSTLIST TYPE
 * file; the whole text is the untyped one with the types added and the
 * types line after the given comments. */
START_TEST(test_bftrainer_typed)
{
    static const char *const comments[] = {"hand-made", NULL};
    const char *dir = tu_dir("bft");
    const char *out = tu_tmp("bft.trace");
    struct nodetypes *m;
    struct import_stats st;
    struct bfs_error e;
    char *text, want[1024];

    tu_write("bft/nodes.csv", "col_idx,node\n0,x0\n1,x1\n2,x2\n");
    tu_write("bft/rows.csv", "row,time,epoch_s,n_idle,n_join_0to1,"
                             "n_leave_1to0\n"
                             "0,1970-01-01 00:16:40,1000,0,0,0\n"
                             "1,1970-01-01 00:17:40,1060,1,1,0\n");
    tu_write("bft/transitions.csv", "row,epoch_s,col_idx,node,new_state\n"
                                    "1,1060,1,x1,1\n");
    bfs_error_clear(&e);
    ck_assert_int_eq(nodetypes_load(tu_write("bft.map", "x[0-1] big\nx2 s\n"),
                                    NODETYPES_RULE_DEFAULT, &m, &e),
                     0);
    ck_assert_msg(import_bftrainer_typed(dir, out, comments, m, &st, &e) == 0,
                  "%s", e.msg);
    ck_assert_uint_eq(st.types, 2);
    ck_assert_uint_eq(st.types_unused, 0);
    text = tu_slurp(out);
    snprintf(want, sizeof want,
             "bfsim-trace 1\n"
             "# hand-made\n"
             "# node types: from %s (HOSTLIST TYPE form)\n"
             "node x0 big\nnode x1 big\nnode x2 s\n"
             "1000\n"
             "1060 +1\n",
             tu_tmp("bft.map"));
    ck_assert_str_eq(text, want);
    free(text);
    nodetypes_free(m);
}
END_TEST

/* ElastiSim names its nodes: a mapping types them, and the header says
 * so among the simulator importers' lines. */
START_TEST(test_elastisim_typed)
{
    const char *in = tu_write("es.csv", "Time,Node,State,Running jobs,"
                                        "Expected jobs\n"
                                        "0,node1,free,,\n"
                                        "0,node0,allocated,[1],\n"
                                        "10,node0,free,,\n");
    const char *out = tu_tmp("es.trace");
    struct import_log_opts o;
    struct nodetypes *m;
    struct import_stats st;
    struct bfs_error e;
    char nodes[512], table[256], *text;

    bfs_error_clear(&e);
    ck_assert_int_eq(nodetypes_load(tu_write("es.map", "node[0-3] k80\n"),
                                    NODETYPES_RULE_DEFAULT, &m, &e),
                     0);
    tu_import_opts(NULL, &o);
    o.node_types = m;
    ck_assert_msg(import_elastisim(in, out, NULL, &o, &st, NULL, &e) == 0, "%s",
                  e.msg);
    read_types(out, nodes, table);
    ck_assert_str_eq(nodes, "node1:k80 node0:k80");
    ck_assert_uint_eq(st.types_unused, 2);
    text = tu_slurp(out);
    ck_assert_msg(strstr(text, "\n# node types: from "), "%s", text);
    free(text);
    nodetypes_free(m);
}
END_TEST

/* ---- SWF partitions ---------------------------------------------------- */

/* MaxProcs / MaxNodes = 4 processors per node.  Jobs (submit = start, no
 * wait; seconds after UnixStartTime):
 *
 *   1 thin (1)  [0, 100)   8 procs: 2 nodes  -> n0 n1
 *   2 fat (2)   [10, 60)  16 procs at 8 per node: 2 nodes -> n4 n5
 *   3 fat (2)   [20, 50)   4 procs: 1 node, no fat node free: dropped,
 *               30 node-seconds lost
 *   4 thin (1)  [30, 70)  12 procs: 3 nodes, 2 free (n2 n3): truncated,
 *               40 node-seconds lost
 *   5 partition 5 and 6 partition -1: not listed, skipped
 *
 * With --partition-nodes thin=4,fat=2:8: thin = n0..n3, fat = n4 n5.
 * Events: 0 +2 +3 +4 +5 (the opening event), 10 -4 -5, 30 -2 -3,
 * 60 +4 +5, 70 +2 +3, 100 +0 +1 (job 3 changes nothing).  Idle
 * node-seconds: 4 x 10 + 2 x 20 + 0 + 2 x 10 + 4 x 30 = 220. */
static const char swf[] = "; UnixStartTime: 1000000000\n"
                          "; MaxNodes: 6\n"
                          "; MaxProcs: 24\n"
                          "; MaxPartitions: 2\n"
                          "; Partition: 1 thin\n"
                          "; Partition: 2 fat\n"
                          "1 0 0 100 8 -1 -1 8 100 -1 1 1 1 -1 1 1 -1 -1\n"
                          "2 10 0 50 16 -1 -1 16 50 -1 1 1 1 -1 1 2 -1 -1\n"
                          "3 20 0 30 4 -1 -1 4 30 -1 1 1 1 -1 1 2 -1 -1\n"
                          "4 30 0 40 12 -1 -1 12 40 -1 1 1 1 -1 1 1 -1 -1\n"
                          "5 40 0 10 4 -1 -1 4 10 -1 1 1 1 -1 1 5 -1 -1\n"
                          "6 50 0 10 4 -1 -1 4 10 -1 1 1 1 -1 1 -1 -1 -1\n";

static int swf_convert(const char *name, const char *opts, const char **out,
                       struct import_log_report *rep, struct bfs_error *e)
{
    struct import_log_opts o;
    char buf[64];

    snprintf(buf, sizeof buf, "%s.trace", name);
    *out = tu_tmp(buf);
    tu_import_opts(opts, &o);
    bfs_error_clear(e);
    return import_swf(tu_write("in.swf", swf), *out, NULL, &o, NULL, rep, e);
}

START_TEST(test_swf_partitions)
{
    struct import_log_report rep;
    struct bfs_error e;
    const char *out;
    char nodes[512], table[256], *text;

    ck_assert_msg(swf_convert("w1", "partition-nodes=thin=4,fat=2:8", &out,
                              &rep, &e) == 0,
                  "%s", e.msg);
    text = tu_trace_text(out, 1000000000, NULL, NULL);
    ck_assert_str_eq(text, "0 +2 +3 +4 +5\n"
                           "10 -4 -5\n"
                           "30 -2 -3\n"
                           "60 +4 +5\n"
                           "70 +2 +3\n"
                           "100 +0 +1\n");
    free(text);
    read_types(out, nodes, table);
    ck_assert_str_eq(nodes, "n0:thin n1:thin n2:thin n3:thin n4:fat n5:fat");
    ck_assert_str_eq(table, "thin fat");
    ck_assert_uint_eq(rep.nodes, 6);
    ck_assert_uint_eq(rep.partitions, 2);
    ck_assert_uint_eq(rep.jobs, 4);
    ck_assert_uint_eq(rep.other_partition, 2);
    ck_assert_uint_eq(rep.placed, 2);
    ck_assert_uint_eq(rep.truncated, 1);
    ck_assert_uint_eq(rep.dropped, 1);
    ck_assert_uint_eq(rep.oversized, 0);
    ck_assert_uint_eq(rep.lost_node_s, 70);
    ck_assert_uint_eq(rep.idle_node_s, 220);
    /* The partitions give the machine's size: no "no MaxNodes" warning
     * (and 220 of 600 node-seconds idle is no busy-share warning). */
    {
        FILE *devnull = fopen("/dev/null", "w");
        ck_assert_ptr_nonnull(devnull);
        ck_assert_int_eq(import_log_warnings(&rep, devnull), 0);
        fclose(devnull);
    }

    /* Partition numbers work as names, and name the types. */
    ck_assert_msg(
        swf_convert("w2", "partition-nodes=1=4,2=2:8", &out, &rep, &e) == 0,
        "%s", e.msg);
    read_types(out, nodes, table);
    ck_assert_str_eq(table, "1 2");
    ck_assert_uint_eq(rep.idle_node_s, 220);

    /* Contiguous placement stays inside the partition too: job 4 needs 3
     * thin nodes, no run of 3 is free, so it falls back to first fit and
     * is truncated the same way. */
    ck_assert_int_eq(swf_convert("w3",
                                 "partition-nodes=thin=4,fat=2:8;"
                                 "placement=contiguous",
                                 &out, &rep, &e),
                     0);
    ck_assert_uint_eq(rep.idle_node_s, 220);
}
END_TEST

/* Contiguous placement looks for runs inside the job's partition only.
 * Partitions a = n0..n2 and b = n3, 1 processor per node:
 *
 *   1 a [0, 20) 1 node -> n0;  2 a [0, 100) 1 node -> n1
 *   3 a [30, 70) 2 nodes: a's free nodes n0 n2 make no run of 2 (n2 n3
 *     would, across into b): first fit, n0 n2, counted fragmented.
 *
 * Events: 0 +2 +3, 20 +0, 30 -0 -2, 70 +0 +2, 100 +1. */
START_TEST(test_swf_contiguous_in_partition)
{
    static const char log[] = "; MaxNodes: 4\n"
                              "; MaxProcs: 4\n"
                              "; Partition: 1 a\n"
                              "; Partition: 2 b\n"
                              "1 0 0 20 1 -1 -1 1 20 -1 1 1 1 -1 1 1 -1 -1\n"
                              "2 0 0 100 1 -1 -1 1 100 -1 1 1 1 -1 1 1 -1 -1\n"
                              "3 30 0 40 2 -1 -1 2 40 -1 1 1 1 -1 1 1 -1 -1\n";
    struct import_log_report rep;
    struct import_log_opts o;
    struct bfs_error e;
    const char *out = tu_tmp("cp.trace");
    char *text;

    tu_import_opts("partition-nodes=a=3,b=1;placement=contiguous", &o);
    bfs_error_clear(&e);
    ck_assert_msg(
        import_swf(tu_write("cp.swf", log), out, NULL, &o, NULL, &rep, &e) == 0,
        "%s", e.msg);
    text = tu_trace_text(out, 0, NULL, NULL);
    ck_assert_str_eq(text, "0 +2 +3\n20 +0\n30 -0 -2\n70 +0 +2\n100 +1\n");
    free(text);
    ck_assert_uint_eq(rep.fragmented, 1);
    ck_assert_uint_eq(rep.placed, 3);
}
END_TEST

START_TEST(test_swf_partition_errors)
{
    struct import_log_report rep;
    struct import_log_opts o;
    struct bfs_error e;
    const char *out;

    ck_assert_int_eq(
        swf_convert("x1", "partition-nodes=huge=4", &out, &rep, &e),
        BFS_EUSAGE);
    ck_assert_msg(strstr(e.msg, "'huge' is not a partition number, nor a "
                                "name the header's 'Partition:' lines give"),
                  "%s", e.msg);
    ck_assert_int_eq(tu_exists(out), 0);
    ck_assert_int_eq(
        swf_convert("x2", "partition-nodes=thin=4,1=2", &out, &rep, &e),
        BFS_EUSAGE);
    ck_assert_msg(strstr(e.msg, "SWF partition 1 is both 'thin' and '1'"), "%s",
                  e.msg);
    ck_assert_int_eq(swf_convert("x3", "machine-nodes=6;partition-nodes=thin=4",
                                 &out, &rep, &e),
                     BFS_EUSAGE);
    /* The form, checked when the option is set. */
    import_log_opts_init(&o);
    bfs_error_clear(&e);
    ck_assert_int_eq(import_log_opts_set(&o, "partition-nodes", "thin", &e),
                     BFS_EUSAGE);
    ck_assert_msg(strstr(e.msg, "'thin' is not NAME=COUNT[:PPN]"), "%s", e.msg);
    bfs_error_clear(&e);
    ck_assert_int_eq(import_log_opts_set(&o, "partition-nodes", "thin=0", &e),
                     BFS_EUSAGE);
    bfs_error_clear(&e);
    ck_assert_int_eq(import_log_opts_set(&o, "partition-nodes", "thin=2:0", &e),
                     BFS_EUSAGE);
    bfs_error_clear(&e);
    ck_assert_int_eq(import_log_opts_set(&o, "partition-nodes", "a=1,,b=1", &e),
                     BFS_EUSAGE);
    bfs_error_clear(&e);
    ck_assert_int_eq(import_log_opts_set(&o, "partition-nodes", "a=1,a=2", &e),
                     BFS_EUSAGE);
    ck_assert_msg(strstr(e.msg, "partition 'a' is given twice"), "%s", e.msg);
    bfs_error_clear(&e);
    ck_assert_int_eq(import_log_opts_set(&o, "partition-nodes", "=2", &e),
                     BFS_EUSAGE);
    ck_assert_ptr_null(o.partition_nodes);
    ck_assert_int_eq(
        import_log_opts_set(&o, "partition-nodes", "thin=4,fat=2:8", &e), 0);
    ck_assert_str_eq(o.partition_nodes, "thin=4,fat=2:8");
}
END_TEST

/* ---- gen-trace --types ------------------------------------------------- */

/* Counts the nodes of each type of the trace at path, in the order of
 * names[0..n-1]. */
static void count_types(const char *path, const char *const *names, size_t n,
                        size_t *counts)
{
    struct trace_reader *r;
    struct bfs_error e;

    bfs_error_clear(&e);
    ck_assert_msg(trace_open(path, &r, &e) == 0, "%s", e.msg);
    memset(counts, 0, n * sizeof *counts);
    for (size_t i = 0; i < trace_node_count(r); i++) {
        const char *t = trace_type_name(r, trace_node_type(r, i));
        size_t k = 0;
        while (k < n && strcmp(names[k], t) != 0)
            k++;
        ck_assert_uint_lt(k, n);
        counts[k]++;
    }
    trace_close(r);
}

START_TEST(test_gentrace_types)
{
    static const char *const abc[] = {"A", "B", "C"};
    struct gentrace_dist idle, busy;
    struct gentrace_types t;
    struct gentrace_opts o = {0};
    struct bfs_error e;
    size_t c[3];
    char *typed, *plain, *again, *text;

    bfs_error_clear(&e);
    ck_assert_int_eq(gentrace_dist_parse("exp:20m", 0, &idle, &e), 0);
    ck_assert_int_eq(gentrace_dist_parse("exp:3h", 1, &busy, &e), 0);
    o.nodes = 10;
    o.start = 1609459200;
    o.duration = 6 * 3600;
    o.seed = 7;
    o.idle = &idle;
    o.busy = &busy;
    ck_assert_int_eq(gentrace_types_parse("A:0.5,B:0.25,C:0.25", &t, &e), 0);
    /* 10 nodes: quotas 5, 2.5, 2.5; floors 5, 2, 2; the one node left
     * goes to B, first of the equal remainders. */
    ck_assert_int_eq(gentrace_write_typed(tu_tmp("g1.trace"), &o, &t, NULL, &e),
                     0);
    count_types(tu_tmp("g1.trace"), abc, 3, c);
    ck_assert_uint_eq(c[0], 5);
    ck_assert_uint_eq(c[1], 3);
    ck_assert_uint_eq(c[2], 2);
    /* The same events as the untyped trace of the seed; the same bytes
     * again. */
    ck_assert_int_eq(gentrace_write(tu_tmp("g0.trace"), &o, NULL, &e), 0);
    typed = tu_trace_text(tu_tmp("g1.trace"), 0, NULL, NULL);
    plain = tu_trace_text(tu_tmp("g0.trace"), 0, NULL, NULL);
    ck_assert_str_eq(typed, plain);
    ck_assert_int_eq(gentrace_write_typed(tu_tmp("g2.trace"), &o, &t, NULL, &e),
                     0);
    text = tu_slurp(tu_tmp("g1.trace"));
    again = tu_slurp(tu_tmp("g2.trace"));
    ck_assert_str_eq(text, again);
    free(typed);
    free(plain);
    free(text);
    free(again);
    /* 8 nodes: 4, 2, 2 exactly. */
    o.nodes = 8;
    ck_assert_int_eq(gentrace_write_typed(tu_tmp("g3.trace"), &o, &t, NULL, &e),
                     0);
    count_types(tu_tmp("g3.trace"), abc, 3, c);
    ck_assert_uint_eq(c[0], 4);
    ck_assert_uint_eq(c[1], 2);
    ck_assert_uint_eq(c[2], 2);
    gentrace_types_release(&t);
    /* Weights: A:3,B:1 on 3 nodes: quotas 2.25, 0.75, floors 2, 0, the
     * node left to B. */
    ck_assert_int_eq(gentrace_types_parse("A:3,B:1", &t, &e), 0);
    ck_assert_double_eq(t.shares[0], 0.75);
    gentrace_types_counts(&t, 3, c);
    ck_assert_uint_eq(c[0], 2);
    ck_assert_uint_eq(c[1], 1);
    gentrace_types_release(&t);
    /* Bad lists. */
    ck_assert_int_eq(gentrace_types_parse("A:0,B:1", &t, &e), BFS_EUSAGE);
    ck_assert_int_eq(gentrace_types_parse("A:1,A:2", &t, &e), BFS_EUSAGE);
    ck_assert_int_eq(gentrace_types_parse("A", &t, &e), BFS_EUSAGE);
    ck_assert_int_eq(gentrace_types_parse("A:1,", &t, &e), BFS_EUSAGE);
    ck_assert_int_eq(gentrace_types_parse(":1", &t, &e), BFS_EUSAGE);
    gentrace_dist_release(&idle);
    gentrace_dist_release(&busy);
}
END_TEST

START_TEST(test_gentrace_command)
{
    const char *out = tu_tmp("gc.trace");
    char args[1024], *err, *text;

    snprintf(args, sizeof args,
             "gen-trace --nodes 4 --duration 1h --types x:1,y:1 -o %s", out);
    ck_assert_int_eq(tu_bfsim_run(args, &err), 0);
    ck_assert_msg(strstr(err, "node types: x 2, y 2"), "%s", err);
    free(err);
    text = tu_slurp(out);
    ck_assert_msg(strstr(text, " --types x:1,y:1\n"), "%s", text);
    free(text);
    snprintf(args, sizeof args,
             "gen-trace --nodes 4 --duration 1h --types x -o %s",
             tu_tmp("gc2.trace"));
    ck_assert_int_eq(tu_bfsim_run(args, &err), 2);
    ck_assert_msg(strstr(err, "--types: 'x' is not NAME:SHARE"), "%s", err);
    free(err);
}
END_TEST

/* ---- info per type ----------------------------------------------------- */

/* Nodes a, c of type gpu and b, d of type cpu:
 *
 *   a idle 100..200   b idle 100..130   c idle 130..200   d idle 160..250
 *
 * Whole trace (100..250): gpu 100 + 70 = 170 node-s, cpu 30 + 90 = 120,
 * total 290 (pool 2, 2, 3, 1 over 30, 30, 40, 50 s).  Window 150..210:
 * gpu 50 + 50 = 100, cpu 50 (d from 160), total 150.  Nodes 1..2 (b, c):
 * gpu 70 (c), cpu 30 (b). */
static const char typed_trace[] = "bfsim-trace 1\n"
                                  "node a gpu\nnode b cpu\n"
                                  "node c gpu\nnode d cpu\n"
                                  "100 +0 +1\n"
                                  "130 -1 +2\n"
                                  "160 +3\n"
                                  "200 -0 -2\n"
                                  "250\n";

static void info(const char *path, int64_t start, int64_t end, size_t skip,
                 size_t count, struct traceinfo *ti)
{
    struct traceinfo_opts o;
    struct bfs_error e;

    traceinfo_opts_init(&o);
    if (start)
        o.start = start;
    if (end)
        o.end = end;
    o.skip = skip;
    o.count = count;
    bfs_error_clear(&e);
    ck_assert_msg(traceinfo_compute(path, &o, ti, &e) == 0, "%s", e.msg);
}

START_TEST(test_info_types)
{
    const char *p = tu_write("info.trace", typed_trace);
    struct traceinfo ti;

    info(p, 0, 0, 0, 0, &ti);
    ck_assert_uint_eq(ti.n_types, 2);
    ck_assert_str_eq(ti.type_names[0], "gpu");
    ck_assert_str_eq(ti.type_names[1], "cpu");
    ck_assert_uint_eq(ti.type_nodes[0], 2);
    ck_assert_uint_eq(ti.type_nodes[1], 2);
    ck_assert_int_eq(ti.type_idle_node_s[0], 170);
    ck_assert_int_eq(ti.type_idle_node_s[1], 120);
    ck_assert_int_eq(ti.idle_node_s, 290);
    traceinfo_release(&ti);

    info(p, 150, 210, 0, 0, &ti);
    ck_assert_int_eq(ti.type_idle_node_s[0], 100);
    ck_assert_int_eq(ti.type_idle_node_s[1], 50);
    ck_assert_int_eq(ti.idle_node_s, 150);
    traceinfo_release(&ti);

    info(p, 0, 0, 1, 2, &ti);
    ck_assert_uint_eq(ti.type_nodes[0], 1);
    ck_assert_uint_eq(ti.type_nodes[1], 1);
    ck_assert_int_eq(ti.type_idle_node_s[0], 70);
    ck_assert_int_eq(ti.type_idle_node_s[1], 30);
    traceinfo_release(&ti);
}
END_TEST

START_TEST(test_info_command)
{
    const char *typed = tu_write("ic.trace", typed_trace);
    const char *plain = tu_write("ic0.trace", "bfsim-trace 1\nnode a\n"
                                              "100 +0\n250\n");
    char args[1024], *out, *err;

    snprintf(args, sizeof args, "info %s", typed);
    ck_assert_int_eq(tu_bfsim_output(args, &out, &err), 0);
    ck_assert_msg(strstr(out, "node types       2 (nodes, idle node-hours)\n"
                              "  gpu                 2       0.05\n"
                              "  cpu                 2       0.03\n"),
                  "%s", out);
    free(out);
    free(err);
    snprintf(args, sizeof args, "info --json %s", typed);
    ck_assert_int_eq(tu_bfsim_output(args, &out, &err), 0);
    ck_assert_msg(strstr(out, "\"type\": \"gpu\",\n      \"nodes\": 2,\n"
                              "      \"idle_node_s\": 170,"),
                  "%s", out);
    free(out);
    free(err);
    /* Untyped: no type lines, no types key. */
    snprintf(args, sizeof args, "info %s", plain);
    ck_assert_int_eq(tu_bfsim_output(args, &out, &err), 0);
    ck_assert_ptr_null(strstr(out, "node types"));
    free(out);
    free(err);
    snprintf(args, sizeof args, "info --json %s", plain);
    ck_assert_int_eq(tu_bfsim_output(args, &out, &err), 0);
    ck_assert_ptr_null(strstr(out, "\"types\""));
    free(out);
    free(err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("typed_traces");
    TCase *tc = tcase_create("typed_traces");

    tcase_add_test(tc, test_slurm_node_types_file);
    tcase_add_test(tc, test_slurm_partition_column);
    tcase_add_test(tc, test_bftrainer_typed);
    tcase_add_test(tc, test_elastisim_typed);
    tcase_add_test(tc, test_swf_partitions);
    tcase_add_test(tc, test_swf_contiguous_in_partition);
    tcase_add_test(tc, test_swf_partition_errors);
    tcase_add_test(tc, test_gentrace_types);
    tcase_add_test(tc, test_info_types);
    if (tu_bfsim_built()) {
        tcase_add_test(tc, test_convert_command);
        tcase_add_test(tc, test_gentrace_command);
        tcase_add_test(tc, test_info_command);
    }
    suite_add_tcase(s, tc);
    return tu_run(s);
}
