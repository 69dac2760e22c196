/* Unit tests of zero-run detection.  */

#include <config.h>

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "zero-run.h"

enum { BLK = 4096 };
static char buf[8 * BLK];

static void
setup (void)
{
  memset (buf, 0, sizeof buf);
}

START_TEST (is_zero_sees_every_byte)
{
  for (size_t n = 1; n <= 100; n++)
    for (size_t i = 0; i < n; i++)
      {
        ck_assert (is_zero (buf, n));
        buf[i] = 1;
        ck_assert (!is_zero (buf, n));
        buf[i] = 0;
      }
  ck_assert (is_zero (buf, 0));
  buf[sizeof buf - 1] = 1;
  ck_assert (!is_zero (buf, sizeof buf));
}
END_TEST

START_TEST (aligned_zero_blocks_form_one_run)
{
  bool zero;
  buf[3 * BLK] = 'x';
  ck_assert_uint_eq (next_run (buf, sizeof buf, 0, BLK, false, &zero),
                     3 * BLK);
  ck_assert (zero);
  ck_assert_uint_eq (next_run (buf + 3 * BLK, 5 * BLK, 3 * BLK, BLK, false,
                               &zero), BLK);
  ck_assert (!zero);
}
END_TEST

START_TEST (one_byte_of_data_keeps_its_block)
{
  bool zero;
  buf[BLK + 1234] = 1;
  ck_assert_uint_eq (next_run (buf, sizeof buf, 0, BLK, false, &zero), BLK);
  ck_assert (zero);
  ck_assert_uint_eq (next_run (buf + BLK, 7 * BLK, BLK, BLK, false, &zero),
                     BLK);
  ck_assert (!zero);
  ck_assert_uint_eq (next_run (buf + 2 * BLK, 6 * BLK, 2 * BLK, BLK, false,
                               &zero), 6 * BLK);
  ck_assert (zero);
}
END_TEST

START_TEST (unaligned_start_is_data_until_a_block_boundary)
{
  bool zero;
  /* The buffer starts 100 bytes into a block: those first bytes are
     data even though they are zero, as half a block is no hole.  */
  ck_assert_uint_eq (next_run (buf, 3 * BLK, 100, BLK, false, &zero),
                     BLK - 100);
  ck_assert (!zero);
  ck_assert_uint_eq (next_run (buf + BLK - 100, 2 * BLK + 100, BLK, BLK,
                               false, &zero), 2 * BLK);
  ck_assert (zero);
}
END_TEST

START_TEST (unaligned_end_is_data_unless_at_eof)
{
  bool zero;
  ck_assert_uint_eq (next_run (buf, BLK + 10, 0, BLK, false, &zero), BLK);
  ck_assert (zero);
  ck_assert_uint_eq (next_run (buf + BLK, 10, BLK, BLK, false, &zero), 10);
  ck_assert (!zero);
  /* At the end of the file, the size is set afterwards: a hole will do.  */
  ck_assert_uint_eq (next_run (buf, BLK + 10, 0, BLK, true, &zero), BLK + 10);
  ck_assert (zero);
}
END_TEST

START_TEST (one_byte_zero_run_is_not_a_hole)
{
  bool zero;
  memset (buf, 'a', sizeof buf);
  buf[5] = 0;
  ck_assert_uint_eq (next_run (buf, sizeof buf, 0, BLK, false, &zero),
                     sizeof buf);
  ck_assert (!zero);
}
END_TEST

START_TEST (runs_split_at_buffer_edges_rejoin)
{
  /* A zero run crossing the edge of two reads is a hole in both halves;
     the caller skips both, so the hole is whole.  */
  bool z1, z2;
  memset (buf, 'a', BLK);
  size_t half = 4 * BLK;
  size_t r1 = next_run (buf + BLK, half - BLK, BLK, BLK, false, &z1);
  size_t r2 = next_run (buf + half, sizeof buf - half, half, BLK, false, &z2);
  ck_assert (z1 && z2);
  ck_assert_uint_eq (r1 + r2, sizeof buf - BLK);
}
END_TEST

START_TEST (small_blocks_work_too)
{
  bool zero;
  buf[700] = 1;
  ck_assert_uint_eq (next_run (buf, 2048, 0, 512, false, &zero), 512);
  ck_assert (zero);
  ck_assert_uint_eq (next_run (buf + 512, 1536, 512, 512, false, &zero), 512);
  ck_assert (!zero);
}
END_TEST

static Suite *
zero_suite (void)
{
  Suite *s = suite_create ("zero-run");
  TCase *tc = tcase_create ("runs");
  tcase_add_checked_fixture (tc, setup, NULL);
  tcase_add_test (tc, is_zero_sees_every_byte);
  tcase_add_test (tc, aligned_zero_blocks_form_one_run);
  tcase_add_test (tc, one_byte_of_data_keeps_its_block);
  tcase_add_test (tc, unaligned_start_is_data_until_a_block_boundary);
  tcase_add_test (tc, unaligned_end_is_data_unless_at_eof);
  tcase_add_test (tc, one_byte_zero_run_is_not_a_hole);
  tcase_add_test (tc, runs_split_at_buffer_edges_rejoin);
  tcase_add_test (tc, small_blocks_work_too);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (zero_suite ());
  srunner_run_all (sr, CK_NORMAL);
  int failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
