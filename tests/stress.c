/* stress -- rewrite a file over and over, and check copies of it.

   Usage: stress write FILE SECONDS [mmap]
          stress check FILE
          stress forge FILE GEN DONE [part [INDEX]]

   'write' makes FILE go through generations 1, 2, ... for SECONDS.
   Generation G has its own size and its own pattern of data blocks and
   holes; each data block is stamped with G, its index and a checksum of
   its payload, which depends on G and the index.  A generation is a
   fixed sequence of steps: ftruncate to its size, then each block in
   turn (in order for odd G, backwards for even G) punched to a hole
   (FALLOC_FL_PUNCH_HOLE) or written with pwrite, or, with 'mmap', in
   two generations of three through a shared mapping (see same_layout).

   The states FILE goes through are therefore known: generation G-1
   complete, then the steps of G done one by one.  'check' exits 0 when
   FILE is exactly one of these states (its size, every block and every
   hole), 1 otherwise, saying what is wrong.  A copy that mixes blocks
   from different moments never passes.  The one block a state can have
   half-written is the one the writer is at (see is_part_written): 'check'
   says so on standard output.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <linux/falloc.h>

enum { BLOCK = 4096, MIN_BLOCKS = 8, MAX_BLOCKS = 72 };
#define MAGIC UINT64_C (0x73706172736563f0)

struct header
{
  uint64_t magic;
  uint64_t gen;
  uint64_t index;
  uint64_t sum;      /* of the payload after the header */
};

static char const *file;

static void
die (char const *what)
{
  fprintf (stderr, "stress: %s %s: %s\n", what, file, strerror (errno));
  exit (99);
}

/* A well-mixed 64-bit function of A and B (splitmix64's finaliser).  */
static uint64_t
mix (uint64_t a, uint64_t b)
{
  uint64_t z = a * UINT64_C (0x9e3779b97f4a7c15) + b + 1;
  z = (z ^ (z >> 30)) * UINT64_C (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

/* Generations come in threes: the first has a new size and new holes,
   the other two keep them and only rewrite the data.  Through mmap, the
   second takes a page fault for each block, which updates mtime, and the
   third none: its writes go to pages already dirty and mapped writable,
   and change no timestamp at all.  */
static bool
same_layout (uint64_t gen)
{
  return gen % 3 != 1;
}

/* The generation whose size and holes GEN has.  */
static uint64_t
layout_of (uint64_t gen)
{
  return gen - (gen + 2) % 3;
}

static size_t
gen_blocks (uint64_t gen)
{
  return (MIN_BLOCKS
          + mix (layout_of (gen), UINT64_MAX) % (MAX_BLOCKS - MIN_BLOCKS + 1));
}

/* Whether block I of generation GEN holds data; block 0 always does, so
   a file tells its generation.  */
static bool
is_data (uint64_t gen, size_t i)
{
  return i == 0 || mix (layout_of (gen), i) % 5 < 3;
}

static uint64_t
checksum (unsigned char const *p, size_t n)
{
  uint64_t s = UINT64_C (0xcbf29ce484222325);
  for (size_t i = 0; i < n; i++)
    s = (s ^ p[i]) * UINT64_C (0x100000001b3);
  return s;
}

/* Fill BUF with block I of generation GEN.  */
static void
make_block (unsigned char *buf, uint64_t gen, size_t i)
{
  uint64_t x = mix (gen, i);
  for (size_t k = sizeof (struct header); k < BLOCK; k += 8)
    {
      x = mix (x, k);
      memcpy (buf + k, &x, 8);
    }
  struct header h = { MAGIC, gen, i,
                      checksum (buf + sizeof h, BLOCK - sizeof h) };
  memcpy (buf, &h, sizeof h);
}

/* Block I of generation GEN goes in at step K + 1, for this K.  */
static size_t
gen_block_at (uint64_t gen, size_t k)
{
  size_t n = gen_blocks (gen);
  return gen % 2 ? k : n - 1 - k;
}

static int
writer (char const *seconds, bool use_mmap)
{
  int fd = open (file, O_RDWR | O_CREAT, 0644);
  if (fd < 0)
    die ("cannot open");
  time_t stop = time (NULL) + atoi (seconds);
  unsigned char buf[BLOCK];

  /* One mapping for the whole run, of the largest size: once a page is
     dirty and mapped writable, writing it again takes no page fault and
     so updates no timestamp.  Only blocks inside the file are touched.  */
  unsigned char *map = NULL;
  if (use_mmap)
    {
      map = mmap (NULL, (size_t) MAX_BLOCKS * BLOCK, PROT_READ | PROT_WRITE,
                  MAP_SHARED, fd, 0);
      if (map == MAP_FAILED)
        die ("cannot map");
    }

  for (uint64_t gen = 1; time (NULL) < stop; gen++)
    {
      size_t n = gen_blocks (gen);
      bool keep = same_layout (gen);
      if (!keep && ftruncate (fd, (off_t) n * BLOCK) != 0)
        die ("cannot resize");
      bool by_mmap = map && keep;
      for (size_t k = 0; k < n; k++)
        {
          size_t i = gen_block_at (gen, k);
          if (!is_data (gen, i))
            {
              if (!keep && fallocate (fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                             (off_t) i * BLOCK, BLOCK) != 0)
                die ("cannot punch a hole in");
              continue;
            }
          make_block (buf, gen, i);
          if (by_mmap)
            {
              /* Slowly, so that copies overlap these writes.  */
              struct timespec pause = { 0, 50000 };
              memcpy (map + i * BLOCK, buf, BLOCK);
              nanosleep (&pause, NULL);
            }
          else if (pwrite (fd, buf, BLOCK, (off_t) i * BLOCK) != BLOCK)
            die ("cannot write");
        }
      /* Rest a little, up to 2 ms, so that copies can finish between
         generations; after one written through mmap, that is the moment
         when only --verify can tell that the copy is torn.  */
      struct timespec rest = { 0, mix (gen, 7) % 2000000 };
      nanosleep (&rest, NULL);
    }
  if (map && munmap (map, (size_t) MAX_BLOCKS * BLOCK) != 0)
    die ("cannot unmap");
  if (close (fd) != 0)
    die ("cannot close");
  return 0;
}

/* Block I of the file as generation GEN leaves it (zeros past its end;
   generation 0 is the empty file the writer starts from).  */
static void
gen_block (unsigned char *buf, uint64_t gen, size_t i)
{
  if (gen > 0 && i < gen_blocks (gen) && is_data (gen, i))
    make_block (buf, gen, i);
  else
    memset (buf, 0, BLOCK);
}

static unsigned char copy[MAX_BLOCKS][BLOCK];

/* Whether GOT is block I part-written: each byte as generation GEN
   leaves it or as GEN - 1 did.  A store into a page, by memcpy through
   the mapping or by pwrite's copy from user space, is not atomic for a
   reader: a writer stopped in the middle of one (preempted, or waiting
   in a page fault) leaves the file in such a state for as long as it is
   stopped, and a copy, or --verify's reading again, can see it.  */
static bool
is_part_written (unsigned char const *got, uint64_t gen, size_t i)
{
  unsigned char new[BLOCK], old[BLOCK];
  gen_block (new, gen, i);
  gen_block (old, gen - 1, i);
  for (size_t k = 0; k < BLOCK; k++)
    if (got[k] != new[k] && got[k] != old[k])
      return false;
  return true;
}

/* The block found part-written by is_state_of, or SIZE_MAX.  */
static size_t part_written = SIZE_MAX;

/* Whether the N blocks in COPY are a state of the writer part way
   through generation GEN: some first steps done, the others not, and
   the step between them, if any, done part way.  */
static bool
is_state_of (uint64_t gen, size_t n)
{
  if (n != gen_blocks (gen))
    return false;
  unsigned char want[BLOCK];
  /* The steps whose block is as GEN makes it, from the first on...  */
  size_t done = 0;
  while (done < n)
    {
      gen_block (want, gen, gen_block_at (gen, done));
      if (memcmp (copy[gen_block_at (gen, done)], want, BLOCK) != 0)
        break;
      done++;
    }
  /* ...and those whose block is still as GEN - 1 left it, to the last.  */
  size_t todo = n;
  while (todo > 0)
    {
      size_t i = gen_block_at (gen, todo - 1);
      gen_block (want, gen - 1, i);
      if (memcmp (copy[i], want, BLOCK) != 0)
        break;
      todo--;
    }
  if (todo == done + 1
      && is_part_written (copy[gen_block_at (gen, done)], gen,
                          gen_block_at (gen, done)))
    {
      part_written = gen_block_at (gen, done);
      return true;
    }
  return todo <= done;
}

static int
checker (void)
{
  int fd = open (file, O_RDONLY);
  if (fd < 0)
    die ("cannot open");
  off_t size = lseek (fd, 0, SEEK_END);
  if (size == 0)
    return 0;                   /* the writer's first state */
  if (size < 0 || size % BLOCK || size / BLOCK > MAX_BLOCKS)
    {
      fprintf (stderr, "stress: %s has an impossible size %jd\n", file,
               (intmax_t) size);
      return 1;
    }
  size_t n = size / BLOCK;
  uint64_t newest = 0;
  for (size_t i = 0; i < n; i++)
    {
      if (pread (fd, copy[i], BLOCK, (off_t) i * BLOCK) != BLOCK)
        die ("cannot read");
      struct header h;
      memcpy (&h, copy[i], sizeof h);
      if (h.magic == MAGIC && h.gen > newest)
        newest = h.gen;
    }
  close (fd);

  /* The newest stamp is from the generation being written, or from the
     last one complete, with the next one only resized so far.  */
  if (is_state_of (newest, n) || is_state_of (newest + 1, n))
    {
      if (part_written != SIZE_MAX)
        printf ("stress: %s is a state of the source with block %zu"
                " part-written\n", file, part_written);
      return 0;
    }
  fprintf (stderr, "stress: %s is no state of the source: %zu blocks,"
           " newest stamp %" PRIu64 "\n", file, n, newest);
  return 1;
}

/* Write FILE as the state of generation GEN with its first DONE steps
   done and, when PART is set, step DONE's block (at index AT, or at its
   own index when AT is SIZE_MAX) half as GEN makes it, half as GEN - 1
   left it: the states tests/stress-check.sh shows 'check' right and
   wrong ones of.  */
static int
forge (uint64_t gen, size_t done, bool part, size_t at)
{
  size_t n = gen_blocks (gen);
  unsigned char buf[BLOCK], old[BLOCK];
  FILE *f = fopen (file, "w");
  if (!f || gen == 0 || done >= n)
    die ("cannot forge");
  for (size_t i = 0; i < n; i++)
    {
      size_t k = 0;
      while (gen_block_at (gen, k) != i)
        k++;
      gen_block (buf, k < done ? gen : gen - 1, i);
      if (part && i == (at == SIZE_MAX ? gen_block_at (gen, done) : at))
        {
          gen_block (buf, gen, i);
          gen_block (old, gen - 1, i);
          memcpy (buf + BLOCK / 2, old + BLOCK / 2, BLOCK / 2);
        }
      if (fwrite (buf, BLOCK, 1, f) != 1)
        die ("cannot write");
    }
  if (fclose (f) != 0)
    die ("cannot close");
  return 0;
}

int
main (int argc, char **argv)
{
  if ((argc == 4 || (argc == 5 && strcmp (argv[4], "mmap") == 0))
      && strcmp (argv[1], "write") == 0)
    {
      file = argv[2];
      return writer (argv[3], argc == 5);
    }
  if (argc == 3 && strcmp (argv[1], "check") == 0)
    {
      file = argv[2];
      return checker ();
    }
  if ((argc == 5 || argc == 6 || argc == 7) && strcmp (argv[1], "forge") == 0)
    {
      file = argv[2];
      return forge (strtoull (argv[3], NULL, 10), strtoul (argv[4], NULL, 10),
                    argc >= 6, argc == 7 ? strtoul (argv[6], NULL, 10) : SIZE_MAX);
    }
  fprintf (stderr, "usage: stress write FILE SECONDS [mmap] | stress check FILE\n"
           "       | stress forge FILE GEN DONE [part [INDEX]]\n");
  return 99;
}
