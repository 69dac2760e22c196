/* Confirming a FIEMAP map's holes: each hole the copy skips is asked
   about with SEEK_DATA, except small holes between extents that the
   copy reads when mincore () finds a sample of them cached; a window
   with many holes has them asked on a thread of its own while it is
   copied.

   Each hole the copy skips costs one lseek (SEEK_DATA), as much as the
   copy of a small extent: at 50,000 extents of 4 KiB just written,
   16% of the copy's time went to them (hyperfine: 376 ms with them,
   291 without).  Asked on a second thread they cost no time (290 ms),
   and the answer still comes before anything is trusted: a window's
   answer is waited for before the next window is mapped, and the last
   one's before the copy is kept.  */

#include "extent-map.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include "attribute.h"

/* How many small holes small_gaps_cached () looks at.  */
enum { GAP_SAMPLE = 64 };

/* The most of the file one mapping of small_gaps_cached () covers: the
   samples of a dense window share one mapping, not one each.  Address
   space only; nothing in it is touched.  */
enum { GAP_MAP_SPAN = 64 * 1024 * 1024 };
_Static_assert (MAP_READ_GAP_MAX + 64 * 1024 <= GAP_MAP_SPAN,
                "a sampled hole, from its first page, fits one mapping");

/* Whether the small holes between the extents of the window of M, the
   map of FD, are in the page cache, judged by mincore () on up to
   GAP_SAMPLE of them spread over the window: at least half their pages
   resident.  mincore () sees the page cache only of a file the process
   owns or may write; of others it reports nothing resident, and the
   holes are confirmed, which is as safe.  When it cannot tell, the holes
   are read, which finds any data in them too, at the cost of a page of
   zeros for each block not cached.  *JUDGED is set when the answer
   stands for the rest of the file: some hole was sampled, or mincore ()
   cannot tell.  */
static bool
small_gaps_cached (int fd, struct extent_map const *m, bool *judged)
{
  off_t page = sysconf (_SC_PAGESIZE);
  size_t step = m->n / GAP_SAMPLE + 1;
  size_t pages = 0, resident = 0;
  char *base = MAP_FAILED;
  off_t base_at = 0;
  size_t base_len = 0;

  for (size_t i = 1; i < m->n; i += step)
    {
      off_t hole = m->v[i - 1].start + m->v[i - 1].len;
      off_t hole_end = m->v[i].start;
      if (hole == hole_end || MAP_READ_GAP_MAX < hole_end - hole)
        continue;
      /* The pages from the one the hole starts in to its end.  */
      off_t at = hole - hole % page;
      size_t len = hole_end - at;
      if (base == MAP_FAILED || at < base_at
          || base_at + (off_t) base_len < hole_end)
        {
          if (base != MAP_FAILED)
            munmap (base, base_len);
          /* As far as the window's last extent, which no sampled hole
             passes, and so never past the end of the file.  */
          off_t last = m->v[m->n - 1].start;
          base_len = (last - at < GAP_MAP_SPAN ? last - at : GAP_MAP_SPAN);
          base_at = at;
          base = mmap (NULL, base_len, PROT_READ, MAP_SHARED, fd, at);
          if (base == MAP_FAILED)
            return *judged = true;
        }
      unsigned char vec[MAP_READ_GAP_MAX / 4096 + 2];
      if (mincore (base + (at - base_at), len, vec) != 0)
        {
          munmap (base, base_len);
          return *judged = true;
        }
      size_t n = (len + page - 1) / page;
      for (size_t k = 0; k < n; k++)
        resident += vec[k] & 1;
      pages += n;
    }
  if (base != MAP_FAILED)
    munmap (base, base_len);
  *judged = 0 < pages;
  return pages == 0 || pages <= 2 * resident;
}

void
map_judge_gaps (int fd, struct extent_map *m)
{
  /* Once for the file, not for each window: a file of 2,000 extents
     of 4 KiB is mapped in 16 windows, and sampling each made 992
     mincore calls, 2 ms of a 21 ms copy.  A file is cached or not as a
     whole far more often than in parts, and either answer is safe.  */
  if (!m->gaps_judged)
    m->read_gaps = small_gaps_cached (fd, m, &m->gaps_judged);
}

/* Call VISIT (FD, HOLE, HOLE_END, ARG) on each hole of the ended window
   of M, a file of SIZE bytes, that the copy skips, until it returns
   nonzero; return that, or 0.  */
static int
each_asked_hole (int fd, struct extent_map const *m, off_t size,
                 int (*visit) (int, off_t, off_t, void *), void *arg)
{
  off_t hole = m->start;
  for (size_t i = 0; i <= m->n; i++)
    {
      /* The hole after the last extent of a window that another
         follows is the next window's.  */
      if (i == m->n && !m->done)
        break;
      off_t hole_end = i < m->n ? m->v[i].start : size;
      /* A small hole between two extents may be left to the copy, which
         reads it, proving it zero or writing what it holds.  A window
         begins at 0 or where an extent of the one before it ends.  */
      bool read_later = ((0 < i || 0 < m->start) && i < m->n
                         && map_gap_is_read (m, hole_end - hole));
      if (hole < hole_end && !read_later)
        {
          int r = visit (fd, hole, hole_end, arg);
          if (r)
            return r;
        }
      if (i < m->n)
        hole = m->v[i].start + m->v[i].len;
    }
  return 0;
}

static int
count_hole (MAYBE_UNUSED int fd, MAYBE_UNUSED off_t hole,
            MAYBE_UNUSED off_t hole_end, void *arg)
{
  size_t *count = arg;
  ++*count;
  return 0;
}

size_t
map_holes_to_ask (struct extent_map const *m, off_t size)
{
  size_t count = 0;
  each_asked_hole (-1, m, size, count_hole, &count);
  return count;
}

/* What SEEK_DATA says of one hole.  */
enum { HOLE_REAL, HOLE_HOLDS_DATA, HOLE_BLIND, HOLE_NO_DATA_AFTER };

static int
ask_hole (int fd, off_t hole, off_t hole_end, MAYBE_UNUSED void *arg)
{
  off_t data = map_seek_next (fd, hole, SEEK_DATA);
  if (data < 0)
    /* ENXIO: no data from here on, so every hole left is real.  */
    return errno == ENXIO ? HOLE_NO_DATA_AFTER : HOLE_BLIND;
  return data < hole_end ? HOLE_HOLDS_DATA : HOLE_REAL;
}

map_distrust
map_ask_holes (int fd, struct extent_map const *m, off_t size, bool *blind)
{
  int r = each_asked_hole (fd, m, size, ask_hole, NULL);
  *blind = r == HOLE_BLIND;
  return r == HOLE_HOLDS_DATA ? "SEEK_DATA finds data in a hole of the map"
                              : NULL;
}

map_distrust
map_confirm_holes (int fd, struct extent_map *m, off_t size)
{
  map_judge_gaps (fd, m);
  bool blind;
  map_distrust why = map_ask_holes (fd, m, size, &blind);
  /* SEEK_DATA cannot tell: the map stands on its own checks, and on
     the copy reading the small holes.  */
  if (blind)
    m->read_gaps = true;
  return why;
}

/* Fewer holes than this are asked about at once: starting and joining
   a thread costs about as much as a dozen lseek calls.  */
enum { BESIDE_MIN_HOLES = 32 };

static void *
confirm_thread (void *arg)
{
  struct extent_map *m = arg;
  bool blind;
  map_distrust why = map_ask_holes (m->beside.fd, m, m->beside.size, &blind);
  /* Asked at once, a blind SEEK_DATA makes the copy read the small
     holes; here the window is being copied already, so it cannot.  */
  m->beside.why = (why ? why
                   : blind ? "SEEK_DATA cannot tell about a hole being copied"
                   : NULL);
  return NULL;
}

map_distrust
map_confirm_beside (int fd, struct extent_map *m, off_t size)
{
  map_judge_gaps (fd, m);
  if (map_holes_to_ask (m, size) < BESIDE_MIN_HOLES)
    return map_confirm_holes (fd, m, size);

  m->beside.fd = fd;
  m->beside.size = size;
  m->beside.why = NULL;

  /* Signals are for the main thread, whose calls they interrupt and
     which cleans up after them.  */
  sigset_t all, old;
  sigfillset (&all);
  pthread_sigmask (SIG_SETMASK, &all, &old);
  int err = pthread_create (&m->beside.thread, NULL, confirm_thread, m);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  if (err != 0)
    return map_confirm_holes (fd, m, size);
  m->beside.running = true;
  return NULL;
}

map_distrust
map_settle (struct extent_map *m)
{
  if (!m->beside.running)
    return NULL;
  pthread_join (m->beside.thread, NULL);
  m->beside.running = false;
  return m->beside.why;
}
