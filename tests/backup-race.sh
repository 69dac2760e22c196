#!/bin/sh
# A backup that another process makes meanwhile under the name a -b copy
# chose is never replaced when it is numbered: the next number is taken;
# a simple backup replaces the one there, as cp's does.
. "${abs_top_srcdir:-.}/tests/init.sh"
. "${abs_top_srcdir:-.}/tests/new-dest-init.sh"

for tmpfile in 0 1; do
  echo old >out/dst || framework_failure_ "cannot make out/dst"
  FAULT_NO_TMPFILE=$tmpfile FAULT_APPEAR=dst.~1~ FAULT_LOG=log \
    LD_PRELOAD="$preload" sparsecp --backup=numbered src out/dst 2>err \
    || { fail_ "the copy failed (O_TMPFILE off: $tmpfile)"; cat err >&2; }
  grep -q appear log || framework_failure_ "the backup was not made meanwhile"
  cmp src out/dst || fail_ "out/dst is not the copy (O_TMPFILE off: $tmpfile)"
  test -f out/dst.~1~ && test ! -s out/dst.~1~ \
    || fail_ "the backup made meanwhile was replaced (O_TMPFILE off: $tmpfile)"
  echo old | cmp - out/dst.~2~ \
    || fail_ "out/dst.~2~ is not the old DEST (O_TMPFILE off: $tmpfile)"
  only_in_out "dst dst.~1~ dst.~2~ " "after a numbered backup appeared"
  rm -f log out/*
done

echo old >out/dst || framework_failure_ "cannot make out/dst"
FAULT_APPEAR=dst~ FAULT_LOG=log LD_PRELOAD="$preload" \
  sparsecp --backup=simple src out/dst 2>err \
  || { fail_ "the simple-backup copy failed"; cat err >&2; }
grep -q appear log || framework_failure_ "the simple backup was not made meanwhile"
cmp src out/dst || fail_ "out/dst is not the copy"
echo old | cmp - out/dst~ || fail_ "out/dst~ is not the old DEST"
only_in_out "dst dst~ " "after a simple backup appeared"

Exit $fail
