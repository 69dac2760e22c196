/* Mapping with the FIEMAP ioctl, after forcing delayed allocation out
   with FIEMAP_FLAG_SYNC, so that data only in the page cache is not
   reported as a hole.  */

#include "extent-map.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/fs.h>
#include <linux/fiemap.h>

#include "xalloc.h"

/* Extents asked for per call: enough that a fragmented file takes few
   calls, small enough to keep the buffer under 256 KiB.  */
enum { FIEMAP_BATCH_MIN = 64, FIEMAP_BATCH_MAX = 4096 };

/* Flags under which the extent's bytes are real data even though the
   extent is also UNWRITTEN: take the safe reading.  */
#define FIEMAP_DATA_FLAGS (FIEMAP_EXTENT_DELALLOC | FIEMAP_EXTENT_UNKNOWN \
                           | FIEMAP_EXTENT_DATA_INLINE \
                           | FIEMAP_EXTENT_DATA_TAIL \
                           | FIEMAP_EXTENT_ENCODED)

/* Whether errno E from FS_IOC_FIEMAP means "not available here" rather
   than a failure of this file.  */
static bool
is_fiemap_unsupported (int e)
{
  return e == EOPNOTSUPP || e == ENOTTY || e == ENOSYS || e == EINVAL
         || e == EBADR;
}

static enum extent_kind
fiemap_extent_kind (uint32_t flags)
{
  if ((flags & FIEMAP_EXTENT_UNWRITTEN) && !(flags & FIEMAP_DATA_FLAGS))
    return EXTENT_UNWRITTEN;
  return EXTENT_DATA;
}

/* Size the batch to the file: about one extent per 64 KiB allocated.  */
static size_t
fiemap_batch (struct stat const *st)
{
  off_t guess = st->st_blocks / 128;
  if (guess < FIEMAP_BATCH_MIN)
    return FIEMAP_BATCH_MIN;
  if (guess > FIEMAP_BATCH_MAX)
    return FIEMAP_BATCH_MAX;
  return guess;
}

enum map_status
map_fiemap (int fd, struct stat const *st,
            struct extent_map *m, map_distrust *why)
{
  size_t count = fiemap_batch (st);
  /* Zeroed, not only for safety: valgrind does not see the kernel fill
     fm_extents, and would report every extent read as uninitialised
     (coreutils' tests/cp/copy-FMR.sh runs cp under valgrind).  */
  struct fiemap *fm = xcalloc (1, sizeof *fm
                                  + count * sizeof (struct fiemap_extent));
  enum map_status status = MAP_OK;
  off_t pos = 0;
  bool complete = false;

  map_reset (m, SCAN_FIEMAP);
  *why = NULL;

  for (;;)
    {
      memset (fm, 0, sizeof *fm);
      fm->fm_start = pos;
      fm->fm_length = FIEMAP_MAX_OFFSET - pos;
      fm->fm_flags = FIEMAP_FLAG_SYNC;
      fm->fm_extent_count = count;

      if (ioctl (fd, FS_IOC_FIEMAP, fm) < 0)
        {
          int e = errno;
          if (e == EINTR)
            continue;
          *why = strerror (e);
          status = is_fiemap_unsupported (e) ? MAP_UNSUPPORTED : MAP_UNTRUSTED;
          goto out;
        }

      uint32_t n = fm->fm_mapped_extents;
      if (n == 0)
        {
          /* Nothing at or after POS.  */
          complete = true;
          break;
        }
      if (n > count)
        {
          *why = "FIEMAP returned more extents than asked for";
          status = MAP_UNTRUSTED;
          goto out;
        }

      for (uint32_t i = 0; i < n; i++)
        {
          struct fiemap_extent const *fe = &fm->fm_extents[i];
          if (fe->fe_logical > INT64_MAX || fe->fe_length > INT64_MAX)
            {
              *why = "extent outside any possible file";
              status = MAP_UNTRUSTED;
              goto out;
            }
          *why = map_add (m, fe->fe_logical, fe->fe_length,
                          fiemap_extent_kind (fe->fe_flags));
          if (*why)
            {
              status = MAP_UNTRUSTED;
              goto out;
            }
          if (fe->fe_flags & FIEMAP_EXTENT_LAST)
            m->last_seen = true;
        }

      if (m->last_seen)
        {
          complete = true;
          break;
        }
      /* A short batch must end with the extent marked last; one that
         does not is an answer cut short.  */
      if (n < count)
        break;
      pos = m->raw_end;
    }

  *why = map_finish (m, st->st_size, (off_t) st->st_blocks * 512,
                     st->st_blksize, complete);
  /* FIEMAP has hidden data before; when SEEK_DATA sees data in one of
     its holes, believe neither and go on.  */
  if (!*why)
    *why = map_confirm_holes (fd, m, st->st_size);
  if (*why)
    status = MAP_UNTRUSTED;
 out:
  free (fm);
  return status;
}
