/* The map stage: where a file holds data, as the kernel reports it.

   A map is a sorted list of non-overlapping extents inside the file.
   Everything outside the extents is a hole.  Maps are only built through
   map_add (), map_pause () and map_finish (), which refuse anything that
   contradicts itself or the file, so the later stages can trust what
   they get.

   A map is made and used a window at a time: the extents of one range
   of the file, at most MAP_WINDOW_MAX of them, so that memory does not
   grow with the file.  Each call of a method fills the next window; the
   checks that need the whole file (the extent marked last, the
   allocated bytes) accumulate across windows and are made when the last
   one is finished.  A window that was trusted may still be followed by
   one that is not: the copy made so far is then not trusted either.  */

#ifndef SPARSECP_EXTENT_MAP_H
#define SPARSECP_EXTENT_MAP_H

#include "system.h"

#include <pthread.h>
#include <sys/stat.h>

enum extent_kind
{
  /* Holds data: copy it.  */
  EXTENT_DATA,
  /* Allocated but unwritten: reads as zeros on disk, yet may hold data
     still in the page cache.  Read it; only zeros read back may become
     holes.  */
  EXTENT_UNWRITTEN
};

/* Bit-fields keep an extent in 16 bytes rather than 24, which halves
   the window's memory.  map_add () stores an extent longer than EXTENT_LEN_MAX (4 EiB) as
   touching pieces.  */
struct extent
{
  off_t start;
  off_t len : 63;
  enum extent_kind kind : 1;
};
#define EXTENT_LEN_MAX (((off_t) 1 << 62) - 1)
_Static_assert (sizeof (struct extent) <= 16, "an extent takes 16 bytes");

/* Why a map was not trusted.  NULL when it was.  */
typedef char const *map_distrust;

/* The most extents a method puts in a window: 64 KiB of them.  */
enum { MAP_WINDOW_MAX = 4096 };

struct extent_map
{
  /* The window: the extents of the range [START, END) of the file.  */
  struct extent *v;
  size_t n;
  size_t alloc;
  off_t start;
  off_t end;
  bool done;                /* the window ends the file: END is its size */
  enum scan_method method;  /* the method that produced the map */
  bool read_gaps;           /* the copy reads the window's small holes */
  /* The windows so far, for the checks of the whole file.  */
  off_t raw_end;            /* end of the last extent added, for ordering */
  off_t raw_bytes;          /* bytes the kernel reported, before trimming */
  bool last_seen;           /* an extent carried FIEMAP_EXTENT_LAST */
  bool gaps_judged;         /* READ_GAPS decided for the whole file */
  size_t extents;           /* extents of the finished windows */
  off_t data;               /* their bytes, inside the file */
  /* The method's own buffer (FIEMAP's answers), kept across windows.  */
  void *buf;
  size_t buf_count;
  /* SEEK_DATA asked about the window's holes beside its copy
     (map_confirm_beside ()).  */
  struct
  {
    pthread_t thread;
    bool running;
    int fd;
    off_t size;
    map_distrust why;
  } beside;
};

/* A hole between two extents that is no longer than this may be read by
   the copy rather than skipped: the plan puts it in a read span with its
   neighbours (copy-plan.h), so the read itself proves it zero, and bytes
   that are not zero are written.  map_confirm_holes () decides, once for
   the file, whether the copy reads such holes; it asks SEEK_DATA about
   every hole it does not leave to the copy.

   Why 8 KiB: skipping a hole costs the lseek (SEEK_DATA) that confirms
   it; reading it costs a copy of its bytes out of the page cache (zeros,
   for a real hole) and no syscall of its own, as one pread takes a whole
   span.  On ext4, copying 20,000 extents of 4 KiB took 10-30% less CPU
   when holes of 4 or 8 KiB between them were read than when they were
   confirmed, as much at 16 KiB, and 10-20% more at 32 KiB.  But that is
   when the holes are in the page cache.  A hole read the first time
   costs the kernel a zeroed page-cache page for each of its blocks:
   copying 1,000,000 extents of 4 KiB, just written, took 22 s when the
   holes were read and 16-18 s when they were confirmed, against 22 s
   for cp.  So the small holes are read only when a sample of
   them is found cached.  */
enum { MAP_READ_GAP_MAX = 8 * 1024 };

/* Whether the copy reads a hole of LEN bytes that lies between two
   extents of the window of M, rather than skipping it.  */
static inline bool
map_gap_is_read (struct extent_map const *m, off_t len)
{
  return m->read_gaps && len <= MAP_READ_GAP_MAX;
}

/* The result of asking the kernel for a map.  */
enum map_status
{
  MAP_OK,           /* the map is complete and consistent */
  MAP_UNSUPPORTED,  /* the method does not work on this file */
  MAP_UNTRUSTED     /* the kernel answered, but the answer is not believable */
};

/* extent-map.c: the map's life and the checks of every answer.  */

void map_init (struct extent_map *, enum scan_method);
/* Free M's storage.  A confirmation map_confirm_beside () started must
   be waited for first (map_settle ()).  */
void map_free (struct extent_map *);

/* Start a new map made by METHOD, keeping the storage of the old; as
   for map_free (), after map_settle ().  */
void map_reset (struct extent_map *, enum scan_method);

/* Empty the window, to fill the next one from where the last ended.  */
void map_next_window (struct extent_map *);

/* Append the raw extent [START, START+LEN) of KIND as the kernel reported
   it.  Return NULL, or why the map can no longer be trusted.  */
map_distrust map_add (struct extent_map *, off_t start, off_t len,
                      enum extent_kind kind);

/* End a window that another follows, of a file of SIZE bytes: trim its
   extents to SIZE.  */
void map_pause (struct extent_map *, off_t size);

/* End the last window, checking the whole map against the file: SIZE
   bytes of which ALLOC_BYTES are allocated (st_blocks), BLKSIZE the
   allocation unit, COMPLETE when the kernel said it had reported
   everything.  Then trim extents to SIZE.  Return NULL, or why the map
   is not trusted.  */
map_distrust map_finish (struct extent_map *, off_t size, off_t alloc_bytes,
                         off_t blksize, bool complete);

/* Bytes of data (both kinds) in the windows ended so far.  */
off_t map_data_bytes (struct extent_map const *);

/* map-fiemap.c, map-seek.c, map-read.c: the methods.  Fill the next
   window of the map of FD, whose status is ST, with one method:
   map_reset () starts the map, and each call fills the window
   after the last, until one is done.  Unless it returns MAP_OK, set
   *WHY to a short reason.  The holes of a FIEMAP window are asked
   about with SEEK_DATA, where it works, by map_confirm_beside (): what
   it finds is returned by the next call, or by map_settle () after the
   last window.  map_read () maps the whole file in one window.  */
enum map_status map_fiemap (int fd, struct stat const *st,
                            struct extent_map *, map_distrust *why);
enum map_status map_seek (int fd, struct stat const *st,
                          struct extent_map *, map_distrust *why);
enum map_status map_read (struct stat const *st, struct extent_map *);

/* Seek FD to the next data or hole (WHENCE) at or after POS, retrying
   when interrupted; lseek's result.  */
off_t map_seek_next (int fd, off_t pos, int whence);

/* map-holes.c: a FIEMAP map's holes confirmed.  */

/* Ask SEEK_DATA about each hole of the ended window of M, the map of
   FD, a file of SIZE bytes, that the copy skips: a second opinion on a
   FIEMAP map, one lseek per hole.  First decide whether the copy reads
   the window's small holes between extents instead (map_gap_is_read ()):
   when a sample of them is in the page cache, or when SEEK_DATA cannot
   tell.  Return NULL when SEEK_DATA agrees or cannot tell, or why the map
   is not trusted.  */
map_distrust map_confirm_holes (int fd, struct extent_map *m, off_t size);

/* The two halves of map_confirm_holes (): decide once for the file
   whether the copy reads the small holes; then ask SEEK_DATA about the
   holes of the window of M it does not read, set *BLIND when SEEK_DATA
   cannot tell, and return NULL or why the map is not trusted.  */
void map_judge_gaps (int fd, struct extent_map *m);
map_distrust map_ask_holes (int fd, struct extent_map const *m, off_t size,
                            bool *blind);

/* How many holes of the window of M map_ask_holes () asks about.  */
size_t map_holes_to_ask (struct extent_map const *m, off_t size);

/* Confirm the holes of the ended window of M as map_confirm_holes ()
   does, but when the window has many, on a thread of their own while
   the window is copied: until map_settle () returns, M and FD must stay
   as they are.  Return NULL, or why the map is not trusted when the
   answer came at once.  */
map_distrust map_confirm_beside (int fd, struct extent_map *m, off_t size);

/* Wait for the confirmation map_confirm_beside () left running, if
   any.  Return NULL, or why the window it confirmed is not trusted:
   then what was copied of it is not to be trusted either.  */
map_distrust map_settle (struct extent_map *m);

#endif
