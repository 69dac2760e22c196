#!/bin/sh
# Command line, messages and exit statuses.
. "${abs_top_srcdir:-.}/tests/init.sh"

sparsecp --help >out || fail_ "--help failed"
grep -F 'Usage: sparsecp [OPTION]... [-T] SOURCE DEST' out >/dev/null \
  || fail_ "--help lacks the usage line"
for opt in --debug --scan= --sparse= --verify --help --version; do
  grep -F -- "$opt" out >/dev/null || fail_ "--help does not list $opt"
done
sparsecp --version | head -n 1 | grep '^sparsecp (sparsecp) [0-9]' >/dev/null \
  || fail_ "--version is not in GNU form"

expect_fail 1 "sparsecp: missing file operand" sparsecp
expect_fail 1 "sparsecp: missing destination file operand after 'a'" \
  sparsecp a
expect_fail 1 "sparsecp: invalid argument 'sometimes' for '--sparse'" \
  sparsecp --sparse=sometimes a b
expect_fail 1 "sparsecp: invalid argument 'guess' for '--scan'" \
  sparsecp --scan=guess a b
expect_fail 1 "sparsecp: unrecognized option '--frobnicate'" \
  sparsecp --frobnicate a b

# A missing source: named, with the operation, and nothing created.
expect_fail 1 "sparsecp: cannot stat 'nosuch': No such file or directory" \
  sparsecp nosuch dst
test -e dst && fail_ "a failed copy created its destination"

# A directory without -r, as cp says it.
mkdir d
expect_fail 1 "sparsecp: -r not specified; omitting directory 'd'" \
  sparsecp d dst

# The same file, directly, through a hard link and through a symlink.
mkholes f 10000 d:0:10000 || framework_failure_ mkholes
cp f f.orig
ln f f.hard
ln -s f f.sym
for other in f f.hard f.sym; do
  expect_fail 1 "are the same file" sparsecp f $other
done
cmp f f.orig || fail_ "copying a file onto itself changed it"

# The destination's directory is missing.
expect_fail 1 "sparsecp: cannot create regular file 'nodir/x': No such file or directory" \
  sparsecp f nodir/x

# Several sources need a directory.
expect_fail 1 "sparsecp: target 'f.orig': Not a directory" \
  sparsecp f f.hard f.orig

# Into a directory, and over an existing file whose mode is kept.
mkholes g 5000 d:100:200 || framework_failure_ mkholes
sparsecp f g d || fail_ "copy into a directory failed"
cmp f d/f && cmp g d/g || fail_ "copies into a directory differ"
echo old >dst
chmod 600 dst
sparsecp f dst || fail_ "copy over an existing file failed"
cmp f dst || fail_ "copy over an existing file differs"
test "$(stat -c %a dst)" = 600 || fail_ "the replaced file's mode was not kept"
ls -a | grep '^\.sparsecp-' && fail_ "a temporary file was left behind"

# A dangling symlink is not written through.
ln -s nowhere dangling
expect_fail 1 "sparsecp: not writing through dangling symlink 'dangling'" \
  sparsecp f dangling
# A symlink to a file is: the link stays, the file gets the data.
echo x >target
ln -s target link
sparsecp f link || fail_ "copy through a symlink failed"
test -L link && cmp f target || fail_ "copy did not go through the symlink"

# One bad source among good ones: the others are copied, status is 1.
mkdir outdir
expect_fail 1 "cannot stat 'nosuch'" sparsecp f nosuch g outdir
cmp f outdir/f && cmp g outdir/g || fail_ "good sources were not all copied"

Exit $fail
