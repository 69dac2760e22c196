/* swapdirs TARGET DIR...: until killed, replace each DIR in turn by a
   symlink to TARGET for a moment and put it back, as an attacker racing
   a copy would.  For tests/race.sh.  On SIGTERM, prints the number of
   swaps made and exits 0.  */

#include <config.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void
on_term (int sig)
{
  (void) sig;
  stop = 1;
}

/* Open the directory that holds the relative name DIR without following
   any symlink on the way, and point *BASE at DIR's last component: the
   copy may have made a symlink of a directory above DIR (copying one of
   ours), and the swapper itself must not work through it.  */
static int
open_parent (char *dir, char **base)
{
  int fd = open (".", O_PATH | O_DIRECTORY | O_CLOEXEC);
  char *p = dir, *slash;
  while (fd >= 0 && (slash = strchr (p, '/')))
    {
      *slash = '\0';
      int next = openat (fd, p, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      *slash = '/';
      close (fd);
      fd = next;
      p = slash + 1;
    }
  *base = p;
  return fd;
}

/* Swap DIR for a symlink to TARGET, wait a little, and swap it back.
   Return 1 after a swap, 0 when DIR was not there to swap, -1 when it
   could not be put back (the copy made a new DIR meanwhile).  */
static int
swap_once (char const *target, char *dir, char const *aside)
{
  char *base;
  int fd = open_parent (dir, &base);
  if (fd < 0)
    return 0;
  int r = 0;
  if (renameat (fd, base, fd, aside) == 0)
    {
      if (symlinkat (target, fd, base) == 0)
        {
          for (volatile int i = 0; i < 2000; i++)
            continue;
          unlinkat (fd, base, 0);
        }
      r = renameat (fd, aside, fd, base) == 0 ? 1 : -1;
    }
  close (fd);
  return r;
}

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: swapdirs TARGET DIR...\n");
      return 2;
    }
  struct sigaction sa = { .sa_handler = on_term };
  sigaction (SIGTERM, &sa, NULL);

  /* Each DIR is set aside under the same name in its own directory.  */
  char **aside = calloc (argc, sizeof *aside);
  if (!aside)
    return 2;
  for (int i = 2; i < argc; i++)
    {
      char const *slash = strrchr (argv[i], '/');
      char const *base = slash ? slash + 1 : argv[i];
      size_t n = strlen (base) + sizeof ".swapped";
      aside[i] = malloc (n);
      if (!aside[i])
        return 2;
      snprintf (aside[i], n, "%s.swapped", base);
    }

  unsigned long swaps = 0, lost = 0;
  while (!stop)
    for (int i = 2; i < argc && !stop; i++)
      {
        int r = swap_once (argv[1], argv[i], aside[i]);
        swaps += r > 0;
        lost += r < 0;
      }
  printf ("%lu swaps, %lu not put back\n", swaps, lost);
  for (int i = 2; i < argc; i++)
    free (aside[i]);
  free (aside);
  return 0;
}
