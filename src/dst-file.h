/* The regular file a copy writes, from its open to its commit, which
   makes it DST only once complete, or its abandon, which leaves an
   earlier DST as it was.  The names and renames are replace.h's.  */

#ifndef SPARSECP_DST_FILE_H
#define SPARSECP_DST_FILE_H

#include "system.h"
#include "copy-file.h"
#include "dst-dir.h"

struct dst_file
{
  int fd;               /* what the copy writes */
  char const *dst;      /* DST as the user named it, for messages */
  bool in_place;        /* a device or FIFO written into, not replaced */
  bool anon;            /* made without a name (O_TMPFILE) till committed */
  char *temp;           /* its temporary name, when it has one */
  char *target;         /* what it replaces or becomes: DST, or the file a
                           symlink DST points to */
  int at_dir;           /* where a new DST is named (a held directory or */
  char const *at_name;  /* AT_FDCWD), and its name there */
  int target_dir;       /* the held directory of a symlink's target, or -1 */
  char proc_name[PROC_FD_NAME_SIZE];
};

/* Open the file a copy to DST, which is as *D says, writes: DST itself
   when it is a device or FIFO, else a new file beside it with MODE less
   the umask.  Return false after reporting why, with nothing to abandon
   and nothing left behind.  */
bool dst_file_open (struct dst_file *f, char const *dst,
                    struct dst_state const *d, mode_t mode);

/* A name through which the open file's attributes can be set: its
   temporary name, or its descriptor's name in /proc.  */
char const *dst_file_attr_name (struct dst_file *f);

/* The copy into F is complete: give it DST's name (linking a new file,
   renaming it over an existing one, never over a file made meanwhile at
   a name found free) and close it.  Return false after reporting why,
   with an earlier DST as it was and nothing left beside it.  F is
   released either way.  */
bool dst_file_commit (struct dst_file *f, struct dst_state const *d);

/* The copy into F failed: close and remove it.  F is released.  */
void dst_file_abandon (struct dst_file *f);

#endif
