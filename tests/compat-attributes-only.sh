#!/bin/sh
# --attributes-only, as GNU cp has it: a new DEST is made empty with the
# attributes asked for; an existing one keeps its data (and its other
# hard links) and gets them; a symlink or node is not put in place of
# an existing DEST unless --remove-destination says so; trees too.
. "${abs_top_srcdir:-.}/tests/init.sh"
. "${abs_top_srcdir:-.}/tests/compat-init.sh"

mkdir s s/sub || framework_failure_ mkdir
echo data >s/file && chmod 640 s/file && mkholes s/sparse 1M d:4K:4K \
  && echo deep >s/sub/deep && ln -s file s/sym && mkfifo s/fifo \
  || framework_failure_ "cannot make s"
if test "$(id -u)" = 0; then
  chown nobody:nogroup s/file || framework_failure_ chown
fi
settimes s

both new 0 --attributes-only ../s/file f
both new-p 0 -p --attributes-only ../s/file f
both new-a 0 -a --attributes-only ../s/file f
both sparse 0 --attributes-only ../s/sparse f
both r 0 -r --attributes-only ../s d
both a 0 -a --attributes-only ../s d
both reflink 0 --reflink=auto --preserve --attributes-only ../s/file f
prep_old ()
{
  echo old >f && ln f f2 && touch -d @1400000000 f && mkdir -p d/s \
    && echo old >d/s/file && ln -s nowhere d/s/sym
}
prep=prep_old
both existing 0 --attributes-only ../s/file f
both existing-a 0 -a --attributes-only ../s/file f
both existing-p 0 -p --attributes-only ../s/file f
both existing-r 1 -a --attributes-only ../s d
both symlink-over 1 -a --attributes-only ../s/sym f
both symlink-rd 0 -a --remove-destination --attributes-only ../s/sym f
both rd 0 --remove-destination --attributes-only ../s/file f
prep=

Exit $fail
