/* Mapping by reading: the whole file is data, which the copy reads and
   scans for zero blocks.  It cannot be fooled, so it ends every list of
   methods.  */

#include "extent-map.h"

enum map_status
map_read (struct stat const *st, struct extent_map *m)
{
  map_reset (m, SCAN_READ);
  if (st->st_size > 0)
    map_add (m, 0, st->st_size, EXTENT_DATA);
  /* Nothing to check against the allocation: every byte is read.  */
  map_finish (m, st->st_size, 0, st->st_blksize, true);
  return MAP_OK;
}
