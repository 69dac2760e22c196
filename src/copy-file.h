/* Copying one file's data: map, plan and copy, into a temporary file
   that replaces the destination only once it is complete.  */

#ifndef SPARSECP_COPY_FILE_H
#define SPARSECP_COPY_FILE_H

#include "copy-options.h"

/* Copy the contents of SRC, which is not a directory, following
   symlinks, to DST, and give DST the attributes X preserves; AS_NEW
   gives a replaced DST the attributes of a new file, not its own.
   Return true if DST now holds exactly SRC's bytes; otherwise report
   why, leave any earlier DST untouched, and return false.  */
bool copy_file (char const *src, char const *dst, bool as_new,
                struct copy_options const *);

#endif
