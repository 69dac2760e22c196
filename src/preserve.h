/* Giving a copy the attributes of its source, as cp's --preserve does:
   owner, SELinux label (a directory's is given when it is made),
   extended attributes, mode with ACLs, then timestamps, last so that
   nothing done to the copy moves them again.  */

#ifndef SPARSECP_PRESERVE_H
#define SPARSECP_PRESERVE_H

#include <sys/stat.h>

#include "copy-options.h"

/* A copy whose attributes are being set.  */
struct attr_target
{
  char const *name;   /* its name in messages */
  char const *path;   /* where it is now: a temporary name, or NAME */
  int fd;             /* open on it, or -1 to work by PATH */
};

/* Give DST the attributes of SRC (open as SRC_FD, or -1), whose status is
   *ST, that X preserves.  When X does not preserve the mode, set MODE
   unless it is (mode_t) -1.  Return false after reporting a failure;
   failures cp does not report (ownership as an ordinary user, extended
   attributes that -a asked for only implicitly) are not failures.  */
bool set_attributes (struct attr_target const *dst, char const *src,
                     int src_fd, struct stat const *st, mode_t mode,
                     struct copy_options const *x);

#endif
