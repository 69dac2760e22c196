#!/bin/sh
# tmpfs has no FIEMAP: auto must fall back to SEEK_DATA, and a forced
# fiemap must still copy correctly.
test_base=/dev/shm
test "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs \
  || { echo "SKIP: /dev/shm is not tmpfs"; exit 77; }
. "${abs_top_srcdir:-.}/tests/init.sh"

copy_layouts <<'LAYOUTS'
mixed     1M     3 d:0:4K d:64K:100K d:1020K:4K
unaligned 100001 2 d:4095:2 d:90000:10001
allholes  16M    0
prealloc  1M     1 u:0:1M d:8K:4K
LAYOUTS

sparsecp --debug mixed m.auto 2>err || fail_ "auto failed on tmpfs"
grep -F "fiemap not used" err >/dev/null \
  || fail_ "--debug did not say why fiemap was not used"
grep -F "scan=seek" err >/dev/null || fail_ "auto did not fall back to seek"

Exit $fail
