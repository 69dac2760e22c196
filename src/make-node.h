/* Making the nodes of a copy that are not regular files: hard links,
   symlinks and special files, each under a temporary name beside its
   destination, given its attributes, then renamed into place.  */

#ifndef SPARSECP_MAKE_NODE_H
#define SPARSECP_MAKE_NODE_H

#include "system.h"
#include "copy-file.h"
#include "copy-options.h"

#include <sys/stat.h>

/* How to make a node that is not a regular file, at a temporary name.  */
struct node_spec
{
  struct stat const *st;
  char const *link_target;   /* for a symlink */
  char const *link_to;       /* for a hard link: the earlier copy, or
                                with -l the source */
  bool follow;               /* a hard link to what LINK_TO, a symlink,
                                names (-l -L) */
  bool to_source;            /* -s: a symlink to the file *ST is, which
                                gets only its times, as cp gives it */
};

/* Make DST, which is as *D says, anew as a hard link, symlink or
   special file as N says, with the attributes of SRC, and put it in
   place of any earlier DST, kept as d->backup if set; where nothing had
   the name when looked for (d->absent), fail with EEXIST where
   something has it now, as cp's symlink or mknod does.  */
bool make_replacing (struct copy_options const *x, char const *src,
                     char const *dst, struct dst_state const *d,
                     struct node_spec const *n);

/* Make DST, which is as *D says, a copy of SRC, the symlink or special
   file N describes, in place of what is there.  */
bool copy_node (struct copy_options const *x, char const *src,
                char const *dst, struct dst_state const *d,
                struct node_spec *n);

#endif
