# SWF and Slurm importers, host lists: library sources, their tests, and
# the independent idle-hours check script the SWF test runs.
libbfsim_a_SOURCES += src/hostlist.c src/hostlist.h \
	src/import_log.c src/import_log.h \
	src/import_swf.c src/import_slurm.c

check_PROGRAMS += tests/check_hostlist
tests_check_hostlist_SOURCES = tests/check_hostlist.c tests/testutil.h
tests_check_hostlist_CFLAGS = $(BFS_TEST_CFLAGS)
tests_check_hostlist_LDADD = $(BFS_TEST_LIBS)

check_PROGRAMS += tests/check_import_swf
tests_check_import_swf_SOURCES = tests/check_import_swf.c tests/testutil.h
tests_check_import_swf_CFLAGS = $(BFS_TEST_CFLAGS)
tests_check_import_swf_LDADD = $(BFS_TEST_LIBS)

check_PROGRAMS += tests/check_import_slurm
tests_check_import_slurm_SOURCES = tests/check_import_slurm.c tests/testutil.h
tests_check_import_slurm_CFLAGS = $(BFS_TEST_CFLAGS)
tests_check_import_slurm_LDADD = $(BFS_TEST_LIBS)

dist_noinst_SCRIPTS += tools/swf-idle-hours
