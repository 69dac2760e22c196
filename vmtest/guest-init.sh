#!/bin/sh
# /init of the vmcheck guest (busybox sh).  Runs every scenario on every
# filesystem disk, writes TAP lines (without numbers: the host numbers them)
# to the console and to the results disk /dev/vda, then powers off.
#
# Kernel command line parameters:
#   vmtest.variant=VARIANT               what the expectations are: stock,
#                                        patched, debug, v1, patch1 (6.1), upstream,
#                                        upstream-fixed, upstream-debug (6.12)
#   vmtest.reps=N                        fiemap-race repetitions per case
#   vmtest.wreps=N                       fiemap-window repetitions per case
#   vmtest.fs=btrfs,btrfs-zstd,ext4,xfs,btrfs-holes  filesystems to run
#   vmtest.scans=fiemap,seek,auto        sparsecp --scan methods to run
#   vmtest.probe=1                       only report that the guest booted
#   vmtest.fstests=TEST,TEST,...          the fstests of fstests-init.sh
#   vmtest.fstests_limit=SECONDS          kill each of them after this long
#
# Disks: vda results, vdb btrfs, vdc ext4, vdd xfs, vde btrfs made with
# explicit hole items (mkfs.btrfs -O ^no-holes), for fiemap-restart only.

. /guest-lib.sh

if [ "$probe" = 1 ]; then
	note "probe: guest booted"
	finish
fi

note "kernel $(uname -r), variant $variant, $(nproc) cpus"

# Keep written data dirty (delalloc) until a test asks for it.
echo 360000 > /proc/sys/vm/dirty_expire_centisecs
echo 0 > /proc/sys/vm/dirty_writeback_centisecs

SCANS=$(echo "$scans" | tr , ' ')

sha() { set -- $(sha256sum < "$1"); echo "$1"; }

# copy_check FS SCAN SCENARIO DIR: make the scenario file, copy it at once
# with sparsecp, compare with the expected content and check holes.
copy_check() {
	local fs=$1 scan=$2 scen=$3 dir=$4 src copy exp desc rc
	src=$dir/$scen.src copy=$dir/$scen.copy exp=/tmp/$scen.exp
	desc="$fs/$scen/scan=$scan"

	mkscenario "$scen" "$src" "$exp"
	rc=$?
	if [ $rc = 77 ]; then
		tap ok "$desc" "SKIP not supported on $fs"
		rm -f "$src" "$src.origin" "$exp"
		return
	elif [ $rc != 0 ]; then
		tap "not ok" "$desc (setup failed: mkscenario exit $rc)"
		rm -f "$src" "$src.origin" "$exp"
		return
	fi
	timeout 300 sparsecp --scan="$scan" "$src" "$copy" > /tmp/out 2>&1
	rc=$?
	if [ $rc != 0 ]; then
		tap "not ok" "$desc (sparsecp exit $rc)"
		sed 's/^/#   /' /tmp/out | head -n 20 | tee -a $results
	elif [ "$(sha "$copy")" != "$(sha "$exp")" ]; then
		tap "not ok" "$desc (copy differs from expected content)"
		cmp "$copy" "$exp" 2>&1 | sed 's/^/#   /' | tee -a $results
	elif ! mkscenario --holes "$src" "$copy" > /tmp/out 2>&1; then
		tap "not ok" "$desc (holes not preserved)"
		sed 's/^/#   /' /tmp/out | tee -a $results
	elif [ "$(sha "$src")" != "$(sha "$exp")" ]; then
		tap "not ok" "$desc (source itself reads back wrong: kernel bug)"
	else
		tap ok "$desc"
	fi
	rm -f "$src" "$src.origin" "$copy" "$exp"
}

# append_check FS SCAN DIR: copy a file that is being appended to.  Exit 1
# with "changed" in the message is acceptable; exit 0 must be an exact
# prefix snapshot; anything else fails.
append_check() {
	local fs=$1 scan=$2 dir=$3 src copy desc rc appender n
	src=$dir/append.src copy=$dir/append.copy
	desc="$fs/append-during-copy/scan=$scan"

	mkscenario mixed "$src" /tmp/append.exp || { tap "not ok" "$desc (setup failed)"; return; }
	(
		i=0
		while [ $i -lt 3000 ]; do
			printf 'appended line %06d\n' $i >> "$src"
			i=$((i + 1))
		done
	) &
	appender=$!
	timeout 300 sparsecp --scan="$scan" "$src" "$copy" > /tmp/out 2>&1
	rc=$?
	wait $appender
	n=$(stat -c %s "$copy" 2>/dev/null || echo 0)
	if [ $rc = 0 ] && [ "$(head -c "$n" "$src" | sha256sum)" = "$(sha256sum < "$copy")" ]; then
		tap ok "$desc (exit 0, consistent snapshot of $n bytes)"
	elif [ $rc = 1 ] && grep -qi changed /tmp/out; then
		tap ok "$desc (exit 1, reported the change)"
	else
		tap "not ok" "$desc (exit $rc: silent mismatch or unexpected error)"
		sed 's/^/#   /' /tmp/out | head -n 20 | tee -a $results
	fi
	rm -f "$src" "$copy" /tmp/append.exp
}

# expect_bug FS NAME RC WRONG: TAP for a check that must fail on stock
# (proving the bug) and pass on patched kernels.
expect_bug() {
	local fs=$1 name=$2 rc=$3 wrong=$4 desc
	desc="$fs/$name ($wrong of $reps repetitions wrong)"
	if [ "$rc" = 2 ]; then
		tap "not ok" "$desc: setup error"
	elif [ "$variant" = stock ]; then
		if [ "$wrong" -gt 0 ]; then
			tap "not ok" "$desc" "TODO stock kernel bug"
		else
			note "!!!!!!!! STOCK KERNEL NO LONGER REPRODUCES $fs/$name !!!!!!!!"
			tap ok "$desc" "TODO stock kernel bug NOT REPRODUCED"
		fi
	elif [ "$wrong" = 0 ] && [ "$rc" = 0 ]; then
		tap ok "$desc"
	else
		tap "not ok" "$desc"
	fi
}

# race_checks FS DIR: the fiemap race reproducer, the naive copier under the
# same race, and the self-mapped FIEMAP deadlock check.
race_checks() {
	local fs=$1 dir=$2 case t rc maps copies
	for case in hole prealloc; do
		t=$(date +%s)
		fiemap-race -c -t 60 -n "$reps" "$case" "$dir" > /tmp/race 2>&1
		rc=$?
		# The first few wrong repetitions and the verdict are enough.
		grep -v 'map correct' /tmp/race |
			awk 'NR <= 3 { print; next } { last = $0 } END { if (last != "") print last }' |
			sed 's/^/#   /' | tee -a $results
		maps=$(grep -c 'reported as a hole\|reported UNWRITTEN' /tmp/race)
		copies=$(grep -c 'naive copy differs' /tmp/race)
		expect_bug "$fs" "fiemap-race/$case" $rc "$maps"
		expect_bug "$fs" "naive-copier/$case" $rc "$copies"
		note "fiemap-race $case on $fs: $(($(date +%s) - t)) s"
		publish
	done
	fiemap-race -t 60 -n 3 selfmap "$dir" > /tmp/race 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		tap ok "$fs/fiemap-selfmap (FIEMAP into an mmap of the file completes)"
	else
		tap "not ok" "$fs/fiemap-selfmap (exit $rc)"
		sed 's/^/#   /' /tmp/race | tee -a $results
	fi
}

# window_fixed CASE: does this variant close the fiemap-window CASE?
# stock, v1 and patch1 (1/3 alone) do not; kernel/patches closes all
# four.  Mainline flushes again under the inode lock and looks for the
# last extent under the range lock, which closes sync and last; front and
# resume need the delay hook, which is not ported to 6.12, so there they
# are skipped.
window_fixed() {
	case $variant in
	patched|debug) return 0 ;;
	upstream*) case $1 in front|resume) return 1 ;; esac ;;
	*) return 1 ;;
	esac
}

# window_checks FS DIR: the reproducers of the windows that v1 leaves open.
window_checks() {
	local fs=$1 dir=$2 case rc wrong desc
	for case in sync last front resume; do
		fiemap-window -t 60 -n "$wreps" $case "$dir" > /tmp/window 2>&1
		rc=$?
		grep -v 'map correct' /tmp/window |
			awk 'NR <= 3 { print; next } { last = $0 } END { if (last != "") print last }' |
			sed 's/^/#   /' | tee -a $results
		wrong=$(grep -c 'WRONG' /tmp/window)
		desc="$fs/fiemap-window/$case ($wrong of $wreps repetitions wrong)"
		if [ $rc = 77 ]; then
			tap ok "$fs/fiemap-window/$case" "SKIP no vmcheck delay hook in this kernel"
		elif [ $rc != 0 ] && [ $rc != 1 ]; then
			tap "not ok" "$desc: setup error (exit $rc)"
		elif window_fixed $case; then
			if [ $rc = 0 ]; then tap ok "$desc"; else tap "not ok" "$desc"; fi
		elif [ $rc = 1 ]; then
			tap "not ok" "$desc" "TODO open on $variant"
		else
			note "!!!!!!!! $variant NO LONGER REPRODUCES $fs/fiemap-window/$case !!!!!!!!"
			tap ok "$desc" "TODO open on $variant NOT REPRODUCED"
		fi
		publish
	done
}

# restart_bug FS CASE PART: does this variant report a range of a prealloc
# item, or of an explicit hole item (btrfs-holes), more than once?  With
# no-holes a hole is no item, and the walk starts right.
#   calls  single calls, the whole file in one: mainline's restart after a
#          flush of its 128-entry buffer processes the item from its start
#          again (978b63f7464a, v6.9).
#   walk   calls of 16 extents, each from the end of the last: every kernel
#          since ac3c0d36a2a2 (v6.1) reports the item's ranges before
#          fm_start, so the walk never gets past them; kernel/upstream
#          fixes both.
restart_bug() {
	[ "$2" = prealloc ] || [ "$1" = btrfs-holes ] || return 1
	case $3/$variant in
	calls/upstream) return 0 ;;
	walk/upstream-fixed|walk/upstream-debug) return 1 ;;
	walk/*) return 0 ;;
	esac
	return 1
}

# restart_checks FS DIR: fiemap-restart on a preallocated and on a sparse
# file, every other block dirty; one result for the single calls and one
# for the walk.
restart_checks() {
	local fs=$1 dir=$2 case rc part desc
	for case in prealloc hole; do
		# Every answer is on the console as it comes; a FIEMAP that
		# never returns must not hang the guest.
		set -o pipefail
		timeout 300 fiemap-restart -t 10 $case "$dir" 2>&1 | tee /tmp/restart |
			sed 's/^/fiemap-restart: /' > /dev/console
		rc=$?
		set +o pipefail
		grep -v ': right$' /tmp/restart | head -n 40 | sed 's/^/#   /' >> $results
		for part in calls walk; do
			desc="$fs/fiemap-restart/$case/$part ($(sed -n "s/^dirty $part: //p" /tmp/restart))"
			if [ $rc != 0 ] && [ $rc != 1 ]; then
				tap "not ok" "$desc: setup error or hang (exit $rc)"
			elif ! grep -q "^synced $part: 0 wrong" /tmp/restart; then
				tap "not ok" "$desc: wrong after a sync"
			elif restart_bug "$fs" $case $part; then
				if grep -q "^dirty $part: 0 wrong" /tmp/restart; then
					note "!!!!!!!! $variant NO LONGER REPRODUCES $fs/fiemap-restart/$case/$part !!!!!!!!"
					tap ok "$desc" "TODO known bug NOT REPRODUCED"
				else
					tap "not ok" "$desc" "TODO known bug"
				fi
			elif grep -q "^dirty $part: 0 wrong" /tmp/restart; then
				tap ok "$desc"
			else
				tap "not ok" "$desc"
			fi
		done
		filefrag_note "$fs" $case "$dir"
		publish
	done
}

# filefrag_note FS CASE DIR: what filefrag -v (292 extents a call, no
# sync) lists for the same dirty file: a note, for the record.  Where the
# bug is, filefrag lists millions of lines for minutes: 15 s of it, counted
# as it comes, tell enough.
filefrag_note() {
	local fs=$1 case=$2 dir=$3 rc counts
	command -v filefrag > /dev/null || return 0
	fiemap-restart -w $case "$dir" > /dev/null 2>&1 || return 0
	set -o pipefail
	counts=$(timeout 15 filefrag -v "$dir/restart-$case" 2>&1 | awk '
		/^ *[0-9]+: *[0-9]+\.\./ {
			sub(/^ *[0-9]+: */, ""); split($0, a, /\.\./)
			s = a[1] + 0; e = a[2] + 0; n++
			if (n > 1 && s <= end) o++
			if (n == 1 || e > end) end = e
		}
		END { printf "%d extents listed, %d overlapping", n, o }')
	rc=$?
	set +o pipefail
	note "filefrag -v $fs/$case: $counts (exit $rc)"
	rm -f "$dir/restart-$case"
}

# dump_maps FS DIR: the maps of quiescent files, plain and compressed, one
# "# map" line per FIEMAP answer, which vmcheck.sh compares with the stock
# kernel's.
dump_maps() {
	local fs=$1 dir=$2/dump rc
	mkdir -p "$dir"
	fiemap-dump "$dir" > /tmp/maps 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		sed "s|^map |# map $fs |" /tmp/maps >> $results
		tap ok "$fs/fiemap-dump ($(grep -c '^map ' /tmp/maps) answers)"
	else
		tap "not ok" "$fs/fiemap-dump (exit $rc)"
		sed 's/^/#   /' /tmp/maps | tail -n 5 | tee -a $results
	fi
	publish
}

# measure_latency FS DIR: how long appends wait for small FIEMAPs of the
# file's start (a note, not a test; not on the slow debug kernel, and on
# plain btrfs only).
measure_latency() {
	[ "$1" = btrfs ] && [ "$variant" != debug ] || return 0
	fiemap-latency -n 100 "$2" > /tmp/latency 2>&1
	sed "s/^/# latency $variant: /" /tmp/latency | tee -a $results
	publish
}

# fs_checks NAME TYPE DIR: every copy check, and on btrfs the FIEMAP
# reproducers.
fs_checks() {
	local name=$1 type=$2 dir=$3 scan scen
	# First, while the filesystem is fresh: the maps include where the
	# data lies, which depends on everything done before.
	[ "$name" = btrfs ] && dump_maps "$name" "$dir"
	# Next, because after the copy checks btrfs writes this test's data
	# back as it is written (measured on 6.12), which leaves nothing
	# dirty to test.
	[ "$name" = btrfs ] && restart_checks "$name" "$dir"
	for scan in $SCANS; do
		for scen in $(mkscenario --list); do
			copy_check "$name" "$scan" "$scen" "$dir"
		done
		append_check "$name" "$scan" "$dir"
	done
	publish
	case $type in
	btrfs)
		race_checks "$name" "$dir"
		window_checks "$name" "$dir"
		measure_latency "$name" "$dir" ;;
	esac
}

# run_fs NAME: mount the filesystem NAME and run its checks on it.
run_fs() {
	local name=$1 dev type opts t0 dir
	case $name in
	btrfs) dev=/dev/vdb type=btrfs opts=commit=600 ;;
	btrfs-zstd) dev=/dev/vdb type=btrfs opts=commit=600,compress=zstd ;;
	ext4) dev=/dev/vdc type=ext4 opts=commit=600 ;;
	# allocsize=4k: speculative preallocation past EOF would otherwise
	# turn the copy's holes into (unwritten) data, an allocator policy
	# that says nothing about the copier.
	xfs) dev=/dev/vdd type=xfs opts=allocsize=4k ;;
	btrfs-holes) dev=/dev/vde type=btrfs opts=commit=600 ;;
	*) tap "not ok" "$name (unknown filesystem)"; return ;;
	esac
	t0=$(date +%s)
	if ! mount -t $type ${opts:+-o $opts} $dev /mnt; then
		tap "not ok" "$name/mount"
		return
	fi
	dir=/mnt/$name
	mkdir -p "$dir"
	case $name in
	# The old on-disk format is there for the walk over hole items.
	btrfs-holes) restart_checks "$name" "$dir" ;;
	*) fs_checks "$name" $type "$dir" ;;
	esac
	rm -rf "$dir"
	umount /mnt || tap "not ok" "$name/umount"
	note "$name took $(($(date +%s) - t0)) s"
	publish
}

for fs in $(echo "$fslist" | tr , ' '); do
	run_fs "$fs"
done
finish
