/* The copy stage: moving bytes with copy_file_range, or pread and
   pwrite at explicit offsets, never reading a hole the plan skips.  */

#include "copy-data.h"
#include "progress.h"
#include "zero-run.h"

#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/fs.h>

#include "error.h"
#include "quotearg.h"
#include "xalloc.h"

/* Large enough to amortise syscalls, small enough to stay in cache.  */
enum { COPY_BUFSIZE = 256 * 1024 };
static _Thread_local char *thread_buf;
_Static_assert ((size_t) COPY_BUFSIZE >= (size_t) PLAN_SPAN_MAX,
                "a read span fits the buffer");

void
copier_init (struct copier *c, int src_fd, char const *src_name,
             int dst_fd, char const *dst_name, bool dst_seekable,
             size_t hole_blksize)
{
  *c = (struct copier) { .src_fd = src_fd, .dst_fd = dst_fd,
                         .src_name = src_name, .dst_name = dst_name,
                         .try_cfr = dst_seekable,
                         .dst_seekable = dst_seekable,
                         .hole_blksize = hole_blksize,
                         .bufsize = COPY_BUFSIZE };
  /* Page-aligned, so the kernel can copy whole pages; kept from file to
     file, so that a tree of small files does not map and unmap it for
     each of them; one a thread.  */
  if (!thread_buf)
    thread_buf = aligned_alloc (4096, c->bufsize);
  if (!thread_buf)
    xalloc_die ();
  c->buf = thread_buf;
}

void
copier_thread_end (void)
{
  free (thread_buf);
  thread_buf = NULL;
}

void
copier_free (struct copier *c)
{
  c->buf = NULL;
}

/* Whether errno E from copy_file_range means "use read and write
   instead" rather than a failure of this copy.  */
static bool
is_cfr_unsupported (int e)
{
  return e == EXDEV || e == EINVAL || e == ENOSYS || e == EOPNOTSUPP
         || e == ENOTSUP || e == EBADF || e == ETXTBSY || e == EPERM;
}

ssize_t
read_full (int fd, char const *name, char const *why, char *buf, size_t n,
           off_t pos)
{
  size_t got = 0;
  while (got < n)
    {
      ssize_t r = (pos < 0 ? read (fd, buf + got, n - got)
                   : pread (fd, buf + got, n - got, pos + got));
      if (r < 0)
        {
          if (errno == EINTR || errno == EAGAIN)
            continue;
          error (0, errno, "cannot read %s%s", quoteaf (name), why);
          return -1;
        }
      if (r == 0)
        break;
      got += r;
    }
  return got;
}

/* Write all N bytes of BUF at POS, or sequentially when the destination
   cannot seek.  Return false after reporting an error.  */
static bool
write_full (struct copier *c, char const *buf, size_t n, off_t pos)
{
  size_t done = 0;
  while (done < n)
    {
      ssize_t w = (c->dst_seekable
                   ? pwrite (c->dst_fd, buf + done, n - done, pos + done)
                   : write (c->dst_fd, buf + done, n - done));
      if (w < 0)
        {
          if (errno == EINTR || errno == EAGAIN)
            continue;
          error (0, errno, "cannot write %s", quoteaf (c->dst_name));
          return false;
        }
      if (w == 0)
        {
          error (0, ENOSPC, "cannot write %s", quoteaf (c->dst_name));
          return false;
        }
      done += w;
    }
  return true;
}

/* The size of the blocks holes are made of in the file open as FD.  */
static size_t
hole_block_size (int fd)
{
  struct stat st;
  if (fstat (fd, &st) == 0 && st.st_blksize >= 512
      && st.st_blksize <= 1024 * 1024
      && (st.st_blksize & (st.st_blksize - 1)) == 0)
    return st.st_blksize;
  return 4096;
}

/* Write the N bytes at BUF, which belong at POS.  When SCAN, skip zero
   blocks instead, leaving holes; AT_EOF as for next_run ().  */
static bool
write_buffer (struct copier *c, char const *buf, size_t n, off_t pos,
              bool scan, bool at_eof)
{
  size_t off = 0;
  if (scan && !c->hole_blksize)
    c->hole_blksize = hole_block_size (c->dst_fd);
  while (off < n)
    {
      bool zero = false;
      size_t run = n - off;
      if (scan)
        run = next_run (buf + off, n - off, pos + off, c->hole_blksize,
                        at_eof, &zero);
      if (zero)
        c->bytes_hole += run;
      else
        {
          if (!write_full (c, buf + off, run, pos + off))
            return false;
          c->bytes_rw += run;
        }
      off += run;
    }
  return true;
}

/* Copy [*POS, END) with copy_file_range, advancing *POS.  Stop early,
   with c->try_cfr cleared, when the kernel cannot do it here.  */
static enum copy_status
copy_with_cfr (struct copier *c, off_t *pos, off_t end)
{
  while (*pos < end)
    {
      off_t in = *pos, out = *pos;
      size_t want = end - *pos < SSIZE_MAX ? end - *pos : SSIZE_MAX;
      ssize_t n = copy_file_range (c->src_fd, &in, c->dst_fd, &out, want, 0);
      if (n < 0)
        {
          if (errno == EINTR || errno == EAGAIN)
            continue;
          if (is_cfr_unsupported (errno))
            {
              c->try_cfr = false;
              return COPY_OK;
            }
          error (0, errno, "cannot copy data from %s to %s",
                 quoteaf_n (0, c->src_name), quoteaf_n (1, c->dst_name));
          return COPY_FAILED;
        }
      /* Zero before END: some filesystems say nothing rather than fail;
         let read and write find out whether this is the end.  */
      if (n == 0)
        {
          c->try_cfr = false;
          return COPY_OK;
        }
      *pos += n;
      c->bytes_cfr += n;
      progress_bytes (n);
    }
  return COPY_OK;
}

/* Copy [START, START+LEN) through the buffer.  When SCAN, zero blocks
   become holes instead of being written.  */
static enum copy_status
copy_with_buffer (struct copier *c, off_t start, off_t len, off_t size,
                  bool scan)
{
  off_t pos = start, end = start + len;
  while (pos < end)
    {
      size_t want = end - pos < (off_t) c->bufsize ? end - pos : c->bufsize;
      ssize_t got = read_full (c->src_fd, c->src_name, "", c->buf, want, pos);
      if (got < 0)
        return COPY_FAILED;
      if (got < (ssize_t) want)
        return COPY_SRC_ENDED;

      if (!write_buffer (c, c->buf, got, pos, scan, pos + got == size))
        return COPY_FAILED;
      progress_bytes (got);
      pos += got;
    }
  return COPY_OK;
}

/* Read the span SEG of a file of SIZE bytes with one pread, then write
   what each of its parts needs.  A gap of the map stays a hole when it
   read as zeros; anything else there is data the map did not show, and
   all but its zero blocks is written, as in an unwritten extent.  */
static enum copy_status
copy_span (struct copier *c, struct segment const *seg, off_t size)
{
  size_t len = seg->len;
  ssize_t got = read_full (c->src_fd, c->src_name, "", c->buf, len,
                           seg->start);
  if (got < 0)
    return COPY_FAILED;
  if (got < (ssize_t) len)
    return COPY_SRC_ENDED;

  size_t off = 0;
  for (size_t i = 0; i < seg->nparts; i++)
    {
      size_t n = seg->parts[i].len;
      enum part_kind kind = seg->parts[i].kind;
      off_t pos = seg->start + off;
      /* Holes are made only where offsets can skip them.  */
      bool holes = c->dst_seekable && kind != PART_WRITE;
      if (holes && kind == PART_GAP && is_zero (c->buf + off, n))
        c->bytes_hole += n;
      else if (!write_buffer (c, c->buf + off, n, pos, holes, pos + n == size))
        return COPY_FAILED;
      off += n;
    }
  assert (off == len);
  progress_bytes (seg->data);
  return COPY_OK;
}

/* Write LEN zero bytes at START.  */
static enum copy_status
write_zeros (struct copier *c, off_t start, off_t len)
{
  memset (c->buf, 0, c->bufsize);
  for (off_t pos = start; pos < start + len; )
    {
      size_t n = start + len - pos < (off_t) c->bufsize
                 ? start + len - pos : c->bufsize;
      if (!write_full (c, c->buf, n, pos))
        return COPY_FAILED;
      c->bytes_rw += n;
      pos += n;
    }
  return COPY_OK;
}

bool
clone_whole_file (struct copier *c)
{
  /* The filesystem writes the source's dirty pages out before it shares
     the extents, so fresh data is cloned too.  Any failure (EXDEV,
     EOPNOTSUPP, EINVAL...) leaves the destination empty for a copy.  */
  if (!c->dst_seekable || ioctl (c->dst_fd, FICLONE, c->src_fd) != 0)
    return false;
  c->cloned = true;
  return true;
}

enum copy_status
copy_segment (struct copier *c, struct segment const *seg, off_t size)
{
  off_t pos = seg->start, end = seg->start + seg->len;

  switch (seg->kind)
    {
    case SEG_HOLE:
      if (c->dst_seekable)
        {
          c->bytes_hole += seg->len;
          return COPY_OK;
        }
      return write_zeros (c, pos, seg->len);

    case SEG_ZEROS:
      return write_zeros (c, pos, seg->len);

    case SEG_COPY:
      if (c->try_cfr)
        {
          enum copy_status s = copy_with_cfr (c, &pos, end);
          if (s != COPY_OK || pos == end)
            return s;
        }
      return copy_with_buffer (c, pos, end - pos, size, false);

    case SEG_SCAN:
      return copy_with_buffer (c, pos, end - pos, size, c->dst_seekable);

    case SEG_SPAN:
      return copy_span (c, seg, size);
    }
  abort ();
}

enum copy_status
copy_window (struct copier *c, struct extent_map const *m, off_t size,
             enum sparse_mode sparse, bool scan_data)
{
  struct plan p;
  struct segment seg;
  plan_init (&p, m, size, sparse, scan_data);
  while (plan_next (&p, &seg))
    {
      enum copy_status s = copy_segment (c, &seg, size);
      if (s != COPY_OK)
        return s;
    }
  return COPY_OK;
}

enum copy_status
copy_stream (struct copier *c, bool make_holes, off_t *total)
{
  off_t pos = 0;
  for (;;)
    {
      ssize_t got = read_full (c->src_fd, c->src_name, "", c->buf,
                               c->bufsize, -1);
      if (got < 0)
        return COPY_FAILED;
      if (got == 0)
        break;
      if (!write_buffer (c, c->buf, got, pos, make_holes && c->dst_seekable,
                         false))
        return COPY_FAILED;
      progress_bytes (got);
      pos += got;
    }
  *total = pos;
  return COPY_OK;
}
