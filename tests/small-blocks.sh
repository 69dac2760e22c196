#!/bin/sh
# On an ext4 of 1 KiB blocks a leaf of the extent tree holds 84 extents,
# so a file of many small extents has more of its st_blocks in metadata
# than on 4 KiB blocks.  That is not hidden data: FIEMAP's map is still
# trusted and used, not refused for "fewer bytes mapped than allocated".
. "${abs_top_srcdir:-.}/tests/init.sh"

loop_mount ext4 128M -q -F -b 1024

n=20000
mkholes mnt/src $((n * 2))K r:0:$n:1K:1K || framework_failure_ mkholes
sync
meta=$(( $(stat -c %b mnt/src) / 2 - n ))
echo "$n extents of 1 KiB, $meta KiB of extent tree"
for scan in auto fiemap; do
  sparsecp --debug --scan=$scan mnt/src mnt/dst.$scan 2>err \
    || { cat err >&2; fail_ "--scan=$scan failed"; }
  grep -F "scan=fiemap extents=$n " err >/dev/null \
    || { cat err >&2; fail_ "--scan=$scan: FIEMAP's map was not used"; }
  check_copy mnt/src mnt/dst.$scan 0
done

Exit $fail
