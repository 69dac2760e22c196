/* The verify stage: reading back a finished copy and comparing it with
   its source, for --verify.  */

#ifndef SPARSECP_VERIFY_H
#define SPARSECP_VERIFY_H

#include "system.h"

enum verify_status
{
  VERIFY_SAME,       /* every byte of the destination matches */
  VERIFY_DIFFERENT,  /* a byte differs; its offset is stored */
  VERIFY_FAILED      /* an error, already reported */
};

/* Compare the first SIZE bytes of SRC_FD (named SRC) with DST_FD (named
   DST), and check that DST_FD is SIZE bytes long.  DST_FD's data is
   synced and dropped from the page cache first, so what is compared is
   what the disk holds.  Holes are compared like data: where the copy has
   a hole the source must read as zeros.  On VERIFY_DIFFERENT, store the
   first differing offset in *WHERE.  */
enum verify_status verify_copy (int src_fd, char const *src,
                                int dst_fd, char const *dst,
                                off_t size, off_t *where);

#endif
