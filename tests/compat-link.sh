#!/bin/sh
# -l/--link and -s/--symbolic-link, as GNU cp has them: files linked,
# not copied, directories made; symlinks followed or not (-L, -P, -H,
# -r, -a); an existing DEST refused, replaced with -f (and -i for -l) or
# backed up; the same file; relative names with -s.  Each case runs cp
# and sparsecp with the same arguments and compares the results
# (tests/compat-init.sh), inode groups included.
. "${abs_top_srcdir:-.}/tests/init.sh"
. "${abs_top_srcdir:-.}/tests/compat-init.sh"

mkdir s s/sub s/empty x || framework_failure_ mkdir
echo file >s/file && echo deep >s/sub/deep && mkholes s/sparse 1M d:4K:4K \
  && ln -s file s/lfile && ln -s sub s/lsub && ln -s nowhere x/dangling \
  && mkfifo s/fifo && chmod 640 s/file \
  || framework_failure_ "cannot make s"
settimes s x
# A hard link to a source shows in the link counts of the trees.
src=$PWD/s
# -rl follows symlinks: a dangling one, apart, fails.

both l 0 -l ../s/file f
both link 0 --link ../s/file f
both lv 0 -lv ../s/file f
both rl 0 -rl ../s d
both rlv 0 -rlv ../s d
both al 0 -al ../s d
both rlP 0 -rlP ../s d
both rlH 0 -rlH ../s/lsub d
both lL-symlink 0 -lL ../s/lfile f
both lP-symlink 0 -lP ../s/lfile f
both l-symlink 0 -l ../s/lfile f
both l-dangling 1 -l ../x/dangling f
both lP-dangling 0 -lP ../x/dangling f
both l-dir 1 -l ../s/sub d
both l-fifo 0 -l ../s/fifo f
both l-two 0 -l ../s/file ../s/sparse .
both s-abs 0 -s "$src/file" f
both symbolic-link 0 --symbolic-link "$src/file" f
both sv 0 -sv "$src/file" f
both rs-abs 0 -rs "$src" d
both as-abs 0 -as "$src" d
both s-rel-here 0 -s ../s/file f
both rs-rel 1 -rs ../s d
both s-dangling 1 -s "$PWD/x/dangling" f
both sP-dangling 0 -sP "$PWD/x/dangling" f
both ls 1 -ls ../s/file f
both sl 1 -s -l ../s/file f
prep_e () { mkdir e; }
prep=prep_e
both s-rel-below 1 -s ../s/file e/f
both s-rel-into 1 -s ../s/file e
prep=

# An existing DEST: refused, replaced with -f, with -i only for -l,
# backed up with -b.
prep_dst () { echo old >f && ln -s nowhere sym && mkdir -p d/s && echo old >d/s/file; }
prep=prep_dst
both l-exists 1 -l ../s/file f
both lf-exists 0 -lf ../s/file f
both s-exists 1 -s "$src/file" f
both sf-exists 0 -sf "$src/file" f
both sf-symlink 0 -sf "$src/file" sym
both s-symlink 1 -s "$src/file" sym
both lb-exists 0 -lb ../s/file f
both sb-exists 0 -sb "$src/file" f
both rl-merge 1 -rl ../s d
both rlf-merge 0 -rlf ../s d
ordered=1
input='y\n'
both li-yes 0 -li ../s/file f
both si-yes 1 -si "$src/file" f
input='n\n'
both li-no 0 -li ../s/file f
input=
ordered=
both ln-exists 0 -ln ../s/file f

# The same file, and links to it: nothing to do for -l.
prep_same () { echo same >f && ln f f2 && ln -s f sl; }
prep=prep_same
both l-same 0 -l f f
both l-hardlinks 0 -l f f2
both l-symlink-to-dest 0 -l sl f
both lP-symlink-to-dest 0 -lP sl f
both s-same 1 -s f f
both sf-same 1 -sf f f
prep=

Exit $fail
