/* floor-tree -- copy a tree as cp -a does, with the fewest system calls,
   on one thread or several: the floor a tree copier can be measured
   against (issue 47).

   Usage: floor-tree [-a] [-t] JOBS SRC DST
   DST must not exist.  It is made with SRC's directories, regular files,
   symlinks, hard links, devices and FIFOs, each with its source's mode
   and, with -a, owner (as root) and times, as cp -r and cp -a make them
   (without -a, modes less the umask, and a hard link is a copy).  With
   -t each regular file is made as sparsecp makes it, without a name
   (O_TMPFILE) and linked in once written (linkat AT_EMPTY_PATH): what
   the promise that a copy appears only complete costs.  Extended attributes and ACLs are looked
   for, as cp -a must, with one flistxattr a file, and not copied: the
   trees measured have none.  A regular file costs an fstatat, two openat,
   flistxattr (-a), copy_file_range until its size is copied, fchown and
   futimens (-a) and two close: nothing checks the source's holes or that it
   changed, and nothing is made under a temporary name.  One thread walks
   SRC, makes each directory as it comes, with its own mode and owner
   last, and hands each regular file to JOBS workers through a queue (with
   JOBS 1 the walker copies them itself); the directories get their times
   and modes once every file is done.  Exits 1 with a message on the
   first failure: it is a measuring tool, not a copier.  */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

static void
die (char const *what, char const *name)
{
  fprintf (stderr, "floor-tree: %s %s: %s\n", what, name, strerror (errno));
  exit (1);
}

/* A regular file to copy: NAME in the directories open as SRC and DST.  */
struct job
{
  int src, dst;
  char *name;
  struct stat st;
};

/* The queue from the walker to the workers: a ring of QUEUE jobs.  */
enum { QUEUE = 1024 };
static struct job ring[QUEUE];
static size_t head, tail;
static bool done;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t filled = PTHREAD_COND_INITIALIZER;
static pthread_cond_t emptied = PTHREAD_COND_INITIALIZER;
static bool root;
static bool archive;   /* -a */
static bool unnamed;   /* -t */

static void
copy_file (struct job const *j)
{
  int in = openat (j->src, j->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (in < 0)
    die ("cannot open", j->name);
  int out = (unnamed
             ? openat (j->dst, ".", O_WRONLY | O_TMPFILE | O_CLOEXEC,
                       j->st.st_mode & 07777)
             : openat (j->dst, j->name,
                       O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                       j->st.st_mode & 07777));
  if (out < 0)
    die ("cannot create", j->name);
  if (archive && flistxattr (in, NULL, 0) > 0)
    {
      errno = ENOTSUP;
      die ("has extended attributes, which are not copied:", j->name);
    }
  for (off_t left = j->st.st_size; left > 0;)
    {
      ssize_t n = copy_file_range (in, NULL, out, NULL, left, 0);
      if (n < 0)
        die ("cannot copy", j->name);
      if (n == 0)
        break;
      left -= n;
    }
  struct timespec ts[2] = { j->st.st_atim, j->st.st_mtim };
  if (archive && ((root && fchown (out, j->st.st_uid, j->st.st_gid) != 0)
                  || futimens (out, ts) != 0))
    die ("cannot set the owner or times of", j->name);
  if (unnamed && linkat (out, "", j->dst, j->name, AT_EMPTY_PATH) != 0)
    die ("cannot link", j->name);
  if (close (out) != 0)
    die ("cannot close", j->name);
  close (in);
}

static void *
worker (void *arg)
{
  (void) arg;
  for (;;)
    {
      pthread_mutex_lock (&lock);
      while (head == tail && !done)
        pthread_cond_wait (&filled, &lock);
      if (head == tail)
        {
          pthread_mutex_unlock (&lock);
          return NULL;
        }
      struct job j = ring[tail++ % QUEUE];
      pthread_cond_signal (&emptied);
      pthread_mutex_unlock (&lock);
      copy_file (&j);
      free (j.name);
    }
}

static int jobs;

static void
hand_out (struct job const *j)
{
  if (jobs == 1)
    {
      copy_file (j);
      free (j->name);
      return;
    }
  pthread_mutex_lock (&lock);
  while (head - tail == QUEUE)
    pthread_cond_wait (&emptied, &lock);
  ring[head++ % QUEUE] = *j;
  pthread_cond_signal (&filled);
  pthread_mutex_unlock (&lock);
}

/* A directory made, whose times and mode are set at the end.  */
struct made_dir
{
  int fd;
  struct stat st;
};
static struct made_dir *dirs;
static size_t ndirs, dirs_size;

/* A file with more than one link, and where its first copy is.  */
struct linked
{
  dev_t dev;
  ino_t ino;
  int dst;
  char *name;
};
static struct linked *links;
static size_t nlinks, links_size;

static void *
grow (void *p, size_t *size, size_t each)
{
  *size = *size ? 2 * *size : 64;
  p = realloc (p, *size * each);
  if (!p)
    {
      errno = ENOMEM;
      die ("out of", "memory");
    }
  return p;
}

/* Make the directory NAME in DST, open as DST_DIR, a copy of SRC_FD's
   directory of status *ST, and copy what it holds.  */
static void
copy_dir (int src_fd, int dst_dir, char const *name, struct stat const *st)
{
  if (mkdirat (dst_dir, name, 0700) != 0)
    die ("cannot make", name);
  int dst = openat (dst_dir, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dst < 0)
    die ("cannot open", name);
  if (archive && root && fchown (dst, st->st_uid, st->st_gid) != 0)
    die ("cannot chown", name);
  if (ndirs == dirs_size)
    dirs = grow (dirs, &dirs_size, sizeof *dirs);
  dirs[ndirs++] = (struct made_dir) { dst, *st };

  DIR *d = fdopendir (src_fd);
  if (!d)
    die ("cannot read", name);
  for (struct dirent *e; (errno = 0, e = readdir (d));)
    {
      char const *n = e->d_name;
      if (strcmp (n, ".") == 0 || strcmp (n, "..") == 0)
        continue;
      struct stat s;
      if (fstatat (src_fd, n, &s, AT_SYMLINK_NOFOLLOW) != 0)
        die ("cannot stat", n);
      struct timespec ts[2] = { s.st_atim, s.st_mtim };
      if (S_ISDIR (s.st_mode))
        {
          int sub = openat (src_fd, n, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
          if (sub < 0)
            die ("cannot open", n);
          copy_dir (sub, dst, n, &s);
          continue;
        }
      if (archive && s.st_nlink > 1)
        {
          size_t i;
          for (i = 0; i < nlinks; i++)
            if (links[i].dev == s.st_dev && links[i].ino == s.st_ino)
              break;
          if (i < nlinks)
            {
              if (linkat (links[i].dst, links[i].name, dst, n, 0) != 0)
                die ("cannot link", n);
              continue;
            }
          if (nlinks == links_size)
            links = grow (links, &links_size, sizeof *links);
          links[nlinks++] = (struct linked) { s.st_dev, s.st_ino, dst,
                                              strdup (n) };
          if (S_ISREG (s.st_mode))
            {
              /* Copied here, so the link above finds it complete.  */
              struct job j = { src_fd, dst, strdup (n), s };
              copy_file (&j);
              free (j.name);
              continue;
            }
        }
      if (S_ISREG (s.st_mode))
        hand_out (&(struct job) { src_fd, dst, strdup (n), s });
      else
        {
          if (S_ISLNK (s.st_mode))
            {
              char target[PATH_MAX + 1];
              ssize_t len = readlinkat (src_fd, n, target, PATH_MAX);
              if (len < 0)
                die ("cannot read the link", n);
              target[len] = '\0';
              if (symlinkat (target, dst, n) != 0)
                die ("cannot make the link", n);
            }
          else if (mknodat (dst, n, s.st_mode, s.st_rdev) != 0)
            die ("cannot make", n);
          if (archive
              && ((root && fchownat (dst, n, s.st_uid, s.st_gid,
                                     AT_SYMLINK_NOFOLLOW) != 0)
                  || utimensat (dst, n, ts, AT_SYMLINK_NOFOLLOW) != 0))
            die ("cannot set the owner or times of", n);
        }
    }
  if (errno)
    die ("cannot read", name);
  /* The source directory stays open while its files may be queued.  */
}

int
main (int argc, char **argv)
{
  archive = argc > 4 && strcmp (argv[1], "-a") == 0;
  argv += archive, argc -= archive;
  unnamed = argc > 4 && strcmp (argv[1], "-t") == 0;
  argv += unnamed, argc -= unnamed;
  if (argc != 4 || (jobs = atoi (argv[1])) < 1)
    {
      fprintf (stderr, "usage: floor-tree [-a] [-t] JOBS SRC DST\n");
      return 2;
    }
  struct rlimit r;
  if (getrlimit (RLIMIT_NOFILE, &r) == 0)
    {
      r.rlim_cur = r.rlim_max;
      setrlimit (RLIMIT_NOFILE, &r);
    }
  /* cp -r gives new files their source's mode less the umask.  */
  if (archive)
    umask (0);
  root = geteuid () == 0;

  pthread_t *t = calloc (jobs, sizeof *t);
  for (int i = 0; jobs > 1 && i < jobs; i++)
    if (pthread_create (&t[i], NULL, worker, NULL) != 0)
      die ("cannot start", "a worker");

  int src = open (argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  struct stat st;
  if (src < 0 || fstat (src, &st) != 0)
    die ("cannot open", argv[2]);
  copy_dir (src, AT_FDCWD, argv[3], &st);

  pthread_mutex_lock (&lock);
  done = true;
  pthread_cond_broadcast (&filled);
  pthread_mutex_unlock (&lock);
  for (int i = 0; jobs > 1 && i < jobs; i++)
    pthread_join (t[i], NULL);

  /* Last the directories' modes and times, deepest first.  */
  for (size_t i = ndirs; i-- > 0;)
    {
      struct made_dir const *m = &dirs[i];
      struct timespec ts[2] = { m->st.st_atim, m->st.st_mtim };
      mode_t mode = m->st.st_mode & 07777;
      if (!archive)
        {
          mode_t mask = umask (0);
          umask (mask);
          mode &= ~mask;
        }
      if (fchmod (m->fd, mode) != 0
          || (archive && futimens (m->fd, ts) != 0))
        die ("cannot set the attributes of a", "directory");
      close (m->fd);
    }
  return 0;
}
