#!/bin/sh
# The bash completion completes options, their values, directories after
# -t and file names: its function is driven with COMP_WORDS and
# COMP_CWORD as bash sets them, "=" being a word break by default.
. "${abs_top_srcdir:-.}/tests/init.sh"

command -v bash >/dev/null || skip_ "bash is not installed"
comp=${abs_top_srcdir-}/completion/sparsecp
test -f "$comp" || framework_failure_ "no completion/sparsecp in abs_top_srcdir"

mkdir dir1 dir2 && touch file.img 'my image.img' ./--sparse.img \
  || framework_failure_ "cannot make the files to complete"

# answers WORD...: print, sorted, one a line, what the completion offers
# for the command line "sparsecp WORD...", whose last word is completed.
answers () { complete_line "$comp" "$@" | LC_ALL=C sort; }

# expect 'ANSWER...' WORD...: the completion of WORD... offers exactly the
# answers, separated by '|' in the first argument.
expect ()
{
  want=$(printf '%s\n' "$1" | tr '|' '\n' | LC_ALL=C sort)
  shift
  got=$(answers "$@")
  test "$got" = "$want" \
    || fail_ "completing '$*' offered '$(echo $got)', not '$(echo $want)'"
}

# Long options, to the '=' of one that needs an argument.
expect '--sparse=' --sp
expect '--verbose|--verify|--version' --ver
expect '--reflink|--reflink=' --refl

# Values after '=', split from the option as bash does ...
expect 'auto|always|never' --sparse =
expect 'auto|always' --reflink = a
expect 'auto|fiemap|seek|read' --scan = ''
expect 'json' --stats = j
expect 'mode,timestamps' --preserve = mode,t
expect 'mode,ownership|mode,timestamps|mode,links|mode,xattr|mode,all' \
  --preserve = mode,
# ... or whole when '=' is not a word break, the option kept in front.
expect '--sparse=auto|--sparse=always|--sparse=never' --sparse=
expect '--reflink=auto|--reflink=always' --reflink=a
# ... and in the next word, for an option whose argument is required.
expect 'always' --sparse al

# Directories only after -t, also at the end of grouped short options.
expect 'dir1|dir2' -t ''
expect 'dir1|dir2' -avt ''
expect 'dir1|dir2' --target-directory = ''
expect 'dir1' --target-directory = dir1

# Files otherwise, names with spaces included, and after -- even when
# they begin with a dash.
expect 'file.img' 'fi'
expect 'my image.img' my
expect 'dir1|dir2|file.img|my image.img|--sparse.img' -a -- ''
expect '--sparse.img' -- --sp

Exit $fail
