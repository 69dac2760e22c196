/* The map stage: where a file holds data, as the kernel reports it.

   A map is a sorted list of non-overlapping extents inside the file.
   Everything outside the extents is a hole.  Maps are only built through
   map_add () and map_finish (), which refuse anything that contradicts
   itself or the file, so the later stages can trust what they get.  */

#ifndef SPARSECP_EXTENT_MAP_H
#define SPARSECP_EXTENT_MAP_H

#include "system.h"

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

/* Bit-fields keep an extent in 16 bytes rather than 24: a map holds
   every extent of the file, and at 50,000 extents (issue 6's W2) the 8
   bytes saved on each are a third of sparsecp's memory beyond cp's.
   map_add () stores an extent longer than EXTENT_LEN_MAX (4 EiB) as
   touching pieces.  */
struct extent
{
  off_t start;
  off_t len : 63;
  enum extent_kind kind : 1;
};
#define EXTENT_LEN_MAX (((off_t) 1 << 62) - 1)
_Static_assert (sizeof (struct extent) <= 16, "an extent takes 16 bytes");

struct extent_map
{
  struct extent *v;
  size_t n;
  size_t alloc;
  enum scan_method method;  /* the method that produced the map */
  off_t raw_end;            /* end of the last extent added, for ordering */
  off_t raw_bytes;          /* bytes the kernel reported, before trimming */
  bool last_seen;           /* an extent carried FIEMAP_EXTENT_LAST */
};

/* A hole between two extents that is no longer than this is read by the
   copy, never skipped unseen: the plan puts it in a read span with its
   neighbours (copy-plan.h), so the read itself proves it zero, and bytes
   that are not zero are written.  map_confirm_holes () leaves such holes
   to it and spends its lseek on the others only.

   Why 8 KiB: skipping a hole costs the lseek (SEEK_DATA) that confirms
   it; reading it costs a copy of its bytes out of the page cache (zeros,
   for a real hole) and no syscall of its own, as one pread takes a whole
   span.  On ext4, copying 20,000 extents of 4 KiB took 10-30% less CPU
   when holes of 4 or 8 KiB between them were read than when they were
   confirmed, as much at 16 KiB, and 10-20% more at 32 KiB.  */
enum { MAP_READ_GAP_MAX = 8 * 1024 };

/* Whether the copy reads a hole of LEN bytes that lies between two
   extents of a map, rather than skipping it.  */
static inline bool
map_gap_is_read (off_t len)
{
  return len <= MAP_READ_GAP_MAX;
}

/* Why a map was not trusted.  NULL when it was.  */
typedef char const *map_distrust;

/* The result of asking the kernel for a map.  */
enum map_status
{
  MAP_OK,           /* the map is complete and consistent */
  MAP_UNSUPPORTED,  /* the method does not work on this file */
  MAP_UNTRUSTED     /* the kernel answered, but the answer is not believable */
};

void map_init (struct extent_map *, enum scan_method);
void map_free (struct extent_map *);
void map_reset (struct extent_map *, enum scan_method);

/* Append the raw extent [START, START+LEN) of KIND as the kernel reported
   it.  Return NULL, or why the map can no longer be trusted.  */
map_distrust map_add (struct extent_map *, off_t start, off_t len,
                      enum extent_kind kind);

/* Check the whole map against the file: SIZE bytes of which ALLOC_BYTES
   are allocated (st_blocks), BLKSIZE the allocation unit, COMPLETE when
   the kernel said it had reported everything.  Then trim extents to SIZE
   and merge neighbours of the same kind.  Return NULL, or why the map is
   not trusted.  */
map_distrust map_finish (struct extent_map *, off_t size, off_t alloc_bytes,
                         off_t blksize, bool complete);

/* Bytes of data (both kinds) in a finished map.  */
off_t map_data_bytes (struct extent_map const *);

/* Build a map of FD, whose status is ST, with one method.  Unless it
   returns MAP_OK, set *WHY to a short reason.  A FIEMAP map is only
   returned when SEEK_DATA, where it works, finds no data in its holes.  */
enum map_status map_fiemap (int fd, struct stat const *st,
                            struct extent_map *, map_distrust *why);
enum map_status map_seek (int fd, struct stat const *st,
                          struct extent_map *, map_distrust *why);
enum map_status map_read (struct stat const *st, struct extent_map *);

/* Ask SEEK_DATA about each hole of the finished map M of FD, a file of
   SIZE bytes, that the copy skips: a second opinion on a FIEMAP map, one
   lseek per hole.  Holes between two extents that map_gap_is_read () are
   left to the copy, which reads them.  Return NULL when SEEK_DATA agrees
   or cannot tell, or why the map is not trusted.  */
map_distrust map_confirm_holes (int fd, struct extent_map const *m,
                                off_t size);

#endif
