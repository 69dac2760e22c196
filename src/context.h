/* SELinux labels of new files: -Z, --context[=CTX] and
   --preserve=context, as cp gives them, but set on each new file before
   it gets its name, so that no one sees it with another label.  */

#ifndef SPARSECP_CONTEXT_H
#define SPARSECP_CONTEXT_H

#include "system.h"
#include "copy-options.h"
#include "preserve.h"

/* Whether the kernel enforces or logs SELinux labels.  */
bool context_enabled (void);

/* Settle the labelling of X once the options are read: -Z (ASKED, with
   GIVEN the context of --context=CTX, or NULL for the policy's) and
   --preserve=context, -a.  Exit with cp's message where they cannot be
   honoured.  */
void context_settle (struct copy_options *x, bool asked, char const *given);

/* Give DST, made anew and not yet in place, the label X asks for: the
   source's (SRC, open as SRC_FD or -1), the one given, or the policy's
   for DST's name.  MODE has the type of both, followed where SRC was.
   Report failures as cp does; return false only where they must fail
   the copy.  */
bool context_label (struct attr_target const *dst, char const *src,
                    int src_fd, mode_t mode, struct copy_options const *x);

#endif
