/* Messages that keep cp's order when files are copied on several
   threads.  */

#include <config.h>

#include "report.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "quotearg.h"
#include "xalloc.h"

/* Here error() is gnulib's own, which prints.  */
#undef error

/* One message kept for its turn: TEXT on STREAM, or, with IS_ERROR,
   what error() would have printed for TEXT and ERRNUM.  */
struct piece
{
  FILE *stream;
  bool is_error;
  int errnum;
  char *text;
};

struct report_slot
{
  struct piece *v;
  size_t n, alloc;
  bool done;
  struct report_slot *next;
};

/* The places taken and not yet printed, oldest first.  LOCK guards the
   list, every slot's DONE, and the printing itself.  */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct report_slot *head, *tail;

static _Thread_local struct report_slot *mine;
static _Thread_local bool ordered;

struct report_slot *
report_slot_take (void)
{
  struct report_slot *s = xzalloc (sizeof *s);
  pthread_mutex_lock (&lock);
  if (tail)
    tail->next = s;
  else
    head = s;
  tail = s;
  pthread_mutex_unlock (&lock);
  return s;
}

void
report_to (struct report_slot *slot)
{
  mine = slot;
}

static void
print_piece (struct piece const *p)
{
  if (p->is_error)
    error (0, p->errnum, "%s", p->text);
  else
    fputs (p->text, p->stream);
}

void
report_slot_done (struct report_slot *slot)
{
  pthread_mutex_lock (&lock);
  slot->done = true;
  while (head && head->done)
    {
      struct report_slot *s = head;
      for (size_t i = 0; i < s->n; i++)
        {
          print_piece (&s->v[i]);
          free (s->v[i].text);
        }
      head = s->next;
      if (!head)
        tail = NULL;
      free (s->v);
      free (s);
    }
  pthread_mutex_unlock (&lock);
}

/* End the place this thread took for what it said, if any.  */
static void
end_mine (void)
{
  if (mine)
    report_slot_done (mine);
  mine = NULL;
}

void
report_ordered (bool on)
{
  if (ordered)
    end_mine ();
  ordered = on;
}

struct report_slot *
report_turn (void)
{
  end_mine ();
  return report_slot_take ();
}

/* Keep TEXT, which is the caller's to give, for this thread's place;
   or print it now when the thread has none.  */
static void
keep (struct piece p)
{
  /* A place is taken only for what is said: most files say nothing.  */
  if (!mine && ordered)
    mine = report_slot_take ();
  if (!mine)
    {
      print_piece (&p);
      free (p.text);
      return;
    }
  /* Only this thread adds to its slot, and nothing reads it before
     report_slot_done: no lock is needed.  */
  if (mine->n == mine->alloc)
    mine->v = x2nrealloc (mine->v, &mine->alloc, sizeof *mine->v);
  mine->v[mine->n++] = p;
}

void
report_text (FILE *stream, char const *text)
{
  keep ((struct piece) { stream, false, 0, xstrdup (text) });
}

void
report_error (int status, int errnum, char const *format, ...)
{
  va_list ap;
  va_start (ap, format);
  char *text;
  if (vasprintf (&text, format, ap) < 0)
    xalloc_die ();
  va_end (ap);
  if (status)
    {
      error (status, errnum, "%s", text);
      abort ();
    }
  keep ((struct piece) { stderr, true, errnum, text });
}

enum { QUOTE_SLOTS = 4 };
static _Thread_local char *quoted[QUOTE_SLOTS];
static struct quoting_options *cp_quoting;
static pthread_once_t cp_quoting_once = PTHREAD_ONCE_INIT;

static void
make_cp_quoting (void)
{
  cp_quoting = clone_quoting_options (NULL);
  set_quoting_style (cp_quoting, shell_escape_always_quoting_style);
}

char const *
quote_file_n (int n, char const *arg)
{
  /* gnulib's quotearg_n keeps its slots in one array for all threads.  */
  if (n < 0 || n >= QUOTE_SLOTS)
    abort ();
  pthread_once (&cp_quoting_once, make_cp_quoting);
  free (quoted[n]);
  quoted[n] = quotearg_alloc (arg, SIZE_MAX, cp_quoting);
  return quoted[n];
}

void
report_thread_end (void)
{
  for (int i = 0; i < QUOTE_SLOTS; i++)
    {
      free (quoted[i]);
      quoted[i] = NULL;
    }
}
