/* What a whole run did, for --debug's last line and --stats=json.  */

#ifndef SPARSECP_SUMMARY_H
#define SPARSECP_SUMMARY_H

#include <stdio.h>

#include "system.h"

/* How a regular file's data was found and moved.  */
enum summary_method
{
  SUM_FIEMAP,
  SUM_SEEK,
  SUM_READ,
  SUM_STREAM,    /* read to the end: pipes, devices, /proc */
  SUM_REFLINK,
  SUM_METHODS
};

/* What was made, other than regular files.  */
enum summary_kind
{
  SUM_DIRECTORY,
  SUM_SYMLINK,
  SUM_SPECIAL,
  SUM_HARD_LINK,
  SUM_KINDS
};

/* Start the clock.  */
void summary_start (void);

/* A regular file was copied with METHOD: DATA bytes of data and HOLES
   bytes of holes.  */
void summary_file (enum summary_method method, off_t data, off_t holes);

void summary_made (enum summary_kind);
void summary_failure (void);

/* The summary as "sparsecp: summary: ..." on stderr.  */
void summary_print_text (void);

/* The summary as one JSON object on a line of OUT.  */
void summary_print_json (FILE *out);

#endif
