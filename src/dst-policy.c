/* What a copy does with a destination that exists (see dst-policy.h).  */

#include "dst-policy.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backup.h"
#include "created.h"
#include "progress.h"
#include "dirname.h"
#include "error.h"
#include "filemode.h"
#include "progname.h"
#include "quotearg.h"
#include "same-inode.h"
#include "utimecmp.h"
#include "yesno.h"

/* Whether the names A and B are one entry of one directory.  */
static bool
same_name (char const *a, char const *b)
{
  if (strcmp (last_component (a), last_component (b)) != 0)
    return false;
  char *da = dir_name (a), *db = dir_name (b);
  struct stat sa, sb;
  bool same = (stat (da, &sa) == 0 && stat (db, &sb) == 0
               && SAME_INODE (sa, sb));
  free (da);
  free (db);
  return same;
}

/* same_file_ok, once the status of SRC and DST themselves, symlinks not
   followed, is known: *SRC_L and *DST_L.  */
static bool
links_ok (struct copy_options const *x, char const *src, char const *dst,
          struct stat const *src_l, struct stat const *dst_l,
          bool *nothing_to_do)
{
  struct stat src_tmp, dst_tmp;

  /* A backup keeps DEST's data, so only one entry under two names is
     refused; and a symlink followed to a file whose backup would leave
     it dangling.  */
  if (x->backup != no_backups)
    {
      if (!SAME_INODE (*src_l, *dst_l))
        return !(x->deref != DEREF_NEVER && S_ISLNK (src_l->st_mode)
                 && !S_ISLNK (dst_l->st_mode));
      return !same_name (src, dst);
    }

  /* --remove-destination: cp removes DEST before it opens it, so a
     symlink DEST, or another hard link to the source, goes and the
     source's data stays.  */
  if (x->remove_destination
      && (S_ISLNK (dst_l->st_mode)
          || (SAME_INODE (*src_l, *dst_l) && 1 < dst_l->st_nlink
              && !same_name (src, dst))))
    return true;

  if (!S_ISLNK (src_l->st_mode) && !S_ISLNK (dst_l->st_mode))
    {
      if (!SAME_INODE (*src_l, *dst_l))
        return true;
      if (x->hard_link)
        {
          *nothing_to_do = true;
          return true;
        }
    }

  /* -s replaces a symlink DEST, whatever it names.  */
  if (x->symbolic_link && S_ISLNK (dst_l->st_mode))
    return true;

  if (x->deref == DEREF_NEVER)
    {
      /* A symlink copied onto the file it names, or the other way.  */
      if (S_ISLNK (src_l->st_mode) ? stat (src, &src_tmp) != 0
          : (src_tmp = *src_l, false))
        return true;
      if (S_ISLNK (dst_l->st_mode) ? stat (dst, &dst_tmp) != 0
          : (dst_tmp = *dst_l, false))
        return true;
      if (!SAME_INODE (src_tmp, dst_tmp))
        return true;
      /* -l of a symlink onto the file it names, or the other way: the
         link replaces a symlink DEST, and is there already otherwise.  */
      if (x->hard_link)
        {
          *nothing_to_do = !S_ISLNK (dst_l->st_mode);
          return true;
        }
    }
  return false;
}

/* Whether copying SRC, status *ST, onto DST, status *DST_ST (each
   followed or not as the copy would), leaves SRC's data alone; sets
   *NOTHING_TO_DO when DST already is what the copy would make.  The
   rules are cp's for the options sparsecp takes: two names of one file,
   or a symlink and the file it names, are refused, since replacing one
   destroys the other; two symlinks are fine unless they are one entry.  */
static bool
same_file_ok (struct copy_options const *x, char const *src,
              struct stat const *st, char const *dst,
              struct stat const *dst_st, bool *nothing_to_do)
{
  struct stat const *src_l = st, *dst_l = dst_st;
  struct stat src_tmp, dst_tmp;
  bool same = SAME_INODE (*st, *dst_st);

  *nothing_to_do = false;
  /* -l onto a link of the source: already done.  */
  if (same && x->hard_link)
    {
      *nothing_to_do = true;
      return true;
    }
  if (x->deref == DEREF_NEVER)
    {
      if (S_ISLNK (st->st_mode) && S_ISLNK (dst_st->st_mode))
        {
          if (same_name (src, dst))
            return false;
          /* Hard links to one symlink: copying is a no-op, but for the
             backup.  */
          *nothing_to_do = same && x->backup == no_backups;
          return true;
        }
    }
  else
    {
      if (!same)
        return true;
      if (lstat (dst, &dst_tmp) != 0 || lstat (src, &src_tmp) != 0)
        return true;
      src_l = &src_tmp;
      dst_l = &dst_tmp;
    }
  return links_ok (x, src, dst, src_l, dst_l, nothing_to_do);
}

/* -i: ask whether to replace DST, *DST_ST, reached as AT, in cp's
   words.  */
static bool
overwrite_ok (struct copy_options const *x, char const *dst,
              char const *at, struct stat const *dst_st)
{
  progress_clear ();
  if (S_ISLNK (dst_st->st_mode) || geteuid () == 0
      || faccessat (AT_FDCWD, at, W_OK, AT_EACCESS) == 0)
    fprintf (stderr, "%s: overwrite %s? ", program_name, quoteaf (dst));
  else
    {
      char perms[12];     /* "-rwxrwxrwx " */
      strmode (dst_st->st_mode, perms);
      perms[10] = '\0';
      fprintf (stderr, (x->force
                        ? "%s: replace %s, overriding mode %04lo (%s)? "
                        : "%s: unwritable %s (mode %04lo, %s); try anyway? "),
               program_name, quoteaf (dst),
               (unsigned long) (dst_st->st_mode & 07777), perms + 1);
    }
  return yesno ();
}

enum verdict
judge_existing (struct copy_options const *x, char const *src,
                struct stat const *st, char const *dst, char const *at,
                struct stat const *dst_st, bool operand)
{
  bool nothing_to_do = false;
  if (x->overwrite != OVERWRITE_NO
      && !same_file_ok (x, src, st, at, dst_st, &nothing_to_do))
    {
      error (0, 0, "%s and %s are the same file", quoteaf_n (0, src),
             quoteaf_n (1, dst));
      return DO_FAIL;
    }
  if (nothing_to_do)
    return DO_SKIP;
  if (x->update && utimecmp (at, dst_st, st, UTIMECMP_TRUNCATE_SOURCE) >= 0)
    return DO_SKIP_NOT_NEWER;
  if (x->overwrite == OVERWRITE_NO
      || (x->overwrite == OVERWRITE_ASK && !overwrite_ok (x, dst, at, dst_st)))
    return DO_SKIP;
  if (S_ISDIR (dst_st->st_mode))
    {
      error (0, 0, "cannot overwrite directory %s with non-directory",
             quoteaf (dst));
      return DO_FAIL;
    }
  /* rm -rf a b c; mkdir a b c; touch a/f b/f; cp a/f b/f c: the second
     copy would leave nothing of the first.  */
  if (operand && x->backup != numbered_backups && created_here (dst_st))
    {
      error (0, 0, "will not overwrite just-created %s with %s",
             quoteaf_n (0, dst), quoteaf_n (1, src));
      return DO_FAIL;
    }
  /* --remove-destination: cp removes DEST and makes a new file, which
     gets a new file's attributes; here it is renamed over DEST once
     complete.  */
  if (x->remove_destination)
    return DO_REPLACE_AS_NEW;
  /* A backup of SRC's own backup would be SRC itself.  */
  if (x->backup != no_backups && x->backup != numbered_backups
      && backup_is_source (src, st, at))
    {
      error (0, 0, "backing up %s might destroy source;  %s not copied",
             quoteaf_n (0, dst), quoteaf_n (1, src));
      return DO_FAIL;
    }
  /* -b: cp moves DEST aside and makes a new file; here the backup is
     made when the new file is renamed over DEST.  */
  if (x->backup != no_backups)
    return DO_REPLACE_AS_NEW;
  /* cp cannot open a file it may not write, and says so unless -f lets
     it remove the file first.  A rename would not notice: ask.  */
  if (S_ISREG (dst_st->st_mode)
      && faccessat (AT_FDCWD, at, W_OK, AT_EACCESS) != 0
      && errno == EACCES)
    {
      if (x->force)
        return DO_REPLACE_AS_NEW;
      error (0, EACCES, "cannot create regular file %s", quoteaf (dst));
      return DO_FAIL;
    }
  return DO_COPY;
}
