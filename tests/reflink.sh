#!/bin/sh
# Within one btrfs, the default copy is a reflink of the whole file: the
# same bytes, holes kept, no data moved; a forced --scan maps and copies.
. "${abs_top_srcdir:-.}/tests/init.sh"

test "$(id -u)" = 0 || skip_ "mounting a btrfs image needs root"
command -v mkfs.btrfs >/dev/null || skip_ "mkfs.btrfs is not installed"
truncate -s 200M img && mkfs.btrfs -q -f img >/dev/null 2>&1 \
  || skip_ "cannot make a btrfs image"
mkdir mnt && mount -o loop img mnt 2>/dev/null \
  || skip_ "cannot loop-mount a btrfs image here"
cleanup_mount () { umount mnt 2>/dev/null; }
trap 'cleanup_mount; Exit 99' HUP INT TERM

mkholes mnt/src 8M d:0:4K d:1M:64K d:5M:3 || framework_failure_ mkholes
sparsecp --debug mnt/src mnt/dst 2>err || fail_ "the reflink copy failed"
grep -F "scan=reflink" err >/dev/null || { fail_ "the copy was not a reflink"; cat err; }
check_copy mnt/src mnt/dst 3
sparsecp --debug --scan=fiemap mnt/src mnt/dst2 2>err || fail_ "--scan=fiemap failed"
grep -F "scan=fiemap extents=3" err >/dev/null \
  || { fail_ "--scan=fiemap did not map the file"; cat err; }
check_copy mnt/src mnt/dst2 3

cleanup_mount
Exit $fail
