/* Declarations shared by every part of sparsecp.  */

#ifndef SPARSECP_SYSTEM_H
#define SPARSECP_SYSTEM_H

#include <config.h>

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* How zero bytes in the source become holes in the destination,
   with cp's meaning of --sparse.  */
enum sparse_mode
{
  SPARSE_AUTO,    /* keep the source's holes */
  SPARSE_ALWAYS,  /* also turn runs of zero blocks into holes */
  SPARSE_NEVER    /* write every byte */
};

/* Which way of finding the data in a file was asked for or used.  */
enum scan_method
{
  SCAN_AUTO,      /* FIEMAP, then SEEK_DATA, then reading */
  SCAN_FIEMAP,
  SCAN_SEEK,
  SCAN_READ
};

char const *scan_method_name (enum scan_method);

/* The most threads that copy files at once (-j).  */
enum { JOBS_MAX = 64 };

/* File names in messages, quoted as cp quotes them: for the shell,
   escaping what a terminal would not show.  */
#define quoteaf(arg) quote_file_n (0, arg)
#define quoteaf_n(n, arg) quote_file_n (n, arg)

#include "report.h"

#endif
