#!/bin/sh
# A file of 200,000 extents is copied with memory that does not grow with
# its extent count: the copy's peak RSS stays within 1 MiB of a copy of a
# file of one extent.  A tree's copy on workers holds a bounded number of
# files at once.  (A map of the whole file took 16 bytes an extent,
# 3.1 MiB here.)  Bytes equal and holes kept, with FIEMAP and SEEK_DATA.
. "${abs_top_srcdir:-.}/tests/init.sh"

n=200000
mkholes one 8K d:0:4K || framework_failure_ mkholes
mkholes frag $((n * 8))K r:0:$n:4K:4K || framework_failure_ mkholes

# A sanitizer's runtime keeps memory of its own: there only the bytes
# and holes are checked.
asan=$(ldd "$(command -v sparsecp)" 2>/dev/null | grep -c libasan)

for scan in auto seek; do
  peak-rss rss.one sparsecp --scan=$scan one one.$scan \
    || fail_ "--scan=$scan one failed"
  peak-rss rss.frag sparsecp --debug --scan=$scan frag frag.$scan 2>err \
    || { cat err >&2; fail_ "--scan=$scan frag failed"; }
  # The method asked for was the one used, over every extent.
  grep -F "extents=$n " err >/dev/null \
    || { cat err >&2; fail_ "--scan=$scan frag: not mapped as $n extents"; }
  check_copy frag frag.$scan 64
  grew=$(( $(cat rss.frag) - $(cat rss.one) ))
  echo "--scan=$scan: peak RSS $(cat rss.frag) KiB, $grew KiB above one extent's"
  test "$asan" != 0 || test $grew -le 1024 \
    || fail_ "--scan=$scan: $n extents took $grew KiB more than one (at most 1024)"
  rm -f frag.$scan
done

# A directory of 20,000 empty files (no copy buffers) copied by four
# workers takes at most 1 MiB more than by one: the walker, faster than
# the workers, waits when 16 copies a worker are pending.  With no such
# bound it held a job for each file: 1,860 KiB more.
mkdir many && (cd many && seq 1 20000 | xargs touch) \
  || framework_failure_ "cannot make many"
peak-rss rss.j1 sparsecp -r -j 1 many many.1 || fail_ "-j 1 many failed"
peak-rss rss.j4 sparsecp -r -j 4 many many.4 || fail_ "-j 4 many failed"
test "$(ls many.4 | wc -l)" = 20000 || fail_ "-j 4 did not copy 20000 files"
grew=$(( $(cat rss.j4) - $(cat rss.j1) ))
echo "20,000 files: peak RSS $(cat rss.j1) KiB with -j 1, $grew KiB more with -j 4"
test "$asan" != 0 || test $grew -le 1024 \
  || fail_ "-j 4 took $grew KiB more than -j 1 for 20,000 files (at most 1024)"
Exit $fail
