#!/bin/sh
# /fstests-init of the vmcheck guest, the init of a boot that runs fstests
# (vmcheck.sh boots it with rdinit=/fstests-init): vmtest.fstests and
# vmtest.fstests_limit say which tests and how long each may take.
# Disks: vda results, vdb fstests' TEST_DEV (btrfs), vdc its SCRATCH_DEV,
# vdd the root of vmtest/fstests-image.sh, whose /fstests-guest.sh runs
# fstests' ./check.  A file of its own, so that fstests results, which
# vmcheck keeps by what they depend on, do not depend on the checks.

. /guest-lib.sh

note "kernel $(uname -r), variant $variant, $(nproc) cpus"

# run_fstests: fstests in the chroot of the fstests image, one "# fstests"
# line per test in the results, the rest on the console.
run_fstests() {
	local r=/fst
	mkdir -p $r
	if ! mount -t ext4 /dev/vdd $r; then
		note "fstests: cannot mount the fstests image"
		finish
	fi
	mount -t proc proc $r/proc
	mount -t sysfs sys $r/sys
	mount -t devtmpfs dev $r/dev
	mount -t tmpfs -o size=256m tmp $r/tmp
	chroot $r /fstests-guest.sh btrfs "$fstests_limit" $(echo "$fstests" | tr , ' ') |
		while IFS= read -r line; do
			echo "$line"
			case $line in
			"fstests "*) note "$line"; publish ;;
			esac
		done
	umount $r/tmp $r/dev $r/sys $r/proc $r
	finish
}
if [ -z "$fstests" ]; then
	note "fstests: no vmtest.fstests on the kernel command line"
	finish
fi
run_fstests
