/* The directories of a copy, held open while they are filled.  */

#include "dst-dir.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "xalloc.h"

int
dst_dir_open (char const *name, bool follow)
{
  return open (name, (O_PATH | O_DIRECTORY | O_CLOEXEC
                      | (follow ? 0 : O_NOFOLLOW)));
}

bool
proc_fd_names (void)
{
  static int known = -1;
  if (known < 0)
    known = access ("/proc/self/fd", X_OK) == 0;
  return known;
}

char *
proc_fd_name (char buf[PROC_FD_NAME_SIZE], int fd)
{
  sprintf (buf, "/proc/self/fd/%d", fd);
  return buf;
}

char *
dst_dir_name (int dirfd, char const *entry, char const *fallback)
{
  if (dirfd < 0 || !proc_fd_names ())
    return xstrdup (fallback);
  char *name;
  if (entry ? asprintf (&name, "/proc/self/fd/%d/%s", dirfd, entry) < 0
      : asprintf (&name, "/proc/self/fd/%d", dirfd) < 0)
    xalloc_die ();
  return name;
}
