/* Unit tests of the plan stage.  */

#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check-probe.h"
#include "copy-data.h"
#include "copy-plan.h"

static struct extent_map m;

/* The parts of the read spans of the last plan_all (), one after the
   other, as a span's parts only last until the next segment.  */
enum { PARTS_MAX = 4096 };
static struct span_part parts[PARTS_MAX];
static size_t nparts;

static void
setup (void)
{
  map_init (&m, SCAN_FIEMAP);
}

static void
teardown (void)
{
  map_free (&m);
}

/* Plan a file of SIZE bytes under SPARSE; store up to MAX segments in
   OUT and return how many there were.  */
static size_t
plan_all (off_t size, enum sparse_mode sparse, bool scan_data,
          struct segment *out, size_t max)
{
  struct plan p;
  struct segment seg;
  size_t n = 0;
  off_t pos = 0;
  plan_init (&p, &m, size, sparse, scan_data);
  nparts = 0;
  while (plan_next (&p, &seg))
    {
      /* Segments tile the file, in order, with no gap.  */
      ck_assert_int_eq (seg.start, pos);
      ck_assert_int_gt (seg.len, 0);
      if (seg.kind == SEG_SPAN)
        {
          /* A span fits the buffer, and its parts tile it.  */
          off_t sum = 0;
          ck_assert_int_le (seg.len, PLAN_SPAN_MAX);
          ck_assert_uint_gt (seg.nparts, 0);
          ck_assert_uint_le (seg.nparts, PLAN_SPAN_PARTS);
          for (size_t i = 0; i < seg.nparts; i++)
            {
              ck_assert_int_gt (seg.parts[i].len, 0);
              sum += seg.parts[i].len;
              ck_assert_uint_lt (nparts, PARTS_MAX);
              parts[nparts++] = seg.parts[i];
            }
          ck_assert_int_eq (sum, seg.len);
        }
      pos += seg.len;
      if (n < max)
        out[n] = seg;
      n++;
    }
  ck_assert_int_eq (pos, size);
  return n;
}

static void
add (off_t start, off_t len, enum extent_kind kind)
{
  ck_assert_ptr_null (map_add (&m, start, len, kind));
}

/* A hole between two extents one block longer than the copy reads.  */
#define BIG_GAP (MAP_READ_GAP_MAX + 4096)

START_TEST (auto_keeps_holes_and_copies_data)
{
  struct segment s[8];
  add (4096, 4096, EXTENT_DATA);
  add (8192 + BIG_GAP, 4096, EXTENT_DATA);
  ck_assert_ptr_null (map_finish (&m, 16384 + BIG_GAP, 8192, 4096, true));
  ck_assert_uint_eq (plan_all (16384 + BIG_GAP, SPARSE_AUTO, false, s, 8), 5);
  ck_assert_int_eq (s[0].kind, SEG_HOLE);
  ck_assert_int_eq (s[0].len, 4096);
  ck_assert_int_eq (s[1].kind, SEG_COPY);
  ck_assert_int_eq (s[2].kind, SEG_HOLE);
  ck_assert_int_eq (s[2].len, BIG_GAP);
  ck_assert_int_eq (s[3].kind, SEG_COPY);
  ck_assert_int_eq (s[4].kind, SEG_HOLE);
  ck_assert_int_eq (s[4].start, 12288 + BIG_GAP);
}
END_TEST

START_TEST (unwritten_is_scanned_not_skipped)
{
  struct segment s[4];
  add (0, 4096, EXTENT_DATA);
  add (4096, 8192, EXTENT_UNWRITTEN);
  ck_assert_ptr_null (map_finish (&m, 12288, 12288, 4096, true));
  ck_assert_uint_eq (plan_all (12288, SPARSE_AUTO, false, s, 4), 2);
  ck_assert_int_eq (s[0].kind, SEG_COPY);
  ck_assert_int_eq (s[1].kind, SEG_SCAN);
  ck_assert_int_eq (s[1].len, 8192);
}
END_TEST

START_TEST (always_scans_data_and_merges)
{
  struct segment s[4];
  add (0, 4096, EXTENT_DATA);
  add (4096, 4096, EXTENT_UNWRITTEN);
  ck_assert_ptr_null (map_finish (&m, 8192, 8192, 4096, true));
  ck_assert_uint_eq (plan_all (8192, SPARSE_ALWAYS, false, s, 4), 1);
  ck_assert_int_eq (s[0].kind, SEG_SCAN);
  ck_assert_int_eq (s[0].len, 8192);
}
END_TEST

START_TEST (never_writes_zeros_for_holes)
{
  struct segment s[4];
  add (4096, 4096, EXTENT_UNWRITTEN);
  ck_assert_ptr_null (map_finish (&m, 12000, 4096, 4096, true));
  ck_assert_uint_eq (plan_all (12000, SPARSE_NEVER, false, s, 4), 3);
  ck_assert_int_eq (s[0].kind, SEG_ZEROS);
  ck_assert_int_eq (s[1].kind, SEG_COPY);
  ck_assert_int_eq (s[2].kind, SEG_ZEROS);
  ck_assert_int_eq (s[2].len, 12000 - 8192);
}
END_TEST

START_TEST (read_map_of_sparse_file_is_scanned)
{
  struct segment s[2];
  struct stat st = { .st_size = 100000 };
  ck_assert_int_eq (map_read (&st, &m), MAP_OK);
  ck_assert_uint_eq (plan_all (100000, SPARSE_AUTO, true, s, 2), 1);
  ck_assert_int_eq (s[0].kind, SEG_SCAN);
}
END_TEST

START_TEST (empty_map_is_one_hole)
{
  struct segment s[2];
  ck_assert_ptr_null (map_finish (&m, (off_t) 1 << 40, 0, 4096, true));
  ck_assert_uint_eq (plan_all ((off_t) 1 << 40, SPARSE_AUTO, false, s, 2), 1);
  ck_assert_int_eq (s[0].kind, SEG_HOLE);
}
END_TEST

START_TEST (data_to_the_end_has_no_trailing_hole)
{
  struct segment s[2];
  add (0, 5000, EXTENT_DATA);
  ck_assert_ptr_null (map_finish (&m, 5000, 8192, 4096, true));
  ck_assert_uint_eq (plan_all (5000, SPARSE_AUTO, false, s, 2), 1);
  ck_assert_int_eq (s[0].kind, SEG_COPY);
  ck_assert_int_eq (s[0].len, 5000);
}
END_TEST

/* Whether PART of the last plan has LEN bytes of KIND.  */
static void
part_is (size_t i, enum part_kind kind, off_t len)
{
  ck_assert_uint_lt (i, nparts);
  ck_assert_int_eq (parts[i].kind, kind);
  ck_assert_int_eq (parts[i].len, len);
}

/* Map a file of 32 KiB: three extents of 4 KiB with 4 KiB holes
   between them, and a hole of 12 KiB at the end.  */
static void
three_small_extents (void)
{
  add (0, 4096, EXTENT_DATA);
  add (8192, 4096, EXTENT_DATA);
  add (16384, 4096, EXTENT_DATA);
  ck_assert_ptr_null (map_finish (&m, 32768, 12288, 4096, true));
}

START_TEST (small_gaps_are_read_in_one_span)
{
  struct segment s[4];
  three_small_extents ();
  ck_assert_uint_eq (plan_all (32768, SPARSE_AUTO, false, s, 4), 2);
  ck_assert_int_eq (s[0].kind, SEG_SPAN);
  ck_assert_int_eq (s[0].len, 20480);
  ck_assert_int_eq (s[0].data, 12288);
  ck_assert_uint_eq (nparts, 5);
  part_is (0, PART_WRITE, 4096);
  part_is (1, PART_GAP, 4096);
  part_is (2, PART_WRITE, 4096);
  part_is (3, PART_GAP, 4096);
  part_is (4, PART_WRITE, 4096);
  /* The hole at the end has no extent after it: it is skipped, after
     map_confirm_holes () has asked SEEK_DATA about it.  */
  ck_assert_int_eq (s[1].kind, SEG_HOLE);
  ck_assert_int_eq (s[1].len, 12288);
}
END_TEST

/* A window whose small holes map_confirm_holes () found uncached and
   asked SEEK_DATA about: the plan skips them, reading none.  */
START_TEST (confirmed_small_gaps_are_skipped)
{
  struct segment s[8];
  three_small_extents ();
  m.read_gaps = false;
  ck_assert (!map_gap_is_read (&m, 4096));
  ck_assert_uint_eq (plan_all (32768, SPARSE_AUTO, false, s, 8), 6);
  for (size_t i = 0; i < 6; i++)
    {
      ck_assert_int_eq (s[i].kind, i % 2 ? SEG_HOLE : SEG_COPY);
      ck_assert_int_eq (s[i].start, 4096 * (off_t) i);
    }
  ck_assert_int_eq (s[5].len, 12288);
  ck_assert_uint_eq (nparts, 0);
  /* --sparse=never writes them as zeros, still without reading.  */
  ck_assert_uint_eq (plan_all (32768, SPARSE_NEVER, false, s, 8), 6);
  ck_assert_int_eq (s[1].kind, SEG_ZEROS);
  ck_assert_int_eq (s[3].kind, SEG_ZEROS);
  ck_assert_uint_eq (nparts, 0);
}
END_TEST

START_TEST (a_large_hole_is_never_read)
{
  struct segment s[8];
  off_t b = 4096 + MAP_READ_GAP_MAX;   /* after the largest gap read */
  add (0, 4096, EXTENT_DATA);
  add (b, 4096, EXTENT_DATA);
  add (b + 4096 + BIG_GAP, 4096, EXTENT_DATA);
  add (b + 12288 + BIG_GAP, 4096, EXTENT_DATA);
  off_t size = b + 16384 + BIG_GAP;
  ck_assert_ptr_null (map_finish (&m, size, 16384, 4096, true));
  ck_assert_uint_eq (plan_all (size, SPARSE_AUTO, false, s, 8), 3);
  ck_assert_int_eq (s[0].kind, SEG_SPAN);
  ck_assert_int_eq (s[0].len, b + 4096);
  part_is (1, PART_GAP, MAP_READ_GAP_MAX);
  ck_assert_int_eq (s[1].kind, SEG_HOLE);
  ck_assert_int_eq (s[1].start, b + 4096);
  ck_assert_int_eq (s[1].len, BIG_GAP);
  ck_assert_int_eq (s[2].kind, SEG_SPAN);
  ck_assert_uint_eq (nparts, 6);
  part_is (4, PART_GAP, 4096);
}
END_TEST

START_TEST (a_small_hole_at_either_end_is_skipped)
{
  struct segment s[4];
  add (4096, 4096, EXTENT_DATA);
  ck_assert_ptr_null (map_finish (&m, 12288, 4096, 4096, true));
  ck_assert_uint_eq (plan_all (12288, SPARSE_AUTO, false, s, 4), 3);
  ck_assert_int_eq (s[0].kind, SEG_HOLE);
  ck_assert_int_eq (s[1].kind, SEG_COPY);
  ck_assert_int_eq (s[2].kind, SEG_HOLE);
}
END_TEST

START_TEST (spans_fit_the_buffer)
{
  enum { COUNT = 1000 };
  struct segment s[64];
  for (off_t i = 0; i < COUNT; i++)
    add (i * 8192, 4096, EXTENT_DATA);
  off_t size = COUNT * 8192 - 4096;
  ck_assert_ptr_null (map_finish (&m, size, COUNT * 4096, 4096, true));
  size_t n = plan_all (size, SPARSE_AUTO, false, s, 64);
  /* 32 extents and 32 gaps fill a span; the last span ends with data.  */
  ck_assert_uint_eq (n, (COUNT * 8192 + PLAN_SPAN_MAX - 1) / PLAN_SPAN_MAX);
  for (size_t i = 0; i < n; i++)
    {
      ck_assert_int_eq (s[i].kind, SEG_SPAN);
      if (i + 1 < n)
        ck_assert_int_eq (s[i].len, PLAN_SPAN_MAX);
    }
  ck_assert_uint_eq (nparts, 2 * COUNT - 1);
}
END_TEST

START_TEST (unwritten_extent_in_a_span_is_scanned)
{
  struct segment s[2];
  add (0, 4096, EXTENT_DATA);
  add (8192, 4096, EXTENT_UNWRITTEN);
  add (12288, 4096, EXTENT_DATA);
  ck_assert_ptr_null (map_finish (&m, 16384, 12288, 4096, true));
  ck_assert_uint_eq (plan_all (16384, SPARSE_AUTO, false, s, 2), 1);
  ck_assert_int_eq (s[0].kind, SEG_SPAN);
  ck_assert_uint_eq (nparts, 4);
  part_is (0, PART_WRITE, 4096);
  part_is (1, PART_GAP, 4096);
  part_is (2, PART_SCAN, 4096);
  part_is (3, PART_WRITE, 4096);
}
END_TEST

START_TEST (a_large_extent_is_copied_alone)
{
  struct segment s[4];
  off_t big = 2 * PLAN_SPAN_EXTENT_MAX;
  add (0, 4096, EXTENT_DATA);
  add (8192, big, EXTENT_DATA);
  add (12288 + big, 4096, EXTENT_DATA);
  off_t size = 16384 + big;
  ck_assert_ptr_null (map_finish (&m, size, big + 8192, 4096, true));
  ck_assert_uint_eq (plan_all (size, SPARSE_AUTO, false, s, 4), 3);
  /* The gaps on either side are read all the same.  */
  ck_assert_int_eq (s[0].kind, SEG_SPAN);
  ck_assert_int_eq (s[0].len, 8192);
  ck_assert_int_eq (s[1].kind, SEG_COPY);
  ck_assert_int_eq (s[1].len, big);
  ck_assert_int_eq (s[2].kind, SEG_SPAN);
  ck_assert_int_eq (s[2].len, 8192);
  ck_assert_uint_eq (nparts, 4);
  part_is (1, PART_GAP, 4096);
  part_is (2, PART_GAP, 4096);
}
END_TEST

START_TEST (never_reads_small_gaps_and_writes_them)
{
  struct segment s[4];
  add (0, 4096, EXTENT_DATA);
  add (8192, 4096, EXTENT_UNWRITTEN);
  add (12288 + BIG_GAP, 4096, EXTENT_DATA);
  off_t size = 16384 + BIG_GAP;
  ck_assert_ptr_null (map_finish (&m, size, 12288, 4096, true));
  ck_assert_uint_eq (plan_all (size, SPARSE_NEVER, false, s, 4), 3);
  ck_assert_int_eq (s[0].kind, SEG_SPAN);
  ck_assert_uint_eq (nparts, 1);
  part_is (0, PART_WRITE, 12288);
  ck_assert_int_eq (s[1].kind, SEG_ZEROS);
  ck_assert_int_eq (s[1].len, BIG_GAP);
  ck_assert_int_eq (s[2].kind, SEG_COPY);
}
END_TEST

START_TEST (always_reads_small_gaps_in_a_span)
{
  struct segment s[4];
  add (0, 4096, EXTENT_DATA);
  add (8192, 4096, EXTENT_DATA);
  add (12288 + BIG_GAP, 4096, EXTENT_DATA);
  off_t size = 16384 + BIG_GAP;
  ck_assert_ptr_null (map_finish (&m, size, 12288, 4096, true));
  ck_assert_uint_eq (plan_all (size, SPARSE_ALWAYS, false, s, 4), 3);
  ck_assert_int_eq (s[0].kind, SEG_SPAN);
  ck_assert_uint_eq (nparts, 3);
  part_is (0, PART_SCAN, 4096);
  part_is (1, PART_GAP, 4096);
  part_is (2, PART_SCAN, 4096);
  ck_assert_int_eq (s[1].kind, SEG_HOLE);
  ck_assert_int_eq (s[1].len, BIG_GAP);
  ck_assert_int_eq (s[2].kind, SEG_SCAN);
}
END_TEST

/* Pseudo-random layouts under every mode: no hole between two extents
   that map_confirm_holes () leaves alone is ever skipped unread.  */
START_TEST (no_small_inner_hole_is_skipped)
{
  static enum sparse_mode const modes[] =
    { SPARSE_AUTO, SPARSE_NEVER, SPARSE_ALWAYS };
  uint32_t r = 12345;
  for (int round = 0; round < 300; round++)
    {
      map_reset (&m, SCAN_FIEMAP);
      off_t pos = 0;
      int count = 1 + round % 40;
      for (int i = 0; i < count; i++)
        {
          r = r * 1103515245 + 12345;
          off_t gap = (r >> 8) % 3 == 0 ? 0 : 4096 * ((r >> 12) % 10);
          off_t len = 4096 * (1 + (r >> 16) % 24);
          if (i > 0 && gap == 0)
            gap = 4096;       /* keep extents apart: kinds may match */
          add (pos + gap, len, (r >> 24) % 4 ? EXTENT_DATA
                                             : EXTENT_UNWRITTEN);
          pos += gap + len;
        }
      off_t size = pos + 4096 * (round % 3);
      ck_assert_ptr_null (map_finish (&m, size, 0, 4096, true));
      for (size_t k = 0; k < 3; k++)
        {
          struct plan p;
          struct segment seg;
          plan_init (&p, &m, size, modes[k], false);
          while (plan_next (&p, &seg))
            if (seg.kind == SEG_HOLE || seg.kind == SEG_ZEROS)
              ck_assert (seg.start == 0 || seg.start + seg.len == size
                         || !map_gap_is_read (&m, seg.len));
        }
    }
}
END_TEST

/* The copy stage carrying out plans of lying maps.  */

static int src_fd = -1, dst_fd = -1;

static int
temp_file (void)
{
  char name[] = "check_plan.XXXXXX";
  int fd = mkstemp (name);
  ck_assert_int_ge (fd, 0);
  unlink (name);
  return fd;
}

static void
files_setup (void)
{
  setup ();
  src_fd = temp_file ();
  dst_fd = temp_file ();
}

static void
files_teardown (void)
{
  close (src_fd);
  close (dst_fd);
  teardown ();
}

/* Write LEN bytes of C at POS of the source.  */
static void
put (off_t pos, size_t len, char c)
{
  char buf[16384];
  ck_assert_uint_le (len, sizeof buf);
  memset (buf, c, len);
  ck_assert_int_eq (pwrite (src_fd, buf, len, pos), (ssize_t) len);
}

/* Copy the source, SIZE bytes long, into the destination as the map M
   says, under SPARSE.  */
static void
copy_as_planned (off_t size, enum sparse_mode sparse)
{
  struct copier c;
  struct plan p;
  struct segment seg;
  ck_assert_int_eq (ftruncate (src_fd, size), 0);
  ck_assert_int_eq (ftruncate (dst_fd, size), 0);
  copier_init (&c, src_fd, "src", dst_fd, "dst", true, 4096);
  c.try_cfr = false;
  plan_init (&p, &m, size, sparse, false);
  while (plan_next (&p, &seg))
    ck_assert_int_eq (copy_segment (&c, &seg, size), COPY_OK);
  copier_free (&c);
}

/* Whether the destination holds the source's SIZE bytes.  */
static bool
same_bytes (off_t size)
{
  static char a[65536], b[65536];
  ck_assert_int_le (size, sizeof a);
  ck_assert_int_eq (pread (src_fd, a, size, 0), size);
  ck_assert_int_eq (pread (dst_fd, b, size, 0), size);
  return memcmp (a, b, size) == 0;
}

/* Whether [START, START+LEN) of FD is a hole, as SEEK_DATA tells; the
   cases that ask run only where probe_holes () found it can.  */
static bool
is_hole (int fd, off_t start, off_t len)
{
  off_t data = lseek (fd, start, SEEK_DATA);
  if (data < 0)
    ck_assert_msg (errno == ENXIO, "SEEK_DATA: %s", strerror (errno));
  return data < 0 || data >= start + len;
}

START_TEST (nonzero_byte_in_a_merged_gap_is_written)
{
  put (0, 4096, 'a');
  put (4096 + 100, 1, 'b');   /* the map lies: no extent shows it */
  put (12288, 4096, 'c');
  put (20480, 4096, 'd');
  add (0, 4096, EXTENT_DATA);
  add (12288, 4096, EXTENT_DATA);
  add (20480, 4096, EXTENT_DATA);
  ck_assert_ptr_null (map_finish (&m, 28672, 12288, 4096, true));
  copy_as_planned (28672, SPARSE_AUTO);
  ck_assert (same_bytes (28672));
  /* The zero block of the lying gap and the true gap stay holes.  */
  ck_assert (is_hole (dst_fd, 8192, 4096));
  ck_assert (is_hole (dst_fd, 16384, 4096));
}
END_TEST

START_TEST (data_in_an_unwritten_extent_is_written)
{
  put (0, 4096, 'a');
  put (8192, 4096, 'u');      /* said to be unwritten, holds data */
  put (20480, 4096, 'c');
  add (0, 4096, EXTENT_DATA);
  add (8192, 8192, EXTENT_UNWRITTEN);
  add (20480, 4096, EXTENT_DATA);
  ck_assert_ptr_null (map_finish (&m, 24576, 8192, 4096, true));
  copy_as_planned (24576, SPARSE_AUTO);
  ck_assert (same_bytes (24576));
  /* The zero half of the unwritten extent and the gaps stay holes.  */
  ck_assert (is_hole (dst_fd, 4096, 4096));
  ck_assert (is_hole (dst_fd, 12288, 8192));
}
END_TEST

START_TEST (never_writes_the_gaps_it_reads)
{
  put (0, 4096, 'a');
  put (8192, 4096, 'c');
  add (0, 4096, EXTENT_DATA);
  add (8192, 4096, EXTENT_DATA);
  ck_assert_ptr_null (map_finish (&m, 12288, 8192, 4096, true));
  copy_as_planned (12288, SPARSE_NEVER);
  ck_assert (same_bytes (12288));
  ck_assert_int_eq (lseek (dst_fd, 0, SEEK_HOLE), 12288);
}
END_TEST

/* Data extents that hold zeros: auto copies them as they are, always
   makes holes of them, in a span as anywhere else.  */
START_TEST (zero_data_in_a_span_follows_the_mode)
{
  put (0, 4096, 'a');
  put (8192, 4096, 0);
  put (16384, 4096, 'c');
  add (0, 4096, EXTENT_DATA);
  add (8192, 4096, EXTENT_DATA);
  add (16384, 4096, EXTENT_DATA);
  ck_assert_ptr_null (map_finish (&m, 20480, 12288, 4096, true));
  copy_as_planned (20480, SPARSE_AUTO);
  ck_assert (same_bytes (20480));
  ck_assert (!is_hole (dst_fd, 8192, 4096));
  ck_assert_int_eq (ftruncate (dst_fd, 0), 0);
  copy_as_planned (20480, SPARSE_ALWAYS);
  ck_assert (same_bytes (20480));
  ck_assert (is_hole (dst_fd, 8192, 4096));
  ck_assert (is_hole (dst_fd, 4096, 4096));
}
END_TEST

/* Two windows plan their own ranges, which meet: the first ends with its
   last extent, the second begins with the hole after it, which is read
   in a span when small (an extent precedes it in the first window) and
   left a hole when large.  */
START_TEST (windows_plan_their_own_ranges)
{
  struct plan p;
  struct segment seg;
  add (0, 4096, EXTENT_DATA);
  map_pause (&m, 65536);
  plan_init (&p, &m, 65536, SPARSE_AUTO, false);
  ck_assert (plan_next (&p, &seg));
  ck_assert_int_eq (seg.kind, SEG_COPY);
  ck_assert_int_eq (seg.start, 0);
  ck_assert_int_eq (seg.len, 4096);
  ck_assert (!plan_next (&p, &seg));

  map_next_window (&m);
  add (8192, 4096, EXTENT_DATA);
  add (12288 + BIG_GAP, 4096, EXTENT_DATA);
  ck_assert_ptr_null (map_finish (&m, 65536, 12288, 4096, true));
  plan_init (&p, &m, 65536, SPARSE_AUTO, false);
  ck_assert (plan_next (&p, &seg));
  ck_assert_int_eq (seg.kind, SEG_SPAN);
  ck_assert_int_eq (seg.start, 4096);
  ck_assert_int_eq (seg.len, 8192);
  ck_assert_uint_eq (seg.nparts, 2);
  ck_assert_int_eq (seg.parts[0].kind, PART_GAP);
  ck_assert (plan_next (&p, &seg));
  ck_assert_int_eq (seg.kind, SEG_HOLE);
  ck_assert_int_eq (seg.len, BIG_GAP);
  ck_assert (plan_next (&p, &seg));
  ck_assert_int_eq (seg.kind, SEG_COPY);
  ck_assert (plan_next (&p, &seg));
  ck_assert_int_eq (seg.kind, SEG_HOLE);
  ck_assert_int_eq (seg.start + seg.len, 65536);
  ck_assert (!plan_next (&p, &seg));
}
END_TEST

static bool holes;
static int skipped;

static Suite *
plan_suite (void)
{
  Suite *s = suite_create ("plan");
  TCase *tc = tcase_create ("segments");
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, auto_keeps_holes_and_copies_data);
  tcase_add_test (tc, unwritten_is_scanned_not_skipped);
  tcase_add_test (tc, always_scans_data_and_merges);
  tcase_add_test (tc, never_writes_zeros_for_holes);
  tcase_add_test (tc, read_map_of_sparse_file_is_scanned);
  tcase_add_test (tc, empty_map_is_one_hole);
  tcase_add_test (tc, data_to_the_end_has_no_trailing_hole);
  suite_add_tcase (s, tc);

  tc = tcase_create ("read spans");
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, small_gaps_are_read_in_one_span);
  tcase_add_test (tc, confirmed_small_gaps_are_skipped);
  tcase_add_test (tc, a_large_hole_is_never_read);
  tcase_add_test (tc, a_small_hole_at_either_end_is_skipped);
  tcase_add_test (tc, spans_fit_the_buffer);
  tcase_add_test (tc, unwritten_extent_in_a_span_is_scanned);
  tcase_add_test (tc, a_large_extent_is_copied_alone);
  tcase_add_test (tc, never_reads_small_gaps_and_writes_them);
  tcase_add_test (tc, always_reads_small_gaps_in_a_span);
  tcase_add_test (tc, no_small_inner_hole_is_skipped);
  suite_add_tcase (s, tc);

  tc = tcase_create ("copying spans");
  tcase_add_checked_fixture (tc, files_setup, files_teardown);
  add_test_if (tc, nonzero_byte_in_a_merged_gap_is_written, holes, "no holes here", &skipped);
  add_test_if (tc, data_in_an_unwritten_extent_is_written, holes, "no holes here", &skipped);
  tcase_add_test (tc, never_writes_the_gaps_it_reads);
  add_test_if (tc, zero_data_in_a_span_follows_the_mode, holes, "no holes here", &skipped);
  tcase_add_test (tc, windows_plan_their_own_ranges);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  holes = probe_holes ();
  SRunner *sr = srunner_create (plan_suite ());
  srunner_run_all (sr, CK_NORMAL);
  int failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  /* Cases left out make the whole a skip (77), unless another failed.  */
  return failed ? EXIT_FAILURE : skipped ? 77 : EXIT_SUCCESS;
}
