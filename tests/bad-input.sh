#!/bin/sh
# Bad input: unreadable sources, read-only
# destination directories, very long paths, names that are not text.
. "${abs_top_srcdir:-.}/tests/init.sh"

mkholes src 100000 d:0:4K d:64K:100 || framework_failure_ mkholes

# Run "$@" as an unprivileged user when we are root, so that permissions
# mean something; define nothing (and skip those checks) if we cannot.
as_user=
if test "$(id -u)" = 0; then
  if command -v setpriv >/dev/null \
     && setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null
  then
    as_user="setpriv --reuid=nobody --regid=nogroup --clear-groups"
    # The user must reach the test directory and write its own subdir.
    chmod 755 . && mkdir user && chown nobody:nogroup user \
      || framework_failure_ "cannot prepare a directory for nobody"
    $as_user test -r src || as_user=
  fi
else
  mkdir user || framework_failure_ mkdir
fi

if test -n "$as_user" || test "$(id -u)" != 0; then
  # An unreadable source: named, the operation said, nothing created.
  cp src user/secret && chmod 000 user/secret \
    || framework_failure_ "cannot make an unreadable file"
  test "$(id -u)" = 0 && chown nobody:nogroup user/secret
  expect_fail 1 "sparsecp: cannot open 'user/secret' for reading: Permission denied" \
    $as_user sparsecp user/secret user/copy
  test -e user/copy && fail_ "copying an unreadable file created its copy"

  # A read-only destination directory, with and without an old DST.
  mkdir user/ro && cp src user/ro/old && echo keep >user/ro/old \
    || framework_failure_ "cannot fill user/ro"
  test "$(id -u)" = 0 && chown -R nobody:nogroup user/ro
  chmod 555 user/ro || framework_failure_ chmod
  expect_fail 1 "sparsecp: cannot create regular file 'user/ro/new': Permission denied" \
    $as_user sparsecp src user/ro/new
  expect_fail 1 "sparsecp: cannot create regular file 'user/ro/old': Permission denied" \
    $as_user sparsecp src user/ro/old
  test "$(cat user/ro/old)" = keep || fail_ "the old file in user/ro changed"
  ls -a user/ro | grep '^\.sparsecp-' && fail_ "a temporary was left in user/ro"
  test -e user/ro/new && fail_ "a file appeared in a read-only directory"
else
  echo "SKIP (part): cannot drop root privileges for the permission checks"
fi

# Very long paths: a name of 255 bytes works and one of 256 is refused;
# a path longer than PATH_MAX is refused with the operation named.
n255=$(printf '%0255d' 0)
sparsecp src "$n255" || fail_ "a 255-byte name could not be a destination"
cmp src "$n255" || fail_ "the copy to a 255-byte name differs"
sparsecp "$n255" back && cmp src back || fail_ "a 255-byte source failed"
expect_fail 1 "File name too long" sparsecp src "${n255}x"
deep=.
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do
  deep=$deep/$(printf '%0250d' $i)
done
mkdir -p "$deep" || framework_failure_ "cannot make a deep directory"
test ${#deep} -gt 4096 || framework_failure_ "the deep path is too short"
expect_fail 1 "File name too long" sparsecp src "$deep/x"
test -z "$(find . -name '.sparsecp-*')" || fail_ "a temporary was left"

# Names with a newline and with invalid UTF-8 copy, and are quoted in
# messages so the terminal sees no raw control characters.
nl='new
line'
bad=$(printf 'bad\377name')
sparsecp src "$nl" && cmp src "$nl" || fail_ "a name with a newline failed"
sparsecp "$nl" "$bad" && cmp src "$bad" || fail_ "an invalid UTF-8 name failed"
sparsecp "no$nl" x 2>err && fail_ "a missing source with a newline succeeded"
grep -F "cannot stat 'nonew'\$'\\n''line'" err >/dev/null \
  || { fail_ "a newline in a name was not quoted"; cat err >&2; }

Exit $fail
