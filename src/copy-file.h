/* Copying one file's data: map, plan and copy, into a temporary file
   that replaces the destination only once it is complete.  */

#ifndef SPARSECP_COPY_FILE_H
#define SPARSECP_COPY_FILE_H

#include "copy-options.h"

#include <sys/stat.h>

/* What the caller found at the destination, which is not a directory
   and not the source.  */
struct dst_state
{
  char const *path;   /* where to reach DST: its name, or a name through
                         the directory that holds it (dst-dir.h) */
  int dirfd;          /* that directory, and DST's name in it, for the */
  char const *entry;  /* *at calls: or AT_FDCWD and PATH */
  bool exists;
  bool absent;        /* nothing had its name when looked for, or it
                         was not looked for, as in a directory the copy
                         has just made: a file made there meanwhile is
                         not replaced */
  bool is_link;       /* a symlink, written through as cp does */
  bool as_new;        /* give it a new file's attributes, not its own */
  bool replace;       /* replace it even if it is a device or FIFO,
                         rather than write into it */
  struct stat st;     /* when it exists: the status of what it names */
  char *backup;       /* -b: the name, relative to DIRFD, that the DST
                         replaced keeps as its backup, or NULL */
  enum backup_type backup_type;
};

/* Copy the contents of SRC, which is not a directory and whose status
   the caller found to be *SRC_ST (following symlinks or not), to DST,
   which is as *D says, and give DST the attributes X preserves.  Return
   true if DST now holds exactly SRC's bytes; otherwise report why (SRC
   replaced by another file since *SRC_ST included), leave any earlier
   DST untouched, and return false.  */
bool copy_file (char const *src, struct stat const *src_st, char const *dst,
                struct dst_state const *d, struct copy_options const *);

#endif
