/* Making the nodes of a copy that are not regular files (see
   make-node.h).  */

#include "make-node.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "backup.h"
#include "preserve.h"
#include "replace.h"
#include "summary.h"
#include "error.h"
#include "quotearg.h"
#include "same-inode.h"
#include "xalloc.h"

/* Read the target of symlink SRC, whose status is *ST.  */
static char *
read_link (char const *src, struct stat const *st)
{
  size_t size = st->st_size > 0 ? st->st_size + 1 : 256;
  for (;;)
    {
      char *buf = xmalloc (size);
      ssize_t n = readlink (src, buf, size);
      if (n < 0)
        {
          int e = errno;
          free (buf);
          errno = e;
          return NULL;
        }
      if ((size_t) n < size)
        {
          buf[n] = '\0';
          return buf;
        }
      free (buf);
      size = size * 2;   /* it grew since lstat */
    }
}

static int
make_node (char const *name, void *v)
{
  struct node_spec const *n = v;
  if (n->link_to)
    return linkat (AT_FDCWD, n->link_to, AT_FDCWD, name,
                   n->follow ? AT_SYMLINK_FOLLOW : 0);
  if (n->link_target)
    return symlink (n->link_target, name);
  return mknod (name, n->st->st_mode & (S_IFMT | 07777), n->st->st_rdev);
}

bool
make_replacing (struct copy_options const *x, char const *src,
                char const *dst, struct dst_state const *d,
                struct node_spec const *n)
{
  char const *at = d->path;
  bool only_new = d->absent;
  /* A hard link already in place: renaming a link over another link
     to the same file would do nothing and leave the temporary behind.  */
  struct stat a, b;
  if (n->link_to && lstat (at, &a) == 0
      && (n->follow ? stat (n->link_to, &b) : lstat (n->link_to, &b)) == 0
      && SAME_INODE (a, b))
    return true;

  char const *what = (n->link_to ? "hard link"
                      : n->link_target ? "symbolic link"
                      : "special file");
  /* --attributes-only keeps DST's data, so cp removes no DST to make a
     node in its place: its symlink or mknod fails.  */
  if (x->attributes_only && d->exists && !d->as_new)
    {
      error (0, EEXIST, "cannot create %s %s", what, quoteaf (dst));
      return false;
    }
  char *temp = temp_node_create (at, make_node, (void *) n);
  if (!temp)
    {
      error (0, errno, "cannot create %s %s", what, quoteaf (dst));
      return false;
    }
  bool ok = true;
  if (n->to_source)
    {
      /* The symlink's own times, nothing that would follow it.  */
      struct stat lst = *n->st;
      lst.st_mode = S_IFLNK | 0777;
      struct copy_options times_only = *x;
      times_only.preserve.ownership = times_only.preserve.xattr = false;
      struct attr_target t = { dst, temp, -1 };
      ok = set_attributes (&t, src, -1, &lst, (mode_t) -1, &times_only);
    }
  else if (!n->link_to)
    {
      /* cp's default for a socket is 0777, as bind () makes it.  */
      mode_t plain = S_ISSOCK (n->st->st_mode) ? 0777 : 0666;
      mode_t mode = ((x->default_modes ? plain : n->st->st_mode & 07777)
                     & ~x->umask);
      struct attr_target t = { dst, temp, -1 };
      ok = set_attributes (&t, src, -1, n->st, mode, x);
    }
  if (ok && d->backup)
    ok = backup_commit (temp, d, dst);
  else if (ok && (only_new ? temp_commit_new (temp, at)
                           : temp_commit (temp, at)) != 0)
    {
      if (only_new)
        error (0, errno, "cannot create %s %s", what, quoteaf (dst));
      else
        error (0, errno, "cannot replace %s", quoteaf (dst));
      ok = false;
    }
  if (!ok)
    temp_discard (temp);
  free (temp);
  return ok;
}

bool
copy_node (struct copy_options const *x, char const *src, char const *dst,
           struct dst_state const *d, struct node_spec *n)
{
  if (!S_ISLNK (n->st->st_mode))
    {
      bool ok = make_replacing (x, src, dst, d, n);
      if (ok)
        summary_made (SUM_SPECIAL);
      return ok;
    }
  char *target = read_link (src, n->st);
  if (!target)
    {
      error (0, errno, "cannot read symbolic link %s", quoteaf (src));
      return false;
    }
  n->link_target = target;
  bool ok = make_replacing (x, src, dst, d, n);
  n->link_target = NULL;
  free (target);
  if (ok)
    summary_made (SUM_SYMLINK);
  return ok;
}
