/* Progress: a one-line bar on stderr for --progress.  */

#include "progress.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "error.h"
#include "progname.h"
#include "xalloc.h"

/* Redraw at most this often, in seconds.  */
#define REDRAW_INTERVAL 0.1

/* Columns when the terminal does not say.  */
enum { DEFAULT_WIDTH = 80 };

/* Room for everything on a line but the name.  */
enum { FIELDS_SIZE = 256 };

/* Formatting.  */

void
progress_human (char buf[PROGRESS_HUMAN_SIZE], off_t n)
{
  static char const units[][4] = { "KiB", "MiB", "GiB", "TiB", "PiB",
                                   "EiB" };
  uintmax_t v = n < 0 ? 0 : n;
  if (v < 1024)
    {
      snprintf (buf, PROGRESS_HUMAN_SIZE, "%ju B", v);
      return;
    }
  int u = 0;
  uintmax_t unit = 1024;
  while (u < 5 && v / unit >= 1024)
    unit *= 1024, u++;
  /* v % unit < 2^60, so ten times it still fits in 64 bits.  */
  snprintf (buf, PROGRESS_HUMAN_SIZE, "%ju.%ju %s", v / unit,
            v % unit * 10 / unit, units[u]);
}

void
progress_duration (char *buf, size_t size, double seconds)
{
  if (!(seconds >= 0) || seconds >= 100 * 3600.0)
    {
      snprintf (buf, size, "--:--");
      return;
    }
  long t = (long) (seconds + 0.5);
  if (t >= 3600)
    snprintf (buf, size, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
  else
    snprintf (buf, size, "%ld:%02ld", t / 60, t % 60);
}

int
progress_percent (off_t done, off_t total)
{
  if (done >= total)
    return 100;
  if (done <= 0)
    return 0;
  off_t p = (total <= INTMAX_MAX / 100 ? done * 100 / total
             : done / (total / 100));
  return p < 99 ? p : 99;
}

/* Append to BUF, of SIZE bytes and *LEN long, what FORMAT says, cut to
   fit.  */
static void __attribute__ ((format (printf, 4, 5)))
append (char *buf, size_t size, size_t *len, char const *format, ...)
{
  if (*len + 1 >= size)
    return;
  va_list ap;
  va_start (ap, format);
  int n = vsnprintf (buf + *len, size - *len, format, ap);
  va_end (ap);
  if (n > 0)
    *len = (*len + n < size ? *len + n : size - 1);
}

/* BYTES / SECONDS in units per second, or "--" when there is no rate.  */
static void
format_rate (char buf[PROGRESS_HUMAN_SIZE], off_t bytes, double seconds)
{
  if (bytes > 0 && seconds > 0)
    progress_human (buf, bytes / seconds);
  else
    snprintf (buf, PROGRESS_HUMAN_SIZE, "-- B");
}

/* What a file's line may leave out, least needed first, when the name
   would not get enough room on the terminal.  */
enum shown_fields
{
  ALL_FIELDS,
  NO_HOLES,           /* the holes: they do not change during a file */
  NO_HOLES_NO_RATE    /* and the rate: the time left says more */
};

/* A name is shortened to fewer columns than this only when no more
   fields can be left out.  */
enum { NAME_MIN_COLUMNS = 24 };

/* Write into BUF of SIZE bytes what V shows after the name, leaving out
   what SHOWN says.  */
static size_t
format_fields (char *buf, size_t size, struct progress_view const *v,
               enum shown_fields shown)
{
  char a[PROGRESS_HUMAN_SIZE], b[PROGRESS_HUMAN_SIZE];
  char r[PROGRESS_HUMAN_SIZE], t[PROGRESS_HUMAN_SIZE];
  size_t len = 0;
  buf[0] = '\0';

  if (!v->name)
    {
      progress_human (a, v->all_done);
      progress_human (b, v->all_holes);
      format_rate (r, v->all_done, v->all_seconds);
      progress_duration (t, sizeof t, v->all_seconds);
      append (buf, size, &len, "%jd file%s  %s  holes %s  %s/s  in %s",
              v->files_done, v->files_done == 1 ? "" : "s", a, b, r, t);
      return len;
    }

  progress_human (a, v->done);
  if (v->total >= 0)
    {
      progress_human (b, v->total);
      append (buf, size, &len, "%3d%%  %s / %s",
              progress_percent (v->done, v->total), a, b);
      progress_human (b, v->holes);
      if (shown < NO_HOLES)
        append (buf, size, &len, "  holes %s", b);
    }
  else
    append (buf, size, &len, "%s", a);
  format_rate (r, v->done, v->seconds);
  if (shown < NO_HOLES_NO_RATE)
    append (buf, size, &len, "  %s/s", r);

  if (v->ended)
    {
      progress_duration (t, sizeof t, v->seconds);
      append (buf, size, &len, "  in %s", t);
    }
  else if (v->total >= 0)
    {
      double left = -1;
      if (v->done > 0 && v->seconds > 0 && v->done <= v->total)
        left = (v->total - v->done) / (v->done / v->seconds);
      progress_duration (t, sizeof t, left);
      append (buf, size, &len, "  ETA %s", t);
    }

  if (v->files_begun > 1)
    {
      progress_human (a, v->all_done);
      append (buf, size, &len, "  [%jd file%s done, %s]",
              v->files_done, v->files_done == 1 ? "" : "s", a);
    }
  return len;
}

/* Whether byte C starts a character (is not a UTF-8 continuation).  */
static bool
starts_char (unsigned char c)
{
  return (c & 0xC0) != 0x80;
}

/* The columns NAME takes, counting a character as one column.  */
static size_t
name_columns (char const *name)
{
  size_t cols = 0;
  for (char const *p = name; *p; p++)
    cols += starts_char (*p);
  return cols;
}

/* Append NAME to BUF (SIZE bytes, *LEN long) in at most COLS columns:
   whole, or "..." and as much of its end as fits; control characters
   become '?'.  */
static void
append_name (char *buf, size_t size, size_t *len, char const *name,
             size_t cols)
{
  size_t have = name_columns (name);
  char const *p = name;
  if (have > cols)
    {
      if (cols < 4)
        return;
      append (buf, size, len, "...");
      /* Skip characters until the rest fits in COLS - 3 columns.  */
      for (size_t skip = have - (cols - 3); skip > 0 || !starts_char (*p);
           p++)
        if (starts_char (*p) && skip > 0)
          skip--;
    }
  for (; *p && *len + 1 < size; p++)
    {
      unsigned char c = *p;
      buf[(*len)++] = c < 0x20 || c == 0x7F ? '?' : c;
    }
  buf[*len] = '\0';
}

size_t
progress_format (char *buf, size_t size, struct progress_view const *v,
                 int width)
{
  char fields[FIELDS_SIZE];
  size_t len = 0;
  size_t max_cols = width > 0 ? width - 1 : SIZE_MAX;
  size_t want = v->name ? name_columns (v->name) : 0;
  if (want > NAME_MIN_COLUMNS)
    want = NAME_MIN_COLUMNS;

  if (size == 0)
    return 0;
  /* Leave out fields while that gives the name the room it wants.  */
  enum shown_fields shown = ALL_FIELDS;
  size_t flen = format_fields (fields, sizeof fields, v, shown);
  while (shown < NO_HOLES_NO_RATE && flen + 2 + want > max_cols)
    flen = format_fields (fields, sizeof fields, v, ++shown);
  buf[0] = '\0';
  if (v->name && flen + 2 < max_cols)
    {
      size_t before = len;
      append_name (buf, size, &len, v->name, max_cols - flen - 2);
      if (len > before)
        append (buf, size, &len, "  ");
    }
  /* The fields are ASCII: bytes are columns.  */
  if (flen > max_cols)
    fields[max_cols] = '\0';
  append (buf, size, &len, "%s", fields);
  return len;
}


/* The state of the bar.  */

static bool active;       /* progress is shown */
static bool in_place;     /* stderr is a terminal: redraw the line */
static bool shown;        /* a bar is on the terminal's current line */
static double last_draw;  /* when the bar was last drawn; 0 never */
static double first_start;
static double file_start;
static bool in_file;      /* a file has begun and not ended */
static char *name;
static off_t done, total, holes;
static intmax_t files_begun, files_done;
static off_t all_done, all_holes;
static char *line;        /* the line being drawn */
static size_t line_size;

/* Seconds on the monotonic clock.  */
static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The terminal's width in columns.  */
static int
terminal_width (void)
{
  struct winsize ws;
  if (ioctl (STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
    return ws.ws_col;
  return DEFAULT_WIDTH;
}

/* Draw the state at time T: the current file, or the totals when
   TOTALS.  On a terminal, replace the line, and end it when LAST; else
   write a line of its own.  */
static void
draw (double t, bool totals, bool last)
{
  struct progress_view v =
    { .name = totals ? NULL : name, .done = done, .total = total,
      .holes = holes, .seconds = t - file_start, .ended = !in_file,
      .files_begun = files_begun, .files_done = files_done,
      .all_done = all_done, .all_holes = all_holes,
      .all_seconds = t - first_start };
  size_t need = (name ? strlen (name) : 0) + FIELDS_SIZE + 8;
  if (line_size < need)
    {
      line = xrealloc (line, need);
      line_size = need;
    }
  progress_format (line, line_size, &v, in_place ? terminal_width () : 0);
  if (in_place)
    fprintf (stderr, "\r%s\033[K%s", line, last ? "\n" : "");
  else
    fprintf (stderr, "%s\n", line);
  shown = in_place && !last;
  last_draw = t;
}

/* Redraw the bar on the terminal unless it was drawn less than
   REDRAW_INTERVAL ago.  */
static void
maybe_draw (void)
{
  if (!in_place)
    return;
  double t = now ();
  if (last_draw == 0 || t - last_draw >= REDRAW_INTERVAL)
    draw (t, false, false);
}

/* Print the program's name for error (), on a line of its own.  */
static void
print_progname (void)
{
  progress_clear ();
  fprintf (stderr, "%s: ", program_name);
}

bool
progress_init (enum progress_when when)
{
  bool tty = isatty (STDERR_FILENO);
  active = when == PROGRESS_ALWAYS || (when == PROGRESS_AUTO && tty);
  in_place = active && tty;
  if (in_place)
    error_print_progname = print_progname;
  return active;
}

void
progress_file_begin (char const *file, off_t data_total, off_t hole_bytes)
{
  if (!active)
    return;
  if (in_file)
    {
      in_file = false;
      files_done++;
      all_holes += holes;
    }
  double t = now ();
  if (files_begun++ == 0)
    first_start = t;
  free (name);
  name = xstrdup (file);
  file_start = t;
  done = 0;
  total = data_total;
  holes = hole_bytes;
  in_file = true;
  maybe_draw ();
}

void
progress_file_total (off_t data_total, off_t hole_bytes)
{
  if (!active || !in_file)
    return;
  total = data_total;
  holes = hole_bytes;
  maybe_draw ();
}

void
progress_bytes (off_t n)
{
  if (!active || !in_file)
    return;
  done += n;
  all_done += n;
  maybe_draw ();
}

void
progress_file_restart (void)
{
  if (!active || !in_file)
    return;
  all_done -= done;
  done = 0;
  file_start = now ();
  maybe_draw ();
}

void
progress_file_end (void)
{
  if (!active || !in_file)
    return;
  in_file = false;
  files_done++;
  all_holes += holes;
  /* On a terminal, a tree of small files would redraw at each of them:
     keep to the rate; progress_finish () draws the final state.  */
  if (in_place)
    maybe_draw ();
  else
    draw (now (), false, false);
}

void
progress_clear (void)
{
  if (shown)
    fputs ("\r\033[K", stderr);
  shown = false;
}

void
progress_finish (void)
{
  if (!active)
    return;
  if (in_file)
    progress_file_end ();
  if (files_begun > 1 || (in_place && files_begun == 1))
    draw (now (), files_begun > 1, true);
  else
    progress_clear ();
  if (error_print_progname == print_progname)
    error_print_progname = NULL;
  active = in_place = false;
  free (name);
  name = NULL;
  free (line);
  line = NULL;
  line_size = 0;
}
