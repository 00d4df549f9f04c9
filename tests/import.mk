# SWF and Slurm importers, host lists: library sources and their tests.
libbfsim_a_SOURCES += src/hostlist.c src/hostlist.h

check_PROGRAMS += tests/check_hostlist
tests_check_hostlist_SOURCES = tests/check_hostlist.c tests/testutil.h
tests_check_hostlist_CFLAGS = $(BFS_TEST_CFLAGS)
tests_check_hostlist_LDADD = $(BFS_TEST_LIBS)
