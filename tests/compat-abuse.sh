#!/bin/sh
# A source crafted to make the copy write outside its destination: a
# symlink copied first, then a file copied onto the same name, which
# would follow the new link (coreutils' tests/cp/abuse.sh).  cp refuses
# for operands; sparsecp also inside a tree, where cp writes through.
# And -au into an existing copy keeps the hard links, as cp -au does
# (tests/cp/preserve-link.sh).
. "${abs_top_srcdir:-.}/tests/init.sh"
. "${abs_top_srcdir:-.}/tests/compat-init.sh"

# The link a/1 leads to t, outside c, which exists or not.
prep_abuse () { mkdir a b c && ln -s ../t a/1 && echo payload >b/1; }
prep_abuse_t () { prep_abuse && echo i >t; }
for opts in -dR -a -r -rP -RL -RH '-dR -f' '-dR --reflink=auto'; do
  name=$(echo "$opts" | tr -d ' =')
  prep=prep_abuse
  both "abuse-dangling$name" 1 $opts a/1 b/1 c
  prep=prep_abuse_t
  both "abuse-existing$name" 1 $opts a/1 b/1 c
done

# -n never writes, so it has nothing to refuse; -i asks first.
prep=prep_abuse_t
both abuse-n 0 -dRn a/1 b/1 c
both abuse-u 0 -dRu a/1 b/1 c
prep=prep_abuse
both abuse-u-dangling 1 -dRu a/1 b/1 c
prep=prep_abuse_t
ordered=1 input='y\n'
both abuse-i 1 -dRi a/1 b/1 c
ordered= input=
prep=

# The same inside a tree: cp writes through c/d/1 to t; sparsecp does
# not, so the rest is compared by hand.
mkdir -p tree/a/d tree/b/d tree/c || framework_failure_
ln -s ../../t tree/a/d/1 && echo payload >tree/b/d/1 && echo i >tree/t \
  && echo other >tree/b/d/2 || framework_failure_
cd tree || framework_failure_ "cd tree"
expect_fail 1 \
  "sparsecp: will not copy 'b/d/1' through just-created symlink 'c/d/1'" \
  sparsecp -dR a/d b/d c
cd .. || framework_failure_ "cd .."
test "$(cat tree/t)" = i || fail_ "the tree case wrote through to t"
test "$(cat tree/c/d/2)" = other || fail_ "the tree case stopped early"
test "$(readlink tree/c/d/1)" = ../../t || fail_ "c/d/1 is not the link"

# -au into an existing copy: names that are hard links in the source end
# up linked in DEST, the newer and older separate files included.
prep_links ()
{
  mkdir s t t/s && touch s/f && ln s/f s/linkm && ln s/f s/linke \
    && ln s/f s/fileo && ln s/f s/fileu \
    && touch t/s/f && ln t/s/f t/s/linke \
    && touch -d '-1 hour' t/s/fileo && touch -d '+1 hour' t/s/fileu
}
prep=prep_links
both au-links 0 -au s t
prep=

Exit $fail
