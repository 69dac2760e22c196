#!/bin/sh
# Preallocated (unwritten) ranges, with and without data written into
# them and not yet synced: data is never taken for zeros, and unwritten
# space that reads as zeros does not need to be allocated in the copy.
. "${abs_top_srcdir:-.}/tests/init.sh"

mkholes probe 64K u:0:64K
test $? = 77 && skip_ "fallocate is not supported here"

copy_layouts <<'LAYOUTS'
empty-prealloc   1M  0 u:0:1M
data-in-prealloc 1M  2 u:0:1M d:4K:8K d:700K:1
prealloc-past-eof 64K 1 d:0:10K u:0:1M
prealloc-between 2M  3 d:0:4K u:512K:512K d:600K:4K d:2044K:4K
LAYOUTS

# The unwritten part of the copy is a hole: at most the data is allocated.
test "$(blocks empty-prealloc.fiemap)" -le 8 \
  || fail_ "an unwritten range that reads as zeros was allocated"

Exit $fail
