#!/bin/sh
# A source rewritten while it is copied: every copy is one state of it
# (exit 0), or sparsecp says it changed (exit 1) or, under --verify,
# that the copy differs; never
# exit 0 with a torn copy.  (The block the writer is at may be copied
# half-written: the source holds it so while the writer is stopped in
# the middle of its store; see stress.c.)  STRESS_SECONDS bounds the run
# (default 16).
. "${abs_top_srcdir:-.}/tests/init.sh"

seconds=${STRESS_SECONDS:-16}
fallocate -p -o 0 -l 4096 probe 2>/dev/null || {
  : >probe
  truncate -s 8192 probe && fallocate -p -o 0 -l 4096 probe 2>/dev/null
} || skip_ "no hole punching here"

# Phase 1: the writer uses pwrite, fallocate and ftruncate, which all
# change mtime and ctime; sparsecp must see every change without help.
# Phase 2: the writer also writes through mmap, which changes no
# timestamp while the pages stay dirty; only --verify can see that.
runs=0 good=0 part=0 changed=0 verified=0
for phase in 1 2; do
  rm -f src && : >src || framework_failure_ "cannot make src"
  if test $phase = 1; then
    stress write src $((seconds / 2)) &
  else
    stress write src $((seconds - seconds / 2)) mmap &
  fi
  writer=$!
  trap 'kill $writer 2>/dev/null; Exit 99' HUP INT TERM
  while kill -0 $writer 2>/dev/null; do
    runs=$((runs + 1))
    # FIEMAP_FLAG_SYNC cleans the source's pages, so that a write through
    # mmap after it faults and changes mtime; seek and read do not sync.
    opt=--scan=$(echo "fiemap seek read" | cut -d' ' -f$((runs % 3 + 1)))
    test $phase = 2 && opt="$opt --verify"
    rm -f copy
    sparsecp $opt src copy 2>err
    status=$?
    case $status in
      0)
        if stress check copy >chout 2>cherr; then
          good=$((good + 1))
          grep part-written chout >/dev/null && part=$((part + 1))
        else
          fail_ "run $runs ($opt): exit 0 with a torn copy: $(cat cherr)"
          cp copy torn.$runs
        fi;;
      1)
        if grep -F "sparsecp: 'src' changed while being copied" err >/dev/null
        then changed=$((changed + 1))
        elif test $phase = 2 && grep -F "verification failed" err >/dev/null
        then verified=$((verified + 1))
        else fail_ "run $runs: unexpected failure: $(cat err)"
        fi
        test -e copy && fail_ "run $runs: a failed copy left its destination"
        ;;
      *) fail_ "run $runs: exit $status: $(cat err)";;
    esac
  done
  wait $writer || framework_failure_ "the writer failed"
done
ls -a | grep '^\.sparsecp-' && fail_ "a temporary file was left"
echo "$runs runs: $good states copied ($part with the block being written" \
  "part-written), $changed changed while copied, $verified failed verification"
test $good -gt 0 || fail_ "no run copied a complete generation"

Exit $fail
