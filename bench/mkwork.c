/* mkwork -- write the files make bench copies, fast.

   Usage: mkwork scatter FILE SIZE DATA PIECE SEED
            FILE of SIZE bytes, all hole but DATA bytes of data written in
            PIECE-sized pieces at random PIECE-aligned offsets
          mkwork stripes FILE COUNT DATA HOLE
            COUNT times DATA bytes of data then a HOLE-byte hole
          mkwork writes FILE COUNT DATA HOLE
            the same layout written from one buffer filled once: the
            writes any copy of a stripes file must make, and nothing else
          mkwork copy SRC FILE COUNT DATA HOLE
            FILE as a copy of SRC, a stripes file of that layout, each
            stripe's data copied with copy_file_range, no hole read: the
            work of a copier told the layout
          mkwork mapcopy SRC FILE COUNT DATA HOLE
            the same copy after mapping SRC with FIEMAP (FIEMAP_FLAG_SYNC,
            4096 extents a call, as sparsecp's window): the work of a
            copier that must find the layout, and nothing else
          mkwork dense FILE SIZE SEED
            SIZE bytes of data, no hole
          mkwork tree DIR COUNT SIZE SEED
            COUNT files of SIZE bytes under DIR, 100 to a subdirectory
          mkwork rootfs DIR SEED
            a stand-in for a Debian 12 minbase root filesystem (debootstrap:
            some 7,000 entries, 283 MB): 700 directories in a random tree,
            5,540 files whose sizes are drawn as a root filesystem's
            (45% under 4 KiB, 30% to 16 KiB, 15% to 64 KiB, 7% to 256
            KiB, 2.5% to 1 MiB, 0.5% to 6 MiB; about 300 MB), 700 symlinks,
            30 hard links, a FIFO and, as root, 8 device nodes
   Sizes take a K, M, G or T suffix (powers of 1024).  FILE is created
   anew.  Data is pseudo-random from SEED, so the same arguments make the
   same bytes and no block of it is all zeros.  Nothing is synced: the
   caller runs sync(1) when it wants the data on disk.  */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fiemap.h>
#include <linux/fs.h>

static char const *target;

static _Noreturn void
die (char const *what)
{
  fprintf (stderr, "mkwork: cannot %s %s: %s\n", what, target,
           strerror (errno));
  exit (99);
}

static _Noreturn void
usage (void)
{
  fputs ("usage: mkwork scatter FILE SIZE DATA PIECE SEED\n"
         "       mkwork stripes FILE COUNT DATA HOLE\n"
         "       mkwork writes FILE COUNT DATA HOLE\n"
         "       mkwork copy SRC FILE COUNT DATA HOLE\n"
         "       mkwork mapcopy SRC FILE COUNT DATA HOLE\n"
         "       mkwork dense FILE SIZE SEED\n"
         "       mkwork tree DIR COUNT SIZE SEED\n"
         "       mkwork rootfs DIR SEED\n", stderr);
  exit (99);
}

static uint64_t
parse_size (char const *s)
{
  char *end;
  errno = 0;
  uint64_t v = strtoull (s, &end, 10);
  int shift = 0;
  switch (*end)
    {
    case 'K': shift = 10; end++; break;
    case 'M': shift = 20; end++; break;
    case 'G': shift = 30; end++; break;
    case 'T': shift = 40; end++; break;
    }
  if (errno || end == s || *end || *s == '-' || (v << shift) >> shift != v)
    {
      fprintf (stderr, "mkwork: bad size '%s'\n", s);
      exit (99);
    }
  return v << shift;
}

/* xorshift64*: fast, and good enough that no 4 KiB block comes out
   zero.  */
static uint64_t rng_state;

static uint64_t
rng_next (void)
{
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1DULL;
}

static void
rng_seed (uint64_t seed)
{
  rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;
}

static void
fill_random (char *buf, size_t n)
{
  for (size_t i = 0; i + 8 <= n; i += 8)
    {
      uint64_t v = rng_next () | 1;   /* never a zero word */
      memcpy (buf + i, &v, 8);
    }
  for (size_t i = n & ~(size_t) 7; i < n; i++)
    buf[i] = 0x5a;
}

static int
create (char const *name)
{
  target = name;
  if (unlink (name) != 0 && errno != ENOENT)
    die ("remove");
  int fd = open (name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    die ("create");
  return fd;
}

static void
write_at (int fd, char const *buf, size_t n, off_t pos)
{
  while (n)
    {
      ssize_t w = pwrite (fd, buf, n, pos);
      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        die ("write");
      buf += w, n -= w, pos += w;
    }
}

static void
finish (int fd, uint64_t size)
{
  if (ftruncate (fd, size) != 0)
    die ("set the size of");
  if (close (fd) != 0)
    die ("close");
}

static char *
xmalloc (size_t n)
{
  char *p = malloc (n ? n : 1);
  if (!p)
    {
      fputs ("mkwork: out of memory\n", stderr);
      exit (99);
    }
  return p;
}

/* Pieces at random slots: choose DATA / PIECE distinct slots out of
   SIZE / PIECE with a bitmap, then write them in file order.  */
static void
make_scatter (char const *name, uint64_t size, uint64_t data,
              uint64_t piece, uint64_t seed)
{
  if (piece == 0 || size / piece == 0 || data / piece > size / piece)
    {
      fputs ("mkwork: scatter needs 0 < PIECE <= DATA <= SIZE\n", stderr);
      exit (99);
    }
  uint64_t slots = size / piece, want = data / piece;
  unsigned char *used = calloc (slots / 8 + 1, 1);
  char *buf = xmalloc (piece);
  if (!used)
    die ("allocate a bitmap for");
  rng_seed (seed);
  for (uint64_t got = 0; got < want; )
    {
      uint64_t s = rng_next () % slots;
      if (!(used[s / 8] & (1 << (s % 8))))
        {
          used[s / 8] |= 1 << (s % 8);
          got++;
        }
    }
  int fd = create (name);
  for (uint64_t s = 0; s < slots; s++)
    if (used[s / 8] & (1 << (s % 8)))
      {
        fill_random (buf, piece);
        write_at (fd, buf, piece, s * piece);
      }
  finish (fd, size);
  free (buf);
  free (used);
}

/* With REFILL false every stripe holds the same bytes, so that timing
   it times the writes alone (make bench's floor for W2).  */
static void
make_stripes (char const *name, uint64_t count, uint64_t data,
              uint64_t hole, bool refill)
{
  char *buf = xmalloc (data);
  int fd = create (name);
  rng_seed (count);
  fill_random (buf, data);
  for (uint64_t i = 0; i < count; i++)
    {
      if (refill && i > 0)
        fill_random (buf, data);
      write_at (fd, buf, data, i * (data + hole));
    }
  finish (fd, count * (data + hole));
  free (buf);
}

/* The floor of a copy of a stripes file (make bench's second floor for
   W2 and W10): its data copied from SRC to the same offsets, with
   nothing spent on finding where the data is.  One copy_file_range a
   stripe, the fewest system calls that read no hole: the bench gives
   every copy the source as written, its holes not cached, and reading
   them with the data (one pread per 256 KiB, as this floor once did)
   makes the kernel fill a page of zeros for each.  */
static void
copy_stripes (char const *src, char const *name, uint64_t count,
              uint64_t data, uint64_t hole)
{
  uint64_t stripe = data + hole;
  target = src;
  int in = open (src, O_RDONLY | O_CLOEXEC);
  if (in < 0)
    die ("open");
  int fd = create (name);
  for (uint64_t i = 0; i < count; i++)
    {
      off_t from = i * stripe, to = from;
      for (uint64_t left = data; left > 0; )
        {
          ssize_t r = copy_file_range (in, &from, fd, &to, left, 0);
          if (r < 0 && errno == EINTR)
            continue;
          if (r <= 0)
            {
              if (r == 0)
                errno = EIO;    /* shorter than its layout */
              /* Either file may be the one that failed (a full disk
                 is the copy's): name both.  */
              fprintf (stderr, "mkwork: cannot copy %s to %s: %s\n", src,
                       name, strerror (errno));
              exit (99);
            }
          left -= r;
        }
    }
  close (in);
  finish (fd, count * stripe);
}

/* Map all of SRC with FIEMAP as a copier must before it knows the
   layout; the extents found are only counted, and must be COUNT.  */
static void
map_stripes (char const *src, uint64_t count)
{
  enum { BATCH = 4096 };
  struct fiemap *fm = (struct fiemap *) xmalloc (sizeof *fm
                                                + BATCH * sizeof (struct fiemap_extent));
  target = src;
  int fd = open (src, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    die ("open");
  uint64_t found = 0, start = 0;
  for (bool last = false; !last; )
    {
      memset (fm, 0, sizeof *fm);
      fm->fm_start = start;
      fm->fm_length = FIEMAP_MAX_OFFSET - start;
      fm->fm_flags = FIEMAP_FLAG_SYNC;
      fm->fm_extent_count = BATCH;
      if (ioctl (fd, FS_IOC_FIEMAP, fm) != 0)
        die ("map");
      if (fm->fm_mapped_extents == 0)
        break;
      struct fiemap_extent const *e
        = &fm->fm_extents[fm->fm_mapped_extents - 1];
      last = e->fe_flags & FIEMAP_EXTENT_LAST;
      start = e->fe_logical + e->fe_length;
      found += fm->fm_mapped_extents;
    }
  /* ext4 merges nothing here: each stripe's data is its own extent.  */
  if (found != count)
    {
      errno = EPROTO;
      die ("map as many extents as stripes in");
    }
  close (fd);
  free (fm);
}

static void
make_dense (char const *name, uint64_t size, uint64_t seed)
{
  enum { CHUNK = 1 << 20 };
  char *buf = xmalloc (CHUNK);
  int fd = create (name);
  rng_seed (seed);
  for (uint64_t pos = 0; pos < size; pos += CHUNK)
    {
      size_t n = size - pos < CHUNK ? size - pos : CHUNK;
      fill_random (buf, n);
      write_at (fd, buf, n, pos);
    }
  finish (fd, size);
  free (buf);
}

static void
make_tree (char const *dir, uint64_t count, uint64_t size, uint64_t seed)
{
  char *buf = xmalloc (size);
  size_t len = strlen (dir) + 64;
  char *name = xmalloc (len);
  target = dir;
  if (mkdir (dir, 0755) != 0 && errno != EEXIST)
    die ("create directory");
  rng_seed (seed);
  for (uint64_t i = 0; i < count; i++)
    {
      if (i % 100 == 0)
        {
          snprintf (name, len, "%s/d%04" PRIu64, dir, i / 100);
          target = name;
          if (mkdir (name, 0755) != 0 && errno != EEXIST)
            die ("create directory");
        }
      snprintf (name, len, "%s/d%04" PRIu64 "/f%06" PRIu64, dir, i / 100, i);
      fill_random (buf, size);
      int fd = create (name);
      write_at (fd, buf, size, 0);
      finish (fd, size);
    }
  free (name);
  free (buf);
}

/* A size drawn as the sizes of a root filesystem's files are.  */
static uint64_t
rootfs_size (void)
{
  static struct { unsigned pct; uint64_t lo, hi; } const classes[] = {
    { 450, 0, 4 << 10 }, { 300, 4 << 10, 16 << 10 },
    { 150, 16 << 10, 64 << 10 }, { 70, 64 << 10, 256 << 10 },
    { 25, 256 << 10, 1 << 20 }, { 5, 1 << 20, 6 << 20 } };
  unsigned r = rng_next () % 1000;
  for (size_t i = 0; i < sizeof classes / sizeof *classes; i++)
    {
      if (r < classes[i].pct)
        return classes[i].lo + rng_next () % (classes[i].hi - classes[i].lo);
      r -= classes[i].pct;
    }
  return 0;
}

static void
make_rootfs (char const *dir, uint64_t seed)
{
  enum { DIRS = 700, FILES = 5540, SYMLINKS = 700, HARDLINKS = 30,
         DEVICES = 8 };
  size_t len = strlen (dir) + 32;
  char **dirs = (char **) xmalloc (DIRS * sizeof *dirs);
  char **files = (char **) xmalloc (FILES * sizeof *files);
  char *buf = xmalloc (6 << 20);
  char *name = xmalloc (len + 4 * DIRS);
  rng_seed (seed);
  target = dir;
  if (mkdir (dir, 0755) != 0)
    die ("create directory");
  dirs[0] = strdup (dir);
  for (size_t i = 1; i < DIRS; i++)
    {
      /* Under a random earlier directory: a tree some levels deep.  */
      char const *parent = dirs[rng_next () % i];
      dirs[i] = xmalloc (strlen (parent) + 16);
      sprintf (dirs[i], "%s/d%zu", parent, i);
      target = dirs[i];
      if (mkdir (dirs[i], 0755) != 0)
        die ("create directory");
    }
  for (size_t i = 0; i < FILES; i++)
    {
      char const *d = dirs[rng_next () % DIRS];
      files[i] = xmalloc (strlen (d) + 16);
      sprintf (files[i], "%s/f%zu", d, i);
      uint64_t size = rootfs_size ();
      fill_random (buf, size);
      int fd = create (files[i]);
      write_at (fd, buf, size, 0);
      if (rng_next () % 10 == 0 && fchmod (fd, 0755) != 0)
        die ("chmod");
      finish (fd, size);
    }
  for (size_t i = 0; i < SYMLINKS; i++)
    {
      char const *to = files[rng_next () % FILES];
      sprintf (name, "%s/l%zu", dirs[rng_next () % DIRS], i);
      target = name;
      if (symlink (to + strlen (dir) + 1, name) != 0)
        die ("create symlink");
    }
  for (size_t i = 0; i < HARDLINKS; i++)
    {
      sprintf (name, "%s/h%zu", dirs[rng_next () % DIRS], i);
      target = name;
      if (link (files[rng_next () % FILES], name) != 0)
        die ("create hard link");
    }
  sprintf (name, "%s/fifo", dir);
  target = name;
  if (mkfifo (name, 0600) != 0)
    die ("create FIFO");
  for (size_t i = 0; geteuid () == 0 && i < DEVICES; i++)
    {
      sprintf (name, "%s/dev%zu", dir, i);
      target = name;
      if (mknod (name, S_IFCHR | 0666, makedev (1, 3 + i)) != 0)
        die ("create device");
    }
  free (name);
  free (buf);
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    usage ();
  char const *cmd = argv[1];
  if (!strcmp (cmd, "scatter") && argc == 7)
    make_scatter (argv[2], parse_size (argv[3]), parse_size (argv[4]),
                  parse_size (argv[5]), parse_size (argv[6]));
  else if ((!strcmp (cmd, "stripes") || !strcmp (cmd, "writes"))
           && argc == 6)
    make_stripes (argv[2], parse_size (argv[3]), parse_size (argv[4]),
                  parse_size (argv[5]), !strcmp (cmd, "stripes"));
  else if ((!strcmp (cmd, "copy") || !strcmp (cmd, "mapcopy")) && argc == 7)
    {
      if (!strcmp (cmd, "mapcopy"))
        map_stripes (argv[2], parse_size (argv[4]));
      copy_stripes (argv[2], argv[3], parse_size (argv[4]),
                    parse_size (argv[5]), parse_size (argv[6]));
    }
  else if (!strcmp (cmd, "dense") && argc == 5)
    make_dense (argv[2], parse_size (argv[3]), parse_size (argv[4]));
  else if (!strcmp (cmd, "rootfs") && argc == 4)
    make_rootfs (argv[2], parse_size (argv[3]));
  else if (!strcmp (cmd, "tree") && argc == 6)
    make_tree (argv[2], parse_size (argv[3]), parse_size (argv[4]),
               parse_size (argv[5]));
  else
    usage ();
  return 0;
}
