#!/bin/bash
# build-kernel.sh VARIANT -- build a bzImage for the vmcheck guest.
#
#   stock    Debian's linux-source-6.1, unmodified
#   patched  stock + kernel/patches (in the order of kernel/patches/series)
#   debug    patched + kernel/test-hooks + kernel/config/debug.config
#            (lockdep, atomic-sleep checks)
#   v1       stock + kernel/v1 (the series as first mailed) + kernel/test-hooks,
#            to show that the reproducers of v1's defects fail on it
#   patch1   stock + the first patch of kernel/patches alone + kernel/test-hooks,
#            to show which reproducers need the second (the range lock)
#
#   upstream        Debian's linux-source-6.12, unmodified: mainline's FIEMAP
#   upstream-fixed  upstream + kernel/upstream (the mainline fix)
#   upstream-debug  upstream-fixed + kernel/config/debug.config
#
# Prints the path of the bzImage on stdout; progress goes to stderr.
#
# Everything lives outside the repository:
#   SPARSECP_CACHE  default ${XDG_CACHE_HOME:-$HOME/.cache}/sparsecp
#   KSRC_DIR        pristine extracted tree       (default $SPARSECP_CACHE/linux-src)
#   KBUILD_DIR      one build tree per variant    (default $SPARSECP_CACHE/kbuild)
#   KSRC_TARBALL    default /usr/src/linux-source-6.1.tar.xz
#   KPATCH_DIR      default <repo>/kernel/patches
#   KPATCH_V1_DIR   default <repo>/kernel/v1
#   The upstream-* variants use their own source (6.12) and so their own
#   variables: KSRC_DIR_UPSTREAM (default $SPARSECP_CACHE/linux-src-6.12),
#   KSRC_TARBALL_UPSTREAM (default /usr/src/linux-source-6.12.tar.xz),
#   KPATCH_UPSTREAM_DIR (default <repo>/kernel/upstream).
#   KJOBS           default $(nproc)
#
# Each variant is built in-tree in its own copy of the source.  The patched
# and debug trees start as a copy of the *built* stock tree, so after a stock
# build the patched build recompiles only what the patches touch.  Nothing is
# rebuilt when nothing changed: .config is only replaced when its content
# differs, and patches are only re-applied when the series content changed.

# The whole script is one brace group, so bash has parsed all of it before it
# runs: editing this file during a build cannot derail the running build.
{
set -euo pipefail

prog=${0##*/}
here=$(cd "$(dirname "$0")" && pwd)

die() { printf '%s: error: %s\n' "$prog" "$*" >&2; exit 1; }
say() { printf '%s: %s\n' "$prog" "$*" >&2; }

# --cached: only say whether the variant is built from what it would be
# built from now (exit 0, bzImage path on stdout) or not (exit 1).
cached_only=false
if [ "${1:-}" = --cached ]; then
	cached_only=true
	shift
fi
variant=${1:-}
case $variant in
stock|patched|debug|v1|patch1|upstream|upstream-fixed|upstream-debug) ;;
*) die "usage: $prog [--cached] stock|patched|debug|v1|patch1|upstream|upstream-fixed|upstream-debug" ;;
esac

cache=${SPARSECP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sparsecp}
ksrc=${KSRC_DIR:-$cache/linux-src}
kbuild=${KBUILD_DIR:-$cache/kbuild}
tarball=${KSRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
patchdir=${KPATCH_DIR:-$here/patches}
v1dir=${KPATCH_V1_DIR:-$here/v1}
upstreamdir=${KPATCH_UPSTREAM_DIR:-$here/upstream}
hookdir=$here/test-hooks
configdir=$here/config
jobs=${KJOBS:-$(nproc)}
tree=$kbuild/$variant

# The 6.12 family has its own source and its own unmodified base tree,
# "upstream", which plays the part "stock" plays for 6.1.
base=stock series=6.1 pkg=linux-source-6.1
case $variant in
upstream*)
	base=upstream series=6.12 pkg=linux-source-6.12
	ksrc=${KSRC_DIR_UPSTREAM:-$cache/linux-src-6.12}
	tarball=${KSRC_TARBALL_UPSTREAM:-/usr/src/linux-source-6.12.tar.xz} ;;
esac

mkdir -p "$cache" "$kbuild"

# --- pristine source -------------------------------------------------------

# Identity of the tarball; a new Debian upload invalidates every tree.
[ -r "$tarball" ] || die "cannot read '$tarball' (install $pkg)"
src_id="$(stat -c '%s %Y' "$tarball") $tarball"

fragments=("$configdir/vmtest.config")
case $variant in
debug|upstream-debug) fragments+=("$configdir/debug.config") ;;
esac

# extract_source: unpack the tarball into $ksrc unless it is already there.
extract_source() {
	if [ -f "$ksrc/.sparsecp-source" ] &&
	   [ "$(cat "$ksrc/.sparsecp-source")" = "$src_id" ]; then
		return
	fi
	say "extracting '$tarball' into '$ksrc'"
	rm -rf "$ksrc" "$ksrc.tmp"
	mkdir -p "$ksrc.tmp"
	tar -xJf "$tarball" -C "$ksrc.tmp" --strip-components=1
	printf '%s\n' "$src_id" > "$ksrc.tmp/.sparsecp-source"
	mv "$ksrc.tmp" "$ksrc"
	stage_done "extracted"
}

# --- per-variant tree --------------------------------------------------------

# copy_tree FROM TO: fresh copy of a (possibly built) tree, stamped with the
# source identity so a re-extracted source invalidates it.  Kbuild records
# relative paths, except objtool's build, which records absolute ones: those
# are rewritten, or objtool and with it every object would be rebuilt.
copy_tree() {
	rm -rf "$2" "$2.tmp"
	cp -a "$1" "$2.tmp"
	rm -rf "$2.tmp/.sparsecp-applied" "$2.tmp/.sparsecp-series"
	if [ -d "$2.tmp/tools/objtool" ]; then
		find "$2.tmp/tools/objtool" -type f \( -name '.*.cmd' -o -name '.*.d' \) \
			-exec sed -i "s|$1/|$2/|g" {} +
	fi
	printf '%s\n' "$src_id" > "$2.tmp/.sparsecp-base"
	mv "$2.tmp" "$2"
}

# tree_is_current DIR: the tree was made from the current source.
tree_is_current() {
	[ -f "$1/.sparsecp-base" ] && [ "$(cat "$1/.sparsecp-base")" = "$src_id" ]
}

# list_series DIR: paths of DIR's patches in application order.  The series
# file wins; without it, numbered *.patch files in name order.  Cover letters
# (0000-*) are never applied.
list_series() {
	if [ -f "$1/series" ]; then
		sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1/series"
	else
		(cd "$1" 2>/dev/null && ls -1 -- *.patch 2>/dev/null) || true
	fi | grep -v '^0000-' | sed "s|^|$1/|" || true
}

# variant_patches: every patch the variant applies, in order.
variant_patches() {
	case $variant in
	patched) list_series "$patchdir" ;;
	debug) list_series "$patchdir"; list_series "$hookdir" ;;
	v1) list_series "$v1dir"; list_series "$hookdir" ;;
	patch1) list_series "$patchdir" | head -n 1; list_series "$hookdir" ;;
	upstream-fixed|upstream-debug) list_series "$upstreamdir" ;;
	esac
}

# unapply_patches: reverse what .sparsecp-applied records, newest first.
# Returns non-zero if the tree cannot be restored that way.
unapply_patches() {
	local list=$tree/.sparsecp-applied/list p
	[ -f "$list" ] || return 0
	for p in $(tac "$list"); do
		say "reverting $p"
		patch -d "$tree" -p1 -R -s --fuzz=0 --no-backup-if-mismatch \
			-r - < "$tree/.sparsecp-applied/$p" >&2 || return 1
	done
	rm -rf "$tree/.sparsecp-applied" "$tree/.sparsecp-series"
}

# apply_patches PATHS...: apply each patch with no fuzz; any fuzz, reject or
# missing file is fatal and leaves the tree marked for re-creation.  A copy
# of each, numbered in order, is kept for unapply_patches.
apply_patches() {
	local path p out n=0
	mkdir -p "$tree/.sparsecp-applied"
	: > "$tree/.sparsecp-applied/list"
	for path in "$@"; do
		[ -f "$path" ] || die "a series names '$path', which does not exist"
		n=$((n + 1))
		p=$n-${path##*/}
		say "applying $path"
		if ! out=$(patch -d "$tree" -p1 -N --fuzz=0 --no-backup-if-mismatch \
				-r - < "$path" 2>&1); then
			printf '%s\n' "$out" >&2
			rm -f "$tree/.sparsecp-base"
			die "'$p' does not apply cleanly (fuzz 0) to linux $kver"
		fi
		if printf '%s\n' "$out" | grep -q 'with fuzz'; then
			printf '%s\n' "$out" >&2
			rm -f "$tree/.sparsecp-base"
			die "'$p' needs fuzz"
		fi
		printf '%s\n' "$out" | grep -i 'offset' >&2 || true
		cp "$path" "$tree/.sparsecp-applied/$p"
		printf '%s\n' "$p" >> "$tree/.sparsecp-applied/list"
	done
}

# content_id FILE...: one hash of the files' names and contents, in order.
content_id() {
	local p
	for p in "$@"; do
		printf '%s ' "${p##*/}"
		sha256sum < "$p" 2>/dev/null || echo missing
	done | sha256sum | cut -d' ' -f1
}

# build_id: what a build of this variant is made from: the source, its
# patches in order, and the configuration fragments.
build_id() {
	# shellcheck disable=SC2046 # patch paths are whitespace-free
	printf 'source %s\npatches %s\nconfig %s\n' "$src_id" \
		"$(content_id $(variant_patches))" "$(content_id "${fragments[@]}")"
}

if $cached_only; then
	[ -f "$tree/arch/x86/boot/bzImage" ] && [ -f "$tree/.sparsecp-built" ] &&
		[ "$(cat "$tree/.sparsecp-built")" = "$(build_id)" ] || exit 1
	printf '%s\n' "$tree/arch/x86/boot/bzImage"
	exit 0
fi

# One kernel build at a time per cache: builds share the stock tree.
exec 9>"$cache/.build-kernel.lock"
flock 9

t0=$SECONDS
stage_done() { say "$1 ($((SECONDS - t0)) s)"; t0=$SECONDS; }

extract_source
kver=$(make -s -C "$ksrc" kernelversion)
case $kver in
"$series".*) say "source is linux $kver" ;;
*) die "'$ksrc' is linux '$kver', expected $series.x" ;;
esac

prepare_tree() {
	if [ "$variant" = "$base" ]; then
		tree_is_current "$tree" || { say "copying source to '$tree'"; copy_tree "$ksrc" "$tree"; stage_done "copied"; }
		return
	fi

	local names series_id
	names=$(variant_patches)
	[ -n "$names" ] || die "no patches for $variant (a series is empty or missing)"
	# The series identity is the ordered names plus every patch's content.
	# shellcheck disable=SC2086 # names are whitespace-free paths
	series_id=$(content_id $names)

	if tree_is_current "$tree" && [ -f "$tree/.sparsecp-series" ] &&
	   [ "$(cat "$tree/.sparsecp-series")" = "$series_id" ]; then
		say "patch series unchanged"
		return
	fi
	if ! tree_is_current "$tree" || ! unapply_patches; then
		# Start from the base tree, objects included, so only what the
		# patches touch is recompiled.
		tree_is_current "$kbuild/$base" || { say "copying source to '$kbuild/$base'"; copy_tree "$ksrc" "$kbuild/$base"; }
		say "copying '$kbuild/$base' to '$tree'"
		copy_tree "$kbuild/$base" "$tree"
		stage_done "copied"
	fi
	# shellcheck disable=SC2086 # names are whitespace-free paths
	apply_patches $names
	printf '%s\n' "$series_id" > "$tree/.sparsecp-series"
	stage_done "patched"
}

prepare_tree

# --- configuration -----------------------------------------------------------

# configure: tinyconfig + fragments + olddefconfig into a scratch .config;
# the tree's .config is replaced only if the result differs, so an unchanged
# configuration triggers no rebuild.
configure() {
	local old=$tree/.config.sparsecp-prev
	rm -f "$old"
	[ -f "$tree/.config" ] && cp -p "$tree/.config" "$old"
	local log=$tree/.sparsecp-config.log
	if ! { make -s -C "$tree" tinyconfig &&
	       (cd "$tree" && ./scripts/kconfig/merge_config.sh -m .config "${fragments[@]}") &&
	       make -s -C "$tree" olddefconfig; } > "$log" 2>&1; then
		cat "$log" >&2
		die "configuration failed"
	fi
	if [ -f "$old" ] && cmp -s "$old" "$tree/.config"; then
		mv "$old" "$tree/.config"   # keeps the old mtime
		say "configuration unchanged"
	else
		rm -f "$old"
		say "configuration updated"
	fi
}

# verify_config: every option a fragment asks for must be set exactly so.
verify_config() {
	local frag line opt want bad=0
	for frag in "${fragments[@]}"; do
		while IFS= read -r line; do
			case $line in
			CONFIG_*=*)
				opt=${line%%=*} want=$line ;;
			"# CONFIG_"*" is not set")
				opt=${line#\# } opt=${opt%% *} want="" ;;
			*) continue ;;
			esac
			if [ -n "$want" ]; then
				grep -qxF -- "$want" "$tree/.config" && continue
			else
				grep -q "^$opt=" "$tree/.config" || continue
			fi
			say "${frag##*/}: asked for '$line', got '$(grep -E "^(# )?$opt[= ]" "$tree/.config" || echo "$opt absent")'"
			bad=1
		done < "$frag"
	done
	[ $bad = 0 ] || die "configuration does not match the fragments"
}

configure
verify_config
stage_done "configured"

# --- build -------------------------------------------------------------------

say "building $variant bzImage with -j$jobs"
if ! make -C "$tree" -j"$jobs" bzImage > "$tree/.sparsecp-build.log" 2>&1; then
	tail -n 40 "$tree/.sparsecp-build.log" >&2
	die "kernel build failed; full log in '$tree/.sparsecp-build.log'"
fi
grep -E 'warning:' "$tree/.sparsecp-build.log" >&2 || true
stage_done "built"

build_id > "$tree/.sparsecp-built"
printf '%s\n' "$tree/arch/x86/boot/bzImage"
exit
}
