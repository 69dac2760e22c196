/* fiemap-latency -- how long a writer waits for FIEMAPs of another range.
 *
 * Usage: fiemap-latency [-n WRITES] DIR
 *
 * A 1 GiB file (64 KiB of data at its start, the rest a hole) is appended
 * to, 64 KiB a write, each write followed by sync_file_range() that writes
 * it back and waits, so the writer goes through writeback and ordered
 * extent completion, which wait for any FIEMAP that holds the appended
 * range locked in the io tree.  The writer runs alone, then while another
 * thread calls FIEMAP on the first 4 KiB of the file in a loop.  Printed,
 * for both runs, the median and the maximum time of the write(2), which
 * waits for the inode lock every FIEMAP holds shared, and of the writeback
 * (sync_file_range), which waits for a FIEMAP that holds the appended
 * range locked in the io tree; and how many FIEMAP calls were made.  A
 * measurement, not a test: nothing here fails on a time.
 *
 * Exit status: 0 done, 2 setup error.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "guest-util.h"

const char *prog = "fiemap-latency";

#define FILE_SIZE (1024 * MiB)
#define CHUNK     (64 * KiB)

static volatile bool writing;
static volatile long fiemap_calls;

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void *map_loop(void *arg)
{
	int fd = *(int *)arg;
	struct {
		struct fiemap fm;
		struct fiemap_extent ext[16];
	} req;

	while (writing) {
		memset(&req, 0, sizeof(req));
		req.fm.fm_start = 0;
		req.fm.fm_length = 4 * KiB;
		req.fm.fm_extent_count = 16;
		if (ioctl(fd, FS_IOC_FIEMAP, &req.fm) != 0)
			setup_error("FIEMAP");
		fiemap_calls++;
	}
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* append_run: N appends at the end of FD; prints the median and the
 * maximum time of their writes and of their writebacks. */
static void append_run(int fd, int n, const char *what)
{
	static char buf[CHUNK];
	double *tw = calloc(n, sizeof(*tw)), *tb = calloc(n, sizeof(*tb));
	off_t end = lseek(fd, 0, SEEK_END);

	if (!tw || !tb)
		setup_error("calloc");
	memset(buf, 'w', sizeof(buf));
	for (int i = 0; i < n; i++) {
		double t0 = now_us(), t1;

		if (pwrite(fd, buf, CHUNK, end) != CHUNK)
			setup_error("pwrite");
		t1 = now_us();
		if (sync_file_range(fd, end, CHUNK, SYNC_FILE_RANGE_WAIT_BEFORE |
				    SYNC_FILE_RANGE_WRITE |
				    SYNC_FILE_RANGE_WAIT_AFTER) != 0)
			setup_error("sync_file_range");
		tw[i] = t1 - t0;
		tb[i] = now_us() - t1;
		end += CHUNK;
	}
	qsort(tw, n, sizeof(*tw), cmp_double);
	qsort(tb, n, sizeof(*tb), cmp_double);
	printf("%s: %s: %d appends of 64 KiB: write median %.0f us, max %.0f us; "
	       "writeback median %.0f us, max %.0f us\n", prog, what, n,
	       tw[n / 2], tw[n - 1], tb[n / 2], tb[n - 1]);
	free(tw);
	free(tb);
}

int main(int argc, char **argv)
{
	int n = 100, opt, fd;
	char path[4096];
	pthread_t mapper;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt == 'n')
			n = atoi(optarg);
		else
			return ST_SETUP;
	}
	if (argc - optind != 1 || n < 1) {
		fprintf(stderr, "Usage: %s [-n WRITES] DIR\n", prog);
		return ST_SETUP;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(path, sizeof(path), "%s/fiemap-latency", argv[optind]);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		setup_error("cannot create '%s'", path);
	fill_range(fd, 0, CHUNK, 'a');
	if (ftruncate(fd, FILE_SIZE) != 0 || fsync(fd) != 0)
		setup_error("cannot make '%s'", path);

	append_run(fd, n, "writer alone");
	writing = true;
	if (pthread_create(&mapper, NULL, map_loop, &fd) != 0)
		setup_error("pthread_create");
	append_run(fd, n, "with 4 KiB FIEMAPs of the start");
	writing = false;
	pthread_join(mapper, NULL);
	printf("%s: %ld FIEMAP calls meanwhile\n", prog, fiemap_calls);
	close(fd);
	unlink(path);
	return ST_OK;
}
