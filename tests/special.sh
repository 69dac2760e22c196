#!/bin/sh
# Files whose size says nothing are copied by reading to the end.
. "${abs_top_srcdir:-.}/tests/init.sh"

# A FIFO.
mkfifo fifo || skip_ "cannot make a FIFO"
head -c 300000 /dev/urandom >want
cat want >fifo &
sparsecp fifo got || fail_ "copying a FIFO failed"
wait
cmp want got || fail_ "the copy of a FIFO differs"

# A character device, and a /proc file that stat calls empty.
sparsecp /dev/null null.copy || fail_ "copying /dev/null failed"
test -f null.copy && test ! -s null.copy || fail_ "/dev/null copy is not empty"
if test -r /proc/version; then
  sparsecp /proc/version version || fail_ "copying /proc/version failed"
  cmp /proc/version version || fail_ "the copy of /proc/version differs"
  test -s version || fail_ "the copy of /proc/version is empty"
fi

# A device as the destination is written in place.
mkholes src 1M d:0:4K d:512K:4K || framework_failure_ mkholes
sparsecp src /dev/null || fail_ "copying to /dev/null failed"

Exit $fail
