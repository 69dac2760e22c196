#!/bin/sh
# --progress: a bar redrawn in place on a terminal, ending at 100%, plain
# lines with --progress=always elsewhere, nothing otherwise.
. "${abs_top_srcdir:-.}/tests/init.sh"

cr=$(printf '\r')
esc=$(printf '\033')

# on_pty CMD: run the shell command CMD with stdin, stdout and stderr on
# a new pseudo-terminal of 100 columns; write what appeared on it (with
# the terminal's \r\n for \n) to stdout.  Exit with CMD's status.
on_pty ()
{
  SHELL=/bin/sh script -qefc "stty cols 100 rows 24 && $1" /dev/null \
    </dev/null
}
command -v script >/dev/null || skip_ "no script(1)"
test "$(on_pty 'echo ok')" = "ok$cr" || skip_ "script(1) gives no usable pty"

# bars FILE: each line drawn in the pty transcript FILE, one per line.
bars () { tr '\r' '\n' <"$1" | sed "s/$esc\\[K//g" | grep -v '^$'; }

# redraws FILE: how many times a line was drawn in place in FILE.
redraws () { grep -o "$cr[^$cr]*$esc\\[K" "$1" | wc -l; }

# 64 MiB of data in 1 MiB extents, 64 MiB of holes.
mkholes big 128M r:0:64:1M:1M || framework_failure_ mkholes
# 8 MiB of data, 56 MiB of holes.
mkholes mid 64M r:0:8:1M:7M || framework_failure_ mkholes

# The numbers on the bars depend on the map: check them exactly with
# --scan=seek where SEEK_DATA finds the data extents (a reflink, or a
# map made by reading, counts the whole size as data).
sparsecp --debug --scan=seek big probe 2>err || framework_failure_ probe
grep 'scan=seek extents=64 data=67108864 ' err >/dev/null \
  || skip_ "SEEK_DATA does not map the test files here"
S=--scan=seek

# A final bar: 100%, data done equal to the data in all; time taken.
done_re='100%  \([0-9.]* [KMGT]\{0,1\}i\{0,1\}B\) / \1  holes '
took_re='/s  in [0-9]*:[0-9][0-9]$'

# One file: the bar appears, is redrawn in place, and its last state is
# 100% of the data, then a newline ends the line.
on_pty 'sparsecp --progress big big.copy' >out \
  || fail_ "--progress big failed"
check_copy big big.copy 64
bars out | grep '^big .*%' >/dev/null || fail_ "no bar for big"
test "$(redraws out)" -ge 2 || fail_ "the bar is not redrawn in place"
bars out | tail -n 1 | grep "^big  $done_re.*$took_re" >/dev/null \
  || { fail_ "the bar does not end at 100%"; bars out >&2; }
test "$(tail -c 2 out | od -An -c | tr -d ' ')" = '\r\n' \
  || fail_ "the last line of the bar is not ended"
bars out | grep ' 100%' | grep -v "^big  $done_re" >&2 \
  && fail_ "the bar showed 100% with data left to copy"

# With a map: the data and holes of the map.
on_pty "sparsecp --progress $S big big.seek" >out \
  || fail_ "--progress $S big failed"
bars out | tail -n 1 \
  | grep "^big  100%  64\\.0 MiB / 64\\.0 MiB  holes 64\\.0 MiB  .*$took_re" \
  >/dev/null || { fail_ "$S: the bar does not end at 100%"; bars out >&2; }

# Every way of copying counts exactly the map's data, no more, no less.
for opts in --scan=fiemap --scan=read "$S --sparse=always" \
            "$S --sparse=never"; do
  on_pty "sparsecp --progress $opts mid mid.copy" >out \
    || fail_ "--progress $opts failed"
  cmp mid mid.copy || fail_ "--progress $opts: the copy differs"
  case $opts in
    --scan=read) want='^mid  100%  64\.0 MiB / 64\.0 MiB  holes 0 B ' ;;
    --scan=seek*) want='^mid  100%  8\.0 MiB / 8\.0 MiB  holes 56\.0 MiB ' ;;
    *) want="^mid  $done_re" ;;
  esac
  bars out | tail -n 1 | grep "$want" >/dev/null \
    || { fail_ "--progress $opts does not end at 100%"; bars out >&2; }
  rm -f mid.copy
done

# At most 10 redraws a second: reading the whole of big calls the bar
# 512 times, once per 256 KiB buffer.
start=$(date +%s%N)
on_pty 'sparsecp --progress --scan=read big big.read' >out \
  || fail_ "--progress --scan=read big failed"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
cmp big big.read || fail_ "--scan=read: the copy differs"
n=$(redraws out)
test "$n" -le $(( ms / 100 + 3 )) \
  || fail_ "$n redraws in $ms ms: more than 10 a second"

# A slow pipe: redrawn as bytes come, at most 10 times a second, with
# no percent (its size is not known).
mkfifo fifo || framework_failure_ "cannot make a FIFO"
head -c 6M /dev/urandom >want
(for i in 0 1 2 3 4 5; do
   dd if=want bs=1M skip=$i count=1 status=none; sleep 0.2
 done) >fifo &
start=$(date +%s%N)
on_pty 'sparsecp --progress fifo got' >out || fail_ "--progress fifo failed"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
wait
cmp want got || fail_ "the copy of the FIFO differs"
n=$(redraws out)
test "$n" -ge 4 \
  || { fail_ "a slow pipe was redrawn only $n times"; bars out >&2; }
test "$n" -le $(( ms / 100 + 3 )) \
  || fail_ "a slow pipe was redrawn $n times in $ms ms"
bars out | tail -n 1 | grep "^fifo  6\\.0 MiB  .*$took_re" >/dev/null \
  || { fail_ "the bar of a pipe does not end at its size"; bars out >&2; }
bars out | grep '%' >/dev/null && fail_ "a pipe's bar shows a percent"

# Two files: each name with the files done and data in all, then a line
# of totals.  The second is a slow pipe, so that its bar is drawn; the
# first may end between two redraws, and the line of totals stands for
# its last state.
mkdir dir
(for i in 0 1 2 3 4 5; do
   dd if=want bs=1M skip=$i count=1 status=none; sleep 0.2
 done) >fifo &
on_pty "sparsecp --progress $S big fifo dir" >out \
  || fail_ "--progress into dir failed"
wait
cmp big dir/big && cmp want dir/fifo || fail_ "copies into dir differ"
bars out | grep '^big  ' >/dev/null || fail_ "no bar for big"
bars out | grep '^fifo  [0-9.]* [KM]iB  .*  \[1 file done, [67][0-9]\.[0-9] MiB\]$' \
  >/dev/null || { fail_ "no bar for fifo with the totals"; bars out >&2; }
bars out | tail -n 1 \
  | grep "^2 files  70\\.0 MiB  holes 64\\.0 MiB  .*$took_re" >/dev/null \
  || { fail_ "no final line of totals"; bars out >&2; }

# A tree of many small files is redrawn at most 10 times a second too.
mkdir tree
for i in $(seq 300); do echo "$i" >tree/f$i; done
start=$(date +%s%N)
on_pty "sparsecp -r --progress tree tree.copy" >out \
  || fail_ "--progress -r failed"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
diff -r tree tree.copy >/dev/null || fail_ "the tree copy differs"
n=$(redraws out)
test "$n" -le $(( ms / 100 + 3 )) \
  || fail_ "300 small files were drawn $n times in $ms ms"
bars out | tail -n 1 | grep "^300 files  " >/dev/null \
  || { fail_ "no final line of totals for the tree"; bars out >&2; }

# A long name is shortened to the terminal's width, keeping its end.
long=$(printf '%0150d' 0)-end
cp mid "$long" || framework_failure_ "cannot make a long name"
on_pty "sparsecp --progress $long long.copy" >out \
  || fail_ "--progress with a long name failed"
bars out | grep -v "^\\.\\.\\.0*-end  " >&2 \
  && fail_ "a long name was not shortened"
bars out | awk 'length > 99 { exit 1 }' \
  || fail_ "a bar is wider than 99 columns"

# An error while a bar is shown starts a line of its own.
rm -r dir && mkdir dir
on_pty 'sparsecp --progress big nosuch mid dir' >out \
  && fail_ "a missing source did not fail"
bars out | grep "^sparsecp: cannot stat 'nosuch': No such file or directory$" \
  >/dev/null \
  || { fail_ "the error is not on a line of its own"; cat -A out >&2; }
cmp mid dir/mid || fail_ "mid was not copied after the error"

# Without a terminal nothing, unless asked for: then one plain line per
# file and the totals, without \r or escapes.
sparsecp --progress big mid dir 2>err >stdout \
  || fail_ "--progress, no tty failed"
test -s err && fail_ "--progress printed without a terminal"
sparsecp --progress=auto big mid dir 2>err || fail_ "--progress=auto failed"
test -s err && fail_ "--progress=auto printed without a terminal"
on_pty 'sparsecp --progress=never big mid dir' >out \
  || fail_ "--progress=never failed"
test -s out && fail_ "--progress=never printed on a terminal"
sparsecp --progress=always $S big mid dir 2>err >stdout \
  || fail_ "--progress=always failed"
test -s stdout && fail_ "--progress=always wrote to stdout"
test "$(wc -l <err)" = 3 \
  || { fail_ "--progress=always: not 3 lines"; cat err >&2; }
grep "[$cr$esc]" err >/dev/null \
  && fail_ "--progress=always wrote escapes to a file"
sed -n 1p err | grep '^big  100%  64\.0 MiB / 64\.0 MiB  holes 64\.0 MiB' \
  >/dev/null || fail_ "--progress=always: no line for big"
sed -n 2p err \
  | grep '^mid  100%  8\.0 MiB / 8\.0 MiB .* \[2 files done, 72\.0 MiB\]$' \
  >/dev/null || fail_ "--progress=always: no line for mid"
sed -n 3p err | grep '^2 files  72\.0 MiB  holes 120\.0 MiB ' >/dev/null \
  || fail_ "--progress=always: no totals line"

expect_fail 1 "sparsecp: invalid argument 'sometimes' for '--progress'" \
  sparsecp --progress=sometimes big x

Exit $fail
