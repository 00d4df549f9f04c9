/* sniff.h - guessing the format of a node log that is not a native trace,
 * so that `bfsim info` can say which `bfsim convert --from` to run. */
#ifndef BFS_SNIFF_H
#define BFS_SNIFF_H

/* The `bfsim convert --from` name of the file or directory at path,
 * judged from its first 100 lines (plain or compressed): "swf" (a ';' header
 * comment, or a line of 18 numeric fields), "slurm" (a sacct header line
 * naming JobID, Start and End), "bftrainer" (a directory holding
 * nodes.csv, or one of the export's CSV headers "col_idx,node",
 * "row,time,epoch_s,..." and "row,epoch_s,col_idx,..."), "batsim" (a
 * CSV header naming starting_time, finish_time and allocated_resources),
 * "batsim-events" (a JSON object line with "type" and "timestamp"
 * keys), "elastisim" (a CSV header naming Time, Node and State), "pbs"
 * (a PBS accounting record "MM/DD/YYYY HH:MM:SS;T;...", or a directory
 * whose first file by name holds one), "lsf" (an lsb.acct record
 * "\"KIND\" \"VERSION\" ...", or such a directory); NULL for a native
 * trace ("bfsim-trace" first), an unreadable file or anything
 * else.  The string is static. */
const char *sniff_log_format(const char *path);

/* What a format name of sniff_log_format is, with its article, for a
 * message ("an SWF log", "a Batsim jobs.csv"); static. */
const char *sniff_format_title(const char *format);

#endif
