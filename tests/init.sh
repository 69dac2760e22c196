# Common set-up for sparsecp's shell tests, in coreutils' form: source it,
# check, set fail=1 on each failed check, and end with Exit $fail.
# Exit codes follow the automake harness: 77 skip, 99 hard error.

set -u
fail=0
# Messages in the C locale: ASCII quotes, untranslated.
LC_ALL=C
export LC_ALL
BLK=4096

skip_ () { echo "SKIP: $*"; Exit 77; }
framework_failure_ () { echo "FRAMEWORK FAILURE: $*" >&2; Exit 99; }
fail_ () { echo "FAIL: $*" >&2; fail=1; }
# The test's mounts, under $test_dir, in the order they are unmounted.
unmount_ () { for m_ in ${mounted-}; do umount "$test_dir/$m_"; done; }
Exit ()
{
  set +e
  cd /
  unmount_
  rm -rf "$test_dir"
  exit "$1"
}

command -v sparsecp >/dev/null || framework_failure_ "sparsecp not in PATH"
command -v mkholes >/dev/null || framework_failure_ "mkholes not in PATH"

# Work in a directory of our own, on the filesystem the build is on
# unless the test asks for another with test_base.
test_dir=$(mktemp -d "${test_base:-${abs_top_builddir:-.}}/tmp.XXXXXX") \
  || framework_failure_ "cannot make a test directory"
trap 'Exit 99' HUP INT TERM
cd "$test_dir" || framework_failure_ "cannot enter $test_dir"

# Allocated 512-byte blocks of FILE.
blocks () { stat -c %b "$1"; }

# loop_mount FSTYPE SIZE [MKFS-ARG...]: make an image of SIZE with
# mkfs.FSTYPE and loop-mount it on mnt, unmounted again by Exit; skip the
# test where that cannot be done (not root, no mkfs, no loop device).
loop_mount ()
{
  lm_fs=$1 lm_size=$2
  shift 2
  test "$(id -u)" = 0 || skip_ "mounting a $lm_fs image needs root"
  command -v mkfs.$lm_fs >/dev/null || skip_ "mkfs.$lm_fs is not installed"
  truncate -s "$lm_size" img && mkfs.$lm_fs "$@" img >/dev/null 2>&1 \
    || skip_ "cannot make a $lm_fs image"
  mkdir mnt && mount -o loop img mnt 2>/dev/null \
    || skip_ "cannot loop-mount a $lm_fs image here"
  mounted=mnt
}

# check_copy SRC DST NEXTENTS: DST has SRC's bytes and size, and no more
# allocated blocks than SRC plus one block per data extent of SRC.
check_copy ()
{
  cmp "$1" "$2" || { fail_ "$2 differs from $1"; return 1; }
  test "$(stat -c %s "$1")" = "$(stat -c %s "$2")" \
    || { fail_ "$2 has the wrong size"; return 1; }
  limit=$(( $(blocks "$1") + $3 * BLK / 512 ))
  test "$(blocks "$2")" -le "$limit" \
    || { fail_ "$2 lost holes: $(blocks "$2") blocks, at most $limit"; return 1; }
}

# fault_preload SHIM: LD_PRELOAD's value for the faultinject shim SHIM.
# A sanitized sparsecp wants its runtime first among the libraries, so it
# is preloaded before the shim (which is never sanitized).
fault_preload ()
{
  fp_asan=$(ldd "$(command -v sparsecp)" 2>/dev/null |
            sed -n 's/^[[:space:]]*libasan[^ ]* => \([^ ]*\).*/\1/p')
  echo ${fp_asan:+"$fp_asan "}"$1"
}

# expect_fail STATUS MESSAGE CMD...: CMD exits STATUS and says MESSAGE
# (a fixed string) on stderr.
expect_fail ()
{
  want_status=$1 want_msg=$2
  shift 2
  "$@" 2>err
  got=$?
  test "$got" = "$want_status" \
    || fail_ "'$*' exited $got, not $want_status"
  grep -F -- "$want_msg" err >/dev/null \
    || { fail_ "'$*' did not say: $want_msg"; cat err >&2; }
}

scans="auto fiemap seek read"

# copy_layouts: for each line "NAME SIZE NEXTENTS SPEC..." on stdin, make
# NAME with mkholes and copy it with every scan method, checking each copy
# with check_copy; VERIFY=1 also checks a copy made with --verify.
copy_layouts ()
{
  while read -r name size n spec; do
    mkholes "$name" "$size" $spec || framework_failure_ "mkholes $name"
    for scan in $scans; do
      sparsecp --scan=$scan "$name" "$name.$scan" \
        || fail_ "--scan=$scan $name failed"
      check_copy "$name" "$name.$scan" "$n"
    done
    if test "${VERIFY-}" = 1; then
      sparsecp --verify "$name" "$name.verify" 2>err \
        || { fail_ "--verify $name failed"; cat err >&2; }
      check_copy "$name" "$name.verify" "$n"
    fi
  done
}

# complete_line FILE WORD...: load the bash completion FILE and print, one
# a line, what its function offers for "sparsecp WORD...", whose last
# word is completed, as bash would set COMP_WORDS and COMP_CWORD.
complete_line ()
{
  bash -c '
    . "$1" || exit 99
    shift
    COMP_WORDS=(sparsecp "$@") COMP_CWORD=$#
    _sparsecp
    test ${#COMPREPLY[@]} = 0 || printf "%s\n" "${COMPREPLY[@]}"
  ' bash "$@"
}
