/* guest-util.c -- helpers shared by the vmcheck guest's FIEMAP programs. */

#define _GNU_SOURCE
#include "guest-util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

void setup_error(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	fprintf(stderr, "%s: setup error: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(err));
	exit(ST_SETUP);
}

void fill_range(int fd, off_t off, size_t len, int byte)
{
	char buf[64 * KiB];
	size_t done = 0;

	memset(buf, byte, sizeof(buf));
	while (done < len) {
		size_t n = len - done < sizeof(buf) ? len - done : sizeof(buf);
		ssize_t w = pwrite(fd, buf, n, off + done);

		if (w <= 0)
			setup_error("cannot write at %lld", (long long)(off + done));
		done += w;
	}
}

int open_uffd(void *at, size_t len)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = {
		.range = { .start = (uintptr_t)at, .len = len },
		.mode = UFFDIO_REGISTER_MODE_MISSING,
	};
	int uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);

	if (uffd < 0)
		setup_error("userfaultfd");
	if (ioctl(uffd, UFFDIO_API, &api) != 0)
		setup_error("UFFDIO_API");
	if (ioctl(uffd, UFFDIO_REGISTER, &reg) != 0)
		setup_error("UFFDIO_REGISTER");
	return uffd;
}

void wait_fault(int uffd, int timeout_s, const char *what)
{
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };
	struct uffd_msg msg;

	if (poll(&pfd, 1, timeout_s * 1000) != 1 ||
	    read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT) {
		errno = ETIMEDOUT;
		setup_error("%s did not fault on the userfaultfd page", what);
	}
}

void resolve_fault(int uffd, void *at)
{
	static char zero[64 * KiB];
	long page_size = sysconf(_SC_PAGESIZE);
	struct uffdio_copy copy = {
		.dst = (uintptr_t)at, .src = (uintptr_t)zero, .len = page_size,
	};

	if (page_size > (long)sizeof(zero) || ioctl(uffd, UFFDIO_COPY, &copy) != 0)
		setup_error("UFFDIO_COPY");
}

void print_map(const char *what, const struct fiemap *fm)
{
	printf("#   %s: %u extents\n", what, fm->fm_mapped_extents);
	for (unsigned i = 0; i < fm->fm_mapped_extents; i++) {
		const struct fiemap_extent *e = &fm->fm_extents[i];

		printf("#     [%llu, +%llu) flags 0x%x\n",
		       (unsigned long long)e->fe_logical,
		       (unsigned long long)e->fe_length, e->fe_flags);
	}
}

int check_range(const struct fiemap *fm, uint64_t off, uint64_t len,
		char *reason, size_t reason_size)
{
	uint64_t pos = off, end = off + len;

	while (pos < end) {
		const struct fiemap_extent *hit = NULL;

		for (unsigned i = 0; i < fm->fm_mapped_extents; i++) {
			const struct fiemap_extent *e = &fm->fm_extents[i];

			if (e->fe_logical <= pos && pos < e->fe_logical + e->fe_length) {
				hit = e;
				break;
			}
		}
		if (!hit) {
			snprintf(reason, reason_size,
				 "written data at %llu reported as a hole",
				 (unsigned long long)pos);
			return 1;
		}
		if (hit->fe_flags & FIEMAP_EXTENT_UNWRITTEN) {
			snprintf(reason, reason_size,
				 "written data at %llu reported UNWRITTEN",
				 (unsigned long long)pos);
			return 1;
		}
		pos = hit->fe_logical + hit->fe_length;
	}
	return 0;
}

void reclaim_range(int fd, off_t off, size_t len)
{
	long page_size = sysconf(_SC_PAGESIZE);
	volatile const char *map;
	char sum = 0;

	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, off);
	if (map == MAP_FAILED)
		setup_error("mmap");
	for (size_t i = 0; i < len; i += page_size)
		sum += map[i];          /* map the pages so PAGEOUT sees them */
	(void)sum;
	if (madvise((void *)map, len, MADV_PAGEOUT) != 0)
		setup_error("madvise(MADV_PAGEOUT)");
	munmap((void *)map, len);
}
