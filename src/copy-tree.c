/* Walking a source with fts and making its copy: directories here,
   regular files by copy-file.c, other nodes by make-node.c, each after
   dst-policy.c has said what to do with what is at its destination.  */

#include "copy-tree.h"

#include <fcntl.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "backup.h"
#include "context.h"
#include "copy-file.h"
#include "created.h"
#include "dst-dir.h"
#include "dst-policy.h"
#include "make-node.h"
#include "file-id.h"
#include "preserve.h"
#include "progress.h"
#include "replace.h"
#include "summary.h"
#include "workers.h"
#include "dirname.h"
#include "error.h"
#include "fts_.h"
#include "quotearg.h"
#include "same-inode.h"
#include "xalloc.h"

/* One walk: where it goes and how it is going.  */
struct walk
{
  struct copy_options const *x;
  char const *dst;      /* the copy of the walk's root */
  size_t root_len;      /* the root's part of each entry's fts_path */
  bool ok;
};

/* What a directory's postorder visit must do, kept in fts_number: the
   low bits say what, the mode to restore sits above them.  */
enum
{
  DIR_FINISH = 1,       /* set its attributes */
  DIR_NEW = 2,          /* we made it */
  DIR_RESTORE = 4,      /* we added u+rwx to fill it: take it away */
  DIR_MODE_SHIFT = 8
};

/* The copies made of files with several hard links, by source inode,
   for --preserve=links.  Kept across operands, as cp does.  */
struct link_entry
{
  struct file_id id;    /* first, for file_id_compare */
  char *copy;
};
static void *link_table;

/* The earlier copy of a file with ST's inode, or NULL.  */
static char const *
earlier_copy (struct stat const *st)
{
  struct link_entry key = { file_id_of (st), NULL };
  struct link_entry **found = tfind (&key, &link_table, file_id_compare);
  return found ? (*found)->copy : NULL;
}

static void
remember_copy (struct stat const *st, char const *copy)
{
  struct link_entry *e = xmalloc (sizeof *e);
  *e = (struct link_entry) { file_id_of (st), xstrdup (copy) };
  struct link_entry **slot = tsearch (e, &link_table, file_id_compare);
  if (!slot)
    xalloc_die ();
  if (*slot != e)
    {
      free (e->copy);
      free (e);
    }
}

/* The copy of entry E: the walk's DST followed by E's path below the
   root.  */
static char *
copy_name (struct walk const *w, FTSENT const *e)
{
  char const *below = e->fts_path + w->root_len;
  if (e->fts_level == FTS_ROOTLEVEL)
    below = "";
  size_t n = strlen (w->dst), m = strlen (below);
  char *name = xmalloc (n + m + 1);
  memcpy (name, w->dst, n);
  memcpy (name + n, below, m + 1);
  return name;
}

/* -v: say what is copied where, as cp does, and the name of DST's
   backup, BACKUP (relative to DST's directory), if it gets one.  */
static void
say_copied (struct copy_options const *x, char const *src, char const *dst,
            char const *backup)
{
  if (!x->verbose)
    return;
  progress_clear ();
  char *line;
  char *backup_part = NULL;
  if (backup)
    {
      char const *base = last_component (backup);
      size_t dirlen = last_component (dst) - dst;
      char *name = xmalloc (dirlen + strlen (base) + 1);
      strcpy (mempcpy (name, dst, dirlen), base);
      if (asprintf (&backup_part, " (backup: %s)", quoteaf (name)) < 0)
        xalloc_die ();
      free (name);
    }
  if (asprintf (&line, "%s -> %s%s\n", quoteaf_n (0, src),
                quoteaf_n (1, dst), backup_part ? backup_part : "") < 0)
    xalloc_die ();
  /* In the order of the copies, whose messages may wait for their turn.  */
  report_text (stdout, line);
  free (line);
  free (backup_part);
}

/* Whether DIR, or a directory above it, is the directory *ST.  */
static bool
is_within (struct stat const *st, char const *dir)
{
  int fd = open (dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
  struct stat cur, prev = { 0 };
  bool found = false;
  for (int depth = 0; fd >= 0 && depth < 4096; depth++)
    {
      if (fstat (fd, &cur) != 0 || (depth && SAME_INODE (cur, prev)))
        break;
      if (SAME_INODE (cur, *st))
        {
          found = true;
          break;
        }
      prev = cur;
      int up = openat (fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
      close (fd);
      fd = up;
    }
  if (fd >= 0)
    close (fd);
  return found;
}

/* Refuse to copy the directory SRC, *ST, into itself as DST.  */
static bool
check_not_into_itself (char const *src, struct stat const *st,
                       char const *dst)
{
  struct stat dst_st;
  if (stat (dst, &dst_st) == 0 && SAME_INODE (*st, dst_st))
    {
      error (0, 0, "%s and %s are the same file", quoteaf_n (0, src),
             quoteaf_n (1, dst));
      return false;
    }
  char *parent = dir_name (dst);
  bool inside = is_within (st, parent);
  free (parent);
  if (inside)
    {
      error (0, 0, "cannot copy a directory, %s, into itself, %s",
             quoteaf_n (0, src), quoteaf_n (1, dst));
      return false;
    }
  return true;
}

/* The directory that holds the copy of entry E, open for dst_dir_name,
   or -1: the walk holds the copy of each directory it is in (see
   make_directory) in the fts_pointer of the directory's entry, with the
   count of the files workers are copying into it.  */
static struct dir_hold *
dir_hold (FTSENT const *e)
{
  return e->fts_pointer;
}

static int
held_dir (FTSENT const *e)
{
  return dir_hold (e) ? dir_hold (e)->fd : -1;
}

static void
hold_dir (FTSENT *e, int fd)
{
  struct dir_hold *h = xmalloc (sizeof *h);
  *h = (struct dir_hold) { .fd = fd };
  e->fts_pointer = h;
}

/* Let the directory of E go, before anything was copied into it.  */
static void
release_dir (FTSENT *e)
{
  struct dir_hold *h = dir_hold (e);
  if (!h)
    return;
  close (h->fd);
  free (h);
  e->fts_pointer = NULL;
}

/* Look at AT, where the copy of directory entry E goes, into *ST, as
   cp does: following a symlink for an operand, and below it only with
   -L, and then not a symlink this run made.  Set *FOLLOWED if a symlink
   was followed.  Return stat's result.  */
static int
stat_dst_dir (struct copy_options const *x, FTSENT const *e,
              char const *at, struct stat *st, bool *followed)
{
  *followed = e->fts_level == FTS_ROOTLEVEL;
  if (*followed)
    return stat (at, st);
  int r = lstat (at, st);
  if (r == 0 && S_ISLNK (st->st_mode) && x->deref == DEREF_ALWAYS
      && !created_here (st))
    {
      *followed = true;
      r = stat (at, st);
    }
  return r;
}

/* Make the new directory DST, reached as AT, open as FD with status
   *HELD, one the copy can fill, and note in E the mode it gets back at
   the end, with the permissions OMITTED until then.  */
static bool
make_fillable (FTSENT *e, int fd, struct stat const *held, char const *at,
               char const *dst, mode_t omitted)
{
  /* We must be able to fill it; its own mode, and what was omitted,
     come back at the end.  */
  mode_t want = (held->st_mode & 07777) | omitted;
  if ((held->st_mode & S_IRWXU) != S_IRWXU)
    {
      char *self = dst_dir_name (fd, NULL, at);
      int r = chmod (self, held->st_mode | S_IRWXU);
      int e_chmod = errno;
      free (self);
      if (r != 0)
        {
          error (0, e_chmod, "cannot make %s writable", quoteaf (dst));
          return false;
        }
    }
  if ((held->st_mode & S_IRWXU) != S_IRWXU || want != (held->st_mode & 07777))
    e->fts_number |= DIR_RESTORE | (long) want << DIR_MODE_SHIFT;
  return true;
}

/* Give the directory DST, held as FD, the label X asks for before
   anything is copied into it: cp labels an existing one too.  */
static bool
label_directory (struct copy_options const *x, FTSENT const *e, int fd,
                 char const *dst)
{
  if (x->label == LABEL_NONE)
    return true;
  char *self = dst_dir_name (fd, NULL, dst);
  struct attr_target t = { dst, self, -1 };
  bool ok = context_label (&t, e->fts_path, -1, e->fts_statp->st_mode, x);
  free (self);
  return ok;
}

/* Make DST, reached as AT, the copy of directory entry E, or take the
   directory that is already there; hold it open for what is copied
   into it, and note in E what its postorder visit must do.  */
static bool
make_directory (struct walk *w, FTSENT *e, char const *dst, char const *at)
{
  struct copy_options const *x = w->x;
  struct stat const *st = e->fts_statp;
  struct stat dst_st;
  bool follow;
  /* Until its owner and mode are final, a new directory gives others no
     more than it will: cp's omitted permissions.  */
  mode_t mode = x->default_modes ? 0777 : st->st_mode & 07777;
  mode_t omitted = mode & (x->preserve.ownership ? S_IRWXG | S_IRWXO
                           : x->preserve.mode ? S_IWGRP | S_IWOTH : 0);

  if (stat_dst_dir (x, e, at, &dst_st, &follow) == 0)
    {
      if (!S_ISDIR (dst_st.st_mode))
        {
          error (0, 0, "cannot overwrite non-directory %s with directory %s",
                 quoteaf_n (0, dst), quoteaf_n (1, e->fts_path));
          return false;
        }
      e->fts_number = DIR_FINISH;
    }
  else if (errno != ENOENT)
    {
      error (0, errno, "cannot stat %s", quoteaf (dst));
      return false;
    }
  else
    {
      if (mkdir (at, mode & ~omitted) != 0)
        {
          error (0, errno, "cannot create directory %s", quoteaf (dst));
          return false;
        }
      say_copied (x, e->fts_path, dst, NULL);
      summary_made (SUM_DIRECTORY);
      e->fts_number = DIR_FINISH | DIR_NEW;
      follow = false;
    }

  /* What is copied into it goes through this descriptor: a directory
     renamed away and replaced by a symlink meanwhile is not followed.  */
  int fd = dst_dir_open (at, follow);
  struct stat held;
  if (fd < 0 || fstat (fd, &held) != 0)
    {
      error (0, errno, "cannot open directory %s", quoteaf (dst));
      if (fd >= 0)
        close (fd);
      return false;
    }
  hold_dir (e, fd);
  if (!label_directory (x, e, fd, dst))
    return false;
  if (!(e->fts_number & DIR_NEW))
    {
      if (!SAME_INODE (held, dst_st))
        {
          error (0, 0, "%s was replaced while being copied to",
                 quoteaf (dst));
          return false;
        }
      return true;
    }

  return make_fillable (e, fd, &held, at, dst, omitted & ~x->umask);
}

/* What a directory's postorder visit does, kept beyond the life of its
   entry while workers still copy into it.  */
struct dir_finish
{
  struct copy_options const *x;
  struct dir_hold *hold;
  long flags;               /* the entry's fts_number */
  char *src, *dst;
  struct stat st;
};

/* Give the finished directory F->dst the attributes of its source, let
   it go, and free F.  Return false after reporting a failure.  */
static bool
set_directory_attributes (void *arg)
{
  struct dir_finish *f = arg;
  struct preserve_set const *p = &f->x->preserve;
  bool ok = true;
  if ((f->flags & DIR_FINISH)
      && ((f->flags & DIR_NEW) || p->mode || p->ownership || p->timestamps
          || p->xattr))
    {
      mode_t mode = (f->flags & DIR_RESTORE
                     ? (mode_t) (f->flags >> DIR_MODE_SHIFT) : (mode_t) -1);
      char *self = dst_dir_name (f->hold->fd, NULL, f->dst);
      struct attr_target t = { f->dst, self, -1 };
      ok = set_attributes (&t, f->src, -1, &f->st, mode, f->x);
      free (self);
    }
  close (f->hold->fd);
  free (f->hold);
  free (f->src);
  free (f->dst);
  free (f);
  return ok;
}

/* Give the finished directory DST the attributes of entry E, and let
   it go: now, or, while workers copy files into it, when the last of
   them is done (its times would change, and its mode may not let them
   in).  Only a directory held by make_directory is touched: fts visits
   again, as finished, one that make_directory failed on, and its name
   may lead anywhere by now.  */
static bool
finish_directory (struct walk *w, FTSENT *e, char const *dst)
{
  long flags = e->fts_number;
  e->fts_number = 0;
  if (!dir_hold (e))
    return true;
  struct dir_finish *f = xmalloc (sizeof *f);
  *f = (struct dir_finish) { w->x, dir_hold (e), flags,
                             xstrdup (e->fts_path), xstrdup (dst),
                             *e->fts_statp };
  e->fts_pointer = NULL;
  return workers_after_dir (f->hold, set_directory_attributes, f);
}

/* Remember DST, just made, when a later copy must not write through it
   or over it: every symlink, and every operand's copy.  */
static void
record_made (char const *dst, bool operand)
{
  struct stat st;
  if (lstat (dst, &st) == 0 && (operand || S_ISLNK (st.st_mode)))
    created_add (&st);
}

/* Whether the copy puts a new file in place of an existing DST, never
   writing into or through it.  */
static bool
replaces_dst (struct copy_options const *x)
{
  return (x->remove_destination || x->backup != no_backups
          || x->hard_link || x->symbolic_link);
}

/* Look at DST, reached as AT, where entry E is to be copied, as cp
   does: *D is what is there, *LST what lstat said.  AS_FILE: the copy
   writes data, so a symlink DST is followed.  Return the verdict.  */
static enum verdict
examine_dst (struct walk const *w, FTSENT const *e, char const *dst,
             char const *at, bool as_file, struct dst_state *d,
             struct stat *lst)
{
  struct copy_options const *x = w->x;
  int dirfd = (e->fts_level == FTS_ROOTLEVEL ? -1
               : held_dir (e->fts_parent));
  *d = (struct dst_state) { .exists = true, .path = at,
                            .dirfd = dirfd < 0 ? AT_FDCWD : dirfd,
                            .entry = dirfd < 0 ? at : e->fts_name };
  /* In a directory this walk has just made there is nothing to look
     at, as cp knows: spare each small file the fstatat.  */
  if (as_file && dirfd >= 0 && (e->fts_parent->fts_number & DIR_NEW))
    {
      d->exists = false;
      d->absent = true;
      return DO_COPY;
    }
  if (fstatat (d->dirfd, d->entry, lst, AT_SYMLINK_NOFOLLOW) != 0)
    {
      d->exists = false;
      d->absent = true;
    }
  else if (!as_file || !S_ISLNK (lst->st_mode) || replaces_dst (x))
    {
      /* --remove-destination and -b replace a symlink DEST itself, as
         cp removes it or moves it aside, and a device or FIFO too,
         rather than write into it; -l and -s make a link in its place.  */
      d->st = *lst;
      d->replace = replaces_dst (x);
    }
  else
    {
      d->is_link = true;
      if (fstatat (d->dirfd, d->entry, &d->st, 0) != 0)
        {
          d->exists = false;
          /* -f: cp removes a DEST it cannot open, a symlink loop too;
             here the new file replaces the link itself.  */
          if (errno == ELOOP && x->force)
            {
              d->is_link = false;
              errno = ENOENT;
            }
        }
    }
  if (!d->exists && errno != ENOENT)
    {
      error (0, errno, "cannot stat %s", quoteaf (dst));
      return DO_FAIL;
    }
  if (!d->exists && dst[0] && dst[strlen (dst) - 1] == '/')
    {
      /* "new/" names a directory that is not there: cp's open fails.  */
      error (0, ENOTDIR, "cannot create regular file %s", quoteaf (dst));
      return DO_FAIL;
    }
  enum verdict v = DO_COPY;
  if (d->exists)
    v = judge_existing (x, e->fts_path, e->fts_statp, dst, at, &d->st,
                        e->fts_level == FTS_ROOTLEVEL);
  /* A symlink this run made leads wherever its source said: writing
     through it could replace any file (coreutils' tests/cp/abuse.sh).
     cp refuses for operands; here no file of a tree does it either.  */
  if ((v == DO_COPY || v == DO_REPLACE_AS_NEW) && d->is_link
      && created_here (lst))
    {
      error (0, 0, "will not copy %s through just-created symlink %s",
             quoteaf_n (0, e->fts_path), quoteaf_n (1, dst));
      return DO_FAIL;
    }
  return v;
}

/* -b: name in *D the backup that DST, as *D says, is to become.
   Return false after reporting why it cannot be named.  */
static bool
name_backup (struct copy_options const *x, struct dst_state *d,
             char const *dst)
{
  if (x->backup == no_backups)
    return true;
  d->backup_type = x->backup;
  d->backup = backup_name (d->dirfd, d->entry, x->backup);
  if (!d->backup)
    error (0, errno, "cannot backup %s", quoteaf (dst));
  return d->backup != NULL;
}

/* Whether DST, as *D says, is named in the working directory, where a
   symlink to a relative name leads where that name does.  */
static bool
in_working_dir (struct dst_state const *d)
{
  char *parent = dir_name (d->entry);
  struct stat dot, st;
  bool in = ((d->dirfd == AT_FDCWD && strcmp (parent, ".") == 0)
             || stat (".", &dot) != 0
             || fstatat (d->dirfd, parent, &st, 0) != 0
             || SAME_INODE (dot, st));
  free (parent);
  return in;
}

/* -l or -s: make DST, as *D says, a hard link to entry E or a symlink
   to its name, as cp does: an existing DST is replaced only with -f
   (and -i, for -l) or once backed up.  */
static bool
link_entry (struct copy_options const *x, FTSENT const *e, char const *dst,
            struct dst_state const *d)
{
  char const *src = e->fts_path;
  bool operand = e->fts_level == FTS_ROOTLEVEL;
  if (x->symbolic_link && src[0] != '/' && !in_working_dir (d))
    {
      error (0, 0, "%s: can make relative symbolic links only in current "
             "directory",
             quotearg_n_style_colon (0, shell_escape_quoting_style, dst));
      return false;
    }
  if (d->exists && !d->backup && !x->force
      && !(x->hard_link && x->overwrite == OVERWRITE_ASK))
    {
      error (0, EEXIST, (x->hard_link ? "cannot create hard link %s to %s"
                         : "cannot create symbolic link %s to %s"),
             quoteaf_n (0, dst), quoteaf_n (1, src));
      return false;
    }
  struct node_spec n = { e->fts_statp, NULL, NULL, false, false };
  if (x->hard_link)
    {
      n.link_to = src;
      n.follow = (x->deref == DEREF_ALWAYS
                  || (x->deref == DEREF_COMMAND_LINE && operand));
    }
  else
    {
      n.link_target = src;
      n.to_source = true;
    }
  if (!make_replacing (x, src, dst, d, &n))
    return false;
  summary_made (x->hard_link ? SUM_HARD_LINK : SUM_SYMLINK);
  record_made (d->path, operand);
  return true;
}

/* Whether a worker copies entry E, to a DST that is as *D says: a
   regular file below an operand, with -j, that nothing later in the
   walk depends on (a hard link's first name, a file written through a
   symlink, which record_made must see).  */
static bool
by_worker (struct copy_options const *x, FTSENT const *e,
           struct dst_state const *d, bool hard_links)
{
  return (x->jobs > 1 && S_ISREG (e->fts_statp->st_mode)
          && e->fts_level > FTS_ROOTLEVEL && !d->is_link && !hard_links
          && dir_hold (e->fts_parent));
}

/* Copy entry E, which is not a directory, to DST, reached as AT.  */
static bool
copy_entry (struct walk *w, FTSENT *e, char const *dst, char const *at)
{
  struct copy_options const *x = w->x;
  struct stat const *st = e->fts_statp;
  char const *src = e->fts_path;
  bool operand = e->fts_level == FTS_ROOTLEVEL;
  /* Without -r, cp copies the data of a FIFO or device, but a symlink
     it does not follow (-P, -d) stays a symlink.  */
  bool as_file = (S_ISREG (st->st_mode)
                  || ((!x->recursive || x->copy_contents)
                      && !S_ISLNK (st->st_mode)));
  /* Names that lead to one file are hard links, or symlinks followed,
     which may lead to it again even when it has a single link.  */
  bool hard_links = (x->preserve.links && !S_ISDIR (st->st_mode)
                     && (st->st_nlink > 1 || x->deref == DEREF_ALWAYS
                         || (x->deref == DEREF_COMMAND_LINE && operand)));
  struct node_spec n = { st, NULL, NULL, false, false };

  /* A regular copy writes through a symlink DST, as cp does; a symlink
     or node takes the place of whatever DST is.  */
  struct dst_state d;
  struct stat lst;
  enum verdict v = examine_dst (w, e, dst, at, as_file, &d, &lst);
  if (v == DO_SKIP_NOT_NEWER && hard_links)
    {
      /* cp -u still links what it skips to the copy of an earlier name
         of the same file, and remembers the first.  */
      n.link_to = earlier_copy (st);
      if (!n.link_to)
        remember_copy (st, dst);
      else if (!make_replacing (x, src, dst, &d, &n))
        return false;
      return true;
    }
  if (v == DO_SKIP || v == DO_SKIP_NOT_NEWER)
    return true;
  if (v == DO_FAIL)
    return false;
  d.as_new = v == DO_REPLACE_AS_NEW;
  if (d.as_new && !name_backup (x, &d, dst))
    return false;

  if (x->hard_link || x->symbolic_link)
    {
      say_copied (x, src, dst, d.backup);
      bool ok = link_entry (x, e, dst, &d);
      free (d.backup);
      return ok;
    }
  n.link_to = hard_links ? earlier_copy (st) : NULL;
  say_copied (x, src, dst, d.backup);

  bool ok;
  if (n.link_to)
    {
      ok = make_replacing (x, src, dst, &d, &n);
      if (ok)
        summary_made (SUM_HARD_LINK);
      if (ok && operand)
        record_made (at, operand);
      free (d.backup);
      return ok;
    }
  if (as_file && by_worker (x, e, &d, hard_links))
    {
      workers_copy (src, st, dst, at, e->fts_name, dir_hold (e->fts_parent),
                    &d, x);
      free (d.backup);
      return true;
    }
  if (as_file)
    ok = copy_file (src, st, dst, &d, x);
  else
    ok = copy_node (x, src, dst, &d, &n);
  free (d.backup);
  /* A regular file copied below an operand, not through a symlink, is
     nothing record_made keeps: spare each small file the lstat.  */
  if (ok && (operand || !as_file || d.is_link))
    record_made (at, operand);
  if (ok && hard_links)
    remember_copy (st, dst);
  return ok;
}

/* Whether directory entry E, to be copied to DST, was not copied before
   as an operand, as cp checks: a directory is not copied twice, once as
   an operand and once inside another.  An operand is remembered.  With
   -L, cp 9.1 copies it twice, and so does sparsecp.  */
static bool
first_copy_of_dir (struct copy_options const *x, FTSENT const *e,
                   char const *dst)
{
  if (x->deref == DEREF_ALWAYS)
    return true;
  if (e->fts_level == FTS_ROOTLEVEL)
    {
      remember_copy (e->fts_statp, dst);
      return true;
    }
  char const *earlier = earlier_copy (e->fts_statp);
  if (earlier)
    error (0, 0, "will not create hard link %s to directory %s",
           quoteaf_n (0, dst), quoteaf_n (1, earlier));
  return !earlier;
}

/* Directory entry E, in preorder: make its copy DST, reached as AT, or
   say why not and skip what it holds.  */
static bool
enter_directory (struct walk *w, FTS *fts, FTSENT *e, char const *dst,
                 char const *at)
{
  bool ok;
  if (!w->x->recursive)
    {
      error (0, 0, "-r not specified; omitting directory %s",
             quoteaf (e->fts_path));
      ok = false;
    }
  else if (e->fts_level == FTS_ROOTLEVEL
           && !check_not_into_itself (e->fts_path, e->fts_statp, dst))
    ok = false;
  else if (!first_copy_of_dir (w->x, e, dst))
    ok = false;
  else
    ok = make_directory (w, e, dst, at);
  if (!ok)
    {
      release_dir (e);
      e->fts_number = 0;
      fts_set (fts, e, FTS_SKIP);
    }
  else if (w->x->one_file_system && e->fts_level > FTS_ROOTLEVEL
           && e->fts_statp->st_dev != e->fts_parent->fts_statp->st_dev)
    /* -x, as cp: a mount point is copied as a directory, empty, with
       its attributes; its postorder visit finishes it.  An operand is
       filled wherever it is.  */
    fts_set (fts, e, FTS_SKIP);
  return ok;
}

/* Handle one entry of the walk.  */
static void
visit (struct walk *w, FTS *fts, FTSENT *e)
{
  if (e->fts_level == FTS_ROOTLEVEL)
    w->root_len = e->fts_pathlen - (e->fts_pathlen > 0
                                    && e->fts_path[e->fts_pathlen - 1] == '/');
  char *dst = copy_name (w, e);
  /* Below the operand, every name is reached through the directory that
     holds it.  */
  char *at = (e->fts_level == FTS_ROOTLEVEL ? xstrdup (dst)
              : dst_dir_name (held_dir (e->fts_parent), e->fts_name, dst));
  bool ok = true;

  switch (e->fts_info)
    {
    case FTS_D:
      ok = enter_directory (w, fts, e, dst, at);
      break;

    case FTS_DP:
      ok = finish_directory (w, e, dst);
      break;

    case FTS_DNR:
    case FTS_ERR:
      error (0, e->fts_errno, "cannot access %s", quoteaf (e->fts_path));
      ok = false;
      if (S_ISDIR (e->fts_statp->st_mode))
        finish_directory (w, e, dst);
      break;

    case FTS_DC:
      error (0, 0, "cannot copy cyclic symbolic link %s",
             quoteaf (e->fts_path));
      ok = false;
      break;

    case FTS_NS:
      error (0, e->fts_errno, "cannot stat %s", quoteaf (e->fts_path));
      ok = false;
      break;

    case FTS_SLNONE:
      /* A symlink we were to follow that leads nowhere.  */
      error (0, e->fts_errno ? e->fts_errno : ENOENT, "cannot stat %s",
             quoteaf (e->fts_path));
      ok = false;
      break;

    case FTS_F:
    case FTS_SL:
    case FTS_DEFAULT:
      ok = copy_entry (w, e, dst, at);
      break;

    default:
      break;
    }

  if (!ok)
    {
      w->ok = false;
      summary_failure ();
    }
  free (at);
  free (dst);
}

bool
copy_operand (char const *src, char const *dst, struct copy_options const *x)
{
  int flags = FTS_NOCHDIR;
  switch (x->deref)
    {
    case DEREF_NEVER:
      flags |= FTS_PHYSICAL;
      break;
    case DEREF_COMMAND_LINE:
      flags |= FTS_PHYSICAL | FTS_COMFOLLOW;
      break;
    default:
      flags |= FTS_LOGICAL;
      break;
    }

  char *roots[] = { (char *) src, NULL };
  FTS *fts = fts_open (roots, flags, NULL);
  if (!fts)
    {
      error (0, errno, "cannot open %s", quoteaf (src));
      summary_failure ();
      return false;
    }

  struct walk w = { x, dst, 0, true };
  FTSENT *e;
  while ((e = fts_read (fts)) != NULL)
    visit (&w, fts, e);
  int walk_errno = errno;
  if (!workers_finish ())
    w.ok = false;
  if (walk_errno != 0)
    {
      error (0, walk_errno, "cannot walk %s", quoteaf (src));
      w.ok = false;
    }
  if (fts_close (fts) != 0)
    {
      error (0, errno, "cannot walk %s", quoteaf (src));
      w.ok = false;
    }
  return w.ok;
}
