#!/bin/sh
# A copy killed by SIGKILL or SIGTERM leaves nothing in DEST's directory
# where DEST did not exist, and an existing DEST as it was, with nothing
# beside it.
. "${abs_top_srcdir:-.}/tests/init.sh"
. "${abs_top_srcdir:-.}/tests/new-dest-init.sh"

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

Exit $fail
