/* The regular files of a tree copied on worker threads while the walk
   goes on (-j): what the walker hands over, and how it waits.  */

#ifndef SPARSECP_WORKERS_H
#define SPARSECP_WORKERS_H

#include "copy-file.h"

#include <sys/stat.h>

/* A directory of the copy, held open while files are copied into it
   through FD: PENDING of them are still being copied.  */
struct dir_hold
{
  int fd;
  unsigned pending;
  /* What to do once PENDING is zero, and where its messages go.  */
  bool (*after) (void *);
  void *after_arg;
  struct report_slot *after_slot;
};

/* Hand the copy of the regular file SRC, *ST, to DST, reached as AT and
   as ENTRY in directory DIR, which is as *D says, to a worker: as
   copy_file would, with X.  The copy's messages are printed after what
   the caller printed before, and before what it prints after.  Start
   the workers at the first call; wait while too many copies are
   pending.  */
void workers_copy (char const *src, struct stat const *st, char const *dst,
                   char const *at, char const *entry, struct dir_hold *dir,
                   struct dst_state const *d, struct copy_options const *x);

/* Call AFTER (ARG) once no copy into DIR is pending: now, returning its
   result; or, when some are, on the worker that ends the last of them,
   its messages printed where the caller's would be now and its failure
   counted as a copy's, and return true.  AFTER may free DIR.  */
bool workers_after_dir (struct dir_hold *dir, bool (*after) (void *),
                        void *arg);

/* Wait until every copy handed over is done, print what is left, and
   end the workers.  Return false if any copy failed (each one counted
   by summary_failure), true otherwise; with no workers, true.  */
bool workers_finish (void);

/* The number of workers -j asks for by default: the online CPUs, no
   more than JOBS_DEFAULT_MAX.  */
unsigned workers_default (void);

#endif
