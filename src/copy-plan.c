/* The plan stage: turn a map into copy, scan, hole and zero segments.  */

#include "copy-plan.h"

#include <assert.h>

void
plan_init (struct plan *p, struct extent_map const *map, off_t size,
           enum sparse_mode sparse, bool scan_data)
{
  *p = (struct plan) { .map = map, .size = size, .sparse = sparse,
                       .scan_data = scan_data || sparse == SPARSE_ALWAYS };
}

static enum segment_kind
extent_action (struct plan const *p, enum extent_kind kind)
{
  if (p->sparse == SPARSE_NEVER)
    return SEG_COPY;
  if (kind == EXTENT_UNWRITTEN || p->scan_data)
    return SEG_SCAN;
  return SEG_COPY;
}

/* The next extent or gap, before merging neighbours.  */
static bool
raw_next (struct plan *p, struct segment *seg)
{
  struct extent_map const *m = p->map;

  if (p->pos >= p->size)
    return false;
  if (p->i < m->n && m->v[p->i].start <= p->pos)
    {
      struct extent const *e = &m->v[p->i++];
      off_t end = e->start + e->len;
      /* map_finish () left sorted extents inside the file.  */
      assert (e->start == p->pos && end > p->pos);
      *seg = (struct segment) { p->pos, end - p->pos,
                                extent_action (p, e->kind) };
    }
  else
    {
      off_t end = p->i < m->n ? m->v[p->i].start : p->size;
      *seg = (struct segment) { p->pos, end - p->pos,
                                p->sparse == SPARSE_NEVER ? SEG_ZEROS
                                                          : SEG_HOLE };
    }
  assert (seg->len > 0 && seg->start + seg->len <= p->size);
  p->pos = seg->start + seg->len;
  return true;
}

bool
plan_next (struct plan *p, struct segment *seg)
{
  if (p->have_next)
    {
      *seg = p->next;
      p->have_next = false;
    }
  else if (!raw_next (p, seg))
    return false;

  while (raw_next (p, &p->next))
    {
      if (p->next.kind != seg->kind)
        {
          p->have_next = true;
          break;
        }
      seg->len += p->next.len;
    }
  return true;
}
