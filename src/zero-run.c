/* Finding runs of zero bytes that can become holes.  */

#include "zero-run.h"

#include <string.h>

bool
is_zero (void const *buf, size_t n)
{
  unsigned char const *p = buf;
  enum { HEAD = 16 };

  /* Check a short head by hand, then compare the buffer with itself
     shifted by HEAD: if the head is zero, the rest is zero exactly when
     each byte equals the one HEAD bytes before it.  memcmp runs at memory
     speed, with no branch per byte.  */
  size_t head = n < HEAD ? n : HEAD;
  for (size_t i = 0; i < head; i++)
    if (p[i])
      return false;
  return n <= HEAD || memcmp (p, p + HEAD, n - HEAD) == 0;
}

/* Length of the block (or partial first block) at BUF, given its file
   offset POS, clipped to N.  */
static size_t
block_len (size_t n, off_t pos, size_t blksize)
{
  size_t len = blksize - (size_t) (pos % (off_t) blksize);
  return len < n ? len : n;
}

size_t
next_run (char const *buf, size_t n, off_t pos, size_t blksize,
          bool at_eof, bool *zero)
{
  size_t done = 0;
  bool first_zero = false;

  while (done < n)
    {
      size_t len = block_len (n - done, pos + done, blksize);
      bool whole = (pos + (off_t) done) % (off_t) blksize == 0
                   && (len == blksize || (at_eof && done + len == n));
      bool z = whole && is_zero (buf + done, len);
      if (done == 0)
        first_zero = z;
      else if (z != first_zero)
        break;
      done += len;
    }
  *zero = first_zero;
  return done;
}
