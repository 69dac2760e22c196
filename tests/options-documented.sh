#!/bin/sh
# The options of 'sparsecp --help', of the man page and of the bash
# completion are the same, so that none of the three drifts from the
# others: each option of the help is in the man page and is offered by
# the completion, and the completion offers no option, nor a value of
# one, that the help does not list.
# help_text=FILE checks a help text written by hand instead of the
# program's (to check this test against the spec before the code has it).
. "${abs_top_srcdir:-.}/tests/init.sh"

command -v bash >/dev/null || skip_ "bash is not installed"
man=${abs_top_srcdir-}/man/sparsecp.1
comp=${abs_top_srcdir-}/completion/sparsecp
test -f "$man" && test -f "$comp" \
  || framework_failure_ "no man page or completion in abs_top_srcdir"

if test -n "${help_text-}"; then
  cp "$help_text" help || framework_failure_ "cannot read $help_text"
else
  sparsecp --help >help || fail_ "sparsecp --help failed"
fi

# The options the help introduces: on each line that starts, after a few
# spaces, with a dash, the words before the description, which begins
# after two spaces ("  -a, --archive    same as...", "      --sparse=WHEN").
sed -n 's/^ \{1,8\}\(-.*\)$/\1/p' help | sed 's/  .*//' | tr ', ' '\n\n' \
  | sed -n 's/^\(--[a-z][a-z0-9-]*\).*/\1/p; s/^\(-[A-Za-z0-9]\)$/\1/p' \
  | LC_ALL=C sort -u >help-options
grep -x -e --help -e --version help-options >/dev/null \
  || fail_ "found no options in the help text: $(head -3 help)"

# offered WORD...: what the completion offers for "sparsecp WORD...",
# one a line, the '=' of an option left out.
offered () { complete_line "$comp" "$@" | sed 's/=$//' | LC_ALL=C sort -u; }
offered - >comp-options || framework_failure_ "cannot run the completion"
test -s comp-options || fail_ "the completion offers no options"

# The man page as text: roff's dashes plain, font changes left out.
sed 's/\\-/-/g; s/\\f[BIRP]//g' "$man" >man.txt \
  || framework_failure_ "cannot read $man"
in_man ()
{
  grep -e "\(^\|[^A-Za-z0-9-]\)$1\([^A-Za-z0-9-]\|\$\)" man.txt >/dev/null
}

while read -r opt; do
  in_man "$opt" || fail_ "$opt of --help is not in man/sparsecp.1"
  grep -x -e "$opt" comp-options >/dev/null \
    || fail_ "$opt of --help is not offered by completion/sparsecp"
done <help-options

while read -r opt; do
  grep -x -e "$opt" help-options >/dev/null \
    || fail_ "completion/sparsecp offers $opt, which --help does not list"
done <comp-options

# Each value the completion offers for an option is a word of the help
# and of the man page.
for opt in --sparse --reflink --progress --scan --stats --preserve \
    --no-preserve; do
  grep -x -e "$opt" help-options >/dev/null || continue
  for value in $(offered "$opt" = ''); do
    grep -w -e "$value" help >/dev/null \
      || fail_ "completion/sparsecp offers $opt=$value, not in --help"
    grep -w -e "$value" man.txt >/dev/null \
      || fail_ "completion/sparsecp offers $opt=$value, not in the man page"
  done
done

Exit $fail
