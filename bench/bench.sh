#!/bin/sh
# bench.sh -- measure sparsecp against cp and rsync (make bench).
#
# Each workload is copied by sparsecp, cp --sparse=auto, cp --sparse=always
# and rsync --sparse in turns: one warm-up round, then BENCH_REPS timed
# rounds, the order of the tools changing each round.  Every copy is
# compared with its source and a wrong copy stops the bench.  One more run
# of each tool under strace -c -f, apart from the timed ones, counts its
# syscalls.  Per workload it prints the median wall time, CPU time
# (user+sys), syscalls, peak RSS and the ratio sparsecp/cp from the same
# run, then which goals of issue 6 are met.
#
# The page cache is kept, not dropped, between runs: every tool finds the
# source's data in memory, so the numbers compare what the tools do rather
# than the disk.  Its holes are dropped from the cache before each run,
# as they are in a file just written, and its data read back, in case
# the machine paged it out meanwhile (as-written).  BENCH_DROP_CACHES=1
# (root) drops the whole cache before each run instead.
#
# Environment (sizes take K, M, G or T):
#   SPARSECP        the program measured (default: ../src/sparsecp)
#   CC              compiler for the helpers (cc)
#   BENCH_DIR       where the scratch directory is made (/var/tmp)
#   BENCH_REPS      timed runs of each tool on each workload (5)
#   BENCH_ONLY      workloads to run ("W1 W2 W3 W4 W5 W6 W7 W8 W9 W10")
#   BENCH_TIMEOUT   seconds after which a copy is killed (20; W10's
#                   copies take longer and get BENCH_W10_TIMEOUT, 300)
#   BENCH_SLOW      cp --sparse=always or rsync, when its warm-up took
#                   more seconds than this, runs only that once on the
#                   workload (10; 0 for no limit).  sparsecp and
#                   cp --sparse=auto, whose ratio is judged, always run
#                   every round: one slow run on a busy host must not
#                   leave a ratio without its median.
#   BENCH_DROP_CACHES=1  sync and drop the page cache before each run
#   BENCH_STRACE    workloads whose syscalls are counted (all that run;
#                   W10's cp makes 6,000,000, over 10 minutes under
#                   strace; "" for none)
#   BENCH_KEEP=1    keep the scratch directory, with the strace summaries
#   BENCH_BASELINE  another sparsecp (an earlier build), timed in the same
#                   rounds as a fifth tool, "baseline", so that a change
#                   is judged against what it changed
#   W1_SIZE W1_DATA W1_PIECE   8G 256M 64K: random pieces at random offsets
#   W2_COUNT W2_DATA W2_HOLE   50000 4K 4K: data, hole, data, hole...
#   W3_SIZE                    1T: no data at all
#   W4_SIZE                    1G: no hole at all
#   W5_SIZE W5_DATA W5_PIECE   as W1, rewritten and left dirty before
#                              each run
#   W6_COUNT W6_FILE           10000 4K: small files in a tree (needs -r)
#   W8: a stand-in for a Debian 12 minbase root filesystem (mkwork
#                              rootfs: 7,000 entries, ~300 MB), copied with -a
#   W9_COUNT W9_FILE           2000 64K: files in a tree rewritten before
#                              each copy and still dirty, copied with -r
#   The trees (W6, W8, W9) also time sparsecp -j1 (sparsecp-j1: its
#   files copied in the walk, beside the default workers) and floor-tree,
#   a copy of the tree with the fewest calls, on 1 and 2 threads
#   (floor-1, floor-2), and on 1 making each file as sparsecp does
#   (floor-1t), as tools.
#   W7_FS W7_IMAGE W7_SIZE W7_DATA W7_PIECE   btrfs 4G, then as W1: W1 on
#                              a loop-mounted btrfs or xfs, copied within it
#   BENCH_W10_EXTENTS          1000000: W10, as W2 with that many 4 KiB
#                              extents (10000000 takes 80 GiB of room)

set -u
LC_ALL=C
export LC_ALL

here=$(cd "$(dirname "$0")" && pwd)
: "${SPARSECP:=$here/../src/sparsecp}"
: "${CC:=cc}"
: "${BENCH_DIR:=/var/tmp}"
: "${BENCH_REPS:=5}"
: "${BENCH_ONLY:=W1 W2 W3 W4 W5 W6 W7 W8 W9 W10}"
: "${BENCH_TIMEOUT:=20}"
: "${BENCH_SLOW:=10}"
: "${BENCH_DROP_CACHES:=0}"
: "${BENCH_STRACE=$BENCH_ONLY}"
: "${BENCH_KEEP:=0}"
: "${W1_SIZE:=8G}" "${W1_DATA:=256M}" "${W1_PIECE:=64K}"
: "${W2_COUNT:=50000}" "${W2_DATA:=4K}" "${W2_HOLE:=4K}"
: "${W3_SIZE:=1T}"
: "${W4_SIZE:=1G}"
: "${W5_SIZE:=$W1_SIZE}" "${W5_DATA:=$W1_DATA}" "${W5_PIECE:=$W1_PIECE}"
: "${W6_COUNT:=10000}" "${W6_FILE:=4K}"
: "${W9_COUNT:=2000}" "${W9_FILE:=64K}"
: "${W7_FS:=btrfs}" "${W7_IMAGE:=4G}"
: "${W7_SIZE:=$W1_SIZE}" "${W7_DATA:=$W1_DATA}" "${W7_PIECE:=$W1_PIECE}"
: "${BENCH_W10_EXTENTS:=1000000}" "${BENCH_W10_TIMEOUT:=300}"

TOOLS="sparsecp cp-auto cp-always rsync"
: "${BENCH_BASELINE:=}"
if [ -n "$BENCH_BASELINE" ]; then
  TOOLS="$TOOLS baseline"
fi

die ()
{
  echo "bench: $*" >&2
  exit 99
}

# A copy that failed or differs from its source: no number may stand.
fail ()
{
  echo "bench: FAIL: $*" >&2
  if [ -s "$work/log" ]; then
    echo "bench: last lines of $work/log:" >&2
    tail -n 20 "$work/log" >&2
  fi
  exit 1
}

bytes ()
{
  numfmt --from=iec "$1" || die "bad size '$1'"
}

wanted ()
{
  case " $BENCH_ONLY " in *" $1 "*) return 0;; esac
  return 1
}

mib ()
{
  awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'
}

case $SPARSECP$BENCH_DIR in
  *[[:space:]]*) die "SPARSECP and BENCH_DIR must not contain spaces";;
esac
[ -x "$SPARSECP" ] || die "no program to measure at '$SPARSECP' (set SPARSECP)"
for prog in cp rsync numfmt; do
  command -v $prog >/dev/null || die "$prog is missing (apt-get install coreutils rsync)"
done
if command -v strace >/dev/null; then
  have_strace=true
else
  have_strace=false
  echo "bench: strace is missing, syscalls not counted (apt-get install strace)" >&2
fi
[ -d "$BENCH_DIR" ] || die "BENCH_DIR '$BENCH_DIR' is not a directory"

# Room: workloads run one at a time and each is removed after, so the
# largest source plus one copy of it must fit, with a margin.
w1=$(bytes "$W1_DATA"); w2=$(( $(bytes "$W2_COUNT") * $(bytes "$W2_DATA") ))
w4=$(bytes "$W4_SIZE"); w5=$(bytes "$W5_DATA")
w6=$(( $(bytes "$W6_COUNT") * ($(bytes "$W6_FILE") + 4096) ))
w7=$(( $(bytes "$W7_DATA") * 2 + 268435456 ))
w10=0
wanted W10 && w10=$(( $(bytes "$BENCH_W10_EXTENTS") * 4096 ))
need=0
for b in $w1 $w2 $w4 $w5 $w6 $w10; do
  [ $((b * 2)) -gt $need ] && need=$((b * 2))
done
[ $w7 -gt $need ] && need=$w7
need=$((need + 268435456))
avail=$(df -P -B1 "$BENCH_DIR" | awk 'NR == 2 { print $4 }')
[ "$avail" -ge $need ] ||
  die "$BENCH_DIR has $(mib "$avail") free, the workloads need $(mib $need): set BENCH_DIR or smaller sizes"

work=$(mktemp -d "$BENCH_DIR/sparsecp-bench.XXXXXX") || die "cannot create a scratch directory in $BENCH_DIR"
mnt=$work/w7mnt
cleanup ()
{
  if [ -d "$mnt" ] && mountpoint -q "$mnt"; then
    umount "$mnt" || echo "bench: cannot unmount $mnt" >&2
  fi
  if [ "$BENCH_KEEP" = 1 ]; then
    echo "bench: kept $work"
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

bin=$work/bin
mkdir "$bin" || die "cannot create $bin"
for helper in mkwork timeit cmp-sparse as-written floor-tree; do
  $CC -O2 -pthread -o "$bin/$helper" "$here/$helper.c" ||
    die "cannot build $here/$helper.c with $CC"
done

fstype=$(findmnt -n -o FSTYPE -T "$work" 2>/dev/null || stat -f -c %T "$work")
echo "sparsecp bench, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: $(uname -srm), $(nproc) CPUs ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)), $(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
echo "scratch: $work ($fstype)"
echo "tools: $SPARSECP; $(cp --version | head -n 1); $(rsync --version | head -n 1 | sed 's/  */ /g')"
[ -n "$BENCH_BASELINE" ] && echo "baseline: $BENCH_BASELINE"
if [ "$BENCH_DROP_CACHES" = 1 ]; then
  cache="dropped before each run"
else
  cache="data read back and holes dropped (as-written) before each run"
fi
echo "runs: 1 warm-up + $BENCH_REPS timed per tool, order balanced, sync before each; page cache $cache; syscalls from one more run under strace -c -f (${BENCH_STRACE:-none})"
# Other work on the machine slows the tools unevenly: say so.
load_note ()
{
  awk -v n="$(nproc)" -v when="$1" '{
        if ($1 > n / 2)
          printf "WARNING: load average %s %s on %d CPUs: other work is running and the times are noisy\n", $1, when, n
        else
          printf "load average %s %s\n", $1, when }' /proc/loadavg
}
load_note "at start"
echo "times are medians in ms; CPU = user + sys; RSS = peak resident KiB (wait4, as GNU time %M); dst = KiB allocated by the copy;"
echo "steal = ms the hypervisor took this machine's CPUs during the timed runs, summed: where it is large the times are noisy;"
echo "read = MiB the tool read from the disk in the timed runs, summed: where it is large, the tool waited for the disk"

# Commands for each tool: word-split on purpose, paths have no spaces.
recursive=
tool_cmd ()
{
  case $1 in
    sparsecp) echo "$SPARSECP $recursive";;
    sparsecp-j1) echo "$SPARSECP -j1 $recursive";;
    baseline) echo "$BENCH_BASELINE $recursive";;
    cp-auto) echo "cp $recursive --sparse=auto";;
    cp-always) echo "cp $recursive --sparse=always";;
    rsync) echo "rsync $recursive --sparse";;
    floor-*)
      a= n=${1#floor-}
      [ "$recursive" = -a ] && a=-a
      case $n in *t) a="$a -t" n=${n%t};; esac
      echo "$bin/floor-tree $a $n";;
  esac
}

# The source as TOOL takes it: rsync copies a directory's contents only
# with a trailing slash.
src_arg ()
{
  if [ -n "$recursive" ] && [ "$1" = rsync ]; then
    echo "$src/"
  else
    echo "$src"
  fi
}

# A tree's copy has the same names, types, modes and symlink targets
# and the same bytes; diff -r says only that FIFOs and devices are.
same_tree ()
{
  (cd "$src" && find . -printf '%P %y %m %l\n' | sort) >"$work/list.src"
  (cd "$dst" && find . -printf '%P %y %m %l\n' | sort) >"$work/list.dst"
  diff "$work/list.src" "$work/list.dst" >>"$work/log" 2>&1 || return 1
  diff -r -q --no-dereference "$src" "$dst" 2>&1 |
    grep -v -E '^File .* is a (fifo|character special file|block special file) while file .* is a \1$' \
      >"$work/diff.out"
  cat "$work/diff.out" >>"$work/log"
  [ ! -s "$work/diff.out" ]
}

same_copy ()
{
  if [ -d "$src" ]; then
    same_tree
  else
    "$bin/cmp-sparse" "$src" "$dst" >>"$work/log" 2>&1
  fi
}

# Seconds after which a copy is killed; W10 allows more.
limit=$BENCH_TIMEOUT

# Run before every copy; W5 sets it to rewrite its source.
before_copy ()
{
  :
}

# Remove the copy just made.  A tree is only set aside, and removed with
# the others once its workload is measured: ext4 without a journal, as
# here, skips inodes freed in the last 60 s (360 s while their inode
# table block is dirty) when it allocates one, a linear scan
# (recently_deleted in fs/ext4/ialloc.c), so every copy of W6 took longer
# the more files the runs just before it had removed: 0.3 s to 3.5 s for
# the same cp -r, all of it system time.
spent=0
discard_dst ()
{
  if [ -d "$dst" ]; then
    spent=$((spent + 1))
    mv "$dst" "$work/spent.$spent" || die "cannot move $dst aside"
  else
    rm -f "$dst"
  fi
}

# Before every run, outside its timing: write back what earlier runs left
# dirty, so that no tool pays for another's writeback, and give every
# tool the source as it was written, its holes not cached: rsync and
# cp --sparse=always read them all, and sparsecp reads small holes it
# finds cached instead of asking SEEK_DATA, so on W10 it took 9 s after
# them and 13 to 19 s on the file as written (cp: 18 to 22 s either way).
# Its data is read back too: a machine may page out what sat idle (see
# as-written.c), and a tool that reads it from the disk is not compared
# with one that finds it cached.
prepare_run ()
{
  discard_dst
  sync
  if [ "$BENCH_DROP_CACHES" = 1 ]; then
    echo 3 >/proc/sys/vm/drop_caches || die "cannot drop caches"
  elif [ -f "$src" ]; then
    "$bin/as-written" "$src" || die "cannot cache $src as written"
  fi
  before_copy
}

# Copy once with TOOL, appending its costs to RESULT.  Return 124 when
# the copy was killed for taking too long.
timed_copy ()
{
  tool=$1 result=$2
  prepare_run
  echo "== $name $tool" >>"$work/log"
  "$bin/timeit" "$limit" "$result" $(tool_cmd $tool) \
    "$(src_arg $tool)" "$dst" >>"$work/log" 2>&1
  status=$?
  if [ $status = 124 ]; then
    discard_dst
    return 124
  fi
  [ $status = 0 ] || fail "$name: $tool exited with status $status"
  same_copy || fail "$name: $tool made a copy that differs from its source"
  if [ -d "$dst" ]; then
    du -sk "$dst" | awk '{ print $1 }' >"$work/alloc.$tool"
  else
    echo $(( $(stat -c %b "$dst") * $(stat -c %B "$dst") / 1024 )) >"$work/alloc.$tool"
  fi
  discard_dst
  return 0
}

traced_copy ()
{
  tool=$1
  prepare_run
  echo "== $name $tool under strace" >>"$work/log"
  strace -c -f -o "$work/strace.$name.$tool" $(tool_cmd $tool) \
    "$(src_arg $tool)" "$dst" >>"$work/log" 2>&1 ||
    fail "$name: $tool exited with status $? under strace"
  same_copy || fail "$name: $tool made a copy that differs from its source under strace"
  discard_dst
}

# The order of TOOLS in round N (the warm-up is round 0): the rows of a
# balanced Latin square (Williams), so that within the rounds, over four
# of them, each of four tools runs right after each other tool once
# (five tools: each in each place over five rounds, not after each
# other).  A copy can be several times slower right after rsync's
# (cp --sparse=auto on W4: 1.1 to 5.7 s after rsync, 0.3 to 0.4 s after
# sparsecp or cp --sparse=always), and plain rotation put sparsecp after
# rsync in three rounds of five, cp in one.
round_order ()
{
  echo $TOOLS | awk -v r="$1" '{
    row = (r + 3) % NF
    for (i = 0; i < NF; i++) {
      # The first row is 0, 1, n-1, 2, n-2...; the others shift it.
      b = i == 0 ? 0 : i % 2 ? (i + 1) / 2 : NF - i / 2
      printf "%s%s", $((b + row) % NF + 1), (i < NF - 1 ? " " : "\n")
    } }'
}

# What round N runs: the tools in round_order's order and, where the
# workload has floors, each floor after a different tool, one place
# further on from round to round.  Run after the round's last tool, as
# they once were, the floors took 0.79 to 0.93 of sparsecp's time on W2
# in the bench, where timed alone, in alternation, mkwork mapcopy took
# the same time as sparsecp: a floor measured in another position than
# the tools is not their floor.
round_entries ()
{
  if [ -z "$floor" ]; then
    round_order $1
    return
  fi
  round_order $1 | awk -v r="$1" '{
    n = split("writes copy mapcopy", f, " ")
    for (i = 1; i <= NF; i++) {
      printf "%s%s", (i > 1 ? " " : ""), $i
      for (k = 1; k <= n; k++)
        if ((k + r) % NF == i - 1)
          printf " floor:%s", f[k]
    }
    print "" }'
}

# Median of the values awk's EXPR takes over the lines of FILE.
median ()
{
  awk "{ print $2 }" "$1" | sort -g |
    awk '{ v[NR] = $1 }
         END { if (NR == 0) print "nan"
               else if (NR % 2) print v[(NR + 1) / 2]
               else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

ms ()
{
  awk -v s="$1" 'BEGIN { if (s == "nan") { print "-"; exit }
                         m = s * 1000
                         printf (m < 10 ? "%.2f" : m < 100 ? "%.1f" : "%.0f"), m }'
}

goals_met=
goals_missed=
goal ()
{
  # goal WORKLOAD TEXT OK
  if [ "$3" = 1 ]; then
    goals_met="$goals_met
  met:    $1 $2"
    echo "  goal met: $2"
  else
    goals_missed="$goals_missed
  missed: $1 $2"
    echo "  goal MISSED: $2"
  fi
}

# Measure every tool on $src and print the table for workload $name,
# whose goal is "halve" (W2), "match" (cp's time or less), "w10" (0.6 x
# cp's time or less in every round) or "report".
measure ()
{
  target=$1
  dropped=
  for v in $(echo $TOOLS | tr - _); do
    eval "wall_$v=nan cpu_$v=nan rss_$v=nan calls_$v=-"
  done
  for t in $TOOLS; do
    rm -f "$work/warm.$t" "$work/res.$t" "$work/alloc.$t" "$work/strace.$name.$t"
  done

  for t in $(round_order 0); do
    timed_copy $t "$work/warm.$t"
    if [ $? = 124 ]; then
      dropped="$dropped $t"
      echo "timeout" >"$work/note.$t"
    elif [ "$BENCH_SLOW" != 0 ] && [ $t != sparsecp ] && [ $t != cp-auto ] &&
         [ $t != baseline ] &&
         awk -v w="$(awk '{ print $1 }' "$work/warm.$t")" -v l="$BENCH_SLOW" \
             'BEGIN { exit !(w > l) }'; then
      dropped="$dropped $t"
      echo "warm-up only" >"$work/note.$t"
      cp "$work/warm.$t" "$work/res.$t"
    else
      rm -f "$work/note.$t"
    fi
  done

  rm -f "$work/res.floor" "$work/res.floorcopy" "$work/res.floormapcopy"
  round=1
  while [ $round -le "$BENCH_REPS" ]; do
    for t in $(round_entries $round); do
      case $t in
        floor:*) floor_run ${t#floor:}; continue;;
      esac
      case " $dropped " in *" $t "*) continue;; esac
      timed_copy $t "$work/res.$t" ||
        fail "$name: $t took more than ${limit}s after a faster warm-up"
    done
    round=$((round + 1))
  done

  for t in $TOOLS; do
    case " $dropped " in *" $t "*) continue;; esac
    case " $BENCH_STRACE " in *" $name "*) $have_strace && traced_copy $t;; esac
  done
  rm -rf "$work"/spent.*

  printf '  %-10s %5s %9s %9s %9s %9s %10s %9s %8s\n' tool runs wall_ms cpu_ms syscalls rss_KiB dst_KiB steal_ms read_MiB
  for t in $TOOLS; do
    if [ -f "$work/note.$t" ] && [ "$(cat "$work/note.$t")" = timeout ]; then
      printf '  %-10s killed after %ss (timeout)\n' $t "$limit"
      continue
    fi
    wall=$(median "$work/res.$t" '$1')
    cpu=$(median "$work/res.$t" '$2 + $3')
    rss=$(median "$work/res.$t" '$4')
    runs=$(wc -l <"$work/res.$t")
    calls=-
    if [ -s "$work/strace.$name.$t" ]; then
      calls=$(awk '$NF == "total" { print $4 }' "$work/strace.$name.$t")
    fi
    note=
    [ -f "$work/note.$t" ] && note="  ($(cat "$work/note.$t"): it took more than BENCH_SLOW=${BENCH_SLOW}s)"
    steal=$(awk '{ s += $6 } END { printf "%.0f", s * 1000 }' "$work/res.$t")
    rd=$(awk '{ s += $7 } END { printf "%.1f", s / 1024 }' "$work/res.$t")
    printf '  %-10s %5s %9s %9s %9s %9s %10s %9s %8s%s\n' $t "$runs" "$(ms "$wall")" \
      "$(ms "$cpu")" "$calls" "$rss" "$(cat "$work/alloc.$t" 2>/dev/null || echo -)" \
      "$steal" "$rd" "$note"
    v=$(echo $t | tr - _)
    eval "wall_$v=\$wall cpu_$v=\$cpu rss_$v=\$rss calls_$v=\$calls"
  done

  for t in sparsecp cp-auto; do
    if [ -s "$work/strace.$name.$t" ]; then
      printf '  top syscalls, %-9s' "$t:"
      grep -v -e '^%' -e '^-' -e 'total$' "$work/strace.$name.$t" |
        awk '{ print $4, $NF }' | sort -rn | head -n 5 |
        awk '{ printf " %s %s", $2, $1 } END { print "" }'
    fi
  done

  # The ratios come from this run's medians only.
  awk -v a="$wall_sparsecp" -v b="$wall_cp_auto" -v ca="$cpu_sparsecp" \
      -v cb="$cpu_cp_auto" -v sa="$calls_sparsecp" -v sb="$calls_cp_auto" \
      -v ra="$rss_sparsecp" -v rb="$rss_cp_auto" 'BEGIN {
        printf "  sparsecp/cp: wall %.2f  cpu %.2f", a / b, ca / cb
        if (sa != "-" && sb != "-") printf "  syscalls %.3f", sa / sb
        printf "  RSS %+d KiB\n", ra - rb }'
  if [ -n "$BENCH_BASELINE" ]; then
    awk -v a="$wall_sparsecp" -v b="$wall_baseline" -v ca="$cpu_sparsecp" \
        -v cb="$cpu_baseline" -v ra="$rss_sparsecp" -v rb="$rss_baseline" 'BEGIN {
          printf "  sparsecp/baseline: wall %.2f  cpu %.2f  RSS %+d KiB\n",
                 a / b, ca / cb, ra - rb }'
  fi
  case $target in
    halve)
      ok=$(awk -v a="$wall_sparsecp" -v b="$wall_cp_auto" -v sa="$calls_sparsecp" \
               -v sb="$calls_cp_auto" 'BEGIN { print (a <= 0.5 * b && sa != "-" && 3 * sa <= sb) ? 1 : 0 }')
      goal $name "wall <= 0.5 x cp and 3x fewer syscalls" $ok;;
    match)
      ok=$(awk -v a="$wall_sparsecp" -v b="$wall_cp_auto" 'BEGIN { print (a <= b) ? 1 : 0 }')
      goal $name "wall <= cp" $ok;;
    tree)
      awk -v c="$wall_cp_auto" -v f1="$wall_floor_1" -v f2="$wall_floor_2" \
          -v t="$wall_floor_1t" 'BEGIN {
        printf "  floor-tree/cp: wall %.2f on 1 thread (%.2f with O_TMPFILE and linkat), %.2f on 2\n",
               f1 / c, t / c, f2 / c }'
      awk -v c="$wall_cp_auto" -v j="$wall_sparsecp_j1" -v a="$wall_sparsecp" \
          -v rj="$rss_sparsecp_j1" -v ra="$rss_sparsecp" -v rc="$rss_cp_auto" 'BEGIN {
        printf "  sparsecp -j1/cp: wall %.2f, RSS %+d KiB; default -j/-j1: wall %.2f\n",
               j / c, rj - rc, a / j }'
      ok=$(awk -v a="$wall_sparsecp" -v b="$wall_cp_auto" 'BEGIN { print (a <= 0.7 * b) ? 1 : 0 }')
      goal $name "wall <= 0.7 x cp" $ok;;
    w10)
      ratios=$(by_round sparsecp)
      echo "  sparsecp/cp wall by round: $ratios"
      [ -n "$BENCH_BASELINE" ] &&
        echo "  baseline/cp wall by round: $(by_round baseline)"
      ok=$(echo "$ratios" | awk '{ for (i = 1; i <= NF; i++) if ($i > 0.6) bad = 1
                                   print (NF && !bad) ? 1 : 0 }')
      goal $name "wall <= 0.6 x cp in every round" $ok;;
  esac
  ok=$(awk -v a="$rss_sparsecp" -v b="$rss_cp_auto" 'BEGIN { print (a <= b + 1024) ? 1 : 0 }')
  goal $name "peak RSS <= cp + 1 MiB" $ok
}

# The floors of W2 and W10, "COUNT DATA HOLE" of their stripes: the
# writes any copy that keeps their holes must make (mkwork writes), those
# writes with the reads of the data (mkwork copy: a copy told the layout,
# that spends nothing on finding it), and that copy after one FIEMAP pass
# over the source (mkwork mapcopy: a copier that must find the layout).
# Each runs once a round, between the tools (round_entries).
floor=
floor_run ()
{
  mode=$1
  prepare_run
  echo "== $name floor $mode" >>"$work/log"
  case $mode in
    writes)
      "$bin/timeit" "$limit" "$work/res.floor" "$bin/mkwork" writes "$dst" $floor \
        >>"$work/log" 2>&1 || fail "$name: mkwork writes failed";;
    *)
      "$bin/timeit" "$limit" "$work/res.floor$mode" "$bin/mkwork" $mode "$src" "$dst" \
        $floor >>"$work/log" 2>&1 || fail "$name: mkwork $mode failed"
      same_copy || fail "$name: mkwork $mode made a copy that differs from its source";;
  esac
  discard_dst
}

# The wall time of res.WHAT over cp's, round by round: both run in
# every round, so line N of each is round N.
by_round ()
{
  paste "$work/res.$1" "$work/res.cp-auto" |
    awk -v n="$(awk 'END { print NF }' "$work/res.$1")" \
      '{ printf "%s%.2f", (NR > 1 ? " " : ""), $1 / $(n + 1) }'
}

# floor_report [rounds]: the floors' medians, and with "rounds" their
# ratio to cp round by round too, where a goal is judged so.
floor_report ()
{
  for f in floor floorcopy floormapcopy; do
    case $f in
      floor) what="the ${floor%% *} writes alone (mkwork writes)";;
      floorcopy) what="reads and writes, layout told (mkwork copy)";;
      *) what="the same after one FIEMAP pass (mkwork mapcopy)";;
    esac
    awk -v f="$(median "$work/res.$f" '$1')" -v c="$wall_cp_auto" -v what="$what" '
      BEGIN { printf "  floor, %s: wall %.0f ms = %.2f x cp\n", what, f * 1000, f / c }'
    if [ "${1-}" = rounds ]; then
      printf '  %s/cp wall by round: %s\n' $f "$(by_round $f)"
    fi
  done
}

# measure a tree: with sparsecp on one thread (-j1) and the floors as
# more tools.
tree_measure ()
{
  saved_tools=$TOOLS
  TOOLS="$TOOLS sparsecp-j1 floor-1 floor-1t floor-2"
  measure tree
  TOOLS=$saved_tools
}

heading ()
{
  echo
  echo "$name  $*"
}

# W1, W5 and W7: pieces at random offsets.
scatter_file ()
{
  "$bin/mkwork" scatter "$1" "$2" "$3" "$4" 1 || die "cannot write $1"
}

dst=$work/dst

name=W1
if wanted $name; then
  src=$work/w1
  scatter_file "$src" "$W1_SIZE" "$W1_DATA" "$W1_PIECE"
  sync
  heading "$W1_SIZE file, $W1_DATA of data in $W1_PIECE pieces at random offsets, on disk"
  measure match
  rm -f "$src"
fi

name=W2
if wanted $name; then
  src=$work/w2
  "$bin/mkwork" stripes "$src" "$W2_COUNT" "$W2_DATA" "$W2_HOLE" || die "cannot write $src"
  sync
  heading "$W2_COUNT x ($W2_DATA data, $W2_HOLE hole), $(mib "$(stat -c %s "$src")"), on disk"
  floor="$W2_COUNT $W2_DATA $W2_HOLE"
  measure halve
  floor_report
  floor=
  rm -f "$src"
fi

name=W3
if wanted $name; then
  src=$work/w3
  truncate -s "$W3_SIZE" "$src" || die "cannot make $src"
  heading "$W3_SIZE file with no data"
  measure match
  rm -f "$src"
fi

name=W4
if wanted $name; then
  src=$work/w4
  "$bin/mkwork" dense "$src" "$W4_SIZE" 4 || die "cannot write $src"
  sync
  heading "$W4_SIZE of data, no hole, on disk"
  measure match
  rm -f "$src"
fi

name=W5
if wanted $name; then
  src=$work/w5
  before_copy ()
  {
    rm -f "$src"
    scatter_file "$src" "$W5_SIZE" "$W5_DATA" "$W5_PIECE"
  }
  heading "as W1 ($W5_SIZE, $W5_DATA in $W5_PIECE pieces), rewritten before each copy and still dirty"
  measure report
  before_copy () { :; }
  rm -f "$src"
fi

name=W6
if wanted $name; then
  if "$SPARSECP" --help 2>/dev/null | grep -q -e '--recursive' -e '^ *-r'; then
    src=$work/w6
    "$bin/mkwork" tree "$src" "$W6_COUNT" "$W6_FILE" 6 || die "cannot write $src"
    sync
    heading "tree of $W6_COUNT files of $W6_FILE"
    recursive=-r
    tree_measure
    recursive=
    rm -rf "$src"
  else
    heading "tree of $W6_COUNT files of $W6_FILE: skipped: sparsecp has no -r yet"
  fi
fi

name=W7
if wanted $name; then
  skip=
  if [ "$(id -u)" != 0 ]; then
    skip="not root, cannot loop-mount"
  elif ! command -v "mkfs.$W7_FS" >/dev/null; then
    skip="mkfs.$W7_FS is missing (apt-get install btrfs-progs xfsprogs)"
  else
    truncate -s "$W7_IMAGE" "$work/w7.img" && mkdir "$mnt" || die "cannot make $work/w7.img"
    case $W7_FS in
      xfs) mkfs_opts="-q -f -m reflink=1";;
      *) mkfs_opts="-q -f";;
    esac
    if ! "mkfs.$W7_FS" $mkfs_opts "$work/w7.img" >>"$work/log" 2>&1; then
      skip="mkfs.$W7_FS failed: $(tail -n 1 "$work/log")"
    elif ! mount -o loop "$work/w7.img" "$mnt" 2>"$work/mount.err"; then
      skip="mount -o loop failed: $(head -n 1 "$work/mount.err")"
    fi
  fi
  if [ -n "$skip" ]; then
    heading "copy within a loop-mounted $W7_FS: skipped: $skip"
  else
    src=$mnt/src
    dst=$mnt/dst
    scatter_file "$src" "$W7_SIZE" "$W7_DATA" "$W7_PIECE"
    sync
    heading "as W1 ($W7_SIZE, $W7_DATA in $W7_PIECE pieces) on a loop-mounted $W7_FS, copied within it"
    measure match
    dst=$work/dst
    umount "$mnt" || die "cannot unmount $mnt"
    rm -f "$work/w7.img"
  fi
fi

name=W8
if wanted $name; then
  src=$work/w8
  "$bin/mkwork" rootfs "$src" 8 || die "cannot write $src"
  sync
  heading "a root filesystem's shape: $(find "$src" | wc -l) entries, $(du -sm "$src" | cut -f1) MiB, with -a"
  recursive=-a
  tree_measure
  recursive=
  rm -rf "$src"
fi

name=W9
if wanted $name; then
  src=$work/w9
  before_copy ()
  {
    rm -rf "$src"
    "$bin/mkwork" tree "$src" "$W9_COUNT" "$W9_FILE" 9 || die "cannot write $src"
  }
  before_copy
  heading "tree of $W9_COUNT files of $W9_FILE, rewritten before each copy and still dirty"
  recursive=-r
  tree_measure
  recursive=
  before_copy () { :; }
  rm -rf "$src"
fi

name=W10
if wanted $name; then
  src=$work/w10
  "$bin/mkwork" stripes "$src" "$BENCH_W10_EXTENTS" 4K 4K || die "cannot write $src"
  sync
  heading "$BENCH_W10_EXTENTS x (4K data, 4K hole), $(mib "$(stat -c %s "$src")"), on disk"
  limit=$BENCH_W10_TIMEOUT
  floor="$BENCH_W10_EXTENTS 4K 4K"
  measure w10
  floor_report rounds
  floor=
  limit=$BENCH_TIMEOUT
  rm -f "$src"
fi

echo
load_note "at end"
echo "goals of issues 6 and 23 (W5 is reported, not judged):$goals_met$goals_missed"
