/* Unit tests of the progress line's formatting.  */

#include <config.h>

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "progress.h"

enum { KiB = 1024, MiB = 1024 * KiB };
#define GiB ((off_t) 1024 * MiB)

static char buf[4096];

/* A file half done: 32 of 64 MiB of data in 2 seconds, 1 GiB of holes.  */
static struct progress_view
half_done (char const *name)
{
  return (struct progress_view) { .name = name, .done = 32 * MiB,
                                  .total = 64 * MiB, .holes = GiB,
                                  .seconds = 2, .files_begun = 1,
                                  .all_done = 32 * MiB, .all_seconds = 2 };
}

static char const *
human (off_t n)
{
  static char h[PROGRESS_HUMAN_SIZE];
  progress_human (h, n);
  return h;
}

static char const *
duration (double s)
{
  static char d[32];
  progress_duration (d, sizeof d, s);
  return d;
}

START_TEST (sizes_use_1024_based_units_rounded_down)
{
  ck_assert_str_eq (human (0), "0 B");
  ck_assert_str_eq (human (1023), "1023 B");
  ck_assert_str_eq (human (1024), "1.0 KiB");
  ck_assert_str_eq (human (1535), "1.4 KiB");
  ck_assert_str_eq (human (1536), "1.5 KiB");
  ck_assert_str_eq (human (64 * MiB), "64.0 MiB");
  ck_assert_str_eq (human (GiB - 1), "1023.9 MiB");
  ck_assert_str_eq (human (GiB), "1.0 GiB");
  ck_assert_str_eq (human (1024 * GiB), "1.0 TiB");
  ck_assert_str_eq (human (INT64_MAX), "7.9 EiB");
  ck_assert_str_eq (human (-5), "0 B");
}
END_TEST

START_TEST (durations_are_minutes_or_hours)
{
  ck_assert_str_eq (duration (0), "0:00");
  ck_assert_str_eq (duration (59.4), "0:59");
  ck_assert_str_eq (duration (59.5), "1:00");
  ck_assert_str_eq (duration (3599), "59:59");
  ck_assert_str_eq (duration (3600), "1:00:00");
  ck_assert_str_eq (duration (99 * 3600 + 59 * 60 + 59), "99:59:59");
  ck_assert_str_eq (duration (100 * 3600), "--:--");
  ck_assert_str_eq (duration (-1), "--:--");
  ck_assert_str_eq (duration (NAN), "--:--");
  ck_assert_str_eq (duration (INFINITY), "--:--");
}
END_TEST

START_TEST (percent_is_100_only_when_done)
{
  ck_assert_int_eq (progress_percent (0, 100), 0);
  ck_assert_int_eq (progress_percent (99, 100), 99);
  ck_assert_int_eq (progress_percent (100, 100), 100);
  ck_assert_int_eq (progress_percent (999, 1000), 99);
  ck_assert_int_eq (progress_percent (0, 0), 100);
  off_t big = INT64_MAX - 7;
  ck_assert_int_eq (progress_percent (big - 1, big), 99);
  ck_assert_int_eq (progress_percent (big / 2, big), 50);
  ck_assert_int_eq (progress_percent (big, big), 100);
}
END_TEST

START_TEST (line_shows_every_field)
{
  struct progress_view v = half_done ("f");
  size_t n = progress_format (buf, sizeof buf, &v, 80);
  ck_assert_str_eq (buf, "f   50%  32.0 MiB / 64.0 MiB  holes 1.0 GiB"
                    "  16.0 MiB/s  ETA 0:02");
  ck_assert_uint_eq (n, strlen (buf));
}
END_TEST

START_TEST (ended_file_shows_time_taken)
{
  struct progress_view v = half_done ("f");
  v.done = v.all_done = v.total;
  v.seconds = v.all_seconds = 4;
  v.ended = true;
  v.files_done = 1;
  progress_format (buf, sizeof buf, &v, 80);
  ck_assert_str_eq (buf, "f  100%  64.0 MiB / 64.0 MiB  holes 1.0 GiB"
                    "  16.0 MiB/s  in 0:04");
}
END_TEST

START_TEST (no_rate_or_eta_before_the_first_byte)
{
  struct progress_view v = half_done ("f");
  v.done = 0;
  v.seconds = 0;
  progress_format (buf, sizeof buf, &v, 80);
  ck_assert_str_eq (buf, "f    0%  0 B / 64.0 MiB  holes 1.0 GiB"
                    "  -- B/s  ETA --:--");
}
END_TEST

START_TEST (unknown_total_has_no_percent_or_eta)
{
  struct progress_view v = half_done ("pipe");
  v.total = -1;
  v.holes = 0;
  progress_format (buf, sizeof buf, &v, 80);
  ck_assert_str_eq (buf, "pipe  32.0 MiB  16.0 MiB/s");
}
END_TEST

START_TEST (overall_totals_once_a_second_file_began)
{
  struct progress_view v = half_done ("b");
  v.files_begun = 2;
  v.files_done = 1;
  v.all_done = 96 * MiB;
  progress_format (buf, sizeof buf, &v, 0);
  ck_assert_ptr_nonnull (strstr (buf, "  [1 file done, 96.0 MiB]"));
  v.files_begun = 3;
  v.files_done = 2;
  progress_format (buf, sizeof buf, &v, 0);
  ck_assert_ptr_nonnull (strstr (buf, "  [2 files done, 96.0 MiB]"));
}
END_TEST

START_TEST (totals_line)
{
  struct progress_view v = { .name = NULL, .files_begun = 3,
                             .files_done = 3, .all_done = 96 * MiB,
                             .all_holes = 2 * GiB, .all_seconds = 3 };
  progress_format (buf, sizeof buf, &v, 80);
  ck_assert_str_eq (buf, "3 files  96.0 MiB  holes 2.0 GiB  32.0 MiB/s"
                    "  in 0:03");
}
END_TEST

START_TEST (long_name_keeps_its_end_within_the_width)
{
  char name[300];
  memset (name, 'a', sizeof name);
  strcpy (name + sizeof name - 10, "/last.img");
  struct progress_view v = half_done (name);
  for (int width = 70; width <= 200; width += 13)
    {
      size_t n = progress_format (buf, sizeof buf, &v, width);
      ck_assert_uint_eq (n, width - 1);
      ck_assert_uint_eq (strlen (buf), width - 1);
      ck_assert (strncmp (buf, "...", 3) == 0);
      ck_assert_ptr_nonnull (strstr (buf, "/last.img   50%"));
    }
  /* Without a width (a log), the name is whole.  */
  progress_format (buf, sizeof buf, &v, 0);
  ck_assert (strncmp (buf, name, strlen (name)) == 0);
}
END_TEST

START_TEST (holes_then_rate_make_room_for_the_name)
{
  char name[] = "a-name-of-thirty-characters.xx";
  struct progress_view v = half_done (name);
  progress_format (buf, sizeof buf, &v, 100);
  ck_assert_ptr_nonnull (strstr (buf, name));
  ck_assert_ptr_nonnull (strstr (buf, "holes"));
  progress_format (buf, sizeof buf, &v, 80);
  ck_assert_str_eq (buf, "a-name-of-thirty-characters.xx   50%"
                    "  32.0 MiB / 64.0 MiB  16.0 MiB/s  ETA 0:02");
  progress_format (buf, sizeof buf, &v, 70);
  ck_assert_str_eq (buf, "a-name-of-thirty-characters.xx   50%"
                    "  32.0 MiB / 64.0 MiB  ETA 0:02");
  /* Then the name is shortened to what is left.  */
  progress_format (buf, sizeof buf, &v, 50);
  ck_assert_str_eq (buf, "...acters.xx   50%  32.0 MiB / 64.0 MiB  ETA 0:02");
}
END_TEST

START_TEST (narrow_terminal_drops_the_name_then_cuts)
{
  struct progress_view v = half_done ("some-file");
  progress_format (buf, sizeof buf, &v, 40);
  ck_assert_str_eq (buf, " 50%  32.0 MiB / 64.0 MiB  ETA 0:02");
  progress_format (buf, sizeof buf, &v, 20);
  ck_assert_str_eq (buf, " 50%  32.0 MiB / 64");
}
END_TEST

START_TEST (control_characters_in_names_are_hidden)
{
  struct progress_view v = half_done ("a\nb\rc\033[2Jd\177");
  progress_format (buf, sizeof buf, &v, 0);
  ck_assert (strncmp (buf, "a?b?c?[2Jd?  ", 13) == 0);
  ck_assert_ptr_null (strpbrk (buf, "\n\r\033\177"));
}
END_TEST

START_TEST (shortening_never_splits_a_character)
{
  /* "é" is two bytes and one column.  */
  char name[401] = "";
  for (int i = 0; i < 200; i++)
    strcat (name, "\xc3\xa9");
  struct progress_view v = half_done (name);
  for (int width = 70; width < 80; width++)
    {
      progress_format (buf, sizeof buf, &v, width);
      ck_assert (strncmp (buf, "...\xc3\xa9", 5) == 0);
      /* Columns: the characters that are not continuation bytes.  */
      size_t cols = 0;
      for (char const *p = buf; *p; p++)
        cols += (*p & 0xC0) != 0x80;
      ck_assert_uint_eq (cols, width - 1);
      ck_assert_ptr_nonnull (strstr (buf, "\xc3\xa9   50%"));
    }
}
END_TEST

START_TEST (small_buffer_is_cut_and_terminated)
{
  struct progress_view v = half_done ("file");
  char small[10];
  memset (small, 'x', sizeof small);
  size_t n = progress_format (small, sizeof small, &v, 80);
  ck_assert_uint_eq (n, sizeof small - 1);
  ck_assert_str_eq (small, "file   50");
}
END_TEST

static Suite *
progress_suite (void)
{
  Suite *s = suite_create ("progress");
  TCase *tc = tcase_create ("units");
  tcase_add_test (tc, sizes_use_1024_based_units_rounded_down);
  tcase_add_test (tc, durations_are_minutes_or_hours);
  tcase_add_test (tc, percent_is_100_only_when_done);
  suite_add_tcase (s, tc);

  tc = tcase_create ("line");
  tcase_add_test (tc, line_shows_every_field);
  tcase_add_test (tc, ended_file_shows_time_taken);
  tcase_add_test (tc, no_rate_or_eta_before_the_first_byte);
  tcase_add_test (tc, unknown_total_has_no_percent_or_eta);
  tcase_add_test (tc, overall_totals_once_a_second_file_began);
  tcase_add_test (tc, totals_line);
  tcase_add_test (tc, long_name_keeps_its_end_within_the_width);
  tcase_add_test (tc, holes_then_rate_make_room_for_the_name);
  tcase_add_test (tc, narrow_terminal_drops_the_name_then_cuts);
  tcase_add_test (tc, control_characters_in_names_are_hidden);
  tcase_add_test (tc, shortening_never_splits_a_character);
  tcase_add_test (tc, small_buffer_is_cut_and_terminated);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  SRunner *sr = srunner_create (progress_suite ());
  srunner_run_all (sr, CK_NORMAL);
  int failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
