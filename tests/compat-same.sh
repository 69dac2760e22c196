#!/bin/sh
# Two names for one file, and destinations this run made, as GNU cp
# treats them: the same-file matrix of coreutils' tests/cp/same-file.sh
# for the options sparsecp takes, a later operand onto an earlier one's
# copy, and the prompts and POSIXLY_CORRECT cases around them.  Each
# case runs cp and sparsecp alike and compares what they did
# (tests/compat-init.sh); a copy that destroys its source shows as a
# tree that differs from cp's.
. "${abs_top_srcdir:-.}/tests/init.sh"
. "${abs_top_srcdir:-.}/tests/compat-init.sh"

# prep_names: the files "$names" asks for, as same-file.sh makes them.
prep_names ()
{
  echo XYZ >foo || return 1
  for pn in symlink hardlink sl1 sl2 hlsl; do
    case " $names " in *" $pn "*) ;; *) continue ;; esac
    case $pn in
      hardlink) ln foo hardlink ;;
      hlsl) ln sl2 hlsl ;;
      *) ln -s foo $pn ;;
    esac || return 1
  done
}
prep=prep_names

# NAMES: cp's exit status with each of the options below, in order.
options=': -d -f -df -a -L -H -n --remove-destination'
while read -r n1 n2 statuses; do
  names="$n1 $n2"
  set -- $statuses
  for opt in $options; do
    test "$opt" = : && opt=
    both "same-$(echo "$names$opt" | tr ' ' _)" "$1" $opt $names
    shift
  done
done <<'EOF'
foo symlink   1 1 1 1 1 1 1 0 0
symlink foo   1 1 1 1 1 1 1 0 1
foo foo       1 1 1 1 1 1 1 0 1
sl1 sl2       1 0 1 0 0 1 1 0 0
foo hardlink  1 1 1 1 1 1 1 0 0
sl2 hlsl      1 0 1 0 0 1 1 0 0
hlsl sl2      1 0 1 0 0 1 1 0 0
EOF

# One file through two mounts of its directory: the same inode and
# device under two paths, refused even though no name is shared.
if test "$(id -u)" = 0 && mkdir bm.1 bm.2 \
   && mount --bind bm.1 bm.2 2>/dev/null && umount bm.2; then
  prep_bind () { mkdir m1 m2 && echo data >m1/f && mount --bind m1 m2; }
  prep=prep_bind
  for opts in : -f -a -d; do
    test "$opts" = : && opts=
    both "bind-mount$opts" 1 $opts m1/f m2/f
    umount cp.bind-mount$opts/m2 sparsecp.bind-mount$opts/m2 \
      || framework_failure_ "cannot unmount m2"
  done
  prep=
else
  echo "NOTE: bind mounts not possible here; that case not run"
fi

# A later operand onto the copy an earlier one made: refused, the first
# copy kept.  With -r, the second operand is still refused.
prep_abc () { mkdir a b c && echo a >a/f && echo b >b/f; }
prep=prep_abc
both just-created 1 a/f b/f c
both just-created-r 1 -r a/f b/f c
both just-created-f 1 -f a/f b/f c
prep=

# -i asks before it looks at what DEST is: "n" keeps the directory that
# a file would have replaced, with exit status 0.
prep_dir_vs_file () { mkdir -p a b/a/c && touch a/c; }
prep=prep_dir_vs_file
ordered=1
input='n\n'
both i-no-dir 0 -iR a b
input='y\n'
both i-yes-dir 1 -iR a b
input=
ordered=

# POSIXLY_CORRECT writes through a dangling DEST symlink and makes its
# target; without it, cp refuses.
prep_dangle () { echo hi >f && ln -s no-such dangle && ln -s sub/no-such dsub; }
prep=prep_dangle
runner='env POSIXLY_CORRECT=1'
both posix-dangling 0 f dangle
both posix-dangling-missing-dir 1 f dsub
runner=
both dangling 1 f dangle
both dangling-f 1 -f f dangle
prep=

# A DEST that is a symlink loop: -f replaces the link, as cp does.
prep_loop () { echo f >f && ln -s loop loop; }
prep=prep_loop
both loop 1 f loop
both loop-f 0 -f f loop
prep=

# As a user who may not write to DEST, -i asks as cp asks, with or
# without -f.
if test $as_user_ok = 1; then
  # give_away: the fixture belongs to the user who runs the copy.
  give_away () { test -z "$as_user" || chown -R nobody:nogroup .; }
  prep_ro () { echo e >e && echo f >f && chmod 0 f && give_away; }
  prep=prep_ro
  runner=$as_user
  ordered=1
  input='n\n'
  both i-unwritable 0 -i e f
  both if-unwritable 0 -if e f
  input=
  ordered=
  runner=
  prep=

  # The extended attributes of a file the user may not write are copied.
  if command -v setfattr >/dev/null \
     && touch xa.probe && setfattr -n user.probe -v 1 xa.probe 2>/dev/null
  then
    prep_ro_xattr ()
    {
      touch a && setfattr -n user.foo -v bar a && chmod a-w a && give_away
    }
    prep=prep_ro_xattr
    runner=$as_user
    both xattr-readonly 0 --preserve=xattr a e
    runner=
    prep=
  else
    echo "NOTE: no user xattrs here; the read-only xattr case not run"
  fi
else
  echo "NOTE: no unprivileged user; the permission cases not run"
fi

Exit $fail
