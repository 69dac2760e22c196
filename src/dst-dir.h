/* The directories of a copy, held open while they are filled, so that
   what is made in them is reached through the directory itself and not
   by a path that another user could change under the copy (a directory
   swapped for a symlink to one outside the destination).  */

#ifndef SPARSECP_DST_DIR_H
#define SPARSECP_DST_DIR_H

#include "system.h"

#include "intprops.h"

/* Open the directory NAME, following a symlink only if FOLLOW.  Return
   a descriptor (O_PATH) for dst_dir_name, or -1 with errno set.  */
int dst_dir_open (char const *name, bool follow);

/* A name for ENTRY in the directory open as DIRFD, or for that directory
   itself when ENTRY is NULL, that the kernel resolves through DIRFD
   whatever has become of the path that opened it.  Without DIRFD (-1),
   or without /proc, a copy of FALLBACK.  Free the result.  */
char *dst_dir_name (int dirfd, char const *entry, char const *fallback);

/* Whether /proc/self/fd names the open files of this process: the names
   dst_dir_name makes work only then (gnulib's openat emulation uses the
   same names).  */
bool proc_fd_names (void);

/* Room for the name proc_fd_name makes.  */
#define PROC_FD_NAME_SIZE (sizeof "/proc/self/fd/" + INT_STRLEN_BOUND (int))

/* Write into BUF the name /proc/self/fd gives descriptor FD; return BUF.  */
char *proc_fd_name (char buf[PROC_FD_NAME_SIZE], int fd);

#endif
