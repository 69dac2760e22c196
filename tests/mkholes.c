/* mkholes -- make a test file with data, holes and unwritten extents.

   Usage: mkholes FILE SIZE [SPEC]...
   Creates FILE (truncating it) of SIZE bytes, all hole, then applies each
   SPEC in order:
     d:OFF:LEN              write LEN bytes of data at OFF
     z:OFF:LEN              write LEN zero bytes at OFF (allocated zeros)
     u:OFF:LEN              preallocate (fallocate KEEP_SIZE): unwritten
     r:OFF:COUNT:DATA:HOLE  COUNT times: DATA bytes of data, then a hole
                            of HOLE bytes, starting at OFF
   Sizes take a K, M, G or T suffix (powers of 1024).  Data bytes are
   never zero and depend on their offset, so misplaced data shows.
   Nothing is synced: the file is copied with its data still in the page
   cache, as freshly written files are.  */

#include <config.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char const *file;

static void
die (char const *what)
{
  fprintf (stderr, "mkholes: %s %s: %s\n", what, file, strerror (errno));
  exit (99);
}

static int64_t
parse_size (char const *s)
{
  char *end;
  errno = 0;
  int64_t v = strtoll (s, &end, 10);
  int shift = 0;
  switch (*end)
    {
    case 'K': shift = 10; end++; break;
    case 'M': shift = 20; end++; break;
    case 'G': shift = 30; end++; break;
    case 'T': shift = 40; end++; break;
    }
  if (errno || end == s || (*end && *end != ':') || v < 0)
    {
      fprintf (stderr, "mkholes: bad size '%s'\n", s);
      exit (99);
    }
  return v << shift;
}

/* The data byte at offset OFF: never zero.  */
static unsigned char
data_byte (int64_t off)
{
  uint64_t x = (uint64_t) off * 0x9E3779B97F4A7C15u;
  x ^= x >> 29;
  return (x & 0xff) | 1;
}

static void
write_at (int fd, int64_t off, int64_t len, bool zero)
{
  static unsigned char buf[1 << 16];
  while (len > 0)
    {
      size_t n = len < (int64_t) sizeof buf ? len : sizeof buf;
      for (size_t i = 0; i < n; i++)
        buf[i] = zero ? 0 : data_byte (off + i);
      ssize_t w = pwrite (fd, buf, n, off);
      if (w <= 0)
        die ("cannot write");
      off += w;
      len -= w;
    }
}

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: mkholes FILE SIZE [SPEC]...\n");
      return 99;
    }
  file = argv[1];
  int fd = open (file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0 || ftruncate (fd, parse_size (argv[2])) != 0)
    die ("cannot create");

  for (int i = 3; i < argc; i++)
    {
      char kind = argv[i][0];
      int64_t f[4] = { 0 };
      char const *p = argv[i] + 1;
      int nf = 0;
      while (*p == ':' && nf < 4)
        {
          f[nf++] = parse_size (p + 1);
          p = strchr (p + 1, ':');
          if (!p)
            break;
        }
      if ((kind == 'r') != (nf == 4) || nf < 2)
        {
          fprintf (stderr, "mkholes: bad spec '%s'\n", argv[i]);
          return 99;
        }
      switch (kind)
        {
        case 'd':
        case 'z':
          write_at (fd, f[0], f[1], kind == 'z');
          break;
        case 'u':
          if (fallocate (fd, FALLOC_FL_KEEP_SIZE, f[0], f[1]) != 0)
            {
              if (errno == EOPNOTSUPP)
                return 77;
              die ("cannot fallocate");
            }
          break;
        case 'r':
          for (int64_t k = 0, off = f[0]; k < f[1]; k++, off += f[2] + f[3])
            write_at (fd, off, f[2], false);
          break;
        default:
          fprintf (stderr, "mkholes: bad spec '%s'\n", argv[i]);
          return 99;
        }
    }
  if (close (fd) != 0)
    die ("cannot close");
  return 0;
}
