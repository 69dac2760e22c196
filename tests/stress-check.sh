#!/bin/sh
# The checker of tests/stress.sh: it takes every state the writer goes
# through, the one block being written part-written included, and not a
# part-written block anywhere but where the writer is.
. "${abs_top_srcdir:-.}/tests/init.sh"

for gen in 5 6 7 8; do
  stress forge f $gen 3 || framework_failure_ "cannot forge generation $gen"
  stress check f >out 2>err ||
    fail_ "generation $gen, 3 steps done: refused: $(cat err)"
  grep part-written out >/dev/null &&
    fail_ "generation $gen, 3 steps done: called part-written"

  # The first step from the fourth on that writes data, not a hole.
  for done in 3 4 5 6 7 8; do
    stress forge ref $gen $done && stress forge f $gen $done part ||
      framework_failure_ "cannot forge"
    cmp -s f ref || break
  done
  cmp -s f ref && framework_failure_ "generation $gen: no data block to tear"
  stress check f >out 2>err ||
    fail_ "generation $gen, step $done part-written: refused: $(cat err)"
  grep part-written out >/dev/null ||
    fail_ "generation $gen, step $done part-written: not said: $(cat out)"

  # Block 0, which is not that step (it is the first of an odd generation,
  # the last of an even one): a
  # part-written block that the writer is not at is no state.
  stress forge f $gen $done part 0 || framework_failure_ "cannot forge"
  stress check f >out 2>err &&
    fail_ "generation $gen: block 0 part-written, away from the writer: taken"
  grep 'is no state of the source' err >/dev/null ||
    fail_ "generation $gen: block 0 part-written: message: $(cat err)"
done

Exit $fail
