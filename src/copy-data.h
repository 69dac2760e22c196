/* The copy stage: moving the bytes of planned segments.  */

#ifndef SPARSECP_COPY_DATA_H
#define SPARSECP_COPY_DATA_H

#include "copy-plan.h"

struct copier
{
  int src_fd;
  int dst_fd;
  char const *src_name;
  char const *dst_name;
  bool try_cfr;        /* copy_file_range has not failed yet */
  bool dst_seekable;   /* holes can be skipped with offsets */
  size_t hole_blksize; /* holes are made of whole blocks this large;
                          0 until a scan for zeros needs it */
  char *buf;
  size_t bufsize;
  /* What was done, for --debug.  */
  off_t bytes_cfr;
  off_t bytes_rw;
  off_t bytes_hole;
  bool cloned;         /* the whole file was reflinked */
};

/* How a copy, or a step of one, ended: each outcome is one its caller
   acts on in its own way.  This file's functions return the first three;
   copy-file.c's the others too.  */
enum copy_status
{
  COPY_OK,
  COPY_SRC_ENDED,   /* the source ended before its map did: it changed,
                       copy it again */
  COPY_FAILED,      /* an error, already reported */
  COPY_DISTRUSTED,  /* the map was not trusted: try the next method */
  COPY_NOT_CLONED   /* no clone was made: copy the data */
};

void copier_init (struct copier *, int src_fd, char const *src_name,
                  int dst_fd, char const *dst_name, bool dst_seekable,
                  size_t hole_blksize);
void copier_free (struct copier *);

/* Free the buffer this thread's copiers share, before the thread ends.  */
void copier_thread_end (void);

/* Share all of the source's extents with the empty destination (a
   reflink), which copies its holes too.  Return false, with nothing
   done, where the filesystems cannot.  */
bool clone_whole_file (struct copier *);

/* Carry out SEG of a file that is SIZE bytes long.  */
enum copy_status copy_segment (struct copier *, struct segment const *seg,
                               off_t size);

/* Plan and carry out the copy of the window of map M, of a file of SIZE
   bytes, under SPARSE (SCAN_DATA as for plan_init ()).  */
enum copy_status copy_window (struct copier *, struct extent_map const *m,
                              off_t size, enum sparse_mode sparse,
                              bool scan_data);

/* Read up to N bytes at POS of FD (at its current position if POS < 0),
   retrying interrupted and short reads.  Return the bytes read, fewer
   than N only at end of file, or -1 after reporting an error for NAME,
   followed by WHY.  */
ssize_t read_full (int fd, char const *name, char const *why, char *buf,
                   size_t n, off_t pos);

/* Copy from the source's current position until end of file, for files
   whose size says nothing (pipes, devices, /proc).  Make holes of zero
   blocks when MAKE_HOLES.  Store the bytes copied in *TOTAL.  */
enum copy_status copy_stream (struct copier *, bool make_holes, off_t *total);

#endif
