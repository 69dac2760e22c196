/* The plan stage: what to do with each byte range of the destination.  */

#ifndef SPARSECP_COPY_PLAN_H
#define SPARSECP_COPY_PLAN_H

#include "extent-map.h"

enum segment_kind
{
  SEG_COPY,   /* copy the bytes as they are */
  SEG_SCAN,   /* read the bytes; zero blocks become holes, the rest is written */
  SEG_HOLE,   /* leave a hole: the source has none of its bytes */
  SEG_ZEROS   /* write zeros without reading: a hole under --sparse=never */
};

struct segment
{
  off_t start;
  off_t len;
  enum segment_kind kind;
};

/* Walks a map and yields segments covering [0, SIZE) in order, with no
   two neighbours of the same kind.  */
struct plan
{
  struct extent_map const *map;
  off_t size;
  enum sparse_mode sparse;
  bool scan_data;
  size_t i;          /* next extent */
  off_t pos;         /* start of the next raw segment */
  bool have_next;    /* NEXT holds a raw segment already taken */
  struct segment next;
};

/* Plan the copy of a file of SIZE bytes mapped by MAP, under SPARSE.
   SCAN_DATA says to look for zero blocks in data extents too (the map
   came from reading, and the source looks sparse).  */
void plan_init (struct plan *, struct extent_map const *map, off_t size,
                enum sparse_mode sparse, bool scan_data);

/* Store the next segment in *SEG and return true, or return false at the
   end of the file.  */
bool plan_next (struct plan *, struct segment *seg);

#endif
