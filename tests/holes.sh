#!/bin/sh
# Data and holes survive a copy made right after writing, with every
# scan method, on the filesystem of the build directory (or $test_base).
. "${abs_top_srcdir:-.}/tests/init.sh"

# --verify finds nothing wrong with a good copy, and keeps the holes.
VERIFY=1
copy_layouts <<'LAYOUTS'
mixed      1M    4  d:0:4K d:64K:100K d:300K:3 d:1020K:4K
leading    1M    1  d:512K:64K
trailing   1M    1  d:0:64K
unaligned  100001 2 d:4095:2 d:90000:10001
unaligned2 12289 1  d:12288:1
allholes   64M   0
empty      0     0
dense      3M    1  d:0:3M
zeros      1M    1  z:0:1M
LAYOUTS

# Written with dd and copied at once, with no sync: the seeds' situation.
for scan in $scans; do
  rm -f fresh
  dd if=/dev/urandom of=fresh bs=64K count=3 seek=5 status=none \
    || framework_failure_ dd
  dd if=/dev/urandom of=fresh bs=4K count=1 seek=1000 conv=notrunc \
    status=none || framework_failure_ dd
  sparsecp --scan=$scan fresh fresh.$scan || fail_ "--scan=$scan fresh failed"
  check_copy fresh fresh.$scan 2
done

# --debug says which method mapped the file and what it found.
mkholes dbg 1M d:64K:64K || framework_failure_ mkholes
sparsecp --debug --scan=seek dbg dbg.copy 2>err || fail_ "--debug failed"
grep -F "sparsecp: 'dbg' -> 'dbg.copy': scan=seek extents=1 data=65536 holes=983040" \
  err >/dev/null || { fail_ "--debug report is wrong"; cat err; }
sparsecp --debug --scan=read dbg dbg.copy 2>err || fail_ "--debug failed"
grep -F "scan=read extents=1 data=1048576 holes=0" err >/dev/null \
  || { fail_ "--debug report for read is wrong"; cat err; }
sparsecp --debug --verify dbg dbg.copy 2>err || fail_ "--debug --verify failed"
grep -F "read_write=0 verified" err >/dev/null \
  || { fail_ "--debug does not say the copy was verified"; cat err; }

Exit $fail
