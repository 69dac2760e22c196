/* sparsecp -- copy files, keeping holes, never losing data.  */

#include "system.h"

#include <getopt.h>
#include <locale.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "argmatch.h"
#include "backup.h"
#include "closeout.h"
#include "context.h"
#include "copy-tree.h"
#include "dirname.h"
#include "error.h"
#include "filenamecat.h"
#include "progname.h"
#include "parents.h"
#include "progress.h"
#include "quotearg.h"
#include "replace.h"
#include "summary.h"
#include "workers.h"
#include "version-etc.h"
#include "xalloc.h"

#define AUTHORS "the sparsecp developers"

/* version_etc () prints this with "(C)" and its own idea of the year,
   which the format leaves out.  */
char const version_etc_copyright[] =
  "Copyright %s 2026 the sparsecp developers.";

enum
{
  ATTRIBUTES_ONLY_OPTION = CHAR_MAX + 1,
  COPY_CONTENTS_OPTION,
  DEBUG_OPTION,
  NO_PRESERVE_OPTION,
  PRESERVE_OPTION,
  PROGRESS_OPTION,
  REFLINK_OPTION,
  PARENTS_OPTION,
  REMOVE_DESTINATION_OPTION,
  SCAN_OPTION,
  SPARSE_OPTION,
  STATS_OPTION,
  STRIP_TRAILING_SLASHES_OPTION,
  VERIFY_OPTION
};

static struct option const long_options[] =
{
  {"archive", no_argument, NULL, 'a'},
  {"debug", no_argument, NULL, DEBUG_OPTION},
  {"dereference", no_argument, NULL, 'L'},
  {"force", no_argument, NULL, 'f'},
  {"interactive", no_argument, NULL, 'i'},
  {"jobs", required_argument, NULL, 'j'},
  {"no-clobber", no_argument, NULL, 'n'},
  {"no-dereference", no_argument, NULL, 'P'},
  {"no-preserve", required_argument, NULL, NO_PRESERVE_OPTION},
  {"no-target-directory", no_argument, NULL, 'T'},
  {"preserve", optional_argument, NULL, PRESERVE_OPTION},
  {"progress", optional_argument, NULL, PROGRESS_OPTION},
  {"recursive", no_argument, NULL, 'R'},
  {"reflink", optional_argument, NULL, REFLINK_OPTION},
  {"scan", required_argument, NULL, SCAN_OPTION},
  {"sparse", required_argument, NULL, SPARSE_OPTION},
  {"stats", required_argument, NULL, STATS_OPTION},
  {"target-directory", required_argument, NULL, 't'},
  {"update", no_argument, NULL, 'u'},
  {"verbose", no_argument, NULL, 'v'},
  {"verify", no_argument, NULL, VERIFY_OPTION},
  {"help", no_argument, NULL, 'h'},
  {"version", no_argument, NULL, 'V'},
  {"attributes-only", no_argument, NULL, ATTRIBUTES_ONLY_OPTION},
  {"backup", optional_argument, NULL, 'b'},
  {"context", optional_argument, NULL, 'Z'},
  {"copy-contents", no_argument, NULL, COPY_CONTENTS_OPTION},
  {"link", no_argument, NULL, 'l'},
  {"one-file-system", no_argument, NULL, 'x'},
  {"parents", no_argument, NULL, PARENTS_OPTION},
  {"remove-destination", no_argument, NULL, REMOVE_DESTINATION_OPTION},
  {"strip-trailing-slashes", no_argument, NULL,
   STRIP_TRAILING_SLASHES_OPTION},
  {"suffix", required_argument, NULL, 'S'},
  {"symbolic-link", no_argument, NULL, 's'},
  {NULL, 0, NULL, 0}
};

static char const *const sparse_args[] = { "auto", "always", "never", NULL };
static enum sparse_mode const sparse_vals[] =
  { SPARSE_AUTO, SPARSE_ALWAYS, SPARSE_NEVER };
ARGMATCH_VERIFY (sparse_args, sparse_vals);

static char const *const scan_args[] =
  { "auto", "fiemap", "seek", "read", NULL };
static enum scan_method const scan_vals[] =
  { SCAN_AUTO, SCAN_FIEMAP, SCAN_SEEK, SCAN_READ };
ARGMATCH_VERIFY (scan_args, scan_vals);

static char const *const reflink_args[] =
  { "auto", "always", "never", NULL };
static enum reflink_mode const reflink_vals[] =
  { REFLINK_AUTO, REFLINK_ALWAYS, REFLINK_NEVER };
ARGMATCH_VERIFY (reflink_args, reflink_vals);

/* In cp's order, which its "Valid arguments" list shows.  */
enum attribute
{
  ATTR_MODE, ATTR_TIMESTAMPS, ATTR_OWNERSHIP, ATTR_LINKS, ATTR_CONTEXT,
  ATTR_XATTR, ATTR_ALL
};
static char const *const attribute_args[] =
  { "mode", "timestamps", "ownership", "links", "context", "xattr", "all",
    NULL };
static enum attribute const attribute_vals[] =
  { ATTR_MODE, ATTR_TIMESTAMPS, ATTR_OWNERSHIP, ATTR_LINKS, ATTR_CONTEXT,
    ATTR_XATTR, ATTR_ALL };
ARGMATCH_VERIFY (attribute_args, attribute_vals);

static char const *const progress_args[] =
  { "auto", "always", "never", NULL };
static enum progress_when const progress_vals[] =
  { PROGRESS_AUTO, PROGRESS_ALWAYS, PROGRESS_NEVER };
ARGMATCH_VERIFY (progress_args, progress_vals);

static char const *const stats_args[] = { "json", NULL };
static int const stats_vals[] = { 1 };
ARGMATCH_VERIFY (stats_args, stats_vals);

/* Not static: argmatch calls it for an invalid keyword (ARGMATCH_DIE).  */
_Noreturn void
usage (int status)
{
  if (status != EXIT_SUCCESS)
    {
      fprintf (stderr, "Try '%s --help' for more information.\n",
               program_name);
      exit (status);
    }
  printf ("\
Usage: %s [OPTION]... [-T] SOURCE DEST\n\
  or:  %s [OPTION]... SOURCE... DIRECTORY\n\
  or:  %s [OPTION]... -t DIRECTORY SOURCE...\n\
", program_name, program_name, program_name);
  fputs ("\
Copy SOURCE to DEST, or SOURCEs into DIRECTORY, as cp does, keeping\n\
holes without ever turning data into zeros.\n\
\n\
Mandatory arguments to long options are mandatory for short options too.\n\
  -a, --archive                same as -dR --preserve=all\n\
      --attributes-only        don't copy the file data, just the attributes\n\
      --backup[=CONTROL]       make a backup of each existing destination file\n\
  -b                           like --backup but does not accept an argument\n\
      --copy-contents          copy contents of special files when recursive\n\
  -d                           same as --no-dereference --preserve=links\n\
  -f, --force                  replace an existing destination file that\n\
                                 cannot be written to\n\
  -i, --interactive            prompt before overwrite (overrides a previous\n\
                                 -n option)\n\
  -H                           follow command-line symbolic links in SOURCE\n\
  -l, --link                   hard link files instead of copying\n\
  -L, --dereference            always follow symbolic links in SOURCE\n\
  -n, --no-clobber             do not overwrite an existing file (overrides\n\
                                 a previous -i option)\n\
  -P, --no-dereference         never follow symbolic links in SOURCE\n\
      --parents                use full source file name under DIRECTORY\n\
  -p                           same as --preserve=mode,ownership,timestamps\n\
      --preserve[=ATTR_LIST]   preserve the specified attributes (default:\n\
                                 mode,ownership,timestamps); also links,\n\
                                 context, xattr, all\n\
      --no-preserve=ATTR_LIST  don't preserve the specified attributes\n\
  -R, -r, --recursive          copy directories recursively\n\
  -s, --symbolic-link          make symbolic links instead of copying\n\
  -S, --suffix=SUFFIX          override the usual backup suffix\n\
      --remove-destination     replace each existing destination file by a\n\
                                 new one, as if removed first (see below)\n\
      --reflink[=WHEN]         control clone/CoW copies: auto (the default)\n\
                                 clones when --scan and --sparse are auto;\n\
                                 always (no WHEN) clones or fails; never\n\
                                 also avoids copy_file_range\n\
      --sparse=WHEN            control creation of sparse files: auto (the\n\
                                 default) keeps the source's holes; always\n\
                                 also turns blocks of zeros into holes;\n\
                                 never writes every byte\n\
      --strip-trailing-slashes  remove any trailing slashes from each SOURCE\n\
                                 argument\n\
  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY\n\
  -T, --no-target-directory    treat DEST as a normal file\n\
  -u, --update                 copy only when the SOURCE file is newer\n\
                                 than the destination file or when the\n\
                                 destination file is missing\n\
  -v, --verbose                explain what is being done\n\
  -x, --one-file-system        stay on this file system\n\
  -Z                           set the SELinux security context of each new\n\
                                 file to the policy's default type\n\
      --context[=CTX]          like -Z, or if CTX is given, set it to CTX;\n\
                                 both ignored where the kernel has no SELinux\n\
", stdout);
  fputs ("\
\n\
sparsecp's own options:\n\
      --debug          say, for each file, how its data was found, how many\n\
                         extents and bytes of data and holes it has, and why\n\
                         a way of finding the data was not used; at the end,\n\
                         a summary of the whole run\n\
      --progress[=WHEN]  show a progress bar on stderr: data copied of the\n\
                         data to copy, holes skipped, rate, time left;\n\
                         WHEN is auto (the default: only on a terminal),\n\
                         always (a line per file when not a terminal) or\n\
                         never\n\
      --scan=METHOD    how to find the data: auto (the default) tries fiemap,\n\
                         then seek, then read; fiemap, seek or read use only\n\
                         that method, and read whatever it cannot map\n\
      --stats=json     at the end, print what was done as one JSON object\n\
                         on standard output: files, directories, symlinks,\n\
                         specials, hard_links, data_bytes, hole_bytes,\n\
                         methods (fiemap, seek, read, stream, reflink),\n\
                         failures, seconds\n\
      --verify         after copying a regular file, write it out, drop it\n\
                         from the page cache, read it back and compare it\n\
                         with the source, holes included; copy again on a\n\
                         difference, and fail if it persists\n\
  -j, --jobs=N         copy up to N files of a directory tree at once, on\n\
                         as many threads (default: one for each CPU, up to\n\
                         8); what is printed and the order of -v lines are\n\
                         as with -j 1; -i and --progress copy one at a time\n\
      --help           display this help and exit\n\
      --version        output version information and exit\n\
\n\
The backup suffix is '~', unless set with --suffix or SIMPLE_BACKUP_SUFFIX.\n\
The version control method may be selected via the --backup option or through\n\
the VERSION_CONTROL environment variable.  Here are the values:\n\
\n\
  none, off       never make backups (even if --backup is given)\n\
  numbered, t     make numbered backups\n\
  existing, nil   numbered if numbered backups exist, simple otherwise\n\
  simple, never   always make simple backups\n\
\n\
As a special case, with --force and --backup, a SOURCE that is DEST, an\n\
existing regular file, is copied to its backup's name.  A backup is made\n\
when the new DEST is complete: the old DEST is given a second name, the new\n\
one renamed over it, and the second name then becomes the backup's, so a\n\
failed copy leaves DEST, and no backup, where they were.\n\
", stdout);
  fputs ("\
\n\
Methods: fiemap asks the filesystem for its extents after flushing delayed\n\
allocation (FIEMAP_FLAG_SYNC); seek uses lseek SEEK_DATA and SEEK_HOLE;\n\
read reads every byte.  A map that contradicts the file (overlapping or\n\
unsorted extents, extents missing at the end, fewer bytes mapped than the\n\
file has allocated) is not trusted, and the next method is used.\n\
Unwritten (preallocated) extents are read, never assumed to be zeros.\n\
The holes of a fiemap map are checked with SEEK_DATA where it works,\n\
but for holes of 8 KiB or less between extents, which are read instead:\n\
what is not zero there is copied.\n\
Lies that leave the map consistent (a small data extent reported as a\n\
hole by both methods) are caught only by --verify.\n\
\n\
Each regular file, symlink, special file and hard link is made under a\n\
temporary name in its directory and renamed over DEST only when complete,\n\
so a failed copy leaves an existing DEST untouched; a DEST with other hard\n\
links is replaced by a new file.  A regular file is made without a name\n\
(O_TMPFILE) and named only when complete, so even a copy killed with\n\
SIGKILL leaves nothing there.  A regular copy onto a DEST that is a symlink\n\
goes, as with cp, to the file the symlink points to: the temporary file is\n\
made in that file's directory and renamed over that file, never over the\n\
symlink, which is kept.  A dangling DEST symlink is refused (followed with\n\
POSIXLY_CORRECT), and a symlink this run made is never written through.\n\
A DEST that is a device or a FIFO cannot be replaced by rename: it is\n\
written in place, so a failed copy leaves it partly written, and --verify\n\
does not apply to it.  With --remove-destination, where cp removes DEST\n\
before it copies, the new file is renamed over DEST once complete instead:\n\
DEST, be it a symlink, a device or a FIFO, is replaced and never written\n\
into or through, the new file gets a new file's attributes, and a failed\n\
copy leaves DEST as it was.  A source that changes while it is copied is\n\
copied again, up to 3 times in all.\n\
\n\
Examples:\n\
  sparsecp vm.img /backup/vm.img        copy a disk image, keeping its holes\n\
  sparsecp --sparse=always raw.img out.img\n\
                                        also turn zero blocks into holes\n\
  sparsecp -a --verify images/ /backup/ copy a tree of images with their\n\
                                        attributes, and read each copy back\n\
  sparsecp --reflink=always a.img b.img share the extents (btrfs, xfs)\n\
  sparsecp --stats=json a.img b.img | jq .data_bytes\n\
  sparsecp --progress big.img /mnt/usb/ watch a long copy\n\
\n\
Exit status is 0 if every DEST is an exact copy of its SOURCE, 1 otherwise.\n\
", stdout);
  emit_bug_reporting_address ();
  exit (status);
}

/* Turn the attributes named in the comma-separated LIST on or off.  */
static void
decode_attributes (char const *option, char const *list, bool on,
                   struct copy_options *x)
{
  char *copy = xstrdup (list);
  for (char *name = strtok (copy, ","); name; name = strtok (NULL, ","))
    {
      enum attribute a = XARGMATCH (option, name, attribute_args,
                                    attribute_vals);
      struct preserve_set *p = &x->preserve;
      switch (a)
        {
        case ATTR_MODE:
          p->mode = on;
          x->default_modes = !on;
          break;
        case ATTR_OWNERSHIP: p->ownership = on; break;
        case ATTR_TIMESTAMPS: p->timestamps = on; break;
        case ATTR_LINKS: p->links = on; break;
        case ATTR_XATTR:
          p->xattr = on;
          x->require_xattr = on;
          break;
        case ATTR_CONTEXT:
          p->context = on;
          x->require_context = on;
          break;
        case ATTR_ALL:
          /* Contexts as well where the kernel has them, as cp.  */
          *p = (struct preserve_set) { on, on, on, on, on,
                                       on && context_enabled () };
          x->require_xattr = false;
          x->default_modes = !on;
          break;
        }
    }
  free (copy);
}

/* The identity of an operand, to see one named twice: the file, and
   the name it has in its directory, as cp tells them apart (hard links
   to one file are different operands).  */
struct operand_id
{
  dev_t dev, dir_dev;
  ino_t ino, dir_ino;
  char *base;
};

static int
compare_ids (void const *a, void const *b)
{
  struct operand_id const *p = a, *q = b;
  if (p->dev != q->dev)
    return p->dev < q->dev ? -1 : 1;
  if (p->ino != q->ino)
    return p->ino < q->ino ? -1 : 1;
  if (p->dir_dev != q->dir_dev)
    return p->dir_dev < q->dir_dev ? -1 : 1;
  if (p->dir_ino != q->dir_ino)
    return p->dir_ino < q->dir_ino ? -1 : 1;
  return strcmp (p->base, q->base);
}

/* Whether SRC, copied into a directory, was an earlier operand already;
   if so warn, as cp does, since the second copy would only replace the
   first.  */
static bool
seen_before (char const *src, struct copy_options const *x)
{
  static void *seen;
  struct stat st, dir_st;
  char *dir = dir_name (src);
  int r = stat (dir, &dir_st);
  free (dir);
  if (r != 0
      || (x->deref == DEREF_NEVER ? lstat (src, &st) : stat (src, &st)) != 0)
    return false;   /* copy_operand reports it */
  struct operand_id *id = xmalloc (sizeof *id);
  *id = (struct operand_id) { st.st_dev, dir_st.st_dev, st.st_ino,
                              dir_st.st_ino, base_name (src) };
  strip_trailing_slashes (id->base);
  struct operand_id **slot = tsearch (id, &seen, compare_ids);
  if (!slot)
    xalloc_die ();
  if (*slot == id)
    return false;
  free (id->base);
  free (id);
  /* With backups, the second copy of a file backs up the first.  */
  if (x->backup != no_backups && !S_ISDIR (st.st_mode))
    return false;
  error (0, 0, "warning: source %s %s specified more than once",
         S_ISDIR (st.st_mode) ? "directory" : "file", quoteaf (src));
  return true;
}

/* The name SRC gets inside a target directory DIR.  */
static char *
name_in_directory (char const *dir, char const *src)
{
  char *base = base_name (src);
  strip_trailing_slashes (base);
  char *dst = file_name_concat (dir, base, NULL);
  free (base);
  return dst;
}

/* Check the N operands FILE against -t TARGET_DIR and -T (NO_TARGET),
   exiting with cp's messages when they are wrong.  Return the directory
   to copy the sources into, or NULL to copy FILE[0] to FILE[1]; set
   *N_SOURCES to the number of sources.  */
static char const *
decide_target (int n, char **file, char const *target_dir, bool no_target,
               int *n_sources)
{
  if (n < 1)
    {
      error (0, 0, "missing file operand");
      usage (EXIT_FAILURE);
    }
  if (n == 1 && !target_dir)
    {
      error (0, 0, "missing destination file operand after %s",
             quoteaf (file[0]));
      usage (EXIT_FAILURE);
    }
  if (no_target && n > 2)
    {
      error (0, 0, "extra operand %s", quoteaf (file[2]));
      usage (EXIT_FAILURE);
    }

  /* Into a directory, or one SOURCE to one DEST.  */
  struct stat st;
  *n_sources = n;
  if (target_dir)
    {
      if (stat (target_dir, &st) != 0)
        error (EXIT_FAILURE, errno, "target directory %s",
               quoteaf (target_dir));
      if (!S_ISDIR (st.st_mode))
        error (EXIT_FAILURE, ENOTDIR, "target directory %s",
               quoteaf (target_dir));
      return target_dir;
    }
  char const *last = file[n - 1];
  bool is_dir = !no_target && stat (last, &st) == 0 && S_ISDIR (st.st_mode);
  if (n > 2 && !is_dir)
    {
      if (stat (last, &st) != 0)
        error (EXIT_FAILURE, errno, "target %s", quoteaf (last));
      error (EXIT_FAILURE, ENOTDIR, "target %s", quoteaf (last));
    }
  *n_sources = n - 1;
  return is_dir ? last : NULL;
}

/* Copy SRC to DST; but with -f and -b, a SRC that is DST, an existing
   regular file, to the name of DST's backup, without a backup, as cp
   does.  */
static bool
copy_pair (char const *src, char const *dst,
                struct copy_options const *x)
{
  struct stat st;
  if (!x->force || x->backup == no_backups || strcmp (src, dst) != 0
      || stat (dst, &st) != 0 || !S_ISREG (st.st_mode))
    return copy_operand (src, dst, x);
  char *backup = backup_name (AT_FDCWD, dst, x->backup);
  if (!backup)
    {
      error (0, errno, "cannot backup %s", quoteaf (dst));
      return false;
    }
  struct copy_options plain = *x;
  plain.backup = no_backups;
  bool ok = copy_operand (src, backup, &plain);
  free (backup);
  return ok;
}

/* --parents: copy SRC to DIR/SRC, making the directories between, as
   cp does.  */
static bool
copy_with_parents (char const *src, char const *dir,
                   struct copy_options const *x)
{
  char *name = xstrdup (src), *in_dst;
  strip_trailing_slashes (name);
  char *dst = file_name_concat (dir, name, &in_dst);
  free (name);
  size_t offset = in_dst - dst;
  struct parent_dir *made;
  bool ok = parents_make (dst, offset, &made, x);
  if (ok)
    {
      ok = copy_operand (src, dst, x);
      ok &= parents_protect (dst, offset, made, x);
    }
  free (dst);
  return ok;
}

/* Copy the N sources FILE[0..N) into TARGET_DIR, or FILE[0] to FILE[1]
   when it is NULL; with STRIP (--strip-trailing-slashes), remove the
   trailing slashes of each source copied into TARGET_DIR, as cp does
   (and only there).  Return whether every copy succeeded.  */
static bool
copy_operands (int n, char **file, char const *target_dir, bool strip,
               bool parents, struct copy_options const *x)
{
  bool ok = true;
  for (int i = 0; i < n; i++)
    {
      if (!target_dir)
        {
          ok &= copy_pair (file[i], file[n], x);
          continue;
        }
      if (strip)
        strip_trailing_slashes (file[i]);
      if (n > 1 && seen_before (file[i], x))
        continue;
      if (parents)
        {
          ok &= copy_with_parents (file[i], target_dir, x);
          continue;
        }
      char *dst = name_in_directory (target_dir, file[i]);
      ok &= copy_operand (file[i], dst, x);
      free (dst);
    }
  return ok;
}

/* What the command line says beside the options of the copy itself.  */
struct command
{
  char const *target_dir;     /* -t */
  bool no_target;             /* -T */
  bool strip;                 /* --strip-trailing-slashes */
  bool parents;               /* --parents */
  bool json;                  /* --stats=json */
  bool deref_set;             /* -H, -L or -P given, or implied */
  bool backups;               /* -b, --backup or -S given */
  char const *version;        /* --backup's CONTROL */
  char const *suffix;         /* -S's */
  bool context_asked;         /* -Z or --context given */
  char const *context;        /* --context's CTX */
  enum progress_when progress;
};

/* -j's N: a number of workers from 1 to JOBS_MAX; a larger one is
   JOBS_MAX, as more threads than that only wait.  */
static unsigned
decode_jobs (char const *arg)
{
  char *end;
  errno = 0;
  unsigned long n = strtoul (arg, &end, 10);
  if (end == arg || *end || arg[0] == '-' || arg[0] == '+' || n == 0)
    error (EXIT_FAILURE, 0, "invalid number of jobs: %s", quote (arg));
  return errno == ERANGE || n > JOBS_MAX ? JOBS_MAX : n;
}

/* Read the options of ARGV into *X and *CMD, exiting as cp does on one
   that is wrong or refused.  */
static void
parse_options (int argc, char **argv, struct copy_options *x,
               struct command *cmd)
{
  int c;
  while ((c = getopt_long (argc, argv, "abdfHij:lLnpPrRsS:t:TuvxZ",
                           long_options, NULL)) != -1)
    switch (c)
      {
      case 'a':
        x->deref = DEREF_NEVER, cmd->deref_set = true;
        x->recursive = true;
        decode_attributes ("--preserve", "all", true, x);
        x->quiet_context = true;
        break;
      case 'b':
        cmd->backups = true;
        if (optarg)
          cmd->version = optarg;
        break;
      case 'd':
        x->deref = DEREF_NEVER, cmd->deref_set = true;
        x->preserve.links = true;
        break;
      case 'f':
        x->force = true;
        break;
      case 'H':
        x->deref = DEREF_COMMAND_LINE, cmd->deref_set = true;
        break;
      case 'i':
        x->overwrite = OVERWRITE_ASK;
        break;
      case 'l':
        x->hard_link = true;
        break;
      case 'L':
        x->deref = DEREF_ALWAYS, cmd->deref_set = true;
        break;
      case 'n':
        x->overwrite = OVERWRITE_NO;
        break;
      case 'P':
        x->deref = DEREF_NEVER, cmd->deref_set = true;
        break;
      case 'p':
        decode_attributes ("--preserve", "mode,ownership,timestamps", true, x);
        break;
      case PRESERVE_OPTION:
        decode_attributes ("--preserve",
                           optarg ? optarg : "mode,ownership,timestamps",
                           true, x);
        break;
      case PROGRESS_OPTION:
        cmd->progress = (optarg ? XARGMATCH ("--progress", optarg,
                                             progress_args, progress_vals)
                         : PROGRESS_AUTO);
        break;
      case NO_PRESERVE_OPTION:
        decode_attributes ("--no-preserve", optarg, false, x);
        break;
      case 'r':
      case 'R':
        x->recursive = true;
        break;
      case REFLINK_OPTION:
        x->reflink = (optarg ? XARGMATCH ("--reflink", optarg, reflink_args,
                                          reflink_vals)
                      : REFLINK_ALWAYS);
        break;
      case 's':
        x->symbolic_link = true;
        break;
      case 'S':
        cmd->backups = true;
        cmd->suffix = optarg;
        break;
      case 't':
        if (cmd->target_dir)
          error (EXIT_FAILURE, 0, "multiple target directories specified");
        cmd->target_dir = optarg;
        break;
      case 'T':
        cmd->no_target = true;
        break;
      case 'u':
        x->update = true;
        break;
      case 'v':
        x->verbose = true;
        break;
      case 'x':
        x->one_file_system = true;
        break;
      case DEBUG_OPTION:
        x->debug = true;
        break;
      case SCAN_OPTION:
        x->scan = XARGMATCH ("--scan", optarg, scan_args, scan_vals);
        break;
      case SPARSE_OPTION:
        x->sparse = XARGMATCH ("--sparse", optarg, sparse_args, sparse_vals);
        break;
      case STATS_OPTION:
        cmd->json = XARGMATCH ("--stats", optarg, stats_args, stats_vals);
        break;
      case ATTRIBUTES_ONLY_OPTION:
        x->attributes_only = true;
        break;
      case COPY_CONTENTS_OPTION:
        x->copy_contents = true;
        break;
      case PARENTS_OPTION:
        cmd->parents = true;
        break;
      case REMOVE_DESTINATION_OPTION:
        x->remove_destination = true;
        break;
      case STRIP_TRAILING_SLASHES_OPTION:
        cmd->strip = true;
        break;
      case VERIFY_OPTION:
        x->verify = true;
        break;
      case 'h':
        usage (EXIT_SUCCESS);
      case 'V':
        version_etc (stdout, "sparsecp", PACKAGE_NAME, PACKAGE_VERSION,
                     AUTHORS, (char *) NULL);
        exit (EXIT_SUCCESS);
      case 'j':
        x->jobs = decode_jobs (optarg);
        break;
      case 'Z':
        cmd->context_asked = true;
        cmd->context = optarg;
        break;
      default:
        usage (EXIT_FAILURE);
      }
}

/* Check how the options combine and settle what they leave open, as cp
   does.  */
static void
settle_options (struct copy_options *x, struct command *cmd)
{
  if (x->hard_link && x->symbolic_link)
    {
      error (0, 0, "cannot make both hard and symbolic links");
      usage (EXIT_FAILURE);
    }
  /* -l without -P follows symlinks, even with -r, as cp does.  */
  if (!cmd->deref_set)
    x->deref = x->recursive && !x->hard_link ? DEREF_NEVER : DEREF_ALWAYS;
  if (cmd->backups && x->overwrite == OVERWRITE_NO)
    {
      error (0, 0, "options --backup and --no-clobber are mutually exclusive");
      usage (EXIT_FAILURE);
    }
  x->backup = (cmd->backups ? xget_version ("backup type", cmd->version)
               : no_backups);
  set_simple_backup_suffix (cmd->suffix);
  if (x->reflink == REFLINK_ALWAYS && x->sparse != SPARSE_AUTO)
    {
      error (0, 0, "--reflink can be used only with --sparse=auto");
      usage (EXIT_FAILURE);
    }
  context_settle (x, cmd->context_asked, cmd->context);
  if (cmd->target_dir && cmd->no_target)
    error (EXIT_FAILURE, 0, "cannot combine --target-directory (-t) "
           "and --no-target-directory (-T)");
}

int
main (int argc, char **argv)
{
  struct copy_options x = { .sparse = SPARSE_AUTO, .scan = SCAN_AUTO,
                            .reflink = REFLINK_AUTO,
                            .overwrite = OVERWRITE_YES };
  struct command cmd = { .progress = PROGRESS_NEVER };

  set_program_name (argv[0]);
  setlocale (LC_ALL, "");
  atexit (close_stdout);

  parse_options (argc, argv, &x, &cmd);
  settle_options (&x, &cmd);

  int n_files;
  char const *dir = decide_target (argc - optind, argv + optind,
                                   cmd.target_dir, cmd.no_target, &n_files);
  if (cmd.parents && !dir)
    {
      error (0, 0, "with --parents, the destination must be a directory");
      usage (EXIT_FAILURE);
    }

  x.umask = umask (0);
  umask (x.umask);
  install_cleanup_handlers ();
  summary_start ();
  /* With -i or progress shown, one file at a time, as the terminal
     shows it; else as many as asked, or one for each CPU.  */
  if (progress_init (cmd.progress) || x.overwrite == OVERWRITE_ASK)
    x.jobs = 1;
  else if (!x.jobs)
    x.jobs = workers_default ();

  bool ok = copy_operands (n_files, argv + optind, dir, cmd.strip,
                           cmd.parents, &x);

  progress_finish ();
  if (x.debug)
    summary_print_text ();
  if (cmd.json)
    summary_print_json (stdout);
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
