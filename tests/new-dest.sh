#!/bin/sh
# A DEST that did not exist appears only complete: a copy that fails or
# is killed, even by SIGKILL, leaves nothing in DEST's directory; one
# that existed is left as it was, with nothing beside it.
. "${abs_top_srcdir:-.}/tests/init.sh"

shim=${abs_top_builddir:-..}/tests/faultinject.so
test -f "$shim" || framework_failure_ "no $shim"
preload=$(fault_preload "$shim")
mkholes src 1M d:0:4K d:512K:64K || framework_failure_ mkholes

# Nothing under out/ but what the test names.
only_in_out ()
{
  got=$(ls -A out | tr '\n' ' ')
  test "$got" = "$1" || fail_ "$2: out/ holds '$got', not '$1'"
}

# Killed while reading a FIFO that has more to come: by then the copy
# has its destination file open, which is what /proc shows.
mkfifo fifo || skip_ "cannot make a FIFO"
for run in "KILL new" "TERM new" "KILL old" "TERM old"; do
  sig=${run% *} dest=${run#* }
  rm -rf out && mkdir out || framework_failure_ "mkdir out"
  test $dest = new || echo old >out/dst || framework_failure_ "echo"
  { head -c 300000 /dev/urandom; sleep 60; } >fifo &
  writer=$!
  sparsecp fifo out/dst &
  copier=$!
  tries=0
  until ls -l /proc/$copier/fd 2>/dev/null | grep -q "$PWD/out/"; do
    tries=$((tries + 1))
    test $tries -lt 200 || { kill $writer $copier; framework_failure_ \
      "sparsecp never opened a file in out/"; }
    sleep 0.05
  done
  kill -$sig $copier
  wait $copier
  status=$?
  kill $writer 2>/dev/null
  wait $writer 2>/dev/null
  test $status -gt 128 || fail_ "SIG$sig: sparsecp exited $status"
  if test $dest = new; then
    only_in_out "" "after SIG$sig"
  else
    only_in_out "dst " "after SIG$sig over an existing file"
    test "$(cat out/dst)" = old || fail_ "SIG$sig changed the existing out/dst"
  fi
done

# The name that must not be taken is refused, and nothing is left.
rm -rf out && mkdir out || framework_failure_ "mkdir out"
FAULT=linkat:EIO FAULT_PATH=out/dst LD_PRELOAD="$preload" \
  expect_fail 1 "cannot create regular file 'out/dst': Input/output error" \
  sparsecp src out/dst
only_in_out "" "after a failed link"

# Without CAP_DAC_READ_SEARCH, linkat (AT_EMPTY_PATH) says ENOENT on
# kernels before 6.10: the file is linked by its name in /proc instead.
rm -f out/dst
FAULT=linkat:ENOENT FAULT_PATH=out/dst FAULT_LOG=log LD_PRELOAD="$preload" \
  sparsecp src out/dst || fail_ "copy with AT_EMPTY_PATH refused failed"
test -s log || framework_failure_ "the fault was not injected"
cmp src out/dst || fail_ "copy with AT_EMPTY_PATH refused differs"
only_in_out "dst " "after a link through /proc"

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

# A file system without O_TMPFILE (open says EOPNOTSUPP): the named
# temporary file does, with the same result.
FAULT=open:EOPNOTSUPP FAULT_PATH=out FAULT_LOG=log LD_PRELOAD="$preload" \
  sparsecp src out/dst || fail_ "copy without O_TMPFILE failed"
test -s log || framework_failure_ "the fault was not injected"
cmp src out/dst || fail_ "copy without O_TMPFILE differs"
only_in_out "dst " "after a copy without O_TMPFILE"

# A new file's mode is the source's less the umask, as cp makes it.
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
