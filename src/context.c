/* SELinux labels of new files.  cp sets the process's file-creation
   context before each file it makes; sparsecp makes every file under a
   temporary name or none (O_TMPFILE) and renames it into place once
   complete, so it labels that file by its descriptor or temporary name
   first, which leaves no moment when the copy has another label at its
   name.  Without libselinux, sparsecp refuses the options on a kernel
   with SELinux rather than make copies that look labelled and are not.  */

#include "context.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "canonicalize.h"
#include "error.h"
#include "quote.h"
#include "quotearg.h"
#include "xalloc.h"

#if HAVE_SELINUX
# include <pthread.h>
# include <selinux/selinux.h>
# include <selinux/context.h>
# include <selinux/label.h>

/* The file-contexts policy that -Z labels by; one worker at a time
   looks in it, as libselinux asks nothing more of its callers.  */
static struct selabel_handle *policy;
static pthread_mutex_t policy_lock = PTHREAD_MUTEX_INITIALIZER;
#endif

bool
context_enabled (void)
{
#if HAVE_SELINUX
  return is_selinux_enabled () > 0;
#else
  return access ("/sys/fs/selinux/enforce", F_OK) == 0;
#endif
}

void
context_settle (struct copy_options *x, bool asked, char const *given)
{
  bool enabled = context_enabled ();

  if (asked && !enabled)
    {
      /* As cp: -Z is silently nothing, --context=CTX a warning.  */
      if (given)
        error (0, 0, "warning: ignoring --context; it requires an "
               "SELinux-enabled kernel");
      asked = false;
    }
#if HAVE_SELINUX
  if (asked && given)
    {
      x->label = LABEL_GIVEN;
      x->label_given = given;
    }
  else if (asked)
    {
      policy = selabel_open (SELABEL_CTX_FILE, NULL, 0);
      if (policy)
        x->label = LABEL_POLICY;
      else
        error (0, errno, "warning: ignoring --context");
    }
#else
  if (asked || (x->preserve.context && enabled))
    error (EXIT_FAILURE, 0, "cannot set or preserve security contexts: "
           "sparsecp is built without SELinux support");
#endif

  /* -Z and --context override -a, not --preserve=context.  */
  if (x->label != LABEL_NONE && !x->require_context)
    x->preserve.context = false;
  if (x->preserve.context && x->label != LABEL_NONE)
    error (EXIT_FAILURE, 0, "cannot set target context and preserve it");
  if (x->require_context && !enabled)
    error (EXIT_FAILURE, 0, "cannot preserve security context without an "
           "SELinux-enabled kernel");
  if (x->preserve.context)
    x->label = LABEL_SOURCE;

#if HAVE_SELINUX
  /* cp fails here on a context the policy does not know.  */
  if (x->label == LABEL_GIVEN && security_check_context (given) != 0)
    error (EXIT_FAILURE, errno,
           "failed to set default file creation context to %s", quote (given));
#endif
}

#if HAVE_SELINUX
/* Whether errno E says only that there is no label to have.  */
static bool
is_unsupported (int e)
{
  return e == ENOTSUP || e == ENODATA;
}

/* Whether a failure of errno E is reported, as cp's are: always where
   the labels were asked for by name or no data is copied, never with -a,
   else unless the filesystem has no labels.  */
static bool
is_reported (struct copy_options const *x, int e)
{
  return (x->require_context || x->attributes_only
          || (!x->quiet_context && !is_unsupported (e)));
}

/* The label of F, a file of type MODE: none (ENODATA) on a filesystem
   that had no labels till now.  By name, only a symlink is not
   followed: a directory's name may be its /proc/self/fd link, and a
   source followed (-H, -L) is named by the symlink.  */
static int
get_label (struct attr_target const *f, mode_t mode, char **con)
{
  if (f->fd >= 0)
    return fgetfilecon (f->fd, con);
  return (S_ISLNK (mode) ? lgetfilecon (f->path, con)
          : getfilecon (f->path, con));
}

static int
set_label (struct attr_target const *dst, mode_t mode, char const *con)
{
  if (dst->fd >= 0)
    return fsetfilecon (dst->fd, con);
  return (S_ISLNK (mode) ? lsetfilecon (dst->path, con)
          : setfilecon (dst->path, con));
}

/* What the policy names for DST and MODE, given the user, role and
   range the kernel gave DST when it was made, as cp -Z does; where DST
   has no label yet, the policy's whole.  */
static char *
policy_label (struct attr_target const *dst, mode_t mode)
{
  char *path = canonicalize_filename_mode (dst->name, CAN_MISSING);
  if (!path)
    return NULL;
  char *want = NULL;
  pthread_mutex_lock (&policy_lock);
  int r = selabel_lookup (policy, &want, path, mode);
  int e = errno;
  pthread_mutex_unlock (&policy_lock);
  free (path);
  if (r != 0)
    {
      errno = e == ENOENT ? ENODATA : e;
      return NULL;
    }

  char *now;
  if (get_label (dst, mode, &now) < 0)
    return want;
  char *label = NULL;
  context_t w = context_new (want), n = context_new (now);
  char const *type = w ? context_type_get (w) : NULL;
  if (n && type && context_type_set (n, type) == 0)
    label = strdup (context_str (n));
  e = errno;
  if (w)
    context_free (w);
  if (n)
    context_free (n);
  freecon (now);
  freecon (want);
  errno = e;
  return label;
}
#endif

bool
context_label (struct attr_target const *dst, char const *src, int src_fd,
               mode_t mode, struct copy_options const *x)
{
#if HAVE_SELINUX
  char *label = NULL;
  switch (x->label)
    {
    case LABEL_NONE:
      return true;
    case LABEL_SOURCE:
      if (get_label (&(struct attr_target) { src, src, src_fd }, mode,
                     &label) < 0)
        {
          if (is_reported (x, errno))
            error (0, errno, "failed to get security context of %s",
                   quoteaf (src));
          return !x->require_context;
        }
      break;
    case LABEL_GIVEN:
      label = strdup (x->label_given);
      break;
    case LABEL_POLICY:
      label = policy_label (dst, mode);
      if (!label)
        {
          /* A warning, as cp's: the copy is made all the same.  */
          if (!is_unsupported (errno))
            error (0, errno, "failed to set default file creation context "
                   "for %s", quoteaf (dst->name));
          return true;
        }
      break;
    }
  if (!label)
    xalloc_die ();

  int r = set_label (dst, mode, label);
  int e = errno;
  freecon (label);
  if (r == 0)
    return true;
  /* cp makes no file it cannot give CTX (the kernel refuses to create
     it), and none that --preserve=context cannot label.  */
  bool fatal = x->require_context || x->label == LABEL_GIVEN;
  if (fatal || is_reported (x, e))
    error (0, e, "failed to set the security context of %s",
           quoteaf (dst->name));
  return !fatal;
#else
  (void) dst, (void) src, (void) src_fd, (void) mode, (void) x;
  return true;
#endif
}
