#!/bin/sh
# An existing DEST, as GNU cp treats it: -n, -i (answered y and n), -f on
# a read-only DEST as an unprivileged user, -u with older and newer
# DESTs, and -v's lines.  Each case runs cp and sparsecp with the same
# arguments and compares the results (tests/compat-init.sh).
. "${abs_top_srcdir:-.}/tests/init.sh"
. "${abs_top_srcdir:-.}/tests/compat-init.sh"

mkdir s s/sub || framework_failure_ mkdir
echo new >s/new && echo other >s/other && echo deep >s/sub/deep \
  && mkholes s/sparse 1M d:4K:4K || framework_failure_ "cannot make s"
settimes s

# An old DEST, older than every source (settimes starts at 1500000000),
# with a mode of its own.
prep_old ()
{
  echo old >dst && chmod 640 dst && touch -d @1400000000.5 dst \
    && mkdir -p d/s/sub && echo old >d/s/new && echo old >d/s/sub/deep \
    && touch -d @1400000000.5 d/s/new d/s/sub/deep
}
# A DEST newer than every source.
prep_newer ()
{
  echo newer >dst && touch -d @1600000000.5 dst \
    && mkdir -p d/s && echo newer >d/s/new && touch -d @1600000000.5 d/s/new
}
# A DEST exactly as old as its source.
prep_same () { echo same >dst && touch -r ../s/new dst; }

# Plain overwrite keeps DEST's mode (and inode, in cp's case: not listed
# for single links); -p gives it the source's.
prep=prep_old
both overwrite 0 ../s/new dst
both overwrite-p 0 -p ../s/new dst
both overwrite-sparse 0 ../s/sparse dst
both overwrite-r 0 -r ../s d

# -n: an existing DEST is left alone and the status is 0.
both n 0 -n ../s/new dst
both no-clobber 0 --no-clobber ../s/new dst
both n-missing 0 -n ../s/new other
both rn 0 -rn ../s d
both nv 0 -nv ../s/new dst

# -i asks on standard error and reads the answer from standard input;
# the last of -i and -n wins.
ordered=1
input='y\n'
both i-yes 0 -i ../s/new dst
both interactive-yes 0 --interactive ../s/new dst
both iv-yes 0 -iv ../s/new dst
both n-then-i 0 -n -i ../s/new dst
input='n\n'
both i-no 0 -i ../s/new dst
both iv-no 0 -iv ../s/new dst
both i-then-n 0 -i -n ../s/new dst
input=
both i-eof 0 -i ../s/new dst
both i-missing 0 -i ../s/new other
input='y\nn\n'
both ri-yes-no 0 -ri ../s/new ../s/sub d/s
input=
ordered=

# -u copies only over an older DEST (or none).
both u-older 0 -u ../s/new dst
both update 0 --update ../s/new dst
both u-missing 0 -u ../s/new other
both ru-older 0 -ru ../s d
prep=prep_newer
both u-newer 0 -u ../s/new dst
both ru-newer 0 -ru ../s d
both uv-newer 0 -uv ../s/new dst
prep=prep_same
both u-same 0 -u ../s/new dst
prep=

# -v: one line per file and per directory made, as cp prints them.
ordered=1
both v 0 -v ../s/new dst
both verbose 0 --verbose ../s/new dst
prep=prep_old
both v-over 0 -v ../s/new dst
prep=
ordered=
both rv 0 -rv ../s d
both v-into-dir 0 -v ../s/new ../s/other .

# --remove-destination: every existing DEST is replaced by a new file
# with a new file's attributes: a file with its own mode, one with
# another hard link (which keeps the old data), a symlink (replaced, its
# target untouched), a dangling or looping symlink, a FIFO (replaced,
# not written into); a directory DEST is refused, one merged into with
# -r.  cp removes DEST first; sparsecp renames the new file over it.
prep_kinds ()
{
  prep_old && echo linked >hl && ln hl hl2 && echo target >target \
    && ln -s target sl && ln -s nowhere dangling && ln -s loop loop \
    && mkfifo fifo && mkdir dir && settimes hl target dir
}
prep=prep_kinds
both rd-file 0 --remove-destination ../s/new dst
both rd-hardlink 0 --remove-destination ../s/new hl
both rd-symlink 0 --remove-destination ../s/new sl
both rd-dangling 0 --remove-destination ../s/new dangling
both rd-loop 0 --remove-destination ../s/new loop
both rd-fifo 0 --remove-destination ../s/new fifo
both rd-into-dir 0 --remove-destination ../s/new dir
both rd-dir 1 -T --remove-destination ../s/new dir
both rd-p 0 -p --remove-destination ../s/new dst
both rd-r 0 -r --remove-destination ../s d
both rd-n 0 -n --remove-destination ../s/new dst
both rd-u-newer 0 -u --remove-destination ../s/new dst
ordered=1
# cp says "removed 'dst'" before it copies; sparsecp removes nothing, it
# renames the new file over DEST once complete, and says only the copy.
cp_sed="/^removed 'dst'\$/d"
both rd-v 0 -v --remove-destination ../s/new dst
cp_sed=
input='n\n'
both rd-i-no 0 -i --remove-destination ../s/new dst
input='y\n'
both rd-i-yes 0 -i --remove-destination ../s/new dst
input=
ordered=
prep=

# -f: a read-only DEST that cannot be opened is removed and replaced,
# which needs an unprivileged user (root opens anything).
if test "$as_user_ok" = 1; then
  # nobody can write the directory w but not its file dst; nor ro.
  prep_ro ()
  {
    mkdir w ro && echo old >w/dst && echo old >ro/dst \
      && chmod 444 w/dst ro/dst \
      && { test -z "$as_user" \
           || { chown -R nobody:nogroup w && chown nobody:nogroup ro/dst; }; } \
      && chmod 555 ro && settimes w ro
  }
  prep=prep_ro runner=$as_user
  both ro-dest 1 ../s/new w/dst
  both f-ro-dest 0 -f ../s/new w/dst
  both force-ro-dest 0 --force ../s/new w/dst
  both fp-ro-dest 0 -fp ../s/new w/dst
  # cp removes DEST and makes a new one, sparsecp renames a new file over
  # it: one does not print "removed", the other fails making the file.
  cp_sed="/^removed 'w\/dst'\$/d"
  both fv-ro-dest 0 -fv ../s/new w/dst
  cp_sed="s/cannot remove 'ro\/dst'/cannot create regular file 'ro\/dst'/"
  both f-ro-dir 1 -f ../s/new ro/dst
  cp_sed=
  both rf-ro-dest 0 -rf ../s/new ../s/sub w
  prep= runner=
else
  echo "SKIP (part): cannot run as an unprivileged user for -f"
fi

Exit $fail
