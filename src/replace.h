/* Destinations that appear only when complete: every new file, symlink,
   node or hard link is made under a temporary name in the directory of
   its destination and renamed over it at the end, so a failure leaves an
   existing destination untouched.  A regular file is made without a name
   and linked in at the end: a new one under its own name, which costs
   the directory one entry instead of two and a rename; one that replaces
   a file under a temporary name renamed over it.  Until then no name
   shows it, so even SIGKILL leaves nothing behind.  */

#ifndef SPARSECP_REPLACE_H
#define SPARSECP_REPLACE_H

#include "system.h"

/* Remove the temporary files in progress if a signal ends the program.  */
void install_cleanup_handlers (void);

/* Keep this thread's temporary file in SLOT, 1 to JOBS_MAX for the
   workers (the main thread's is 0).  */
void temp_thread_slot (int slot);

/* Create an empty regular file beside TARGET, with MODE less the umask.
   Return its descriptor, open for reading and writing, and its name in
   *TEMP, or -1 with errno set.  */
int temp_file_create (char const *target, mode_t mode, char **temp);

/* Create an unnamed regular file (O_TMPFILE) in the directory of NAME,
   relative to DIRFD (or AT_FDCWD), with MODE less the umask, for
   anon_file_link to give that name once it is complete: until then no
   name shows it, and a copy killed even by SIGKILL leaves nothing
   behind.  Return its descriptor, open for reading and writing, or -1
   with errno set (EOPNOTSUPP where the file system cannot;
   temp_file_create then can).  */
int anon_file_create (int dirfd, char const *name, mode_t mode);

/* Give FD, from anon_file_create, the name NAME relative to DIRFD, which
   nothing may have yet (EEXIST).  Return 0, or -1 with errno set.  */
int anon_file_link (int fd, int dirfd, char const *name);

/* Give FD, from anon_file_create, a fresh temporary name beside TARGET,
   for temp_commit to rename over TARGET once FD is closed.  Return the
   name, or NULL with errno set.  */
char *anon_file_name (int fd, char const *target);

/* Call MAKE (NAME, ARG) on fresh names beside DST until it makes a file
   there or fails otherwise than with EEXIST.  Return the name it made,
   or NULL with errno set.  */
char *temp_node_create (char const *dst,
                        int (*make) (char const *name, void *arg),
                        void *arg);

/* Rename TEMP over DST.  Return 0, or -1 with errno set and TEMP still
   there for temp_discard.  */
int temp_commit (char const *temp, char const *dst);

/* Rename TEMP to DST, which nothing is to have: fail with EEXIST where
   something has that name, as open with O_EXCL would.  Return 0, or -1
   with errno set and TEMP still there for temp_discard.  */
int temp_commit_new (char const *temp, char const *dst);

/* Remove TEMP after a failure.  */
void temp_discard (char const *temp);

#endif
