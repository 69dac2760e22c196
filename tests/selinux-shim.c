/* selinux-shim -- an LD_PRELOAD shim that lets tests/context.sh run
   sparsecp's SELinux labelling on a kernel without SELinux.

   Without the SELinux module, root can still set and read the
   "security.selinux" extended attribute, which is all libselinux's
   fgetfilecon, fsetfilecon and their kin do.  The shim answers for the
   rest, which needs the module:
     is_selinux_enabled ()    1
     security_check_context   0, or -1 with EINVAL for a context that
                              contains "invalid"
     selabel_open             a handle, or with SHIM_NO_POLICY set NULL
                              with ENOENT, as where no policy is installed
     selabel_lookup           "system_u:object_r:T:s0" with T "etc_t" for
                              a name ending in ".conf", "dir_t" for a
                              directory, else "file_t"; ENOENT for a name
                              containing "unlisted"
   With SHIM_FAIL_SET set, setting "security.selinux" (fsetxattr,
   setxattr, lsetxattr, which libselinux calls) fails with EIO.
   And it checks the promise of context.c: rename, renameat2 and linkat,
   which put a new file in place, find the file labelled, else append
   "unlabelled NEWNAME" to SHIM_LOG.  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#define EXPORT __attribute__ ((visibility ("default")))

struct selabel_handle;

EXPORT int
is_selinux_enabled (void)
{
  return 1;
}

EXPORT int
security_check_context (char const *con)
{
  if (strstr (con, "invalid"))
    {
      errno = EINVAL;
      return -1;
    }
  return 0;
}

static int handle;

EXPORT struct selabel_handle *
selabel_open (unsigned int backend, void const *opts, unsigned int n)
{
  (void) backend, (void) opts, (void) n;
  if (getenv ("SHIM_NO_POLICY"))
    {
      errno = ENOENT;
      return NULL;
    }
  return (struct selabel_handle *) &handle;
}

EXPORT int
selabel_lookup (struct selabel_handle *h, char **con, char const *key,
                int type)
{
  (void) h;
  size_t n = strlen (key);
  if (strstr (key, "unlisted"))
    {
      errno = ENOENT;
      return -1;
    }
  char const *t = (n >= 5 && strcmp (key + n - 5, ".conf") == 0 ? "etc_t"
                   : S_ISDIR (type) ? "dir_t" : "file_t");
  if (asprintf (con, "system_u:object_r:%s:s0", t) < 0)
    return -1;
  return 0;
}

/* Whether setting attribute NAME is to fail.  */
static int
fails (char const *name)
{
  if (getenv ("SHIM_FAIL_SET") && strcmp (name, "security.selinux") == 0)
    {
      errno = EIO;
      return 1;
    }
  return 0;
}

EXPORT int
fsetxattr (int fd, char const *name, void const *value, size_t size,
           int flags)
{
  int (*real) (int, char const *, void const *, size_t, int)
    = dlsym (RTLD_NEXT, "fsetxattr");
  return fails (name) ? -1 : real (fd, name, value, size, flags);
}

EXPORT int
setxattr (char const *path, char const *name, void const *value,
          size_t size, int flags)
{
  int (*real) (char const *, char const *, void const *, size_t, int)
    = dlsym (RTLD_NEXT, "setxattr");
  return fails (name) ? -1 : real (path, name, value, size, flags);
}

EXPORT int
lsetxattr (char const *path, char const *name, void const *value,
           size_t size, int flags)
{
  int (*real) (char const *, char const *, void const *, size_t, int)
    = dlsym (RTLD_NEXT, "lsetxattr");
  return fails (name) ? -1 : real (path, name, value, size, flags);
}

/* Note NEWNAME in SHIM_LOG unless the file about to get it, which
   LABELLED tells, has a label.  */
static void
check (int labelled, char const *newname)
{
  char const *log = getenv ("SHIM_LOG");
  if (labelled || !log)
    return;
  FILE *f = fopen (log, "a");
  if (f)
    {
      fprintf (f, "unlabelled %s\n", newname);
      fclose (f);
    }
}

static int
has_label (char const *name, int follow)
{
  char buf[256];
  return (follow ? getxattr (name, "security.selinux", buf, sizeof buf)
          : lgetxattr (name, "security.selinux", buf, sizeof buf)) > 0;
}

EXPORT int
rename (char const *old, char const *new)
{
  int (*real) (char const *, char const *) = dlsym (RTLD_NEXT, "rename");
  check (has_label (old, 0), new);
  return real (old, new);
}

EXPORT int
renameat2 (int olddir, char const *old, int newdir, char const *new,
           unsigned int flags)
{
  int (*real) (int, char const *, int, char const *, unsigned int)
    = dlsym (RTLD_NEXT, "renameat2");
  char *name;
  if (olddir == AT_FDCWD || old[0] == '/')
    check (has_label (old, 0), new);
  else if (asprintf (&name, "/proc/self/fd/%d/%s", olddir, old) >= 0)
    {
      check (has_label (name, 0), new);
      free (name);
    }
  return real (olddir, old, newdir, new, flags);
}

EXPORT int
linkat (int olddir, char const *old, int newdir, char const *new, int flags)
{
  int (*real) (int, char const *, int, char const *, int)
    = dlsym (RTLD_NEXT, "linkat");
  char buf[256];
  if (flags & AT_EMPTY_PATH)
    check (fgetxattr (olddir, "security.selinux", buf, sizeof buf) > 0, new);
  else
    check (has_label (old, flags & AT_SYMLINK_FOLLOW), new);
  return real (olddir, old, newdir, new, flags);
}
