/* What the command line asked for, shared by every stage of a copy.  */

#ifndef SPARSECP_COPY_OPTIONS_H
#define SPARSECP_COPY_OPTIONS_H

#include "system.h"
#include "backupfile.h"

/* Which symbolic links in a source are followed (cp's -P, -H, -L).  */
enum dereference
{
  DEREF_NEVER,          /* copy every symlink as a symlink */
  DEREF_COMMAND_LINE,   /* follow only the operands themselves */
  DEREF_ALWAYS
};

/* Whether an existing destination is replaced (cp's -f, -i, -n).  */
enum overwrite
{
  OVERWRITE_YES,
  OVERWRITE_ASK,        /* -i: ask on the terminal */
  OVERWRITE_NO          /* -n: keep it, silently */
};

/* When extents are shared with the source instead of copied.  */
enum reflink_mode
{
  REFLINK_AUTO,         /* when nothing else was asked for, and it works */
  REFLINK_ALWAYS,       /* clone or fail */
  REFLINK_NEVER         /* also no copy_file_range, which may share them */
};

/* The attributes --preserve keeps.  */
struct preserve_set
{
  bool mode;
  bool ownership;
  bool timestamps;
  bool links;           /* hard links among the files copied */
  bool xattr;
  bool context;         /* SELinux labels */
};

/* Where the SELinux label of each new file comes from.  */
enum label_source
{
  LABEL_NONE,           /* the kernel's default */
  LABEL_SOURCE,         /* --preserve=context, -a: the source's */
  LABEL_GIVEN,          /* --context=CTX */
  LABEL_POLICY          /* -Z: the policy's for the copy's name */
};

struct copy_options
{
  enum sparse_mode sparse;
  enum scan_method scan;
  enum reflink_mode reflink;
  enum dereference deref;
  enum overwrite overwrite;
  enum backup_type backup;  /* -b: keep each DEST replaced, so named */
  struct preserve_set preserve;
  bool require_xattr;   /* asked for by name, so failures are errors */
  enum label_source label;
  char const *label_given;  /* LABEL_GIVEN's context */
  bool require_context; /* --preserve=context: failures are errors */
  bool quiet_context;   /* -a: failures to label are not reported */
  bool default_modes;   /* --no-preserve=mode: new files get 0666 and
                           directories 0777, less the umask, as cp does */
  bool recursive;
  bool hard_link;       /* -l: link each file rather than copy it */
  bool attributes_only; /* copy no data: a new file is empty, an existing
                           one keeps its data and gets the attributes */
  bool copy_contents;   /* -r: read a FIFO or device into a regular file */
  bool symbolic_link;   /* -s: a symlink to each file rather than a copy */
  bool one_file_system; /* -x: a directory on another filesystem than
                           the one holding it is made, not filled */
  bool force;           /* replace a destination we may not write to */
  bool remove_destination;  /* replace each existing DEST, whatever it
                               is, by a new file: never write into it
                               or through it (cp removes it first) */
  bool update;          /* skip sources not newer than their DEST */
  bool verbose;
  bool debug;
  bool verify;          /* read the copy back and compare it */
  unsigned jobs;        /* -j: how many files of a tree are copied at
                           once, on as many threads, 1 to JOBS_MAX;
                           1: in the walk */
  mode_t umask;         /* the process's, for new files' modes */
};

#endif
