/* sniff.c - guessing a node log's format from its first lines (sniff.h).
 *
 * Only a hint for a message: the first rule that matches wins, in the
 * order native trace, BFTrainer export, SWF, Slurm, Batsim, Batsim
 * events, ElastiSim, and nothing is validated (the importer does that).
 */
#include "config.h"

#include "formats/sniff.h"

#include "base/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* Whether s is a number as SWF writes it (an optional '-', digits, an
 * optional fraction). */
static int numeric(const char *s)
{
    char *end;

    if (!*s)
        return 0;
    (void)strtod(s, &end);
    return *end == '\0';
}

/* Whether line holds exactly 18 whitespace-separated numbers (it is
 * modified). */
static int swf_record(char *line)
{
    int n = 0;

    for (char *tok = strtok(line, " \t"); tok; tok = strtok(NULL, " \t")) {
        if (!numeric(tok) || ++n > 18)
            return 0;
    }
    return n == 18;
}

/* Whether the line names the sacct columns JobID, Start and End, as whole
 * words (separated by '|' or blanks). */
static int sacct_header(const char *line)
{
    int job = 0, start = 0, end = 0;
    size_t n;

    for (const char *p = line; *p; p += n) {
        p += strspn(p, "| \t");
        n = strcspn(p, "| \t");
        if (n == 5 && strncasecmp(p, "jobid", 5) == 0)
            job = 1;
        else if (n == 5 && strncasecmp(p, "start", 5) == 0)
            start = 1;
        else if (n == 3 && strncasecmp(p, "end", 3) == 0)
            end = 1;
    }
    return job && start && end;
}

/* Whether the comma-separated header line names every column of want
 * (NULL-terminated), each as a whole field. */
static int csv_header(const char *line, const char *const *want)
{
    for (size_t k = 0; want[k]; k++) {
        size_t n = strlen(want[k]);
        const char *p = line;
        int found = 0;
        while (!found && (p = strstr(p, want[k])) != NULL) {
            found =
                (p == line || p[-1] == ',') && (p[n] == ',' || p[n] == '\0');
            p += n;
        }
        if (!found)
            return 0;
    }
    return 1;
}

/* Whether the line is a JSON object with "type" and "timestamp" keys (a
 * Batsim external event). */
static int batsim_event(const char *line)
{
    return *line == '{' && strstr(line, "\"type\"") &&
           strstr(line, "\"timestamp\"");
}

const char *sniff_log_format(const char *path)
{
    struct bfs_lines *in;
    struct bfs_error e;
    struct stat st;
    const char *found = NULL;
    char *line, *p;
    int rc, seen = 0;

    if (stat(path, &st) != 0)
        return NULL;
    if (S_ISDIR(st.st_mode)) {
        char *f = xmalloc(strlen(path) + 16);
        sprintf(f, "%s/nodes.csv", path);
        found = stat(f, &st) == 0 ? "bftrainer" : NULL;
        xfree(f);
        return found;
    }
    if (bfs_lines_open(path, &in, &e) != 0)
        return NULL;
    while (!found && seen < 100 && (rc = bfs_lines_next(in, &line, &e)) == 1) {
        for (p = line; isspace((unsigned char)*p); p++)
            ;
        if (!*p)
            continue;
        if (seen++ == 0 && strncmp(p, "bfsim-trace", 11) == 0)
            break;
        if (strncmp(p, "col_idx,node", 12) == 0 ||
            strncmp(p, "row,time,epoch_s", 16) == 0 ||
            strncmp(p, "row,epoch_s,col_idx", 19) == 0)
            found = "bftrainer";
        else if (*p == ';')
            found = "swf";
        else if (sacct_header(p))
            found = "slurm";
        else if (csv_header(
                     p, (const char *const[]){"starting_time", "finish_time",
                                              "allocated_resources", NULL}))
            found = "batsim";
        else if (batsim_event(p))
            found = "batsim-events";
        else if (csv_header(
                     p, (const char *const[]){"Time", "Node", "State", NULL}))
            found = "elastisim";
        else if (swf_record(p)) /* last: it cuts the line */
            found = "swf";
    }
    bfs_lines_close(in);
    return found;
}

const char *sniff_format_title(const char *format)
{
    static const char *const titles[][2] = {
        {"swf", "an SWF log"},
        {"slurm", "a Slurm sacct log"},
        {"bftrainer", "a BFTrainer export"},
        {"batsim", "a Batsim jobs.csv"},
        {"batsim-events", "a Batsim external-events file"},
        {"elastisim", "an ElastiSim node-utilization file"}};

    for (size_t k = 0; k < sizeof titles / sizeof *titles; k++)
        if (strcmp(titles[k][0], format) == 0)
            return titles[k][1];
    return "a foreign log";
}
