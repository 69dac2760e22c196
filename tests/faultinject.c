/* faultinject -- an LD_PRELOAD shim that makes system calls fail or lie.

   Driven by the environment:
     FAULT=CALL:EFFECT  the call to break and how.  CALL is one of fiemap
                        (ioctl FS_IOC_FIEMAP), seek (lseek SEEK_DATA and
                        SEEK_HOLE), read, pread, write, pwrite,
                        copy_file_range, fallocate, ftruncate, fsync,
                        fdatasync, rename (and renameat2), link and
                        linkat (by the new name), close, mincore, open
                        (open and openat, by name).  EFFECT is an errno name
                        (EINTR EAGAIN EIO ENOSPC EDQUOT EFBIG EOPNOTSUPP
                        ENOTTY EINVAL ENXIO EPERM EXDEV ENOENT EEXIST),
                        "short" for a short
                        count, "stall" (a byte-moving call sleeps ten
                        minutes first, for a signal to find the copy
                        in progress), or a lie:
                          fiemap: drop (extent FAULT_ARG, default 0, is
                                  reported as a hole), cut (extent
                                  FAULT_ARG is reported 4 KiB short, its
                                  end hidden in a hole), shift (extent
                                  FAULT_ARG is reported 4 KiB later, its
                                  first block hidden in a hole),
                                  unwritten (every extent is marked
                                  unwritten), overlap,
                                  unsorted, nolast (the answer stops
                                  without FIEMAP_EXTENT_LAST), last (the
                                  answer ends at extent FAULT_ARG, marked
                                  last: the extents after it are hidden)
                          seek:   nodata (SEEK_DATA says ENXIO), stuck
                                  (both return the offset asked for),
                                  skip (SEEK_DATA at 0 skips the first
                                  data region)
                          open:   vanish (open and openat unlink the
                                  file just before the real call, as if
                                  another process removed it between the
                                  directory read and the open)
     FAULT_CALL=N       break the Nth matching call (default 1)
     FAULT_TIMES=M      and M calls from there (default 1; 0: all)
     FAULT_PATH=S       count only calls on files whose name contains S,
                        or one of the strings S separates with '|' (a
                        file open with O_TMPFILE is named "... (deleted)")
     FAULT_LOG=FILE     append a line to FILE for each fault injected,
                        so a test can tell that the fault happened
     FAULT_MINCORE=S    beside any FAULT, mincore () reports every page
                        in the page cache (S = cached) or none (S =
                        uncached), for a test to choose what sparsecp
                        does with the small holes between extents
     FAULT_NO_TMPFILE=1 beside any FAULT, open and openat with O_TMPFILE
                        fail with EOPNOTSUPP, as on a file system
                        without it
     FAULT_APPEAR=S     beside any FAULT, rename, renameat2, link and linkat
                        to a name that ends in S first make an empty file
                        there, as if another process had made it meanwhile

   Only the names sparsecp links are interposed (nm -D src/sparsecp):
   on 64-bit glibc these are the plain names, which are also the 64-bit
   calls.  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/fs.h>
#include <linux/fiemap.h>

/* Exported so that nothing of ours is taken for a libc function.  */
#define EXPORT __attribute__ ((visibility ("default")))

struct errno_name
{
  char const *name;
  int value;
};

static struct errno_name const errno_names[] =
{
  { "EINTR", EINTR }, { "EAGAIN", EAGAIN }, { "EIO", EIO },
  { "ENOSPC", ENOSPC }, { "EDQUOT", EDQUOT }, { "EFBIG", EFBIG },
  { "EOPNOTSUPP", EOPNOTSUPP }, { "ENOTTY", ENOTTY },
  { "EINVAL", EINVAL }, { "ENXIO", ENXIO }, { "EPERM", EPERM },
  { "EXDEV", EXDEV }, { "ENOENT", ENOENT }, { "EEXIST", EEXIST },
  { NULL, 0 }
};

/* The parsed environment.  */
static bool configured;
static char call_name[32];
static char effect[32];
static long fault_call = 1;
static long fault_times = 1;
static long fault_arg;
static char const *fault_path;
static char const *fault_log;
static long calls_seen;

static void
configure (void)
{
  if (configured)
    return;
  configured = true;
  fault_log = getenv ("FAULT_LOG");
  char const *f = getenv ("FAULT");
  if (!f)
    return;
  char const *colon = strchr (f, ':');
  if (!colon || colon - f >= (long) sizeof call_name
      || strlen (colon + 1) >= sizeof effect)
    {
      fprintf (stderr, "faultinject: FAULT=%s is not CALL:EFFECT\n", f);
      _exit (99);
    }
  memcpy (call_name, f, colon - f);
  strcpy (effect, colon + 1);
  char const *s;
  if ((s = getenv ("FAULT_CALL")))
    fault_call = atol (s);
  if ((s = getenv ("FAULT_TIMES")))
    fault_times = atol (s);
  if ((s = getenv ("FAULT_ARG")))
    fault_arg = atol (s);
  fault_path = getenv ("FAULT_PATH");
}

static void *
real (char const *name)
{
  void *p = dlsym (RTLD_NEXT, name);
  if (!p)
    {
      fprintf (stderr, "faultinject: no %s after us\n", name);
      _exit (99);
    }
  return p;
}

/* Whether NAME matches FAULT_PATH.  */
static bool
path_matches (char const *name)
{
  if (!fault_path)
    return true;
  if (!name)
    return false;
  for (char const *s = fault_path; ; s++)
    {
      size_t n = strcspn (s, "|");
      if (memmem (name, strlen (name), s, n))
        return true;
      s += n;
      if (!*s)
        return false;
    }
}

/* Whether the file open as FD matches FAULT_PATH.  */
static bool
fd_matches (int fd)
{
  if (!fault_path)
    return true;
  char link[64], target[4096];
  snprintf (link, sizeof link, "/proc/self/fd/%d", fd);
  int saved = errno;
  ssize_t n = readlink (link, target, sizeof target - 1);
  errno = saved;
  if (n < 0)
    return false;
  target[n] = '\0';
  return path_matches (target);
}

static void
log_fault (char const *what)
{
  if (!fault_log)
    return;
  int saved = errno;
  FILE *f = fopen (fault_log, "a");
  if (f)
    {
      fprintf (f, "%s:%s %s\n", call_name, effect, what);
      fclose (f);
    }
  errno = saved;
}

/* Whether calls to CALL are the ones to break.  */
static bool
wants (char const *call)
{
  configure ();
  return strcmp (call, call_name) == 0;
}

/* Count a call to the broken function on a file for which MATCHES, and
   say whether this is one to break.  */
static bool
count_fault (bool matches)
{
  if (!matches)
    return false;
  /* Workers count on several threads.  */
  long n = __atomic_add_fetch (&calls_seen, 1, __ATOMIC_SEQ_CST);
  return n >= fault_call && (fault_times == 0 || n < fault_call + fault_times);
}

/* Whether this call to CALL on FD is one to break.  */
static bool
fd_fault (char const *call, int fd)
{
  return wants (call) && count_fault (fd_matches (fd));
}

/* The errno EFFECT names, or 0 when it names none.  */
static int
effect_errno (void)
{
  for (struct errno_name const *e = errno_names; e->name; e++)
    if (strcmp (effect, e->name) == 0)
      return e->value;
  return 0;
}

static bool
effect_is (char const *name)
{
  return strcmp (effect, name) == 0;
}

/* A short count for a request of N bytes.  */
static size_t
shorten (size_t n)
{
  return n > 1 ? n / 2 : n;
}

/* ---- FIEMAP ---- */

static void
fiemap_remove (struct fiemap *fm, uint32_t i)
{
  uint32_t n = fm->fm_mapped_extents;
  bool last = fm->fm_extents[i].fe_flags & FIEMAP_EXTENT_LAST;
  memmove (&fm->fm_extents[i], &fm->fm_extents[i + 1],
           (n - i - 1) * sizeof *fm->fm_extents);
  fm->fm_mapped_extents = --n;
  if (last && n)
    fm->fm_extents[n - 1].fe_flags |= FIEMAP_EXTENT_LAST;
}

/* Make the answer in FM lie as EFFECT says.  Return whether it does.  */
static bool
fiemap_lie (struct fiemap *fm)
{
  uint32_t n = fm->fm_mapped_extents;
  struct fiemap_extent *e = fm->fm_extents;

  if (effect_is ("drop"))
    {
      if (fault_arg < 0 || (uint32_t) fault_arg >= n)
        return false;
      fiemap_remove (fm, fault_arg);
      return true;
    }
  if (effect_is ("cut"))
    {
      if (fault_arg < 0 || (uint32_t) fault_arg >= n
          || e[fault_arg].fe_length <= 4096)
        return false;
      e[fault_arg].fe_length -= 4096;
      e[fault_arg].fe_flags &= ~FIEMAP_EXTENT_LAST;
      return true;
    }
  if (effect_is ("shift"))
    {
      if (fault_arg < 0 || (uint32_t) fault_arg >= n)
        return false;
      e[fault_arg].fe_logical += 4096;
      return true;
    }
  if (effect_is ("unwritten"))
    {
      for (uint32_t i = 0; i < n; i++)
        e[i].fe_flags |= FIEMAP_EXTENT_UNWRITTEN;
      return n > 0;
    }
  if (effect_is ("overlap"))
    {
      if (n == 0 || n >= fm->fm_extent_count)
        return false;
      /* Repeat the first extent, shifted back by one block.  */
      memmove (&e[1], &e[0], n * sizeof *e);
      e[0].fe_flags &= ~FIEMAP_EXTENT_LAST;
      e[1].fe_logical = e[0].fe_logical + e[0].fe_length / 2;
      fm->fm_mapped_extents = n + 1;
      return true;
    }
  if (effect_is ("unsorted"))
    {
      if (n < 2)
        return false;
      struct fiemap_extent t = e[0];
      e[0] = e[1];
      e[1] = t;
      return true;
    }
  if (effect_is ("last"))
    {
      if (fault_arg < 0 || (uint32_t) fault_arg + 1 >= n)
        return false;
      e[fault_arg].fe_flags |= FIEMAP_EXTENT_LAST;
      fm->fm_mapped_extents = fault_arg + 1;
      return true;
    }
  if (effect_is ("nolast"))
    {
      if (n == 0)
        return false;
      for (uint32_t i = 0; i < n; i++)
        e[i].fe_flags &= ~FIEMAP_EXTENT_LAST;
      /* Stop before the end, as a batch cut short would.  */
      if (n > 1)
        fm->fm_mapped_extents = n - 1;
      return true;
    }
  return false;
}

EXPORT int
ioctl (int fd, unsigned long request, ...)
{
  static int (*next) (int, unsigned long, void *);
  if (!next)
    next = real ("ioctl");
  va_list ap;
  va_start (ap, request);
  void *arg = va_arg (ap, void *);
  va_end (ap);

  if (request != FS_IOC_FIEMAP || !fd_fault ("fiemap", fd))
    return next (fd, request, arg);

  int e = effect_errno ();
  if (e)
    {
      log_fault ("error");
      errno = e;
      return -1;
    }
  int r = next (fd, request, arg);
  if (r == 0 && fiemap_lie (arg))
    log_fault ("lie");
  return r;
}

/* ---- lseek ---- */

EXPORT off_t
lseek (int fd, off_t pos, int whence)
{
  static off_t (*next) (int, off_t, int);
  if (!next)
    next = real ("lseek");
  if ((whence != SEEK_DATA && whence != SEEK_HOLE)
      || !fd_fault ("seek", fd))
    return next (fd, pos, whence);

  int e = effect_errno ();
  if (e)
    {
      log_fault ("error");
      errno = e;
      return -1;
    }
  if (effect_is ("nodata") && whence == SEEK_DATA)
    {
      log_fault ("lie");
      errno = ENXIO;
      return -1;
    }
  if (effect_is ("stuck"))
    {
      log_fault ("lie");
      return next (fd, pos, SEEK_SET);
    }
  if (effect_is ("skip") && whence == SEEK_DATA)
    {
      /* Report the data after the first data region only.  */
      off_t data = next (fd, pos, SEEK_DATA);
      if (data < 0)
        return data;
      off_t hole = next (fd, data, SEEK_HOLE);
      if (hole < 0)
        return hole;
      log_fault ("lie");
      return next (fd, hole, SEEK_DATA);
    }
  return next (fd, pos, whence);
}

/* ---- calls that move bytes ---- */

/* Common front of the byte-moving calls, breaking this one when FAULT: return -1 with errno set when
   the call fails outright, or 0 with *N shortened or kept.  */
static int
inject_count (bool fault, size_t *n)
{
  if (!fault)
    return 0;
  int e = effect_errno ();
  if (e)
    {
      log_fault ("error");
      errno = e;
      return -1;
    }
  if (effect_is ("short"))
    {
      log_fault ("short");
      *n = shorten (*n);
    }
  if (effect_is ("stall"))
    {
      /* A copy stopped in the middle, for a signal to find.  */
      log_fault ("stall");
      sleep (600);
    }
  return 0;
}

EXPORT ssize_t
read (int fd, void *buf, size_t n)
{
  static ssize_t (*next) (int, void *, size_t);
  if (!next)
    next = real ("read");
  if (inject_count (fd_fault ("read", fd), &n) < 0)
    return -1;
  return next (fd, buf, n);
}

EXPORT ssize_t
pread (int fd, void *buf, size_t n, off_t pos)
{
  static ssize_t (*next) (int, void *, size_t, off_t);
  if (!next)
    next = real ("pread");
  if (inject_count (fd_fault ("pread", fd), &n) < 0)
    return -1;
  return next (fd, buf, n, pos);
}

EXPORT ssize_t
write (int fd, void const *buf, size_t n)
{
  static ssize_t (*next) (int, void const *, size_t);
  if (!next)
    next = real ("write");
  /* Never break our own diagnostics or anyone's on standard error.  */
  if (fd > 2 && inject_count (fd_fault ("write", fd), &n) < 0)
    return -1;
  return next (fd, buf, n);
}

EXPORT ssize_t
pwrite (int fd, void const *buf, size_t n, off_t pos)
{
  static ssize_t (*next) (int, void const *, size_t, off_t);
  if (!next)
    next = real ("pwrite");
  if (inject_count (fd_fault ("pwrite", fd), &n) < 0)
    return -1;
  return next (fd, buf, n, pos);
}

EXPORT ssize_t
copy_file_range (int in, off_t *in_pos, int out, off_t *out_pos, size_t n,
                 unsigned flags)
{
  static ssize_t (*next) (int, off_t *, int, off_t *, size_t, unsigned);
  if (!next)
    next = real ("copy_file_range");
  if (inject_count (wants ("copy_file_range")
                    && count_fault (fd_matches (in) || fd_matches (out)), &n) < 0)
    return -1;
  return next (in, in_pos, out, out_pos, n, flags);
}

/* ---- calls that succeed or fail ---- */

/* Return -1 with errno set when the call is to FAULT now, else 0.  */
static int
inject_error (bool fault)
{
  if (!fault)
    return 0;
  int e = effect_errno ();
  if (!e)
    return 0;
  log_fault ("error");
  errno = e;
  return -1;
}

EXPORT int
fallocate (int fd, int mode, off_t pos, off_t len)
{
  static int (*next) (int, int, off_t, off_t);
  if (!next)
    next = real ("fallocate");
  if (inject_error (fd_fault ("fallocate", fd)) < 0)
    return -1;
  return next (fd, mode, pos, len);
}

EXPORT int
ftruncate (int fd, off_t len)
{
  static int (*next) (int, off_t);
  if (!next)
    next = real ("ftruncate");
  if (inject_error (fd_fault ("ftruncate", fd)) < 0)
    return -1;
  return next (fd, len);
}

EXPORT int
fsync (int fd)
{
  static int (*next) (int);
  if (!next)
    next = real ("fsync");
  if (inject_error (fd_fault ("fsync", fd)) < 0)
    return -1;
  return next (fd);
}

EXPORT int
fdatasync (int fd)
{
  static int (*next) (int);
  if (!next)
    next = real ("fdatasync");
  if (inject_error (fd_fault ("fdatasync", fd)) < 0)
    return -1;
  return next (fd);
}

/* FAULT_APPEAR: make an empty file at TO in DIRFD, as another process
   might.  */
static void
appear (int dirfd, char const *to)
{
  char const *s = getenv ("FAULT_APPEAR");
  size_t n = s ? strlen (s) : 0, len = strlen (to);
  if (!s || len < n || strcmp (to + len - n, s) != 0)
    return;
  int saved = errno;
  static int (*next_openat) (int, char const *, int, ...);
  if (!next_openat)
    next_openat = real ("openat");
  int fd = next_openat (dirfd, to, O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd >= 0)
    {
      log_fault ("appear");
      static int (*next_close) (int);
      if (!next_close)
        next_close = real ("close");
      next_close (fd);
    }
  errno = saved;
}

/* What rename and renameat2 do before the real call: fail as FAULT
   says (return -1), or make TO appear.  */
static int
before_rename (char const *from, char const *to)
{
  if (inject_error (wants ("rename")
                    && count_fault (path_matches (from) || path_matches (to))) < 0)
    return -1;
  appear (AT_FDCWD, to);
  return 0;
}

EXPORT int
rename (char const *from, char const *to)
{
  static int (*next) (char const *, char const *);
  if (!next)
    next = real ("rename");
  if (before_rename (from, to) < 0)
    return -1;
  return next (from, to);
}

EXPORT int
renameat2 (int fromfd, char const *from, int tofd, char const *to,
           unsigned int flags)
{
  static int (*next) (int, char const *, int, char const *, unsigned int);
  if (!next)
    next = real ("renameat2");
  if (before_rename (from, to) < 0)
    return -1;
  return next (fromfd, from, tofd, to, flags);
}

EXPORT int
link (char const *from, char const *to)
{
  static int (*next) (char const *, char const *);
  if (!next)
    next = real ("link");
  if (inject_error (wants ("link") && count_fault (path_matches (to))) < 0)
    return -1;
  appear (AT_FDCWD, to);
  return next (from, to);
}

EXPORT int
linkat (int fromfd, char const *from, int tofd, char const *to, int flags)
{
  static int (*next) (int, char const *, int, char const *, int);
  if (!next)
    next = real ("linkat");
  if (inject_error (wants ("linkat") && count_fault (path_matches (to))) < 0)
    return -1;
  appear (tofd, to);
  return next (fromfd, from, tofd, to, flags);
}

EXPORT int
close (int fd)
{
  static int (*next) (int);
  if (!next)
    next = real ("close");
  /* Like Linux, close the descriptor even when reporting an error.  */
  bool fault = fd > 2 && inject_error (fd_fault ("close", fd)) < 0;
  int e = errno;
  int r = next (fd);
  if (fault)
    {
      errno = e;
      return -1;
    }
  return r;
}

/* ---- open ---- */

/* Break this open of NAME in directory DIRFD when FAULT: return -1 with
   errno set when it fails outright; for "vanish", unlink NAME first and
   return 0, so that the real call finds nothing there.  */
static int
inject_open (bool fault, int flags, int dirfd, char const *name)
{
  if ((flags & O_TMPFILE) == O_TMPFILE && getenv ("FAULT_NO_TMPFILE"))
    {
      log_fault ("no O_TMPFILE");
      errno = EOPNOTSUPP;
      return -1;
    }
  if (!fault)
    return 0;
  if (effect_is ("vanish"))
    {
      int saved = errno;
      if (unlinkat (dirfd, name, 0) == 0)
        log_fault ("vanish");
      errno = saved;
      return 0;
    }
  return inject_error (true);
}

/* Set MODE from the argument after FLAGS, the last named one, which
   open and openat take only when creating.  */
#define OPEN_MODE(flags, mode)                            \
  do                                                            \
    {                                                           \
      if ((flags) & (O_CREAT | O_TMPFILE))                      \
        {                                                       \
          va_list ap;                                           \
          va_start (ap, flags);                                  \
          mode = va_arg (ap, mode_t);                           \
          va_end (ap);                                          \
        }                                                       \
    }                                                           \
  while (0)

EXPORT int
open (char const *name, int flags, ...)
{
  static int (*next) (char const *, int, ...);
  if (!next)
    next = real ("open");
  mode_t mode = 0;
  OPEN_MODE (flags, mode);
  if (inject_open (wants ("open") && count_fault (path_matches (name)),
                   flags, AT_FDCWD, name) < 0)
    return -1;
  return next (name, flags, mode);
}

EXPORT int
openat (int dirfd, char const *name, int flags, ...)
{
  static int (*next) (int, char const *, int, ...);
  if (!next)
    next = real ("openat");
  mode_t mode = 0;
  OPEN_MODE (flags, mode);
  if (inject_open (wants ("open") && count_fault (path_matches (name)),
                   flags, dirfd, name) < 0)
    return -1;
  return next (dirfd, name, flags, mode);
}

/* ---- mincore: the page cache as sparsecp sees it ---- */

EXPORT int
mincore (void *addr, size_t len, unsigned char *vec)
{
  static int (*next) (void *, size_t, unsigned char *);
  if (!next)
    next = real ("mincore");
  if (inject_error (wants ("mincore") && count_fault (true)) < 0)
    return -1;
  char const *lie = getenv ("FAULT_MINCORE");
  if (!lie)
    return next (addr, len, vec);
  size_t page = sysconf (_SC_PAGESIZE);
  memset (vec, strcmp (lie, "cached") == 0, (len + page - 1) / page);
  return 0;
}
