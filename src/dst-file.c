/* The regular file a copy writes, from its open to its commit or its
   abandon (see dst-file.h).  */

#include "dst-file.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "backup.h"
#include "replace.h"
#include "canonicalize.h"
#include "dirname.h"
#include "error.h"
#include "ignore-value.h"
#include "quotearg.h"
#include "xalloc.h"

/* Where the bytes for DST, a symlink reached as PATH, really go: the
   file it points to, as cp writes through symlinks.  Return NULL after
   reporting an error.  */
static char *
resolve_target (char const *dst, char const *path)
{
  char *real = realpath (path, NULL);
  if (real || errno != ENOENT)
    {
      if (!real)
        error (0, errno, "cannot resolve %s", quoteaf (dst));
      return real;
    }
  /* POSIX asks cp to create the file a dangling symlink names; cp does
     only then, and GNU cp otherwise refuses as a likely mistake.  */
  if (!getenv ("POSIXLY_CORRECT"))
    {
      error (0, 0, "not writing through dangling symlink %s", quoteaf (dst));
      return NULL;
    }
  real = canonicalize_filename_mode (path, CAN_ALL_BUT_LAST);
  if (!real)
    error (0, errno, "cannot create regular file %s", quoteaf (dst));
  return real;
}

/* Hold open the directory of TARGET, a file reached by following a
   symlink DST, in *DIRFD, and return a name for TARGET through it (see
   dst-dir.h), freeing TARGET: the temporary file and the rename that
   replaces TARGET then happen in one directory, even if its path
   changes meanwhile.  */
static char *
hold_target_dir (char *target, int *dirfd)
{
  char *dir = dir_name (target);
  *dirfd = dst_dir_open (dir, true);
  free (dir);
  if (*dirfd < 0)
    return target;      /* creating the temporary file will say why */
  char *held = dst_dir_name (*dirfd, last_component (target), target);
  free (target);
  return held;
}

/* Free what F holds but its descriptor.  */
static void
release (struct dst_file *f)
{
  if (f->target_dir >= 0)
    close (f->target_dir);
  free (f->target);
  free (f->temp);
  f->target = f->temp = NULL;
  f->target_dir = -1;
}

bool
dst_file_open (struct dst_file *f, char const *dst,
               struct dst_state const *d, mode_t mode)
{
  *f = (struct dst_file) { .fd = -1, .dst = dst, .at_dir = AT_FDCWD,
                           .target_dir = -1 };
  /* A device or FIFO is written into, as cp does, unless it is to be
     replaced.  */
  f->in_place = d->exists && !d->replace && !S_ISREG (d->st.st_mode);
  if (f->in_place)
    {
      f->fd = open (d->path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
      if (f->fd < 0)
        error (0, errno, "cannot open %s for writing", quoteaf (dst));
      return f->fd >= 0;
    }

  f->target = d->is_link ? resolve_target (dst, d->path) : xstrdup (d->path);
  if (f->target && d->is_link)
    f->target = hold_target_dir (f->target, &f->target_dir);
  /* DST below a held directory is reached through it.  An existing DST
     is replaced by the unnamed file too, through a temporary name given
     only once it is complete: a copy killed before then leaves nothing
     beside DST.  */
  f->at_dir = d->is_link ? AT_FDCWD : d->dirfd;
  f->at_name = d->is_link ? f->target : d->entry;
  if (f->target)
    {
      f->fd = anon_file_create (f->at_dir, f->at_name, mode);
      f->anon = f->fd >= 0;
      if (!f->anon)
        f->fd = temp_file_create (f->target, mode, &f->temp);
      if (f->fd < 0)
        error (0, errno, "cannot create regular file %s", quoteaf (dst));
    }
  if (f->fd < 0)
    release (f);
  return f->fd >= 0;
}

char const *
dst_file_attr_name (struct dst_file *f)
{
  return f->anon ? proc_fd_name (f->proc_name, f->fd) : f->temp;
}

/* Close F's descriptor; when OK, report a failure to, and return
   whether it closed without error.  */
static bool
close_dst (struct dst_file *f, bool ok)
{
  if (close (f->fd) != 0 && ok)
    {
      error (0, errno, "failed to close %s", quoteaf (f->dst));
      ok = false;
    }
  f->fd = -1;
  return ok;
}

bool
dst_file_commit (struct dst_file *f, struct dst_state const *d)
{
  bool ok = true;
  bool linked = false;
  if (f->anon)
    {
      /* A DEST that exists is replaced as by a named temporary, which
         now gets its name: renamed over DEST only once closed without
         error, so that a failing close still leaves DEST as it was.
         So is a symlink loop that -f replaces; a file that took a name
         found free is not replaced, as cp's O_EXCL open fails.  */
      if (!d->exists)
        linked = anon_file_link (f->fd, f->at_dir, f->at_name) == 0;
      if (!linked && (d->exists || (errno == EEXIST && !d->absent)))
        f->temp = anon_file_name (f->fd, f->target);
      if (!f->temp && !linked)
        {
          error (0, errno, "cannot create regular file %s", quoteaf (f->dst));
          ok = false;
        }
    }
  if (!close_dst (f, ok) && ok)
    {
      ok = false;
      /* Named already, and not trusted: take back the name it was just
         given (only file systems with a flush method, such as FUSE, can
         fail a close).  */
      if (linked)
        ignore_value (unlinkat (f->at_dir, f->at_name, 0));
    }
  if (f->temp)
    {
      /* Where nothing had the name, nothing is replaced.  */
      if (ok && d->backup)
        ok = backup_commit (f->temp, d, f->dst);
      else if (ok && (d->absent ? temp_commit_new (f->temp, f->target)
                                : temp_commit (f->temp, f->target)) != 0)
        {
          error (0, errno, d->absent ? "cannot create regular file %s"
                                     : "cannot replace %s", quoteaf (f->dst));
          ok = false;
        }
      if (!ok)
        temp_discard (f->temp);
    }
  release (f);
  return ok;
}

void
dst_file_abandon (struct dst_file *f)
{
  close_dst (f, false);
  if (f->temp)
    temp_discard (f->temp);
  release (f);
}
