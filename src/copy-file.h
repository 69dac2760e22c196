/* Copying one file: map, plan and copy, into a temporary file that
   replaces the destination only once it is complete.  */

#ifndef SPARSECP_COPY_FILE_H
#define SPARSECP_COPY_FILE_H

#include "system.h"

struct copy_options
{
  enum sparse_mode sparse;
  enum scan_method scan;
  bool debug;
  bool verify;      /* read the copy back and compare it with the source */
  mode_t umask;     /* the process's umask, for new files' modes */
};

/* Copy SRC to DST.  Return true if DST now holds exactly SRC's bytes;
   otherwise report why, leave any earlier DST untouched, return false.  */
bool copy_file (char const *src, char const *dst,
                struct copy_options const *);

/* Remove a half-written temporary file if a signal ends the program.  */
void install_cleanup_handlers (void);

#endif
