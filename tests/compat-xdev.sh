#!/bin/sh
# -x/--one-file-system as GNU cp has it: a directory on another
# filesystem than the directory holding it is made, with its attributes,
# and left empty; an operand is filled wherever it is; a file on another
# filesystem (a bind mount) is copied.  Needs root, for two mounts.
. "${abs_top_srcdir:-.}/tests/init.sh"
. "${abs_top_srcdir:-.}/tests/compat-init.sh"

test "$(id -u)" = 0 || skip_ "mounting a tmpfs and a bind mount needs root"

mkdir x x/sub x/mnt other && echo top >x/file && echo deep >x/sub/f \
  && : >x/bound && ln -s mnt x/lmnt \
  || framework_failure_ "cannot make the fixture tree"
mount -t tmpfs -o size=1M,mode=750 sparsecp-xdev x/mnt 2>/dev/null \
  || skip_ "cannot mount a tmpfs here"
mounted=x/mnt
# A bind mount keeps the device of the file it shows: bind one of
# another tmpfs.
mount -t tmpfs -o size=1M sparsecp-xdev other \
  || framework_failure_ "cannot mount a second tmpfs"
mounted="x/mnt other"
echo outside >other/file && mount --bind other/file x/bound 2>/dev/null \
  || skip_ "cannot bind-mount a file here"
# Exit unmounts these, in this order.
mounted="x/bound x/mnt other"
mkdir x/mnt/inner && echo in >x/mnt/inner/f && echo g >x/mnt/g \
  && mkholes x/mnt/sparse 1M d:512K:4K \
  || framework_failure_ "cannot fill the tmpfs"
test "$(stat -c %d x)" != "$(stat -c %d x/mnt)" \
  && test "$(stat -c %d x)" != "$(stat -c %d x/bound)" \
  || framework_failure_ "the mounts did not give other filesystems"
settimes x

# Without -x the mount is copied as any directory: the fixture tells.
both r 0 -r ../x d
both rx 0 -rx ../x d
both one-file-system 0 -r --one-file-system ../x d
both ax 0 -ax ../x d
# -L follows x/lmnt to the mount point, which is not filled either.
both rxL 0 -rxL ../x d
# Operands are filled, on whatever filesystem they are.
both rx-operand 0 -rx ../x/mnt d
both x-file 0 -x ../x/bound f
prep=prep_e
prep_e () { mkdir e; }
both rxv-into 0 -rxv ../x e
both rx-operands 0 -rx ../x/sub ../x/mnt e
prep=

Exit $fail
