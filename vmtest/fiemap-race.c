/* fiemap-race -- deterministic reproducer for the btrfs FIEMAP race.
 *
 * Usage: fiemap-race [-n REPS] [-c] [-t SECONDS] [-v] CASE DIR
 *
 * CASE is one of
 *   hole      buffered data written into an on-disk hole
 *   prealloc  buffered data written into a preallocated (fallocated) range
 *   selfmap   regression check: FIEMAP whose fm_extents buffer is a shared
 *             mmap of the file being mapped must complete
 *
 * For "hole" and "prealloc" each repetition builds a file larger than 16 MiB
 * in DIR with data extents around an on-disk hole, writes buffered data into
 * the hole (or into a preallocated range), and calls FIEMAP without
 * FIEMAP_FLAG_SYNC with fm_extents starting on a page registered with
 * userfaultfd, so the kernel parks in its first copy to user space.  While
 * it is parked the main thread writes the range back and waits for it
 * (sync_file_range with the WAIT flags, FIEMAP with FIEMAP_FLAG_SYNC),
 * commits (syncfs) and reclaims the range's pages (mmap + MADV_PAGEOUT);
 * then it resolves the fault and checks the map the parked call returned.
 *
 * -c additionally copies the file the way a naive FIEMAP copier does
 * (coreutils cp 8.11: no FIEMAP_FLAG_SYNC, UNWRITTEN extents and gaps are
 * holes) using that same racy map, and compares the copy with the file.
 *
 * Exit status: 0 every repetition gave a correct map (and copy),
 *              1 some repetition lost the data (hole or UNWRITTEN), or a
 *                corrupt copy, or selfmap did not complete in time,
 *              2 setup error (the test could not run).
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest-util.h"

/* File layout.  A and B are committed data extents before the hole, so the
 * kernel has an extent to copy out (and park on) before it reaches the hole;
 * C sits at the end and makes i_size larger than 16 MiB, the size above which
 * btrfs drops extent maps when pages are released. */
#define A_OFF     0
#define A_LEN     (64 * KiB)
#define B_OFF     (256 * KiB)
#define B_LEN     (64 * KiB)
#define H_OFF     (1 * MiB)          /* the range written while racing */
#define H_LEN     (128 * KiB)
#define C_LEN     (64 * KiB)
#define FILE_SIZE (20 * MiB)
#define C_OFF     (FILE_SIZE - C_LEN)

#define EXTENT_SLOTS 64

const char *prog = "fiemap-race";
static bool verbose;
static long page_size;

/* Watchdog: what the program is doing, and since when. */
static const char *volatile step = "starting";
static volatile time_t step_since;

static void progress(const char *what)
{
	step = what;
	step_since = time(NULL);
}

/* watchdog: if one step takes longer than *ARG seconds, the kernel has most
 * likely deadlocked; say so on stdout (the console) and exit 1.  The exit
 * may itself hang on threads stuck in the kernel, but the message is out. */
static void *watchdog(void *arg)
{
	int limit = *(int *)arg;

	for (;;) {
		sleep(1);
		if (time(NULL) - step_since > limit) {
			printf("%s: WRONG: stuck for over %d s in: %s (deadlock?)\n",
			       prog, limit, step);
			fflush(stdout);
			_exit(ST_WRONG);
		}
	}
	return NULL;
}

/* make_base_file: create PATH with data extents A, B and C committed to disk
 * and an on-disk hole at H (preallocated and committed when PREALLOC). */
static int make_base_file(const char *path, bool prealloc)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		setup_error("cannot create '%s'", path);
	fill_range(fd, A_OFF, A_LEN, 'A');
	fill_range(fd, B_OFF, B_LEN, 'B');
	fill_range(fd, C_OFF, C_LEN, 'C');
	if (prealloc && fallocate(fd, 0, H_OFF, H_LEN) != 0)
		setup_error("cannot fallocate '%s'", path);
	if (fsync(fd) != 0 || syncfs(fd) != 0)
		setup_error("cannot sync '%s'", path);
	return fd;
}

/* naive_copy: copy SRC to a new file DST_PATH trusting MAP the way cp 8.11
 * did (gaps and UNWRITTEN extents become holes), then compare with SRC.
 * Returns 0 if the copy is identical, 1 if not; exits 2 on I/O errors. */
static int naive_copy(int src, const struct fiemap *map, const char *dst_path,
		      char *reason, size_t reason_size)
{
	static char a[64 * KiB], b[64 * KiB];
	int dst = open(dst_path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	if (dst < 0)
		setup_error("cannot create '%s'", dst_path);
	if (ftruncate(dst, FILE_SIZE) != 0)
		setup_error("cannot truncate '%s'", dst_path);
	for (unsigned i = 0; i < map->fm_mapped_extents; i++) {
		const struct fiemap_extent *e = &map->fm_extents[i];
		off_t pos = e->fe_logical, end = e->fe_logical + e->fe_length;

		if (e->fe_flags & FIEMAP_EXTENT_UNWRITTEN)
			continue;
		if (end > FILE_SIZE)
			end = FILE_SIZE;
		while (pos < end) {
			size_t n = end - pos < (off_t)sizeof(a) ?
				   (size_t)(end - pos) : sizeof(a);
			ssize_t r = pread(src, a, n, pos);

			if (r <= 0 || pwrite(dst, a, r, pos) != r)
				setup_error("naive copy at %lld", (long long)pos);
			pos += r;
		}
	}
	for (off_t pos = 0; pos < FILE_SIZE; pos += sizeof(a)) {
		if (pread(src, a, sizeof(a), pos) != (ssize_t)sizeof(a) ||
		    pread(dst, b, sizeof(b), pos) != (ssize_t)sizeof(b))
			setup_error("cannot compare '%s'", dst_path);
		if (memcmp(a, b, sizeof(a)) != 0) {
			off_t at = pos;

			while (a[at - pos] == b[at - pos])
				at++;
			snprintf(reason, reason_size,
				 "naive copy differs from the file at %lld", (long long)at);
			close(dst);
			return 1;
		}
	}
	close(dst);
	return 0;
}

struct parked_call {
	int fd;
	struct fiemap *fm;
	int ret, err;
};

static void *run_fiemap(void *arg)
{
	struct parked_call *call = arg;

	call->ret = ioctl(call->fd, FS_IOC_FIEMAP, call->fm);
	call->err = errno;
	return NULL;
}

/* write_back_commit_reclaim: while fiemap is parked, make the written range
 * stable on disk, commit, and drop its pages (and with them the extent maps,
 * the file being larger than 16 MiB).  Must not take the inode lock, which
 * the parked fiemap holds shared: no fsync/fdatasync here. */
static void write_back_commit_reclaim(int fd)
{
	struct {
		struct fiemap fm;
		struct fiemap_extent ext[EXTENT_SLOTS];
	} synced = { .fm = {
		.fm_start = 0, .fm_length = FIEMAP_MAX_OFFSET,
		.fm_flags = FIEMAP_FLAG_SYNC, .fm_extent_count = EXTENT_SLOTS,
	} };

	if (sync_file_range(fd, H_OFF, H_LEN, SYNC_FILE_RANGE_WAIT_BEFORE |
			    SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER) != 0)
		setup_error("sync_file_range");
	if (ioctl(fd, FS_IOC_FIEMAP, &synced.fm) != 0)
		setup_error("FIEMAP with FIEMAP_FLAG_SYNC");
	if (verbose)
		print_map("FIEMAP_FLAG_SYNC while parked", &synced.fm);
	if (syncfs(fd) != 0)
		setup_error("syncfs");
	reclaim_range(fd, H_OFF, H_LEN);
}

/* race_once: one repetition of CASE in DIR; returns an enum status. */
static int race_once(const char *dir, bool prealloc, bool copy, int rep,
		     int timeout_s)
{
	char path[4096], copy_path[4096], reason[200] = "";
	int fd, uffd, status = ST_OK;
	struct parked_call call;
	pthread_t thread;
	char *area;

	snprintf(path, sizeof(path), "%s/fiemap-race.%d", dir, rep);
	snprintf(copy_path, sizeof(copy_path), "%s/fiemap-race.%d.naive", dir, rep);
	progress("creating the file");
	fd = make_base_file(path, prealloc);

	/* The data that must not get lost: buffered, not synced. */
	fill_range(fd, H_OFF, H_LEN, 'H');

	/* Two pages: the fiemap header ends exactly where the second page,
	 * registered with userfaultfd, begins; fm_extents starts there. */
	area = mmap(NULL, 2 * page_size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		setup_error("mmap");
	memset(area, 0, page_size);
	uffd = open_uffd(area + page_size, page_size);
	call.fd = fd;
	call.fm = (struct fiemap *)(area + page_size - sizeof(struct fiemap));
	call.fm->fm_start = 0;
	call.fm->fm_length = FIEMAP_MAX_OFFSET;
	call.fm->fm_flags = 0;
	call.fm->fm_extent_count = EXTENT_SLOTS;
	if (pthread_create(&thread, NULL, run_fiemap, &call) != 0)
		setup_error("pthread_create");

	progress("waiting for FIEMAP to fault on the userfaultfd page");
	wait_fault(uffd, timeout_s, "FIEMAP");

	progress("writeback, commit and reclaim while FIEMAP is parked");
	write_back_commit_reclaim(fd);
	progress("resuming the parked FIEMAP");

	/* Resolve the fault: let fiemap continue from where it parked. */
	resolve_fault(uffd, area + page_size);
	pthread_join(thread, NULL);
	if (call.ret != 0) {
		errno = call.err;
		setup_error("parked FIEMAP");
	}

	if (verbose)
		print_map("parked FIEMAP (no SYNC)", call.fm);
	status = check_range(call.fm, H_OFF, H_LEN, reason, sizeof(reason));
	if (copy) {
		char copy_reason[100];

		if (naive_copy(fd, call.fm, copy_path, copy_reason,
			       sizeof(copy_reason)) != 0) {
			snprintf(reason + strlen(reason),
				 sizeof(reason) - strlen(reason), "%s%s",
				 status == ST_OK ? "" : "; ", copy_reason);
			status = ST_WRONG;
		}
	}
	printf("%s: %s rep %d: %s%s\n", prog, prealloc ? "prealloc" : "hole",
	       rep, status == ST_OK ? "map correct" : "WRONG: ",
	       status == ST_OK ? (copy ? ", naive copy identical" : "") : reason);
	fflush(stdout);

	close(uffd);
	munmap(area, 2 * page_size);
	close(fd);
	unlink(path);
	unlink(copy_path);
	return status;
}

/* selfmap_once: FIEMAP into a shared mmap of the same file, whose pages are
 * not cached, in a child process; returns ST_WRONG if it does not finish in
 * TIMEOUT_S seconds (the deadlock narrow locking was added to avoid). */
static int selfmap_once(const char *dir, int rep, int timeout_s)
{
	char path[4096];
	size_t map_len = 2 * MiB;
	int fd, wstatus;
	pid_t child;

	snprintf(path, sizeof(path), "%s/fiemap-selfmap.%d", dir, rep);
	progress("creating the file");
	fd = make_base_file(path, false);
	fill_range(fd, 0, map_len, 'M');        /* data under the buffer */
	fill_range(fd, H_OFF + map_len, H_LEN, 'H'); /* plus some delalloc */
	if (sync_file_range(fd, 0, map_len, SYNC_FILE_RANGE_WAIT_BEFORE |
			    SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER) != 0)
		setup_error("sync_file_range");
	posix_fadvise(fd, 0, map_len, POSIX_FADV_DONTNEED);

	/* The child's FIEMAP has its own timeout below. */
	progress("FIEMAP into a mapping of the file");
	step_since += timeout_s;
	child = fork();
	if (child < 0)
		setup_error("fork");
	if (child == 0) {
		char *buf = mmap(NULL, map_len, PROT_READ | PROT_WRITE,
				 MAP_SHARED, fd, 0);
		struct fiemap *fm = (struct fiemap *)(buf + MiB);

		if (buf == MAP_FAILED)
			_exit(ST_SETUP);
		fm->fm_start = 0;
		fm->fm_length = FIEMAP_MAX_OFFSET;
		fm->fm_flags = 0;
		fm->fm_extent_count = EXTENT_SLOTS;
		/* fm points into pages that must be read back in first. */
		posix_fadvise(fd, 0, map_len, POSIX_FADV_DONTNEED);
		_exit(ioctl(fd, FS_IOC_FIEMAP, fm) == 0 ? ST_OK : ST_SETUP);
	}
	for (int waited_ms = 0; ; waited_ms += 100) {
		pid_t r = waitpid(child, &wstatus, WNOHANG);

		if (r == child)
			break;
		if (waited_ms >= timeout_s * 1000) {
			printf("%s: selfmap rep %d: WRONG: FIEMAP into an mmap of "
			       "the same file did not complete in %d s (deadlock)\n",
			       prog, rep, timeout_s);
			return ST_WRONG;
		}
		usleep(100 * 1000);
	}
	close(fd);
	unlink(path);
	if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != ST_OK) {
		errno = EIO;
		setup_error("FIEMAP into a self mapping failed");
	}
	printf("%s: selfmap rep %d: completed\n", prog, rep);
	fflush(stdout);
	return ST_OK;
}

static void usage(int status)
{
	fprintf(status ? stderr : stdout,
		"Usage: %s [-n REPS] [-c] [-t SECONDS] [-v] hole|prealloc|selfmap DIR\n"
		"Exit 0: map correct, 1: data lost or UNWRITTEN (or copy corrupt,\n"
		"or selfmap deadlock), 2: setup error.\n", prog);
	exit(status);
}

int main(int argc, char **argv)
{
	int reps = 1, timeout_s = 30, wrong = 0, opt;
	bool copy = false;
	const char *which, *dir;

	page_size = sysconf(_SC_PAGESIZE);
	while ((opt = getopt(argc, argv, "n:ct:vh")) != -1) {
		switch (opt) {
		case 'n': reps = atoi(optarg); break;
		case 'c': copy = true; break;
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
	setvbuf(stdout, NULL, _IOLBF, 0);
	progress("starting");
	{
		static int limit;
		pthread_t dog;

		limit = 2 * timeout_s;
		if (pthread_create(&dog, NULL, watchdog, &limit) != 0)
			setup_error("pthread_create");
	}

	for (int rep = 1; rep <= reps; rep++) {
		int st;

		if (strcmp(which, "hole") == 0 || strcmp(which, "prealloc") == 0)
			st = race_once(dir, strcmp(which, "prealloc") == 0, copy,
				       rep, timeout_s);
		else if (strcmp(which, "selfmap") == 0)
			st = selfmap_once(dir, rep, timeout_s);
		else
			usage(ST_SETUP);
		if (st == ST_WRONG)
			wrong++;
	}
	if (wrong)
		printf("%s: %s: FAIL: %d of %d repetitions wrong%s\n", prog, which,
		       wrong, reps, strcmp(which, "selfmap") ? " (race reproduced)" : "");
	else
		printf("%s: %s: PASS: %d of %d repetitions correct\n", prog, which,
		       reps, reps);
	return wrong ? ST_WRONG : ST_OK;
}
