/* --parents: a SOURCE copied into DIRECTORY keeps its whole name, and
   the directories that name leads through are made, as cp makes them:
   with their source's mode before the copy (less what a later owner or
   mode would let others do meanwhile) and, once the copy is done, the
   attributes that --preserve asks for.  */

#ifndef SPARSECP_PARENTS_H
#define SPARSECP_PARENTS_H

#include "system.h"
#include "copy-options.h"

#include <sys/stat.h>

/* A leading directory of a copy, to be given its attributes after it.  */
struct parent_dir
{
  struct stat st;           /* its source's, or the mode to restore */
  size_t end;               /* where its name ends in the copy's name */
  bool restore_mode;
  struct parent_dir *next;  /* the one above it */
};

/* Make the missing directories that lead to DST, whose source's name
   begins at DST + SRC_OFFSET, and list in *LIST those whose attributes
   parents_protect must set.  Return false after reporting why, with
   *LIST empty.  */
bool parents_make (char const *dst, size_t src_offset,
                   struct parent_dir **list, struct copy_options const *x);

/* Give the directories of LIST, leading to DST, their attributes, and
   free LIST.  Return false after reporting a failure.  */
bool parents_protect (char const *dst, size_t src_offset,
                      struct parent_dir *list, struct copy_options const *x);

#endif
