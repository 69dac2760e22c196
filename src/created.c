/* The destinations this run has made.  */

#include "created.h"

#include <search.h>
#include <stdlib.h>

#include "file-id.h"
#include "xalloc.h"

static void *created;

void
created_add (struct stat const *st)
{
  struct file_id *id = xmalloc (sizeof *id);
  *id = file_id_of (st);
  struct file_id **slot = tsearch (id, &created, file_id_compare);
  if (!slot)
    xalloc_die ();
  if (*slot != id)
    free (id);
}

bool
created_here (struct stat const *st)
{
  struct file_id key = file_id_of (st);
  return tfind (&key, &created, file_id_compare) != NULL;
}
