#!/bin/sh
# --parents, as GNU cp has it: SOURCE's whole name under DIRECTORY, the
# directories between made with their source's mode (a read-only or
# private one too) and, with -p or -a, its attributes; with -v, a line
# for each; parents that exist, one that is a file, absolute names,
# trailing slashes, -t, -r, and a DEST that is no directory.
. "${abs_top_srcdir:-.}/tests/init.sh"
. "${abs_top_srcdir:-.}/tests/compat-init.sh"

mkdir -p s/a/b/c s/ro/in s/priv/in || framework_failure_ mkdir
echo f >s/a/b/c/f && echo g >s/a/g && echo r >s/ro/in/r \
  && echo p >s/priv/in/p && mkholes s/a/b/sparse 1M d:4K:4K \
  && chmod 750 s/a/b && chmod 555 s/ro && chmod 700 s/priv \
  && chmod 2775 s/a/b/c || framework_failure_ "cannot make s"
if test "$(id -u)" = 0; then
  chown nobody:nogroup s/a/b || framework_failure_ chown
fi
settimes s

# Each case runs where s names the sources, as in 'cd /; cp --parents ...'.
prep_e () { ln -s ../s s && mkdir e; }
prep=prep_e
both file 0 --parents s/a/b/c/f e
both file-v 0 --parents -v s/a/b/c/f e
both file-p 0 --parents -p s/a/b/c/f e
both file-a 0 --parents -a s/a/b/c/f e
both t 0 --parents -t e s/a/g s/a/b/sparse
both r 0 --parents -r s/a/b e
both rv 0 --parents -rv s/a e
both a 0 --parents -a s/a e
both ro 0 --parents s/ro/in/r e
both ro-p 0 --parents -p s/ro/in/r e
both priv 0 --parents s/priv/in/p e
both priv-a 0 --parents -a s/priv/in e
both slash 0 --parents -r s/a/b/ e
both strip 0 --parents --strip-trailing-slashes -r s/a/b/ e
both no-preserve-mode 0 --parents --no-preserve=mode s/a/b/c/f e
both abs 0 --parents "$PWD/s/a/g" e
both abs-r 0 --parents -r "$PWD/s/a/b" e
both dir-no-r 1 --parents s/a/b e
both two-dests 1 --parents s/a/g f
both missing 1 --parents s/a/none e
prep_part () { prep_e && mkdir -p e/s/a && chmod 700 e/s/a; }
prep=prep_part
both part 0 --parents s/a/b/c/f e
both part-p 0 --parents -p s/a/b/c/f e
prep_file () { prep_e && mkdir -p e/s && echo x >e/s/a; }
prep=prep_file
both not-dir 1 --parents s/a/g e
prep=

# As an unprivileged user, the parents' owners cannot be kept.
if test $as_user_ok = 1 && test -n "$as_user"; then
  chmod -R a+rX s 2>/dev/null
  chmod 755 s/priv
  runner=$as_user
  prep_user () { prep_e && chmod 777 e; }
  prep=prep_user
  both user-p 0 --parents -p s/a/b/c/f e
  both user-a 0 --parents -a s/a e
  prep=
  runner=
fi

Exit $fail
