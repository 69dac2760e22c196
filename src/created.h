/* The destinations this run has made, by device and inode, so that a
   later copy never writes through a symlink it made, nor replaces the
   copy an earlier operand made (cp keeps the same record).  */

#ifndef SPARSECP_CREATED_H
#define SPARSECP_CREATED_H

#include "system.h"

#include <sys/stat.h>

/* Remember that this run made the file *ST.  */
void created_add (struct stat const *st);

/* Whether this run made the file *ST.  */
bool created_here (struct stat const *st);

#endif
