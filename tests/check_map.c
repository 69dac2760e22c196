/* Unit tests of the map stage: validation and normalisation.  */

#include <config.h>

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check-probe.h"
#include "extent-map.h"

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

START_TEST (touching_extents_of_one_kind_merge)
{
  ck_assert_ptr_null (map_add (&m, 0, 4096, EXTENT_DATA));
  ck_assert_ptr_null (map_add (&m, 4096, 8192, EXTENT_DATA));
  ck_assert_ptr_null (map_finish (&m, 12288, 12288, 4096, true));
  ck_assert_uint_eq (m.n, 1);
  ck_assert_int_eq (m.v[0].start, 0);
  ck_assert_int_eq (m.v[0].len, 12288);
}
END_TEST

START_TEST (kinds_and_gaps_stay_apart)
{
  ck_assert_ptr_null (map_add (&m, 0, 4096, EXTENT_DATA));
  ck_assert_ptr_null (map_add (&m, 4096, 4096, EXTENT_UNWRITTEN));
  ck_assert_ptr_null (map_add (&m, 12288, 4096, EXTENT_UNWRITTEN));
  ck_assert_ptr_null (map_finish (&m, 16384, 12288, 4096, true));
  ck_assert_uint_eq (m.n, 3);
  ck_assert_int_eq (m.v[1].kind, EXTENT_UNWRITTEN);
  ck_assert_int_eq (m.v[2].start, 12288);
  ck_assert_int_eq (map_data_bytes (&m), 12288);
}
END_TEST

START_TEST (overlap_is_refused)
{
  ck_assert_ptr_null (map_add (&m, 0, 8192, EXTENT_DATA));
  ck_assert_ptr_nonnull (map_add (&m, 4096, 8192, EXTENT_DATA));
}
END_TEST

START_TEST (unsorted_is_refused)
{
  ck_assert_ptr_null (map_add (&m, 65536, 4096, EXTENT_DATA));
  ck_assert_ptr_nonnull (map_add (&m, 0, 4096, EXTENT_DATA));
}
END_TEST

START_TEST (zero_length_is_refused)
{
  ck_assert_ptr_nonnull (map_add (&m, 0, 0, EXTENT_DATA));
}
END_TEST

START_TEST (negative_and_overflowing_are_refused)
{
  ck_assert_ptr_nonnull (map_add (&m, -4096, 4096, EXTENT_DATA));
  ck_assert_ptr_nonnull (map_add (&m, INT64_MAX - 10, 4096, EXTENT_DATA));
}
END_TEST

START_TEST (extent_after_last_is_refused)
{
  ck_assert_ptr_null (map_add (&m, 0, 4096, EXTENT_DATA));
  m.last_seen = true;
  ck_assert_ptr_nonnull (map_add (&m, 8192, 4096, EXTENT_DATA));
}
END_TEST

START_TEST (past_eof_is_trimmed)
{
  /* The last data block holds the final partial block of a 10000-byte
     file; a preallocated extent lies wholly past the end.  */
  ck_assert_ptr_null (map_add (&m, 0, 12288, EXTENT_DATA));
  ck_assert_ptr_null (map_add (&m, 16384, 65536, EXTENT_UNWRITTEN));
  ck_assert_ptr_null (map_finish (&m, 10000, 81920, 4096, true));
  ck_assert_uint_eq (m.n, 1);
  ck_assert_int_eq (m.v[0].len, 10000);
}
END_TEST

START_TEST (extent_crossing_eof_is_cut)
{
  ck_assert_ptr_null (map_add (&m, 4096, 1 << 20, EXTENT_UNWRITTEN));
  ck_assert_ptr_null (map_finish (&m, 8192, 1 << 20, 4096, true));
  ck_assert_uint_eq (m.n, 1);
  ck_assert_int_eq (m.v[0].start, 4096);
  ck_assert_int_eq (m.v[0].len, 4096);
}
END_TEST

START_TEST (missing_last_is_refused)
{
  ck_assert_ptr_null (map_add (&m, 0, 4096, EXTENT_DATA));
  ck_assert_ptr_nonnull (map_finish (&m, 1 << 20, 4096, 4096, false));
}
END_TEST

START_TEST (fewer_mapped_than_allocated_is_refused)
{
  /* 1 MiB allocated, 64 KiB mapped: a data extent was left out.  */
  ck_assert_ptr_null (map_add (&m, 0, 65536, EXTENT_DATA));
  ck_assert_ptr_nonnull (map_finish (&m, 1 << 20, 1 << 20, 4096, true));
}
END_TEST

START_TEST (metadata_blocks_are_tolerated)
{
  /* st_blocks may count an extent tree block and an xattr block.  */
  ck_assert_ptr_null (map_add (&m, 0, 65536, EXTENT_DATA));
  ck_assert_ptr_null (map_finish (&m, 65536, 65536 + 8192, 4096, true));
}
END_TEST

START_TEST (one_missing_block_past_slack_is_refused)
{
  ck_assert_ptr_null (map_add (&m, 0, 65536, EXTENT_DATA));
  ck_assert_ptr_nonnull (map_finish (&m, 65536, 65536 + 12288, 4096, true));
}
END_TEST

/* Map 1,000 extents of 1 KiB, one every 2 KiB, as FIEMAP would on an
   ext4 of 1 KiB blocks, and finish the map with ALLOCATED bytes of
   st_blocks; return map_finish's complaint, or NULL.  */
static map_distrust
finish_small_stripes (off_t allocated)
{
  map_reset (&m, SCAN_FIEMAP);
  for (off_t i = 0; i < 1000; i++)
    ck_assert_ptr_null (map_add (&m, i * 2048, 1024, EXTENT_DATA));
  return map_finish (&m, 2048000, allocated, 1024, true);
}

START_TEST (small_blocks_hold_a_larger_tree)
{
  /* 12 leaves of 84 extents, an index block and an xattr block are
     14 KiB of st_blocks that no extent maps; a hidden extent of 64 KiB
     more is still seen.  */
  off_t data = 1000 * 1024;
  ck_assert_ptr_null (finish_small_stripes (data + 14 * 1024));
  ck_assert_ptr_nonnull (finish_small_stripes (data + 78 * 1024));
}
END_TEST

START_TEST (empty_map_of_sparse_file_is_trusted)
{
  ck_assert_ptr_null (map_finish (&m, (off_t) 1 << 40, 0, 4096, true));
  ck_assert_uint_eq (m.n, 0);
}
END_TEST

START_TEST (read_map_covers_the_file)
{
  struct stat st = { .st_size = 12345 };
  ck_assert_int_eq (map_read (&st, &m), MAP_OK);
  ck_assert_uint_eq (m.n, 1);
  ck_assert_int_eq (m.method, SCAN_READ);
  ck_assert_int_eq (m.v[0].len, 12345);
}
END_TEST

START_TEST (many_extents_grow_the_map)
{
  for (off_t i = 0; i < 100000; i++)
    ck_assert_ptr_null (map_add (&m, i * 8192, 4096, EXTENT_DATA));
  ck_assert_ptr_null (map_finish (&m, 100000 * 8192, 100000 * 4096, 4096,
                                  true));
  ck_assert_uint_eq (m.n, 100000);
  ck_assert_int_eq (m.v[99999].start, 99999 * 8192);
}
END_TEST

/* A new file, already unlinked, in the current directory.  */
static int
temp_file (void)
{
  char name[] = "check_map.XXXXXX";
  int w = mkstemp (name);
  ck_assert_int_ge (w, 0);
  unlink (name);
  return w;
}

/* A file of 128 KiB with 4 KiB of data at 0 and at 64 KiB, open for
   reading in *FD; false when SEEK_DATA cannot tell holes here.  */
static bool
two_block_file (int *fd)
{
  char buf[4096];
  int w = temp_file ();
  memset (buf, 'x', sizeof buf);
  ck_assert_int_eq (pwrite (w, buf, sizeof buf, 0), sizeof buf);
  ck_assert_int_eq (pwrite (w, buf, sizeof buf, 65536), sizeof buf);
  ck_assert_int_eq (ftruncate (w, 131072), 0);
  ck_assert_int_eq (fdatasync (w), 0);
  *fd = w;
  return lseek (w, 4096, SEEK_DATA) == 65536;
}

START_TEST (seek_data_confirms_true_holes)
{
  int fd;
  ck_assert_msg (two_block_file (&fd), "SEEK_DATA found no hole");
  ck_assert_ptr_null (map_add (&m, 0, 4096, EXTENT_DATA));
  ck_assert_ptr_null (map_add (&m, 65536, 4096, EXTENT_DATA));
  ck_assert_ptr_null (map_finish (&m, 131072, 8192, 4096, true));
  ck_assert_ptr_null (map_confirm_holes (fd, &m, 131072));
  close (fd);
}
END_TEST

START_TEST (seek_data_refutes_a_hidden_extent)
{
  int fd;
  ck_assert_msg (two_block_file (&fd), "SEEK_DATA found no hole");
  /* The extent at 64 KiB left out, as a lying FIEMAP would: too small
     for the st_blocks check, so only SEEK_DATA can tell.  */
  ck_assert_ptr_null (map_add (&m, 0, 4096, EXTENT_DATA));
  ck_assert_ptr_null (map_finish (&m, 131072, 8192, 4096, true));
  ck_assert_ptr_nonnull (map_confirm_holes (fd, &m, 131072));
  map_reset (&m, SCAN_FIEMAP);
  /* And the one at 0, where the first hole starts the file.  */
  ck_assert_ptr_null (map_add (&m, 65536, 4096, EXTENT_DATA));
  ck_assert_ptr_null (map_finish (&m, 131072, 8192, 4096, true));
  ck_assert_ptr_nonnull (map_confirm_holes (fd, &m, 131072));
  close (fd);
}
END_TEST

START_TEST (an_extent_too_long_is_stored_in_pieces)
{
  off_t big = EXTENT_LEN_MAX + 100;
  ck_assert_ptr_null (map_add (&m, 4096, 4096, EXTENT_DATA));
  ck_assert_ptr_null (map_add (&m, 8192, big, EXTENT_DATA));
  ck_assert_ptr_null (map_add (&m, 8192 + big, 4096, EXTENT_DATA));
  ck_assert_uint_eq (m.n, 2);
  ck_assert_int_eq (m.v[0].start, 4096);
  ck_assert_int_eq (m.v[0].len, EXTENT_LEN_MAX);
  ck_assert_int_eq (m.v[1].start, 4096 + EXTENT_LEN_MAX);
  ck_assert_int_eq (m.v[1].len, 4096 + 100 + 4096);
  map_pause (&m, INT64_MAX);
  ck_assert_int_eq (map_data_bytes (&m), 8192 + big);
  /* A read map of the largest file covers all of it.  */
  struct stat st = { .st_size = INT64_MAX };
  ck_assert_int_eq (map_read (&st, &m), MAP_OK);
  ck_assert_uint_eq (m.n, 3);   /* 2^63 - 1 = 2 * EXTENT_LEN_MAX + 1 */
  ck_assert_int_eq (map_data_bytes (&m), INT64_MAX);
}
END_TEST

/* How many pages of [AT, AT+LEN) of FD are in the page cache, or -1
   when mincore () cannot tell.  AT is a multiple of the page size.  */
static int
cached_pages (int fd, off_t at, size_t len)
{
  unsigned char vec[16];
  size_t page = sysconf (_SC_PAGESIZE);
  size_t n = (len + page - 1) / page;
  if (n > sizeof vec)
    return -1;
  void *p = mmap (NULL, len, PROT_READ, MAP_SHARED, fd, at);
  if (p == MAP_FAILED)
    return -1;
  int r = mincore (p, len, vec);
  munmap (p, len);
  int cached = 0;
  for (size_t k = 0; k < n; k++)
    cached += vec[k] & 1;
  return r == 0 ? cached : -1;
}

/* A file whose map below hides the block at 8 KiB in the hole
   [4 KiB, 12 KiB) between two extents, a hole small enough to be read
   rather than asked about.  */
static bool
hidden_block_file (int *fd)
{
  if (!two_block_file (fd))
    return false;
  char buf[4096];
  memset (buf, 'y', sizeof buf);
  ck_assert_int_eq (pwrite (*fd, buf, sizeof buf, 8192), sizeof buf);
  ck_assert_int_eq (pwrite (*fd, buf, sizeof buf, 12288), sizeof buf);
  ck_assert_int_eq (pwrite (*fd, buf, sizeof buf, 126976), sizeof buf);
  ck_assert_int_eq (fdatasync (*fd), 0);
  ck_assert_ptr_null (map_add (&m, 0, 4096, EXTENT_DATA));
  ck_assert_ptr_null (map_add (&m, 12288, 4096, EXTENT_DATA));
  ck_assert_ptr_null (map_add (&m, 65536, 4096, EXTENT_DATA));
  ck_assert_ptr_null (map_add (&m, 126976, 4096, EXTENT_DATA));
  ck_assert_ptr_null (map_finish (&m, 131072, 16384, 4096, true));
  return true;
}

/* hidden_block_file () with the file dropped from the page cache.
   False, with nothing left open, when the filesystem keeps its pages.  */
static bool
uncached_hidden_block_file (int *fd)
{
  if (!hidden_block_file (fd))
    return false;
  ck_assert_int_eq (posix_fadvise (*fd, 0, 0, POSIX_FADV_DONTNEED), 0);
  if (cached_pages (*fd, 4096, 8192) == 0)
    return true;
  close (*fd);
  return false;
}

/* When not 0, SEEK_DATA fails with this errno: lseek () here takes the
   place of libc's for the map code linked into this test.  */
static int seek_data_errno;

off_t
lseek (int fd, off_t pos, int whence)
{
  if (whence == SEEK_DATA && seek_data_errno)
    {
      errno = seek_data_errno;
      return -1;
    }
  return syscall (SYS_lseek, fd, pos, whence);
}

START_TEST (cached_small_holes_are_left_to_the_copy)
{
  int fd;
  char buf[8192];
  ck_assert_msg (hidden_block_file (&fd), "SEEK_DATA found no hole");
  /* The small hole in the page cache: the copy reads it, finds the
     block and writes it, so SEEK_DATA is not asked.  */
  ck_assert_int_eq (pread (fd, buf, sizeof buf, 4096), sizeof buf);
  if (cached_pages (fd, 4096, 8192) == 2)
    {
      ck_assert_ptr_null (map_confirm_holes (fd, &m, 131072));
      ck_assert (m.read_gaps);
      ck_assert (map_gap_is_read (&m, 8192));
    }
  /* A large hole between two extents is always asked about.  */
  map_reset (&m, SCAN_FIEMAP);
  ck_assert_ptr_null (map_add (&m, 0, 4096, EXTENT_DATA));
  ck_assert_ptr_null (map_add (&m, 8192, 8192, EXTENT_DATA));
  ck_assert_ptr_null (map_add (&m, 126976, 4096, EXTENT_DATA));
  ck_assert_ptr_null (map_finish (&m, 131072, 16384, 4096, true));
  ck_assert_ptr_nonnull (map_confirm_holes (fd, &m, 131072));
  close (fd);
}
END_TEST

START_TEST (uncached_small_holes_are_confirmed)
{
  int fd;
  ck_assert_msg (uncached_hidden_block_file (&fd),
                 "no hole, or pages kept in the page cache");
  /* Out of the page cache, reading the hole would cost a zeroed page
     per block: SEEK_DATA is asked instead, and finds the block.  */
  ck_assert_ptr_nonnull (map_confirm_holes (fd, &m, 131072));
  ck_assert (!m.read_gaps);
  ck_assert (!map_gap_is_read (&m, 4096));
  close (fd);
}
END_TEST

START_TEST (uncached_small_holes_are_read_when_seek_data_cannot_tell)
{
  int fd;
  ck_assert_msg (uncached_hidden_block_file (&fd),
                 "no hole, or pages kept in the page cache");
  /* SEEK_DATA fails: the small holes it did not confirm are left to
     the copy after all, which reads them and finds the block.  */
  seek_data_errno = EINVAL;
  ck_assert_ptr_null (map_confirm_holes (fd, &m, 131072));
  seek_data_errno = 0;
  ck_assert (m.read_gaps);
  close (fd);
}
END_TEST

/* Four blocks of data with a one-block hole after each of the first
   three, mapped as such, and out of the page cache but for the holes
   whose bits are set in CACHED (1: the first, 2: the second, 4: the
   third).  False, with nothing left open, when the page cache cannot be
   made to look so.  */
static bool
striped_file (int *fd, unsigned cached)
{
  char buf[4096];
  int w = temp_file ();
  memset (buf, 's', sizeof buf);
  for (int k = 0; k < 4; k++)
    {
      ck_assert_int_eq (pwrite (w, buf, sizeof buf, k * 8192), sizeof buf);
      ck_assert_ptr_null (map_add (&m, k * 8192, 4096, EXTENT_DATA));
    }
  ck_assert_int_eq (fdatasync (w), 0);
  ck_assert_ptr_null (map_finish (&m, 28672, 16384, 4096, true));
  /* No readahead: a read caches the page it asks for, no other.  */
  ck_assert_int_eq (posix_fadvise (w, 0, 0, POSIX_FADV_DONTNEED), 0);
  ck_assert_int_eq (posix_fadvise (w, 0, 0, POSIX_FADV_RANDOM), 0);
  for (int k = 0; k < 3; k++)
    if (cached & (1u << k))
      ck_assert_int_eq (pread (w, buf, sizeof buf, k * 8192 + 4096),
                        sizeof buf);
  for (int k = 0; k < 3; k++)
    if (cached_pages (w, k * 8192 + 4096, 4096) != !!(cached & (1u << k)))
      {
        close (w);
        return false;
      }
  *fd = w;
  return lseek (w, 4096, SEEK_DATA) == 8192;
}

/* The sampled holes share one mapping: each must still be judged by
   its own pages, not by the first one's.  */
START_TEST (each_sampled_hole_counts_its_own_pages)
{
  int fd;
  if (striped_file (&fd, 1))
    {
      /* One of three cached: the holes are confirmed.  */
      ck_assert_ptr_null (map_confirm_holes (fd, &m, 28672));
      ck_assert (!m.read_gaps);
      close (fd);
    }
  map_reset (&m, SCAN_FIEMAP);
  if (striped_file (&fd, 2 | 4))
    {
      /* Two of three: read.  */
      ck_assert_ptr_null (map_confirm_holes (fd, &m, 28672));
      ck_assert (m.read_gaps);
      close (fd);
    }
}
END_TEST

/* The page cache is judged once for the file, by the first window that
   has a small hole to sample: a later window neither samples its own
   holes again nor changes the answer.  */
START_TEST (holes_are_judged_once_a_file)
{
  int fd;
  if (striped_file (&fd, 1))
    {
      /* The same file in two windows; the first one's hole is cached.  */
      map_reset (&m, SCAN_FIEMAP);
      ck_assert_ptr_null (map_add (&m, 0, 4096, EXTENT_DATA));
      ck_assert_ptr_null (map_add (&m, 8192, 4096, EXTENT_DATA));
      map_pause (&m, 28672);
      ck_assert_ptr_null (map_confirm_holes (fd, &m, 28672));
      ck_assert (m.read_gaps);
      map_next_window (&m);
      ck_assert_ptr_null (map_add (&m, 16384, 4096, EXTENT_DATA));
      ck_assert_ptr_null (map_add (&m, 24576, 4096, EXTENT_DATA));
      ck_assert_ptr_null (map_finish (&m, 28672, 16384, 4096, true));
      /* Its holes are not, but the first answer stands.  */
      ck_assert_ptr_null (map_confirm_holes (fd, &m, 28672));
      ck_assert (m.read_gaps);
      close (fd);
    }
  map_reset (&m, SCAN_FIEMAP);
  if (striped_file (&fd, 0))
    {
      /* A first window of one extent has no hole to sample: the
         second, whose holes are not cached, decides.  */
      map_reset (&m, SCAN_FIEMAP);
      ck_assert_ptr_null (map_add (&m, 0, 4096, EXTENT_DATA));
      map_pause (&m, 28672);
      ck_assert_ptr_null (map_confirm_holes (fd, &m, 28672));
      map_next_window (&m);
      for (int k = 1; k < 4; k++)
        ck_assert_ptr_null (map_add (&m, k * 8192, 4096, EXTENT_DATA));
      ck_assert_ptr_null (map_finish (&m, 28672, 16384, 4096, true));
      ck_assert_ptr_null (map_confirm_holes (fd, &m, 28672));
      ck_assert (!m.read_gaps);
      close (fd);
    }
}
END_TEST

/* A map made in two windows: each holds only its own extents and range,
   and the checks of the whole map see both.  */
START_TEST (windows_hold_their_own_extents)
{
  ck_assert_ptr_null (map_add (&m, 0, 4096, EXTENT_DATA));
  ck_assert_ptr_null (map_add (&m, 8192, 4096, EXTENT_DATA));
  map_pause (&m, 65536);
  ck_assert (!m.done);
  ck_assert_int_eq (m.start, 0);
  ck_assert_int_eq (m.end, 12288);
  map_next_window (&m);
  ck_assert_uint_eq (m.n, 0);
  ck_assert_int_eq (m.start, 12288);
  ck_assert_ptr_null (map_add (&m, 32768, 4096, EXTENT_DATA));
  ck_assert_ptr_null (map_finish (&m, 65536, 12288, 4096, true));
  ck_assert (m.done);
  ck_assert_uint_eq (m.n, 1);
  ck_assert_int_eq (m.end, 65536);
  ck_assert_uint_eq (m.extents, 3);
  ck_assert_int_eq (map_data_bytes (&m), 12288);
}
END_TEST

START_TEST (order_holds_across_windows)
{
  ck_assert_ptr_null (map_add (&m, 8192, 4096, EXTENT_DATA));
  map_pause (&m, 65536);
  map_next_window (&m);
  /* Before the end of the last window's last extent.  */
  ck_assert_ptr_nonnull (map_add (&m, 4096, 4096, EXTENT_DATA));
}
END_TEST

START_TEST (last_holds_across_windows)
{
  ck_assert_ptr_null (map_add (&m, 0, 4096, EXTENT_DATA));
  m.last_seen = true;
  map_pause (&m, 65536);
  map_next_window (&m);
  ck_assert_ptr_nonnull (map_add (&m, 8192, 4096, EXTENT_DATA));
}
END_TEST

/* The st_blocks check counts the bytes of every window, not the last
   one's only: 12 KiB mapped in all passes where 4 KiB would not.  */
START_TEST (allocation_is_checked_over_all_windows)
{
  for (int i = 0; i < 3; i++)
    {
      map_next_window (&m);
      ck_assert_ptr_null (map_add (&m, i * 65536, 4096, EXTENT_DATA));
      if (i < 2)
        map_pause (&m, 1 << 20);
    }
  ck_assert_ptr_null (map_finish (&m, 1 << 20, 12288 + 8192, 4096, true));
  map_reset (&m, SCAN_FIEMAP);
  ck_assert_ptr_null (map_add (&m, 2 * 65536, 4096, EXTENT_DATA));
  ck_assert_ptr_nonnull (map_finish (&m, 1 << 20, 12288 + 8192, 4096, true));
}
END_TEST

/* SEEK_DATA is asked about a window's holes only: the hole after its
   last extent is the next window's, which asks about it once it knows
   where that hole ends.  */
START_TEST (a_window_confirms_its_own_holes)
{
  int fd;
  ck_assert_msg (two_block_file (&fd), "SEEK_DATA found no hole");
  /* A first window of the block at 0 only: the data at 64 KiB lies in
     the hole after it, which this window leaves alone.  */
  ck_assert_ptr_null (map_add (&m, 0, 4096, EXTENT_DATA));
  map_pause (&m, 131072);
  ck_assert_ptr_null (map_confirm_holes (fd, &m, 131072));
  /* A last window with nothing in it: that hole is now its, and
     SEEK_DATA finds the data in it.  */
  map_next_window (&m);
  ck_assert_ptr_null (map_finish (&m, 131072, 8192, 4096, true));
  ck_assert_int_eq (m.start, 4096);
  ck_assert_ptr_nonnull (map_confirm_holes (fd, &m, 131072));
  close (fd);
}
END_TEST

/* Whether the filesystem here drops a written file's pages when asked
   (tmpfs keeps them: they are its only copy).  */
static bool
probe_droppable (void)
{
  char buf[16384] = { 'x' };
  int fd = probe_temp_file ();
  if (fd < 0)
    return false;
  bool ok = (pwrite (fd, buf, sizeof buf, 0) == sizeof buf
             && fdatasync (fd) == 0
             && posix_fadvise (fd, 0, 0, POSIX_FADV_DONTNEED) == 0
             && cached_pages (fd, 4096, 8192) == 0);
  close (fd);
  return ok;
}

static bool holes, droppable;

static int skipped;

static Suite *
map_suite (void)
{
  Suite *s = suite_create ("map");
  TCase *tc = tcase_create ("validate");
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, touching_extents_of_one_kind_merge);
  tcase_add_test (tc, kinds_and_gaps_stay_apart);
  tcase_add_test (tc, overlap_is_refused);
  tcase_add_test (tc, unsorted_is_refused);
  tcase_add_test (tc, zero_length_is_refused);
  tcase_add_test (tc, negative_and_overflowing_are_refused);
  tcase_add_test (tc, extent_after_last_is_refused);
  tcase_add_test (tc, past_eof_is_trimmed);
  tcase_add_test (tc, extent_crossing_eof_is_cut);
  tcase_add_test (tc, missing_last_is_refused);
  tcase_add_test (tc, fewer_mapped_than_allocated_is_refused);
  tcase_add_test (tc, metadata_blocks_are_tolerated);
  tcase_add_test (tc, one_missing_block_past_slack_is_refused);
  tcase_add_test (tc, small_blocks_hold_a_larger_tree);
  tcase_add_test (tc, empty_map_of_sparse_file_is_trusted);
  tcase_add_test (tc, read_map_covers_the_file);
  tcase_add_test (tc, many_extents_grow_the_map);
  add_test_if (tc, seek_data_confirms_true_holes, holes, "no holes here", &skipped);
  add_test_if (tc, seek_data_refutes_a_hidden_extent, holes, "no holes here", &skipped);
  add_test_if (tc, cached_small_holes_are_left_to_the_copy, holes, "no holes here", &skipped);
  add_test_if (tc, uncached_small_holes_are_confirmed, holes && droppable,
               holes ? "pages are kept here (tmpfs)" : "no holes here", &skipped);
  add_test_if (tc, uncached_small_holes_are_read_when_seek_data_cannot_tell, holes && droppable,
               holes ? "pages are kept here (tmpfs)" : "no holes here", &skipped);
  tcase_add_test (tc, holes_are_judged_once_a_file);
  tcase_add_test (tc, each_sampled_hole_counts_its_own_pages);
  tcase_add_test (tc, an_extent_too_long_is_stored_in_pieces);
  tcase_add_test (tc, windows_hold_their_own_extents);
  tcase_add_test (tc, order_holds_across_windows);
  tcase_add_test (tc, last_holds_across_windows);
  tcase_add_test (tc, allocation_is_checked_over_all_windows);
  add_test_if (tc, a_window_confirms_its_own_holes, holes, "no holes here", &skipped);
  suite_add_tcase (s, tc);
  return s;
}

int
main (void)
{
  holes = probe_holes ();
  droppable = probe_droppable ();
  SRunner *sr = srunner_create (map_suite ());
  srunner_run_all (sr, CK_NORMAL);
  int failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  /* Cases left out make the whole a skip (77), unless another failed.  */
  return failed ? EXIT_FAILURE : skipped ? 77 : EXIT_SUCCESS;
}
