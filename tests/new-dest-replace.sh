#!/bin/sh
# A DEST taken by a symlink loop is replaced under -f, as cp does, and
# only once the copy has closed: a failing close leaves the loop.
. "${abs_top_srcdir:-.}/tests/init.sh"
. "${abs_top_srcdir:-.}/tests/new-dest-init.sh"

# The name taken when the copy is linked in (EEXIST): here by a symlink
# loop, which -f replaces as cp does; the finished file takes its place
# through a temporary name, as a rename would.
rm -f log out/dst
ln -s dst out/dst || framework_failure_ "ln -s"
sparsecp -f src out/dst || fail_ "copy over a symlink loop failed"
test -f out/dst && test ! -h out/dst || fail_ "the symlink loop is still there"
cmp src out/dst || fail_ "copy over a symlink loop differs"
only_in_out "dst " "after replacing a symlink loop"
rm -f out/dst

# Replacing it is committed only once the copy's close succeeded: a
# failing close leaves the symlink loop, and nothing beside it.
ln -s dst out/dst || framework_failure_ "ln -s"
FAULT=close:EIO FAULT_PATH="(deleted)|.sparsecp-" FAULT_LOG=log \
  LD_PRELOAD="$preload" \
  expect_fail 1 "failed to close 'out/dst': Input/output error" \
  sparsecp -f src out/dst
test -s log || framework_failure_ "the fault was not injected"
test -h out/dst || fail_ "a failing close removed the symlink loop"
only_in_out "dst " "after a failing close over a symlink loop"
rm -f log out/dst

Exit $fail
