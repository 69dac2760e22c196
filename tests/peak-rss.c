/* peak-rss -- run a command and record its peak resident set.

   Usage: peak-rss FILE COMMAND [ARG]...
   Runs COMMAND, writes its peak resident set in KiB (ru_maxrss, from
   wait4) to FILE, and exits with COMMAND's status (128+N after signal
   N, 127 when it cannot be run).  For tests that bound a copy's memory,
   which, unlike its time, a test may assert.  */

#include <config.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fputs ("usage: peak-rss FILE COMMAND [ARG]...\n", stderr);
      return 127;
    }
  pid_t pid = fork ();
  if (pid < 0)
    {
      perror ("peak-rss: fork");
      return 127;
    }
  if (pid == 0)
    {
      execvp (argv[2], argv + 2);
      fprintf (stderr, "peak-rss: cannot run %s: %s\n", argv[2],
               strerror (errno));
      _exit (127);
    }
  int status;
  struct rusage ru;
  while (wait4 (pid, &status, 0, &ru) < 0)
    if (errno != EINTR)
      {
        perror ("peak-rss: wait4");
        return 127;
      }
  FILE *out = fopen (argv[1], "w");
  if (!out || fprintf (out, "%ld\n", ru.ru_maxrss) < 0 || fclose (out) != 0)
    {
      fprintf (stderr, "peak-rss: cannot write %s\n", argv[1]);
      return 127;
    }
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}
