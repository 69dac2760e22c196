#!/bin/sh
# Several workers (-j 4) against one (-j 1): the same lines in the same
# order, standard output and error mixed, when some copies fail; no
# temporary file left by SIGTERM, SIGHUP or SIGINT while four copies are in
# progress; a tree that fills the file system halfway: every file that
# is there is whole, every other one is named, nothing else is left.
. "${abs_top_srcdir:-.}/tests/init.sh"

shim=${abs_top_builddir:-..}/tests/faultinject.so
test -f "$shim" || framework_failure_ "no $shim"
preload=$(fault_preload "$shim")

# Four directories of 30 files, and one deeper.
mkdir src || framework_failure_ mkdir
for d in a b c d; do
  mkdir src/$d || framework_failure_ "mkdir src/$d"
  i=0
  while test $i -lt 30; do
    head -c $((i * 2003 + 1)) /dev/urandom >src/$d/f$i || framework_failure_ "src/$d/f$i"
    i=$((i + 1))
  done
done
mkdir -p src/b/deep && echo deep >src/b/deep/f17 || framework_failure_ deep

# The order.  Each f17 and f23 cannot be opened: ten messages among the
# -v lines, each after its own file's line, with four workers as with one.
for j in 1 4; do
  (FAULT=open:EIO FAULT_PATH='/f17|/f23' FAULT_TIMES=0 LD_PRELOAD=$preload \
     sparsecp -rv -j $j src out$j) >mixed$j 2>&1
  echo $? >status$j
done
test "$(cat status1)" = 1 || fail_ "-j 1 with failures exited $(cat status1), not 1"
test "$(cat status4)" = 1 || fail_ "-j 4 with failures exited $(cat status4), not 1"
test "$(grep -c 'Input/output error' mixed1)" = 9 \
  || { fail_ "-j 1 did not report the nine files it could not open:"; cat mixed1 >&2; }
sed 's/out1/out4/g' mixed1 | diff - mixed4 >order.diff \
  || { fail_ "-j 4 printed otherwise than -j 1:"; cat order.diff >&2; }
grep -n "src/a/f17" mixed4 >where.f17 || fail_ "no line for src/a/f17"
test "$(cut -d: -f1 where.f17 | tr '\n' ' ')" \
     = "$(($(cut -d: -f1 where.f17 | head -1))) $(($(cut -d: -f1 where.f17 | head -1) + 1)) " \
  || { fail_ "src/a/f17's message is not right after its -v line:"; cat where.f17 >&2; }
for j in 1 4; do
  rm -f src.list out.list
  (cd src && find . ! -name f17 ! -name f23 | sort) >src.list
  (cd out$j && find . | sort) >out.list
  diff src.list out.list >/dev/null \
    || fail_ "-j $j: out$j does not hold exactly the files that could be read"
  for f in $(cd out$j && find . -type f); do
    cmp -s "src/$f" "out$j/$f" || fail_ "-j $j: out$j/$f differs from src/$f"
  done
done

# Signals.  Four copies stopped in the middle, each under a temporary
# name (no O_TMPFILE): SIGTERM, SIGHUP and SIGINT remove them all.
# env puts back the default action of a signal the test itself was
# started with ignored (nohup, a background job): sparsecp, like cp,
# leaves an ignored signal ignored.
sigs="TERM HUP INT"
env --default-signal=INT,HUP,TERM true 2>/dev/null || {
  echo "SKIP (part): env cannot reset signals (--default-signal)"
  sigs=
}
for sig in $sigs; do
  rm -rf big out.sig && mkdir big \
    && for i in 1 2 3 4 5 6; do
         head -c 300000 /dev/urandom >big/f$i || exit
       done || framework_failure_ "cannot make big"
  FAULT=copy_file_range:stall FAULT_TIMES=0 FAULT_NO_TMPFILE=1 \
    LD_PRELOAD=$preload env --default-signal=INT,HUP,TERM \
    sparsecp -r -j 4 --reflink=auto big out.sig &
  copier=$!
  tries=0
  until test "$(find out.sig -name '.sparsecp-*' 2>/dev/null | wc -l)" = 4; do
    tries=$((tries + 1))
    test $tries -lt 200 || { kill -KILL $copier; framework_failure_ \
      "SIG$sig: four copies never were in progress at once"; }
    sleep 0.05
  done
  kill -$sig $copier
  # The stalled copies sleep for ten minutes: a copy the signal does not
  # end is killed, and fails the test.
  (sleep 30 && kill -KILL $copier 2>/dev/null) &
  watchdog=$!
  wait $copier
  status=$?
  kill $watchdog 2>/dev/null
  case $sig in TERM) want=143;; HUP) want=129;; INT) want=130;; esac
  test $status = $want || fail_ "SIG$sig: sparsecp exited $status, not $want"
  left=$(find out.sig -name '.sparsecp-*' | wc -l)
  test "$left" = 0 || fail_ "SIG$sig left $left temporary files of four workers"
  test -z "$(find out.sig -type f)" \
    || fail_ "SIG$sig: a file stopped in the middle is there under its name"
done

# A file system that fills up halfway through the tree (root, to mount
# a small tmpfs): status 1, each file left out named, each file there
# whole, no temporary left.
if test "$(id -u)" = 0 && mkdir full && mount -t tmpfs -o size=1M tmpfs full
then
  mounted=full
  rm -rf fill && mkdir fill fill/p fill/q || framework_failure_ mkdir
  for i in 0 1 2 3 4 5 6 7 8 9 10 11; do
    head -c 150000 /dev/urandom >fill/p/f$i && cp fill/p/f$i fill/q/f$i \
      || framework_failure_ "fill/p/f$i"
  done
  sparsecp -r -j 4 fill full/copy 2>err
  status=$?
  test $status = 1 || fail_ "ENOSPC: sparsecp exited $status, not 1"
  missing=0
  for f in $(cd fill && find . -type f); do
    if test -e "full/copy/$f"; then
      cmp -s "fill/$f" "full/copy/$f" || fail_ "ENOSPC: full/copy/$f is not whole"
    else
      missing=$((missing + 1))
      grep -F "'full/copy/${f#./}'" err | grep -F 'No space left on device' >/dev/null \
        || fail_ "ENOSPC: nothing says why full/copy/${f#./} is missing"
    fi
  done
  test $missing -gt 0 || fail_ "ENOSPC: the file system never filled up"
  test -z "$(find full -name '.sparsecp-*')" || fail_ "ENOSPC: a temporary was left"
else
  echo "SKIP (part): mounting a small tmpfs needs root"
fi

Exit $fail
