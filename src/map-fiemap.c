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

/* Extents asked for per call, and so in a window: enough that a
   fragmented file takes few calls, few enough to keep the buffer under
   256 KiB.  */
enum { FIEMAP_BATCH_MIN = 64, FIEMAP_BATCH_MAX = MAP_WINDOW_MAX };

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

/* M's FIEMAP request, with room for a batch of extents of the file
   whose status is ST: *COUNT of them.  Kept across windows.  */
static struct fiemap *
fiemap_buffer (struct extent_map *m, struct stat const *st, size_t *count)
{
  *count = fiemap_batch (st);
  if (m->buf_count < *count)
    {
      /* Zeroed, not only for safety: valgrind does not see the kernel
         fill fm_extents, and would report every extent read as
         uninitialised (coreutils' tests/cp/copy-FMR.sh runs cp under
         valgrind).  */
      free (m->buf);
      m->buf = xcalloc (1, sizeof (struct fiemap)
                           + *count * sizeof (struct fiemap_extent));
      m->buf_count = *count;
    }
  return m->buf;
}

enum map_status
map_fiemap (int fd, struct stat const *st,
            struct extent_map *m, map_distrust *why)
{
  size_t count;
  struct fiemap *fm = fiemap_buffer (m, st, &count);

  /* The last window's holes are asked about until now.  */
  *why = map_settle (m);
  if (*why)
    return MAP_UNTRUSTED;
  map_next_window (m);
  *why = NULL;

  for (;;)
    {
      memset (fm, 0, sizeof *fm);
      fm->fm_start = m->raw_end;
      fm->fm_length = FIEMAP_MAX_OFFSET - m->raw_end;
      fm->fm_flags = FIEMAP_FLAG_SYNC;
      fm->fm_extent_count = count;

      if (ioctl (fd, FS_IOC_FIEMAP, fm) == 0)
        break;
      int e = errno;
      if (e == EINTR)
        continue;
      *why = strerror (e);
      /* Later windows follow one that worked: a failure there is not
         the method missing.  */
      return (is_fiemap_unsupported (e) && m->raw_end == 0
              ? MAP_UNSUPPORTED : MAP_UNTRUSTED);
    }

  uint32_t n = fm->fm_mapped_extents;
  if (n > count)
    {
      *why = "FIEMAP returned more extents than asked for";
      return MAP_UNTRUSTED;
    }
  for (uint32_t i = 0; i < n; i++)
    {
      struct fiemap_extent const *fe = &fm->fm_extents[i];
      if (fe->fe_logical > INT64_MAX || fe->fe_length > INT64_MAX)
        {
          *why = "extent outside any possible file";
          return MAP_UNTRUSTED;
        }
      *why = map_add (m, fe->fe_logical, fe->fe_length,
                      fiemap_extent_kind (fe->fe_flags));
      if (*why)
        return MAP_UNTRUSTED;
      if (fe->fe_flags & FIEMAP_EXTENT_LAST)
        m->last_seen = true;
    }

  /* Nothing at or after where we asked, or the extent marked last: the
     map is complete.  A full batch without it has another after it.  A
     short batch without it is an answer cut short, which map_finish ()
     refuses.  */
  if (n == 0 || m->last_seen || n < count)
    *why = map_finish (m, st->st_size, (off_t) st->st_blocks * 512,
                       st->st_blksize, n == 0 || m->last_seen);
  else
    map_pause (m, st->st_size);
  /* FIEMAP has hidden data before; when SEEK_DATA sees data in one of
     its holes, believe neither and go on.  */
  if (!*why)
    *why = map_confirm_beside (fd, m, st->st_size);
  return *why ? MAP_UNTRUSTED : MAP_OK;
}
