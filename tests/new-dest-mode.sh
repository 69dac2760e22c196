#!/bin/sh
# A new file's mode is the source's less the umask, as cp makes it.
. "${abs_top_srcdir:-.}/tests/init.sh"
. "${abs_top_srcdir:-.}/tests/new-dest-init.sh"

for m in 644 600 755 666 4755; do
  for u in 022 077 000; do
    chmod $m src || framework_failure_ "chmod $m"
    rm -f want got
    (umask $u && cp src want && sparsecp src got) \
      || fail_ "copying mode $m under umask $u failed"
    test "$(stat -c %a got)" = "$(stat -c %a want)" \
      || fail_ "mode $m under umask $u: $(stat -c %a got), cp made $(stat -c %a want)"
  done
done
cmp src got || fail_ "the copy differs"

Exit $fail
