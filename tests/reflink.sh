#!/bin/sh
# Within one btrfs, the default copy is a reflink of the whole file: the
# same bytes, holes kept, no data moved; a forced --scan maps and copies.
. "${abs_top_srcdir:-.}/tests/init.sh"

loop_mount btrfs 200M -q -f

mkholes mnt/src 8M d:0:4K d:1M:64K d:5M:3 || framework_failure_ mkholes
sparsecp --debug mnt/src mnt/dst 2>err || fail_ "the reflink copy failed"
grep -F "scan=reflink" err >/dev/null || { fail_ "the copy was not a reflink"; cat err; }
check_copy mnt/src mnt/dst 3
sparsecp --debug --scan=fiemap mnt/src mnt/dst2 2>err || fail_ "--scan=fiemap failed"
grep -F "scan=fiemap extents=3" err >/dev/null \
  || { fail_ "--scan=fiemap did not map the file"; cat err; }
check_copy mnt/src mnt/dst2 3

Exit $fail
