#!/bin/bash
# fstests-guest.sh FSTYP LIMIT TEST...: run inside the vmcheck guest, in the
# chroot of vmtest/fstests-image.sh, with /dev/vdb as fstests' TEST_DEV and
# /dev/vdc as its SCRATCH_DEV.  Runs fstests' ./check once per test, each
# killed after LIMIT seconds, and prints one line per test:
#
#   fstests TEST pass|fail|notrun SECONDS [REASON]
#
# The reason of notrun is fstests' own; that of fail is the first lines of
# the difference from the golden output, or the timeout.

set -u
fstyp=$1 limit=$2
shift 2

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C
cd /fstests || exit 1
mkdir -p /mnt/test /mnt/scratch
cat > local.config <<EOF
export FSTYP=$fstyp
export TEST_DEV=/dev/vdb
export TEST_DIR=/mnt/test
export SCRATCH_DEV=/dev/vdc
export SCRATCH_MNT=/mnt/scratch
EOF

# one line of at most 200 characters, for the results table
oneline() { tr '\n\t' '  ' | tr -s ' ' | cut -c1-200; }

for t in "$@"; do
	rm -rf results
	start=$SECONDS
	timeout -k 10 "$limit" ./check "$t" > /tmp/check.out 2>&1
	rc=$?
	secs=$((SECONDS - start))
	# a test killed by the timeout can leave its mounts behind
	umount /mnt/scratch /mnt/test 2> /dev/null
	# fstests writes results/[SECTION/]TEST.{out.bad,full,notrun,dmesg}
	# (test names have no dot)
	base=$(find results -path "*/$t.*" -print -quit 2> /dev/null)
	base=${base%%.*}
	if [ -n "$base" ] && [ -f "$base.notrun" ]; then
		echo "fstests $t notrun $secs $(oneline < "$base.notrun")"
	elif [ $rc = 124 ] || [ $rc = 137 ]; then
		echo "fstests $t fail $secs killed after $limit s"
	elif [ $rc = 0 ] && grep -q "^Ran: $t\$" /tmp/check.out &&
	     grep -q '^Passed all 1 tests' /tmp/check.out; then
		echo "fstests $t pass $secs"
	elif [ -n "$base" ] && [ -f "$base.out.bad" ]; then
		echo "fstests $t fail $secs $(diff "tests/$t.out" "$base.out.bad" |
			grep '^[<>]' | head -n 4 | oneline)"
	else
		echo "fstests $t fail $secs $(grep -v '^$' /tmp/check.out | tail -n 3 | oneline)"
	fi
	# The whole of it, for the console log, each line ended (a .full
	# may not end in a newline, which would swallow the next result).
	prefix() { awk -v p="$1" '{ print p $0 }'; }
	prefix "fstests-out $t: " < /tmp/check.out
	[ -n "$base" ] && [ -f "$base.full" ] && tail -n 20 "$base.full" | prefix "fstests-full $t: "
	[ -n "$base" ] && [ -f "$base.dmesg" ] && head -n 40 "$base.dmesg" | prefix "fstests-dmesg $t: "
done
exit 0
