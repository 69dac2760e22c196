#!/bin/sh
# A tree copied while another process swaps directories of its source
# and of its destination for symlinks to a directory outside both, over
# and over (tests/swapdirs.c).  Whatever the copy then says, nothing
# outside its destination may change: not a file's bytes, mode or times,
# not a directory's entries, mode or times.  Rounds alternate between
# -j 1 and four workers, whose files are copied through the directory
# the walker holds.  RACE_ROUNDS sets the number of copies (default 30).
. "${abs_top_srcdir:-.}/tests/init.sh"
command -v swapdirs >/dev/null || framework_failure_ "swapdirs not in PATH"

# The sentinel: what a copy writing through a swapped directory would hit.
mkdir outside outside/s || framework_failure_ "mkdir outside"
for i in 1 2 3 4 5 6; do
  echo "sentinel $i" >outside/f$i && echo "sentinel s$i" >outside/s/f$i \
    || framework_failure_ "sentinel files"
done
chmod 0751 outside && chmod 0640 outside/f1 \
  && touch -h -d '2001-01-01' outside/* outside/s/* outside/s outside \
  || framework_failure_ "sentinel attributes"

# snapshot: every entry under outside, outside itself included, with its
# type, mode, size, link count, mtime and data; atimes left out, since
# a copy through a swapped source may read the sentinel.
snapshot ()
{
  find outside -printf '%p %y %m %s %n %T@ %l\n' | LC_ALL=C sort \
    && find outside -type f -exec md5sum {} + | LC_ALL=C sort
}
snapshot >before || framework_failure_ "snapshot"

# The source: directories d1..d6 with files and a subdirectory each, with
# modes and times that -a copies onto directories when they are done.
for i in 1 2 3 4 5 6; do
  mkdir -p src/d$i/s || framework_failure_ "mkdir src/d$i"
  for j in 1 2 3 4 5 6; do
    echo "data $i $j" >src/d$i/f$j && echo "data $i s$j" >src/d$i/s/f$j \
      || framework_failure_ "src/d$i files"
  done
  chmod 0700 src/d$i/s src/d$i || framework_failure_ "chmod src/d$i"
done
touch -d '2002-02-02' src/d*/s src/d* || framework_failure_ "touch src"

dirs=
for i in 1 2 3 4 5 6; do
  dirs="$dirs src/d$i dst/d$i dst/d$i/s"
done

rounds=${RACE_ROUNDS:-30}
round=0
while test $round -lt "$rounds"; do
  round=$((round + 1))
  rm -rf dst || framework_failure_ "rm dst"
  swapdirs "$PWD/outside" $dirs >swaps &
  swapper=$!
  jobs=$((round % 2 ? 1 : 4))
  sparsecp -a -j $jobs src dst 2>errs.round
  status=$?
  cat errs.round >>errs
  kill -TERM $swapper && wait $swapper \
    || framework_failure_ "swapdirs failed in round $round"
  # A source directory left aside by a lost race: put it back.
  for i in 1 2 3 4 5 6; do
    test -d src/d$i.swapped && { rm -f src/d$i; mv src/d$i.swapped src/d$i; }
  done
  snapshot >after || framework_failure_ "snapshot"
  if ! cmp -s before after; then
    fail_ "round $round (-j $jobs, sparsecp exit $status, $(cat swaps)) changed outside:"
    diff before after >&2
    echo "what sparsecp said in that round:" >&2
    cat errs.round >&2
    break
  fi
done
echo "$round rounds; the last: $(cat swaps); $(grep -c . errs) errors reported"

Exit $fail
