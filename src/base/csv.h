/* csv.h - writing CSV fields (RFC 4180), the one way bfsim quotes text in
 * the CSV files it writes (job log, Batsim jobs.csv, job files, curve
 * fits, the measures list; the sweep table and `bfsim solve --csv` are to
 * follow).
 *
 * A writer prints its own separators (','), line ends ('\n') and numbers
 * (unquoted, as printf gives them); every text field goes through
 * csv_field or csv_fieldf, which write it as it is when that is safe and
 * enclosed in double quotes, each inner quote doubled, when it is not.
 * What such a field reads back as is the text itself, in pandas, Python's
 * csv module, spreadsheets and bfsim's own reader (bfs_csv_split in
 * util.h).  Errors are the stream's: check ferror(f) after writing.
 *
 * bfsim's readers split lines first, so a line break inside a field
 * cannot be read back by them: job names may not hold one (the job-file
 * reader refuses it), and these functions still quote one wherever it
 * comes from, so that other readers get the text.
 */
#ifndef BFS_CSV_H
#define BFS_CSV_H

#include <stdio.h>

/* Whether s must be quoted as a CSV field: it holds a comma, a double
 * quote, a carriage return or a line feed, begins or ends with a blank
 * (space or tab: some readers trim them), or begins with '#' (a comment
 * line to bfsim's job-file reader and to pandas' comment='#' when the
 * field starts a row).  The empty string needs none. */
int csv_needs_quotes(const char *s);

/* Writes s to f as one field, quoted when csv_needs_quotes(s): '"', then
 * s with every '"' doubled, then '"'.  No separator is written. */
void csv_field(FILE *f, const char *s);

/* The same for the text printf(fmt, ...) gives (a composed field such as
 * "NAME!3"). */
void csv_fieldf(FILE *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
