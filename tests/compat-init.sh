# Sourced after init.sh by the tests that hold sparsecp to GNU cp's
# behaviour (tests/compat-*.sh): run cp and sparsecp with the same
# arguments in twin directories and compare everything they did: exit
# status, standard output, standard error and the trees they left.

# Copies of 0555 and 0000 directories cannot be emptied by a user who
# is not root: open them up before init.sh's Exit removes everything.
Exit ()
{
  set +e
  cd /
  unmount_
  chmod -R u+rwx "$test_dir" 2>/dev/null
  rm -rf "$test_dir"
  exit "$1"
}

cp --version 2>/dev/null | grep -F 'GNU coreutils' >/dev/null \
  || skip_ "cp is not GNU cp, the reference"
command -v md5sum >/dev/null || skip_ "md5sum is not installed"
umask 022
# No translations, and the same quoting whatever the user's locale;
# compat-errors.sh checks a UTF-8 locale on purpose.
LC_ALL=C
export LC_ALL
tab=$(printf '\t')

# Timestamps.  Fixtures get mtimes in the past and atimes far in the
# future, so that relatime never updates an atime when a file is read.
# A time from the start of the test to a day later was set by the copy
# itself ("now"): listed as "now", it compares equal between two copies
# made moments apart, while a preserved time is compared to the ns.
t_start=$(date +%s) || framework_failure_ date

# settimes PATH...: give every entry under each PATH, PATH included, an
# mtime and an atime of its own (symlinks their own, not their target's).
settimes_n=0
settimes ()
{
  find "$@" -depth -print >"$test_dir/st.list" || framework_failure_ "find $*"
  while IFS= read -r st_f; do
    settimes_n=$((settimes_n + 1))
    touch -h -m -d "@$((1500000000 + settimes_n * 1000)).$((100000000 + settimes_n))" \
      -- "$st_f" \
      && touch -h -a -d "@$((3000000000 + settimes_n * 1000)).$((200000000 + settimes_n))" \
           -- "$st_f" \
      || framework_failure_ "cannot set the times of $st_f"
  done <"$test_dir/st.list"
}

# Atimes are compared only when reading a file here leaves a future
# atime alone (not with strictatime, where any read sets it to now).
atime_ok=1
echo probe >atime.probe && touch -a -d @3000000000 atime.probe \
  && cat atime.probe >/dev/null || framework_failure_ "atime probe"
test "$(stat -c %X atime.probe)" = 3000000000 || {
  atime_ok=0
  echo "NOTE: reading a file changes its atime here; atimes not compared"
}

# treelist DIR: one line per entry under DIR (DIR itself left out),
# sorted by name, tab-separated: name, type, mode, link count, hard-link
# group (the first name, within DIR, of the entries sharing its inode;
# "-" for directories and single links), size (not for directories),
# owner:group, mtime, atime, symlink target, device numbers, MD5 of the
# data, user.* extended attributes (when getfattr is installed).  Names
# must not hold tabs, newlines or backslashes.
treelist ()
{
  (cd "$1" && find . -mindepth 1 -type f -exec md5sum {} +) >"$test_dir/tl.sums" \
    && (cd "$1" && find . -mindepth 1 \( -type b -o -type c \) \
          -exec stat -c '%n %t:%T' {} +) >"$test_dir/tl.rdev" \
    && { (cd "$1" && getfattr -h -R -d -m '^user\.' . 2>/dev/null) || :; } \
         >"$test_dir/tl.xattr" \
    && (cd "$1" && find . -mindepth 1 -printf \
          '%P\t%y\t%m\t%n\t%i\t%s\t%u:%g\t%T@\t%A@\t%l\n') \
    | LC_ALL=C sort \
    | awk -F "$tab" -v OFS="$tab" -v start="$t_start" -v atime_ok="$atime_ok" \
        -v sums="$test_dir/tl.sums" -v rdevs="$test_dir/tl.rdev" \
        -v xattrs="$test_dir/tl.xattr" '
        function when(t) {
          return (t + 0 >= start && t + 0 < start + 86400) ? "now" : t
        }
        BEGIN {
          while ((getline l < sums) > 0)
            sum[substr(l, 37)] = substr(l, 1, 32)
          while ((getline l < rdevs) > 0) {
            i = match(l, / [^ ]*$/)
            rdev[substr(l, 3, i - 3)] = substr(l, i + 1)
          }
          while ((getline l < xattrs) > 0)
            if (l ~ /^# file: /)
              f = substr(l, 9)
            else if (l != "" && (f in xattr))
              xattr[f] = xattr[f] "," l
            else if (l != "")
              xattr[f] = l
        }
        {
          group = "-"
          if ($2 != "d" && $4 > 1) {
            if (!($5 in first))
              first[$5] = $1
            group = first[$5]
          }
          size = $2 == "d" ? "-" : $6
          atime = atime_ok ? when($9) : "-"
          print $1, $2, $3, $4, group, size, $7, when($8), atime, $10, \
                ($1 in rdev) ? rdev[$1] : "", ($1 in sum) ? sum[$1] : "", \
                ($1 in xattr) ? xattr[$1] : ""
        }'
}

# check_sparse CPDIR SPDIR: each regular file under SPDIR has no more
# allocated blocks than its twin under CPDIR: sparsecp keeps at least
# the holes cp keeps.
check_sparse ()
{
  (cd "$1" && find . -type f -printf '%P\t%b\n') | LC_ALL=C sort >cs.cp
  (cd "$2" && find . -type f -printf '%P\t%b\n') | LC_ALL=C sort >cs.sp
  LC_ALL=C join -t "$tab" cs.cp cs.sp \
    | awk -F "$tab" '$3 > $2 { print $1 ": " $3 " blocks, cp made " $2 }' \
    >cs.out
  test ! -s cs.out || { fail_ "$2 has fewer holes than cp's copy:"; cat cs.out >&2; }
}

# both NAME STATUS ARG...: run 'cp ARG...' in a new directory cp.NAME
# and 'sparsecp ARG...' in sparsecp.NAME, each first filled by the shell
# function named in $prep, if any, with $input on standard input and the
# command prefixed by $runner.  cp must exit STATUS (else the test itself
# is wrong); sparsecp must exit as cp did, print what cp printed (lines
# sorted, since the two may walk a directory in different orders, unless
# ordered=1) and say what cp said, "cp:" read as "sparsecp:"; the trees
# must list the same (see treelist), and sparsecp's copies must be as
# sparse as cp's.  notree=1 leaves the trees to the caller.  The sed
# script $cp_sed, if set, rewrites what cp says where sparsecp differs on
# purpose (it renames over a DEST where cp removes it first).  $sp_opts,
# if set, are options given to sparsecp alone (-j N).
both ()
{
  b_name=$1 b_want=$2
  shift 2
  for b_tool in cp sparsecp; do
    b_dir=$b_tool.$b_name
    mkdir "$b_dir" || framework_failure_ "cannot make $b_dir"
    (cd "$b_dir" && ${prep:-:}) || framework_failure_ "$b_name: ${prep-} failed"
    b_opts=
    test $b_tool = sparsecp && b_opts=${sp_opts-}
    (cd "$b_dir" || exit 99; printf '%b' "${input-}" | ${runner-} $b_tool $b_opts "$@") \
      >"$b_dir.out" 2>"$b_dir.err"
    echo $? >"$b_dir.status"
  done
  b_what="$b_name: '$*'"
  b_cp=$(cat cp.$b_name.status) b_sp=$(cat sparsecp.$b_name.status)
  test "$b_cp" = "$b_want" || {
    cat cp.$b_name.err >&2
    framework_failure_ "$b_what: cp exited $b_cp, the test expects $b_want"
  }
  test "$b_sp" = "$b_cp" \
    || fail_ "$b_what: sparsecp exited $b_sp, cp $b_cp"
  sed "s/^cp: /sparsecp: /; s/? cp: /? sparsecp: /g; s/^Try 'cp /Try 'sparsecp /
       ${cp_sed-}" cp.$b_name.err >cp.$b_name.err.n \
    && sed "${cp_sed-}" cp.$b_name.out >cp.$b_name.out.n \
    && cp sparsecp.$b_name.err sparsecp.$b_name.err.n \
    && cp sparsecp.$b_name.out sparsecp.$b_name.out.n \
    || framework_failure_ "$b_name: cannot normalize the output"
  for b_s in out.n err.n; do
    if test "${ordered-}" != 1; then
      for b_tool in cp sparsecp; do
        LC_ALL=C sort $b_tool.$b_name.$b_s >b.sorted \
          && mv b.sorted $b_tool.$b_name.$b_s || framework_failure_ sort
      done
    fi
    if ! diff -u cp.$b_name.$b_s sparsecp.$b_name.$b_s >b.diff; then
      if test $b_s = out.n; then
        fail_ "$b_what: standard output differs from cp's"
      else
        fail_ "$b_what: standard error differs from cp's"
      fi
      cat b.diff >&2
    fi
  done
  test "${notree-}" = 1 && return
  treelist cp.$b_name >cp.$b_name.tree \
    && treelist sparsecp.$b_name >sparsecp.$b_name.tree \
    || framework_failure_ "$b_name: cannot list the trees"
  diff -u cp.$b_name.tree sparsecp.$b_name.tree >b.diff || {
    fail_ "$b_what: the tree differs from cp's" \
      "(name type mode links group size owner mtime atime target rdev md5 xattrs):"
    cat b.diff >&2
  }
  check_sparse cp.$b_name sparsecp.$b_name
}

# Run commands as an unprivileged user when we are root, with
# as_user="setpriv ..."; as_user_ok=0 when that cannot be done.
as_user= as_user_ok=1
if test "$(id -u)" = 0; then
  if command -v setpriv >/dev/null \
     && setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null
  then
    as_user="setpriv --reuid=nobody --regid=nogroup --clear-groups"
    chmod 755 . && $as_user test -x . || as_user_ok=0
  else
    as_user_ok=0
  fi
fi
