/* Copying one file: map, plan and copy, into a temporary file that
   replaces the destination, or an unnamed one that becomes it, only once
   it is complete.  */

#include "copy-file.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "copy-data.h"
#include "dst-dir.h"
#include "dst-file.h"
#include "preserve.h"
#include "progress.h"
#include "replace.h"
#include "summary.h"
#include "verify.h"
#include "canonicalize.h"
#include "dirname.h"
#include "error.h"
#include "ignore-value.h"
#include "quotearg.h"
#include "same-inode.h"
#include "stat-time.h"
#include "xalloc.h"

/* A file whose size, mtime or ctime moved while it was copied is copied
   again, at most this many times in all.  */
enum { COPY_ATTEMPTS = 3 };

char const *
scan_method_name (enum scan_method m)
{
  static char const *const names[] = { "auto", "fiemap", "seek", "read" };
  return names[m];
}

/* The methods to try, in order, for --scan=ASKED; reading always ends
   the list because it cannot be fooled.  */
static int
scan_order (enum scan_method asked, enum scan_method order[3])
{
  switch (asked)
    {
    case SCAN_AUTO:
      order[0] = SCAN_FIEMAP, order[1] = SCAN_SEEK, order[2] = SCAN_READ;
      return 3;
    case SCAN_READ:
      order[0] = SCAN_READ;
      return 1;
    default:
      order[0] = asked, order[1] = SCAN_READ;
      return 2;
    }
}

/* Whether a regular file has fewer blocks than its size needs.  */
static bool
looks_sparse (struct stat const *st)
{
  return (off_t) st->st_blocks * 512 < st->st_size;
}

/* The methods to try on the file NAME whose status is ST, in order, in
   ORDER; return how many.  */
static int
scan_methods (char const *name, struct stat const *st,
              struct copy_options const *x, enum scan_method order[3])
{
  /* A file with a block for each of its bytes has no hole to keep, as
     cp also reasons: reading it all cannot lose data, and spares the
     flush FIEMAP_FLAG_SYNC makes.  */
  if (x->scan == SCAN_AUTO && !looks_sparse (st))
    {
      if (x->debug)
        error (0, 0, "%s: fiemap not used: it has a block for every byte",
               quoteaf (name));
      order[0] = SCAN_READ;
      return 1;
    }
  return scan_order (x->scan, order);
}

/* Fill the next window of M, the map of SRC_FD by its method.  */
static enum map_status
map_window (int src_fd, struct stat const *st, struct extent_map *m,
            map_distrust *why)
{
  switch (m->method)
    {
    case SCAN_FIEMAP:
      return map_fiemap (src_fd, st, m, why);
    case SCAN_SEEK:
      return map_seek (src_fd, st, m, why);
    default:
      return map_read (st, m);
    }
}

static bool
same_time (struct timespec a, struct timespec b)
{
  return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

/* Whether a file's contents may have changed between two stat calls.  */
static bool
source_changed (struct stat const *a, struct stat const *b)
{
  return (a->st_size != b->st_size
          || !same_time (get_stat_mtime (a), get_stat_mtime (b))
          || !same_time (get_stat_ctime (a), get_stat_ctime (b)));
}

/* Set the size of FD to SIZE, retrying when interrupted.  Return
   whether it worked, with errno set when not.  */
static bool
set_size (int fd, off_t size)
{
  int r;
  do
    r = ftruncate (fd, size);
  while (r != 0 && errno == EINTR);
  return r == 0;
}

/* Empty the destination for another try at the copy.  */
static bool
restart_dst (struct copier *c)
{
  if (!set_size (c->dst_fd, 0))
    {
      error (0, errno, "cannot restart the copy of %s",
             quoteaf (c->src_name));
      return false;
    }
  c->bytes_cfr = c->bytes_rw = c->bytes_hole = 0;
  c->cloned = false;
  progress_file_restart ();
  return true;
}

/* Copy a regular file of known size with METHOD: map its first window,
   set the destination's size, copy the window, and so on to the end.
   When a window of the map is not trusted, set *WHY to the reason,
   leave the destination as it was, empty, and return COPY_DISTRUSTED.  */
static enum copy_status
copy_by_method (struct copier *c, struct stat const *st,
                struct copy_options const *x, struct extent_map *m,
                enum scan_method method, map_distrust *why)
{
  map_settle (m);
  map_reset (m, method);
  if (map_window (c->src_fd, st, m, why) != MAP_OK)
    return COPY_DISTRUSTED;

  bool scan_data = (method == SCAN_READ && x->sparse == SPARSE_AUTO
                    && looks_sparse (st));
  /* Until the map is complete, the allocated bytes are all we know.  */
  off_t data = m->done ? m->data : (off_t) st->st_blocks * 512;
  if (data > st->st_size)
    data = st->st_size;
  progress_file_total (data, st->st_size - data);

  /* Size the copy first, which keeps a trailing hole, and means no write
     lands past EOF: XFS would zero the blocks it had preallocated
     between the old EOF and such a write, filling a hole of the copy.
     The empty copy of a file that is read whole and makes no holes
     reaches its size by being written.  */
  bool makes_holes = (method != SCAN_READ || scan_data
                      || x->sparse == SPARSE_ALWAYS);
  if (c->dst_seekable && makes_holes && !set_size (c->dst_fd, st->st_size))
    {
      error (0, errno, "cannot set the size of %s", quoteaf (c->dst_name));
      return COPY_FAILED;
    }

  enum copy_status s;
  for (;;)
    {
      s = copy_window (c, m, st->st_size, x->sparse, scan_data);
      if (s != COPY_OK || m->done)
        break;
      /* A lie found now makes what was copied worthless too.  */
      if (map_window (c->src_fd, st, m, why) != MAP_OK)
        return restart_dst (c) ? COPY_DISTRUSTED : COPY_FAILED;
    }
  /* The last window's holes may still be being asked about.  */
  map_distrust late = map_settle (m);
  if (s == COPY_OK && late)
    {
      *why = late;
      return restart_dst (c) ? COPY_DISTRUSTED : COPY_FAILED;
    }
  if (s == COPY_OK)
    progress_file_total (m->data, st->st_size - m->data);
  return s;
}

/* One attempt at copying a regular file of known size, with the first
   method --scan allows whose map is trusted to the end.  */
static enum copy_status
copy_mapped (struct copier *c, struct stat const *st,
             struct copy_options const *x, struct extent_map *m)
{
  enum scan_method order[3];
  int n = scan_methods (c->src_name, st, x, order);

  for (int i = 0; i < n; i++)
    {
      map_distrust why = NULL;
      enum copy_status s = copy_by_method (c, st, x, m, order[i], &why);
      if (s != COPY_DISTRUSTED)
        return s;
      if (x->debug)
        error (0, 0, "%s: %s not used: %s", quoteaf (c->src_name),
               scan_method_name (order[i]), why);
    }
  abort ();   /* map_read () cannot fail */
}

/* Share the source's extents with the copy when X allows it: always
   with --reflink=always, and with --reflink=auto when neither a method
   nor new holes are asked for.  Return COPY_OK when cloned,
   COPY_NOT_CLONED when the data is to be copied, COPY_FAILED after reporting that
   --reflink=always could not be honoured.  */
static enum copy_status
try_clone (struct copier *c, struct copy_options const *x)
{
  bool wanted = (x->reflink == REFLINK_ALWAYS
                 || (x->reflink == REFLINK_AUTO && x->scan == SCAN_AUTO
                     && x->sparse == SPARSE_AUTO));
  if (!wanted)
    return COPY_NOT_CLONED;
  if (c->dst_seekable && clone_whole_file (c))
    return COPY_OK;
  if (x->reflink != REFLINK_ALWAYS)
    return COPY_NOT_CLONED;
  error (0, c->dst_seekable ? errno : EOPNOTSUPP,
         "failed to clone %s from %s", quoteaf_n (0, c->dst_name),
         quoteaf_n (1, c->src_name));
  return COPY_FAILED;
}

/* For --debug: say how the source was copied into its SIZE bytes: with
   map M, or by reading it to the end when M is null.  */
static void
report_copy (struct copier const *c, struct extent_map const *m,
             off_t size, bool verified)
{
  char const *how = (c->cloned ? "reflink" : !m ? "stream"
                     : scan_method_name (m->method));
  off_t data = c->cloned ? size : m ? map_data_bytes (m) : c->bytes_rw;
  error (0, 0, "%s -> %s: scan=%s extents=%zu data=%jd holes=%jd"
         " copy_file_range=%jd read_write=%jd%s",
         quoteaf_n (0, c->src_name), quoteaf_n (1, c->dst_name), how,
         m && !c->cloned ? m->extents : 0, (intmax_t) data,
         (intmax_t) (m && !c->cloned ? size - data : c->bytes_hole),
         (intmax_t) c->bytes_cfr, (intmax_t) c->bytes_rw,
         verified ? " verified" : "");
}

/* Count a finished copy for the summary, and report it with --debug.  */
static void
account_copy (struct copier const *c, struct extent_map const *m,
              off_t size, bool verified, struct copy_options const *x)
{
  if (c->cloned)
    summary_file (SUM_REFLINK, size, 0);
  else if (!m)
    summary_file (SUM_STREAM, size - c->bytes_hole, c->bytes_hole);
  else
    {
      enum summary_method how = (m->method == SCAN_FIEMAP ? SUM_FIEMAP
                                 : m->method == SCAN_SEEK ? SUM_SEEK
                                 : SUM_READ);
      off_t data = map_data_bytes (m);
      summary_file (how, data, size - data);
    }
  if (x->debug)
    report_copy (c, m, size, verified);
}

/* How one attempt at a copy ended.  */
enum attempt
{
  ATTEMPT_COPIED,     /* the destination holds the source's bytes */
  ATTEMPT_CHANGED,    /* the source's size, mtime or ctime moved, or it
                         ended before its map did */
  ATTEMPT_DIFFERENT,  /* --verify found the copy differing, the source's
                         status unchanged: a map that lied, or a write
                         through mmap */
  ATTEMPT_FAILED      /* reported */
};

/* One attempt at copying C's source, whose status was *ST, with map M:
   clone it, or copy it by the first method whose map is trusted, or
   read it to its end, then see whether it changed meanwhile and, with
   --verify, compare.  Put the source's status after the copy in *AFTER
   (for ATTEMPT_CHANGED and ATTEMPT_DIFFERENT), the bytes of a source of
   unknown size in *TOTAL, and the offset of the first byte that differs
   in *BAD (-1 if none).  */
static enum attempt
copy_attempt (struct copier *c, struct stat const *st,
              struct copy_options const *x, struct extent_map *m,
              struct stat *after, off_t *total, off_t *bad)
{
  bool known_size = S_ISREG (st->st_mode) && st->st_size > 0;
  *total = st->st_size;
  *bad = -1;
  enum copy_status s = (S_ISREG (st->st_mode) ? try_clone (c, x)
                        : COPY_NOT_CLONED);
  if (s == COPY_OK)
    {
      progress_file_total (st->st_size, 0);
      progress_bytes (st->st_size);
    }
  else if (s == COPY_NOT_CLONED)
    s = (known_size ? copy_mapped (c, st, x, m)
         : copy_stream (c, x->sparse == SPARSE_ALWAYS, total));
  if (s == COPY_FAILED)
    return ATTEMPT_FAILED;
  if (s == COPY_OK && !known_size && c->dst_seekable
      && !set_size (c->dst_fd, *total))
    {
      error (0, errno, "cannot set the size of %s", quoteaf (c->dst_name));
      return ATTEMPT_FAILED;
    }

  /* Only a regular file can change under us and be read again.  */
  if (!S_ISREG (st->st_mode))
    return ATTEMPT_COPIED;
  if (fstat (c->src_fd, after) != 0)
    {
      error (0, errno, "cannot stat %s", quoteaf (c->src_name));
      return ATTEMPT_FAILED;
    }
  if (s != COPY_OK || source_changed (st, after))
    return ATTEMPT_CHANGED;
  if (!(x->verify && known_size && c->dst_seekable))
    return ATTEMPT_COPIED;

  enum verify_status v = verify_copy (c->src_fd, c->src_name, c->dst_fd,
                                      c->dst_name, st->st_size, bad);
  if (v == VERIFY_FAILED)
    return ATTEMPT_FAILED;
  /* A difference is a map that lied, or a source that moved without
     telling stat (a write through mmap): look again.  */
  if (v == VERIFY_DIFFERENT && fstat (c->src_fd, after) != 0)
    {
      error (0, errno, "cannot stat %s", quoteaf (c->src_name));
      return ATTEMPT_FAILED;
    }
  if (source_changed (st, after))
    return ATTEMPT_CHANGED;
  return *bad < 0 ? ATTEMPT_COPIED : ATTEMPT_DIFFERENT;
}

/* Say why the copy of C's source is given up (GAVE_UP) or made again:
   it CHANGED, or it differs from the copy at byte BAD.  */
static void
report_attempt (struct copier const *c, bool changed, off_t bad,
                bool gave_up)
{
  if (changed)
    error (0, 0, gave_up ? "%s changed while being copied"
                         : "%s changed while being copied; copying it again",
           quoteaf (c->src_name));
  else
    error (0, 0, gave_up ? "verification failed: %s differs from %s"
                           " at byte %jd"
                         : "%s differs from %s at byte %jd; copying it again",
           quoteaf_n (0, c->dst_name), quoteaf_n (1, c->src_name),
           (intmax_t) bad);
}

/* Copy the open SRC_FD into DST_FD, again while the source moves under
   us, up to COPY_ATTEMPTS times in all.  *ST is the source's status,
   updated to the state copied.  */
static bool
copy_contents (struct copier *c, struct stat *st,
               struct copy_options const *x)
{
  struct extent_map m;
  map_init (&m, SCAN_AUTO);
  bool ok = false;
  progress_file_begin (c->src_name, -1, 0);

  for (int attempt = 1; ; attempt++)
    {
      bool known_size = S_ISREG (st->st_mode) && st->st_size > 0;
      struct stat after;
      off_t total, bad;
      enum attempt a = copy_attempt (c, st, x, &m, &after, &total, &bad);
      if (a == ATTEMPT_FAILED)
        break;
      if (a == ATTEMPT_COPIED)
        {
          ok = true;
          account_copy (c, known_size ? &m : NULL, total,
                        x->verify && known_size, x);
          break;
        }
      bool changed = a == ATTEMPT_CHANGED;
      if (attempt == COPY_ATTEMPTS)
        {
          report_attempt (c, changed, bad, true);
          break;
        }
      if (x->debug)
        report_attempt (c, changed, bad, false);
      *st = after;
      if (!known_size && lseek (c->src_fd, 0, SEEK_SET) != 0)
        {
          error (0, errno, "cannot restart the copy of %s",
                 quoteaf (c->src_name));
          break;
        }
      if (!restart_dst (c))
        break;
    }
  progress_file_end ();
  map_settle (&m);
  map_free (&m);
  return ok;
}

/* The mode a new DST gets from open, as cp gives it: the source's less
   the set-ID bits (or 0666 with --no-preserve=mode), less the umask.  */
static mode_t
new_file_mode (struct stat const *src_st, struct copy_options const *x)
{
  return x->default_modes ? 0666 : src_st->st_mode & 0777;
}

/* Give the finished temporary file FD, named TEMP, the attributes DST
   should have: those --preserve asks for, and otherwise MODE unless it
   is (mode_t) -1 and, for root, the owner of the DST it replaces,
   OLD_DST, if any.  */
static bool
set_dst_attributes (int fd, char const *temp, char const *dst,
                    char const *src, int src_fd, struct stat const *src_st,
                    struct stat const *old_dst, mode_t mode,
                    struct copy_options const *x)
{
  if (old_dst && !x->preserve.ownership && geteuid () == 0)
    ignore_value (fchown (fd, old_dst->st_uid, old_dst->st_gid));
  struct attr_target t = { dst, temp, fd };
  return set_attributes (&t, src, src_fd, src_st, mode, x);
}

/* --attributes-only onto DST, which exists as *D says: give it the
   attributes of SRC, open as SRC_FD with status *SRC_ST, that --preserve
   asks for, and leave its data as it is, as cp does.  */
static bool
set_in_place (char const *src, int src_fd, struct stat const *src_st,
              char const *dst, struct dst_state const *d,
              struct copy_options const *x)
{
  int fd = open (d->path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    {
      error (0, errno, "cannot open %s for writing", quoteaf (dst));
      return false;
    }
  bool ok = set_dst_attributes (fd, d->path, dst, src, src_fd, src_st,
                                &d->st, d->st.st_mode & 07777, x);
  if (close (fd) != 0 && ok)
    {
      error (0, errno, "failed to close %s", quoteaf (dst));
      ok = false;
    }
  return ok;
}

/* Open SRC for reading, as the file *SRC_ST the caller found, and put
   its status in *ST.  Return the descriptor, or -1 after reporting why:
   SRC cannot be opened, or is another file than the one found.  */
static int
open_source (char const *src, struct stat const *src_st, struct stat *st)
{
  int fd = open (src, O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    {
      error (0, errno, "cannot open %s for reading", quoteaf (src));
      return -1;
    }
  if (fstat (fd, st) != 0)
    {
      error (0, errno, "cannot stat %s", quoteaf (src));
      close (fd);
      return -1;
    }
  /* Swapped for a symlink to another file since the walk saw it: what
     open found is not what the user asked to copy.  A symlink the walk
     saw and did not follow is never copied here.  */
  if (!SAME_INODE (*st, *src_st))
    {
      error (0, 0, "skipping file %s, as it was replaced while being copied",
             quoteaf (src));
      close (fd);
      return -1;
    }
  if (S_ISREG (st->st_mode))
    ignore_value (posix_fadvise (fd, 0, 0, POSIX_FADV_SEQUENTIAL));
  return fd;
}

/* The mode to create a new file for DST, as *D says it is, with: a new
   DST's mode, or u+rw for one whose mode is set once it is complete.  A
   mode to set then is put in *FINAL_MODE, else (mode_t) -1.  */
static mode_t
create_mode (struct stat const *sst, struct dst_state const *d,
             struct copy_options const *x, mode_t *final_mode)
{
  *final_mode = (mode_t) -1;
  bool new_mode = (!(d->exists && !d->as_new) && !x->preserve.mode);
  mode_t mode = new_mode ? new_file_mode (sst, x) : S_IRUSR | S_IWUSR;
  /* Linux lets only a writer set a file's extended attributes: keep u+w
     until they are set, as cp does.  */
  if (new_mode && x->preserve.xattr && geteuid () != 0
      && !(mode & S_IWUSR))
    {
      *final_mode = mode & ~x->umask;
      mode |= S_IWUSR;
    }
  return mode;
}

bool
copy_file (char const *src, struct stat const *src_st, char const *dst,
           struct dst_state const *d, struct copy_options const *x)
{
  struct stat sst;
  int src_fd = open_source (src, src_st, &sst);
  if (src_fd < 0)
    return false;
  if (x->attributes_only && d->exists && !d->as_new && !d->replace)
    {
      bool ok = set_in_place (src, src_fd, &sst, dst, d, x);
      close (src_fd);
      return ok;
    }

  mode_t final_mode;
  mode_t mode = create_mode (&sst, d, x, &final_mode);
  struct dst_file f;
  if (!dst_file_open (&f, dst, d, mode))
    {
      close (src_fd);
      return false;
    }

  struct copier c;
  copier_init (&c, src_fd, src, f.fd, dst, !f.in_place, 0);
  /* copy_file_range may share extents too, so cp avoids it then.  */
  if (x->reflink == REFLINK_NEVER)
    c.try_cfr = false;
  bool ok = x->attributes_only || copy_contents (&c, &sst, x);
  copier_free (&c);

  if (ok && !f.in_place)
    {
      struct stat const *old = d->exists && !d->as_new ? &d->st : NULL;
      if (old)
        final_mode = old->st_mode & 07777;
      /* A FIFO's times move as it is written to while it is read: it
         gets those it had when found, as cp gives it.  */
      struct stat const *times = S_ISREG (sst.st_mode) ? &sst : src_st;
      ok = set_dst_attributes (f.fd, dst_file_attr_name (&f), dst, src,
                               src_fd, times, old, final_mode, x);
    }
  if (ok)
    ok = dst_file_commit (&f, d);
  else
    dst_file_abandon (&f);
  close (src_fd);
  return ok;
}
