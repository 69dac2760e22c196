#!/bin/sh
# A name found free that another process takes before the copy is named
# (a regular file, in a directory the copy made or not, with or without
# O_TMPFILE or RENAME_NOREPLACE; a symlink; a FIFO) is never replaced:
# the copy fails with "File exists", as cp's O_EXCL open, symlink and
# mknod do.
. "${abs_top_srcdir:-.}/tests/init.sh"
. "${abs_top_srcdir:-.}/tests/new-dest-init.sh"

# A file made at a new DEST's name after sparsecp found nothing there
# (here just before the link) is not replaced: the copy fails as cp's
# open with O_EXCL does, with or without O_TMPFILE.
for tmpfile in 0 1; do
  FAULT_NO_TMPFILE=$tmpfile FAULT_APPEAR=newdst FAULT_LOG=log \
    LD_PRELOAD="$preload" \
    expect_fail 1 "cannot create regular file 'out/newdst': File exists" \
    sparsecp src out/newdst
  grep -q appear log || framework_failure_ "the file was not made meanwhile"
  test -f out/newdst && test ! -s out/newdst \
    || fail_ "the file made meanwhile was replaced (O_TMPFILE off: $tmpfile)"
  only_in_out "newdst " "after a file appeared at a new DEST's name"
  rm -f log out/newdst
done

# In a directory the copy has just made, sparsecp does not look for the
# file first, as cp does not: one that appears there meanwhile (EEXIST
# at the link) is not replaced, and the copy fails as cp's open does.
mkdir tree || framework_failure_ "mkdir tree"
cp src tree/f || framework_failure_ "cp"
FAULT=linkat:EEXIST FAULT_PATH=f FAULT_LOG=log LD_PRELOAD="$preload" \
  expect_fail 1 "cannot create regular file 'out/tree/f': File exists" \
  sparsecp -r tree out/
test -s log || framework_failure_ "the fault was not injected"
test ! -e out/tree/f || fail_ "out/tree/f was made after EEXIST"
sparsecp -r tree out/ || fail_ "copy into an existing out/tree failed"
cmp src out/tree/f || fail_ "out/tree/f differs"
rm -rf log out/tree

# The same without O_TMPFILE: the named temporary file is not renamed
# over a file that appears there meanwhile (made here just before the
# rename).
FAULT_NO_TMPFILE=1 FAULT_APPEAR=/f FAULT_LOG=log LD_PRELOAD="$preload" \
  expect_fail 1 "cannot create regular file 'out/tree/f': File exists" \
  sparsecp -r tree out/
grep -q appear log && grep -q O_TMPFILE log \
  || framework_failure_ "the faults were not injected"
test -f out/tree/f && test ! -s out/tree/f \
  || fail_ "the file made meanwhile was replaced"
only_in_out "tree " "after a file appeared in a new directory"
test "$(ls -A out/tree)" = f || fail_ "out/tree holds $(ls -A out/tree)"
rm -rf log out/tree

# Nor where rename has no RENAME_NOREPLACE (EINVAL, as on NFS): a hard
# link stands in for it, which never replaces a file either.
FAULT=rename:EINVAL FAULT_NO_TMPFILE=1 FAULT_APPEAR=/f FAULT_LOG=log \
  LD_PRELOAD="$preload" \
  expect_fail 1 "cannot create regular file 'out/tree/f': File exists" \
  sparsecp -r tree out/
grep -q appear log || framework_failure_ "the file was not made meanwhile"
test -f out/tree/f && test ! -s out/tree/f \
  || fail_ "the file made meanwhile was replaced through link"
test "$(ls -A out/tree)" = f || fail_ "out/tree holds $(ls -A out/tree)"
rm -rf log out/tree
FAULT=rename:EINVAL FAULT_NO_TMPFILE=1 FAULT_LOG=log LD_PRELOAD="$preload" \
  sparsecp -r tree out/ || fail_ "copy through link failed"
test -s log || framework_failure_ "the fault was not injected"
cmp src out/tree/f || fail_ "out/tree/f differs after a copy through link"
test "$(ls -A out/tree)" = f || fail_ "out/tree holds $(ls -A out/tree)"
rm -rf log out/tree

# Symlinks and special files -r makes are named when complete too; one
# that nothing had the name of when looked for is not renamed over a
# file made there meanwhile, as cp's symlink and mknod fail then.
mkdir links && ln -s src links/l && mkfifo links/p \
  || framework_failure_ "making links/"
for name in l p; do
  case $name in
    l) what="symbolic link";;
    p) what="special file";;
  esac
  FAULT_APPEAR=/$name FAULT_LOG=log LD_PRELOAD="$preload" \
    expect_fail 1 "cannot create $what 'out/links/$name': File exists" \
    sparsecp -r links out/
  grep -q appear log || framework_failure_ "$name was not made meanwhile"
  test -f out/links/$name && test ! -h out/links/$name \
    && test ! -s out/links/$name \
    || fail_ "the file made meanwhile at $name was replaced"
  rm -rf log out/links
done
sparsecp -r links out/ || fail_ "copy of links/ failed"
test "$(readlink out/links/l)" = src && test -p out/links/p \
  || fail_ "links/ was not copied as it is"
# Over an existing one, the copy replaces it, as cp -rf does.
sparsecp -rf links out/ || fail_ "copy over out/links failed"
rm -rf out/links

Exit $fail
