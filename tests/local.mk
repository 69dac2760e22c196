## Tests, run by 'make check' under the automake parallel harness.

# Unit tests (Check), one program per stage.
unit_tests = tests/check_map tests/check_plan tests/check_zero_run \
  tests/check_progress
check_PROGRAMS = $(unit_tests)
unit_ldadd = src/libsparsecp.a lib/libgnu.a $(CHECK_LIBS) $(SELINUX_LIBS)
unit_cflags = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_map_SOURCES = tests/check_map.c tests/check-probe.c tests/check-probe.h
tests_check_map_CFLAGS = $(unit_cflags)
tests_check_map_LDADD = $(unit_ldadd)
tests_check_plan_SOURCES = tests/check_plan.c tests/check-probe.c tests/check-probe.h
tests_check_plan_CFLAGS = $(unit_cflags)
tests_check_plan_LDADD = $(unit_ldadd)
tests_check_zero_run_SOURCES = tests/check_zero_run.c
tests_check_zero_run_CFLAGS = $(unit_cflags)
tests_check_zero_run_LDADD = $(unit_ldadd)
tests_check_progress_SOURCES = tests/check_progress.c
tests_check_progress_CFLAGS = $(unit_cflags)
tests_check_progress_LDADD = $(unit_ldadd)

# Makes test files with data, holes and unwritten extents where asked.
check_PROGRAMS += tests/mkholes
tests_mkholes_SOURCES = tests/mkholes.c

# The LD_PRELOAD shim that makes system calls fail or lie, for the fault
# tests.  Built as a program so automake handles VPATH and distcheck; it
# is never built with the sanitizers, whose runtime must come first.
check_PROGRAMS += tests/faultinject.so
tests_faultinject_so_SOURCES = tests/faultinject.c
# Not gnulib: the shim stands between the program and libc itself.
tests_faultinject_so_CPPFLAGS = -I$(top_srcdir)/tests
tests_faultinject_so_CFLAGS = $(WARN_CFLAGS) -fPIC
tests_faultinject_so_LDFLAGS = -shared
tests_faultinject_so_LDADD = -ldl

# Stands in for the SELinux module, for tests/context.sh: only where
# sparsecp is built with libselinux.
if SELINUX
check_PROGRAMS += tests/selinux-shim.so
endif
tests_selinux_shim_so_SOURCES = tests/selinux-shim.c
# Not gnulib: the shim stands between the program and libc itself.
tests_selinux_shim_so_CPPFLAGS = -I$(top_srcdir)/tests
tests_selinux_shim_so_CFLAGS = $(WARN_CFLAGS) -fPIC
tests_selinux_shim_so_LDFLAGS = -shared
tests_selinux_shim_so_LDADD = -ldl

# Swaps directories for symlinks while a copy runs, for tests/race.sh.
check_PROGRAMS += tests/swapdirs
tests_swapdirs_SOURCES = tests/swapdirs.c

# Runs a command and records its peak RSS, for tests/memory.sh.
check_PROGRAMS += tests/peak-rss
tests_peak_rss_SOURCES = tests/peak-rss.c

# Rewrites a file generation after generation, and checks copies of it.
check_PROGRAMS += tests/stress
tests_stress_SOURCES = tests/stress.c

shell_tests = \
  tests/basic.sh \
  tests/holes.sh \
  tests/prealloc.sh \
  tests/sparse-modes.sh \
  tests/special.sh \
  tests/new-dest-signal.sh \
  tests/new-dest-link.sh \
  tests/new-dest-replace.sh \
  tests/new-dest-race.sh \
  tests/new-dest-mode.sh \
  tests/backup-race.sh \
  tests/tmpfs.sh \
  tests/big.sh \
  tests/memory.sh \
  tests/small-blocks.sh \
  tests/faults.sh \
  tests/bad-input.sh \
  tests/stress.sh \
  tests/stress-check.sh \
  tests/reflink.sh \
  tests/progress.sh \
  tests/stats.sh \
  tests/acl.sh \
  tests/context.sh \
  tests/compat-tree.sh \
  tests/compat-jobs.sh \
  tests/jobs.sh \
  tests/compat-xdev.sh \
  tests/compat-backup.sh \
  tests/compat-link.sh \
  tests/compat-parents.sh \
  tests/compat-attributes-only.sh \
  tests/compat-copy-contents.sh \
  tests/compat-overwrite.sh \
  tests/compat-errors.sh \
  tests/compat-same.sh \
  tests/compat-abuse.sh \
  tests/race.sh \
  tests/completion.sh \
  tests/options-documented.sh \
  tests/debian-version.sh

TESTS = $(unit_tests) $(shell_tests)
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = \
  abs_top_builddir='$(abs_top_builddir)'; export abs_top_builddir; \
  abs_top_srcdir='$(abs_top_srcdir)'; export abs_top_srcdir; \
  PATH='$(abs_top_builddir)/src$(PATH_SEPARATOR)$(abs_top_builddir)/tests$(PATH_SEPARATOR)'"$$PATH"; \
  export PATH; CK_DEFAULT_TIMEOUT=60; export CK_DEFAULT_TIMEOUT;

EXTRA_DIST += $(shell_tests) tests/init.sh tests/new-dest-init.sh tests/faults.tab \
  tests/compat-init.sh


# A libFuzzer harness for the map validator, outside make check: it needs
# clang.  'make fuzz FUZZ_SECONDS=600' runs it; crashes land in tests/.
FUZZ_CC = clang
FUZZ_CFLAGS = -g -O1 -fsanitize=fuzzer,address,undefined \
  -fno-sanitize-recover=all
FUZZ_SECONDS = 60
# The validator is extent-map.c, which calls no other file of the map.
fuzz_map_src = $(srcdir)/src/extent-map.c
tests/fuzz-map: $(srcdir)/tests/fuzz-map.c $(fuzz_map_src) \
    $(srcdir)/src/extent-map.h lib/libgnu.a
	$(AM_V_CCLD)$(FUZZ_CC) $(FUZZ_CFLAGS) $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) \
	  $(CPPFLAGS) -o $@ $(srcdir)/tests/fuzz-map.c \
	  $(fuzz_map_src) lib/libgnu.a $(LIBS)
fuzz: tests/fuzz-map
	mkdir -p tests/fuzz-corpus
	tests/fuzz-map -max_total_time=$(FUZZ_SECONDS) \
	  -artifact_prefix=tests/ tests/fuzz-corpus
.PHONY: fuzz
CLEANFILES += tests/fuzz-map
EXTRA_DIST += tests/fuzz-map.c
clean-local: clean-fuzz
clean-fuzz:
	rm -rf tests/fuzz-corpus
.PHONY: clean-fuzz
