#!/bin/sh
# -p keeps a file's and a directory's ACLs with their mode, as cp does;
# without -p the copy has none.
. "${abs_top_srcdir:-.}/tests/init.sh"

command -v setfacl >/dev/null && command -v getfacl >/dev/null \
  || skip_ "setfacl and getfacl are missing (apt-get install acl)"
echo data >f || framework_failure_ "cannot write f"
setfacl -m u:nobody:rw f 2>/dev/null || skip_ "no ACLs on this filesystem"
mkdir d && setfacl -m u:nobody:rx -d -m u:nobody:r d \
  || framework_failure_ "cannot set the ACLs of d"

acls () { getfacl -c -p "$1" 2>/dev/null | grep -v '^#'; }

sparsecp -p f f.p || fail_ "sparsecp -p failed"
test "$(acls f.p)" = "$(acls f)" || fail_ "-p did not keep the ACL of f"
sparsecp -a d d.a || fail_ "sparsecp -a failed"
test "$(acls d.a)" = "$(acls d)" \
  || fail_ "-a did not keep the access and default ACLs of d"
sparsecp f f.plain || fail_ "sparsecp failed"
acls f.plain | grep nobody >/dev/null && fail_ "a copy without -p has the ACL"

Exit $fail
