# conserve.mk: conservation checks on replays of the bundled data (runs
# the bfsim program and reads its CSV, JSON and HDF5 outputs), and the
# progress line and SIGINT handling of `bfsim replay`.
check_PROGRAMS += tests/check_conserve
tests_check_conserve_SOURCES = tests/check_conserve.c tests/testutil.h \
	tests/testjson.h
tests_check_conserve_CFLAGS = $(BFS_TEST_CFLAGS)
tests_check_conserve_LDADD = $(BFS_TEST_LIBS)

check_PROGRAMS += tests/check_signal
tests_check_signal_SOURCES = tests/check_signal.c tests/testutil.h \
	tests/testjson.h
tests_check_signal_CFLAGS = $(BFS_TEST_CFLAGS)
tests_check_signal_LDADD = $(BFS_TEST_LIBS)
