/* check_out.c - atomic output (base/out.h): a new or regular target is
 * replaced by rename and only at commit, an abort leaves it as it was,
 * and nothing but a regular file is ever renamed over: a FIFO is written
 * in place by a text stream and refused by the rename-only modes, a
 * directory is refused by all, symbolic links are followed.  Every
 * special file is made in the test's own temporary directory (never
 * /dev/null: a wrong rename there, as root, would replace the device). */
#include "config.h"

#include "testutil.h"
#include "base/out.h"
#include "base/util.h"

#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Number of entries of dir whose name contains ".tmp.". */
static int tmp_files(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int n = 0;

    ck_assert_ptr_nonnull(d);
    while ((de = readdir(d)) != NULL)
        n += strstr(de->d_name, ".tmp.") != NULL;
    closedir(d);
    return n;
}

/* A fresh directory under the test's temporary directory. */
static const char *fresh_dir(const char *name)
{
    const char *d = tu_tmp(name);

    ck_assert_int_eq(mkdir(d, 0777), 0);
    return d;
}

static const char *in(const char *dir, const char *name)
{
    char *p = tu_keep(xmalloc(strlen(dir) + strlen(name) + 2));
    sprintf(p, "%s/%s", dir, name);
    return p;
}

static mode_t type_of(const char *path)
{
    struct stat st;

    ck_assert_int_eq(lstat(path, &st), 0);
    return st.st_mode & S_IFMT;
}

/* Writes text to path through a stream output of the given mode. */
static int put(const char *path, enum bfs_out_mode mode, const char *text,
               struct bfs_error *e)
{
    struct bfs_out o;
    int rc;

    bfs_error_clear(e);
    rc = bfs_out_open_mode(&o, path, mode, e);
    if (rc)
        return rc;
    fputs(text, o.fp);
    return bfs_out_commit(&o, e);
}

START_TEST(test_replace)
{
    const char *d = fresh_dir("replace"), *p = in(d, "out.txt");
    struct bfs_out o;
    struct bfs_error e;
    struct stat st;
    mode_t mask = umask(022);
    char *got;

    bfs_error_clear(&e);
    ck_assert_int_eq(bfs_out_open(&o, p, &e), 0);
    fputs("hello\n", o.fp);
    ck_assert_int_eq(tu_exists(p), 0); /* not there before the commit */
    ck_assert_int_eq(tmp_files(d), 1);
    ck_assert_int_eq(bfs_out_commit(&o, &e), 0);
    got = tu_slurp(p);
    ck_assert_str_eq(got, "hello\n");
    free(got);
    ck_assert_int_eq(tmp_files(d), 0);
    /* umask 022: 0666 & ~022 = 0644, not mkstemp's 0600 */
    ck_assert_int_eq(stat(p, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0644);
    umask(mask);

    /* An aborted rewrite leaves the old file as it was. */
    ck_assert_int_eq(bfs_out_open_mode(&o, p, BFS_OUT_FILE, &e), 0);
    fputs("half", o.fp);
    bfs_out_abort(&o);
    got = tu_slurp(p);
    ck_assert_str_eq(got, "hello\n");
    free(got);
    ck_assert_int_eq(tmp_files(d), 0);

    /* A regular file is replaced in every mode. */
    ck_assert_int_eq(put(p, BFS_OUT_FILE, "table\n", &e), 0);
    got = tu_slurp(p);
    ck_assert_str_eq(got, "table\n");
    free(got);

    ck_assert_int_lt(bfs_out_open(&o, in(d, "no/such/dir/x"), &e), 0);
    ck_assert_ptr_nonnull(strstr(e.msg, "no/such/dir/x: cannot create"));
    ck_assert_ptr_null(o.path);
}
END_TEST

START_TEST(test_path_mode)
{
    const char *d = fresh_dir("path"), *p = in(d, "out.bin");
    struct bfs_out o;
    struct bfs_error e;
    FILE *f;
    char *got;

    bfs_error_clear(&e);
    ck_assert_int_eq(bfs_out_open_mode(&o, p, BFS_OUT_PATH, &e), 0);
    ck_assert_ptr_null(o.fp);
    ck_assert_ptr_nonnull(o.tmp);
    /* the temporary file exists, empty, beside the target */
    got = tu_slurp(o.tmp);
    ck_assert_str_eq(got, "");
    free(got);
    ck_assert_int_eq(strncmp(o.tmp, p, strlen(p)), 0);
    /* the writer truncates and writes it by its name, then closes it */
    f = fopen(o.tmp, "w");
    ck_assert_ptr_nonnull(f);
    fputs("by path\n", f);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(tu_exists(p), 0);
    ck_assert_int_eq(bfs_out_commit(&o, &e), 0);
    got = tu_slurp(p);
    ck_assert_str_eq(got, "by path\n");
    free(got);

    ck_assert_int_eq(bfs_out_open_mode(&o, p, BFS_OUT_PATH, &e), 0);
    bfs_out_abort(&o);
    got = tu_slurp(p);
    ck_assert_str_eq(got, "by path\n");
    free(got);
    ck_assert_int_eq(tmp_files(d), 0);

    /* standard output is for text streams only */
    ck_assert_int_eq(bfs_out_open_mode(&o, "-", BFS_OUT_PATH, &e), BFS_EIO);
    ck_assert_ptr_nonnull(strstr(e.msg, "-: this output needs a file name"));
    bfs_error_clear(&e);
    ck_assert_int_eq(bfs_out_open_mode(&o, "-", BFS_OUT_FILE, &e), BFS_EIO);
}
END_TEST

START_TEST(test_fifo)
{
    const char *d = fresh_dir("fifo"), *p = in(d, "pipe");
    struct bfs_out o;
    struct bfs_error e;
    char want[128], buf[64];
    int rd;
    ssize_t n;

    ck_assert_int_eq(mkfifo(p, 0600), 0);
    snprintf(want, sizeof want, "%s: not a regular file", p);

    /* a rename-only output refuses it and creates nothing */
    ck_assert_int_eq(put(p, BFS_OUT_FILE, "x", &e), BFS_EIO);
    ck_assert_str_eq(e.msg, want);
    bfs_error_clear(&e);
    ck_assert_int_eq(bfs_out_open_mode(&o, p, BFS_OUT_PATH, &e), BFS_EIO);
    ck_assert_str_eq(e.msg, want);
    ck_assert_int_eq(type_of(p), S_IFIFO);
    ck_assert_int_eq(tmp_files(d), 0);

    /* a text stream writes into it in place (a reader is waiting) */
    rd = open(p, O_RDONLY | O_NONBLOCK);
    ck_assert_int_ge(rd, 0);
    ck_assert_int_eq(put(p, BFS_OUT_TEXT, "through\n", &e), 0);
    n = read(rd, buf, sizeof buf - 1);
    ck_assert_int_eq(n, 8);
    buf[n] = '\0';
    ck_assert_str_eq(buf, "through\n");
    close(rd);
    ck_assert_int_eq(type_of(p), S_IFIFO);
    ck_assert_int_eq(tmp_files(d), 0);
}
END_TEST

START_TEST(test_directory)
{
    const char *d = fresh_dir("dir"), *p = in(d, "sub");
    struct bfs_out o;
    struct bfs_error e;
    char want[128];

    ck_assert_int_eq(mkdir(p, 0777), 0);
    snprintf(want, sizeof want, "%s: not a regular file", p);
    ck_assert_int_eq(put(p, BFS_OUT_FILE, "x", &e), BFS_EIO);
    ck_assert_str_eq(e.msg, want);
    bfs_error_clear(&e);
    ck_assert_int_eq(bfs_out_open_mode(&o, p, BFS_OUT_PATH, &e), BFS_EIO);
    ck_assert_str_eq(e.msg, want);
    /* a text stream tries to open it in place, which fails */
    ck_assert_int_eq(put(p, BFS_OUT_TEXT, "x", &e), BFS_EIO);
    ck_assert_ptr_nonnull(strstr(e.msg, "sub: cannot open: Is a directory"));
    ck_assert_int_eq(type_of(p), S_IFDIR);
    ck_assert_int_eq(tmp_files(d), 0);
}
END_TEST

/* A target that becomes a FIFO between open and commit is not renamed
 * over either. */
START_TEST(test_recheck_at_commit)
{
    const char *d = fresh_dir("late"), *p = in(d, "late");
    struct bfs_out o;
    struct bfs_error e;
    char want[128];

    bfs_error_clear(&e);
    ck_assert_int_eq(bfs_out_open_mode(&o, p, BFS_OUT_FILE, &e), 0);
    fputs("x", o.fp);
    ck_assert_int_eq(mkfifo(p, 0600), 0);
    ck_assert_int_eq(bfs_out_commit(&o, &e), BFS_EIO);
    snprintf(want, sizeof want, "%s: not a regular file", p);
    ck_assert_str_eq(e.msg, want);
    ck_assert_int_eq(type_of(p), S_IFIFO);
    ck_assert_int_eq(tmp_files(d), 0);
}
END_TEST

START_TEST(test_symlink)
{
    const char *d = fresh_dir("links"), *sub = in(d, "sub");
    const char *real = in(sub, "real.txt"), *link = in(d, "link.txt");
    const char *hop = in(d, "hop.txt"), *dangling = in(d, "dangling.txt");
    const char *loop1 = in(d, "loop1"), *loop2 = in(d, "loop2");
    const char *fifo = in(d, "fifo"), *tofifo = in(d, "tofifo");
    struct bfs_out o;
    struct bfs_error e;
    char *got;

    ck_assert_int_eq(mkdir(sub, 0777), 0);
    ck_assert_int_eq(put(real, BFS_OUT_TEXT, "old\n", &e), 0);
    /* link.txt -> sub/real.txt (relative), hop.txt -> link.txt */
    ck_assert_int_eq(symlink("sub/real.txt", link), 0);
    ck_assert_int_eq(symlink("link.txt", hop), 0);

    /* the file the link names is replaced; the link stays a link */
    ck_assert_int_eq(bfs_out_open_mode(&o, hop, BFS_OUT_FILE, &e), 0);
    ck_assert_str_eq(o.target, real);
    fputs("new\n", o.fp);
    ck_assert_int_eq(tmp_files(sub), 1); /* beside the real file */
    ck_assert_int_eq(bfs_out_commit(&o, &e), 0);
    got = tu_slurp(real);
    ck_assert_str_eq(got, "new\n");
    free(got);
    ck_assert_int_eq(type_of(link), S_IFLNK);
    ck_assert_int_eq(type_of(hop), S_IFLNK);
    ck_assert_int_eq(type_of(real), S_IFREG);
    ck_assert_int_eq(tmp_files(sub), 0);

    /* a dangling link: the file it names is created */
    ck_assert_int_eq(symlink("sub/made.txt", dangling), 0);
    ck_assert_int_eq(put(dangling, BFS_OUT_FILE, "made\n", &e), 0);
    got = tu_slurp(in(sub, "made.txt"));
    ck_assert_str_eq(got, "made\n");
    free(got);
    ck_assert_int_eq(type_of(dangling), S_IFLNK);

    /* a link to a FIFO is a FIFO */
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    ck_assert_int_eq(symlink("fifo", tofifo), 0);
    ck_assert_int_eq(put(tofifo, BFS_OUT_FILE, "x", &e), BFS_EIO);
    ck_assert_ptr_nonnull(strstr(e.msg, "tofifo: not a regular file"));
    ck_assert_int_eq(type_of(fifo), S_IFIFO);

    /* a loop of links */
    ck_assert_int_eq(symlink("loop2", loop1), 0);
    ck_assert_int_eq(symlink("loop1", loop2), 0);
    ck_assert_int_eq(put(loop1, BFS_OUT_TEXT, "x", &e), BFS_EIO);
    ck_assert_ptr_nonnull(strstr(e.msg, "loop1: cannot follow the link"));
    ck_assert_int_eq(tmp_files(d), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("out");
    TCase *tc = tcase_create("out");

    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_replace);
    tcase_add_test(tc, test_path_mode);
    tcase_add_test(tc, test_fifo);
    tcase_add_test(tc, test_directory);
    tcase_add_test(tc, test_recheck_at_commit);
    tcase_add_test(tc, test_symlink);
    suite_add_tcase(s, tc);
    return tu_run(s);
}
