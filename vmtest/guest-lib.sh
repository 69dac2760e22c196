# guest-lib.sh: sourced by both inits of the vmcheck guest (guest-init.sh
# for the checks, fstests-init.sh for fstests): the mounts every boot needs,
# the kernel command line's vmtest.* parameters (see guest-init.sh), and
# how results reach the host: TAP lines and "#" notes, copied to the
# results disk /dev/vda after each step, and "# vmtest-end" when done.

/bin/busybox mkdir -p /proc /sys /dev /tmp /mnt
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sys /sys
/bin/busybox mount -t devtmpfs dev /dev
/bin/busybox --install -s /bin
mount -t tmpfs -o size=256m tmp /tmp
exec </dev/console >/dev/console 2>&1
export PATH=/bin

variant=stock reps=20 wreps=5 fslist=btrfs,btrfs-zstd,ext4,xfs,btrfs-holes probe=0
fstests="" fstests_limit=600
scans=fiemap,seek,auto
for arg in $(cat /proc/cmdline); do
	case $arg in
	vmtest.variant=*) variant=${arg#*=} ;;
	vmtest.reps=*) reps=${arg#*=} ;;
	vmtest.wreps=*) wreps=${arg#*=} ;;
	vmtest.fs=*) fslist=${arg#*=} ;;
	vmtest.scans=*) scans=${arg#*=} ;;
	vmtest.probe=*) probe=${arg#*=} ;;
	vmtest.fstests=*) fstests=${arg#*=} ;;
	vmtest.fstests_limit=*) fstests_limit=${arg#*=} ;;
	esac
done

results=/tmp/results
: > $results

# publish: copy the results so far to the results disk, with END when final.
publish() {
	{ cat $results; [ "${1:-}" = final ] && echo "# vmtest-end"; } > /tmp/results.out
	dd if=/tmp/results.out of=/dev/vda bs=64k conv=fsync 2>/dev/null
}

# tap RESULT DESCRIPTION [DIRECTIVE]: one test result line.
tap() {
	line="$1 - $variant/$2${3:+ # $3}"
	echo "$line" >> $results
	echo "vmtest: $line"
}

note() {
	echo "# $*" >> $results
	echo "vmtest: # $*"
}

finish() {
	publish final
	sync
	poweroff -f
	sleep 10
}

