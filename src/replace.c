/* Temporary names that replace a destination only once it is complete.  */

#include "replace.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/random.h>
#include <unistd.h>

#include "dst-dir.h"
#include "dirname.h"
#include "filenamecat.h"
#include "ignore-value.h"
#include "xalloc.h"

/* The name given to temporary files: hidden, and saying whose they are.  */
#define TEMP_TEMPLATE ".sparsecp-XXXXXX"

/* The temporary files being made, one a thread at most, removed if a
   signal ends us; the main thread's first, then each worker's.  Atomic,
   as the handler may run on any thread.  */
static _Atomic (char const *) temps_in_progress[JOBS_MAX + 1];
static _Thread_local int temp_slot;
#define temp_in_progress temps_in_progress[temp_slot]

void
temp_thread_slot (int slot)
{
  temp_slot = slot;
}

static void
cleanup_and_die (int sig)
{
  for (int i = 0; i <= JOBS_MAX; i++)
    {
      char const *name = temps_in_progress[i];
      if (name)
        unlink (name);
    }
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

/* Put six fresh letters over the X's that end TEMPLATE.  The names need
   not be secret: O_EXCL and link, symlink and mknod, which never follow
   or reuse an existing name, keep the creation safe.  So one getrandom
   a thread seeds them, not one for each of 10,000 small files.  */
static void
fill_template (char *template)
{
  static char const letters[] =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  static _Thread_local uint64_t state;
  if (!state && getrandom (&state, sizeof state, GRND_NONBLOCK)
                != sizeof state)
    state = (uint64_t) time (NULL) << 20 ^ (uint64_t) getpid ();
  state |= 1;
  /* xorshift64: a new value for each name.  */
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  uint64_t v = state;
  char *x = template + strlen (template) - 6;
  for (int i = 0; i < 6; i++, v /= sizeof letters - 1)
    x[i] = letters[v % (sizeof letters - 1)];
}

/* Call MAKE (NAME, ARG) on fresh names beside FILE until it makes one or
   fails otherwise than with EEXIST; return its result, and the name in
   *NAME, or -1 with errno set.  */
static int
make_fresh (char const *file, int (*make) (char const *, void *), void *arg,
            char **name)
{
  char *t = temp_template (file);
  int r = -1;
  for (int tries = 0; tries < 1000; tries++)
    {
      fill_template (t);
      r = make (t, arg);
      if (r >= 0 || errno != EEXIST)
        break;
    }
  if (r < 0)
    {
      int e = errno;
      free (t);
      errno = e;
      *name = NULL;
      return -1;
    }
  temp_in_progress = *name = t;
  return r;
}

static int
create_file (char const *name, void *mode)
{
  return open (name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY,
               *(mode_t *) mode);
}

int
temp_file_create (char const *target, mode_t mode, char **temp)
{
  return make_fresh (target, create_file, &mode, temp);
}

char *
temp_node_create (char const *dst, int (*make) (char const *, void *),
                  void *arg)
{
  char *name;
  return make_fresh (dst, make, arg, &name) < 0 ? NULL : name;
}

int
anon_file_create (int dirfd, char const *name, mode_t mode)
{
  /* Without /proc, only CAP_DAC_READ_SEARCH could link the file in.  */
  if (!proc_fd_names ())
    {
      errno = EOPNOTSUPP;
      return -1;
    }
  char *dir = dir_name (name);
  int fd = openat (dirfd, dir, O_TMPFILE | O_RDWR | O_CLOEXEC, mode);
  int e = errno;
  free (dir);
  errno = e;
  return fd;
}

int
anon_file_link (int fd, int dirfd, char const *name)
{
  /* AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH before Linux 6.10, and says
     ENOENT without it; the name in /proc/self/fd works for anyone.  */
  static bool empty_path_refused;
  if (!empty_path_refused)
    {
      if (linkat (fd, "", dirfd, name, AT_EMPTY_PATH) == 0)
        return 0;
      if (errno != ENOENT)
        return -1;
      empty_path_refused = true;
    }
  char proc[PROC_FD_NAME_SIZE];
  return linkat (AT_FDCWD, proc_fd_name (proc, fd), dirfd, name,
                 AT_SYMLINK_FOLLOW);
}

/* make_fresh's MAKE for anon_file_name: link the file open as *FD.  */
static int
link_anon (char const *name, void *fd)
{
  return anon_file_link (*(int *) fd, AT_FDCWD, name);
}

char *
anon_file_name (int fd, char const *target)
{
  char *temp;
  return make_fresh (target, link_anon, &fd, &temp) < 0 ? NULL : temp;
}

int
temp_commit (char const *temp, char const *dst)
{
  if (rename (temp, dst) != 0)
    return -1;
  temp_in_progress = NULL;
  return 0;
}

int
temp_commit_new (char const *temp, char const *dst)
{
  /* RENAME_NOREPLACE where the file system has it; else a hard link,
     which never replaces either (NFS has one but not the other).  Only
     where neither exists is the rename plain, which may replace a file
     made meanwhile.  */
  if (renameat2 (AT_FDCWD, temp, AT_FDCWD, dst, RENAME_NOREPLACE) != 0)
    {
      if (errno != EINVAL && errno != ENOSYS)
        return -1;
      if (link (temp, dst) == 0)
        ignore_value (unlink (temp));
      else if (errno == EPERM || errno == EOPNOTSUPP || errno == ENOSYS)
        return temp_commit (temp, dst);
      else
        return -1;
    }
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
