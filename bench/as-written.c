/* as-written -- leave a file in the page cache as it was just written.

   Usage: as-written FILE

   A file just written has its data in the page cache and none of its
   holes.  The bench gives every tool its source so, whatever ran before:
   - Holes: reading one caches pages of zeros.  cp --sparse=always and
     rsync read every one, and readahead around the data takes some, so
     sparsecp, which reads a small hole it finds cached rather than
     asking SEEK_DATA about it, took a different path depending on which
     tools had run.  Every page wholly inside a hole SEEK_HOLE finds is
     dropped.
   - Data: a cached page nobody touched for a while can be paged out
     behind the bench's back (on the machines it was written on, DAMON
     pages out file pages idle for a minute, 128 MiB a second), and the
     next tool then read part of W10's 4 GiB from the disk, 1.4 GiB in
     one run that took 25.7 s instead of 14.5.  Every data range is read
     back, with readahead off so that no hole comes in with it.

   Without SEEK_HOLE the whole file is data.  */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char const *name;

static _Noreturn void
trouble (char const *what)
{
  fprintf (stderr, "as-written: cannot %s %s: %s\n", what, name,
           strerror (errno));
  _exit (2);
}

/* The next data range at or after POS in FD, of SIZE bytes: its start
   in *DATA and its end in *END.  False when none is left.  */
static int
next_data (int fd, off_t pos, off_t size, off_t *data, off_t *end)
{
  if (size <= pos)
    return 0;
  off_t d = lseek (fd, pos, SEEK_DATA);
  if (d < 0 && errno == ENXIO)
    return 0;
  if (d < 0 && errno == EINVAL)
    d = pos;
  else if (d < 0)
    trouble ("seek data in");
  off_t h = lseek (fd, d, SEEK_HOLE);
  if (h < 0 && errno != EINVAL)
    trouble ("seek a hole in");
  *data = d;
  *end = h < 0 || size < h ? size : h;
  return 1;
}

/* Drop the pages wholly inside [FROM, TO) of FD from the cache; the
   pages the data shares with the hole stay.  */
static void
drop (int fd, off_t from, off_t to, off_t size, off_t page)
{
  off_t first = (from + page - 1) / page * page;
  off_t last = to == size ? to : to / page * page;
  if (first < last
      && (errno = posix_fadvise (fd, first, last - first,
                                 POSIX_FADV_DONTNEED)) != 0)
    trouble ("drop the cached hole of");
}

/* Data ranges whose read-ahead was asked for, read in batches of this
   many, and the buffer they are read into, this large.  */
enum { BATCH = 4096, CHUNK = 1 << 20 };
struct range
{
  off_t start;
  off_t end;
};

/* Read the N ranges of BATCH in FD into BUF, which waits for them and
   marks them used.  */
static void
read_ranges (int fd, struct range const *batch, size_t n, char *buf)
{
  for (size_t i = 0; i < n; i++)
    for (off_t at = batch[i].start; at < batch[i].end; )
      {
        size_t len = (batch[i].end - at < CHUNK
                      ? (size_t) (batch[i].end - at) : CHUNK);
        ssize_t r = pread (fd, buf, len, at);
        if (r < 0 && errno == EINTR)
          continue;
        if (r < 0)
          trouble ("read");
        if (r == 0)
          break;
        at += r;
      }
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fputs ("usage: as-written FILE\n", stderr);
      return 2;
    }
  name = argv[1];
  int fd = open (name, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    trouble ("open");
  off_t size = lseek (fd, 0, SEEK_END);
  if (size < 0)
    trouble ("seek in");
  off_t page = sysconf (_SC_PAGESIZE);
  /* Read what is asked and nothing around it.  */
  if ((errno = posix_fadvise (fd, 0, 0, POSIX_FADV_RANDOM)) != 0)
    trouble ("turn readahead off for");

  /* One walk over the map: drop each hole, ask for the data after it
     to be read ahead, and read a batch of data ranges once their
     read-ahead is asked for, so that the disk has many reads at once
     rather than one page at a time.  */
  char *buf = malloc (CHUNK);
  if (!buf)
    trouble ("allocate a buffer to read");
  static struct range batch[BATCH];
  size_t n = 0;
  off_t pos = 0, data, end;
  while (next_data (fd, pos, size, &data, &end))
    {
      drop (fd, pos, data, size, page);
      if ((errno = posix_fadvise (fd, data, end - data,
                                  POSIX_FADV_WILLNEED)) != 0)
        trouble ("read ahead in");
      batch[n++] = (struct range) { data, end };
      if (n == BATCH)
        {
          read_ranges (fd, batch, n, buf);
          n = 0;
        }
      pos = end;
    }
  drop (fd, pos, size, size, page);
  read_ranges (fd, batch, n, buf);
  free (buf);
  return 0;
}
