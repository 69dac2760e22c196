/* Copying one operand: a file, or with -r a whole tree, walked with fts,
   making each kind of file the way cp makes it.  */

#ifndef SPARSECP_COPY_TREE_H
#define SPARSECP_COPY_TREE_H

#include "copy-options.h"

/* Copy SRC to DST as X says.  Return true if everything was copied,
   or skipped as -n, -i or -u asked; otherwise report each failure, go on
   with the rest, and return false.  */
bool copy_operand (char const *src, char const *dst,
                   struct copy_options const *x);

#endif
