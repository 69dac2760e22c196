/* drop-holes -- leave a file's holes out of the page cache, as written.

   Usage: drop-holes FILE
   A file just written has its data in the page cache and none of its
   holes.  Reading a hole caches pages of zeros: cp --sparse=always and
   rsync read every one, and readahead around the data takes some, so
   after a round of the bench a source had its holes cached or not
   depending on which tools had run, and sparsecp, which reads a small
   hole it finds cached rather than asking SEEK_DATA about it, took a
   different path.  This drops the pages of every hole SEEK_HOLE finds
   (whole pages only), and leaves the data's pages alone.  Without
   SEEK_HOLE it does nothing.  */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static _Noreturn void
trouble (char const *what, char const *name)
{
  fprintf (stderr, "drop-holes: cannot %s %s: %s\n", what, name,
           strerror (errno));
  _exit (2);
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fputs ("usage: drop-holes FILE\n", stderr);
      return 2;
    }
  char const *name = argv[1];
  int fd = open (name, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    trouble ("open", name);
  off_t size = lseek (fd, 0, SEEK_END);
  if (size < 0)
    trouble ("seek in", name);
  off_t page = sysconf (_SC_PAGESIZE);
  off_t pos = 0;
  while (pos < size)
    {
      off_t hole = lseek (fd, pos, SEEK_HOLE);
      if (hole < 0 && (errno == EINVAL || errno == ENXIO))
        break;
      if (hole < 0)
        trouble ("seek a hole in", name);
      if (size <= hole)
        break;
      off_t data = lseek (fd, hole, SEEK_DATA);
      if (data < 0 && errno != ENXIO)
        trouble ("seek data in", name);
      off_t end = data < 0 ? size : data;
      /* The pages wholly inside the hole: the pages the data shares with
         it stay.  */
      off_t first = (hole + page - 1) / page * page;
      off_t last = end == size ? end : end / page * page;
      if (first < last
          && (errno = posix_fadvise (fd, first, last - first,
                                     POSIX_FADV_DONTNEED)) != 0)
        trouble ("drop the cached hole of", name);
      pos = end;
    }
  return 0;
}
