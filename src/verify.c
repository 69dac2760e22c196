/* The verify stage: after the copy, read both files back and compare.  */

#include "verify.h"
#include "copy-data.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "ignore-value.h"
#include "quotearg.h"
#include "xalloc.h"

/* Bytes compared per read: large enough for sequential throughput.  */
enum { VERIFY_BUFSIZE = 256 * 1024 };

/* Offset of the first byte where A and B, N bytes each, differ, or N.  */
static size_t
first_difference (char const *a, char const *b, size_t n)
{
  if (memcmp (a, b, n) == 0)
    return n;
  size_t i = 0;
  while (a[i] == b[i])
    i++;
  return i;
}

/* Make later reads of FD (named NAME) come from the disk: write out its
   dirty pages, then drop them from the page cache.  Return false after
   reporting an error.  */
static bool
drop_cached (int fd, char const *name)
{
  int r;
  do
    r = fdatasync (fd);
  while (r != 0 && errno == EINTR);
  if (r != 0)
    {
      error (0, errno, "cannot sync %s to verify it", quoteaf (name));
      return false;
    }
  /* Advice only: where it is ignored, the page cache is compared.  */
  ignore_value (posix_fadvise (fd, 0, 0, POSIX_FADV_DONTNEED));
  return true;
}

enum verify_status
verify_copy (int src_fd, char const *src, int dst_fd, char const *dst,
             off_t size, off_t *where)
{
  if (!drop_cached (dst_fd, dst))
    return VERIFY_FAILED;

  struct stat st;
  if (fstat (dst_fd, &st) != 0)
    {
      error (0, errno, "cannot stat %s", quoteaf (dst));
      return VERIFY_FAILED;
    }
  if (st.st_size != size)
    {
      *where = st.st_size < size ? st.st_size : size;
      return VERIFY_DIFFERENT;
    }

  char *a = xmalloc (VERIFY_BUFSIZE);
  char *b = xmalloc (VERIFY_BUFSIZE);
  enum verify_status status = VERIFY_SAME;
  for (off_t pos = 0; pos < size; )
    {
      size_t want = (size - pos < VERIFY_BUFSIZE
                     ? size - pos : VERIFY_BUFSIZE);
      ssize_t na = read_full (src_fd, src, " to verify it", a, want, pos);
      ssize_t nb = na < 0 ? -1 : read_full (dst_fd, dst, " to verify it", b,
                                            want, pos);
      if (na < 0 || nb < 0)
        {
          status = VERIFY_FAILED;
          break;
        }
      size_t n = na < nb ? na : nb;
      size_t d = first_difference (a, b, n);
      if (d < n || n < want)
        {
          *where = pos + d;
          status = VERIFY_DIFFERENT;
          break;
        }
      pos += want;
    }
  free (a);
  free (b);
  return status;
}
