/* Preserving owner, SELinux label, mode and ACLs, timestamps and
   extended attributes.  */

#include "preserve.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/xattr.h>

#include "acl.h"
#include "context.h"
#include "error.h"
#include "quote.h"
#include "quotearg.h"
#include "stat-time.h"
#include "xalloc.h"

/* Whether errno E from chown means "not allowed to give that owner",
   which cp leaves unreported when run by an ordinary user.  */
static bool
is_chown_denied (int e)
{
  return e == EPERM || e == EINVAL;
}

static int
change_owner (struct attr_target const *dst, bool is_link, uid_t uid,
              gid_t gid)
{
  if (dst->fd >= 0)
    return fchown (dst->fd, uid, gid);
  return is_link ? lchown (dst->path, uid, gid) : chown (dst->path, uid, gid);
}

/* Give DST the owner and group of *ST.  Set *LOST_ID when that was not
   allowed, so the set-user-ID and set-group-ID bits must go.  */
static bool
preserve_owner (struct attr_target const *dst, struct stat const *st,
                bool *lost_id)
{
  bool is_link = S_ISLNK (st->st_mode);
  if (change_owner (dst, is_link, st->st_uid, st->st_gid) == 0)
    return true;
  if (!is_chown_denied (errno))
    {
      error (0, errno, "failed to preserve ownership for %s",
             quoteaf (dst->name));
      return false;
    }
  /* An ordinary user may still give the copy the source's group.  */
  if (change_owner (dst, is_link, -1, st->st_gid) != 0)
    *lost_id = true;
  return true;
}

/* Whether an extended attribute is left to other options: ACLs come
   with the mode, SELinux labels would need --preserve=context.  */
static bool
is_xattr_skipped (char const *name)
{
  return (strncmp (name, "system.", 7) == 0
          || strcmp (name, "security.selinux") == 0
          || strcmp (name, "security.evm") == 0);
}

/* Whether errno E says the filesystem has no room for extended
   attributes of this kind, which -a does not report.  */
static bool
is_xattr_unsupported (int e)
{
  return e == ENOTSUP || e == EOPNOTSUPP || e == EPERM || e == EACCES;
}

static ssize_t
list_xattrs (char const *src, int src_fd, char *buf, size_t size)
{
  return src_fd >= 0 ? flistxattr (src_fd, buf, size)
                     : listxattr (src, buf, size);
}

static ssize_t
get_xattr (char const *src, int src_fd, char const *name, void *buf,
           size_t size)
{
  return src_fd >= 0 ? fgetxattr (src_fd, name, buf, size)
                     : getxattr (src, name, buf, size);
}

/* Read the whole of a list or value with GET, which returns its size
   when asked with a null buffer.  Return the bytes, with their number in
   *LEN, or NULL with errno set.  */
static char *
read_sized (ssize_t (*get) (void const *, char *, size_t), void const *arg,
            size_t *len)
{
  for (int tries = 0; tries < 3; tries++)
    {
      ssize_t n = get (arg, NULL, 0);
      if (n < 0)
        return NULL;
      char *buf = xmalloc (n + 1);
      ssize_t got = n ? get (arg, buf, n) : 0;
      if (got >= 0)
        {
          *len = got;
          return buf;
        }
      free (buf);
      if (errno != ERANGE)   /* it grew between the two calls */
        return NULL;
    }
  return NULL;
}

struct xattr_source
{
  char const *src;
  int src_fd;
  char const *name;   /* the attribute, when getting a value */
};

static ssize_t
get_list (void const *v, char *buf, size_t size)
{
  struct xattr_source const *s = v;
  return list_xattrs (s->src, s->src_fd, buf, size);
}

static ssize_t
get_value (void const *v, char *buf, size_t size)
{
  struct xattr_source const *s = v;
  return get_xattr (s->src, s->src_fd, s->name, buf, size);
}

/* Copy the extended attributes of SRC to DST.  Without REQUIRED, say
   nothing of those the destination cannot hold.  */
static bool
preserve_xattrs (struct attr_target const *dst, char const *src,
                 int src_fd, bool required)
{
  struct xattr_source s = { src, src_fd, NULL };
  size_t len;
  char *names = read_sized (get_list, &s, &len);
  if (!names)
    {
      if (!required && is_xattr_unsupported (errno))
        return true;
      error (0, errno, "cannot list extended attributes of %s", quoteaf (src));
      return false;
    }

  bool ok = true;
  for (char *name = names; name < names + len; name += strlen (name) + 1)
    {
      if (is_xattr_skipped (name))
        continue;
      s.name = name;
      size_t vlen;
      char *value = read_sized (get_value, &s, &vlen);
      if (!value)
        {
          if (errno == ENODATA)   /* removed since it was listed */
            continue;
          error (0, errno, "cannot read extended attribute %s of %s",
                 quote_n (0, name), quoteaf_n (1, src));
          ok = false;
          continue;
        }
      int r = (dst->fd >= 0 ? fsetxattr (dst->fd, name, value, vlen, 0)
               : setxattr (dst->path, name, value, vlen, 0));
      if (r != 0 && (required || !is_xattr_unsupported (errno)))
        {
          error (0, errno, "setting attribute %s for %s",
                 quote_n (0, name), quoteaf_n (1, dst->name));
          ok = false;
        }
      free (value);
    }
  free (names);
  return ok;
}

/* Give DST, a symlink itself if IS_LINK, the times TS.  These calls
   rather than gnulib's fdutimens: what it adds is for kernels before
   Linux 2.6.26, and it records what works in a variable that workers
   would all write.  */
static int
set_times (struct attr_target const *dst, bool is_link,
           struct timespec const ts[2])
{
  if (is_link)
    return utimensat (AT_FDCWD, dst->path, ts, AT_SYMLINK_NOFOLLOW);
  if (dst->fd >= 0)
    return futimens (dst->fd, ts);
  return utimensat (AT_FDCWD, dst->path, ts, 0);
}

bool
set_attributes (struct attr_target const *dst, char const *src,
                int src_fd, struct stat const *st, mode_t mode,
                struct copy_options const *x)
{
  bool is_link = S_ISLNK (st->st_mode);
  bool lost_id = false;
  bool ok = true;

  if (x->preserve.ownership)
    ok &= preserve_owner (dst, st, &lost_id);
  /* A directory has its label from when it was made.  */
  if (!S_ISDIR (st->st_mode))
    ok &= context_label (dst, src, src_fd, st->st_mode, x);

  /* Symlinks have no mode, and Linux takes no user attributes on them.  */
  if (!is_link)
    {
      if (x->preserve.xattr)
        ok &= preserve_xattrs (dst, src, src_fd, x->require_xattr);
      if (x->preserve.mode)
        {
          /* With its file type, which tells qcopy_acl to copy a
             directory's default ACL too.  */
          mode_t m = st->st_mode;
          if (lost_id)
            m &= ~(mode_t) (S_ISUID | S_ISGID);
          if (qcopy_acl (src, src_fd, dst->path, dst->fd, m) != 0)
            {
              error (0, errno, "preserving permissions for %s",
                     quoteaf (dst->name));
              ok = false;
            }
        }
      else if (mode != (mode_t) -1
               && chmod_or_fchmod (dst->path, dst->fd, mode) != 0)
        {
          error (0, errno, "setting permissions for %s", quoteaf (dst->name));
          ok = false;
        }
    }

  if (x->preserve.timestamps)
    {
      struct timespec ts[2] = { get_stat_atime (st), get_stat_mtime (st) };
      int r = set_times (dst, is_link, ts);
      if (r != 0)
        {
          error (0, errno, "preserving times for %s", quoteaf (dst->name));
          ok = false;
        }
    }
  return ok;
}
