/* import_sim.h - what the importers of simulator outputs (Batsim,
 * ElastiSim; import.h) share: simulation times, CSV rows with a header,
 * the trace header's common lines and the report's closing lines.
 */
#ifndef BFS_IMPORT_SIM_H
#define BFS_IMPORT_SIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"
#include "import/import.h"
#include "import/import_log.h"

/* Largest simulation time accepted, in seconds (about 35,000 years), so
 * that origin + time stays within the range of times. */
#define IMPORT_SIM_MAX_TIME ((double)((int64_t)1 << 40))

/* The simulation time d (seconds, 0..IMPORT_SIM_MAX_TIME) as Unix seconds
 * origin + d, rounded to the second, in *out.  what and text (the field's
 * name and its text) go into the message.  Returns 0, or BFS_ERANGE
 * (reported at path:line in e) when d is out of range or the time falls
 * after the year 9999. */
int import_sim_time(int64_t origin, double d, const char *what,
                    const char *text, const char *path, size_t line,
                    int64_t *out, struct bfs_error *e);

/* The same for a field's text: BFS_EPARSE as well when it is not a
 * number. */
int import_sim_time_field(int64_t origin, const char *text, const char *what,
                          const char *path, size_t line, int64_t *out,
                          struct bfs_error *e);

/* Splits the CSV line (comma-separated, quotes as bfs_csv_split) in place
 * into f[0..max-1], the count in *nf.  Returns 0, or BFS_EPARSE (reported
 * at path:line in e) for a bad quote or more than max fields. */
int import_sim_csv_split(char *line, char **f, size_t max, size_t *nf,
                         const char *path, size_t line_no, struct bfs_error *e);

/* Sets cols[c] to the index of the first of the header's nf fields f[]
 * that names[c] names (case and surrounding blanks aside), or -1, for c in
 * 0..n-1.  Trims the fields in place. */
void import_sim_csv_header(char **f, size_t nf, const char *const *names, int n,
                           int *cols);

/* The trace header's comment lines (malloc'd, NULL-terminated; free with
 * import_log_comments_free): comments, then own (the importer's lines,
 * NULL-terminated, copied), then the origin, the window o->start ..
 * o->end (o->start set) and the outage rule when there is one. */
char **import_sim_comments(const char *const *comments, const char *const *own,
                           const struct import_log_opts *o);

/* Without --end, the engine (import_log) ends the trace at the last busy
 * interval's end; a simulator's output ends at the latest time it read
 * (nodes idle to the end), so that is o->end unless --end was given or it
 * lies before the window's start. */
void import_sim_default_end(struct import_log_opts *o, int64_t last);

/* Opens the trace at path for the n nodes names (import_log_writer_open,
 * the header's comment lines cm, freed here) and its engine over them
 * (import_log_new; path in names the input), after ending the window at
 * last unless --end says otherwise (import_sim_default_end on *wo).
 * Returns 0 with *w and *engine set, or a negative BFS_E* code (in e). */
int import_sim_open(const char *path, const char *const *names, size_t n,
                    char **cm, struct import_log_opts *wo, int64_t last,
                    const char *in, struct import_stats *st,
                    struct trace_writer **w, struct import_log **engine,
                    struct bfs_error *e);

/* Writes the report's closing lines to f: the machine (log->nodes and
 * log->nodes_from) with the origin, the trace's span and idle
 * node-hours, and the outages when they were marked. */
void import_sim_report_end(const struct import_log_report *log, int64_t origin,
                           FILE *f);

#endif
