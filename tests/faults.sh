#!/bin/sh
# Every fault of faults.tab, injected with the faultinject shim: sparsecp
# either makes an identical copy by the path the row names (--debug) and
# exits 0, or exits 1 naming the file and the operation, with the old
# destination intact and no temporary.
. "${abs_top_srcdir:-.}/tests/init.sh"

shim=${abs_top_builddir:-..}/tests/faultinject.so
test -f "$shim" || framework_failure_ "no $shim"
table=${abs_top_srcdir:-..}/tests/faults.tab
test -f "$table" || framework_failure_ "no $table"

preload=$(fault_preload "$shim")

# The shim really works here: one injected fault shows.
mkholes probe 4096 d:0:4096 || framework_failure_ mkholes
FAULT=copy_file_range:EIO LD_PRELOAD=$preload sparsecp probe probe.copy \
  2>/dev/null && skip_ "LD_PRELOAD has no effect on sparsecp here"

mkholes src.img 1M d:0:4K d:256K:256K d:1020K:4K \
  || framework_failure_ mkholes
mkholes gap.img 64K d:0:4K d:8K:8K d:20K:4K || framework_failure_ mkholes
mkholes late.img 4800K r:0:300:4K:12K || framework_failure_ mkholes
# Rows named tree-* copy the directory tree, src.img among seven other
# files, over an earlier copy, out, with four workers: out/src.img is
# the row's dst, and a fault in its copy leaves the others whole.
mkdir tree && cp src.img tree/src.img || framework_failure_ "cannot make tree"
for i in 1 2 3 4 5 6 7; do
  head -c $((i * 5000)) /dev/urandom >tree/o$i || framework_failure_ "tree/o$i"
done
rows=0
while read -r name fault call times arg path opts outcome msg; do
  case $name in ''|'#'*) continue;; esac
  rows=$((rows + 1))
  test "$opts" = - && opts= || opts=$(echo "$opts" | tr , ' ')
  case "$outcome: $opts " in "ok: "*" --debug "*) ;; ok:*) opts="$opts --debug";; esac
  test -n "$msg" || framework_failure_ "$name: no message to check"
  test "$arg" = - && arg=
  echo "old contents" >dst
  rm -f log dst~
  # Rows named pipe-* copy src.img from a pipe, read with read(); rows
  # named gap-* and late-* copy gap.img and late.img instead; gap.img's
  # small holes look cached (read by the copy) except for gap-cold-*
  # rows (confirmed by SEEK_DATA); rows named named-* run without
  # O_TMPFILE, so the copy has its .sparsecp-* name from the start.
  img=src.img cache= notmp=
  case $name in
    named-*) notmp=1;;
    gap-cold-*) img=gap.img cache=uncached;;
    gap-*) img=gap.img cache=cached;;
    late-*) img=late.img;;
  esac
  src=$img dst=dst to=dst
  case $name in pipe-*) src=/dev/stdin;; esac
  case $name in
    tree-*)
      rm -rf out && mkdir out && echo "old contents" >out/src.img \
        && cp src.img tree/src.img \
        || framework_failure_ "$name: cannot make out"
      src=tree to=out dst=out/src.img opts="-rT -j 4 $opts"
      msg=$(echo "$msg" | sed "s|'src.img'|'tree/src.img'|g; s|'dst'|'out/src.img'|g");;
  esac
  cat $img | env FAULT="$fault" FAULT_CALL="$call" FAULT_TIMES="$times" \
    FAULT_ARG="$arg" FAULT_PATH="$path" FAULT_LOG="$PWD/log" \
    ${cache:+FAULT_MINCORE=$cache} ${notmp:+FAULT_NO_TMPFILE=1} \
    LD_PRELOAD="$preload" sparsecp $opts $src $to 2>err
  status=$?
  case $name in
    tree-*)
      for i in 1 2 3 4 5 6 7; do
        cmp -s tree/o$i out/o$i || fail_ "$name: out/o$i is not a copy of tree/o$i"
      done
      ls -a out | grep '^\.sparsecp-' >/dev/null \
        && fail_ "$name: a temporary file was left in out";;
  esac
  test -s log || fail_ "$name: the fault was never injected"
  case $outcome in
    ok)
      test $status = 0 || { fail_ "$name: exit $status, not 0"; cat err >&2; }
      cmp $img $dst >/dev/null 2>&1 \
        || fail_ "$name: the copy differs from the source"
      case " $opts " in
        *" -b "*) echo "old contents" | cmp - dst~ >/dev/null 2>&1 \
                    || fail_ "$name: dst~ is not the old destination";;
      esac
      rest=$msg
      while test -n "$rest"; do
        said=${rest%% && *}
        test "$said" = "$rest" && rest= || rest=${rest#* && }
        grep -F -- "sparsecp: $said" err >/dev/null \
          || { fail_ "$name: did not say: $said"; cat err >&2; }
      done;;
    fail)
      test $status = 1 || fail_ "$name: exit $status, not 1"
      grep -F -- "sparsecp: $msg" err >/dev/null \
        || { fail_ "$name: did not say: $msg"; cat err >&2; }
      echo "old contents" | cmp - $dst >/dev/null 2>&1 \
        || fail_ "$name: the old destination was not kept"
      test ! -e dst~ || fail_ "$name: a backup was made of a failed copy";;
    *) framework_failure_ "$name: bad outcome $outcome";;
  esac
  ls -a | grep '^\.sparsecp-' >/dev/null \
    && { fail_ "$name: a temporary file was left"; rm -f .sparsecp-*; }
done <"$table"
test $rows -ge 20 || framework_failure_ "only $rows faults in $table"
echo "$rows faults injected"

Exit $fail
