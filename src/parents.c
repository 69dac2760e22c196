/* --parents: the leading directories of a copy (see parents.h).  */

#include "parents.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acl.h"
#include "context.h"
#include "dirname.h"
#include "error.h"
#include "quotearg.h"
#include "stat-time.h"
#include "xalloc.h"

/* Make DIR, a missing leading directory whose source is SRC, status
   *ST, as cp does, and note in *P what parents_protect must restore.  */
static bool
make_one (char const *dir, char const *src, struct parent_dir *p,
          struct copy_options const *x)
{
  /* Until its owner and mode are final, others get no more than they
     will have.  */
  mode_t src_mode = p->st.st_mode;
  mode_t omitted = src_mode & (x->preserve.ownership ? S_IRWXG | S_IRWXO
                               : x->preserve.mode ? S_IWGRP | S_IWOTH : 0);
  mode_t mode = (x->default_modes ? 0777 : src_mode) & 07777 & ~omitted;
  if (mkdir (dir, mode & ~x->umask) != 0)
    {
      error (0, errno, "cannot make directory %s", quoteaf (dir));
      return false;
    }
  if (x->verbose)
    printf ("%s -> %s\n", src, dir);
  struct attr_target t = { dir, dir, -1 };
  if (!context_label (&t, src, -1, p->st.st_mode, x))
    return false;

  struct stat st;
  if (lstat (dir, &st) != 0)
    {
      error (0, errno, "failed to get attributes of %s", quoteaf (dir));
      return false;
    }
  if (!x->preserve.mode)
    {
      if (omitted & ~st.st_mode)
        omitted &= ~x->umask;
      if ((omitted & ~st.st_mode) || (st.st_mode & S_IRWXU) != S_IRWXU)
        {
          p->st.st_mode = st.st_mode | omitted;
          p->restore_mode = true;
        }
    }
  /* The copy must be able to go into it.  */
  if ((st.st_mode | S_IRWXU) != st.st_mode
      && chmod (dir, st.st_mode | S_IRWXU) != 0)
    {
      error (0, errno, "setting permissions for %s", quoteaf (dir));
      return false;
    }
  return true;
}

bool
parents_make (char const *dst, size_t src_offset, struct parent_dir **list,
              struct copy_options const *x)
{
  *list = NULL;
  size_t dirlen = dir_len (dst);
  if (dirlen <= src_offset)
    return true;

  char *dir = xstrdup (dst);
  char *src = dir + src_offset;
  struct stat st;
  bool ok = true;
  dir[dirlen] = '\0';
  if (stat (dir, &st) == 0)
    {
      /* All there: cp sets no attributes then, even with -p.  */
      if (!S_ISDIR (st.st_mode))
        {
          error (0, 0, "%s exists but is not a directory", quoteaf (dir));
          ok = false;
        }
      free (dir);
      return ok;
    }
  strcpy (dir, dst);

  char *slash = src;
  while (*slash == '/')
    slash++;
  while (ok && (slash = strchr (slash, '/')))
    {
      *slash = '\0';
      bool missing = stat (dir, &st) != 0;
      if (missing || x->preserve.ownership || x->preserve.mode
          || x->preserve.timestamps)
        {
          struct stat src_st;
          int e = (stat (src, &src_st) != 0 ? errno
                   : S_ISDIR (src_st.st_mode) ? 0 : ENOTDIR);
          if (e)
            {
              error (0, e, "failed to get attributes of %s", quoteaf (src));
              ok = false;
              break;
            }
          struct parent_dir *p = xmalloc (sizeof *p);
          *p = (struct parent_dir) { src_st, slash - dir, false, *list };
          *list = p;
          if (missing)
            ok = make_one (dir, src, p, x);
        }
      if (ok && !missing && !S_ISDIR (st.st_mode))
        {
          error (0, 0, "%s exists but is not a directory", quoteaf (dir));
          ok = false;
        }
      *slash++ = '/';
      while (*slash == '/')
        slash++;
    }
  free (dir);
  if (!ok)
    while (*list)
      {
        struct parent_dir *p = *list;
        *list = p->next;
        free (p);
      }
  return ok;
}

/* Give DIR, a leading directory of a copy whose source is SRC, the
   attributes P keeps, as cp does.  */
static bool
protect_one (char const *dir, char const *src, struct parent_dir const *p,
             struct copy_options const *x)
{
  if (x->preserve.timestamps)
    {
      struct timespec ts[2] = { get_stat_atime (&p->st),
                                get_stat_mtime (&p->st) };
      if (utimensat (AT_FDCWD, dir, ts, 0) != 0)
        {
          error (0, errno, "failed to preserve times for %s", quoteaf (dir));
          return false;
        }
    }
  if (x->preserve.ownership
      && lchown (dir, p->st.st_uid, p->st.st_gid) != 0)
    {
      if (errno != EPERM && errno != EINVAL)
        {
          error (0, errno, "failed to preserve ownership for %s",
                 quoteaf (dir));
          return false;
        }
      /* An ordinary user may still give it the source's group.  */
      if (lchown (dir, -1, p->st.st_gid) != 0)
        errno = 0;
    }
  if (x->preserve.mode)
    {
      if (qcopy_acl (src, -1, dir, -1, p->st.st_mode) != 0)
        {
          error (0, errno, "preserving permissions for %s", quoteaf (dir));
          return false;
        }
    }
  else if (p->restore_mode && chmod (dir, p->st.st_mode) != 0)
    {
      error (0, errno, "failed to preserve permissions for %s",
             quoteaf (dir));
      return false;
    }
  return true;
}

bool
parents_protect (char const *dst, size_t src_offset, struct parent_dir *list,
                 struct copy_options const *x)
{
  char *dir = xstrdup (dst);
  bool ok = true;
  while (list)
    {
      struct parent_dir *p = list;
      list = p->next;
      if (ok)
        {
          dir[p->end] = '\0';
          ok = protect_one (dir, dir + src_offset, p, x);
          dir[p->end] = '/';
        }
      free (p);
    }
  free (dir);
  return ok;
}
