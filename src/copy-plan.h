/* The plan stage: what to do with each byte range of the destination.  */

#ifndef SPARSECP_COPY_PLAN_H
#define SPARSECP_COPY_PLAN_H

#include "extent-map.h"

enum segment_kind
{
  SEG_COPY,   /* copy the bytes as they are */
  SEG_SCAN,   /* read the bytes; zero blocks become holes, the rest is written */
  SEG_HOLE,   /* leave a hole: the source has none of its bytes */
  SEG_ZEROS,  /* write zeros without reading: a hole under --sparse=never */
  SEG_SPAN    /* read the whole range at once, then do each of its parts */
};

/* What becomes of one part of a read span, once read.  */
enum part_kind
{
  PART_WRITE,  /* data: write the bytes read */
  PART_SCAN,   /* unwritten: zero blocks become holes, the rest is written */
  PART_GAP     /* a hole of the map: left a hole if all the bytes read are
                  zero; if not, the map lied: scanned as PART_SCAN */
};

struct span_part
{
  off_t len;
  enum part_kind kind;
};

/* A read span is never longer than this, nor made of more parts, so
   that it fits the copy's buffer in one read.  */
enum { PLAN_SPAN_MAX = 256 * 1024, PLAN_SPAN_PARTS = 128 };

/* Extents no longer than this may be read in a span; longer ones are
   copied on their own, with copy_file_range where it works, which lets
   the filesystem share or offload them.  */
enum { PLAN_SPAN_EXTENT_MAX = 64 * 1024 };

struct segment
{
  off_t start;
  off_t len;
  enum segment_kind kind;
  /* For SEG_SPAN: the parts that tile [START, START+LEN), in order, which
     belong to the plan and change with its next segment; and how many of
     its bytes the map shows as data.  */
  struct span_part const *parts;
  size_t nparts;
  off_t data;
};

/* Walks a window of a map and yields segments covering its range, to
   SIZE for the last window, in order, with no two neighbours of the
   same kind except read spans.  Every hole between
   two extents that map_gap_is_read () is read: it is never a SEG_HOLE or
   SEG_ZEROS segment.  */
struct plan
{
  struct extent_map const *map;
  off_t size;        /* end of the range planned */
  enum sparse_mode sparse;
  bool scan_data;
  size_t i;          /* next extent */
  off_t pos;         /* start of the next raw segment */
  bool have_next;    /* NEXT holds a raw segment already taken */
  struct segment next;
  struct span_part parts[PLAN_SPAN_PARTS];  /* of the last read span */
};

/* Plan the copy of the window of MAP, of a file of SIZE bytes, under
   SPARSE.
   SCAN_DATA says to look for zero blocks in data extents too (the map
   came from reading, and the source looks sparse).  */
void plan_init (struct plan *, struct extent_map const *map, off_t size,
                enum sparse_mode sparse, bool scan_data);

/* Store the next segment in *SEG and return true, or return false at the
   end of the window.  */
bool plan_next (struct plan *, struct segment *seg);

#endif
