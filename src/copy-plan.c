/* The plan stage: turn a map into copy, scan, hole and zero segments,
   and read spans that take small extents with the small holes between
   them in one read.  */

#include "copy-plan.h"

#include <assert.h>

/* A hole the map leaves to the copy must fit in a span.  */
_Static_assert ((off_t) MAP_READ_GAP_MAX <= (off_t) PLAN_SPAN_MAX,
                "a read hole fits a span");

void
plan_init (struct plan *p, struct extent_map const *map, off_t size,
           enum sparse_mode sparse, bool scan_data)
{
  /* The window's range; the last window's runs to the end of the file.  */
  *p = (struct plan) { .map = map, .pos = map->start,
                       .size = map->done ? size : map->end,
                       .sparse = sparse,
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

/* What to do with the hole [START, END) of the map, of which the file
   has bytes after it when INNER (an extent follows, and one precedes it
   when START > 0).  A small hole between two extents is read in a span:
   its raw segment is marked SEG_SPAN here.  */
static enum segment_kind
hole_action (struct plan const *p, off_t start, off_t end, bool inner)
{
  if (inner && start > 0 && map_gap_is_read (p->map, end - start))
    return SEG_SPAN;
  return p->sparse == SPARSE_NEVER ? SEG_ZEROS : SEG_HOLE;
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
      *seg = (struct segment) { .start = p->pos, .len = end - p->pos,
                                .kind = extent_action (p, e->kind) };
    }
  else
    {
      bool inner = p->i < m->n;
      off_t end = inner ? m->v[p->i].start : p->size;
      *seg = (struct segment) { .start = p->pos, .len = end - p->pos,
                                .kind = hole_action (p, p->pos, end,
                                                     inner) };
    }
  assert (seg->len > 0 && seg->start + seg->len <= p->size);
  p->pos = seg->start + seg->len;
  return true;
}

/* Store in *SEG the raw segment put back, or else the next one.  */
static bool
take_raw (struct plan *p, struct segment *seg)
{
  if (p->have_next)
    {
      *seg = p->next;
      p->have_next = false;
      return true;
    }
  return raw_next (p, seg);
}

static void
put_back (struct plan *p, struct segment const *seg)
{
  p->next = *seg;
  p->have_next = true;
}

/* Whether the raw segment SEG may be read as part of a span: a small
   hole that must be read, or an extent small enough.  */
static bool
spannable (struct segment const *seg)
{
  return (seg->kind == SEG_SPAN
          || ((seg->kind == SEG_COPY || seg->kind == SEG_SCAN)
              && seg->len <= PLAN_SPAN_EXTENT_MAX));
}

static enum part_kind
part_action (struct plan const *p, enum segment_kind raw)
{
  if (raw == SEG_SCAN)
    return PART_SCAN;
  if (raw == SEG_SPAN && p->sparse != SPARSE_NEVER)
    return PART_GAP;
  return PART_WRITE;
}

/* Append the raw segment RAW to the span SEG, which has *N parts, when
   it fits.  Return whether it did.  */
static bool
span_add (struct plan *p, struct segment *seg, size_t *n,
          struct segment const *raw)
{
  enum part_kind kind = part_action (p, raw->kind);
  bool merge = *n > 0 && p->parts[*n - 1].kind == kind;
  if (seg->len + raw->len > PLAN_SPAN_MAX
      || (!merge && *n == PLAN_SPAN_PARTS))
    return false;
  if (merge)
    p->parts[*n - 1].len += raw->len;
  else
    p->parts[(*n)++] = (struct span_part) { raw->len, kind };
  seg->len += raw->len;
  if (raw->kind != SEG_SPAN)
    seg->data += raw->len;
  return true;
}

/* Make the spannable raw segment in *SEG the start of a read span, and
   take the raw segments after it that fit.  Return false, with *SEG and
   the plan as they were, when the span would hold no hole: extents alone
   gain nothing from being read together.  */
static bool
plan_span (struct plan *p, struct segment *seg)
{
  size_t i = p->i;
  off_t pos = p->pos;
  struct segment first = *seg, raw;
  bool gap = first.kind == SEG_SPAN;
  size_t n = 0;

  assert (!p->have_next);
  seg->len = seg->data = 0;
  span_add (p, seg, &n, &first);
  while (take_raw (p, &raw))
    {
      if (!spannable (&raw) || !span_add (p, seg, &n, &raw))
        {
          put_back (p, &raw);
          break;
        }
      gap |= raw.kind == SEG_SPAN;
    }
  if (!gap)
    {
      p->i = i;
      p->pos = pos;
      p->have_next = false;
      *seg = first;
      return false;
    }
  seg->kind = SEG_SPAN;
  seg->parts = p->parts;
  seg->nparts = n;
  return true;
}

bool
plan_next (struct plan *p, struct segment *seg)
{
  if (!take_raw (p, seg))
    return false;
  if (spannable (seg) && plan_span (p, seg))
    return true;

  while (take_raw (p, &p->next))
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
