/* Unit tests of the plan stage.  */

#include <config.h>

#include <check.h>
#include <stdlib.h>

#include "copy-plan.h"

static struct extent_map m;

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
  while (plan_next (&p, &seg))
    {
      /* Segments tile the file, in order, with no gap.  */
      ck_assert_int_eq (seg.start, pos);
      ck_assert_int_gt (seg.len, 0);
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

START_TEST (auto_keeps_holes_and_copies_data)
{
  struct segment s[8];
  add (4096, 4096, EXTENT_DATA);
  add (16384, 4096, EXTENT_DATA);
  ck_assert_ptr_null (map_finish (&m, 32768, 8192, 4096, true));
  ck_assert_uint_eq (plan_all (32768, SPARSE_AUTO, false, s, 8), 5);
  ck_assert_int_eq (s[0].kind, SEG_HOLE);
  ck_assert_int_eq (s[0].len, 4096);
  ck_assert_int_eq (s[1].kind, SEG_COPY);
  ck_assert_int_eq (s[2].kind, SEG_HOLE);
  ck_assert_int_eq (s[2].len, 8192);
  ck_assert_int_eq (s[3].kind, SEG_COPY);
  ck_assert_int_eq (s[4].kind, SEG_HOLE);
  ck_assert_int_eq (s[4].start, 20480);
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
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (plan_suite ());
  srunner_run_all (sr, CK_NORMAL);
  int failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
