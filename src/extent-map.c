/* A map's life (init, reset between methods, windows, free) and the
   checks every method's answer must pass.  */

#include "extent-map.h"

#include <stdlib.h>
#include <string.h>

#include "intprops.h"
#include "xalloc.h"

void
map_init (struct extent_map *m, enum scan_method method)
{
  memset (m, 0, sizeof *m);
  m->method = method;
  m->read_gaps = true;
}

void
map_free (struct extent_map *m)
{
  free (m->v);
  free (m->buf);
  map_init (m, m->method);
}

void
map_reset (struct extent_map *m, enum scan_method method)
{
  struct extent_map kept = *m;
  map_init (m, method);
  m->v = kept.v;
  m->alloc = kept.alloc;
  m->buf = kept.buf;
  m->buf_count = kept.buf_count;
}

void
map_next_window (struct extent_map *m)
{
  m->n = 0;
  m->start = m->end;
}

map_distrust
map_add (struct extent_map *m, off_t start, off_t len, enum extent_kind kind)
{
  off_t end;

  if (m->last_seen)
    return "an extent follows the one marked last";
  if (len <= 0)
    return "zero-length extent";
  if (start < 0 || INT_ADD_WRAPV (start, len, &end))
    return "extent outside any possible file";
  if (start < m->raw_end)
    return "extents overlap or are out of order";

  m->raw_bytes += len;

  /* Merge with a touching neighbour of the same kind: the kernel splits
     extents at boundaries that do not matter for copying.  */
  if (m->n && m->raw_end == start && m->v[m->n - 1].kind == kind)
    {
      struct extent *last = &m->v[m->n - 1];
      off_t room = EXTENT_LEN_MAX - last->len;
      off_t more = len < room ? len : room;
      last->len += more;
      start += more;
      len -= more;
    }
  /* What is left, in pieces no longer than an extent can be.  */
  while (len > 0)
    {
      off_t piece = len < EXTENT_LEN_MAX ? len : EXTENT_LEN_MAX;
      if (m->n == m->alloc)
        {
          idx_t alloc = m->alloc;
          m->v = xpalloc (m->v, &alloc, 1, -1, sizeof *m->v);
          m->alloc = alloc;
        }
      m->v[m->n++] = (struct extent) { .start = start, .len = piece,
                                       .kind = kind };
      start += piece;
      len -= piece;
    }
  m->raw_end = end;
  return NULL;
}

/* End the window of M, the last one when DONE, of a file of SIZE
   bytes: trim its extents to SIZE and count them.  */
static void
end_window (struct extent_map *m, off_t size, bool done)
{
  /* Allocation past the end (fallocate --keep-size, speculative
     preallocation) is normal and holds no data to copy.  */
  while (m->n && m->v[m->n - 1].start >= size)
    m->n--;
  if (m->n)
    {
      struct extent *e = &m->v[m->n - 1];
      if (e->len > size - e->start)
        e->len = size - e->start;
    }
  for (size_t i = 0; i < m->n; i++)
    m->data += m->v[i].len;
  m->extents += m->n;
  /* The next window begins where this one's last extent ends: the hole
     after it, if any, is the next window's to plan.  */
  m->end = done ? size : m->raw_end < size ? m->raw_end : size;
  m->done = done;
}

void
map_pause (struct extent_map *m, off_t size)
{
  end_window (m, size, false);
}

map_distrust
map_finish (struct extent_map *m, off_t size, off_t alloc_bytes,
            off_t blksize, bool complete)
{
  if (!complete)
    return "the map ends before the end of the file";

  /* st_blocks also counts metadata (extent tree blocks, an xattr block),
     so allow a little of it; a hidden data extent larger than that is
     caught here.  A tree holds an extent in 12 (ext4) or 16 (XFS) bytes,
     twice that in half-full leaves: allow 32 bytes an extent, and never
     less than 1/128 of a block an extent, as large blocks need.  */
  off_t per_extent = blksize / 128 > 32 ? blksize / 128 : 32;
  off_t slack = 2 * blksize + per_extent * (off_t) (m->extents + m->n);
  if (m->raw_bytes < alloc_bytes - slack)
    return "fewer bytes are mapped than the file has allocated";

  end_window (m, size, true);
  return NULL;
}

off_t
map_data_bytes (struct extent_map const *m)
{
  return m->data;
}
