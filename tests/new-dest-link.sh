#!/bin/sh
# A new DEST gets its name only when complete: by linkat of the unnamed
# file, by its name in /proc where AT_EMPTY_PATH is refused, or by a
# named temporary where O_TMPFILE is not supported; a link that fails
# leaves nothing.
. "${abs_top_srcdir:-.}/tests/init.sh"
. "${abs_top_srcdir:-.}/tests/new-dest-init.sh"

# The name that must not be taken is refused, and nothing is left.
FAULT=linkat:EIO FAULT_PATH=out/dst LD_PRELOAD="$preload" \
  expect_fail 1 "cannot create regular file 'out/dst': Input/output error" \
  sparsecp src out/dst
only_in_out "" "after a failed link"

# Without CAP_DAC_READ_SEARCH, linkat (AT_EMPTY_PATH) says ENOENT on
# kernels before 6.10: the file is linked by its name in /proc instead.
rm -f out/dst
FAULT=linkat:ENOENT FAULT_PATH=out/dst FAULT_LOG=log LD_PRELOAD="$preload" \
  sparsecp src out/dst || fail_ "copy with AT_EMPTY_PATH refused failed"
test -s log || framework_failure_ "the fault was not injected"
cmp src out/dst || fail_ "copy with AT_EMPTY_PATH refused differs"
only_in_out "dst " "after a link through /proc"

rm -f log out/dst

# A file system without O_TMPFILE (open says EOPNOTSUPP): the named
# temporary file does, with the same result.
FAULT=open:EOPNOTSUPP FAULT_PATH=out FAULT_LOG=log LD_PRELOAD="$preload" \
  sparsecp src out/dst || fail_ "copy without O_TMPFILE failed"
test -s log || framework_failure_ "the fault was not injected"
cmp src out/dst || fail_ "copy without O_TMPFILE differs"
only_in_out "dst " "after a copy without O_TMPFILE"

Exit $fail
