/* A file named by its device and inode, as the tables of the run keep
   them (tsearch): the copies made of hard-linked files, and what the
   run itself made.  */

#ifndef SPARSECP_FILE_ID_H
#define SPARSECP_FILE_ID_H

#include <sys/stat.h>

struct file_id
{
  dev_t dev;
  ino_t ino;
};

static inline struct file_id
file_id_of (struct stat const *st)
{
  return (struct file_id) { st->st_dev, st->st_ino };
}

/* Order for tsearch: A and B point to file_ids, or to structures that
   begin with one.  */
static inline int
file_id_compare (void const *a, void const *b)
{
  struct file_id const *p = a, *q = b;
  if (p->dev != q->dev)
    return p->dev < q->dev ? -1 : 1;
  return p->ino < q->ino ? -1 : p->ino > q->ino;
}

#endif
