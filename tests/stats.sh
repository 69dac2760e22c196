#!/bin/sh
# --stats=json and the summary --debug ends with count what was done.
. "${abs_top_srcdir:-.}/tests/init.sh"

# A tree with 3 regular files (64 KiB of data and 960 KiB of holes in
# one, 4096 bytes of data in another, one empty, which is read to its
# end: a stream), 2 directories below the
# root, a symlink, a FIFO and a second hard link to one of the files.
mkdir -p t/d/e || framework_failure_ mkdir
mkholes t/sparse 1M d:512K:64K || framework_failure_ mkholes
mkholes t/d/dense 4096 d:0:4096 || framework_failure_ mkholes
: >t/d/e/empty
ln -s sparse t/link
mkfifo t/fifo || framework_failure_ mkfifo
ln t/d/dense t/d/hard || framework_failure_ ln

# --scan=seek, so that the data and holes are the map's, not a reflink's.
sparsecp -a --scan=seek --stats=json t copy >out 2>err \
  || { fail_ "sparsecp -a --stats=json failed"; cat err >&2; }
test -s err && { fail_ "--stats=json wrote to stderr"; cat err >&2; }
test "$(wc -l <out)" = 1 || fail_ "the JSON object is not one line"
for field in '"files": 3' '"directories": 3' '"symlinks": 1' \
    '"specials": 1' '"hard_links": 1' '"data_bytes": 69632' \
    '"hole_bytes": 983040' '"seek": 2' '"stream": 1' '"fiemap": 0' \
    '"failures": 0'; do
  grep -F "$field" out >/dev/null \
    || { fail_ "--stats=json lacks $field"; cat out >&2; }
done
grep '^{"files": .*"methods": {.*}, "failures": 0, "seconds": [0-9.]*}$' \
  out >/dev/null || { fail_ "--stats=json is not the expected object"; cat out >&2; }

# Failures are counted, and the JSON still comes out.
mkdir copy2 || framework_failure_ mkdir
sparsecp --stats=json t/sparse nosuch t/d copy2 >out 2>err
test $? = 1 || fail_ "a failed copy did not exit 1"
grep -F '"failures": 2' out >/dev/null \
  || { fail_ "--stats=json did not count 2 failures"; cat out err >&2; }

# --debug ends with the same numbers on stderr.
rm -rf copy
sparsecp -a --scan=seek --debug t copy 2>err >out \
  || { fail_ "sparsecp -a --debug failed"; cat err >&2; }
tail -n 1 err | grep "^sparsecp: summary: files=3 directories=3 symlinks=1 specials=1 hard_links=1 data=69632 holes=983040 fiemap=0 seek=2 read=0 stream=1 reflink=0 failures=0 seconds=[0-9.]*$" \
  >/dev/null || { fail_ "--debug summary is wrong"; cat err >&2; }
test -s out && fail_ "--debug wrote to stdout"

expect_fail 1 "sparsecp: invalid argument 'xml' for '--stats'" \
  sparsecp --stats=xml t copy3

Exit $fail
