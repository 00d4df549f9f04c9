/* sniff.c - guessing a node log's format from its first lines (sniff.h).
 *
 * Only a hint for a message: the first rule that matches wins, in the
 * order native trace, BFTrainer export, SWF, PBS, LSF, Slurm, Batsim,
 * Batsim events, ElastiSim, and nothing is validated (the importer does that).
 */
#include "config.h"

#include "import/sniff.h"

#include "base/util.h"

#include <ctype.h>
#include <dirent.h>
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

/* Whether the line is a PBS accounting record: "MM/DD/YYYY
 * HH:MM:SS;T;". */
static int pbs_record(const char *p)
{
    static const char form[] = "00/00/0000 00:00:00;";

    for (size_t k = 0; k < sizeof form - 1; k++)
        if (form[k] == '0' ? !isdigit((unsigned char)p[k]) : p[k] != form[k])
            return 0;
    return isalpha((unsigned char)p[20]) && p[21] == ';';
}

/* Whether the line is an lsb.acct record: "KIND" "VERSION" with KIND in
 * capitals and underscores and VERSION starting with a digit. */
static int lsf_record(const char *p)
{
    size_t n;

    if (*p++ != '"')
        return 0;
    n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
    return n > 0 && strncmp(p + n, "\" \"", 3) == 0 &&
           isdigit((unsigned char)p[n + 3]);
}

/* The first regular file of the directory in name order, not starting
 * with '.' (malloc'd), or NULL. */
static char *first_file(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    char *best = NULL;

    if (!d)
        return NULL;
    while ((de = readdir(d)) != NULL)
        if (de->d_name[0] != '.' && (!best || strcmp(de->d_name, best) < 0)) {
            xfree(best);
            best = xstrdup(de->d_name);
        }
    closedir(d);
    if (best) {
        char *p = xasprintf("%s/%s", dir, best);
        xfree(best);
        best = p;
    }
    return best;
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
        char *f = xasprintf("%s/nodes.csv", path);
        found = stat(f, &st) == 0 ? "bftrainer" : NULL;
        xfree(f);
        /* A folder of PBS daily files or of lsb.acct files. */
        if (!found && (f = first_file(path)) != NULL) {
            if (stat(f, &st) == 0 && S_ISREG(st.st_mode)) {
                found = sniff_log_format(f);
                if (found && strcmp(found, "pbs") != 0 &&
                    strcmp(found, "lsf") != 0)
                    found = NULL;
            }
            xfree(f);
        }
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
        else if (pbs_record(p))
            found = "pbs";
        else if (lsf_record(p))
            found = "lsf";
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
        {"elastisim", "an ElastiSim node-utilization file"},
        {"pbs", "a PBS accounting log"},
        {"lsf", "an LSF lsb.acct file"}};

    for (size_t k = 0; k < sizeof titles / sizeof *titles; k++)
        if (strcmp(titles[k][0], format) == 0)
            return titles[k][1];
    return "a foreign log";
}
