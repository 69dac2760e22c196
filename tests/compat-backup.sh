#!/bin/sh
# -b, --backup[=CONTROL], -S and their environment variables, as GNU cp
# has them: each backup type, suffixes, an existing DEST of each kind (a
# file, a symlink, a FIFO, a hard link), with -f, -i, -u, -r and -v, two
# copies of one file, and the cases cp refuses.  Each case runs cp and
# sparsecp with the same arguments and compares the results, backups
# included (tests/compat-init.sh).
. "${abs_top_srcdir:-.}/tests/init.sh"
. "${abs_top_srcdir:-.}/tests/compat-init.sh"

mkdir s s/sub || framework_failure_ mkdir
echo new >s/new && echo deep >s/sub/deep && mkholes s/sparse 1M d:4K:4K \
  && ln -s new s/lnew || framework_failure_ "cannot make s"
settimes s

# An old DEST, older than every source, with a mode of its own, and a
# tree to merge into.
prep_old ()
{
  echo old >dst && chmod 640 dst && touch -d @1400000000.5 dst \
    && mkdir -p d/s/sub && echo old >d/s/new && echo old >d/s/sub/deep \
    && touch -d @1400000000.5 d/s/new d/s/sub/deep
}

prep=prep_old
both b 0 -b ../s/new dst
both backup 0 --backup ../s/new dst
both b-sparse 0 -b ../s/sparse dst
both b-missing 0 -b ../s/new other
both bv 0 -bv ../s/new dst
both rbv 0 -rbv ../s d
both ab 0 -ab ../s d
for t in none off numbered t existing nil simple never; do
  both backup-$t 0 --backup=$t ../s/new dst
done
both S 0 -S .orig ../s/new dst
both suffix 0 --suffix=.bak -v ../s/new dst
both suffix-slash 0 --suffix=/x ../s/new dst
runner="env SIMPLE_BACKUP_SUFFIX=.env"
both env-suffix 0 -b ../s/new dst
both env-suffix-S 0 -S .opt ../s/new dst
runner="env VERSION_CONTROL=numbered"
both env-numbered 0 -b ../s/new dst
both env-numbered-simple 0 --backup=simple ../s/new dst
runner="env VERSION_CONTROL=bogus"
both env-bogus 1 -b ../s/new dst
runner=
both bogus 1 --backup=bogus ../s/new dst
both ambiguous 1 --backup=n ../s/new dst
both b-n 1 -b -n ../s/new dst
both n-b 1 -n -b ../s/new dst

# Numbered backups follow the highest number there, and "existing"
# makes one only where one exists.
prep_numbered () { prep_old && echo one >dst.~1~ && echo nine >dst.~9~ && echo simple >dst~; }
prep=prep_numbered
both numbered-next 0 --backup=numbered -v ../s/new dst
both existing-next 0 --backup=existing ../s/new dst
both simple-over 0 --backup=simple -v ../s/new dst
prep_simple () { prep_old && echo simple >dst~; }
prep=prep_simple
both existing-simple 0 --backup=existing -v ../s/new dst

# -i, -u and -f.
prep=prep_old
ordered=1
input='y\n'
both bi-yes 0 -bi ../s/new dst
input='n\n'
both bi-no 0 -bi ../s/new dst
input=
ordered=
prep_newer () { echo newer >dst && touch -d @1600000000.5 dst; }
prep=prep_newer
both bu-newer 0 -bu ../s/new dst
prep=prep_old
both bu-older 0 -bu ../s/new dst

# An existing DEST of each kind is moved aside, never written through or
# into: a symlink, a dangling symlink, a FIFO, a hard link.
prep_kinds ()
{
  echo target >target && ln -s target dst && ln -s nowhere dangling \
    && mkfifo fifo && echo linked >hl && ln hl hl2
}
prep=prep_kinds
both b-symlink 0 -b ../s/new dst
both b-dangling 0 -b ../s/new dangling
both b-fifo 0 -b ../s/new fifo
both b-hardlink 0 -b ../s/new hl2
both b-P-symlink 0 -bP ../s/lnew dst
both a-symlink-b 0 -ab ../s/lnew dst

# The same file: cp refuses the same name unless -f, which copies it to
# its backup's name; two names of one file are fine with a backup.
prep_same () { echo same >f && ln f f2 && ln -s f sl && echo A >a~ && : >a && cp a~ back; }
prep=prep_same
both b-same 1 -b f f
both fb-same 0 -fb f f
both fb-same-numbered 0 -f --backup=numbered f f
both b-hardlinks 0 -b f f2
both b-symlink-to-dest 1 -b sl f
both b-P-symlink-to-dest 0 -bP sl f
# A source that is DEST's backup would be destroyed by the backup.
both b-is-src 1 -b a~ a
both b-is-src-numbered 0 --backup=numbered a~ a
both b-is-src-other 0 -b back a

# One file twice into a directory: no warning with a backup, and the
# second copy backs up the first where it is numbered (else cp refuses).
prep_dir () { mkdir e; }
prep=prep_dir
both b-twice 1 -b ../s/new ../s/new e
both numbered-twice 0 --backup=numbered ../s/new ../s/new e
both twice 0 ../s/new ../s/new e
prep=

Exit $fail
