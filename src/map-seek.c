/* Mapping with lseek SEEK_DATA / SEEK_HOLE, for filesystems without
   FIEMAP (tmpfs, NFS, FUSE, overlayfs).  */

#include "extent-map.h"

#include <string.h>
#include <unistd.h>

off_t
map_seek_next (int fd, off_t pos, int whence)
{
  off_t r;
  do
    r = lseek (fd, pos, whence);
  while (r < 0 && errno == EINTR);
  return r;
}

enum map_status
map_seek (int fd, struct stat const *st,
          struct extent_map *m, map_distrust *why)
{
  off_t size = st->st_size;
  off_t pos = m->raw_end;

  map_next_window (m);
  *why = NULL;

  while (pos < size)
    {
      if (m->n == MAP_WINDOW_MAX)
        {
          map_pause (m, size);
          return MAP_OK;
        }
      off_t data = map_seek_next (fd, pos, SEEK_DATA);
      if (data < 0)
        {
          if (errno == ENXIO)
            break;              /* only a hole from POS to the end */
          *why = strerror (errno);
          return (pos == 0 && (errno == EINVAL || errno == EOPNOTSUPP)
                  ? MAP_UNSUPPORTED : MAP_UNTRUSTED);
        }
      if (data < pos)
        {
          *why = "SEEK_DATA moved backwards";
          return MAP_UNTRUSTED;
        }
      if (data >= size)
        break;

      off_t hole = map_seek_next (fd, data, SEEK_HOLE);
      if (hole < 0)
        {
          *why = strerror (errno);
          return MAP_UNTRUSTED;
        }
      if (hole <= data)
        {
          *why = "SEEK_HOLE did not move past the data";
          return MAP_UNTRUSTED;
        }
      *why = map_add (m, data, hole - data, EXTENT_DATA);
      if (*why)
        return MAP_UNTRUSTED;
      pos = hole;
    }

  *why = map_finish (m, size, (off_t) st->st_blocks * 512, st->st_blksize,
                     true);
  return *why ? MAP_UNTRUSTED : MAP_OK;
}
