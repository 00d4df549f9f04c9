# Traces: the native trace reader/writer, importers, `info` statistics and
# the synthetic generator (library sources), and their tests.
libbfsim_a_SOURCES += src/import.h src/import_bftrainer.c \
	src/traceinfo.c src/traceinfo.h \
	src/gentrace.c src/gentrace.h

check_PROGRAMS += tests/check_trace
tests_check_trace_SOURCES = tests/check_trace.c tests/testutil.h
tests_check_trace_CFLAGS = $(BFS_TEST_CFLAGS)
tests_check_trace_LDADD = $(BFS_TEST_LIBS)

check_PROGRAMS += tests/check_import_bftrainer
tests_check_import_bftrainer_SOURCES = tests/check_import_bftrainer.c \
	tests/testutil.h
tests_check_import_bftrainer_CFLAGS = $(BFS_TEST_CFLAGS)
tests_check_import_bftrainer_LDADD = $(BFS_TEST_LIBS)

check_PROGRAMS += tests/check_traceinfo
tests_check_traceinfo_SOURCES = tests/check_traceinfo.c tests/testutil.h
tests_check_traceinfo_CFLAGS = $(BFS_TEST_CFLAGS)
tests_check_traceinfo_LDADD = $(BFS_TEST_LIBS)

check_PROGRAMS += tests/check_gentrace
tests_check_gentrace_SOURCES = tests/check_gentrace.c tests/testutil.h
tests_check_gentrace_CFLAGS = $(BFS_TEST_CFLAGS)
tests_check_gentrace_LDADD = $(BFS_TEST_LIBS)
