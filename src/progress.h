/* Progress: a one-line bar on stderr for --progress.

   On a terminal the line is redrawn in place ("\r", the line, "\033[K")
   at most 10 times a second, and always when a file ends.  It shows the
   file's name (shortened from the left to fit the terminal), the percent
   and bytes of its data done (the map's data, holes not counted), the
   holes skipped, the rate, and the time left; once a second file has
   begun, also the files done and the data copied in all.

   With --progress=always and stderr not a terminal (a log), redrawing
   would write ten lines a second that nobody sees replaced, so plain
   lines are written instead: one per file when it ends, and a final
   line with the totals when there was more than one file.

   While a bar is on the terminal, error () erases it before it prints
   "sparsecp: ", so a message always starts its own line; the bar comes
   back at the next redraw.

   Every function is a cheap no-op when progress is not active.  */

#ifndef SPARSECP_PROGRESS_H
#define SPARSECP_PROGRESS_H

#include "system.h"

enum progress_when
{
  PROGRESS_NEVER,
  PROGRESS_AUTO,     /* only when stderr is a terminal */
  PROGRESS_ALWAYS    /* also to a file or pipe, as plain lines */
};

/* Decide whether to show progress, once, before any copy; return
   whether it is shown.  */
bool progress_init (enum progress_when);

/* A file with DATA_TOTAL bytes of data (negative when unknown: a pipe,
   a device) and HOLE_BYTES of holes is about to be copied under NAME.
   Ends a previous file left unended.  */
void progress_file_begin (char const *name, off_t data_total,
                          off_t hole_bytes);

/* The current file's data and holes are now known better (a map was
   made after the file began): DATA_TOTAL and HOLE_BYTES as above.  */
void progress_file_total (off_t data_total, off_t hole_bytes);

/* N more data bytes of the current file are copied.  */
void progress_bytes (off_t n);

/* The current file is being copied again from byte 0 (it changed).  */
void progress_file_restart (void);

/* The current file is finished: draw its final state, 100% when all of
   its data was copied.  */
void progress_file_end (void);

/* Erase the bar before other output to the terminal (-v lines on
   stdout, messages); the next redraw brings it back.  */
void progress_clear (void);

/* Replace the bar with a final line and a newline: the last file's line
   after one file, the totals after several.  Progress is inactive from
   then on.  */
void progress_finish (void);


/* Formatting, kept apart from the terminal and the clock so that it can
   be tested.  */

/* What one line shows.  */
struct progress_view
{
  char const *name;     /* the current file, or NULL for the totals line */
  off_t done;           /* the file's data bytes copied so far */
  off_t total;          /* its data bytes, negative when unknown */
  off_t holes;          /* its hole bytes */
  double seconds;       /* since the file began */
  bool ended;           /* the file ended: time taken instead of time left */
  intmax_t files_begun; /* files begun so far, this one included */
  intmax_t files_done;  /* files ended so far */
  off_t all_done;       /* data bytes copied of every file so far */
  off_t all_holes;      /* hole bytes of every file ended so far */
  double all_seconds;   /* since the first file began */
};

/* Room for progress_human ()'s results, at most 10 characters
   ("1023.9 PiB"), and for what the compiler cannot prove about them.  */
enum { PROGRESS_HUMAN_SIZE = 48 };

/* Write N bytes in 1024-based units with one decimal ("512 B",
   "1.5 KiB", "64.0 MiB") into BUF, rounded down, so that a file not yet
   fully copied never looks done.  A negative N is written as 0.  */
void progress_human (char buf[PROGRESS_HUMAN_SIZE], off_t n);

/* Write SECONDS, rounded, as "M:SS" or "H:MM:SS" into BUF of SIZE bytes;
   "--:--" when unknown (negative, NaN) or 100 hours or more.  */
void progress_duration (char *buf, size_t size, double seconds);

/* The percent of TOTAL that DONE is, rounded down: 100 only when DONE
   reaches TOTAL (and for an empty TOTAL).  */
int progress_percent (off_t done, off_t total);

/* Write the line for V into BUF of SIZE bytes and return its length.
   When WIDTH > 0 the line takes at most WIDTH - 1 columns (the last
   column would wrap on some terminals); the name is shortened first,
   keeping its end.  Control characters in the name are written as '?'.
   The line is cut to fit SIZE in any case.  */
size_t progress_format (char *buf, size_t size,
                        struct progress_view const *v, int width);

#endif
