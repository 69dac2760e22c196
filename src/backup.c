/* Backups of the destinations a copy replaces (see backup.h).  */

#include "backup.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replace.h"
#include "dirname.h"
#include "error.h"
#include "ignore-value.h"
#include "quotearg.h"
#include "same-inode.h"
#include "xalloc.h"

char *
backup_name (int dirfd, char const *entry, enum backup_type type)
{
  return find_backup_file_name (dirfd, entry, type);
}

bool
backup_is_source (char const *src, struct stat const *st, char const *at)
{
  char const *sbase = last_component (src), *dbase = last_component (at);
  size_t dlen = strlen (dbase), slen = strlen (simple_backup_suffix);
  if (strlen (sbase) != dlen + slen || memcmp (sbase, dbase, dlen) != 0
      || strcmp (sbase + dlen, simple_backup_suffix) != 0)
    return false;
  char *back = xmalloc (strlen (at) + slen + 1);
  strcpy (stpcpy (back, at), simple_backup_suffix);
  struct stat bst;
  bool same = stat (back, &bst) == 0 && SAME_INODE (bst, *st);
  free (back);
  return same;
}

/* temp_node_create's MAKE: a second name for the file named by *OLD,
   itself if it is a symlink.  */
static int
link_old (char const *name, void *old)
{
  return linkat (AT_FDCWD, old, AT_FDCWD, name, 0);
}

/* Give KEEP, a name of DST's old file, the backup's name NAME relative
   to DIRFD, where ENTRY is DST's name.  A simple backup replaces an
   earlier one, as cp's does; a numbered one never does: a backup that
   took the number meanwhile makes the next one taken.  */
static int
rename_to_backup (char const *keep, int dirfd, char const *entry,
                  char const *name, enum backup_type type)
{
  char *next = NULL;
  int r;
  for (int tries = 0; ; tries++)
    {
      char const *to = next ? next : name;
      size_t elen = strlen (entry);
      bool simple = (strncmp (to, entry, elen) == 0
                     && strcmp (to + elen, simple_backup_suffix) == 0);
      r = renameat2 (AT_FDCWD, keep, dirfd, to, simple ? 0 : RENAME_NOREPLACE);
      if (r == 0 || simple || tries == 100)
        break;
      if (errno == EINVAL)
        {
          /* No RENAME_NOREPLACE here: a plain rename, as cp makes it.  */
          r = renameat2 (AT_FDCWD, keep, dirfd, to, 0);
          break;
        }
      if (errno != EEXIST)
        break;
      free (next);
      next = backup_name (dirfd, entry, type);
      if (!next)
        break;
    }
  int e = errno;
  free (next);
  errno = e;
  return r;
}

/* Where a second name cannot be made (a file system without hard
   links): DST is renamed to its backup, then TEMP to DST, and DST back
   on a failure; an earlier simple backup is then lost with it.  */
static bool
commit_by_renames (char const *temp, struct dst_state const *d,
                   char const *dst)
{
  if (renameat2 (d->dirfd, d->entry, d->dirfd, d->backup, 0) != 0)
    {
      error (0, errno, "cannot backup %s", quoteaf (dst));
      return false;
    }
  if (temp_commit (temp, d->path) != 0)
    {
      error (0, errno, "cannot replace %s", quoteaf (dst));
      ignore_value (renameat2 (d->dirfd, d->backup, d->dirfd, d->entry, 0));
      return false;
    }
  return true;
}

bool
backup_commit (char const *temp, struct dst_state const *d, char const *dst)
{
  /* A signal between the steps would leave the old file under a
     temporary name: hold them off till the steps are done.  */
  sigset_t block, old;
  sigemptyset (&block);
  sigaddset (&block, SIGHUP);
  sigaddset (&block, SIGINT);
  sigaddset (&block, SIGPIPE);
  sigaddset (&block, SIGTERM);
  sigprocmask (SIG_BLOCK, &block, &old);

  bool ok = false;
  char *keep = temp_node_create (d->path, link_old, (void *) d->path);
  if (!keep)
    {
      if (errno == ENOENT)
        {
          /* DST went meanwhile: nothing to back up.  */
          ok = temp_commit (temp, d->path) == 0;
          if (!ok)
            error (0, errno, "cannot replace %s", quoteaf (dst));
        }
      else if (errno == EPERM || errno == EOPNOTSUPP || errno == EMLINK)
        ok = commit_by_renames (temp, d, dst);
      else
        error (0, errno, "cannot backup %s", quoteaf (dst));
    }
  else if (temp_commit (temp, d->path) != 0)
    {
      error (0, errno, "cannot replace %s", quoteaf (dst));
      temp_discard (keep);
    }
  else if (rename_to_backup (keep, d->dirfd, d->entry, d->backup,
                             d->backup_type) != 0)
    {
      error (0, errno, "cannot backup %s", quoteaf (dst));
      /* The old file back at DST: the copy is lost, nothing else.  */
      if (rename (keep, d->path) != 0)
        error (0, errno, "its old contents are in %s", quoteaf (keep));
    }
  else
    ok = true;
  free (keep);

  sigprocmask (SIG_SETMASK, &old, NULL);
  return ok;
}
