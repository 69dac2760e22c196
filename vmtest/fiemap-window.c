/* fiemap-window -- reproducers for four windows in btrfs FIEMAP that the
 * first version of kernel/patches (kernel/v1), or its 1/3 alone, leaves
 * open.
 *
 * Usage: fiemap-window [-n REPS] [-t SECONDS] [-v] sync|last|front|resume DIR
 *
 *   sync   FIEMAP_FLAG_SYNC under a concurrent write.  A writer takes the
 *          inode lock and parks in the fault on its source buffer (a
 *          userfaultfd page); FIEMAP with FIEMAP_FLAG_SYNC flushes, then waits
 *          for the inode lock; the writer is let go.  A kernel that flushes
 *          only before taking the lock answers with a DELALLOC extent
 *          although the caller asked for everything to be written first.
 *   last   FIEMAP_EXTENT_LAST on a partial range.  160 committed extents,
 *          then buffered data far past them; FIEMAP of the range holding the
 *          160 parks in a copy to user space (fm_extents on a userfaultfd
 *          page) while the far data is written back and its page (and
 *          extent map) reclaimed.  A kernel that knows
 *          the file's last extent only from before it parked flags the last
 *          extent of the range LAST, though another extent follows.
 *   front  The start of the first item.  Buffered data at the start of a
 *          preallocated extent, FIEMAP from the middle of that extent.  The
 *          FIEMAP thread is named "fiemap-park", which makes a kernel with
 *          kernel/test-hooks stop it at the first item of its walk, after
 *          it has locked what it locks and read the leaf; while it waits,
 *          the data is written back, committed and its pages reclaimed.  A
 *          kernel that locks only from fm_start (v1) reports the data in
 *          front of fm_start UNWRITTEN; one that locks from the start of the
 *          prealloc item makes the writeback wait.  Without the hook: exit
 *          77.
 *   resume The start of the second pass.  100 committed extents, then a
 *          preallocated extent with buffered blocks all along it: more than
 *          the 128 extents a kernel with kernel/patches 1/3 buffers before
 *          it stops the walk and copies them out.  The FIEMAP thread parks
 *          in that copy-out (fm_extents on a userfaultfd page), takes the
 *          hook's name there, and so is stopped at the first item of the
 *          second pass, which resumes inside the preallocated extent;
 *          meanwhile the extent's data is settled as in front.  1/3 alone
 *          reports the data past the resume point UNWRITTEN; with 2/3 the
 *          range the second pass walks is locked.  Without the hook: 77.
 *
 * Exit status: 0 every repetition correct, 1 some repetition wrong, 2 setup
 * error, 77 the case cannot run on this kernel.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "guest-util.h"

const char *prog = "fiemap-window";

static bool verbose;
static long page_size;

#define SLOTS 256

struct call {
	int fd;
	struct fiemap *fm;
	const char *name;       /* thread name to take first, or NULL */
	volatile pid_t tid;
	volatile bool done;
	int ret, err;
};

/* run_fiemap: FS_IOC_FIEMAP in its own thread. */
static void *run_fiemap(void *arg)
{
	struct call *c = arg;

	if (c->name)
		prctl(PR_SET_NAME, c->name);
	c->tid = gettid();
	c->ret = ioctl(c->fd, FS_IOC_FIEMAP, c->fm);
	c->err = errno;
	c->done = true;
	return NULL;
}

static void start_fiemap(struct call *c, pthread_t *thread)
{
	c->tid = 0;
	c->done = false;
	if (pthread_create(thread, NULL, run_fiemap, c) != 0)
		setup_error("pthread_create");
}

static void join_fiemap(struct call *c, pthread_t thread)
{
	pthread_join(thread, NULL);
	if (c->ret != 0) {
		errno = c->err;
		setup_error("FIEMAP");
	}
}

/* new_map: a fiemap request for SLOTS extents, in anonymous memory; when
 * UFFD is not NULL, fm_extents begins on a page registered with a new
 * userfaultfd, whose descriptor is stored there, and only that page is. */
static struct fiemap *new_map(uint64_t start, uint64_t len, uint32_t flags,
			      int *uffd)
{
	size_t ext = SLOTS * sizeof(struct fiemap_extent);
	size_t size = page_size + ext + page_size;
	char *area = mmap(NULL, size, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct fiemap *fm;

	if (area == MAP_FAILED)
		setup_error("mmap");
	fm = (struct fiemap *)(area + page_size - sizeof(struct fiemap));
	memset(area, 0, page_size);
	/* Fault in every page after the first of fm_extents now. */
	memset(area + 2 * page_size, 0, size - 2 * page_size);
	if (uffd)
		*uffd = open_uffd(area + page_size, page_size);
	else
		memset(area + page_size, 0, page_size);
	fm->fm_start = start;
	fm->fm_length = len;
	fm->fm_flags = flags;
	fm->fm_extent_count = SLOTS;
	return fm;
}

static void free_map(struct fiemap *fm)
{
	size_t size = 2 * page_size + SLOTS * sizeof(struct fiemap_extent);

	munmap((char *)fm + sizeof(struct fiemap) - page_size, size);
}

static int create(const char *dir, const char *name, int rep, char *path,
		  size_t path_size)
{
	int fd;

	snprintf(path, path_size, "%s/fiemap-window.%s.%d", dir, name, rep);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		setup_error("cannot create '%s'", path);
	return fd;
}

static void commit(int fd)
{
	if (fsync(fd) != 0 || syncfs(fd) != 0)
		setup_error("cannot sync");
}

/* sleep_ms: nanosleep for MS milliseconds. */
static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* task_state: the state letter in /proc/self/task/TID/stat. */
static char task_state(pid_t tid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

/* task_named: is the name of thread TID NAME? */
static bool task_named(pid_t tid, const char *name)
{
	char path[64], buf[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return strcmp(buf, name) == 0;
}

/* ---- sync ---------------------------------------------------------------- */

#define SYNC_SIZE  (1 * MiB)
#define SYNC_W_OFF (512 * KiB)

struct parked_write {
	int fd;
	void *buf;
	ssize_t ret;
};

static void *run_write(void *arg)
{
	struct parked_write *w = arg;

	w->ret = pwrite(w->fd, w->buf, page_size, SYNC_W_OFF);
	return NULL;
}

static int sync_once(const char *dir, int rep, int timeout_s)
{
	char path[4096], reason[200] = "";
	struct parked_write w;
	pthread_t writer, mapper;
	struct call c;
	int fd, uffd, status = ST_OK, steady = 0;

	fd = create(dir, "sync", rep, path, sizeof(path));
	fill_range(fd, 0, 64 * KiB, 'A');
	fill_range(fd, SYNC_SIZE - 64 * KiB, 64 * KiB, 'C');
	commit(fd);

	/* The writer takes the inode lock, then faults on its buffer. */
	w.fd = fd;
	w.buf = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w.buf == MAP_FAILED)
		setup_error("mmap");
	uffd = open_uffd(w.buf, page_size);
	if (pthread_create(&writer, NULL, run_write, &w) != 0)
		setup_error("pthread_create");
	wait_fault(uffd, timeout_s, "write()");

	/* FIEMAP_FLAG_SYNC now: it must wait for the writer somewhere. */
	c.fd = fd;
	c.name = NULL;
	c.fm = new_map(0, FIEMAP_MAX_OFFSET, FIEMAP_FLAG_SYNC, NULL);
	start_fiemap(&c, &mapper);
	for (int waited = 0; steady < 5; waited += 50) {
		if (c.done || waited > timeout_s * 1000) {
			errno = ETIMEDOUT;
			setup_error("FIEMAP did not block behind the parked write");
		}
		steady = c.tid && task_state(c.tid) == 'D' ? steady + 1 : 0;
		sleep_ms(50);
	}

	resolve_fault(uffd, w.buf);
	pthread_join(writer, NULL);
	if (w.ret != page_size)
		setup_error("parked write");
	join_fiemap(&c, mapper);

	if (verbose)
		print_map("FIEMAP_FLAG_SYNC behind a write", c.fm);
	for (unsigned i = 0; i < c.fm->fm_mapped_extents; i++) {
		const struct fiemap_extent *e = &c.fm->fm_extents[i];

		if (e->fe_flags & FIEMAP_EXTENT_DELALLOC) {
			snprintf(reason, sizeof(reason),
				 "FIEMAP_FLAG_SYNC answered [%llu, +%llu) DELALLOC",
				 (unsigned long long)e->fe_logical,
				 (unsigned long long)e->fe_length);
			status = ST_WRONG;
			break;
		}
	}
	if (status == ST_OK)
		status = check_range(c.fm, SYNC_W_OFF, page_size, reason,
				     sizeof(reason));
	printf("%s: sync rep %d: %s%s\n", prog, rep,
	       status == ST_OK ? "map correct" : "WRONG: ", reason);

	free_map(c.fm);
	munmap(w.buf, page_size);
	close(uffd);
	close(fd);
	unlink(path);
	return status;
}

/* ---- last ---------------------------------------------------------------- */

#define LAST_COUNT  160         /* more than the kernel buffers at once */
#define LAST_STRIDE (16 * KiB)
/* The extent past the range; it makes the file larger than 16 MiB, so that
 * reclaiming its page drops its extent map. */
#define LAST_FAR    (20 * MiB)

static int last_once(const char *dir, int rep, int timeout_s)
{
	char path[4096], reason[200] = "";
	int fd, uffd, status = ST_OK;
	const uint64_t range = LAST_COUNT * LAST_STRIDE;
	pthread_t mapper;
	struct call c;

	fd = create(dir, "last", rep, path, sizeof(path));
	for (int i = 0; i < LAST_COUNT; i++)
		fill_range(fd, i * LAST_STRIDE, 4 * KiB, 'L');
	commit(fd);
	fill_range(fd, LAST_FAR, 4 * KiB, 'F');   /* buffered only */

	c.fd = fd;
	c.name = NULL;
	c.fm = new_map(0, range, 0, &uffd);
	start_fiemap(&c, &mapper);
	wait_fault(uffd, timeout_s, "FIEMAP");

	/* Parked: write the far extent back, let its ordered extent complete
	 * (syncfs waits for ordered extents, then commits), and drop its
	 * extent map, which would otherwise still tell of data there. */
	if (sync_file_range(fd, LAST_FAR, 4 * KiB, SYNC_FILE_RANGE_WAIT_BEFORE |
			    SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER) != 0)
		setup_error("sync_file_range");
	if (syncfs(fd) != 0)
		setup_error("syncfs");
	reclaim_range(fd, LAST_FAR, 4 * KiB);

	resolve_fault(uffd, c.fm->fm_extents);
	join_fiemap(&c, mapper);

	if (verbose)
		print_map("partial FIEMAP parked in its copy-out", c.fm);
	if (c.fm->fm_mapped_extents != LAST_COUNT) {
		snprintf(reason, sizeof(reason), "%u extents in the range, not %d",
			 c.fm->fm_mapped_extents, LAST_COUNT);
		status = ST_WRONG;
	}
	for (unsigned i = 0; i < c.fm->fm_mapped_extents; i++) {
		const struct fiemap_extent *e = &c.fm->fm_extents[i];

		if ((e->fe_flags & FIEMAP_EXTENT_LAST) &&
		    e->fe_logical + e->fe_length <= LAST_FAR) {
			snprintf(reason, sizeof(reason),
				 "[%llu, +%llu) flagged LAST, but data follows at %llu",
				 (unsigned long long)e->fe_logical,
				 (unsigned long long)e->fe_length, LAST_FAR);
			status = ST_WRONG;
		}
	}
	printf("%s: last rep %d: %s%s\n", prog, rep,
	       status == ST_OK ? "map correct" : "WRONG: ", reason);

	free_map(c.fm);
	close(uffd);
	close(fd);
	unlink(path);
	return status;
}

/* ---- front --------------------------------------------------------------- */

#define FRONT_SIZE     (20 * MiB)   /* > 16 MiB: reclaim drops extent maps */
#define FRONT_P_OFF    (1 * MiB)    /* the preallocated extent */
#define FRONT_P_LEN    (2 * MiB)
#define FRONT_H_LEN    (128 * KiB)  /* data written at its start */
#define FRONT_START    (2 * MiB)    /* fm_start, inside it */

struct settle {
	int fd;
	off_t off, len;         /* the range to settle */
	volatile bool done;
};

/* run_settle: write the data back, wait for its ordered extent and commit
 * (syncfs), and drop its pages and with them its extent maps.  No fsync and
 * no FIEMAP_FLAG_SYNC: both could wait for the parked FIEMAP's locks. */
static void *run_settle(void *arg)
{
	struct settle *s = arg;

	if (sync_file_range(s->fd, s->off, s->len,
			    SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
			    SYNC_FILE_RANGE_WAIT_AFTER) != 0)
		setup_error("sync_file_range");
	if (syncfs(s->fd) != 0)
		setup_error("syncfs");
	reclaim_range(s->fd, s->off, s->len);
	s->done = true;
	return NULL;
}

/* wait_parked: wait until the FIEMAP of C stops at the test hook, and
 * return true; false if it finished instead (no hook in this kernel). */
static bool wait_parked(struct call *c, int timeout_s)
{
	for (int waited = 0; !(c->tid && task_named(c->tid, "fiemap-parked"));
	     waited += 10) {
		if (c->done)
			return false;
		if (waited > timeout_s * 1000) {
			errno = ETIMEDOUT;
			setup_error("FIEMAP neither parked nor finished");
		}
		sleep_ms(10);
	}
	return true;
}

/* settle_parked: with the FIEMAP of C parked, settle [OFF, OFF + LEN) of
 * FD on a thread of its own (run_settle).  A kernel that holds that
 * range locked makes the writeback wait: give up waiting after 10 s and
 * let FIEMAP go.  Return whether the writeback had to wait. */
static bool settle_parked(struct call *c, pthread_t mapper, int fd, off_t off,
			  off_t len)
{
	struct settle s = { .fd = fd, .off = off, .len = len, .done = false };
	pthread_t settler;
	int waited;

	if (pthread_create(&settler, NULL, run_settle, &s) != 0)
		setup_error("pthread_create");
	for (waited = 0; !s.done && waited < 10000; waited += 10)
		sleep_ms(10);
	if (syscall(SYS_tgkill, getpid(), c->tid, SIGUSR1) != 0)
		setup_error("tgkill");
	join_fiemap(c, mapper);
	pthread_join(settler, NULL);
	return waited >= 10000;
}

static void wake(int sig)
{
	(void)sig;
}

static int front_once(const char *dir, int rep, int timeout_s)
{
	char path[4096], reason[200] = "";
	int fd, status = ST_OK;
	pthread_t mapper;
	bool waited;
	struct call c;

	fd = create(dir, "front", rep, path, sizeof(path));
	fill_range(fd, 0, 64 * KiB, 'A');
	fill_range(fd, FRONT_SIZE - 64 * KiB, 64 * KiB, 'C');
	if (fallocate(fd, 0, FRONT_P_OFF, FRONT_P_LEN) != 0)
		setup_error("fallocate");
	commit(fd);
	fill_range(fd, FRONT_P_OFF, FRONT_H_LEN, 'H');   /* buffered only */

	c.fd = fd;
	c.name = "fiemap-park";
	c.fm = new_map(FRONT_START, FIEMAP_MAX_OFFSET, 0, NULL);
	start_fiemap(&c, &mapper);
	if (!wait_parked(&c, timeout_s)) {
		join_fiemap(&c, mapper);
		printf("%s: front: this kernel has no vmcheck delay hook\n", prog);
		free_map(c.fm);
		close(fd);
		unlink(path);
		return ST_SKIP;
	}
	/* Parked at the first item: settle the data in front of fm_start. */
	waited = settle_parked(&c, mapper, fd, FRONT_P_OFF, FRONT_H_LEN);

	if (verbose)
		print_map("FIEMAP parked at the first item", c.fm);
	for (unsigned i = 0; i < c.fm->fm_mapped_extents; i++) {
		const struct fiemap_extent *e = &c.fm->fm_extents[i];

		if (e->fe_logical < FRONT_P_OFF + FRONT_H_LEN &&
		    e->fe_logical + e->fe_length > FRONT_P_OFF &&
		    (e->fe_flags & FIEMAP_EXTENT_UNWRITTEN)) {
			snprintf(reason, sizeof(reason),
				 "written data at %lld in [%llu, +%llu), reported UNWRITTEN",
				 FRONT_P_OFF, (unsigned long long)e->fe_logical,
				 (unsigned long long)e->fe_length);
			status = ST_WRONG;
		}
	}
	printf("%s: front rep %d: %s%s%s\n", prog, rep,
	       status == ST_OK ? "map correct" : "WRONG: ", reason,
	       waited ? " (writeback waited for FIEMAP)" : "");

	free_map(c.fm);
	close(fd);
	unlink(path);
	return status;
}

/* ---- resume -------------------------------------------------------------- */

/* RESUME_COUNT committed 4 KiB extents, then a preallocated extent with a
 * buffered 4 KiB block every RESUME_STRIDE: more extents than the kernel
 * buffers at once (128), so the walk is stopped, copied out, and resumed
 * from inside the preallocated extent. */
#define RESUME_COUNT   100
#define RESUME_P_OFF   (2 * MiB)
#define RESUME_P_LEN   (2 * MiB)
#define RESUME_STRIDE  (32 * KiB)
#define RESUME_BLOCKS  (RESUME_P_LEN / RESUME_STRIDE)
#define RESUME_SIZE    (20 * MiB)   /* > 16 MiB: reclaim drops extent maps */

/* rename_task: set the name of thread TID of this process. */
static void rename_task(pid_t tid, const char *name)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", (int)tid);
	f = fopen(path, "w");
	if (!f || fputs(name, f) == EOF || fclose(f) != 0)
		setup_error("cannot rename thread %d", (int)tid);
}

static int resume_once(const char *dir, int rep, int timeout_s)
{
	char path[4096], reason[200] = "";
	int fd, uffd, status = ST_OK;
	pthread_t mapper;
	bool waited;
	struct call c;

	fd = create(dir, "resume", rep, path, sizeof(path));
	for (int i = 0; i < RESUME_COUNT; i++)
		fill_range(fd, i * 16 * KiB, 4 * KiB, 'A');
	fill_range(fd, RESUME_SIZE - 64 * KiB, 64 * KiB, 'C');
	if (fallocate(fd, 0, RESUME_P_OFF, RESUME_P_LEN) != 0)
		setup_error("fallocate");
	commit(fd);
	for (int i = 0; i < RESUME_BLOCKS; i++)   /* buffered only */
		fill_range(fd, RESUME_P_OFF + i * RESUME_STRIDE, 4 * KiB, 'H');

	/* The first pass must not stop at the hook: the thread takes the hook's
	 * name only while it is parked in the first copy-out, between passes. */
	c.fd = fd;
	c.name = "fiemap-walk";
	c.fm = new_map(0, FIEMAP_MAX_OFFSET, 0, &uffd);
	start_fiemap(&c, &mapper);
	wait_fault(uffd, timeout_s, "FIEMAP");
	rename_task(c.tid, "fiemap-park");
	resolve_fault(uffd, c.fm->fm_extents);
	if (!wait_parked(&c, timeout_s)) {
		join_fiemap(&c, mapper);
		printf("%s: resume: this kernel has no vmcheck delay hook\n", prog);
		free_map(c.fm);
		close(uffd);
		close(fd);
		unlink(path);
		return ST_SKIP;
	}
	/* Parked at the first item of the second pass: settle all the data
	 * in the preallocated extent. */
	waited = settle_parked(&c, mapper, fd, RESUME_P_OFF, RESUME_P_LEN);

	if (verbose)
		print_map("FIEMAP parked at the first item of its second pass", c.fm);
	if (c.fm->fm_mapped_extents <= 128) {
		snprintf(reason, sizeof(reason),
			 "%u extents: no second pass to test", c.fm->fm_mapped_extents);
		status = ST_WRONG;
	}
	for (int b = 0; b < RESUME_BLOCKS && status == ST_OK; b++) {
		uint64_t off = RESUME_P_OFF + (uint64_t)b * RESUME_STRIDE;

		status = check_range(c.fm, off, 4 * KiB, reason, sizeof(reason));
		for (unsigned i = 0; i < c.fm->fm_mapped_extents && status == ST_OK; i++) {
			const struct fiemap_extent *e = &c.fm->fm_extents[i];

			if (e->fe_logical < off + 4 * KiB &&
			    e->fe_logical + e->fe_length > off &&
			    (e->fe_flags & FIEMAP_EXTENT_UNWRITTEN)) {
				snprintf(reason, sizeof(reason),
					 "written data at %llu in [%llu, +%llu), reported UNWRITTEN",
					 (unsigned long long)off,
					 (unsigned long long)e->fe_logical,
					 (unsigned long long)e->fe_length);
				status = ST_WRONG;
			}
		}
	}
	printf("%s: resume rep %d: %s%s (%u extents)%s\n", prog, rep,
	       status == ST_OK ? "map correct" : "WRONG: ", reason,
	       c.fm->fm_mapped_extents,
	       waited ? " (writeback waited for FIEMAP)" : "");

	free_map(c.fm);
	close(uffd);
	close(fd);
	unlink(path);
	return status;
}

static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"Usage: %s [-n REPS] [-t SECONDS] [-v] sync|last|front|resume DIR\n"
		"Exit 0: correct, 1: wrong map, 2: setup error, 77: cannot run here.\n",
		prog);
	exit(status);
}

int main(int argc, char **argv)
{
	int reps = 1, timeout_s = 30, wrong = 0, opt;
	struct sigaction sa = { .sa_handler = wake };
	int (*once)(const char *, int, int);
	const char *which, *dir;

	page_size = sysconf(_SC_PAGESIZE);
	while ((opt = getopt(argc, argv, "n:t:vh")) != -1) {
		switch (opt) {
		case 'n': reps = atoi(optarg); break;
		case 't': timeout_s = atoi(optarg); break;
		case 'v': verbose = true; break;
		case 'h': usage(0); break;
		default: usage(ST_SETUP);
		}
	}
	if (argc - optind != 2 || reps < 1 || timeout_s < 1)
		usage(ST_SETUP);
	which = argv[optind];
	dir = argv[optind + 1];
	if (strcmp(which, "sync") == 0)
		once = sync_once;
	else if (strcmp(which, "last") == 0)
		once = last_once;
	else if (strcmp(which, "front") == 0)
		once = front_once;
	else if (strcmp(which, "resume") == 0)
		once = resume_once;
	else
		usage(ST_SETUP);
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* No SA_RESTART: the signal only ends the hook's sleep. */
	if (sigaction(SIGUSR1, &sa, NULL) != 0)
		setup_error("sigaction");

	for (int rep = 1; rep <= reps; rep++) {
		int st = once(dir, rep, timeout_s);

		if (st == ST_SKIP)
			return ST_SKIP;
		if (st == ST_WRONG)
			wrong++;
	}
	if (wrong)
		printf("%s: %s: FAIL: %d of %d repetitions wrong\n", prog, which,
		       wrong, reps);
	else
		printf("%s: %s: PASS: %d of %d repetitions correct\n", prog, which,
		       reps, reps);
	return wrong ? ST_WRONG : ST_OK;
}
