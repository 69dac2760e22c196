/* libFuzzer harness for the map validator: whatever extents a kernel
   reports, map_add () and map_finish () either refuse the map or yield
   one that is sorted, inside the file, and covers every byte of data
   that was reported.  Build and run with 'make fuzz' (clang).  */

#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extent-map.h"

/* The fuzzer's bytes, read a few at a time; zeros once they run out.  */
struct input
{
  uint8_t const *p;
  size_t left;
};

static uint64_t
take (struct input *in, size_t n)
{
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++)
    {
      v <<= 8;
      if (in->left)
        {
          v |= *in->p++;
          in->left--;
        }
    }
  return v;
}

/* What a correct validator must have accepted: the raw extents.  */
enum { MODEL_MAX = 4096 };
static struct { off_t start, len; } model[MODEL_MAX];

static void
check (bool ok, char const *what)
{
  if (!ok)
    {
      fprintf (stderr, "fuzz-map: %s\n", what);
      abort ();
    }
}

/* Whether [START, END) lies inside the extents of M.  */
static bool
covered (struct extent_map const *m, off_t start, off_t end)
{
  for (size_t i = 0; i < m->n && start < end; i++)
    {
      off_t e_end = m->v[i].start + m->v[i].len;
      if (m->v[i].start <= start && start < e_end)
        start = e_end;
    }
  return start >= end;
}

int LLVMFuzzerTestOneInput (uint8_t const *data, size_t size);

int
LLVMFuzzerTestOneInput (uint8_t const *data, size_t size)
{
  struct input in = { data, size };
  off_t fsize = take (&in, 8) & INT64_MAX;
  if (take (&in, 1) & 1)
    fsize &= 0xfffff;    /* often a small file, so extents reach its end */
  off_t alloc = take (&in, 4);
  off_t blksize = (off_t) 512 << (take (&in, 1) % 12);
  bool complete = take (&in, 1) & 1;

  struct extent_map m;
  map_init (&m, SCAN_FIEMAP);
  size_t n = 0;
  off_t end = 0, raw = 0;
  bool refused = false;

  while (in.left && n < MODEL_MAX)
    {
      unsigned op = take (&in, 1);
      off_t start, len;
      switch (op % 4)
        {
        case 0:   /* after the last one, near it */
          if (__builtin_add_overflow (end, (off_t) take (&in, 2) * 512,
                                      &start))
            start = INT64_MAX;
          len = (off_t) take (&in, 2) * 512;
          break;
        case 1:   /* touching the last one */
          start = end;
          len = take (&in, 3);
          break;
        case 2:   /* overlapping or before the last one */
          start = end - (off_t) take (&in, 2);
          len = take (&in, 2);
          break;
        default:  /* anything at all */
          start = take (&in, 8);
          len = take (&in, 8);
          break;
        }
      enum extent_kind kind = op & 4 ? EXTENT_UNWRITTEN : EXTENT_DATA;

      off_t e;
      bool bad = (m.last_seen || len <= 0 || start < 0
                  || __builtin_add_overflow (start, len, &e) || start < end);
      map_distrust why = map_add (&m, start, len, kind);
      check (!why == !bad, bad ? "a bad extent was accepted"
                               : "a good extent was refused");
      if (why)
        {
          refused = true;
          break;
        }
      model[n].start = start;
      model[n++].len = len;
      end = e;
      raw += len;
      check (m.raw_end == end && m.raw_bytes == raw, "raw totals are wrong");
      if (op & 8 && op & 16 && op & 32)
        m.last_seen = true;   /* as map_fiemap sets it for EXTENT_LAST */
    }

  if (!refused)
    {
      map_distrust why = map_finish (&m, fsize, alloc, blksize, complete);
      if (!complete)
        check (why, "an incomplete map was accepted");
      if (!why)
        {
          /* Two blocks, and 32 bytes or 1/128 block an extent, of tree.  */
          off_t tree = blksize / 128 < 32 ? 32 : blksize / 128;
          check (raw >= alloc - 2 * blksize - tree * (off_t) n,
                 "a map with missing allocation was accepted");
          off_t prev_end = 0;
          for (size_t i = 0; i < m.n; i++)
            {
              struct extent const *x = &m.v[i];
              check (x->len > 0, "an empty extent");
              check (x->start >= prev_end, "extents overlap or are unsorted");
              check (i == 0 || x->start > prev_end
                     || x->kind != m.v[i - 1].kind
                     || m.v[i - 1].len == EXTENT_LEN_MAX,
                     "touching twins left");
              check (x->start + x->len <= fsize, "an extent past the end");
              prev_end = x->start + x->len;
            }
          /* No reported data below the size is lost.  */
          for (size_t i = 0; i < n; i++)
            if (model[i].start < fsize)
              {
                off_t stop = model[i].start + model[i].len;
                check (covered (&m, model[i].start,
                                stop < fsize ? stop : fsize),
                       "reported data became a hole");
              }
          check (map_data_bytes (&m) <= fsize, "more data than the file");
        }
    }
  map_free (&m);
  return 0;
}
