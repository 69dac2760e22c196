#!/bin/sh
# -Z, --context=CTX and --preserve=context give each copy its SELinux
# label before it takes its name, and fail, warn or stay quiet as cp
# does.  The selinux-shim stands in for the SELinux module, which this
# kernel need not have: the labels themselves are the real
# "security.selinux" attributes, which root can set without it.
. "${abs_top_srcdir:-.}/tests/init.sh"

shim=${abs_top_builddir:-..}/tests/selinux-shim.so
test -f "$shim" || skip_ "sparsecp is built without libselinux"
command -v setfattr >/dev/null && command -v getfattr >/dev/null \
  || skip_ "setfattr and getfattr are missing (apt-get install attr)"
touch probe
setfattr -n security.selinux -v system_u:object_r:probe_t:s0 probe \
  2>/dev/null || skip_ "cannot set security.selinux here (needs root)"
preload=$(fault_preload "$shim")

# The label of NAME, not following a symlink; empty when it has none.
label () { getfattr -h --only-values -n security.selinux "$1" 2>/dev/null \
             | tr -d '\0'; }
set_label () { setfattr -h -n security.selinux -v "$2" "$1"; }
# sel ARGS...: sparsecp under the shim, noting in log each file put in
# place without a label.
sel () { LD_PRELOAD=$preload SHIM_LOG=$PWD/log sparsecp "$@"; }
no_unlabelled ()
{
  test -s log && { fail_ "$1: put in place without a label:"; cat log >&2; }
  rm -f log
}

mkdir -p s/sub && echo a >s/a && echo b >s/sub/b && echo c >s/x.conf \
  && ln -s a s/link && ln s/a s/hard && mkfifo s/fifo \
  || framework_failure_ "cannot make the tree"
for f in s s/sub s/a s/sub/b s/x.conf s/link s/fifo; do
  set_label "$f" "system_u:object_r:$(echo "$f" | tr /. __)_t:s0" \
    || framework_failure_ "cannot label $f"
done
entries="sub a sub/b x.conf link hard fifo"

# --preserve=context and -a: each copy has its source's label.
for opts in "-r --preserve=context" "-a"; do
  rm -rf d
  sel $opts s d 2>err || { fail_ "sparsecp $opts failed"; cat err >&2; }
  test -s err && { fail_ "sparsecp $opts said something"; cat err >&2; }
  for e in . $entries; do
    test "$(label "d/$e")" = "$(label "s/$e")" \
      || fail_ "$opts: d/$e has '$(label "d/$e")', not '$(label "s/$e")'"
  done
  no_unlabelled "$opts"
done

# A symlink followed (-L) is copied with its target's label, not its own.
sel -L --preserve=context s/link followed || fail_ "sparsecp -L --preserve=context failed"
test "$(label followed)" = "$(label s/a)" \
  || fail_ "-L: 'followed' has '$(label followed)', not s/a's '$(label s/a)'"
rm -f followed log

# --context=CTX: each new file has CTX.
rm -rf d
ctx=system_u:object_r:given_t:s0
sel -r --context=$ctx s d || fail_ "sparsecp --context failed"
for e in . $entries; do
  test "$(label "d/$e")" = $ctx || fail_ "--context: d/$e has '$(label "d/$e")'"
done
no_unlabelled --context

# -Z: the policy's label for the copy's name (the shim's policy: etc_t
# for *.conf, dir_t for a directory, file_t for the rest).
rm -rf d
sel -rZ s d || fail_ "sparsecp -Z failed"
for e in . sub; do
  test "$(label "d/$e")" = system_u:object_r:dir_t:s0 \
    || fail_ "-Z: d/$e has '$(label "d/$e")', not dir_t"
done
test "$(label d/x.conf)" = system_u:object_r:etc_t:s0 \
  || fail_ "-Z: d/x.conf has '$(label d/x.conf)', not etc_t"
test "$(label d/a)" = system_u:object_r:file_t:s0 \
  || fail_ "-Z: d/a has '$(label d/a)', not file_t"
no_unlabelled -Z
# A name the policy does not list is copied without a label or a word.
sel -Z s/a unlisted 2>err || fail_ "sparsecp -Z to an unlisted name failed"
test -s err && { fail_ "-Z to an unlisted name said something"; cat err >&2; }
test -z "$(label unlisted)" || fail_ "-Z labelled an unlisted name"
rm -f log

# What cp refuses, with its messages; nothing is made.
expect_fail 1 "sparsecp: failed to set default file creation context to 'invalid_t': Invalid argument" \
  sel --context=invalid_t s/a bad
test -e bad && fail_ "--context=invalid_t made 'bad'"
expect_fail 1 "sparsecp: cannot set target context and preserve it" \
  sel -Z --preserve=context s/a bad
test -e bad && fail_ "-Z --preserve=context made 'bad'"
# -Z without a policy is a warning, as cp's, and the copy is made.
SHIM_NO_POLICY=1 expect_fail 0 \
  "sparsecp: warning: ignoring --context: No such file or directory" \
  sel -Z s/a nopolicy
cmp s/a nopolicy || fail_ "-Z without a policy did not copy"

# A label that cannot be set: --preserve=context and --context=CTX fail
# and leave an existing destination as it was, as cp, which cannot
# create the file; -a says nothing and copies; -Z copies and says so.
echo old >old
SHIM_FAIL_SET=1 expect_fail 1 \
  "sparsecp: failed to set the security context of 'old': Input/output error" \
  sel --preserve=context s/a old
test "$(cat old)" = old || fail_ "a failed --preserve=context changed 'old'"
SHIM_FAIL_SET=1 expect_fail 1 \
  "sparsecp: failed to set the security context of 'old': Input/output error" \
  sel --context=$ctx s/a old
test "$(cat old)" = old || fail_ "a failed --context changed 'old'"
SHIM_FAIL_SET=1 sel -a s/a unset 2>err || fail_ "-a failed where labels cannot be set"
test -s err && { fail_ "-a said something where labels cannot be set"; cat err >&2; }
cmp s/a unset || fail_ "-a did not copy where labels cannot be set"
SHIM_FAIL_SET=1 expect_fail 0 \
  "sparsecp: failed to set the security context of 'unsetZ': Input/output error" \
  sel -Z s/a unsetZ
cmp s/a unsetZ || fail_ "-Z did not copy where labels cannot be set"
rm -f log old

# A source without a label: --preserve=context fails and leaves no copy,
# and an existing destination as it was; -a copies it without a word.
echo n >nolabel
expect_fail 1 "sparsecp: failed to get security context of 'nolabel'" \
  sel --preserve=context nolabel new
test -e new && fail_ "--preserve=context of an unlabelled file made 'new'"
echo old >old
expect_fail 1 "sparsecp: failed to get security context of 'nolabel'" \
  sel --preserve=context nolabel old
test "$(cat old)" = old || fail_ "a failed --preserve=context changed 'old'"
sel -a nolabel quiet 2>err || fail_ "sparsecp -a of an unlabelled file failed"
test -s err && { fail_ "-a of an unlabelled file said something"; cat err >&2; }
cmp nolabel quiet || fail_ "-a of an unlabelled file did not copy it"
rm -f log

Exit $fail
