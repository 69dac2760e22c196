#!/bin/sh
# sparsecp's own command line (--help, --version, its options' bad
# arguments), and the plain copies: into a directory, over a file whose
# mode is kept, through a symlink.  The errors cp also makes are
# compared with GNU cp's in compat-errors.sh and compat-same.sh.
. "${abs_top_srcdir:-.}/tests/init.sh"

sparsecp --help >out || fail_ "--help failed"
grep -F 'Usage: sparsecp [OPTION]... [-T] SOURCE DEST' out >/dev/null \
  || fail_ "--help lacks the usage line"
for opt in --debug --scan= --sparse= --verify --help --version; do
  grep -F -- "$opt" out >/dev/null || fail_ "--help does not list $opt"
done
sparsecp --version | head -n 1 | grep '^sparsecp (sparsecp) [0-9]' >/dev/null \
  || fail_ "--version is not in GNU form"

expect_fail 1 "sparsecp: invalid argument 'sometimes' for '--sparse'" \
  sparsecp --sparse=sometimes a b
expect_fail 1 "sparsecp: invalid argument 'guess' for '--scan'" \
  sparsecp --scan=guess a b
expect_fail 1 "sparsecp: unrecognized option '--frobnicate'" \
  sparsecp --frobnicate a b

mkholes f 10000 d:0:10000 || framework_failure_ mkholes

# The destination's directory is missing.
expect_fail 1 "sparsecp: cannot create regular file 'nodir/x': No such file or directory" \
  sparsecp f nodir/x

# Into a directory, and over an existing file whose mode is kept.
mkholes g 5000 d:100:200 || framework_failure_ mkholes
mkdir d
sparsecp f g d || fail_ "copy into a directory failed"
cmp f d/f && cmp g d/g || fail_ "copies into a directory differ"
echo old >dst
chmod 600 dst
sparsecp f dst || fail_ "copy over an existing file failed"
cmp f dst || fail_ "copy over an existing file differs"
test "$(stat -c %a dst)" = 600 || fail_ "the replaced file's mode was not kept"
ls -a | grep '^\.sparsecp-' && fail_ "a temporary file was left behind"

# A symlink to a file is written through: the link stays, the file gets
# the data.
echo x >target
ln -s target link
sparsecp f link || fail_ "copy through a symlink failed"
test -L link && cmp f target || fail_ "copy did not go through the symlink"

Exit $fail
