#!/bin/sh
# The project's whole test run on a fresh Debian 12 machine, as root:
# install what is needed, build, make check, make distcheck, a minute of
# fuzzing, the Debian package (built, linted, installed and tested),
# coreutils' tests of cp (make compat-check), make vmcheck.
# README.md's test command and .ci/run both run this.
set -eu
cd "$(dirname "$0")/.."

export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends \
  build-essential autoconf automake gnulib pkg-config check libacl1-dev libselinux1-dev acl \
  e2fsprogs btrfs-progs xfsprogs util-linux \
  linux-source-6.1 linux-source-6.12 qemu-system-x86 busybox-static cpio bc bison flex \
  libelf-dev libssl-dev xz-utils gzip patch binutils clang libclang-rt-14-dev \
  dpkg-dev attr perl debhelper lintian bash-completion man-db autopkgtest \
  libtool xfslibs-dev uuid-dev libattr1-dev libaio-dev libgdbm-dev \
  liburing-dev duperemove psmisc procps hostname bsdutils mawk

./bootstrap
./configure --enable-warnings
make -j"$(nproc)"
make -j"$(nproc)" check
make -j"$(nproc)" distcheck

# make install into a DESTDIR and make uninstall leave no file behind
# (distcheck checks its own prefix; this is the DESTDIR a packager uses).
dest=$(mktemp -d /tmp/sparsecp-dest.XXXXXX)
make install DESTDIR="$dest"
make uninstall DESTDIR="$dest"
left=$(find "$dest" ! -type d)
test -z "$left" || { echo "make uninstall left behind: $left" >&2; exit 1; }
rm -rf "$dest"

# The Debian package, built from the tarball distcheck made: lintian must
# find no error or warning, and autopkgtest, on this machine (its null
# runner), installs the .deb and runs debian/tests/ against the installed
# files, which are removed again afterwards.
pkg=$(mktemp -d /tmp/sparsecp-deb.XXXXXX)
tar -xzf sparsecp-*.tar.gz -C "$pkg"
(cd "$pkg"/sparsecp-*/ && dpkg-buildpackage -us -uc -b)
lintian --fail-on error,warning "$pkg"/sparsecp_*.changes
autopkgtest "$pkg"/sparsecp_*_"$(dpkg --print-architecture)".deb \
  "$pkg"/sparsecp-*/ -- null
apt-get remove -y sparsecp
rm -rf "$pkg"
make fuzz FUZZ_SECONDS=60
make compat-check
make vmcheck
# The 6.12 kernels of make vmcheck-upstream take some 17 minutes to build
# from cold, more than CI's budget has left: they run once they are cached.
upstream_cached() {
  for v in upstream upstream-fixed upstream-debug; do
    kernel/build-kernel.sh --cached "$v" > /dev/null 2>&1 || return 1
  done
}
if upstream_cached; then
  make vmcheck-upstream
else
  echo "run-all: the 6.12 kernels are not built; make vmcheck-upstream skipped" \
    "(run it once to build them)"
fi

# Last, the same tests under AddressSanitizer and UndefinedBehaviorSanitizer.
make distclean
./configure --enable-sanitizers
make -j"$(nproc)" check

# Leave the tree in its normal build, so that ./src/sparsecp afterwards
# is the program README's first command builds, not the sanitized one.
make distclean
./configure
make -j"$(nproc)"
