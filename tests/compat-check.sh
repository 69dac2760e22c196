#!/bin/sh
# make compat-check: GNU coreutils' own tests of cp, from Debian's
# coreutils source package, run once with GNU cp and once with sparsecp,
# as root and as an unprivileged user.  A test that GNU cp passes and
# sparsecp does not must be listed, with its reason, in
# tests/compat-known.txt; a listed test that no longer fails must leave
# the list.  Exit status: 0 when both hold, 1 otherwise, 99 when the
# tests cannot be set up.
#
# Environment: SPARSECP (the program under test), KNOWN (the list),
# SPARSECP_CACHE (where the source package, its tree and GNU cp's
# results are kept between runs), COMPAT_TIMEOUT (seconds per test, 120;
# 20 for sparsecp on a test listed as deliberate),
# COMPAT_TESTS (run only these, for work on one test).
set -u
LC_ALL=C
export LC_ALL

fail=0
die () { echo "compat-check: $*" >&2; exit 99; }

SPARSECP=${SPARSECP:?SPARSECP names the sparsecp to test}
KNOWN=${KNOWN:?KNOWN names the list of known failures}
timeout=${COMPAT_TIMEOUT:-120}
cache=${SPARSECP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sparsecp}/coreutils
gnu_cp=$(command -v cp) || die "no cp"
test -x "$SPARSECP" || die "$SPARSECP is not a program"
test -r "$KNOWN" || die "cannot read $KNOWN"
test "$(id -u)" = 0 || die "run as root: the tests run as root and as nobody"
user=nobody group=nogroup
# Tests that change a file's group (existing-perm-race.sh) need a user in
# two groups: root and nobody each get a second one, named to them in
# COREUTILS_GROUPS as coreutils' make check asks.
second=$(getent group users | cut -d: -f3)
test -n "$second" || second=$(getent group daemon | cut -d: -f3)
test -n "$second" || die "no second group (users or daemon) to run the tests in"
gid=$(getent group $group | cut -d: -f3)
groups_root="0 $second" groups_user="$gid $second"
setpriv --reuid=$user --regid=$group --groups=$gid,$second true \
  && setpriv --groups=0,$second true \
  || die "cannot run as $user, and as root, in two groups with setpriv"

# The tests of cp, and those elsewhere in coreutils that run cp.
tests_of_cp ()
{
  (cd "$src" && ls tests/cp/*.sh) || return 1
  for t in mv/hard-2 mv/hard-3 mv/i-2 mv/part-symlink mv/childproof \
           mv/update mv/dup-source mv/trailing-slash misc/xattr \
           misc/selinux misc/close-stdout misc/help-version ln/misc; do
    echo "tests/$t.sh"
  done
}

# Debian's source package of the installed coreutils, fetched once: a
# deb-src entry is given to apt for this call only, with lists of its own.
fetch_source ()
{
  ls "$cache"/coreutils_*.dsc >/dev/null 2>&1 && return 0
  mkdir -p "$cache/apt/lists/partial" || return 1
  echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
    "http://deb.debian.org/debian bookworm main" >"$cache/apt/sources.list"
  set -- -o Dir::Etc::SourceList="$cache/apt/sources.list" \
    -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$cache/apt/lists"
  apt-get -q "$@" update >"$cache/apt/update.log" 2>&1 \
    || { cat "$cache/apt/update.log" >&2; return 1; }
  (cd "$cache" && apt-get -q "$@" source --download-only \
     "coreutils=$(dpkg-query -W -f '${Version}' coreutils)") >&2
}

fetch_source || die "cannot download coreutils' source package"
dsc=$(ls "$cache"/coreutils_*.dsc | tail -n 1)
version=$(basename "$dsc" .dsc | sed 's/^coreutils_//')
src=$cache/coreutils-$version
if ! test -f "$src/init.cfg"; then
  rm -rf "$src"
  dpkg-source --no-check -x "$dsc" "$src" >/dev/null \
    || die "cannot unpack $dsc"
fi
upstream=$(echo "$version" | sed 's/-[^-]*$//')
"$gnu_cp" --version | head -n 1 | grep -F " $upstream" >/dev/null \
  || die "the installed cp is not coreutils $upstream"

work=$(mktemp -d /tmp/compat-check.XXXXXX) || die "mktemp"
trap 'test "${COMPAT_KEEP-}" = 1 || rm -rf "$work"' EXIT
trap 'exit 99' HUP INT TERM
chmod 755 "$work"

# The tests and their setup, where the unprivileged user can read them
# (the cache may be under root's home).
mkdir "$work/cu" && cp -R "$src/tests" "$src/init.cfg" "$work/cu/" \
  && chmod -R a+rX "$work/cu" || die "cannot copy the tests"

# The programs coreutils builds: those of the installed package, whose
# copies the tests find in PATH, and install under its build name.
# (Debian's md5sum.textutils is an old name of md5sum, not a program.)
programs=$(dpkg -L coreutils | grep -E '^(/usr)?/s?bin/[^/.]+$') \
  || die "dpkg -L coreutils lists no programs"
built=$(echo "$programs" | sed 's|.*/||; s|^install$|ginstall|' | sort -u \
        | tr '\n' ' ')
case " $built " in *" cp "*) ;; *) die "dpkg -L coreutils lists no cp" ;; esac

# make_tree NAME PROGRAM OWNER: a directory standing in for coreutils'
# build tree, whose src/cp is PROGRAM itself (a symlink, so that argv[0]
# ends in "cp" and messages read "cp: ..."), its other programs the
# installed ones, owned by OWNER, who runs the tests in it.  Its "cu"
# leads to a copy of the tests, so that srcdir is relative, as they expect.
make_tree ()
{
  mkdir -p "$work/$1/src" || return 1
  for p in $programs; do
    case $p in
      */cp) ;;
      */install) ln -sf "$p" "$work/$1/src/ginstall" ;;
      *) ln -sf "$p" "$work/$1/src/" ;;
    esac || return 1
  done
  ln -s "$2" "$work/$1/src/cp" || return 1
  ln -s "$work/cu" "$work/$1/cu" \
    && cat >"$work/$1/config.h" <<'EOF' && chown -R "$3" "$work/$1"
/* What coreutils' configure finds on Debian 12, as the tests ask it.  */
#define HAVE_OPENAT 1
#define USE_ACL 1
#define USE_XATTR 1
EOF
}

# The output of each test of the last run, kept for reading.
logs=$cache/last-run
rm -rf "$logs" && mkdir -p "$logs" || die "cannot make $logs"

# run_test TREE RUNNER TEST: run TEST as coreutils' make check does, in
# TREE, its output in $logs/TREE/; print pass, skip or fail.
run_test ()
{
  log=$logs/$1/$(echo "$3" | tr / -).log
  mkdir -p "$logs/$1"
  case $1 in *-root) groups=$groups_root;; *) groups=$groups_user;; esac
  (cd "$work/$1" && $2 env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
     COREUTILS_GROUPS="$groups" \
     HOME=/nonexistent SHELL=/bin/sh TMPDIR=/tmp \
     VERSION="$upstream" PACKAGE_VERSION="$upstream" \
     abs_top_builddir="$work/$1" abs_top_srcdir="$work/cu" \
     abs_srcdir="$work/cu" \
     srcdir=cu top_srcdir=cu built_programs="$built" fail=0 \
     host_os=linux-gnu host_triplet=x86_64-pc-linux-gnu \
     CONFIG_HEADER="$work/$1/config.h" \
     CU_TEST_NAME="tests,$(echo "$3" | sed 's,^tests/,,; s,/,-,g')" \
     CC=gcc AWK=awk EGREP='grep -E' EXEEXT= MAKE=make PERL=perl \
     sh -c '. "$srcdir/tests/lang-default"; . "$srcdir/tests/envvar-check"
            exec timeout -k 10 "$1" sh "$srcdir/$2" 9>&2' \
     sh "$timeout" "$3") >"$log" 2>&1 </dev/null
  case $? in
    0) echo pass ;;
    77) echo skip ;;
    *) echo fail ;;
  esac
}

# A copy that the unprivileged user can run wherever the build is.
mkdir "$work/bin" && cp "$SPARSECP" "$work/bin/sparsecp" \
  && chmod 755 "$work/bin" "$work/bin/sparsecp" || die "cannot copy $SPARSECP"
as_user="setpriv --reuid=$user --regid=$group --groups=$gid,$second"
as_root="setpriv --groups=0,$second"
make_tree gnu-root "$gnu_cp" root && make_tree gnu-user "$gnu_cp" $user:$group \
  && make_tree sparsecp-root "$work/bin/sparsecp" root \
  && make_tree sparsecp-user "$work/bin/sparsecp" $user:$group \
  && make_tree false-root /bin/false root \
  || die "cannot make the stand-in build trees"

tests=${COMPAT_TESTS:-$(tests_of_cp)} || die "no tests in $src"

# GNU cp's results do not change with our code: kept per coreutils
# version, and reused when they cover every test.
gnu_results ()
{
  # The groups are part of the name: results from runs in one group
  # skipped the tests that need two.
  res=$cache/gnu-$version-2groups-$1.txt
  for t in $tests; do
    grep "^$t " "$res" 2>/dev/null && continue
    echo "$t $(run_test gnu-$1 "$2" "$t")" | tee -a "$res"
  done
}

# A deliberate difference of the list that makes its test wait forever
# (file-perm-race.sh, existing-perm-race.sh) needs no more than 20 s to
# show: the whole time limit would be four minutes a test.
sparsecp_results ()
{
  for t in $tests; do
    timeout=${COMPAT_TIMEOUT:-120}
    grep "^$t deliberate:" "$KNOWN" >/dev/null && timeout=20
    echo "$t $(run_test sparsecp-$1 "$2" "$t")"
  done
}

sum_root= sum_user=
for who in root user; do
  runner=$as_root
  test $who = user && runner=$as_user
  # GNU cp's runs beside sparsecp's: most tests wait more than they work.
  gnu_results $who "$runner" >"$work/gnu.$who" &
  gnu_pid=$!
  sparsecp_results $who "$runner" >"$work/sparsecp.$who"
  wait $gnu_pid || die "GNU cp's runs failed"
  pass=0 ours=0 skip=0 theirs=0
  for t in $tests; do
    g=$(grep "^$t " "$work/gnu.$who" | tail -n 1 | cut -d' ' -f2)
    s=$(grep "^$t " "$work/sparsecp.$who" | tail -n 1 | cut -d' ' -f2)
    case $g/$s in
      pass/pass) r="pass with both"; pass=$((pass + 1)) ;;
      pass/*) r="FAILS WITH SPARSECP ONLY"; ours=$((ours + 1))
              echo "$t" >>"$work/ours.$who" ;;
      skip/*) r="skipped"; skip=$((skip + 1)) ;;
      *) r="fails with GNU cp too (not ours)"; theirs=$((theirs + 1)) ;;
    esac
    printf '%-5s %-34s %s\n' "$who" "$t" "$r"
    case $g/$s in pass/fail | pass/skip)
      echo "  (log: $logs/sparsecp-$who/$(echo "$t" | tr / -).log)" ;;
    esac
    test -f "$work/ours.$who" || : >"$work/ours.$who"
  done
  line="$who: $pass pass with both, $ours fail with sparsecp only, $skip skipped, $theirs fail with GNU cp too"
  # GNU cp passes most of its own tests: if it does not, the stand-in
  # build tree is wrong, and no comparison means anything.
  if test -z "${COMPAT_TESTS-}" && test $((pass + ours)) -lt 40; then
    echo "compat-check: GNU cp passes only $((pass + ours)) tests as $who" >&2
    fail=1
  fi
  eval "sum_$who=\$line"
done

# Listed tests, without comments: "TEST REASON".
known=$(sed -n 's/^\(tests\/[^ ]*\.sh\) .*/\1/p' "$KNOWN" | sort -u)
for t in $(cat "$work/ours.root" "$work/ours.user" | sort -u); do
  echo "$known" | grep -x -F "$t" >/dev/null && continue
  echo "compat-check: $t fails with sparsecp, passes with GNU cp," \
    "and is not in $KNOWN" >&2
  fail=1
done
for t in $known; do
  case " $(echo $tests) " in *" $t "*) ;; *) continue ;; esac
  cat "$work/ours.root" "$work/ours.user" | grep -x -F "$t" >/dev/null \
    && continue
  echo "compat-check: $t is in $KNOWN but no longer fails: remove it" >&2
  fail=1
done

# The harness runs what it claims: with /bin/false as cp, the sparse
# tests and cp-i.sh that GNU cp passes as root must fail.
checked=0
for t in $tests; do
  case $t in tests/cp/sparse*.sh | tests/cp/cp-i.sh) ;; *) continue ;; esac
  grep -x -F "$t pass" "$work/gnu.root" >/dev/null || continue
  r=$(run_test false-root "" "$t")
  checked=$((checked + 1))
  test "$r" = fail || {
    echo "compat-check: $t did not fail with /bin/false as cp ($r)" >&2
    fail=1
  }
done
case ${COMPAT_TESTS-} in
  '') test $checked -ge 2 || {
        echo "compat-check: only $checked tests to check /bin/false with" >&2
        fail=1
      } ;;
esac
echo "self-check: $checked tests run with /bin/false as cp, each must fail"

echo "$sum_root"
echo "$sum_user"
exit $fail
