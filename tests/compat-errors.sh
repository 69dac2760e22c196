#!/bin/sh
# Errors, said as GNU cp says them and with its exit status, and what is
# left behind; --reflink=always where cloning is impossible; the SELinux
# options on a kernel without SELinux, and the two options cp 9.1 lacks;
# a file that vanishes during a tree copy.
. "${abs_top_srcdir:-.}/tests/init.sh"
. "${abs_top_srcdir:-.}/tests/compat-init.sh"

mkdir t t/sub t/empty && echo plain >t/plain && echo two >t/two \
  && echo deep >t/sub/deep && mkholes t/sparse 1M d:0:4K \
  || framework_failure_ "cannot make t"
settimes t

# Operands.
both dir-no-r 1 ../t/sub x
both dir-no-r-many 1 ../t/plain ../t/sub ../t/two .
both missing 1 ../nosuch x
both r-missing 1 -r ../nosuch x
both r-missing-among 1 -r ../t/plain ../nosuch ../t/sub .
both no-operand 1
both no-dest 1 ../t/plain
both extra-operand-T 1 -T ../t/plain ../t/two x
both t-and-T 1 -T -t . ../t/plain
# argmatch lists the valid arguments in cp's order.
ordered=1
both bad-preserve 1 --preserve=colour ../t/plain x
both bad-no-preserve 1 --no-preserve=colour ../t/plain x
both bad-preserve-list 1 --preserve=mode,colour ../t/plain x
both bad-reflink 1 --reflink=sometimes ../t/plain x
ordered=
both same-file 1 ../t/plain ../t/plain
# Quoting: file names in the shell style, escaped in the C locale;
# argmatch's lists in the locale's quotation marks (curly in UTF-8).
both missing-nonascii 1 "../nosuch-$(printf '\303\251')" x
if locale -a 2>/dev/null | grep -i '^c\.utf-\?8$' >/dev/null; then
  runner="env LC_ALL=C.UTF-8"
  both utf8-missing-nonascii 1 "../nosuch-$(printf '\303\251')" x
  ordered=1
  both utf8-bad-preserve 1 --preserve=colour ../t/plain x
  both utf8-bad-reflink 1 --reflink=sometimes ../t/plain x
  ordered=
  both utf8-dir-no-r 1 ../t/sub x
  runner=
else
  echo "SKIP (part): no C.UTF-8 locale"
fi

# A directory into itself: refused, and never copied more than once.
# cp copies what it reads of the source before it meets the new DEST
# inside it (how much depends on the order of the entries); so may
# sparsecp, or copy nothing.  Nothing outside DEST changes.
prep_self () { mkdir -p a/sub && echo f >a/f; }
prep=prep_self notree=1
both into-itself 1 -r a a/new
both into-itself-a 1 -a a a/sub/new
both into-itself-exists 1 -r a a/sub
prep= notree=
mkdir untouched && (cd untouched && prep_self) || framework_failure_ prep_self
(cd untouched && find a | LC_ALL=C sort) >untouched.list
for c in into-itself:a/new into-itself-a:a/sub/new into-itself-exists:a/sub/a; do
  dest=${c#*:}
  c=${c%%:*}
  (cd sparsecp.$c && find a | LC_ALL=C sort) >$c.list || framework_failure_ find
  grep -v "^$dest\(/\|\$\)" $c.list | cmp -s - untouched.list \
    || fail_ "$c: the source changed outside $dest"
  sed -n "s|^$dest/|a/|p" $c.list | LC_ALL=C sort | comm -23 - untouched.list \
    | grep . >&2 && fail_ "$c: $dest has more than one copy of the source"
  echo f | cmp -s - sparsecp.$c/a/f || fail_ "$c: a/f changed"
done

# A directory onto a non-directory and the reverse, at the top and in a
# merge (where the other files are still copied).
prep_clash ()
{
  echo file >f && mkdir -p e/plain d/t/plain && echo file >d/t/sub \
    && settimes f e d
}
prep=prep_clash
both dir-onto-file 1 -r ../t/sub f
both file-onto-dir-T 1 -T ../t/plain e/plain
both dir-onto-file-T 1 -rT ../t/sub f
both file-onto-dir-merge 1 -r ../t d
both file-onto-dir-merge-a 1 -a ../t d
# Several sources need a directory, which must exist.
both many-to-file 1 ../t/plain ../t/two f
both many-to-missing 1 ../t/plain ../t/two nodir
both r-many-to-file 1 -r ../t/sub ../t/two f
both t-file 1 -t f ../t/plain
both t-missing 1 -t nodir ../t/plain
both target-directory-file 1 --target-directory=f ../t/plain
prep=

# What cannot be read, as an unprivileged user (root reads anything):
# each is named, the rest of the tree is copied, the status is 1.  Root
# lists the copies, 0000 directories included.
if test "$as_user_ok" = 1 && test -n "$as_user"; then
  mkdir u u/closed u/open && echo secret >u/secret && echo a >u/a \
    && echo in >u/closed/in && echo b >u/open/b \
    && settimes u && chmod 000 u/secret && chmod 000 u/closed \
    || framework_failure_ "cannot make u"
  prep_own () { chown nobody:nogroup .; }
  prep=prep_own runner=$as_user
  both unreadable-file 1 ../u/secret x
  both unreadable-dir 1 -r ../u/closed x
  both unreadable-in-tree 1 -r ../u x
  both a-unreadable-in-tree 1 -a ../u x
  prep= runner=
else
  echo "SKIP (part): needs root, to copy as nobody and list as root"
fi

# --reflink: never and auto copy; always fails where the filesystem
# cannot clone, with a message that says so, and leaves nothing behind
# (cp 9.1 leaves an empty DEST: not compared).
both reflink-never 0 --reflink=never ../t/sparse x
both reflink-auto 0 --reflink=auto ../t/sparse x
both r-reflink-never 0 -r --reflink=never ../t x
if cp --reflink=always t/plain clone.probe 2>/dev/null; then
  echo "SKIP (part): this filesystem clones; --reflink=always cannot fail here"
else
  for opt in --reflink=always --reflink; do
    rm -f clone
    sparsecp $opt t/plain clone 2>err
    st=$?
    test $st = 1 || fail_ "'sparsecp $opt' where cloning is impossible exited $st, not 1"
    grep "^sparsecp: .*clone.*'clone'" err >/dev/null \
      || grep "^sparsecp: .*'clone'.*clone" err >/dev/null \
      || { fail_ "'sparsecp $opt' did not say it failed to clone 'clone':"; cat err >&2; }
    test -e clone && fail_ "'sparsecp $opt' left 'clone' after failing"
    ls -a | grep '^\.sparsecp-' >/dev/null && fail_ "'sparsecp $opt' left a temporary"
  done
fi
rm -f clone.probe

# The SELinux options, as Debian's cp (built with SELinux) takes them on
# a kernel without it: -Z silently, --context=CTX with a warning,
# --preserve=context failing, -a and --preserve=all ignoring contexts;
# -c and --keep-directory-symlink, which cp 9.1 does not have.
if test -e /sys/fs/selinux/enforce; then
  echo "SKIP (part): this kernel has SELinux; these are cp's answers without it"
else
  both Z 0 -Z ../t/plain f
  both context 0 --context ../t/plain f
  both context-ctx 0 --context=system_u:object_r:tmp_t:s0 ../t/plain f
  both preserve-context 1 --preserve=context ../t/plain f
  both Z-preserve-context 1 -Z --preserve=context ../t/plain f
  both a-context 0 -a --context=x ../t/plain f
  both preserve-all 0 --preserve=all ../t/plain f
  both no-preserve-context 0 -p --no-preserve=context ../t/plain f
fi
both c 1 -c ../t/plain f
both keep-directory-symlink 1 --keep-directory-symlink ../t/plain f

# A file that vanishes between the directory read and its copy: the
# faultinject shim unlinks it just before it is opened.  It is reported,
# the status is 1, and every other file is copied.
shim=${abs_top_builddir:-..}/tests/faultinject.so
test -f "$shim" || framework_failure_ "no $shim"
preload=$(fault_preload "$shim")
mkdir v v/sub && echo a >v/a && echo z >v/sub/z && mkholes v/sparse 1M d:8K:4K \
  || framework_failure_ "cannot make v"
# The shim interposes sparsecp's open of a single file.
echo probe >vanishing.probe || framework_failure_ "vanishing.probe"
FAULT=open:vanish FAULT_PATH=vanishing.probe LD_PRELOAD=$preload \
  sparsecp vanishing.probe probe.copy 2>/dev/null
test -e vanishing.probe && skip_ "the shim cannot make a file vanish under sparsecp"
prep_vanish () { echo doomed >../v/sub/vanishing; }
for tool in cp sparsecp; do
  # cp is never sanitized: only sparsecp may need ASan's runtime first.
  test $tool = cp && p=$shim || p=$preload
  mkdir $tool.vanish || framework_failure_ mkdir
  (cd $tool.vanish && prep_vanish \
     && env FAULT=open:vanish FAULT_PATH=vanishing \
          FAULT_LOG="$PWD/../vanish.$tool.log" LD_PRELOAD="$p" $tool -r ../v d) \
    >$tool.vanish.out 2>$tool.vanish.err
  echo $? >$tool.vanish.status
done
grep vanish vanish.sparsecp.log >/dev/null 2>&1 \
  || fail_ "a vanished file: sparsecp -r never opened v/sub/vanishing"
test "$(cat sparsecp.vanish.status)" = 1 \
  || fail_ "a vanished file: sparsecp exited $(cat sparsecp.vanish.status), not 1"
grep -E "^sparsecp: cannot (open|stat) '\.\./v/sub/vanishing'( for reading)?: No such file or directory\$" \
  sparsecp.vanish.err >/dev/null \
  || { fail_ "a vanished file was not reported as missing:"; cat sparsecp.vanish.err >&2; }
test "$(wc -l <sparsecp.vanish.err)" = 1 \
  || { fail_ "a vanished file: more than one message:"; cat sparsecp.vanish.err >&2; }
for f in a sub/z sparse; do
  cmp v/$f sparsecp.vanish/d/$f || fail_ "a vanished file: $f was not copied"
done
test -e sparsecp.vanish/d/sub/vanishing \
  && fail_ "a vanished file: something was copied in its place"
# Where the shim works on cp too, the two must agree.
if grep vanish vanish.cp.log >/dev/null 2>&1; then
  test "$(cat cp.vanish.status)" = 1 \
    || framework_failure_ "a vanished file: cp exited $(cat cp.vanish.status)"
  treelist cp.vanish >cp.vanish.tree && treelist sparsecp.vanish >sparsecp.vanish.tree \
    || framework_failure_ treelist
  diff -u cp.vanish.tree sparsecp.vanish.tree >b.diff \
    || { fail_ "a vanished file: the tree differs from cp's:"; cat b.diff >&2; }
  sed 's/^cp: /sparsecp: /' cp.vanish.err | diff -u - sparsecp.vanish.err >b.diff \
    || { echo "NOTE: cp says it differently:"; cat b.diff; }
else
  echo "NOTE: the shim cannot interpose cp's open; sparsecp checked alone"
fi

Exit $fail
