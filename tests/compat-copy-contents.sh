#!/bin/sh
# --copy-contents, as GNU cp has it: with -r, a FIFO or a device in the
# tree is read into a regular file instead of made anew; without -r it
# changes nothing; zero blocks become holes with --sparse=always.
. "${abs_top_srcdir:-.}/tests/init.sh"
. "${abs_top_srcdir:-.}/tests/compat-init.sh"

mkdir s || framework_failure_ mkdir
echo plain >s/plain && mkfifo s/fifo && mkfifo -m 640 s/fifo640 \
  || framework_failure_ "cannot make s"
root=0
if test "$(id -u)" = 0; then
  mknod s/null c 1 3 && root=1 || framework_failure_ "mknod"
fi
settimes s

# A writer for each FIFO of cp.NAME/s, which a copy that does not read
# it leaves waiting: killed after 20 seconds.
prep_tree ()
{
  cp -a ../s s || return 1
  for f in s/fifo s/fifo640; do
    (timeout 20 sh -c "printf 'through $f\n' >$f" >/dev/null 2>&1 &)
  done
}
prep=prep_tree
both r 0 -r --copy-contents s d
both a 0 -a --copy-contents s d
both rv 0 -rv --copy-contents s d
both r-without 0 -r s d
prep_one () { mkfifo f && (timeout 20 sh -c "printf one >f" >/dev/null 2>&1 &); }
prep=prep_one
both file 0 --copy-contents f g
both file-r 0 -r --copy-contents f g
# Zeros, then data: the zeros become a hole only with --sparse=always.
prep_zeros ()
{
  mkfifo f && (timeout 20 sh -c "head -c 1048576 /dev/zero; echo end" >f 2>/dev/null &)
}
prep=prep_zeros
both zeros 0 -r --copy-contents f g
both zeros-always 0 -r --copy-contents --sparse=always f g
prep=

Exit $fail
