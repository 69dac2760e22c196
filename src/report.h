/* Messages that keep cp's order when files are copied on several
   threads: each thread reports into its place in the output, and the
   places are printed in the order they were taken.  */

#ifndef SPARSECP_REPORT_H
#define SPARSECP_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"

/* One place in the order of what is printed: what a thread reported
   while it was the thread's, printed once it is done and every place
   taken before it has been printed.  */
struct report_slot;

/* Take the next place in the order.  */
struct report_slot *report_slot_take (void);

/* Make SLOT, or with NULL the terminal itself, where this thread's
   messages go.  */
void report_to (struct report_slot *slot);

/* Say that SLOT has all it will get: print it in its turn, and free it.  */
void report_slot_done (struct report_slot *slot);

/* With ON, keep this thread's messages in order with the places others
   take: they go into a place of their own, taken at the first of them
   after the last place taken.  With !ON, print them at once again.  */
void report_ordered (bool on);

/* For a thread whose messages are kept in order: take the next place,
   for another thread, after what this one said so far and before what
   it says next.  */
struct report_slot *report_turn (void);

/* Print TEXT on STREAM, stdout or stderr, in this thread's place.  */
void report_text (FILE *stream, char const *text);

/* gnulib's error(), but kept for this thread's place when it has one:
   a copy's messages follow the -v line that announced it.  Every file
   of sparsecp reports through it under error's own name.  */
void report_error (int status, int errnum, char const *format, ...)
  _GL_ATTRIBUTE_FORMAT ((_GL_ATTRIBUTE_SPEC_PRINTF_STANDARD, 3, 4));
#undef error
#define error report_error

/* ARG quoted as cp quotes file names, in slot N (0 to 3) of this
   thread, valid until the thread quotes into that slot again.  */
char const *quote_file_n (int n, char const *arg);

/* Free what this thread kept for quoting, before it ends.  */
void report_thread_end (void);

#endif
