/* The destinations this run has made.  */

#include "created.h"

#include <search.h>
#include <stdlib.h>

#include "xalloc.h"

struct file_id
{
  dev_t dev;
  ino_t ino;
};

static void *created;

static int
compare_ids (void const *a, void const *b)
{
  struct file_id const *p = a, *q = b;
  if (p->dev != q->dev)
    return p->dev < q->dev ? -1 : 1;
  return p->ino < q->ino ? -1 : p->ino > q->ino;
}

void
created_add (struct stat const *st)
{
  struct file_id *id = xmalloc (sizeof *id);
  *id = (struct file_id) { st->st_dev, st->st_ino };
  struct file_id **slot = tsearch (id, &created, compare_ids);
  if (!slot)
    xalloc_die ();
  if (*slot != id)
    free (id);
}

bool
created_here (struct stat const *st)
{
  struct file_id key = { st->st_dev, st->st_ino };
  return tfind (&key, &created, compare_ids) != NULL;
}
