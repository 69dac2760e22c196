/* What the filesystem of the current directory can show the unit tests.  */
#include <config.h>

#include "check-probe.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int
probe_temp_file (void)
{
  char name[] = "check-probe.XXXXXX";
  int fd = mkstemp (name);
  if (fd >= 0)
    unlink (name);
  return fd;
}

bool
probe_holes (void)
{
  char buf[4096] = { 'x' };
  int fd = probe_temp_file ();
  if (fd < 0)
    return false;
  bool ok = (pwrite (fd, buf, sizeof buf, 0) == sizeof buf
             && pwrite (fd, buf, sizeof buf, 65536) == sizeof buf
             && ftruncate (fd, 131072) == 0 && fdatasync (fd) == 0
             && lseek (fd, 4096, SEEK_DATA) == 65536);
  close (fd);
  return ok;
}
