# Check test programs: one per module, each linking the library.
BFS_TEST_LIBS = libbfsim.a $(BFS_LIBS) $(CHECK_LIBS)
BFS_TEST_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
EXTRA_DIST += tests/testutil.h
include $(srcdir)/tests/jobs.mk
include $(srcdir)/tests/import.mk

check_PROGRAMS += tests/check_replay
tests_check_replay_SOURCES = tests/check_replay.c tests/testutil.h
tests_check_replay_CFLAGS = $(BFS_TEST_CFLAGS)
tests_check_replay_LDADD = $(BFS_TEST_LIBS)
include $(srcdir)/tests/trace.mk

check_PROGRAMS += tests/check_util
tests_check_util_SOURCES = tests/check_util.c tests/testutil.h
tests_check_util_CFLAGS = $(BFS_TEST_CFLAGS)
tests_check_util_LDADD = $(BFS_TEST_LIBS)

check_PROGRAMS += tests/check_evq
tests_check_evq_SOURCES = tests/check_evq.c tests/testutil.h
tests_check_evq_CFLAGS = $(BFS_TEST_CFLAGS)
tests_check_evq_LDADD = $(BFS_TEST_LIBS)
include $(srcdir)/tests/alloc.mk

# Runs the bfsim program itself.
check_PROGRAMS += tests/check_cli
tests_check_cli_SOURCES = tests/check_cli.c tests/testutil.h
tests_check_cli_CFLAGS = $(BFS_TEST_CFLAGS)
tests_check_cli_LDADD = $(BFS_TEST_LIBS)
include $(srcdir)/tests/h5out.mk
include $(srcdir)/tests/sweep.mk
include $(srcdir)/tests/conserve.mk
