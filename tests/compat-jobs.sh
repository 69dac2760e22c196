#!/bin/sh
# Trees copied on worker threads (-j) as GNU cp copies them one file at
# a time: with -j 1 and -j 4 the trees, the exit status, what is printed
# (-v lines included) and what is said are cp's.  A directory's times
# and mode are compared, which a file copied into it after its
# attributes were set would change; so are the hard-link groups, which
# a name linked to a copy not yet complete would break.
. "${abs_top_srcdir:-.}/tests/init.sh"
. "${abs_top_srcdir:-.}/tests/compat-init.sh"

root=0
test "$(id -u)" = 0 && root=1

# Six directories of 40 files each, of 0 to 117 KiB, a few of them
# sparse; directories of several modes, one of them read-only, one
# set-group-ID; hard links across directories; symlinks, a FIFO.
mkdir w || framework_failure_ mkdir
for d in d1 d2 d3 d4 d5 d6; do
  mkdir w/$d || framework_failure_ "mkdir w/$d"
  i=0
  while test $i -lt 40; do
    head -c $((i * 3001)) /dev/urandom >w/$d/f$i || framework_failure_ "w/$d/f$i"
    i=$((i + 1))
  done
done
mkdir -p w/d2/deep/er && echo deep >w/d2/deep/er/f \
  && mkholes w/d3/sparse 2M d:0:4K d:1M:8K \
  && mkholes w/d5/sparse 1M d:1020K:4K \
  && echo linked >w/d1/hl && ln w/d1/hl w/d4/hl && ln w/d1/hl w/d6/hl2 \
  && ln w/d2/f7 w/d2/deep/f7 \
  && ln -s ../d1/f3 w/d2/lrel && ln -s nowhere w/d4/dangling \
  && mkfifo w/d6/fifo \
  || framework_failure_ "cannot make the tree w"
if test $root = 1; then
  chown nobody:nogroup w/d1/f1 w/d4 w/d2/deep/er/f \
    || framework_failure_ "cannot chown in w"
fi
chmod 600 w/d1/f2 && chmod 4755 w/d1/f4 && chmod 2775 w/d5 \
  && chmod 700 w/d6 && settimes w && chmod 555 w/d3 w/d2/deep \
  || framework_failure_ "cannot set the modes in w"

for j in 1 4; do
  sp_opts="-j $j"
  both a-j$j 0 -a ../w d
  both r-j$j 0 -r ../w d
  both rp-j$j 0 -rp ../w d
  both av-j$j 0 -av ../w d
  # Into an earlier copy: files replaced, directories reused.
  prep_old () { cp -r ../w d && find d -type f -exec touch -d @1400000000 {} +; }
  prep=prep_old
  both merge-a-j$j 0 -a ../w d
  both merge-ru-j$j 0 -ru ../w d
  prep=
done
sp_opts=

# A file that cannot be read, as an unprivileged user: named, the rest
# copied, status 1, with several workers as with one.
if test "$as_user_ok" = 1 && test -n "$as_user"; then
  mkdir u && cp -a w/d1 w/d2 u && chmod 000 u/d1/f17 u/d2/f3 \
    && chmod -R a+rX u/d2/deep && chmod a+rx u u/d1 u/d2 \
    || framework_failure_ "cannot make u"
  prep_own () { chown nobody:nogroup .; }
  prep=prep_own runner=$as_user
  for j in 1 4; do
    sp_opts="-j $j"
    both user-unreadable-j$j 1 -rv ../u x
  done
  prep= runner= sp_opts=
else
  echo "SKIP (part): needs root, to copy as nobody and list as root"
fi

Exit $fail
