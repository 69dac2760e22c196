/* The regular files of a tree copied on worker threads while the walk
   goes on.  The walker decides everything a user sees decided in order
   (what is at each destination, -i, -v, hard links, directories); a
   worker only copies one file's data and attributes, as copy_file does
   alone, and its messages wait for their turn (report.c).  */

#include <config.h>

#include "workers.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "copy-data.h"
#include "replace.h"
#include "report.h"
#include "summary.h"
#include "xalloc.h"

/* The most online CPUs the default -j uses: see bench/RESULTS.  */
enum { JOBS_DEFAULT_MAX = 8 };

/* Copies waiting or running, a few a worker: enough that a worker
   never waits for the walker, few enough that memory stays bounded
   whatever the size of the tree.  */
enum { PENDING_PER_WORKER = 16 };

/* One file to copy, with copies of everything the walker's entry held:
   fts frees it before the copy is done.  */
struct job
{
  char *src, *dst, *at, *entry, *backup;
  struct stat st;
  struct dst_state d;
  struct dir_hold *dir;
  struct copy_options const *x;
  struct report_slot *slot;
  struct job *next;
};

/* LOCK guards everything below and each dir_hold's PENDING.  Wakeups
   cost a futex call each, as much as a small file's copy: a worker is
   woken only when idle, the walker only when it waits for room and
   half of the pending copies are done.  */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;  /* a job queued */
static pthread_cond_t room = PTHREAD_COND_INITIALIZER;  /* for the walker */
static struct job *queue, *queue_tail;
static size_t pending;          /* queued or running */
static unsigned idle;           /* workers waiting for a job */
static bool walker_waits;
static bool ending;             /* no job will come: workers may end */
static bool failed;             /* a copy failed since the start */
static pthread_t threads[JOBS_MAX];
static unsigned started;

/* The walker waits for room at the most pending copies, and goes on
   once half of them are done.  */
static size_t
most_pending (void)
{
  return (size_t) started * PENDING_PER_WORKER;
}

static void
free_job (struct job *j)
{
  free (j->src);
  free (j->dst);
  free (j->at);
  free (j->entry);
  free (j->backup);
  free (j);
}

/* Copy J's file, and free J.  Return DIR's hold with J's copy counted
   out, in *DIR, and whether the copy succeeded.  Called unlocked.  */
static bool
run_job (struct job *j, struct dir_hold **dir)
{
  report_to (j->slot);
  bool ok = copy_file (j->src, &j->st, j->dst, &j->d, j->x);
  if (!ok)
    summary_failure ();
  report_to (NULL);
  report_slot_done (j->slot);
  *dir = j->dir;
  free_job (j);
  return ok;
}

/* DIR's last copy is done and the walker has left it, leaving what to
   do then: do it, with its messages in their place.  Nothing else
   touches DIR now.  Called unlocked.  */
static bool
run_after (struct dir_hold *dir)
{
  struct report_slot *slot = dir->after_slot;
  report_to (slot);
  bool ok = dir->after (dir->after_arg);
  if (!ok)
    summary_failure ();
  report_to (NULL);
  report_slot_done (slot);
  return ok;
}

static void *
worker (void *arg)
{
  temp_thread_slot ((int) (intptr_t) arg);
  pthread_mutex_lock (&lock);
  for (;;)
    {
      while (!queue && !ending)
        {
          idle++;
          pthread_cond_wait (&work, &lock);
          idle--;
        }
      struct job *j = queue;
      if (!j)
        break;
      queue = j->next;
      if (!queue)
        queue_tail = NULL;
      pthread_mutex_unlock (&lock);

      struct dir_hold *dir;
      bool ok = run_job (j, &dir);

      pthread_mutex_lock (&lock);
      failed |= !ok;
      pending--;
      if (--dir->pending == 0 && dir->after)
        {
          pthread_mutex_unlock (&lock);
          ok = run_after (dir);
          pthread_mutex_lock (&lock);
          failed |= !ok;
        }
      if (walker_waits && pending <= most_pending () / 2)
        pthread_cond_signal (&room);
    }
  pthread_mutex_unlock (&lock);
  copier_thread_end ();
  report_thread_end ();
  return NULL;
}

/* Start N workers, or as many as can be; at least one.  */
static void
start_workers (unsigned n)
{
  ending = false;
  /* From now on the walker's messages wait for the copies before them.  */
  report_ordered (true);
  while (started < n)
    {
      int err = pthread_create (&threads[started], NULL, worker,
                                (void *) (intptr_t) (started + 1));
      if (err != 0)
        {
          if (started == 0)
            error (EXIT_FAILURE, err, "cannot start a worker thread");
          break;
        }
      started++;
    }
}

void
workers_copy (char const *src, struct stat const *st, char const *dst,
              char const *at, char const *entry, struct dir_hold *dir,
              struct dst_state const *d, struct copy_options const *x)
{
  if (!started)
    start_workers (x->jobs);

  struct job *j = xmalloc (sizeof *j);
  *j = (struct job) { xstrdup (src), xstrdup (dst), xstrdup (at),
                      xstrdup (entry), d->backup ? xstrdup (d->backup) : NULL,
                      *st, *d, dir, x, NULL, NULL };
  j->d.path = j->at;
  j->d.entry = j->entry;
  j->d.dirfd = dir->fd;
  j->d.backup = j->backup;

  j->slot = report_turn ();

  pthread_mutex_lock (&lock);
  while (pending >= most_pending ())
    {
      walker_waits = true;
      pthread_cond_wait (&room, &lock);
      walker_waits = false;
    }
  pending++;
  dir->pending++;
  if (queue_tail)
    queue_tail->next = j;
  else
    queue = j;
  queue_tail = j;
  if (idle)
    pthread_cond_signal (&work);
  pthread_mutex_unlock (&lock);
}

bool
workers_after_dir (struct dir_hold *dir, bool (*after) (void *), void *arg)
{
  pthread_mutex_lock (&lock);
  bool now = dir->pending == 0;
  pthread_mutex_unlock (&lock);
  /* Only the walker adds to PENDING: once zero, it stays zero.  */
  if (now)
    return after (arg);
  struct report_slot *slot = report_turn ();
  pthread_mutex_lock (&lock);
  now = dir->pending == 0;
  if (!now)
    {
      dir->after = after;
      dir->after_arg = arg;
      dir->after_slot = slot;
    }
  pthread_mutex_unlock (&lock);
  if (now)
    {
      report_to (slot);
      bool ok = after (arg);
      report_to (NULL);
      report_slot_done (slot);
      return ok;
    }
  return true;
}

bool
workers_finish (void)
{
  if (!started)
    return true;
  pthread_mutex_lock (&lock);
  ending = true;
  pthread_cond_broadcast (&work);
  pthread_mutex_unlock (&lock);
  for (unsigned i = 0; i < started; i++)
    pthread_join (threads[i], NULL);
  started = 0;

  report_ordered (false);
  bool ok = !failed;
  failed = false;
  return ok;
}

unsigned
workers_default (void)
{
  long n = sysconf (_SC_NPROCESSORS_ONLN);
  if (n < 1)
    return 1;
  return n < JOBS_DEFAULT_MAX ? n : JOBS_DEFAULT_MAX;
}
