/* sparsecp -- copy files, keeping holes, never losing data.  */

#include "system.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "argmatch.h"
#include "closeout.h"
#include "copy-file.h"
#include "dirname.h"
#include "error.h"
#include "filenamecat.h"
#include "progname.h"
#include "quote.h"
#include "version-etc.h"
#include "xalloc.h"

#define AUTHORS "the sparsecp developers"

/* version_etc () prints this with "(C)" and its own idea of the year,
   which the format leaves out.  */
char const version_etc_copyright[] =
  "Copyright %s 2026 the sparsecp developers.";

enum
{
  DEBUG_OPTION = CHAR_MAX + 1,
  SCAN_OPTION,
  SPARSE_OPTION,
  VERIFY_OPTION
};

static struct option const long_options[] =
{
  {"debug", no_argument, NULL, DEBUG_OPTION},
  {"scan", required_argument, NULL, SCAN_OPTION},
  {"sparse", required_argument, NULL, SPARSE_OPTION},
  {"verify", no_argument, NULL, VERIFY_OPTION},
  {"help", no_argument, NULL, 'h'},
  {"version", no_argument, NULL, 'V'},
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

static _Noreturn void
usage (int status)
{
  if (status != EXIT_SUCCESS)
    {
      fprintf (stderr, "Try '%s --help' for more information.\n",
               program_name);
      exit (status);
    }
  printf ("\
Usage: %s [OPTION]... SOURCE DEST\n\
  or:  %s [OPTION]... SOURCE... DIRECTORY\n\
", program_name, program_name);
  fputs ("\
Copy SOURCE to DEST, or SOURCEs into DIRECTORY, keeping holes without\n\
ever turning data into zeros.\n\
\n\
      --debug         say, for each file, how its data was found, how many\n\
                        extents and bytes of data and holes it has, and why\n\
                        a way of finding the data was not used\n\
      --scan=METHOD   how to find the data: auto (the default) tries fiemap,\n\
                        then seek, then read; fiemap, seek or read use only\n\
                        that method, and read whatever it cannot map\n\
      --sparse=WHEN   control creation of sparse files, as cp does: auto\n\
                        (the default) keeps the source's holes; always also\n\
                        turns blocks of zeros into holes; never writes every\n\
                        byte\n\
      --verify        after copying a regular file, write it out, drop it\n\
                        from the page cache, read it back and compare it\n\
                        with the source, holes included; copy again on a\n\
                        difference, and fail if it persists\n\
      --help          display this help and exit\n\
      --version       output version information and exit\n\
\n\
Methods: fiemap asks the filesystem for its extents after flushing delayed\n\
allocation (FIEMAP_FLAG_SYNC); seek uses lseek SEEK_DATA and SEEK_HOLE;\n\
read reads every byte.  A map that contradicts the file (overlapping or\n\
unsorted extents, extents missing at the end, fewer bytes mapped than the\n\
file has allocated) is not trusted, and the next method is used.\n\
Unwritten (preallocated) extents are read, never assumed to be zeros.\n\
With --scan=auto and --sparse=auto, a copy within a filesystem that can\n\
share extents (btrfs, xfs) is a reflink of the whole file.\n\
The holes of a fiemap map are checked with SEEK_DATA where it works.\n\
Lies that leave the map consistent (a small data extent reported as a\n\
hole by both methods) are caught only by --verify.\n\
\n\
A regular DEST is written to a temporary file in its directory and renamed\n\
over DEST only when the copy is complete, so a failed copy leaves an\n\
existing DEST untouched; a DEST with other hard links is replaced by a new\n\
file.  A DEST that is a device or a FIFO cannot be replaced by rename: it\n\
is written in place, so a failed copy leaves it partly written, and\n\
--verify does not apply to it.  A source that changes while it is copied\n\
is copied again, up to 3 times in all.\n\
\n\
Exit status is 0 if every DEST is an exact copy of its SOURCE, 1 otherwise.\n\
", stdout);
  emit_bug_reporting_address ();
  exit (status);
}

int
main (int argc, char **argv)
{
  struct copy_options x = { .sparse = SPARSE_AUTO, .scan = SCAN_AUTO };
  int c;

  set_program_name (argv[0]);
  atexit (close_stdout);

  while ((c = getopt_long (argc, argv, "", long_options, NULL)) != -1)
    switch (c)
      {
      case DEBUG_OPTION:
        x.debug = true;
        break;
      case SCAN_OPTION:
        x.scan = XARGMATCH ("--scan", optarg, scan_args, scan_vals);
        break;
      case SPARSE_OPTION:
        x.sparse = XARGMATCH ("--sparse", optarg, sparse_args, sparse_vals);
        break;
      case VERIFY_OPTION:
        x.verify = true;
        break;
      case 'h':
        usage (EXIT_SUCCESS);
      case 'V':
        version_etc (stdout, "sparsecp", PACKAGE_NAME, PACKAGE_VERSION,
                     AUTHORS, (char *) NULL);
        exit (EXIT_SUCCESS);
      default:
        usage (EXIT_FAILURE);
      }

  int n_files = argc - optind;
  char **file = argv + optind;
  if (n_files < 1)
    {
      error (0, 0, "missing file operand");
      usage (EXIT_FAILURE);
    }
  if (n_files == 1)
    {
      error (0, 0, "missing destination file operand after %s",
             quote (file[0]));
      usage (EXIT_FAILURE);
    }

  x.umask = umask (0);
  umask (x.umask);
  install_cleanup_handlers ();

  char const *dest = file[n_files - 1];
  struct stat st;
  bool into_dir = stat (dest, &st) == 0 && S_ISDIR (st.st_mode);
  if (n_files > 2 && !into_dir)
    error (EXIT_FAILURE, 0, "target %s is not a directory", quote (dest));

  bool ok = true;
  for (int i = 0; i < n_files - 1; i++)
    {
      if (!into_dir)
        {
          ok &= copy_file (file[i], dest, &x);
          continue;
        }
      char *base = base_name (file[i]);
      char *dst = file_name_concat (dest, base, NULL);
      ok &= copy_file (file[i], dst, &x);
      free (dst);
      free (base);
    }
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
