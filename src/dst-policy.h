/* What a copy does with a destination that exists, as cp decides it
   with -n, -u, -i and -f: copy over it, replace it as a new file, skip
   it, or refuse (two names of one file, a directory, a file this run
   made).  */

#ifndef SPARSECP_DST_POLICY_H
#define SPARSECP_DST_POLICY_H

#include "system.h"
#include "copy-options.h"

#include <sys/stat.h>

/* What to do with an existing destination.  */
enum verdict
{
  DO_COPY,
  DO_REPLACE_AS_NEW,    /* -f: as cp, which removes it and starts anew */
  DO_SKIP,
  DO_SKIP_NOT_NEWER,    /* -u: skipped, but its hard links still count */
  DO_FAIL               /* reported */
};

/* Decide, as cp does with -n, -u, -i and -f, whether DST, reached as
   AT, which exists with status *DST_ST, is replaced by SRC, status *ST.
   OPERAND says that SRC was named on the command line: its copy must
   not replace one that an earlier operand made.  */
enum verdict judge_existing (struct copy_options const *x, char const *src,
                             struct stat const *st, char const *dst,
                             char const *at, struct stat const *dst_st,
                             bool operand);

#endif
