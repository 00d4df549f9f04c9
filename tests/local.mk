# The Check test programs: tests/check_NAME.c each, linking the library
# (or running the bfsim program), and the script tests (*.test).  Every
# test program shares the flags below, so adding one is one line here.
BFS_TESTLIBS = libbfsim.a $(BFS_LIBS) $(CHECK_LIBS)
BFS_TESTHDRS = tests/testutil.h tests/testjson.h tests/testreplay.h \
	tests/testalloc.h tests/testimport.h tests/testsweep.h tests/testh5.h \
	tests/testjobs.h
EXTRA_DIST += $(BFS_TESTHDRS) tests/data

check_PROGRAMS += \
	tests/check_util \
	tests/check_compress \
	tests/check_zout \
	tests/check_out \
	tests/check_evq \
	tests/check_trace \
	tests/check_jobs \
	tests/check_jobtypes \
	tests/check_hostlist \
	tests/check_nodetypes \
	tests/check_typed_traces \
	tests/check_import_bftrainer \
	tests/check_import_swf \
	tests/check_import_slurm \
	tests/check_import_batsim \
	tests/check_import_elastisim \
	tests/check_import_acct \
	tests/check_traceinfo \
	tests/check_gentrace \
	tests/check_h5out \
	tests/check_solver \
	tests/check_mps \
	tests/check_params \
	tests/check_bench \
	tests/check_alloc \
	tests/check_tiebreak \
	tests/check_hints \
	tests/check_nodepick \
	tests/check_instance \
	tests/check_types \
	tests/check_mixed \
	tests/check_replay \
	tests/check_replay_types \
	tests/check_ckpt \
	tests/check_belief \
	tests/check_predict \
	tests/check_options \
	tests/check_agree \
	tests/check_conserve \
	tests/check_signal \
	tests/check_faults \
	tests/check_sweep \
	tests/check_worker \
	tests/check_measures \
	tests/check_cli \
	tests/check_install \
	tests/check_honest \
	tests/check_interop \
	tests/check_batsim \
	tests/check_holdings \
	tests/check_endings \
	tests/check_csv \
	tests/check_paths \
	tests/check_messages

# The scripts the tests run: the independent idle-hours count of an SWF
# log (check_import_swf) and the Python example reading an HDF5 file
# (check_h5out, when h5py and pandas are importable).
dist_noinst_SCRIPTS += tools/swf-idle-hours tools/h5read-example.py
# The independent idle node-seconds count of an lsb.acct (check_import_acct).
dist_noinst_SCRIPTS += tools/lsf-idle-seconds tools/pbs-idle-seconds
# tools/check-evalys: whether evalys loads the Batsim CSV (tests/evalys.test,
# a script printing TAP; a skip when evalys is missing).
dist_noinst_SCRIPTS += tools/check-evalys
BFS_SCRIPT_TESTS += tests/evalys.test
EXTRA_DIST += tests/evalys.test
# The README's and bfsim(1)'s examples, run and compared with what they
# show (tests/examples/README).
BFS_SCRIPT_TESTS += tests/examples.test
EXTRA_DIST += tests/examples.test tests/examples/README \
	tests/examples/readme.ex tests/examples/man.ex
tests_check_faults_SOURCES = tests/check_faults.c $(BFS_TESTHDRS)
tests_check_faults_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_faults_LDADD = $(BFS_TESTLIBS)
tests_check_mps_SOURCES = tests/check_mps.c $(BFS_TESTHDRS)
tests_check_mps_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_mps_LDADD = $(BFS_TESTLIBS)
tests_check_params_SOURCES = tests/check_params.c $(BFS_TESTHDRS)
tests_check_params_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_params_LDADD = $(BFS_TESTLIBS)
tests_check_bench_SOURCES = tests/check_bench.c $(BFS_TESTHDRS)
tests_check_bench_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_bench_LDADD = $(BFS_TESTLIBS)
tests_check_util_SOURCES = tests/check_util.c $(BFS_TESTHDRS)
tests_check_util_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_util_LDADD = $(BFS_TESTLIBS)
tests_check_compress_SOURCES = tests/check_compress.c $(BFS_TESTHDRS)
tests_check_compress_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_compress_LDADD = $(BFS_TESTLIBS)
tests_check_zout_SOURCES = tests/check_zout.c $(BFS_TESTHDRS)
tests_check_zout_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_zout_LDADD = $(BFS_TESTLIBS)
tests_check_out_SOURCES = tests/check_out.c $(BFS_TESTHDRS)
tests_check_out_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_out_LDADD = $(BFS_TESTLIBS)
tests_check_evq_SOURCES = tests/check_evq.c $(BFS_TESTHDRS)
tests_check_evq_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_evq_LDADD = $(BFS_TESTLIBS)
tests_check_trace_SOURCES = tests/check_trace.c $(BFS_TESTHDRS)
tests_check_trace_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_trace_LDADD = $(BFS_TESTLIBS)
tests_check_jobs_SOURCES = tests/check_jobs.c $(BFS_TESTHDRS)
tests_check_jobs_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_jobs_LDADD = $(BFS_TESTLIBS)
tests_check_jobtypes_SOURCES = tests/check_jobtypes.c $(BFS_TESTHDRS)
tests_check_jobtypes_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_jobtypes_LDADD = $(BFS_TESTLIBS)
tests_check_hostlist_SOURCES = tests/check_hostlist.c $(BFS_TESTHDRS)
tests_check_hostlist_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_hostlist_LDADD = $(BFS_TESTLIBS)
tests_check_nodetypes_SOURCES = tests/check_nodetypes.c $(BFS_TESTHDRS)
tests_check_nodetypes_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_nodetypes_LDADD = $(BFS_TESTLIBS)
tests_check_typed_traces_SOURCES = tests/check_typed_traces.c $(BFS_TESTHDRS)
tests_check_typed_traces_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_typed_traces_LDADD = $(BFS_TESTLIBS)
tests_check_import_bftrainer_SOURCES = tests/check_import_bftrainer.c $(BFS_TESTHDRS)
tests_check_import_bftrainer_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_import_bftrainer_LDADD = $(BFS_TESTLIBS)
tests_check_import_swf_SOURCES = tests/check_import_swf.c $(BFS_TESTHDRS)
tests_check_import_swf_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_import_swf_LDADD = $(BFS_TESTLIBS)
tests_check_import_slurm_SOURCES = tests/check_import_slurm.c $(BFS_TESTHDRS)
tests_check_import_slurm_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_import_slurm_LDADD = $(BFS_TESTLIBS)
tests_check_import_batsim_SOURCES = tests/check_import_batsim.c $(BFS_TESTHDRS)
tests_check_import_batsim_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_import_batsim_LDADD = $(BFS_TESTLIBS)
tests_check_import_elastisim_SOURCES = tests/check_import_elastisim.c $(BFS_TESTHDRS)
tests_check_import_elastisim_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_import_elastisim_LDADD = $(BFS_TESTLIBS)
tests_check_import_acct_SOURCES = tests/check_import_acct.c $(BFS_TESTHDRS)
tests_check_import_acct_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_import_acct_LDADD = $(BFS_TESTLIBS)
tests_check_traceinfo_SOURCES = tests/check_traceinfo.c $(BFS_TESTHDRS)
tests_check_traceinfo_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_traceinfo_LDADD = $(BFS_TESTLIBS)
tests_check_gentrace_SOURCES = tests/check_gentrace.c $(BFS_TESTHDRS)
tests_check_gentrace_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_gentrace_LDADD = $(BFS_TESTLIBS)
tests_check_h5out_SOURCES = tests/check_h5out.c $(BFS_TESTHDRS)
tests_check_h5out_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_h5out_LDADD = $(BFS_TESTLIBS)
tests_check_solver_SOURCES = tests/check_solver.c $(BFS_TESTHDRS)
tests_check_solver_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_solver_LDADD = $(BFS_TESTLIBS)
tests_check_alloc_SOURCES = tests/check_alloc.c $(BFS_TESTHDRS)
tests_check_alloc_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_alloc_LDADD = $(BFS_TESTLIBS)
tests_check_hints_SOURCES = tests/check_hints.c $(BFS_TESTHDRS)
tests_check_hints_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_hints_LDADD = $(BFS_TESTLIBS)
tests_check_tiebreak_SOURCES = tests/check_tiebreak.c $(BFS_TESTHDRS)
tests_check_tiebreak_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_tiebreak_LDADD = $(BFS_TESTLIBS)
tests_check_nodepick_SOURCES = tests/check_nodepick.c $(BFS_TESTHDRS)
tests_check_nodepick_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_nodepick_LDADD = $(BFS_TESTLIBS)
tests_check_instance_SOURCES = tests/check_instance.c $(BFS_TESTHDRS)
tests_check_instance_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_instance_LDADD = $(BFS_TESTLIBS)
tests_check_types_SOURCES = tests/check_types.c $(BFS_TESTHDRS)
tests_check_types_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_types_LDADD = $(BFS_TESTLIBS)
tests_check_mixed_SOURCES = tests/check_mixed.c $(BFS_TESTHDRS)
tests_check_mixed_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_mixed_LDADD = $(BFS_TESTLIBS)
tests_check_options_SOURCES = tests/check_options.c $(BFS_TESTHDRS)
tests_check_options_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_options_LDADD = $(BFS_TESTLIBS)
tests_check_replay_SOURCES = tests/check_replay.c $(BFS_TESTHDRS)
tests_check_replay_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_replay_LDADD = $(BFS_TESTLIBS)
tests_check_replay_types_SOURCES = tests/check_replay_types.c $(BFS_TESTHDRS)
tests_check_replay_types_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_replay_types_LDADD = $(BFS_TESTLIBS)
tests_check_belief_SOURCES = tests/check_belief.c $(BFS_TESTHDRS)
tests_check_belief_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_belief_LDADD = $(BFS_TESTLIBS)
tests_check_predict_SOURCES = tests/check_predict.c $(BFS_TESTHDRS)
tests_check_predict_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_predict_LDADD = $(BFS_TESTLIBS)
tests_check_agree_SOURCES = tests/check_agree.c $(BFS_TESTHDRS)
tests_check_agree_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_agree_LDADD = $(BFS_TESTLIBS)
tests_check_conserve_SOURCES = tests/check_conserve.c $(BFS_TESTHDRS)
tests_check_conserve_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_conserve_LDADD = $(BFS_TESTLIBS)
tests_check_signal_SOURCES = tests/check_signal.c $(BFS_TESTHDRS)
tests_check_signal_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_signal_LDADD = $(BFS_TESTLIBS)
tests_check_sweep_SOURCES = tests/check_sweep.c $(BFS_TESTHDRS)
tests_check_sweep_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_sweep_LDADD = $(BFS_TESTLIBS)
tests_check_worker_SOURCES = tests/check_worker.c $(BFS_TESTHDRS)
tests_check_worker_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_worker_LDADD = $(BFS_TESTLIBS)
tests_check_measures_SOURCES = tests/check_measures.c $(BFS_TESTHDRS)
tests_check_measures_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_measures_LDADD = $(BFS_TESTLIBS)
tests_check_cli_SOURCES = tests/check_cli.c $(BFS_TESTHDRS)
tests_check_cli_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_cli_LDADD = $(BFS_TESTLIBS)
tests_check_install_SOURCES = tests/check_install.c $(BFS_TESTHDRS)
tests_check_install_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_install_LDADD = $(BFS_TESTLIBS)
tests_check_honest_SOURCES = tests/check_honest.c $(BFS_TESTHDRS)
tests_check_honest_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_honest_LDADD = $(BFS_TESTLIBS)
tests_check_interop_SOURCES = tests/check_interop.c $(BFS_TESTHDRS)
tests_check_interop_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_interop_LDADD = $(BFS_TESTLIBS)
tests_check_batsim_SOURCES = tests/check_batsim.c $(BFS_TESTHDRS)
tests_check_batsim_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_batsim_LDADD = $(BFS_TESTLIBS)
tests_check_holdings_SOURCES = tests/check_holdings.c $(BFS_TESTHDRS)
tests_check_holdings_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_holdings_LDADD = $(BFS_TESTLIBS)
tests_check_ckpt_SOURCES = tests/check_ckpt.c $(BFS_TESTHDRS)
tests_check_ckpt_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_ckpt_LDADD = $(BFS_TESTLIBS)
tests_check_endings_SOURCES = tests/check_endings.c $(BFS_TESTHDRS)
tests_check_endings_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_endings_LDADD = $(BFS_TESTLIBS)
tests_check_csv_SOURCES = tests/check_csv.c $(BFS_TESTHDRS)
tests_check_csv_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_csv_LDADD = $(BFS_TESTLIBS)
tests_check_paths_SOURCES = tests/check_paths.c $(BFS_TESTHDRS)
tests_check_paths_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_paths_LDADD = $(BFS_TESTLIBS)
tests_check_messages_SOURCES = tests/check_messages.c $(BFS_TESTHDRS)
tests_check_messages_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_messages_LDADD = $(BFS_TESTLIBS)

# `make check-valgrind [VALGRIND_TESTS='tests/check_util ...']`: the Check
# programs (all by default) through `make check` with valgrind's memcheck
# as LOG_COMPILER, failing on any memory error or definite leak.  Check
# keeps its fork mode: valgrind follows fork() by itself, so each test runs
# and ends (leak check included) in its own valgrind child, and a finding
# fails that test by name, while the tests that need a fresh process
# (environment, signals, exit status) still get one.  --trace-children
# puts the bfsim runs the tests exec under valgrind too (not the shell,
# rm, Python or GNU parallel they may start).  A finding makes the process
# exit 99, a status no bfsim run and no test expects: a run that must
# fail with 1 or 2 then fails its test too, where 1 would hide it.
# Check's timeouts are stretched for valgrind's slowness.
VALGRIND = valgrind
VALGRIND_FLAGS = --tool=memcheck --leak-check=full \
	--errors-for-leak-kinds=definite --error-exitcode=99 --quiet \
	--trace-children=yes \
	--trace-children-skip='*/sh,*/bash,*/rm,*/python*,*/parallel,*/perl*,*/gzip'
VALGRIND_TESTS = $(check_PROGRAMS)
check-valgrind: all
	CK_TIMEOUT_MULTIPLIER=$${CK_TIMEOUT_MULTIPLIER:-30}; \
	export CK_TIMEOUT_MULTIPLIER; \
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(VALGRIND_TESTS)' \
	  LOG_COMPILER='$(VALGRIND) $(VALGRIND_FLAGS)'
.PHONY: check-valgrind

# Fuzzing (./configure --enable-fuzzing CC=clang): one libFuzzer target per
# reader, all from tests/fuzz/fuzz.c, each with its seed corpus in
# tests/fuzz/corpus/NAME.  `make fuzz FUZZ_SECONDS=N` runs each for N
# seconds on a copy of its corpus and fails on any crash, leak or UB.
BFS_FUZZ_TARGETS = trace jobs pair swf slurm hostlist export instance sweep \
	batsim batsim_events elastisim nodetypes pbs lsf
EXTRA_DIST += tests/fuzz/fuzz.c tests/fuzz/corpus
if FUZZING
noinst_PROGRAMS = tests/fuzz/fuzz_trace tests/fuzz/fuzz_jobs tests/fuzz/fuzz_pair tests/fuzz/fuzz_swf tests/fuzz/fuzz_slurm tests/fuzz/fuzz_hostlist tests/fuzz/fuzz_export tests/fuzz/fuzz_instance tests/fuzz/fuzz_sweep tests/fuzz/fuzz_batsim tests/fuzz/fuzz_batsim_events tests/fuzz/fuzz_elastisim tests/fuzz/fuzz_nodetypes tests/fuzz/fuzz_pbs tests/fuzz/fuzz_lsf
tests_fuzz_fuzz_trace_SOURCES = tests/fuzz/fuzz.c
tests_fuzz_fuzz_trace_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_TRACE
tests_fuzz_fuzz_trace_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_trace_LDADD = libbfsim.a $(BFS_LIBS)
tests_fuzz_fuzz_jobs_SOURCES = tests/fuzz/fuzz.c
tests_fuzz_fuzz_jobs_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_JOBS
tests_fuzz_fuzz_jobs_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_jobs_LDADD = libbfsim.a $(BFS_LIBS)
tests_fuzz_fuzz_pair_SOURCES = tests/fuzz/fuzz.c
tests_fuzz_fuzz_pair_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_PAIR
tests_fuzz_fuzz_pair_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_pair_LDADD = libbfsim.a $(BFS_LIBS)
tests_fuzz_fuzz_swf_SOURCES = tests/fuzz/fuzz.c
tests_fuzz_fuzz_swf_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_SWF
tests_fuzz_fuzz_swf_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_swf_LDADD = libbfsim.a $(BFS_LIBS)
tests_fuzz_fuzz_slurm_SOURCES = tests/fuzz/fuzz.c
tests_fuzz_fuzz_slurm_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_SLURM
tests_fuzz_fuzz_slurm_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_slurm_LDADD = libbfsim.a $(BFS_LIBS)
tests_fuzz_fuzz_hostlist_SOURCES = tests/fuzz/fuzz.c
tests_fuzz_fuzz_hostlist_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_HOSTLIST
tests_fuzz_fuzz_hostlist_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_hostlist_LDADD = libbfsim.a $(BFS_LIBS)
tests_fuzz_fuzz_export_SOURCES = tests/fuzz/fuzz.c
tests_fuzz_fuzz_export_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_EXPORT
tests_fuzz_fuzz_export_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_export_LDADD = libbfsim.a $(BFS_LIBS)
tests_fuzz_fuzz_instance_SOURCES = tests/fuzz/fuzz.c
tests_fuzz_fuzz_instance_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_INSTANCE
tests_fuzz_fuzz_instance_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_instance_LDADD = libbfsim.a $(BFS_LIBS)
tests_fuzz_fuzz_sweep_SOURCES = tests/fuzz/fuzz.c
tests_fuzz_fuzz_sweep_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_SWEEP
tests_fuzz_fuzz_sweep_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_sweep_LDADD = libbfsim.a $(BFS_LIBS)
tests_fuzz_fuzz_batsim_SOURCES = tests/fuzz/fuzz.c
tests_fuzz_fuzz_batsim_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_BATSIM
tests_fuzz_fuzz_batsim_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_batsim_LDADD = libbfsim.a $(BFS_LIBS)
tests_fuzz_fuzz_batsim_events_SOURCES = tests/fuzz/fuzz.c
tests_fuzz_fuzz_batsim_events_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_BATSIM_EVENTS
tests_fuzz_fuzz_batsim_events_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_batsim_events_LDADD = libbfsim.a $(BFS_LIBS)
tests_fuzz_fuzz_elastisim_SOURCES = tests/fuzz/fuzz.c
tests_fuzz_fuzz_elastisim_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_ELASTISIM
tests_fuzz_fuzz_elastisim_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_elastisim_LDADD = libbfsim.a $(BFS_LIBS)
tests_fuzz_fuzz_nodetypes_SOURCES = tests/fuzz/fuzz.c
tests_fuzz_fuzz_nodetypes_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_NODETYPES
tests_fuzz_fuzz_nodetypes_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_nodetypes_LDADD = libbfsim.a $(BFS_LIBS)
tests_fuzz_fuzz_pbs_SOURCES = tests/fuzz/fuzz.c
tests_fuzz_fuzz_pbs_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_PBS
tests_fuzz_fuzz_pbs_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_pbs_LDADD = libbfsim.a $(BFS_LIBS)
tests_fuzz_fuzz_lsf_SOURCES = tests/fuzz/fuzz.c
tests_fuzz_fuzz_lsf_CPPFLAGS = $(AM_CPPFLAGS) -DFUZZ_LSF
tests_fuzz_fuzz_lsf_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_lsf_LDADD = libbfsim.a $(BFS_LIBS)
endif
FUZZ_SECONDS = 60
fuzz:
if FUZZING
	@set -e; for t in $(BFS_FUZZ_TARGETS); do \
	  work=fuzz-corpus/$$t; mkdir -p $$work; \
	  echo "fuzz_$$t: $(FUZZ_SECONDS) s"; \
	  tests/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 \
	    -timeout=30 -print_final_stats=1 -artifact_prefix=fuzz-corpus/$$t- \
	    $$work $(srcdir)/tests/fuzz/corpus/$$t 2>&1 | \
	    grep -E '^(#[0-9]+.*DONE|stat::|==[0-9]+==ERROR|SUMMARY|Done)' || true; \
	  if ls fuzz-corpus/$$t-crash-* fuzz-corpus/$$t-leak-* \
	     fuzz-corpus/$$t-timeout-* fuzz-corpus/$$t-oom-* >/dev/null 2>&1; then \
	    echo "fuzz_$$t: finding in fuzz-corpus/"; exit 1; fi; \
	done
else
	@echo "make fuzz: configure with --enable-fuzzing CC=clang first"; exit 1
endif
.PHONY: fuzz
