#!/bin/sh
# debian/changelog's newest version is the one configure.ac gives the
# program: a package must not install 0.2 under the name 0.1.
. "${abs_top_srcdir:-.}/tests/init.sh"

changelog=$abs_top_srcdir/debian/changelog
test -r "$changelog" || skip_ "no debian/changelog in this tree"

program=$(sparsecp --version | sed -n '1s/^sparsecp (sparsecp) //p')
package=$(sed -n '1s/^sparsecp (\([^)]*\)) .*/\1/p' "$changelog")
test -n "$program" || fail_ "cannot read the version from sparsecp --version"
test -n "$package" || fail_ "cannot read the version from debian/changelog"
# A native package: its version is the program's, nothing appended.
test "$package" = "$program" ||
  fail_ "debian/changelog says $package, configure.ac says $program"

Exit $fail
