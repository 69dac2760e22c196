# Sourced by the tests/new-dest-*.sh scripts, after tests/init.sh: the
# faultinject shim as $preload, a source file src, and an empty out/
# where each copy goes.
shim=${abs_top_builddir:-..}/tests/faultinject.so
test -f "$shim" || framework_failure_ "no $shim"
preload=$(fault_preload "$shim")
mkholes src 1M d:0:4K d:512K:64K || framework_failure_ mkholes
mkdir out || framework_failure_ "mkdir out"

# Nothing under out/ but what the test names.
only_in_out ()
{
  got=$(ls -A out | tr '\n' ' ')
  test "$got" = "$1" || fail_ "$2: out/ holds '$got', not '$1'"
}
