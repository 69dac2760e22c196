/* Finding runs of zero bytes that can become holes.  */

#ifndef SPARSECP_ZERO_RUN_H
#define SPARSECP_ZERO_RUN_H

#include "system.h"

/* Return true if the N bytes at BUF are all zero.  */
bool is_zero (void const *buf, size_t n);

/* Split BUF[0..N), which holds the file's bytes from offset POS, into
   runs.  Return the length of the run at BUF and set *ZERO to whether it
   can be a hole: a hole is made of whole blocks of BLKSIZE bytes, aligned
   on BLKSIZE in the file, that are all zero.  When AT_EOF, the buffer ends
   at the end of the file and a final partial block of zeros may be a hole
   too (the file's size is set afterwards).  N must be positive.  */
size_t next_run (char const *buf, size_t n, off_t pos, size_t blksize,
                 bool at_eof, bool *zero);

#endif
