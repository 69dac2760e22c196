#!/bin/sh
# Directory trees copied as GNU cp copies them: -r/-R/-a/-p, --preserve,
# symlinks (-d/-P/-L/-H, loops, dangling), hard links, special files,
# modes, merging into existing directories, -t/-T, several sources, --,
# combined short options and -v.  Each case runs cp and sparsecp with the
# same arguments and compares the results (tests/compat-init.sh).
. "${abs_top_srcdir:-.}/tests/init.sh"
. "${abs_top_srcdir:-.}/tests/compat-init.sh"

root=0
test "$(id -u)" = 0 && root=1

# The main fixture: data, holes, modes, hard links, symlinks, a FIFO.
mkdir t t/empty t/sub t/sub/deep t/ro t/priv || framework_failure_ mkdir
echo plain >t/plain && : >t/emptyfile \
  && mkholes t/sparse 1M d:0:4K d:512K:100 \
  && mkholes t/sub/deep/big 8M d:8188K:4K \
  && head -c 100000 /dev/urandom >t/sub/random \
  && echo linked >t/hl && ln t/hl t/sub/hl2 && ln t/hl t/sub/deep/hl3 \
  && ln -s plain t/lrel && ln -s sub t/ldir && ln -s nowhere t/dangling \
  && ln -s "$PWD/t/plain" t/labs && ln -s ../../plain t/sub/deep/lup \
  && mkfifo t/fifo && mkfifo -m 751 t/fifo751 \
  && echo inside >t/ro/file && echo secret >t/priv/file \
  || framework_failure_ "cannot make the fixture tree"
for m in 600 755 444 4755 2750 1777; do
  echo "mode $m" >t/m$m || framework_failure_ "t/m$m"
done
if test $root = 1; then
  # Owners, before the modes: chown clears set-user-ID bits.
  chown nobody:nogroup t/m600 t/m4755 t/sub/random t/priv \
    && chown -h nobody:nogroup t/lrel && chgrp nogroup t/sub/deep \
    || framework_failure_ "cannot chown the fixture"
fi
for m in 600 755 444 4755 2750 1777; do
  chmod $m t/m$m || framework_failure_ "chmod t/m$m"
done
chmod 555 t/ro && chmod 700 t/priv && chmod 751 t/sub \
  || framework_failure_ "cannot set directory modes"
# Extended attributes, for -a and --preserve=xattr.  Not on t/sub: with
# -L, cp gives none to the second copy of a directory (t/ldir).
if command -v setfattr >/dev/null \
   && setfattr -n user.colour -v blue t/plain 2>/dev/null; then
  setfattr -n user.size -v 8M t/sub/deep/big \
    && setfattr -n user.dir -v yes t/empty && setfattr -n user.two -v 2 t/empty \
    || framework_failure_ "cannot set extended attributes"
else
  echo "SKIP (part): no user extended attributes here"
fi
# A socket, where something can make one.
if command -v python3 >/dev/null; then
  python3 -c 'import os, socket
s = socket.socket (socket.AF_UNIX)
s.bind ("t/sock")
os.chmod ("t/sock", 0o751)' || framework_failure_ "cannot make a socket"
else
  echo "SKIP (part): no python3 to make a socket"
fi
# A symlink to a directory, to name on the command line.
ln -s t lt || framework_failure_ "ln lt"
# Loops: a symlink to an ancestor, a cycle of two symlinks.
mkdir loop loop/d && echo f >loop/f && ln -s .. loop/d/up \
  && ln -s b loop/a && ln -s a loop/b && ln -s nowhere loop/dang \
  || framework_failure_ "cannot make the loop tree"
settimes t lt loop

# -r, -R and --recursive are one option; none preserves anything but
# symlinks, FIFOs and the data's holes.
both r 0 -r ../t d
both R 0 -R ../t d
both recursive 0 --recursive ../t d
# -a keeps modes, owners, times and hard links; -p and --preserve parts.
both a 0 -a ../t d
both archive 0 --archive ../t d
both p 0 -p ../t/m4755 f
both rp 0 -rp ../t d
both preserve-default 0 -r --preserve ../t d
both preserve-mode-ts 0 -r --preserve=mode,timestamps ../t d
both preserve-links 0 -r --preserve=links ../t d
both preserve-ownership 0 -R --preserve=ownership ../t d
both preserve-xattr 0 -R --preserve=xattr ../t d
both preserve-all 0 -R --preserve=all ../t d
both a-no-mode 0 -a --no-preserve=mode ../t d
both a-no-ts-links 0 -a --no-preserve=timestamps,links ../t d
both p-no-preserve-all 0 -rp --no-preserve=all ../t d
# Modes of new files under another umask.
saved_umask=$(umask)
umask 077
both r-umask077 0 -r ../t d
both a-umask077 0 -a ../t d
umask "$saved_umask"

# Symlinks.  Without -r a symlink SOURCE is followed unless -d or -P.
both file-via-symlink 0 ../t/lrel f
both d-symlink 0 -d ../t/lrel l
both P-symlink 0 -P ../t/labs l
both P-dangling 0 -P ../t/dangling l
both dangling 1 ../t/dangling l
both L-symlink 0 -L ../t/lrel f
both rP 0 -rP ../t d
both rd 0 -rd ../t d
both rL 1 -rL ../t d
both aL 1 -aL ../t d
# -H follows a symlink named on the command line, and no other.
both rH-cmdline 0 -rH ../lt d
both r-cmdline-symlink 0 -r ../lt d
both H-no-r 1 -H ../lt d
both H-file 0 -H ../t/lrel f
# Loops: a symlink to an ancestor and a cycle, followed and not.
both rL-loop 1 -rL ../loop d
both r-loop 0 -r ../loop d
both a-loop 0 -a ../loop d
# -d keeps hard links between command-line sources; -r does not.
prep=prep_d
prep_d () { mkdir d; }
both d-hardlinks 0 -d ../t/hl ../t/sub/hl2 d
both r-hardlinks 0 -r ../t/hl ../t/sub/hl2 d
both a-hardlinks 0 -a ../t/hl ../t/sub/hl2 ../t/sub/deep d
# Following symlinks with links preserved, one file reached by two names
# is copied once and linked: for -L everywhere, for -H on the command line.
both L-links 0 -L --preserve=links ../t/lrel ../t/plain ../t/labs d
both H-links 0 -H --preserve=links ../t/lrel ../t/plain d
both rH-links 0 -rH --preserve=links ../t/lrel ../t/plain ../t/sub/deep d
prep=

# Special files: FIFOs always; devices when root can make them.
both R-fifo 0 -R ../t/fifo f
both a-fifo 0 -a ../t/fifo f
if test $root = 1 && mkdir dev && mknod dev/null c 1 3 \
   && mknod dev/loop b 7 200 && chmod 620 dev/null; then
  settimes dev
  both R-dev 0 -R ../dev d
  both a-dev 0 -a ../dev d
  both r-dev 0 -r ../dev d
else
  echo "SKIP (part): device files need root"
fi

# Empty directories, directories with restrictive modes.
both r-empty 0 -r ../t/empty e
both a-ro 0 -a ../t/ro e
both r-ro 0 -r ../t/ro e
both a-priv 0 -a ../t/priv e

# 'cp -r SRC E' makes E a copy of SRC when E is missing, E/SRC when it
# is a directory; a trailing slash changes nothing.
both r-new-dest 0 -r ../t/sub e
both r-slash 0 -r ../t/sub/ e
prep=prep_e
prep_e () { mkdir e; }
both r-into-dir 0 -r ../t/sub e
both r-slash-into-dir 0 -r ../t/sub/ e/
# -T makes the existing directory the copy itself: a merge.
both rT 0 -rT ../t/sub e
both T-file-new 0 -T ../t/plain f
# -t and several sources.
both t 0 -r -t e ../t/plain ../t/sub ../t/lrel
both target-directory 0 -a --target-directory=e ../t/plain ../t/sub
both t-attached 0 -rte ../t/plain ../t/sub
both many-sources 0 -r ../t/plain ../t/sub ../t/m755 ../loop e
both many-files 0 ../t/plain ../t/m755 ../t/lrel e
prep=

# Merging into an existing copy: old files replaced (keeping their modes,
# and owners, without -p), others kept, existing directories reused.
# Only mtimes are set: a replaced DEST is a new file for sparsecp (on
# purpose), so its atime is new, where cp's write kept the old one.
prep=prep_merge
prep_merge ()
{
  mkdir -p d/t/sub/deep && echo old >d/t/plain && chmod 640 d/t/plain \
    && echo keep >d/t/sub/old && echo old-random >d/t/sub/random \
    && chmod 700 d/t/sub \
    && { test $root = 0 || chown nobody:nogroup d/t/plain d/t/sub/random; } \
    && find d -exec touch -h -m -d @1400000000.5 {} +
}
both merge-r 0 -r ../t d
both merge-a 0 -a ../t d
both merge-rT 0 -rT ../t d/t
prep=

# A symlink to a directory as DEST: the copy goes into the directory.
prep=prep_dl
prep_dl () { mkdir dir && ln -s dir dl; }
both dest-symlink-dir 0 ../t/plain dl
both r-dest-symlink-dir 0 -r ../t/sub dl
prep=

# A DEST that is a symlink: written through to a file unless the copy
# itself is a symlink (-a, -d); never through a dangling one.
prep=prep_symdest
prep_symdest () { echo old >target && ln -s target link && ln -s nowhere dang; }
both dest-symlink 0 ../t/plain link
both a-dest-symlink 0 -a ../t/plain link
both a-symlink-onto-symlink 0 -a ../t/lrel link
both d-symlink-onto-file 0 -d ../t/lrel target
both dest-dangling 1 ../t/plain dang
both a-dest-dangling 1 -a ../t/plain dang
prep=

# A trailing slash follows a symlink operand; '.' copies a directory's
# contents; an operand given twice is copied once, with a warning.
both r-slash-symlink 0 -r ../lt/ d
both a-slash-symlink 0 -a ../lt/ d
both r-dot 0 -r ../t/. e
both r-slash-new 0 -r ../t/sub/ e/
prep=prep_e
both r-dot-into-dir 0 -r ../t/. e
both r-twice 0 -r ../t/sub ../t/sub e
# A directory copied as an operand is not copied again inside a later
# one (cp: "will not create hard link"), but with -L; before it, it is.
both r-operand-inside 1 -r ../t/sub/deep ../t/sub e
both rL-operand-inside 0 -rL ../t/sub/deep ../t/sub e
both r-operand-after 0 -r ../t/sub ../t/sub/deep e
both twice 0 ../t/plain ../t/plain e
# --strip-trailing-slashes: a SOURCE copied into a directory loses its
# slashes, so a symlink to a directory is copied as the symlink and a
# file named with a slash is found; cp leaves SOURCE DEST alone.
both strip-symlink-into 0 -r --strip-trailing-slashes ../lt/ e
both strip-symlink-t 0 -a --strip-trailing-slashes -t e ../lt/ ../t/sub/
both strip-file-into 0 --strip-trailing-slashes ../t/plain/ e
both strip-two-operands 0 -r --strip-trailing-slashes ../lt/ d
prep=
# New directories in a set-group-ID directory.
prep=prep_sgid
prep_sgid () { mkdir g && chmod 2775 g; }
both r-into-sgid 0 -r ../t/sub g
both a-into-sgid 0 -a ../t/sub g
prep=

# '--' ends the options, so a file may be named -x.
prep=prep_dash
prep_dash () { echo dash >-x && mkdir dd; }
both dashdash 0 -- -x y
both dashdash-r 0 -r -- -x dd
both dashdash-t 0 -t dd -- -x
prep=

# Combined short options and -v, whose lines are cp's.
both av 0 -av ../t d
both rpv 0 -rpv ../t d
both vR 0 -vR ../t/sub d
both vrL 1 -vrL ../loop d
prep=prep_e
both dpRv 0 -dpRv ../t/ldir ../t/sub/deep e
prep=
ordered=1
both v-file 0 -v ../t/plain f
both v-symlink-file 0 -v ../t/lrel f
both v-d-symlink 0 -vd ../t/lrel f
ordered=

Exit $fail
