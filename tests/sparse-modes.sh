#!/bin/sh
# --sparse=always makes holes of zero blocks; --sparse=never writes every
# byte; both keep the bytes.
. "${abs_top_srcdir:-.}/tests/init.sh"

# 1 MiB of written zeros with data at both ends and a 1-byte zero run.
mkholes z 1M z:0:1M d:0:4K d:1044480:4K || framework_failure_ mkholes
printf '\0' | dd of=z bs=1 seek=100 conv=notrunc status=none
for scan in $scans; do
  sparsecp --sparse=always --scan=$scan z z.always.$scan \
    || fail_ "--sparse=always --scan=$scan failed"
  cmp z z.always.$scan || fail_ "--sparse=always --scan=$scan differs"
  test "$(blocks z.always.$scan)" -le 16 \
    || fail_ "--sparse=always --scan=$scan kept zero blocks"
done

mkholes h 1M d:4K:4K || framework_failure_ mkholes
for scan in $scans; do
  sparsecp --sparse=never --scan=$scan h h.never.$scan \
    || fail_ "--sparse=never --scan=$scan failed"
  cmp h h.never.$scan || fail_ "--sparse=never --scan=$scan differs"
  test "$(blocks h.never.$scan)" -ge 2048 \
    || fail_ "--sparse=never --scan=$scan left holes"
done

# Unaligned size with a zero tail: the size is exact and the tail a hole.
mkholes t 10000 z:0:10000 d:0:10 || framework_failure_ mkholes
sparsecp --sparse=always t t.always || fail_ "--sparse=always tail failed"
cmp t t.always || fail_ "--sparse=always tail differs"
test "$(blocks t.always)" -le 8 || fail_ "the zero tail was written"

Exit $fail
