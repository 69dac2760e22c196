/* fiemap-restart -- does a FIEMAP walk report each block once after btrfs
 * flushes its entry cache in the middle of a hole or prealloc item?
 *
 * Usage: fiemap-restart [-t SECONDS] [-w] prealloc|hole DIR
 *
 * btrfs collects up to PAGE_SIZE / 32 = 128 extents in a kernel buffer,
 * copies them out and searches the tree again from the end of the last one.
 * That search lands in the item that straddles the resume offset.  A walk
 * that processes that item from its start again reports every range in
 * front of the resume offset a second time, and a count-only call
 * (fm_extent_count 0) never gets past it.
 *
 *   prealloc  4 MiB from fallocate and an fsync, then every even 4 KiB
 *             block written, not synced: 1024 entries, alternately
 *             DELALLOC and UNWRITTEN.
 *   hole      a 4 MiB file from ftruncate and an fsync, then every even
 *             block written: on a btrfs without the no-holes feature one
 *             explicit hole item spans the file, 512 DELALLOC entries.
 *
 * With the data dirty, FIEMAP without FIEMAP_FLAG_SYNC is asked with
 * fm_extent_count 1, 128, 129, 300, 1000 and 2000, as a walk of calls of
 * 16 extents, and as a count-only call.  Then the file is synced, and the
 * same calls are made again.  Every answer must be sorted without overlaps,
 * cover each block at most once, cover exactly the blocks the synced file
 * maps (up to the end of its last extent when the count cut it short), and
 * flag each block by its state: dirty blocks DELALLOC before the sync and
 * plain data after it, prealloc blocks UNWRITTEN.  The count-only call runs
 * in a child that must answer within SECONDS (default 10); the number it
 * answers must be the length of the full list.  A child that hangs gets
 * SIGKILL and, if that does not end it in 2 s, is released by writing the
 * file back (sync_file_range: fsync would wait for the inode lock the stuck
 * FIEMAP holds).
 *
 * With -w, only write the file (DIR/restart-CASE), leave it dirty and
 * exit, for another tool to map (vmcheck runs filefrag -v on it).
 *
 * Output: one line per call ("call ..."), comments for the defects, and
 * four summary lines, "dirty calls: ...", "dirty walk: ...", "synced
 * calls: ..." and "synced walk: ...", with the number of overlapping
 * entries: "calls" are the single calls from offset 0 and the count-only
 * call, "walk" the walk.  Exit status: 0 every answer right, 1 some answer
 * wrong (the summaries say which), 2 setup error.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest-util.h"

const char *prog = "fiemap-restart";

#define BLOCK 4096
#define NBLOCKS 1024
#define FILE_SIZE ((off_t)NBLOCKS * BLOCK)
#define MAX_SLOTS 2000
#define WALK_SLOTS 16

/* What the file holds in each block, and what the maps may say of it. */
enum kind { K_NONE, K_DATA, K_PREALLOC };

static enum kind layout[NBLOCKS];
static int synced;

static struct {
	struct fiemap fm;
	struct fiemap_extent ext[MAX_SLOTS];
} req;

/* Everything wrong in one state (dirty, synced), for its summary line. */
struct tally {
	int calls_wrong;
	long overlaps;
	int hung;
};

/* fiemap_call: FIEMAP from START over the rest of the file with COUNT
 * slots and FLAGS; returns 0 or -1 with errno. */
static int fiemap_call(int fd, uint64_t start, unsigned int count,
		       unsigned int flags)
{
	memset(&req, 0, sizeof(req.fm) + count * sizeof(req.ext[0]));
	req.fm.fm_start = start;
	req.fm.fm_length = FIEMAP_MAX_OFFSET - start;
	req.fm.fm_flags = flags;
	req.fm.fm_extent_count = count;
	return ioctl(fd, FS_IOC_FIEMAP, &req.fm);
}

/* A map being checked: which blocks it covered, and what was wrong. */
struct check {
	unsigned char seen[NBLOCKS];
	uint64_t prev_end;
	long overlaps;
	long defects;
	long entries;
};

static void defect(struct check *c, const char *what, const struct fiemap_extent *e)
{
	if (c->defects++ < 3)
		printf("#   %s: [%llu, +%llu) flags 0x%x\n", what,
		       (unsigned long long)e->fe_logical,
		       (unsigned long long)e->fe_length, e->fe_flags);
}

/* check_extent: add one extent of an answer to C. */
static void check_extent(struct check *c, const struct fiemap_extent *e)
{
	uint64_t b, first = e->fe_logical / BLOCK;
	uint64_t last = (e->fe_logical + e->fe_length + BLOCK - 1) / BLOCK;
	int delalloc = !!(e->fe_flags & FIEMAP_EXTENT_DELALLOC);
	int unwritten = !!(e->fe_flags & FIEMAP_EXTENT_UNWRITTEN);

	c->entries++;
	if (e->fe_length == 0 || e->fe_logical % BLOCK || e->fe_length % BLOCK)
		defect(c, "empty or unaligned extent", e);
	if (e->fe_logical < c->prev_end) {
		c->overlaps++;
		defect(c, "overlaps or precedes the extent before it", e);
	}
	if (e->fe_logical + e->fe_length > c->prev_end)
		c->prev_end = e->fe_logical + e->fe_length;
	for (b = first; b < last; b++) {
		if (b >= NBLOCKS) {
			defect(c, "past the end of the file", e);
			break;
		}
		if (c->seen[b]++ == 1)
			defect(c, "reports a block again", e);
		switch (layout[b]) {
		case K_NONE:
			defect(c, "reports a hole as mapped", e);
			break;
		case K_DATA:
			if (unwritten || delalloc == synced)
				defect(c, synced ? "written block not plain data"
						 : "dirty block not DELALLOC", e);
			break;
		case K_PREALLOC:
			if (!unwritten || delalloc)
				defect(c, "prealloc block not UNWRITTEN", e);
			break;
		}
	}
}

/* end_block: the block after the answer's last extent. */
static uint64_t end_block(const struct check *c)
{
	return (c->prev_end + BLOCK - 1) / BLOCK;
}

/* check_cover: every mapped block before the end of the answer was seen. */
static void check_cover(struct check *c)
{
	long missing = 0;

	for (uint64_t b = 0; b < end_block(c) && b < NBLOCKS; b++)
		if (layout[b] != K_NONE && !c->seen[b])
			missing++;
	if (missing) {
		printf("#   %ld mapped blocks before the end of the answer not reported\n",
		       missing);
		c->defects++;
	}
}

/* report: the "call" line of one answer; counts it in T.  Returns the
 * number of entries the answer had. */
static long report(struct tally *t, const char *what, struct check *c,
		   long want_entries)
{
	check_cover(c);
	if (want_entries >= 0 && c->entries != want_entries) {
		printf("#   %ld entries, expected %ld\n", c->entries, want_entries);
		c->defects++;
	}
	printf("call %s %s: %ld entries, %ld overlapping, up to block %llu: %s\n",
	       synced ? "synced" : "dirty", what, c->entries, c->overlaps,
	       (unsigned long long)end_block(c), c->defects ? "WRONG" : "right");
	if (c->defects)
		t->calls_wrong++;
	t->overlaps += c->overlaps;
	return c->entries;
}

/* one_call: FIEMAP from 0 with COUNT slots, checked; returns its number
 * of entries. */
static long one_call(int fd, struct tally *t, unsigned int count, long full)
{
	struct check c = { 0 };
	char what[32];
	long want = -1;

	if (fiemap_call(fd, 0, count, 0) < 0)
		setup_error("FIEMAP with %u slots", count);
	for (unsigned int i = 0; i < req.fm.fm_mapped_extents; i++)
		check_extent(&c, &req.ext[i]);
	/* A count the answer does not fill must hold the whole list. */
	if (full >= 0)
		want = full < (long)count ? full : (long)count;
	snprintf(what, sizeof(what), "count=%u", count);
	return report(t, what, &c, want);
}

/* walk: the whole file in calls of WALK_SLOTS extents, each starting at
 * the end of the last extent the one before returned, as copiers do. */
static void walk(int fd, struct tally *t, long full)
{
	struct check c = { 0 };
	uint64_t start = 0;
	int calls = 0, last = 0;

	/* A right walk takes NBLOCKS / WALK_SLOTS calls; a walk that does
	 * not get on is stopped at four times that. */
	while (!last && start < (uint64_t)FILE_SIZE &&
	       calls < 4 * NBLOCKS / WALK_SLOTS) {
		if (fiemap_call(fd, start, WALK_SLOTS, 0) < 0)
			setup_error("FIEMAP walk at %llu", (unsigned long long)start);
		calls++;
		if (req.fm.fm_mapped_extents == 0)
			break;
		for (unsigned int i = 0; i < req.fm.fm_mapped_extents; i++) {
			const struct fiemap_extent *e = &req.ext[i];

			check_extent(&c, e);
			last = !!(e->fe_flags & FIEMAP_EXTENT_LAST);
			if (e->fe_logical + e->fe_length > start)
				start = e->fe_logical + e->fe_length;
		}
	}
	if (!last) {
		printf("#   the walk ended after %d calls without FIEMAP_EXTENT_LAST\n", calls);
		c.defects++;
	}
	report(t, "walk of 16", &c, full);
}

/* count_only: fm_extent_count 0 in a child, which must answer within
 * TIMEOUT_S seconds; the answer must be FULL.  A hung child is killed, or
 * released by writing the file back. */
static void count_only(int fd, struct tally *t, int timeout_s, long full)
{
	int pipefd[2], status;
	unsigned int n = 0;
	pid_t pid;
	time_t t0 = time(NULL);
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	int done = 0, defects = 0;

	if (pipe(pipefd) < 0)
		setup_error("pipe");
	pid = fork();
	if (pid < 0)
		setup_error("fork");
	if (pid == 0) {
		close(pipefd[0]);
		if (fiemap_call(fd, 0, 0, 0) < 0)
			_exit(ST_SETUP);
		n = req.fm.fm_mapped_extents;
		if (write(pipefd[1], &n, sizeof(n)) != sizeof(n))
			_exit(ST_SETUP);
		_exit(0);
	}
	close(pipefd[1]);
	while (time(NULL) - t0 < timeout_s) {
		if (waitpid(pid, &status, WNOHANG) == pid) {
			done = 1;
			break;
		}
		nanosleep(&ts, NULL);
	}
	if (!done) {
		printf("#   count-only FIEMAP did not return in %d s\n", timeout_s);
		t->hung = 1;
		defects++;
		kill(pid, SIGKILL);
		sleep(2);
		if (waitpid(pid, &status, WNOHANG) == pid) {
			printf("#   SIGKILL ended it\n");
		} else {
			printf("#   SIGKILL did not end it in 2 s; writing the file back\n");
			if (sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WAIT_BEFORE |
					    SYNC_FILE_RANGE_WRITE |
					    SYNC_FILE_RANGE_WAIT_AFTER) < 0)
				setup_error("sync_file_range");
			if (waitpid(pid, &status, 0) != pid)
				setup_error("waitpid");
		}
		printf("#   it returned %ld s after it was called\n",
		       (long)(time(NULL) - t0));
		/* The file is no longer dirty: the calls after this one
		 * would not test the dirty state. */
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		setup_error("count-only FIEMAP child (status 0x%x)", status);
	} else if (read(pipefd[0], &n, sizeof(n)) != sizeof(n)) {
		setup_error("reading the count-only answer");
	} else if ((long)n != full) {
		printf("#   count-only answer %u, the full list has %ld entries\n", n, full);
		defects++;
	}
	close(pipefd[0]);
	printf("call %s count-only: %s%u after %ld s: %s\n",
	       synced ? "synced" : "dirty", done ? "" : "hung, ", n,
	       (long)(time(NULL) - t0), defects ? "WRONG" : "right");
	if (defects)
		t->calls_wrong++;
}

/* all_calls: every call of the test in the current state: single calls
 * from offset 0 into CALLS, the walk into WALK. */
static void all_calls(int fd, struct tally *calls, struct tally *walked,
		      int timeout_s)
{
	static const unsigned int counts[] = { 1, 128, 129, 300, 1000 };
	long full = one_call(fd, calls, MAX_SLOTS, -1);

	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		one_call(fd, calls, counts[i], full);
	walk(fd, walked, full);
	/* Last, as a hung count-only call ends the dirty state. */
	count_only(fd, calls, timeout_s, full);
}

static void summary(const char *state, const char *what, const struct tally *t)
{
	printf("%s %s: %d wrong, %ld overlapping entries%s\n", state, what,
	       t->calls_wrong, t->overlaps,
	       t->hung ? ", count-only call hung" : "");
}

int main(int argc, char **argv)
{
	struct tally dirty = { 0 }, dirty_walk = { 0 };
	struct tally clean = { 0 }, clean_walk = { 0 };
	int timeout_s = 10, opt, fd, prealloc, write_only = 0;
	char path[4096];

	while ((opt = getopt(argc, argv, "t:w")) != -1) {
		if (opt == 't')
			timeout_s = atoi(optarg);
		else if (opt == 'w')
			write_only = 1;
		else
			goto usage;
	}
	if (argc - optind != 2)
		goto usage;
	if (strcmp(argv[optind], "prealloc") == 0)
		prealloc = 1;
	else if (strcmp(argv[optind], "hole") == 0)
		prealloc = 0;
	else
		goto usage;

	/* The guest shows each answer as it comes, through a pipe. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(path, sizeof(path), "%s/restart-%s", argv[optind + 1], argv[optind]);
	unlink(path);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		setup_error("open '%s'", path);
	if (prealloc) {
		if (fallocate(fd, 0, 0, FILE_SIZE) < 0)
			setup_error("fallocate");
	} else if (ftruncate(fd, FILE_SIZE) < 0) {
		setup_error("ftruncate");
	}
	if (fsync(fd) < 0)
		setup_error("fsync");
	for (int b = 0; b < NBLOCKS; b++) {
		if (b % 2 == 0) {
			fill_range(fd, (off_t)b * BLOCK, BLOCK, 'a' + b % 26);
			layout[b] = K_DATA;
		} else {
			layout[b] = prealloc ? K_PREALLOC : K_NONE;
		}
	}
	if (write_only)
		return ST_OK;

	all_calls(fd, &dirty, &dirty_walk, timeout_s);
	summary("dirty", "calls", &dirty);
	summary("dirty", "walk", &dirty_walk);

	/* The layout after a sync is the reference the dirty answers were
	 * checked against: confirm it is what was written. */
	if (fiemap_call(fd, 0, MAX_SLOTS, FIEMAP_FLAG_SYNC) < 0)
		setup_error("FIEMAP with FIEMAP_FLAG_SYNC");
	if (fsync(fd) < 0)
		setup_error("fsync");
	synced = 1;
	all_calls(fd, &clean, &clean_walk, timeout_s);
	summary("synced", "calls", &clean);
	summary("synced", "walk", &clean_walk);

	close(fd);
	unlink(path);
	return dirty.calls_wrong || dirty_walk.calls_wrong ||
	       clean.calls_wrong || clean_walk.calls_wrong ? ST_WRONG : ST_OK;
usage:
	fprintf(stderr, "usage: %s [-t SECONDS] [-w] prealloc|hole DIR\n", prog);
	return ST_SETUP;
}
