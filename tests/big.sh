#!/bin/sh
# A 1 TiB file with no data copies in no time and stays a hole, and a
# file of 100,000 extents is copied exactly, by the method asked for,
# which finds every extent (the --debug line says so).
. "${abs_top_srcdir:-.}/tests/init.sh"

mkholes huge 1T 2>/dev/null || skip_ "cannot make a 1 TiB file here"
# Reading 1 TiB of holes would take minutes: the read method gets the
# same layout at 4 GiB.
for scan in auto fiemap seek; do
  sparsecp --scan=$scan huge huge.$scan || fail_ "--scan=$scan huge failed"
  test "$(stat -c %s huge.$scan)" = 1099511627776 \
    || fail_ "huge.$scan has the wrong size"
  test "$(blocks huge.$scan)" = 0 || fail_ "huge.$scan is not all hole"
done
mkholes huge4 4G d:4294963200:4K || framework_failure_ mkholes
sparsecp --scan=read huge4 huge4.read || fail_ "--scan=read huge4 failed"
check_copy huge4 huge4.read 1

mkholes frag 800000K r:0:100000:4K:4K || framework_failure_ mkholes
for scan in $scans; do
  sparsecp --debug --scan=$scan frag frag.$scan 2>err \
    || fail_ "--scan=$scan frag failed"
  check_copy frag frag.$scan 100000
  case $scan in
    read) want="scan=read extents=1 data=819200000 holes=0 .* read_write=409600000";;
    auto) want="scan=\(fiemap\|seek\) extents=100000 data=409600000 holes=409600000";;
    *) want="scan=$scan extents=100000 data=409600000 holes=409600000";;
  esac
  grep "'frag' -> 'frag.$scan': $want" err >/dev/null \
    || fail_ "--scan=$scan frag: the --debug line is not '$want': $(cat err)"
  rm -f frag.$scan
done
Exit $fail
