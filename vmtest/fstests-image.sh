#!/bin/bash
# fstests-image.sh SRC IMAGE: build fstests from SRC (the xfstests tarball
# or an unpacked tree) and write IMAGE, an ext4 image that the vmcheck
# guest mounts and chroots into to run fstests: the built fstests tree in
# /fstests, btrfs' own fstests test of kernel/upstream in its tests/, the
# guest runner as /fstests-guest.sh, and the programs fstests calls, taken
# with their libraries from this machine's Debian packages.
#
# The build is cached by the source's content under
# $SPARSECP_CACHE/fstests/; the image is made without root (mke2fs -d).
# IMAGE.id gets one line that changes whenever what the guest runs could:
# the source, this script and the guest runner, kernel/upstream's tests,
# and the versions of the Debian packages staged.
# Prints "# stage" timing lines; exits 1 with a message on any failure.

set -eu -o pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${SPARSECP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sparsecp}
src=$1 image=$2

die() { echo "fstests-image: $*" >&2; exit 1; }

# What fstests and the tests vmcheck runs call, by Debian package.  The
# shared libraries come from ldd, not from this list.
packages="bash coreutils util-linux mount sed mawk grep findutils diffutils
	xfsprogs btrfs-progs e2fsprogs perl-base bc attr acl duperemove procps
	psmisc hostname bsdutils ncurses-base libc-bin libc6 tar gzip"

for p in $packages; do
	dpkg -s "$p" > /dev/null 2>&1 || die "Debian package '$p' is not installed"
done

# --- build fstests, once per source ------------------------------------------

if [ -d "$src" ]; then
	id=$(cd "$src" && find . -type f ! -name '*.o' -print0 | sort -z |
		xargs -0 sha256sum | sha256sum | cut -c1-16)
else
	[ -f "$src" ] || die "'$src' is neither the xfstests tarball nor its tree"
	id=$(sha256sum < "$src" | cut -c1-16)
fi
build=$cache/fstests/$id
if [ ! -f "$build/.sparsecp-built" ]; then
	t=$SECONDS
	rm -rf "$build"
	mkdir -p "$build"
	if [ -d "$src" ]; then
		cp -a "$src/." "$build/"
	else
		tar -xzf "$src" -C "$build"
	fi
	# fstests' own make: configure, then its libraries and helpers.
	make -C "$build" -j"$(nproc)" > "$build/.build.log" 2>&1 ||
		{ tail -n 30 "$build/.build.log" >&2; die "cannot build fstests (log: $build/.build.log)"; }
	touch "$build/.sparsecp-built"
	echo "# stage fstests build: $((SECONDS - t)) s"
fi

# --- stage the guest's root --------------------------------------------------

t=$SECONDS
stage=$(mktemp -d "${TMPDIR:-/tmp}/fstests-root.XXXXXX")
trap 'rm -rf "$stage"' EXIT

# Every file of the packages but documentation, and the Debian 12 merged-/usr
# links (/bin -> usr/bin, ...).
for d in bin sbin lib lib64; do
	if [ -L "/$d" ]; then
		mkdir -p "$stage/usr/$d"
		ln -s "$(readlink "/$d")" "$stage/$d"
	fi
done
mkdir -p "$stage/etc"
dpkg -L $packages 2>/dev/null | sort -u |
	grep -v '^/usr/share/\(doc\|man\|info\|locale\|lintian\|bug\)/' |
	while IFS= read -r f; do
		[ -f "$f" ] || [ -L "$f" ] || continue
		[ -d "$f" ] && [ ! -L "$f" ] && continue
		case $f in /*/*) ;; *) continue ;; esac
		printf '%s\0' "${f#/}"
	done | (cd / && xargs -0 cp -a --parents -t "$stage")

# Commands Debian names through /etc/alternatives (awk): both links, where
# the program behind them is staged.
for l in /usr/bin/* /usr/sbin/*; do
	case $(readlink "$l") in /etc/alternatives/*) ;; *) continue ;; esac
	[ -e "$stage$(readlink -f "$l")" ] || continue
	(cd / && cp -a --parents "${l#/}" "$(readlink "$l" | cut -c2-)" "$stage")
done

# fstests, built, with the test of kernel/upstream among its btrfs tests.
mkdir -p "$stage/fstests"
(cd "$build" && tar -cf - --exclude='*.o' --exclude=.build.log .) | tar -xf - -C "$stage/fstests"
for f in "$top"/kernel/upstream/fstests/*/*; do
	rel=${f#"$top"/kernel/upstream/fstests/}
	[ -e "$stage/fstests/tests/$rel" ] && die "kernel/upstream's fstests test $rel exists in fstests already"
	cp "$f" "$stage/fstests/tests/$rel"
done
# ./check runs only the tests its group lists name: make lists them anew.
for d in "$top"/kernel/upstream/fstests/*/; do
	d=$(basename "$d")
	make -s -C "$stage/fstests/tests/$d" group.list > /dev/null ||
		die "cannot list the groups of tests/$d"
done
# btrfs/079 races filefrag with dd over a 10 GiB preallocated file: under
# TCG that dd alone takes some 7 minutes a kernel (25-40 MB/s).  The guest
# runs it on 1 GiB, which races the same way for a tenth of the time.
sed -i 's/^filesize=\$((10 \* 1024 \* 1024 \* 1024)).*/filesize=$((1024 * 1024 * 1024)) # vmcheck: 1 GiB, not 10/' \
	"$stage/fstests/tests/btrfs/079"
grep -q '^filesize=.*vmcheck: 1 GiB' "$stage/fstests/tests/btrfs/079" ||
	die "btrfs/079 no longer sets its file size as this script expects"
install -m 755 "$top/vmtest/fstests-guest.sh" "$stage/fstests-guest.sh"
# Shared libraries of every ELF file staged, followed to their real files.
# (ldd fails on the scripts among them: its status says nothing here.)
find "$stage" -type f -perm -u+x -print0 | { xargs -0 ldd 2>/dev/null || true; } |
	grep -Eo '^[[:space:]]+([^ ]+ => )?/[^ ]+' | grep -o '/[^ ]*' | sort -u |
	while IFS= read -r lib; do
		if [ ! -e "$stage$lib" ]; then
			(cd / && cp -a --parents -L "${lib#/}" "$stage") || exit 1
		fi
	done
[ -e "$stage/lib64/ld-linux-x86-64.so.2" ] || die "the dynamic loader was not staged"

mkdir -p "$stage/proc" "$stage/sys" "$stage/dev" "$stage/tmp" "$stage/mnt" "$stage/root"
# fstests runs as root and looks some users and groups up.
printf 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/:/bin/false\nnobody:x:65534:65534::/:/bin/false\nfsgqa:x:1000:1000::/:/bin/bash\n' > "$stage/etc/passwd"
printf 'root:x:0:\ndaemon:x:1:\nnogroup:x:65534:\nfsgqa:x:1000:\n' > "$stage/etc/group"
echo vmtest > "$stage/etc/hostname"
size=$(du -sm "$stage" | cut -f1)

rm -f "$image"
truncate -s $((size * 2 + 256))M "$image"
mkfs.ext4 -q -F -L fstests -d "$stage" "$image" ||
	die "mkfs.ext4 -d cannot make the image"
{
	echo "source $id"
	cat "$0" "$top/vmtest/fstests-guest.sh" "$top"/kernel/upstream/fstests/*/*
	# shellcheck disable=SC2086 # a list of package names
	dpkg-query -W -f='${Package} ${Version}\n' $packages
} | sha256sum | cut -c1-32 > "$image.id"
echo "# stage fstests image (${size} MiB): $((SECONDS - t)) s"
