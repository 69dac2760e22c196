/* Backups of the destinations a copy replaces (-b, --backup, -S), made
   only once the new file is complete: the old DST takes a second name
   beside it, the new file is renamed over DST, and that second name then
   becomes the backup's.  A failure at any step leaves DST, and any
   earlier backup, as they were.  */

#ifndef SPARSECP_BACKUP_H
#define SPARSECP_BACKUP_H

#include "system.h"
#include "backupfile.h"
#include "copy-file.h"

/* The name, relative to DIRFD, that ENTRY's backup of TYPE takes now,
   as cp names it.  Free it.  NULL with errno set on failure.  */
char *backup_name (int dirfd, char const *entry, enum backup_type type);

/* Rename TEMP over DST, which exists and is as *D says, and make what
   DST was its backup d->backup (relative to d->dirfd), replacing an
   earlier simple backup, never a numbered one that appeared meanwhile
   (the next number is taken).  Return false after reporting why, with
   DST and every backup as they were and TEMP, if still there, for
   temp_discard.  */
bool backup_commit (char const *temp, struct dst_state const *d,
                    char const *dst);

/* Whether SRC, status *ST, is the simple backup of DST, reached as AT:
   backing DST up would replace SRC itself (cp refuses).  */
bool backup_is_source (char const *src, struct stat const *st,
                       char const *at);

#endif
