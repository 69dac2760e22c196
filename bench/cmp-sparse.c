/* cmp-sparse -- cmp for sparse files, without reading shared holes.

   Usage: cmp-sparse FILE1 FILE2
   Exits 0 when both files have the same size and bytes, 1 (saying where)
   when they differ, 2 on trouble.  Reading the hole of an 8 GiB file
   costs tens of seconds here, so ranges that SEEK_DATA says are holes
   in both files are taken as zeros in both; every range that either
   file calls data is read from both and compared, so data missing,
   misplaced or added in one of them is found.  Without SEEK_DATA, it
   reads everything, as cmp does.  */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { CHUNK = 1 << 20 };

struct file
{
  char const *name;
  int fd;
  bool seekable;            /* SEEK_DATA works on it */
  char *buf;
};

static _Noreturn void
trouble (char const *what, char const *name)
{
  fprintf (stderr, "cmp-sparse: cannot %s %s: %s\n", what, name,
           strerror (errno));
  exit (2);
}

/* Where the run of data or hole that holds POS ends, and in *DATA
   whether it is data.  */
static off_t
run_end (struct file *f, off_t pos, off_t size, bool *data)
{
  if (!f->seekable)
    {
      *data = true;
      return size;
    }
  off_t d = lseek (f->fd, pos, SEEK_DATA);
  if (d < 0 && errno != ENXIO)
    trouble ("seek data in", f->name);
  if (d < 0)
    d = size;
  if (d > pos)
    {
      *data = false;
      return d < size ? d : size;
    }
  *data = true;
  off_t h = lseek (f->fd, pos, SEEK_HOLE);
  if (h < 0)
    trouble ("seek a hole in", f->name);
  return h < size ? h : size;
}

static void
read_at (struct file *f, size_t n, off_t pos)
{
  size_t got = 0;
  while (got < n)
    {
      ssize_t r = pread (f->fd, f->buf + got, n - got, pos + got);
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        trouble ("read", f->name);
      if (r == 0)
        {
          fprintf (stderr, "cmp-sparse: %s is shorter than it says\n",
                   f->name);
          exit (2);
        }
      got += r;
    }
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fputs ("usage: cmp-sparse FILE1 FILE2\n", stderr);
      return 2;
    }
  struct file f[2];
  struct stat st[2];
  for (int i = 0; i < 2; i++)
    {
      f[i].name = argv[i + 1];
      f[i].fd = open (f[i].name, O_RDONLY | O_CLOEXEC);
      if (f[i].fd < 0 || fstat (f[i].fd, &st[i]) != 0)
        trouble ("open", f[i].name);
      f[i].seekable = lseek (f[i].fd, 0, SEEK_DATA) >= 0 || errno == ENXIO;
      f[i].buf = aligned_alloc (4096, CHUNK);
      if (!f[i].buf)
        trouble ("allocate a buffer for", f[i].name);
    }
  if (st[0].st_size != st[1].st_size)
    {
      printf ("%s and %s differ: sizes %jd and %jd\n", f[0].name, f[1].name,
              (intmax_t) st[0].st_size, (intmax_t) st[1].st_size);
      return 1;
    }

  off_t size = st[0].st_size, pos = 0;
  while (pos < size)
    {
      bool data0, data1;
      off_t e0 = run_end (&f[0], pos, size, &data0);
      off_t e1 = run_end (&f[1], pos, size, &data1);
      off_t end = e0 < e1 ? e0 : e1;
      if (data0 || data1)
        for (off_t p = pos; p < end; p += CHUNK)
          {
            size_t n = end - p < CHUNK ? end - p : CHUNK;
            read_at (&f[0], n, p);
            read_at (&f[1], n, p);
            if (memcmp (f[0].buf, f[1].buf, n) != 0)
              {
                size_t i = 0;
                while (f[0].buf[i] == f[1].buf[i])
                  i++;
                printf ("%s and %s differ: byte %jd\n", f[0].name,
                        f[1].name, (intmax_t) (p + i + 1));
                return 1;
              }
          }
      pos = end;
    }
  return 0;
}
