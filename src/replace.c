/* Temporary names that replace a destination only once it is complete.  */

#include "replace.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dirname.h"
#include "filenamecat.h"
#include "tempname.h"
#include "xalloc.h"

/* The name given to temporary files: hidden, and saying whose they are.  */
#define TEMP_TEMPLATE ".sparsecp-XXXXXX"

/* The temporary file being made, removed if a signal ends us.  */
static char const *volatile temp_in_progress;

static void
cleanup_and_die (int sig)
{
  char const *name = temp_in_progress;
  if (name)
    unlink (name);
  signal (sig, SIG_DFL);
  raise (sig);
}

void
install_cleanup_handlers (void)
{
  static int const sigs[] = { SIGHUP, SIGINT, SIGPIPE, SIGTERM };
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = cleanup_and_die;
  for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
    {
      struct sigaction old;
      if (sigaction (sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
        sigaction (sigs[i], &sa, NULL);
    }
}

/* A template for a temporary name in the directory of FILE.  */
static char *
temp_template (char const *file)
{
  char *dir = dir_name (file);
  char *t = file_name_concat (dir, TEMP_TEMPLATE, NULL);
  free (dir);
  return t;
}

static int
try_create (char *name, void *mode)
{
  return open (name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY,
               *(mode_t *) mode);
}

int
temp_file_create (char const *target, mode_t mode, char **temp)
{
  char *t = temp_template (target);
  int fd = try_tempname (t, 0, &mode, try_create);
  if (fd < 0)
    {
      int e = errno;
      free (t);
      errno = e;
      *temp = NULL;
      return -1;
    }
  temp_in_progress = *temp = t;
  return fd;
}

struct node_maker
{
  int (*make) (char const *, void *);
  void *arg;
};

static int
try_make (char *name, void *v)
{
  struct node_maker const *m = v;
  return m->make (name, m->arg);
}

char *
temp_node_create (char const *dst, int (*make) (char const *, void *),
                  void *arg)
{
  char *t = temp_template (dst);
  struct node_maker m = { make, arg };
  if (try_tempname (t, 0, &m, try_make) < 0)
    {
      int e = errno;
      free (t);
      errno = e;
      return NULL;
    }
  temp_in_progress = t;
  return t;
}

int
temp_commit (char const *temp, char const *dst)
{
  if (rename (temp, dst) != 0)
    return -1;
  temp_in_progress = NULL;
  return 0;
}

void
temp_discard (char const *temp)
{
  int e = errno;
  unlink (temp);
  temp_in_progress = NULL;
  errno = e;
}
