/* timeit -- run a command once and record what it cost.

   Usage: timeit LIMIT RESULT COMMAND [ARG]...
   Runs COMMAND in a process group of its own and appends one line to the
   file RESULT:
     WALL USER SYS MAXRSS STATUS STEAL READ
   WALL, USER and SYS in seconds with microseconds (USER and SYS include
   the children COMMAND waited for, as rsync's), MAXRSS the peak resident
   set in KiB as GNU time's %M reports it (both come from wait4), STATUS
   the exit status, 128+N after signal N, or "timeout" when COMMAND ran
   longer than LIMIT seconds and its whole group was killed.  STEAL is
   the time in seconds the hypervisor ran something else on this
   machine's CPUs meanwhile (all CPUs, in clock ticks, from /proc/stat;
   0 on bare metal), which makes a run slow for reasons not its own.
   READ is the KiB COMMAND and its children read from the disk
   (ru_inblock): a copy of a cached source reads none, and one that
   does was timed on something else.
   Exits with COMMAND's status, 124 after a timeout, 125 when it cannot
   run at all.  Wall time comes from CLOCK_MONOTONIC, because GNU time's
   %e counts only hundredths and the fast copies here take milliseconds.  */

#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t timed_out;

static void
on_alarm (int sig)
{
  (void) sig;
  timed_out = 1;
}

/* Steal time of all CPUs so far, in seconds, or 0 when unknown.  */
static double
steal_seconds (void)
{
  unsigned long long v[8] = { 0 };
  FILE *f = fopen ("/proc/stat", "r");
  if (!f)
    return 0;
  int n = fscanf (f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu",
                  &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
  fclose (f);
  return n == 8 ? (double) v[7] / sysconf (_SC_CLK_TCK) : 0;
}

static double
seconds (struct timeval tv)
{
  return tv.tv_sec + tv.tv_usec / 1e6;
}

int
main (int argc, char **argv)
{
  if (argc < 4)
    {
      fprintf (stderr, "usage: timeit LIMIT RESULT COMMAND [ARG]...\n");
      return 125;
    }
  unsigned limit = strtoul (argv[1], NULL, 10);
  char const *result = argv[2];

  FILE *out = fopen (result, "a");
  if (!out)
    {
      fprintf (stderr, "timeit: cannot open %s: %s\n", result,
               strerror (errno));
      return 125;
    }

  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sigaction (SIGALRM, &sa, NULL);

  struct timespec t0, t1;
  double steal0 = steal_seconds ();
  clock_gettime (CLOCK_MONOTONIC, &t0);
  pid_t pid = fork ();
  if (pid < 0)
    {
      fprintf (stderr, "timeit: cannot fork: %s\n", strerror (errno));
      return 125;
    }
  if (pid == 0)
    {
      setpgid (0, 0);
      execvp (argv[3], argv + 3);
      fprintf (stderr, "timeit: cannot run %s: %s\n", argv[3],
               strerror (errno));
      _exit (127);
    }
  setpgid (pid, pid);
  if (limit)
    alarm (limit);

  int status;
  struct rusage ru;
  bool killed = false;
  while (wait4 (pid, &status, 0, &ru) < 0)
    {
      if (errno != EINTR)
        {
          fprintf (stderr, "timeit: cannot wait: %s\n", strerror (errno));
          return 125;
        }
      if (timed_out && !killed)
        {
          kill (-pid, SIGKILL);
          killed = true;
        }
    }
  clock_gettime (CLOCK_MONOTONIC, &t1);
  double steal = steal_seconds () - steal0;
  alarm (0);

  double wall = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
  int code = (WIFEXITED (status) ? WEXITSTATUS (status)
              : 128 + WTERMSIG (status));
  char word[16];
  if (killed)
    strcpy (word, "timeout");
  else
    snprintf (word, sizeof word, "%d", code);
  fprintf (out, "%.6f %.6f %.6f %ld %s %.2f %ld\n", wall,
           seconds (ru.ru_utime), seconds (ru.ru_stime), ru.ru_maxrss, word,
           steal, ru.ru_inblock / 2);
  if (fclose (out) != 0)
    {
      fprintf (stderr, "timeit: cannot write %s: %s\n", result,
               strerror (errno));
      return 125;
    }
  return killed ? 124 : code;
}
