/* What the filesystem of the current directory can show the unit tests.  */
#ifndef CHECK_PROBE_H
#define CHECK_PROBE_H

#include <stdbool.h>

/* A new file in the current directory, already unlinked, open for
   reading and writing; -1 on failure.  Uses no Check assertion.  */
int probe_temp_file (void);

/* Whether SEEK_DATA reports a hole between two written blocks of a new
   file here.  Uses no Check assertion: main calls it before any test.  */
bool probe_holes (void);

/* Add test T to TCASE when CAN; otherwise print a SKIP line saying
   WHY and count it in *SKIPPED.  A program that skipped a case exits
   77, unless another failed.  */
#define add_test_if(tcase, t, can, why, skipped) \
  ((can) ? tcase_add_test (tcase, t) \
   : (void) (printf ("SKIP: %s: %s\n", #t, why), ++*(skipped)))

#endif
