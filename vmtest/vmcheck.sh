#!/bin/bash
# vmcheck.sh -- boot stock, patched and debug kernels in QEMU and check that
# sparsecp copies freshly written files correctly on btrfs, btrfs+zstd, ext4
# and xfs, and that the btrfs FIEMAP race shows on stock and not on patched.
#
# Environment:
#   SPARSECP          static sparsecp binary to test (required)
#   CC                compiler for the static guest programs (default gcc)
#   VMCHECK_KERNELS   variants to run (default "stock patched debug"; "v1",
#                     the series as first mailed, and "patch1", its first
#                     patch alone, only when named)
#   VMCHECK_REPS      fiemap-race repetitions per case (default 20)
#   VMCHECK_WREPS     fiemap-window repetitions per case (default 5)
#   VMCHECK_FS        filesystems (default btrfs,btrfs-zstd,ext4,xfs,btrfs-holes)
#   VMCHECK_ACCEL     auto|tcg|kvm (default auto: short KVM probe, else TCG)
#   VMCHECK_TIMEOUT   hard limit per boot in seconds (default 1200)
#   VMCHECK_DIR       work directory (default $SPARSECP_CACHE/vmcheck)
#   FSTESTS_SRC       the xfstests tarball or tree: run fstests on btrfs in a
#                     boot of its own per kernel (skipped when unset)
#   VMCHECK_FSTESTS   the fstests to run (default: the FIEMAP and SEEK_DATA
#                     tests listed at fstests_default below)
#   VMCHECK_FSTESTS_LIMIT  seconds after which one test is killed (600)
#   VMCHECK_FSTESTS_FRESH  1: run fstests even where results of the same
#                     kernel, fstests and guest are cached
#   VMCHECK_FSTESTS_TIMEOUT  hard limit of an fstests boot in seconds (3600)
#   VMCHECK_BOOTS     which boots to run per kernel: "checks fstests" (the
#                     default), or one of them
#   SPARSECP_CACHE, KSRC_DIR, KBUILD_DIR, KPATCH_DIR: see kernel/build-kernel.sh
#
# Output is TAP; the exit status is non-zero on any unexpected result: a
# "not ok" without TODO, an "ok" with TODO (the stock kernel stopped showing
# the bug), a guest that panicked, hung or reported nothing, or, on the
# debug kernel, any WARNING:/BUG:/lockdep report on the console.

# make may run this with $(SHELL), which is often dash: the rest needs bash.
if [ -z "${BASH_VERSION:-}" ]; then
	exec bash "$0" "$@"
fi

set -u

top=$(cd "$(dirname "$0")/.." && pwd)
prog=vmcheck
cache=${SPARSECP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sparsecp}
work=${VMCHECK_DIR:-$cache/vmcheck}
kernels=${VMCHECK_KERNELS:-stock patched debug}
reps=${VMCHECK_REPS:-20}
wreps=${VMCHECK_WREPS:-5}
fslist=${VMCHECK_FS:-btrfs,btrfs-zstd,ext4,xfs,btrfs-holes}
accel=${VMCHECK_ACCEL:-auto}
boot_timeout=${VMCHECK_TIMEOUT:-1200}
# FIEMAP, SEEK_DATA/SEEK_HOLE and prealloc tests, generic/561 (fails on
# 6.1.y without 418b09027743), and the test of kernel/upstream.
fstests_default="generic/094 generic/225 generic/285 generic/286 generic/436
generic/490 generic/539 generic/561 generic/742 btrfs/079 btrfs/341"
fstests=$(echo ${VMCHECK_FSTESTS:-$fstests_default})
fstests_limit=${VMCHECK_FSTESTS_LIMIT:-600}
boots=${VMCHECK_BOOTS:-checks fstests}
fstests_fresh=${VMCHECK_FSTESTS_FRESH:-0}
# A boot runs every test, each up to the limit; beside another boot each
# test takes about twice as long as alone (10 minutes a kernel alone).
fstests_timeout=${VMCHECK_FSTESTS_TIMEOUT:-3600}
fstests_cache=$cache/fstests-results
CC=${CC:-gcc}

die() { echo "Bail out! $prog: $*"; exit 2; }

[ -n "${SPARSECP:-}" ] || die "set SPARSECP to a static sparsecp binary"
[ -x "$SPARSECP" ] || die "'$SPARSECP' is not an executable"
if readelf -l "$SPARSECP" 2>/dev/null | grep -q 'program interpreter'; then
	die "'$SPARSECP' is dynamically linked; the guest needs a static binary"
fi
for tool in qemu-system-x86_64 mkfs.btrfs mkfs.ext4 mkfs.xfs cpio gzip; do
	command -v $tool > /dev/null || die "'$tool' not found"
done
busybox=$(command -v busybox) || die "'busybox' not found (install busybox-static)"

mkdir -p "$work"
ntests=0 nfail=0
t_start=$SECONDS

# tap_out RESULT DESC [DIRECTIVE]: print one numbered TAP line and count
# unexpected results.
tap_out() {
	ntests=$((ntests + 1))
	echo "$1 $ntests - $2${3:+ # $3}"
	case "$1|${3:-}" in
	"not ok|TODO"*|"ok|"|"ok|SKIP"*) ;;
	*) nfail=$((nfail + 1)) ;;
	esac
}

# timed NAME CMD...: run CMD, report how long it took.
timed() {
	local name=$1 t=$SECONDS rc
	shift
	"$@"
	rc=$?
	echo "# stage $name: $((SECONDS - t)) s (exit $rc)"
	return $rc
}

# --- kernels ---------------------------------------------------------------

declare -A bzimage
build_kernels() {
	local v out
	for v in $kernels; do
		if out=$(timed "kernel $v" "$top/kernel/build-kernel.sh" "$v" 2> "$work/build-$v.log"); then
			bzimage[$v]=$(echo "$out" | grep -v '^# stage' | tail -n 1)
			echo "$out" | grep '^# stage'
		else
			echo "$out" | grep '^# stage'
			sed 's/^/#   /' "$work/build-$v.log" | tail -n 30
			tap_out "not ok" "kernel $v builds"
		fi
	done
}

# --- guest userland ------------------------------------------------------------

build_initramfs() {
	local root=$work/initramfs p
	rm -rf "$root"
	mkdir -p "$root/bin"
	$CC -static -O2 -Wall -Wextra -o "$root/bin/mkscenario" "$top/vmtest/mkscenario.c" ||
		return 1
	for p in fiemap-race fiemap-window fiemap-dump fiemap-latency fiemap-restart; do
		$CC -static -O2 -Wall -Wextra -o "$root/bin/$p" "$top/vmtest/$p.c" \
			"$top/vmtest/guest-util.c" -pthread || return 1
	done
	# filefrag (e2fsprogs), with the libraries it needs, maps the files of
	# fiemap-restart as a user would; the guest does without if it is not
	# there.
	if p=$(command -v filefrag) || p=$(command -v /usr/sbin/filefrag); then
		cp "$p" "$root/bin/filefrag"
		ldd "$p" | grep -o '/[^ ]*' | while read -r lib; do
			mkdir -p "$root${lib%/*}"
			cp -L "$lib" "$root$lib"
		done
	fi
	cp "$busybox" "$root/bin/busybox"
	ln -s busybox "$root/bin/sh"
	cp "$SPARSECP" "$root/bin/sparsecp"
	cp "$top/vmtest/guest-init.sh" "$root/init"
	cp "$top/vmtest/fstests-init.sh" "$root/fstests-init"
	cp "$top/vmtest/guest-lib.sh" "$root/guest-lib.sh"
	chmod 755 "$root/init" "$root/fstests-init"
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initramfs.cpio.gz"
}

# Each boot's disks, console log and QEMU output are in $bd: $work for the
# boots of the checks, a directory of its own for those of fstests, which
# run beside them.
bd=$work

# make_images: fresh, sparse filesystem images, made without root.  The
# btrfs ones are large (and sparse) because btrfs reserves about 256 KiB
# of metadata for each delalloc range: on a small filesystem those
# reservations flush the data that the tests need dirty.
make_images() {
	rm -f "$bd"/*.img
	truncate -s 1M "$bd/results.img"
	truncate -s 320M "$bd/ext4.img"
	truncate -s 400M "$bd/xfs.img"
	truncate -s 4G "$bd/btrfs.img" "$bd/btrfs-holes.img"
	mkfs.btrfs -q -f "$bd/btrfs.img" > /dev/null &&
	mkfs.btrfs -q -f -O ^no-holes "$bd/btrfs-holes.img" > /dev/null &&
	mkfs.ext4 -q -F "$bd/ext4.img" > /dev/null 2>&1 &&
	mkfs.xfs -q -f "$bd/xfs.img" > /dev/null
}

# --- QEMU ----------------------------------------------------------------------

# The guest's disks, in order (vda, vdb, ...): the results disk and the
# four filesystems; boot_fstests sets its own.
disks=(results btrfs ext4 xfs btrfs-holes)

# run_qemu ACCEL KERNEL TIMEOUT APPEND: boot with $work/DISK.img for each
# of disks; console to $work/console.log.
run_qemu() {
	local d drive_opts=()
	for d in "${disks[@]}"; do
		drive_opts+=(-drive "file=$bd/$d.img,format=raw,if=virtio")
	done
	local accel_opt
	case $1 in
	kvm) accel_opt=(-accel kvm -cpu host) ;;
	*) accel_opt=(-accel tcg,thread=multi -cpu max) ;;
	esac
	: > "$bd/console.log"
	timeout -k 5 "$3" qemu-system-x86_64 "${accel_opt[@]}" \
		-nodefaults -display none -no-reboot -m 1024 -smp 2 \
		-kernel "$2" -initrd "$work/initramfs.cpio.gz" \
		-append "console=ttyS0 panic=-1 oops=panic panic_on_warn=0 $4" \
		-serial "file:$bd/console.log" -monitor none \
		"${drive_opts[@]}" > "$bd/qemu.out" 2>&1
}

# results: what the guest wrote to its results disk, up to the end marker.
results() {
	tr -d '\000' < "$bd/results.img" | sed -n '1,/^# vmtest-end/p'
}

# pick_accel KERNEL: KVM only if a probe boot completes quickly.
pick_accel() {
	case $accel in
	tcg|kvm) echo "$accel"; return ;;
	esac
	if [ -w /dev/kvm ]; then
		make_images > /dev/null 2>&1
		if run_qemu kvm "$1" 15 "vmtest.probe=1" &&
		   results | grep -q '^# vmtest-end'; then
			echo kvm
			return
		fi
	fi
	echo tcg
}

show_console() {
	sed 's/^/# qemu: /' "$bd/qemu.out"
	echo "# ---- console log ($1) ----"
	tail -n "${2:-200}" "$bd/console.log" | sed 's/^/#   /'
	echo "# ---- end of console log ----"
}

# boot_variant VARIANT: one guest run; turns its results into TAP.
boot_variant() {
	local v=$1 kernel=${bzimage[$1]} r splats t=$SECONDS
	local vfs=$fslist vreps=$reps vwreps=$wreps vscans=fiemap,seek,auto
	# Lockdep makes the guest about three times slower: the debug kernel
	# runs the FIEMAP scenarios on btrfs, where the patched code is, and
	# fewer race repetitions.  v1 and patch1 are there for their btrfs
	# reproducers.
	case $v in
	debug|v1|patch1|upstream-debug)
		vfs=$(echo "$fslist" | tr , '\n' | grep '^btrfs' | paste -sd,)
		vscans=fiemap
		[ "$vreps" -gt 5 ] && vreps=5
		[ "$vwreps" -gt 3 ] && vwreps=3 ;;
	esac
	make_images || { tap_out "not ok" "$v: make filesystem images"; return; }
	run_qemu "$chosen_accel" "$kernel" "$boot_timeout" \
		"vmtest.variant=$v vmtest.reps=$vreps vmtest.wreps=$vwreps vmtest.fs=$vfs vmtest.scans=$vscans"
	r=$?
	echo "# stage boot $v ($chosen_accel): $((SECONDS - t)) s (qemu exit $r)"
	cp "$bd/console.log" "$work/console-$v.log"
	results | grep -v '^# vmtest-end' | while IFS= read -r line; do
		case $line in
		"not ok - "*) echo "TAP|not ok|${line#not ok - }" ;;
		"ok - "*) echo "TAP|ok|${line#ok - }" ;;
		*) echo "$line" ;;
		esac
	done > "$work/results-$v.txt"
	: > "$work/maps-$v.txt"
	while IFS= read -r line; do
		case $line in
		"# map "*) echo "${line#\# map }" >> "$work/maps-$v.txt" ;;
		TAP\|*)
			line=${line#TAP|}
			local res=${line%%|*} desc=${line#*|} dir=""
			case $desc in *" # "*) dir=${desc#* # }; desc=${desc%% # *} ;; esac
			tap_out "$res" "$desc" "$dir"
			case $dir in *"NOT REPRODUCED"*)
				echo "# !!! the stock kernel no longer shows the fiemap race: $desc"
			esac ;;
		*) echo "$line" ;;
		esac
	done < "$work/results-$v.txt"
	if ! results | grep -q '^# vmtest-end'; then
		if [ $r = 124 ] || [ $r = 137 ]; then
			tap_out "not ok" "$v: guest finished (killed after $boot_timeout s)"
		else
			tap_out "not ok" "$v: guest finished (no end marker: panic or crash)"
		fi
		show_console "$v"
		return
	fi
	tap_out ok "$v: guest finished"
	if grep -q 'Kernel panic\|Oops' "$bd/console.log"; then
		tap_out "not ok" "$v: no panic or oops on the console"
		show_console "$v"
	fi
	case $v in
	debug|upstream-debug)
		splats=$(grep -n 'WARNING:\|BUG:\|possible circular locking' "$bd/console.log")
		if [ -n "$splats" ]; then
			tap_out "not ok" "$v: console free of WARNING/BUG/lockdep reports"
			echo "$splats" | sed 's/^/#   /'
			show_console "$v" 400
		else
			tap_out ok "$v: console free of WARNING/BUG/lockdep reports"
		fi ;;
	esac
}

# compare_maps: a patch must not change the map of a file nobody writes
# to: every FIEMAP answer fiemap-dump got on a patched kernel must be its
# unmodified base's (stock for 6.1, upstream for 6.12), when both ran in
# this run.
compare_maps() {
	local v base n
	for v in $kernels; do
		case $v in
		stock|upstream) continue ;;
		upstream-*) base=upstream ;;
		*) base=stock ;;
		esac
		[ -s "$work/maps-$base.txt" ] || continue
		[ -s "$work/maps-$v.txt" ] || continue
		# fiemap-dump runs on plain btrfs only, which every variant
		# mounts: the same answers, line for line.
		n=$(wc -l < "$work/maps-$v.txt")
		if cmp -s "$work/maps-$base.txt" "$work/maps-$v.txt"; then
			tap_out ok "$v: $n FIEMAP answers on quiescent files identical to $base"
		else
			tap_out "not ok" "$v: FIEMAP answers on quiescent files identical to $base"
			diff "$work/maps-$base.txt" "$work/maps-$v.txt" | head -n 20 |
				sed 's/^/#   /'
		fi
	done
}

# --- fstests ---------------------------------------------------------------------

# fstests_base VARIANT: the unmodified kernel a variant is compared with
# (none for the unmodified ones).
fstests_base() {
	case $1 in
	stock|upstream) ;;
	upstream-*) echo upstream ;;
	*) echo stock ;;
	esac
}

# boot_fstests VARIANT: a boot of its own that runs $fstests on a fresh
# btrfs TEST_DEV and an unformatted SCRATCH_DEV, in $work/fstests; the
# guest's "# fstests" lines go to $work/fstests-VARIANT.txt, and whether
# the guest finished to $work/fstests-VARIANT.status.  It prints no TAP:
# it runs in the background, beside the boots of the checks.  Both disks
# are 4 GiB (sparse), as the btrfs of the checks.
boot_fstests() {
	local v=$1 r t=$SECONDS bd=$work/fstests disks=(results fst-test fst-scratch fst-root)
	local key
	key=$(fstests_key "$v")
	if [ "$fstests_fresh" != 1 ] && [ -f "$fstests_cache/$key.txt" ]; then
		cp "$fstests_cache/$key.txt" "$work/fstests-$v.txt"
		echo "reused: $(cat "$fstests_cache/$key.when")" > "$work/fstests-$v.status"
		echo "# stage fstests $v: the results of $(cat "$fstests_cache/$key.when") reused"
		return
	fi
	mkdir -p "$bd"
	rm -f "$bd"/*.img
	truncate -s 1M "$bd/results.img"
	truncate -s 4G "$bd/fst-test.img"
	truncate -s 4G "$bd/fst-scratch.img"
	cp --sparse=always "$work/fstests-root.base" "$bd/fst-root.img"
	if ! mkfs.btrfs -q -f "$bd/fst-test.img" > /dev/null; then
		echo "cannot make the TEST_DEV image" > "$work/fstests-$v.status"
		return
	fi
	run_qemu "$chosen_accel" "${bzimage[$v]}" "$fstests_timeout" \
		"rdinit=/fstests-init vmtest.variant=$v vmtest.fstests=$(echo $fstests | tr ' ' ,) vmtest.fstests_limit=$fstests_limit"
	r=$?
	echo "# stage fstests $v ($chosen_accel): $((SECONDS - t)) s (qemu exit $r)"
	cp "$bd/console.log" "$work/console-fstests-$v.log"
	results | sed -n 's/^# fstests //p' > "$work/fstests-$v.txt"
	if results | grep -q '^# vmtest-end'; then
		echo finished > "$work/fstests-$v.status"
		mkdir -p "$fstests_cache"
		cp "$work/fstests-$v.txt" "$fstests_cache/$key.txt"
		echo "$(date -u '+%Y-%m-%d %H:%M') UTC ($((SECONDS - t)) s)" > "$fstests_cache/$key.when"
	else
		echo "qemu exit $r, no end marker" > "$work/fstests-$v.status"
		show_console "fstests $v" 60
	fi
	rm -f "$bd"/*.img
}

# fstests_key VARIANT: what fstests' results on this kernel depend on:
# the kernel image, what the guest runs (fstests-image.sh's id, the
# guest's fstests init) and which tests, with what limit.  sparsecp and
# the checks' guest-init.sh are not among it: an fstests boot runs
# neither.  Results with the same key are reused, since
# running them again costs some ten minutes a kernel under TCG.
fstests_key() {
	{
		sha256sum < "${bzimage[$1]}"
		cat "$work/fstests-root.base.id" "$top/vmtest/guest-lib.sh" \
			"$top/vmtest/fstests-init.sh"
		echo "$fstests" "$fstests_limit"
	} | sha256sum | cut -c1-32
}

# fstests_boots: boot_fstests for each kernel of $fstests_kernels, one after
# the other.
fstests_boots() {
	local v
	for v in $fstests_kernels; do
		boot_fstests "$v"
	done
}

# fstests_result VARIANT TEST: pass, fail, notrun, or "-" (no result).
fstests_result() {
	awk -v t="$2" '$1 == t { print $2; found = 1 } END { if (!found) print "-" }' \
		"$work/fstests-$1.txt" 2> /dev/null || echo -
}

# fstests_report: the table (a row per test, a column per kernel), the
# reasons of every fail and notrun, and a TAP line per test and modified
# kernel: a test that passes on the unmodified kernel must pass on it too.
fstests_report() {
	local v t base res line status
	for v in $fstests_kernels; do
		status=$(cat "$work/fstests-$v.status" 2> /dev/null)
		if [ "$status" = finished ]; then
			tap_out ok "$v: fstests guest finished ($(wc -l < "$work/fstests-$v.txt") tests)"
		elif [ "${status#reused: }" != "$status" ]; then
			tap_out ok "$v: fstests results of this kernel and guest, run ${status#reused: }, reused ($(wc -l < "$work/fstests-$v.txt") tests)"
		else
			tap_out "not ok" "$v: fstests guest finished (${status:-no status})"
		fi
	done
	printf '# fstests on btrfs:\n# %-12s' test
	for v in $fstests_kernels; do printf ' %-15s' "$v"; done
	echo
	for t in $fstests; do
		printf '# %-12s' "$t"
		for v in $fstests_kernels; do
			line=$(awk -v t="$t" '$1 == t { print $2 " " $3 "s" }' "$work/fstests-$v.txt")
			printf ' %-15s' "${line:--}"
		done
		echo
	done
	for v in $fstests_kernels; do
		grep -v ' pass ' "$work/fstests-$v.txt" | sed "s/^/# fstests $v: /"
	done
	for v in $fstests_kernels; do
		base=$(fstests_base "$v")
		case " $fstests_kernels " in *" ${base:-none} "*) ;; *) continue ;; esac
		for t in $fstests; do
			res=$(fstests_result "$v" "$t")
			if [ "$(fstests_result "$base" "$t")" != pass ] || [ "$res" = pass ]; then
				tap_out ok "$v: fstests $t no regression against $base ($res)"
			else
				tap_out "not ok" "$v: fstests $t no regression against $base ($res)"
			fi
		done
	done
}

# --- main ----------------------------------------------------------------------

# main: everything runs from this function, so bash has parsed the whole
# script before it starts and an edit during a long run cannot derail it.
main() {
	echo "# vmcheck: kernels '$kernels', filesystems $fslist, $reps race repetitions"
	echo "# sparsecp under test: $SPARSECP"
	build_kernels
	timed "guest programs and initramfs" build_initramfs ||
		die "cannot build the guest programs or the initramfs"

	chosen_accel=tcg
	first=""
	for v in $kernels; do
		[ -n "${bzimage[$v]:-}" ] && { first=${bzimage[$v]}; break; }
	done
	if [ -n "$first" ]; then
		t=$SECONDS
		chosen_accel=$(pick_accel "$first")
		echo "# accelerator: $chosen_accel (probe $((SECONDS - t)) s)"
	fi
	rm -f "$work"/maps-*.txt
	# fstests on every kernel built, debug ones too (fstests fails a test
	# whose dmesg has a lockdep splat or a failed assertion): a boot each,
	# in the background, beside the boots of the checks.
	fstests_kernels="" fstests_pid=""
	if [ "${boots#*fstests}" = "$boots" ]; then
		:
	elif [ -z "${FSTESTS_SRC:-}" ]; then
		tap_out ok "fstests" "SKIP FSTESTS_SRC is not set (see vmtest/README.md)"
	elif timed "fstests image" "$top/vmtest/fstests-image.sh" "$FSTESTS_SRC" \
			"$work/fstests-root.base" 2> "$work/fstests-image.log"; then
		for v in $kernels; do
			[ -n "${bzimage[$v]:-}" ] && fstests_kernels="$fstests_kernels $v"
		done
		rm -f "$work"/fstests-*.txt "$work"/fstests-*.status
		fstests_boots > "$work/fstests-boots.log" 2>&1 &
		fstests_pid=$!
	else
		sed 's/^/#   /' "$work/fstests-image.log"
		tap_out "not ok" "fstests: build fstests and the guest's root image"
	fi

	case " $boots " in *" checks "*)
		for v in $kernels; do
			[ -n "${bzimage[$v]:-}" ] && boot_variant "$v"
		done
		compare_maps ;;
	esac

	if [ -n "$fstests_pid" ]; then
		wait "$fstests_pid"
		cat "$work/fstests-boots.log"
		fstests_report
	fi

	echo "1..$ntests"
	echo "# vmcheck: $ntests tests, $nfail unexpected, $((SECONDS - t_start)) s in all"
	[ "$nfail" = 0 ]
}

main "$@"
exit
