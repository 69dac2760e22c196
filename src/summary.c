/* Counting what a run did, and printing it.  */

#include "summary.h"

#include <inttypes.h>
#include <pthread.h>
#include <time.h>

#include "error.h"

static struct
{
  uintmax_t files;
  uintmax_t made[SUM_KINDS];
  uintmax_t method[SUM_METHODS];
  uintmax_t data_bytes;
  uintmax_t hole_bytes;
  uintmax_t failures;
  struct timespec start;
} totals;

/* Workers count the files they copy.  */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static char const *const method_names[SUM_METHODS] =
  { "fiemap", "seek", "read", "stream", "reflink" };

void
summary_start (void)
{
  clock_gettime (CLOCK_MONOTONIC, &totals.start);
}

void
summary_file (enum summary_method method, off_t data, off_t holes)
{
  pthread_mutex_lock (&lock);
  totals.files++;
  totals.method[method]++;
  totals.data_bytes += data;
  totals.hole_bytes += holes;
  pthread_mutex_unlock (&lock);
}

void
summary_made (enum summary_kind kind)
{
  pthread_mutex_lock (&lock);
  totals.made[kind]++;
  pthread_mutex_unlock (&lock);
}

void
summary_failure (void)
{
  pthread_mutex_lock (&lock);
  totals.failures++;
  pthread_mutex_unlock (&lock);
}

static double
seconds_since_start (void)
{
  struct timespec now;
  clock_gettime (CLOCK_MONOTONIC, &now);
  return (now.tv_sec - totals.start.tv_sec)
         + (now.tv_nsec - totals.start.tv_nsec) / 1e9;
}

void
summary_print_text (void)
{
  error (0, 0, "summary: files=%ju directories=%ju symlinks=%ju"
         " specials=%ju hard_links=%ju data=%ju holes=%ju"
         " fiemap=%ju seek=%ju read=%ju stream=%ju reflink=%ju"
         " failures=%ju seconds=%.3f",
         totals.files, totals.made[SUM_DIRECTORY],
         totals.made[SUM_SYMLINK], totals.made[SUM_SPECIAL],
         totals.made[SUM_HARD_LINK], totals.data_bytes, totals.hole_bytes,
         totals.method[SUM_FIEMAP], totals.method[SUM_SEEK],
         totals.method[SUM_READ], totals.method[SUM_STREAM],
         totals.method[SUM_REFLINK], totals.failures,
         seconds_since_start ());
}

void
summary_print_json (FILE *out)
{
  fprintf (out, "{\"files\": %ju, \"directories\": %ju, \"symlinks\": %ju,"
           " \"specials\": %ju, \"hard_links\": %ju, \"data_bytes\": %ju,"
           " \"hole_bytes\": %ju, \"methods\": {",
           totals.files, totals.made[SUM_DIRECTORY],
           totals.made[SUM_SYMLINK], totals.made[SUM_SPECIAL],
           totals.made[SUM_HARD_LINK], totals.data_bytes,
           totals.hole_bytes);
  for (int m = 0; m < SUM_METHODS; m++)
    fprintf (out, "%s\"%s\": %ju", m ? ", " : "", method_names[m],
             totals.method[m]);
  fprintf (out, "}, \"failures\": %ju, \"seconds\": %.3f}\n",
           totals.failures, seconds_since_start ());
}
